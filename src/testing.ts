/** Marker that the testing entry point of wallet-runtime is loaded. */
export const TESTING_ENTRY = "wallet-runtime/testing"
