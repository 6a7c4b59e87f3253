/** Which networks the swap endpoints serve: a module of its own, so the Account view knows it without the API's Schemas. */

/**
 * Networks the swap endpoints serve. Spec 9 says 12 EVM chain ids without naming them: these are ten common EVM
 * mainnets (Ethereum, OP Mainnet, BNB Smart Chain, Gnosis, Polygon, zkSync Era, Base, Arbitrum One, Celo,
 * Avalanche C-Chain) and the two local chains of the devstack.
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

/** True when the swap endpoints serve the network. */
export const isSwapNetwork = (caipNetworkId: string): boolean => SWAP_CAIP_NETWORK_IDS.includes(caipNetworkId)
