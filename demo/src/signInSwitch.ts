/** Whether the demo asks visitors to sign in with their wallet: off, on, or required (kept across reloads). */
const STORAGE_KEY = "demo:sign-in"

/** How the demo asks for sign-in; "siwe" signs in through the legacy `siweConfig` (the demo's own, demoSiwe.ts). */
export type SignInMode = "off" | "on" | "required" | "siwe"

/** The sign-in mode chosen on this browser; `?signIn=on|required|siwe|off` in the page's address chooses it too. */
export const signInMode = (): SignInMode => {
  const asked = new URLSearchParams(location.search).get("signIn")
  const value = asked ?? localStorage.getItem(STORAGE_KEY)
  return value === "on" || value === "required" || value === "siwe" ? value : "off"
}

/** Chooses the sign-in mode; it takes effect on reload (the runtime reads its options once). */
export const setSignInMode = (mode: SignInMode): void => {
  if (mode === "off") localStorage.removeItem(STORAGE_KEY)
  else localStorage.setItem(STORAGE_KEY, mode)
}
