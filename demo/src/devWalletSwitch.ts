/** Whether the development wallet is on: kept apart from the wallet itself, which loads only when it is on. */
const STORAGE_KEY = "demo:dev-wallet"

/** Whether the development wallet is switched on (kept across reloads). */
export const devWalletEnabled = (): boolean => localStorage.getItem(STORAGE_KEY) === "on"

/** Switches the development wallet on or off; takes effect on reload, as installing an extension would. */
export const setDevWalletEnabled = (on: boolean): void => {
  if (on) localStorage.setItem(STORAGE_KEY, "on")
  else localStorage.removeItem(STORAGE_KEY)
}
