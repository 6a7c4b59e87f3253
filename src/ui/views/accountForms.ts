/**
 * The Swap and Buy views' importers, fetched themselves on first use (with the Account view's next views): the lists
 * of chunks each view needs are here rather than in the registry, which the page loads at start.
 */

/** Fetches the Swap view. */
export const loadSwap = () => import("./Swap/Swap").then((m) => m.Swap)

/** Fetches the Buy view. */
export const loadBuy = () => import("./Buy/Buy").then((m) => m.Buy)
