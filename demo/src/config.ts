/**
 * What the demo knows of the local stack: injected into the page by whoever serves it (the devstack's Vite server,
 * or the static server of the browser tests and benchmarks), so the page makes no request to learn it.
 */
export interface DemoStack {
  readonly projectId: string
  readonly servicesUrl: string
  readonly rpcProxyUrl: string
  readonly relayUrl: string | null
  /** The embedded wallet's frame origin; null or absent when the stack runs without it (no email login then). */
  readonly frameUrl?: string | null | undefined
  readonly chains: ReadonlyArray<{ readonly chainId: number; readonly rpcUrl: string }>
  /** anvil's first dev key, for the development test wallet (public knowledge: dev only). */
  readonly devPrivateKeys: ReadonlyArray<`0x${string}`>
  /** The local Solana network; null when the stack runs without its Solana part. */
  readonly solana: {
    /** `solana:<genesis ref>`. */
    readonly caipNetworkId: string
    readonly rpcUrl: string
    /** Solana dev key 0 (base58 of its 64 bytes), for the development test wallet (public knowledge: dev only). */
    readonly devSecretKey: string
    /** The test SPL tokens of the local Solana RPC (WSUSD): mint address, name, symbol, decimals. */
    readonly tokens: ReadonlyArray<{ readonly address: string; readonly name: string; readonly symbol: string; readonly decimals: number }>
  } | null
  /** The suffix of the local names service's account names (absent from an older stack: the runtime's default). */
  readonly nameSuffix?: string | undefined
  /** The local block explorer; a network's is `{explorerUrl}/{caip2}` (absent from an older stack: no explorer links). */
  readonly explorerUrl?: string | undefined
  /** The local Bitcoin regtest node (its Esplora-style API); null or absent when the stack runs without it. */
  readonly bitcoin?: {
    readonly caipNetworkId: string
    readonly url: string
    /**
     * Bitcoin dev key 0 (hex keys, its P2WPKH payment and P2TR ordinals addresses on regtest), for the development
     * test wallet (public knowledge: dev only); absent from an older stack.
     */
    readonly devKey?: {
      readonly paymentPrivateKey: string
      readonly paymentPublicKey: string
      readonly paymentAddress: string
      readonly ordinalsPrivateKey: string
      readonly ordinalsPublicKey: string
      readonly ordinalsAddress: string
    } | null | undefined
  } | null | undefined
}

/** The injected stack, or an explanation of how to start one. */
export const readStack = (): DemoStack => {
  // A JSON data block the server put in the page (not a script: the page passes `script-src 'self'`).
  const block = document.getElementById("devstack-config")?.textContent
  if (block === undefined || block === null || block === "") throw new Error("No local stack: start the demo with `npm start`.")
  return JSON.parse(block) as DemoStack
}
