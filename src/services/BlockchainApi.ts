/**
 * BlockchainApi: the blockchain service of spec 7.4 — supported chains, identity, token balances, history and
 * fungible prices — with the caches of spec 9 kept in Storage (so a reload inside the window asks nothing):
 * balances 30 s, identity 5 minutes. After a balance failure the snackbar 'Token Balance Unavailable' shows and
 * that network's balance is not asked again for 30 s; a history failure shows 'Failed to fetch transactions'.
 */
import { Clock, Context, Effect, Layer, Option, Schema } from "effect"
import * as HttpClient from "effect/http/HttpClient"
import type { Balance, Profile } from "../domain/Account"
import {
  BalanceResponse,
  type FungiblePrice,
  FungiblePriceResponse,
  HistoryResponse,
  Identity,
  NATIVE_TOKEN_ADDRESS,
  SupportedChains
} from "../domain/Api"
import {
  type CaipAddress,
  type CaipNetworkId,
  type ChainNamespace,
  caipNetworkIdOfAddress,
  parseCaipAddress
} from "../domain/Caip"
import { BALANCE_RETRY_BLOCK_MS } from "../domain/constants"
import type { TokenBalance } from "../domain/Portfolio"
import { Config } from "./Config"
import { Notifications } from "./Notifications"
import { makeServiceClient, type ServiceError } from "./serviceHttp"
import { Storage } from "./Storage/Storage"
import * as Keys from "./Storage/keys"

/** Chain families the blockchain service has balances for (spec 9); others have none to ask for. */
export const BALANCE_NAMESPACES: ReadonlyArray<ChainNamespace> = ["eip155", "solana"]

/** Snackbar text after a balance failure (spec 8). */
export const TOKEN_BALANCE_UNAVAILABLE = "Token Balance Unavailable"
/** Snackbar text after a history failure (spec 8). */
export const FAILED_TO_FETCH_TRANSACTIONS = "Failed to fetch transactions"

/** 'Token Balance Unavailable': the balance request failed, the network is not served, or a retry is blocked. */
export class TokenBalanceUnavailable extends Schema.TaggedError<TokenBalanceUnavailable>()("TokenBalanceUnavailable", {
  caipNetworkId: Schema.String,
  reason: Schema.Literals(["failed", "unsupportedNetwork", "retryBlocked"]),
  detail: Schema.optionalKey(Schema.String)
}) {
  override get message() {
    return TOKEN_BALANCE_UNAVAILABLE
  }
}

/** 'Failed to fetch transactions': the history request failed. */
export class TransactionsUnavailable extends Schema.TaggedError<TransactionsUnavailable>()("TransactionsUnavailable", {
  detail: Schema.optionalKey(Schema.String)
}) {
  override get message() {
    return FAILED_TO_FETCH_TRANSACTIONS
  }
}

/** Options of a balance read. */
export interface BalanceOptions {
  /** Skip the cache and ask the service to skip its own for this token (a CAIP-10 token address, or `true` for the native coin). */
  readonly forceUpdate?: string | true | undefined
}

/** Options of a history page. */
export interface HistoryOptions {
  /** The `next` of the previous page. */
  readonly cursor?: string | undefined
  /** Only this network (all the service knows when absent). */
  readonly chainId?: CaipNetworkId | undefined
}

/** True when a token of the portfolio is the chain's native coin (EVM: the `0xeee…` address; others: no address). */
export const isNativeToken = (token: TokenBalance): boolean =>
  token.address === undefined || token.address.toLowerCase().endsWith(`:${NATIVE_TOKEN_ADDRESS}`)

const evmAddress = /^0x[0-9a-fA-F]{40}$/

