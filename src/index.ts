/** Version of the wallet-runtime package. */
export const VERSION = "0.1.0"
