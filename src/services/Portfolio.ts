/**
 * Portfolio: the account's balances, NFTs, identity and activity as the visitor sees them. It reads the blockchain
 * service and decides what to show: 'Token Balance Unavailable' when a balance cannot be had (once per failure, not
 * again while the 30 s retry block runs, and not for a network outside the host's list, which the Switch-network view
 * already explains). The history and the NFTs fail with 'Failed to fetch transactions' and 'Failed to fetch NFTs' for the
 * tab that asked, which says it in place with a retry; NFTs flagged as spam are left out. `revision` moves whenever what was read is out of date (the visitor's
 * own transaction was confirmed), so views read again.
 */
import { Context, Effect, Layer, Result, SubscriptionRef } from "effect"
import type { Balance, Profile } from "../domain/Account"
import { ZERO_BALANCE_DISPLAY } from "../domain/constants"
import type { HistoryResponse, NftsResponse } from "../domain/Api"
import type { CaipAddress, CaipNetworkId } from "../domain/Caip"
import { type TokenBalance, withoutSpamNfts } from "../domain/Portfolio"
import {
  BlockchainApi,
  type HistoryOptions,
  type NftsOptions,
  type NftsUnavailable,
  type TokenBalanceUnavailable,
  type TransactionsUnavailable
} from "./BlockchainApi"
import { Config } from "./Config"
import { Notifications } from "./Notifications"
import { lazyFront } from "./lazyFront"
import type { ServiceError } from "./serviceHttp"

/** The account data features. */
export class Portfolio extends Context.Service<
  Portfolio,
  {
    /** Moves each time balances and NFTs must be read again (after the visitor's own transaction). */
    readonly revision: SubscriptionRef.SubscriptionRef<number>
    /** Whether the service has balances for a network (from `v1/supported-chains`); where not, the view shows '0.00'. */
    readonly balancesSupported: (caipNetworkId: CaipNetworkId) => Effect.Effect<boolean, ServiceError>
    /** The native balance of an account (cached 30 s); '0.00' on a network the service has no balances for. */
    readonly nativeBalance: (caipAddress: CaipAddress) => Effect.Effect<Balance, TokenBalanceUnavailable>
    /** The token balances of an account (cached 30 s). */
    readonly tokenBalances: (caipAddress: CaipAddress) => Effect.Effect<ReadonlyArray<TokenBalance>, TokenBalanceUnavailable>
    /**
     * One page of the NFTs an account owns on its network, spam left out (so a page may hold fewer than the service
     * sent, or none while `next` goes on); the first page is cached 30 s and read again after `refresh`.
     */
    readonly nfts: (caipAddress: CaipAddress, options?: NftsOptions) => Effect.Effect<NftsResponse, NftsUnavailable>
    /** Name (its first registered name, else its identity's) and avatar of an address (cached 5 minutes). */
    readonly identity: (address: string) => Effect.Effect<Profile, ServiceError>
    /** One page of an address's activity. */
    readonly transactions: (address: string, options?: HistoryOptions) => Effect.Effect<HistoryResponse, TransactionsUnavailable>
    /** Reads the account's balances again past every cache, drops its cached NFTs, then moves `revision`. */
    readonly refresh: (caipAddress: CaipAddress) => Effect.Effect<void>
  }
>()("wallet-runtime/Portfolio") {
  /**
   * The live portfolio over the blockchain service. `revision` exists from the start (the account's views follow it);
   * the rest is built on the first read, so a page whose visitor never connects builds none of it.
   */
  static readonly layer = Layer.effect(Portfolio)(
    Effect.gen(function* () {
      const revision = yield* SubscriptionRef.make(0)
      const { front } = yield* lazyFront<Portfolio["Service"], BlockchainApi | Notifications | Config, "revision">(makePortfolio(revision), {
        balancesSupported: 1,
        nativeBalance: 1,
        tokenBalances: 1,
        nfts: 1,
        identity: 1,
        transactions: 1,
        refresh: 1
      })
      return { ...front, revision }
    })
  )
}

