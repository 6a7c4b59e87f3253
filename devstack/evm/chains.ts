import { defineChain } from "viem"

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
