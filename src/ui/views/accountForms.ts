/**
 * The Swap and Buy views' entries, which the Account view (the only view that opens them) registers when its chunk
 * arrives: the page's start carries neither their titles nor the lists of their chunks. Each view's code is fetched
 * on first use.
 */
import { type AccountFormView, lazyView, type ViewEntry } from "./viewEntries"

/** The Swap and Buy views. */
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
  }
}

/** Fetches the Swap and Buy views ahead of a click (a failure is left for the moment the view is really opened). */
export const preloadAccountForms = (): void => {
  for (const entry of Object.values(ACCOUNT_FORM_VIEWS)) entry.Component.load().catch(() => undefined)
}
