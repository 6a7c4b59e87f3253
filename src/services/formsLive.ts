/**
 * The Swap and Buy forms' implementations, reached through this small chunk: the lists of chunks each needs are
 * fetched with it, on the first use of either form (the Account view warms Swap's), not with the runtime's core.
 */

/** Fetches the swap form's implementation. */
export const loadSwapLive = () => import("./SwapLive")

/** Fetches the Buy form's implementation. */
export const loadOnrampLive = () => import("./OnrampLive")
