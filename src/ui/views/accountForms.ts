/**
 * The Swap and Buy views' entries, which the Account view (the only view that opens them) registers when its chunk
 * arrives, and the embedded wallet's SecureFrame's (opened from the Account view, or after a login on a new device,
 * which fetches this chunk first): the page's start carries neither their titles nor the lists of their chunks. Each
 * view's code is fetched on first use.
 */
import { type AccountFormView, lazyView, type ViewEntry } from "./viewEntries"

/** The Swap and Buy views, and SecureFrame. */
export const ACCOUNT_FORM_VIEWS: { readonly [V in AccountFormView]: ViewEntry<V> } = {
  Swap: {
    title: "Swap",
    description: "Choose the tokens and the amount, check the quote, then swap in your wallet.",
    Component: lazyView(() => import("./Swap/Swap").then((m) => m.Swap))
  },
  Buy: {
    title: "Buy crypto",
    description: "Choose what to buy and how much, then pay on the provider's page; your purchase is shown when it arrives.",
    Component: lazyView(() => import("./Buy/Buy").then((m) => m.Buy))
  },
  SecureFrame: {
    title: "Your wallet",
    description: "Your wallet's own page: what you type there stays with it.",
    Component: lazyView(() => import("./SecureFrame/SecureFrame").then((m) => m.SecureFrame))
  }
}

/** Fetches the Swap and Buy views ahead of a click (a failure is left for the moment the view is really opened). */
export const preloadAccountForms = (): void => {
  for (const entry of [ACCOUNT_FORM_VIEWS.Swap, ACCOUNT_FORM_VIEWS.Buy]) entry.Component.load().catch(() => undefined)
}
