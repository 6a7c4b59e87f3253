/**
 * How the demo's Connect view is set up (kept across reloads, like the sign-in mode): the site's Terms and Privacy
 * Policy — none, a footnote, or a box the visitor ticks before connecting (`features.legalCheckbox`) — and whether the
 * wallets are folded into one row beside email (`features.collapseWallets`). `?terms=notice|agree` and
 * `?wallets=folded` in the page's address choose them too.
 */
const TERMS_KEY = "demo:terms"
const WALLETS_KEY = "demo:wallets"

/** How the demo shows its Terms and Privacy Policy. */
export type TermsMode = "off" | "notice" | "agree"

/** The Terms mode chosen on this browser. */
export const termsMode = (): TermsMode => {
  const value = new URLSearchParams(location.search).get("terms") ?? localStorage.getItem(TERMS_KEY)
  return value === "notice" || value === "agree" ? value : "off"
}

/** Whether the wallets are folded beside email on this browser. */
export const walletsFolded = (): boolean =>
  (new URLSearchParams(location.search).get("wallets") ?? localStorage.getItem(WALLETS_KEY)) === "folded"

/** Chooses the Terms mode; it takes effect on reload (the runtime reads its options once). */
export const setTermsMode = (mode: TermsMode): void => {
  if (mode === "off") localStorage.removeItem(TERMS_KEY)
  else localStorage.setItem(TERMS_KEY, mode)
}

/** Chooses whether the wallets are folded beside email; it takes effect on reload. */
export const setWalletsFolded = (folded: boolean): void => {
  if (folded) localStorage.setItem(WALLETS_KEY, "folded")
  else localStorage.removeItem(WALLETS_KEY)
}

/** The host options these choices give (the Terms pages are the demo's own). */
export const connectViewOptions = (origin: string) => {
  const terms = termsMode()
  return {
    ...(terms !== "off" ? { termsConditionsUrl: `${origin}/terms.html`, privacyPolicyUrl: `${origin}/privacy.html` } : {}),
    features: { ...(terms === "agree" ? { legalCheckbox: true } : {}), ...(walletsFolded() ? { collapseWallets: true } : {}) }
  }
}