// The portfolio's reads and refresh, moving `revision` when what was read is out of date.
const makePortfolio = (revision: SubscriptionRef.SubscriptionRef<number>) =>
  Effect.gen(function* () {
    const api = yield* BlockchainApi
    const notifications = yield* Notifications

    const config = yield* Config
    const configured = new Set<string>(config.networks.map((network) => network.caipNetworkId))
    const nativeSymbolOf = (caipNetworkId: string): string =>
      config.networks.find((network) => network.caipNetworkId === caipNetworkId)?.nativeCurrency.symbol ?? ""
    // A retry block is the same failure still standing: it was said once already. A listed network without
    // balances is said once per network. A wallet on a network outside the host's list is expected and already
    // said by the Switch-network view: a snackbar would only cover it.
    const unsupportedSaid = new Set<string>()
    const saidOnce = (error: TokenBalanceUnavailable) =>
      Effect.suspend(() => {
        if (error.reason === "retryBlocked") return Effect.void
        if (error.reason === "unsupportedNetwork") {
          if (!configured.has(error.caipNetworkId) || unsupportedSaid.has(error.caipNetworkId)) return Effect.void
          unsupportedSaid.add(error.caipNetworkId)
        }
        return notifications.showSnackbar("error", error.message)
      })

    return {
      revision,
      balancesSupported: (caipNetworkId: CaipNetworkId) => api.balanceSupport(caipNetworkId),
      // Spec 9: a network the service has no balances for shows '0.00' (and the snackbar says why, once).
      nativeBalance: (caipAddress: CaipAddress) =>
        api.nativeBalance(caipAddress).pipe(
          Effect.tapError(saidOnce),
          Effect.catchIf(
            (error) => error.reason === "unsupportedNetwork",
            (error): Effect.Effect<Balance> =>
              Effect.succeed({ balance: ZERO_BALANCE_DISPLAY, symbol: nativeSymbolOf(error.caipNetworkId) })
          )
        ),
      tokenBalances: (caipAddress: CaipAddress) => api.tokenBalances(caipAddress).pipe(Effect.tapError(saidOnce)),
      nfts: (caipAddress: CaipAddress, options?: NftsOptions) =>
        api.nfts(caipAddress, options).pipe(
          Effect.map((page): NftsResponse => ({ data: withoutSpamNfts(page.data), next: page.next }))
        ),
      // The account's name is its first registered name (`/v1/profile/reverse`), else the identity's; the avatar is
      // the identity's. Both are cached 5 minutes; a registration drops them, so the new name shows at once.
      identity: Effect.fn("Portfolio.identity")(function* (address: string) {
        const [names, profile] = yield* Effect.all(
          [api.namesForAddress(address).pipe(Effect.orElseSucceed((): ReadonlyArray<string> => [])), Effect.result(api.identity(address))],
          { concurrency: 2 }
        )
        const name = names[0]
        if (Result.isFailure(profile)) {
          return name === undefined ? yield* profile.failure : ({ profileName: name, profileImage: null } satisfies Profile)
        }
        return name === undefined ? profile.success : { ...profile.success, profileName: name }
      }),
      // The tab that asked says a failure in place, with its retry: a snackbar would say it twice.
      transactions: (address: string, options?: HistoryOptions) => api.transactions(address, options),
      refresh: Effect.fn("Portfolio.refresh")(function* (caipAddress: CaipAddress) {
        // The native balance is read from the token balances: one forced read renews both caches.
        yield* api.nativeBalance(caipAddress, { forceUpdate: true }).pipe(Effect.ignore)
        // NFTs are not read ahead: the grid may never be opened; its next read asks the service.
        yield* api.forgetNfts(caipAddress)
        yield* SubscriptionRef.update(revision, (n) => n + 1)
      })
    }
  })
