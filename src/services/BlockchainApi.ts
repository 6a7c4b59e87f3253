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
      Effect.gen(function* () {
        const services = yield* Effect.context<Config | Storage | Notifications | HttpClient.HttpClient>()
        const scope = yield* Effect.scope
        const live = yield* Effect.cached(
          Effect.promise(() => import("./BlockchainApiLive")).pipe(
            Effect.flatMap((module) => module.makeBlockchainApi),
            Effect.provideContext(services),
            Effect.provideService(Scope.Scope, scope)
          )
        )
        const via = <A, E>(use: (api: BlockchainApiService) => Effect.Effect<A, E>) => Effect.flatMap(live, use)
        return {
        supportedChains: via((api) => api.supportedChains),
        balanceSupport: (...args) => via((api) => api.balanceSupport(...args)),
        tokenBalances: (...args) => via((api) => api.tokenBalances(...args)),
        nativeBalance: (...args) => via((api) => api.nativeBalance(...args)),
        identity: (...args) => via((api) => api.identity(...args)),
        transactions: (...args) => via((api) => api.transactions(...args)),
        nfts: (...args) => via((api) => api.nfts(...args)),
        forgetNfts: (...args) => via((api) => api.forgetNfts(...args)),
        fungiblePrices: (...args) => via((api) => api.fungiblePrices(...args)),
        swapTokens: (...args) => via((api) => api.swapTokens(...args)),
        swapQuotes: (...args) => via((api) => api.swapQuotes(...args)),
        swapAllowance: (...args) => via((api) => api.swapAllowance(...args)),
        gasPrice: (...args) => via((api) => api.gasPrice(...args)),
        buildSwapTransaction: (...args) => via((api) => api.buildSwapTransaction(...args)),
        buildApproveTransaction: (...args) => via((api) => api.buildApproveTransaction(...args)),
        resolveName: (...args) => via((api) => api.resolveName(...args)),
        namesForAddress: (...args) => via((api) => api.namesForAddress(...args)),
        nameSuggestions: (...args) => via((api) => api.nameSuggestions(...args)),
        registerName: (...args) => via((api) => api.registerName(...args)),
        onrampUrl: (...args) => via((api) => api.onrampUrl(...args)),
        onrampOptions: via((api) => api.onrampOptions),
        onrampQuote: (...args) => via((api) => api.onrampQuote(...args)),
        sessions: (...args) => via((api) => api.sessions(...args)),
        sessionNonce: (...args) => via((api) => api.sessionNonce(...args)),
        addSession: (...args) => via((api) => api.addSession(...args)),
        revokeSession: (...args) => via((api) => api.revokeSession(...args))
        }
      })
    )
}
