/** Marker that the React entry point of wallet-runtime is loaded. */
export const REACT_ENTRY = "wallet-runtime/react"
