/**
 * BlockchainApi: the blockchain service of spec 7.4 — supported chains, identity, token balances, NFTs (our
 * extension), history, fungible prices, swaps, names, on-ramp and sign-in sessions — with the caches of spec 9 kept
 * in Storage (so a reload inside the window asks nothing): balances and the first page of NFTs 30 s, identity and
 * the names of an address 5 minutes. Whether a network has balances is decided from `v1/supported-chains`. After a
 * balance failure that network's balance is not asked again for 30 s ('Token Balance Unavailable'); a history
 * failure is 'Failed to fetch transactions', an NFT failure 'Failed to fetch NFTs'. It returns typed errors and
 * shows nothing: what the visitor sees is the feature services' decision (Portfolio). Swap calls outside the swap
 * networks fail with 'Network not supported for Swaps' (gas price: 'Network not supported for Gas Price') before
 * any request; name failures carry the service's description or the spec's fallback; on-ramp options fall back to
 * the limits of spec 9 when the service cannot give them.
 *
 * The tag and its shape are in the runtime's core; the implementation (`BlockchainApiLive.ts`) is fetched with
 * `import()` on the first call (balances once connected), so a page's first click does not carry it.
 */
import { Context, Effect, Layer, Scope } from "effect"
import type * as HttpClient from "effect/http/HttpClient"
import type { BlockchainApiService } from "./blockchainApiShape"
import { lazyFront } from "./lazyFront"
import type { Config } from "./Config"
import type { Notifications } from "./Notifications"
import type { Storage } from "./Storage/Storage"

export {
  BALANCE_NAMESPACES,
  type BalanceOptions,
  type BlockchainApiService,
  type BuildApproveRequest,
  type BuildSwapTransactionRequest,
  FAILED_TO_FETCH_NFTS,
  FAILED_TO_FETCH_TRANSACTIONS,
  type HistoryOptions,
  isNativeToken,
  type NftsOptions,
  NftsUnavailable,
  ONRAMP_FALLBACK_OPTIONS,
  type OnrampUrlRequest,
  type SwapAllowanceRequest,
  type SwapQuoteRequest,
  TOKEN_BALANCE_UNAVAILABLE,
  TokenBalanceUnavailable,
  TransactionsUnavailable
} from "./blockchainApiShape"

/** The blockchain service. */
export class BlockchainApi extends Context.Service<BlockchainApi, BlockchainApiService>()("wallet-runtime/BlockchainApi") {
  /**
   * The blockchain service at `Config.endpoints.blockchainApi`, over the HttpClient in context. The services it needs
   * are taken now; its code is fetched and built on the first call and kept for the runtime's life.
   */
  static readonly layer: Layer.Layer<BlockchainApi, never, Config | Storage | Notifications | HttpClient.HttpClient> =
    Layer.effect(BlockchainApi)(
      Effect.map(
        lazyFront<BlockchainApiService, Config | Storage | Notifications | HttpClient.HttpClient | Scope.Scope>(
          Effect.flatMap(
            Effect.promise(() => import("./BlockchainApiLive")),
            (module) => module.makeBlockchainApi
          ),
          {
            supportedChains: 0,
            balanceSupport: 1,
            swapSupport: 1,
            tokenBalances: 1,
            nativeBalance: 1,
            identity: 1,
            transactions: 1,
            nfts: 1,
            forgetNfts: 1,
            fungiblePrices: 1,
            swapTokens: 1,
            swapQuotes: 1,
            swapAllowance: 1,
            gasPrice: 1,
            buildSwapTransaction: 1,
            buildApproveTransaction: 1,
            resolveName: 1,
            namesForAddress: 1,
            nameSuggestions: 1,
            registerName: 1,
            onrampUrl: 1,
            onrampOptions: 0,
            onrampQuote: 1,
            sessions: 1,
            sessionNonce: 1,
            addSession: 1,
            revokeSession: 1
          }
        ),
        ({ front }) => front
      )
    )
}
