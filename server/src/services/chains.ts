/** What the services know of a chain beyond its RPC: viem's description of an EVM chain, and token metadata. */
import { defineChain } from "viem"

/** A fungible token the services name and price by symbol. */
export interface TokenInfo {
  /** The contract (EVM, checksummed) or mint (Solana, base58) address. */
  readonly address: string
  readonly name: string
  readonly symbol: string
  readonly decimals: number
}

/** The SPL Token program, owner of the token accounts the services read. */
export const SPL_TOKEN_PROGRAM = "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA"

/** A viem chain description of the EVM chain `chainId` served at `rpcUrls`. */
export const evmChain = (chainId: number, rpcUrls: ReadonlyArray<string>, name = `Chain ${chainId}`) =>
  defineChain({
    id: chainId,
    name,
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [...rpcUrls] } }
  })