/** The blockchain service. */
export class BlockchainApi extends Context.Service<
  BlockchainApi,
  {
    /** Networks the service serves (asked once per runtime, on first need). */
    readonly supportedChains: Effect.Effect<SupportedChains, ServiceError>
    /** The token balances of an account on the network of its CAIP-10 address (cached 30 s). */
    readonly tokenBalances: (
      caipAddress: CaipAddress,
      options?: BalanceOptions
    ) => Effect.Effect<ReadonlyArray<TokenBalance>, TokenBalanceUnavailable>
    /** The native balance of an account (cached 30 s); `0` with the network's symbol when it holds none. */
    readonly nativeBalance: (caipAddress: CaipAddress, options?: BalanceOptions) => Effect.Effect<Balance, TokenBalanceUnavailable>
    /** Name and avatar of an address (cached 5 minutes); names exist on EVM only, others have none. */
    readonly identity: (address: string, options?: { readonly sender?: string | undefined }) => Effect.Effect<Profile, ServiceError>
    /** One page of an address's transactions, newest first. */
    readonly transactions: (address: string, options?: HistoryOptions) => Effect.Effect<HistoryResponse, TransactionsUnavailable>
    /** USD prices of tokens (CAIP-10 addresses); tokens without a price are left out. */
    readonly fungiblePrices: (addresses: ReadonlyArray<CaipAddress>) => Effect.Effect<ReadonlyArray<FungiblePrice>, ServiceError>
  }
