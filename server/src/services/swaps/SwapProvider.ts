/**
 * Who makes the swaps the services offer (`/v1/convert/*`, spec 7.4): a `SwapProvider` lists the tokens of a network,
 * quotes, reads the router's allowance and gas prices, and builds the swap and approve transactions the visitor's
 * wallet sends. The services decode the requests, check the network, and answer in the declared shapes; the provider
 * only knows its market. One implementation is here and tested against a real chain: the local Uniswap v2 provider
 * (`uniswapV2.ts`). A host adds another (0x, 1inch, LI.FI…) by implementing this interface, its key kept on the server.
 *
 * Amounts are in the token's smallest units; a token is its contract address, or `NATIVE` for the chain's coin.
 */
import { Context, Data, type Effect } from "effect"
import type { Address, Hex } from "viem"
import type { CaipNetworkId } from "../../../../src/domain/Caip"

/** The chain's own coin (ETH), as a provider's requests name it. */
export const NATIVE = "native" as const
/** A token a provider trades: a contract address, or {@link NATIVE}. */
export type SwapAsset = Address | typeof NATIVE

/** A token a provider lists for a network. */
export interface ProviderToken {
  readonly asset: SwapAsset
  readonly name: string
  readonly symbol: string
  readonly decimals: number
}

/** A transaction for the visitor's wallet: to a contract, with its call data and value; `gas` when estimated. */
export interface ProviderTransaction {
  readonly to: Address
  readonly data: Hex
  readonly value: bigint
  readonly gas?: bigint
  readonly gasPrice?: bigint
}

/** A swap asked of a provider: sell `amount` of `from` for `to`, for `account`. */
export interface SwapRequest {
  readonly network: CaipNetworkId
  readonly from: SwapAsset
  readonly to: SwapAsset
  readonly amount: bigint
  readonly account: Address
}

/**
 * The provider refuses the request as asked (a token it does not trade, an amount of 0): a 400 with `reason` as the
 * visitor may read it.
 */
export class SwapRefused extends Data.TaggedError("SwapRefused")<{ readonly reason: string }> {}

/** The provider's market could not be read (its chain or its API failed): a 502 with `reason`, never a key or URL. */
export class SwapUpstreamFailed extends Data.TaggedError("SwapUpstreamFailed")<{ readonly reason: string }> {}

/** What a provider may fail with. */
export type SwapProviderError = SwapRefused | SwapUpstreamFailed

/** The interface every swap provider implements. */
export interface SwapProviderShape {
  /** The networks it serves (CAIP-2): any other gets 'Network not supported for Swaps' before it is asked. */
  readonly networks: ReadonlyArray<CaipNetworkId>
  /** The tokens it trades on `network`, the native coin first. */
  readonly tokens: (network: CaipNetworkId) => Effect.Effect<ReadonlyArray<ProviderToken>, SwapProviderError>
  /** Quotes for the swap, best (most received) first; none when the pair cannot be swapped (no liquidity). */
  readonly quotes: (
    request: SwapRequest
  ) => Effect.Effect<ReadonlyArray<{ readonly fromAmount: bigint; readonly toAmount: bigint }>, SwapProviderError>
  /** How much of `token` (a contract) its router may spend for `account`. */
  readonly allowance: (network: CaipNetworkId, token: Address, account: Address) => Effect.Effect<bigint, SwapProviderError>
  /** Wei per gas for a standard, fast and instant inclusion. */
  readonly gasPrice: (
    network: CaipNetworkId
  ) => Effect.Effect<{ readonly standard: bigint; readonly fast: bigint; readonly instant: bigint }, SwapProviderError>
  /**
   * The transaction that makes the swap, receiving at least the best quote less `slippagePercent`; with `estimate`,
   * its gas estimated (a swap the chain would refuse now — an allowance short — is then refused with the chain's reason).
   */
  readonly buildSwap: (
    request: SwapRequest & { readonly slippagePercent: number; readonly estimate: boolean }
  ) => Effect.Effect<ProviderTransaction, SwapProviderError>
  /** The transaction that lets its router spend `amount` of `token` for `account` (the swap's `from`). */
  readonly buildApprove: (
    network: CaipNetworkId,
    token: Address,
    account: Address,
    amount: bigint
  ) => Effect.Effect<ProviderTransaction, SwapProviderError>
}

/** The services' swap provider. */
export class SwapProvider extends Context.Service<SwapProvider, SwapProviderShape>()("wallet-runtime-server/SwapProvider") {}
