import { defineChain } from "viem"
import { localChainA, localChainB } from "../../src/domain/networks"

/** The chain ids of the two local EVM chains. */
export const devChainIds = [31337, 31338] as const

/** A viem chain description of a local anvil chain at `rpcUrl`. */
export const devChain = (chainId: number, rpcUrl: string) =>
  defineChain({
    id: chainId,
    name: `Devstack ${chainId}`,
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
    testnet: true
  })

/** The name the product gives a local chain (`localChainA` "Local Chain A"…), so every page names it alike. */
export const localNetworkName = (chainId: number): string =>
  [localChainA, localChainB].find((network) => network.id === chainId)?.name ?? `Local Chain ${chainId}`