>()("wallet-runtime/BlockchainApi") {
  /** The blockchain service at `Config.endpoints.blockchainApi`, over the HttpClient in context. */
  static readonly layer: Layer.Layer<BlockchainApi, never, Config | Storage | Notifications | HttpClient.HttpClient> =
    Layer.effect(BlockchainApi)(
      Effect.gen(function* () {
        const config = yield* Config
        const storage = yield* Storage
        const notifications = yield* Notifications
        const service = makeServiceClient({
          baseUrl: config.endpoints.blockchainApi,
          client: yield* HttpClient.HttpClient,
          raiseAlert: notifications.raiseAlert
        })
        const projectId = config.projectId
        // Per network: no balance request before this time (epoch ms) after a failure.
        const blockedUntil = new Map<CaipNetworkId, number>()
        let supported: SupportedChains | undefined

        const supportedChains = Effect.suspend(() =>
          supported !== undefined
            ? Effect.succeed(supported)
            : service.json({ method: "GET", path: "/v1/supported-chains", query: { projectId } }, SupportedChains).pipe(
                Effect.tap((chains) => Effect.sync(() => (supported = chains)))
              )
        ).pipe(Effect.withSpan("BlockchainApi.supportedChains"))

        const balanceFailed = (caipNetworkId: CaipNetworkId, reason: "failed" | "unsupportedNetwork", detail?: string) =>
          Effect.gen(function* () {
            blockedUntil.set(caipNetworkId, (yield* Clock.currentTimeMillis) + BALANCE_RETRY_BLOCK_MS)
            yield* notifications.showSnackbar("error", TOKEN_BALANCE_UNAVAILABLE)
            return yield* new TokenBalanceUnavailable({ caipNetworkId, reason, ...(detail === undefined ? {} : { detail }) })
          })

        const forceUpdateOf = (caipNetworkId: CaipNetworkId, forceUpdate: BalanceOptions["forceUpdate"]) =>
          forceUpdate === true
            ? caipNetworkId.startsWith("eip155:")
              ? `${caipNetworkId}:${NATIVE_TOKEN_ADDRESS}`
              : undefined
            : forceUpdate

        const tokenBalances = Effect.fn("BlockchainApi.tokenBalances")(function* (
          caipAddress: CaipAddress,
          options: BalanceOptions = {}
        ) {
          const parts = parseCaipAddress(caipAddress)
          if (parts._tag === "Failure" || !BALANCE_NAMESPACES.includes(parts.success.namespace)) return []
          const caipNetworkId = caipNetworkIdOfAddress(caipAddress)
          const forced = options.forceUpdate !== undefined
          if (!forced) {
            const cached = yield* storage.getCached(Keys.portfolioCache, caipAddress)
            if (Option.isSome(cached)) return cached.value
          }
          const now = yield* Clock.currentTimeMillis
          if (now < (blockedUntil.get(caipNetworkId) ?? 0)) {
            return yield* new TokenBalanceUnavailable({ caipNetworkId, reason: "retryBlocked" })
          }
          const chains = yield* Effect.exit(supportedChains)
          if (chains._tag === "Failure") return yield* balanceFailed(caipNetworkId, "failed", String(chains.cause))
          if (!chains.value.http.includes(caipNetworkId)) return yield* balanceFailed(caipNetworkId, "unsupportedNetwork")
          const answer = yield* Effect.exit(
            service.json(
              {
                method: "GET",
                path: `/v1/account/${encodeURIComponent(parts.success.address)}/balance`,
                query: { projectId, currency: "usd", chainId: caipNetworkId, forceUpdate: forceUpdateOf(caipNetworkId, options.forceUpdate) }
              },
              BalanceResponse
            )
          )
          if (answer._tag === "Failure") return yield* balanceFailed(caipNetworkId, "failed", String(answer.cause))
          const balances = answer.value.balances.filter((token) => token.chainId === caipNetworkId)
          yield* storage.setCached(Keys.portfolioCache, caipAddress, balances)
          return balances
        })

        const nativeSymbolOf = (caipNetworkId: CaipNetworkId): string =>
          config.networks.find((network) => network.caipNetworkId === caipNetworkId)?.nativeCurrency.symbol ?? ""

        const nativeBalance = Effect.fn("BlockchainApi.nativeBalance")(function* (
          caipAddress: CaipAddress,
          options: BalanceOptions = {}
        ) {
          if (options.forceUpdate === undefined) {
            const cached = yield* storage.getCached(Keys.balanceCache, caipAddress)
            if (Option.isSome(cached)) return cached.value
          }
          const tokens = yield* tokenBalances(caipAddress, options.forceUpdate === undefined ? {} : { forceUpdate: true })
          const native = tokens.find(isNativeToken)
          const balance: Balance = {
            balance: native?.quantity.numeric ?? "0",
            symbol: native?.symbol ?? nativeSymbolOf(caipNetworkIdOfAddress(caipAddress))
          }
          yield* storage.setCached(Keys.balanceCache, caipAddress, balance)
          return balance
        })

        const identity = Effect.fn("BlockchainApi.identity")(function* (
          address: string,
          options: { readonly sender?: string | undefined } = {}
        ) {
          if (!evmAddress.test(address)) return { profileName: null, profileImage: null } satisfies Profile
          const key = address.toLowerCase()
          const cached = yield* storage.getCached(Keys.identityCache, key)
          if (Option.isSome(cached)) return cached.value
          const answer = yield* service.json(
            { method: "GET", path: `/v1/identity/${address}`, query: { projectId, sender: options.sender } },
            Identity
          )
          const profile: Profile = { profileName: answer.name, profileImage: answer.avatar }
          yield* storage.setCached(Keys.identityCache, key, profile)
          return profile
        })

        const transactions = Effect.fn("BlockchainApi.transactions")(function* (
          address: string,
          options: HistoryOptions = {}
        ) {
          return yield* service
            .json(
              {
                method: "GET",
                path: `/v1/account/${encodeURIComponent(address)}/history`,
                query: { projectId, cursor: options.cursor, chainId: options.chainId }
              },
              HistoryResponse
            )
            .pipe(
              Effect.catch((error) =>
                notifications
                  .showSnackbar("error", FAILED_TO_FETCH_TRANSACTIONS)
                  .pipe(Effect.andThen(Effect.fail(new TransactionsUnavailable({ detail: error.message }))))
              )
            )
        })

        const fungiblePrices = Effect.fn("BlockchainApi.fungiblePrices")(function* (addresses: ReadonlyArray<CaipAddress>) {
          if (addresses.length === 0) return []
          const answer = yield* service.json(
            {
              method: "POST",
              path: "/v1/fungible/price",
              query: { projectId },
              body: { projectId: projectId ?? "", currency: "usd", addresses }
            },
            FungiblePriceResponse
          )
          return answer.fungibles
        })

        return { supportedChains, tokenBalances, nativeBalance, identity, transactions, fungiblePrices }
      })
    )
}
