/**
 * What the demo knows of the local stack: injected into the page by whoever serves it (the devstack's Vite server,
 * or the static server of the browser tests and benchmarks), so the page makes no request to learn it.
 */
export interface DemoStack {
  readonly projectId: string
  readonly servicesUrl: string
  readonly rpcProxyUrl: string
  readonly relayUrl: string | null
  readonly chains: ReadonlyArray<{ readonly chainId: number; readonly rpcUrl: string }>
  /** anvil's first dev key, for the development test wallet (public knowledge: dev only). */
  readonly devPrivateKeys: ReadonlyArray<`0x${string}`>
}

declare global {
  interface Window {
    __DEVSTACK__?: DemoStack
  }
}

/** The injected stack, or an explanation of how to start one. */
export const readStack = (): DemoStack => {
  const stack = window.__DEVSTACK__
  if (stack === undefined) throw new Error("No local stack: start the demo with `npm start`.")
  return stack
}
