/** Spec 9's swap networks: the fallback when a services server does not list its own. */

/**
 * Networks the swap endpoints serve when the services name none (a services server other than ours: ours lists its
 * host's swap networks in `/v1/supported-chains`, see `swapsSupported`). Spec 9 says 12 EVM chain ids without naming
 * them: these are ten common EVM mainnets (Ethereum, OP Mainnet, BNB Smart Chain, Gnosis, Polygon, zkSync Era, Base,
 * Arbitrum One, Celo, Avalanche C-Chain) and the two local chains of the devstack.
 */
export const SWAP_CAIP_NETWORK_IDS: ReadonlyArray<string> = [
  "eip155:1",
  "eip155:10",
  "eip155:56",
  "eip155:100",
  "eip155:137",
  "eip155:324",
  "eip155:8453",
  "eip155:42161",
  "eip155:42220",
  "eip155:43114",
  "eip155:31337",
  "eip155:31338"
]

/** True when the network is one of spec 9's swap networks (the fallback above). */
export const isSwapNetwork = (caipNetworkId: string): boolean => SWAP_CAIP_NETWORK_IDS.includes(caipNetworkId)
