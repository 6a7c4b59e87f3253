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
 */
import { Clock, Context, Effect, Layer, Option, Schema } from "effect"
import * as HttpClient from "effect/http/HttpClient"
import type { Balance, Profile } from "../domain/Account"
import {
  BalanceResponse,
  balancesSupported,
  type BuildApproveQuery,
  type BuildSwapTransactionBody,
  type FungiblePrice,
  FungiblePriceResponse,
  GasPriceResponse,
  HistoryResponse,
  Identity,
  isSwapNetwork,
  NameErrorBody,
  nameErrorDescription,
  type NameRecord,
  NameRecordResponse,
  type NameSuggestion,
  NameSuggestionsResponse,
  NATIVE_TOKEN_ADDRESS,
  NftsResponse,
  type OnrampOptions,
  OnrampOptions as OnrampOptionsSchema,
  type OnrampQuote,
  OnrampQuote as OnrampQuoteSchema,
  type OnrampQuoteBody,
  type OnrampUrlBody,
  OnrampUrlResponse,
  RemoteSiwxSession,
  AddSessionBody,
  SessionNonceResponse,
  ReverseNamesResponse,
  type RevokeSessionBody,
  RevokeSessionResponse,
  SessionsResponse,
  type SwapAllowanceQuery,
  SwapAllowanceResponse,
  type SwapQuote,
  type SwapQuotesQuery,
  SwapQuotesResponse,
  type SwapToken,
  SwapTokensResponse,
  type SwapTransaction,
  SwapTransactionResponse,
  SupportedChains
} from "../domain/Api"
import {
  type CaipAddress,
  type CaipNetworkId,
  type ChainNamespace,
  caipNetworkIdOfAddress,
  parseCaipAddress,
  parseCaipNetworkId
} from "../domain/Caip"
import {
  BALANCE_RETRY_BLOCK_MS,
  ONRAMP_FALLBACK_CURRENCIES,
  ONRAMP_FALLBACK_FEE_PERCENT,
  ONRAMP_FALLBACK_LIMITS,
  SWAP_SLIPPAGE_PERCENT
} from "../domain/constants"
import { GasPriceNetworkNotSupported, NameError, type NameOperation, SwapsNetworkNotSupported } from "../domain/errors"
import { NameMessageJson, type NameRegistrationPayload } from "../domain/Names"
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
/** Snackbar text after an NFT failure: ours, worded like the history's, as spec 8 has no NFT list. */
export const FAILED_TO_FETCH_NFTS = "Failed to fetch NFTs"

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

/** 'Failed to fetch NFTs': the NFT request failed (or the list of served networks could not be had). */
export class NftsUnavailable extends Schema.TaggedError<NftsUnavailable>()("NftsUnavailable", {
  detail: Schema.optionalKey(Schema.String)
}) {
  override get message() {
    return FAILED_TO_FETCH_NFTS
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

/** Options of an NFT page. */
export interface NftsOptions {
  /** The `next` of the previous page; without it, the first page (the one cached 30 s). */
  readonly cursor?: string | undefined
}

/** The answer for an account with no NFTs to ask for. */
const NO_NFTS: NftsResponse = { data: [], next: null }

/** True when a token of the portfolio is the chain's native coin (EVM: the `0xeee…` address; others: no address). */
export const isNativeToken = (token: TokenBalance): boolean =>
  token.address === undefined || token.address.toLowerCase().endsWith(`:${NATIVE_TOKEN_ADDRESS}`)

const evmAddress = /^0x[0-9a-fA-F]{40}$/

/** A swap quote request: sell `amount` (smallest units) of `from` for `to` (CAIP-10 tokens) for `userAddress`. */
export type SwapQuoteRequest = Omit<SwapQuotesQuery, "projectId">

/** An allowance request: how much of `tokenAddress` the swap router may spend for `userAddress` (both CAIP-10). */
export type SwapAllowanceRequest = Omit<SwapAllowanceQuery, "projectId">

/** A swap transaction to build; `slippage` in percent defaults to spec 9's 1, `disableEstimate` to false. */
export type BuildSwapTransactionRequest = Omit<BuildSwapTransactionBody, "projectId" | "eip155" | "disableEstimate"> & {
  readonly slippage?: number | undefined
  readonly disableEstimate?: boolean | undefined
}

/** An approve transaction to build: let the router spend the token `from` to swap it for `to`, for `userAddress`. */
export type BuildApproveRequest = Omit<BuildApproveQuery, "projectId">

/** An on-ramp page to generate; the experience is always "buy". */
export type OnrampUrlRequest = Omit<OnrampUrlBody, "defaultExperience">

/** On-ramp options when the service gives none (spec 9): card 10–7500 and bank account 10–25000 in USD and EUR, fee 1–2 %. */
export const ONRAMP_FALLBACK_OPTIONS: OnrampOptions = {
  paymentCurrencies: ONRAMP_FALLBACK_CURRENCIES.map((id) => ({
    id,
    limits: [
      { id: "card", ...ONRAMP_FALLBACK_LIMITS.card },
      { id: "bankAccount", ...ONRAMP_FALLBACK_LIMITS.bankAccount }
    ]
  })),
  purchaseCurrencies: [],
  providerFeePercent: { ...ONRAMP_FALLBACK_FEE_PERCENT }
}

// The description inside a failed name call's body, when the body is a name-service error.
const decodeNameErrorBody = Schema.decodeUnknownOption(Schema.fromJsonString(NameErrorBody))

// The name error for a failed call: the service's description when its answer has one, else the spec's fallback.
const nameErrorOf = (operation: NameOperation, error: ServiceError, name?: string): NameError => {
  const body = error._tag === "HttpStatusError" && error.body !== undefined ? decodeNameErrorBody(error.body) : Option.none()
  return new NameError({
    operation,
    ...(name === undefined ? {} : { accountName: name }),
    ...(Option.isSome(body) ? { description: nameErrorDescription(body.value) } : {})
  })
}

/** The blockchain service. */
export class BlockchainApi extends Context.Service<
  BlockchainApi,
  {
    /** Networks the service serves (asked once per runtime, on first need). */
    readonly supportedChains: Effect.Effect<SupportedChains, ServiceError>
    /** Whether the service has balances for a network (from `v1/supported-chains`); where not, the balance shows '0.00'. */
    readonly balanceSupport: (caipNetworkId: CaipNetworkId) => Effect.Effect<boolean, ServiceError>
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
    /**
     * One page of the NFTs an account owns on the network of its CAIP-10 address, spam included and flagged; the first
     * page is cached 30 s. A network without balances (spec 9, `v1/supported-chains`) has none and is not asked.
     */
    readonly nfts: (caipAddress: CaipAddress, options?: NftsOptions) => Effect.Effect<NftsResponse, NftsUnavailable>
    /** Drops the cached first page of an account's NFTs, so the next read asks the service. */
    readonly forgetNfts: (caipAddress: CaipAddress) => Effect.Effect<void>
    /** USD prices of tokens (CAIP-10 addresses); tokens without a price are left out. */
    readonly fungiblePrices: (addresses: ReadonlyArray<CaipAddress>) => Effect.Effect<ReadonlyArray<FungiblePrice>, ServiceError>
    /** The tokens tradable on a swap network. */
    readonly swapTokens: (
      caipNetworkId: CaipNetworkId
    ) => Effect.Effect<ReadonlyArray<SwapToken>, SwapsNetworkNotSupported | ServiceError>
    /** Quotes for a swap, best first. */
    readonly swapQuotes: (request: SwapQuoteRequest) => Effect.Effect<ReadonlyArray<SwapQuote>, SwapsNetworkNotSupported | ServiceError>
    /** How much of a token the swap router may spend for an account, in the token's smallest units. */
    readonly swapAllowance: (request: SwapAllowanceRequest) => Effect.Effect<bigint, SwapsNetworkNotSupported | ServiceError>
    /** Gas prices (wei) of a swap network. */
    readonly gasPrice: (caipNetworkId: CaipNetworkId) => Effect.Effect<GasPriceResponse, GasPriceNetworkNotSupported | ServiceError>
    /** The transaction that performs a swap. */
    readonly buildSwapTransaction: (
      request: BuildSwapTransactionRequest
    ) => Effect.Effect<SwapTransaction, SwapsNetworkNotSupported | ServiceError>
    /** The transaction that lets the swap router spend the token sold. */
    readonly buildApproveTransaction: (
      request: BuildApproveRequest
    ) => Effect.Effect<SwapTransaction, SwapsNetworkNotSupported | ServiceError>
    /** The record of a full name; none when no one holds it. */
    readonly resolveName: (name: string) => Effect.Effect<Option.Option<NameRecord>, NameError>
    /** The names registered for an address (cached 5 minutes); names exist on EVM only, others have none. */
    readonly namesForAddress: (address: string) => Effect.Effect<ReadonlyArray<string>, NameError>
    /** Names like `name` under `zone`, each saying whether it is taken. */
    readonly nameSuggestions: (
      name: string,
      options?: { readonly zone?: string | undefined }
    ) => Effect.Effect<ReadonlyArray<NameSuggestion>, NameError>
    /** Registers the name of a signed name message; the address's cached names and identity are dropped. */
    readonly registerName: (payload: NameRegistrationPayload) => Effect.Effect<NameRecord, NameError>
    /** The address of the on-ramp provider's page for a purchase. */
    readonly onrampUrl: (request: OnrampUrlRequest) => Effect.Effect<string, ServiceError>
    /** What the on-ramp accepts and sells; spec 9's fallback limits when the service cannot say. */
    readonly onrampOptions: Effect.Effect<OnrampOptions>
    /** A price quote for a purchase. */
    readonly onrampQuote: (request: OnrampQuoteBody) => Effect.Effect<OnrampQuote, ServiceError>
    /** The sign-in sessions the service keeps for an account. */
    readonly sessions: (caipAddress: CaipAddress) => Effect.Effect<ReadonlyArray<RemoteSiwxSession>, ServiceError>
    /**
     * A fresh nonce for the account's next sign-in message (our extension: `POST /v1/sessions/{address}/nonce`);
     * without an account, one any account may use once (`POST /v1/sessions/nonce`: one-click sign-in, where the
     * account is known only once the wallet answers).
     */
    readonly sessionNonce: (caipAddress?: CaipAddress) => Effect.Effect<SessionNonceResponse, ServiceError>
    /** Has the service check a signed sign-in message and keep it as a session (our extension); gives it with its `pci`. */
    readonly addSession: (caipAddress: CaipAddress, session: AddSessionBody) => Effect.Effect<RemoteSiwxSession, ServiceError>
    /** Revokes one sign-in session of an account; gives the `pci` revoked. */
    readonly revokeSession: (caipAddress: CaipAddress, request: RevokeSessionBody) => Effect.Effect<string, ServiceError>
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

        const balanceSupport = Effect.fn("BlockchainApi.balanceSupport")(function* (caipNetworkId: CaipNetworkId) {
          const parts = parseCaipNetworkId(caipNetworkId)
          // Families without balances have nothing to ask the service about.
          if (parts._tag === "Failure" || !BALANCE_NAMESPACES.includes(parts.success.namespace)) return false
          return balancesSupported(yield* supportedChains, caipNetworkId)
        })

        // A failed read blocks the next ones for 30 s; a network without balances is known from the cached list and
        // costs no request, so it is not blocked (and keeps saying why).
        const balanceFailed = (caipNetworkId: CaipNetworkId, reason: "failed" | "unsupportedNetwork", detail?: string) =>
          Effect.gen(function* () {
            if (reason === "failed") blockedUntil.set(caipNetworkId, (yield* Clock.currentTimeMillis) + BALANCE_RETRY_BLOCK_MS)
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
          if (!balancesSupported(chains.value, caipNetworkId)) return yield* balanceFailed(caipNetworkId, "unsupportedNetwork")
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
            .pipe(Effect.mapError((error) => new TransactionsUnavailable({ detail: error.message })))
        })

        const nfts = Effect.fn("BlockchainApi.nfts")(function* (caipAddress: CaipAddress, options: NftsOptions = {}) {
          const parts = parseCaipAddress(caipAddress)
          if (parts._tag === "Failure" || !BALANCE_NAMESPACES.includes(parts.success.namespace)) return NO_NFTS
          const first = options.cursor === undefined
          if (first) {
            const cached = yield* storage.getCached(Keys.nftsCache, caipAddress)
            if (Option.isSome(cached)) return cached.value
          }
          const unavailable = (error: ServiceError) => new NftsUnavailable({ detail: error.message })
          const caipNetworkId = caipNetworkIdOfAddress(caipAddress)
          const chains = yield* supportedChains.pipe(Effect.mapError(unavailable))
          if (!balancesSupported(chains, caipNetworkId)) return NO_NFTS
          const page = yield* service
            .json(
              {
                method: "GET",
                path: `/v1/account/${encodeURIComponent(parts.success.address)}/nfts`,
                query: { projectId, chainId: caipNetworkId, cursor: options.cursor }
              },
              NftsResponse
            )
            .pipe(Effect.mapError(unavailable))
          // A service answering more than was asked must not put another network's NFTs in this account's grid.
          const answer: NftsResponse = { data: page.data.filter((nft) => nft.chainId === caipNetworkId), next: page.next }
          if (first) yield* storage.setCached(Keys.nftsCache, caipAddress, answer)
          return answer
        })

        const forgetNfts = Effect.fn("BlockchainApi.forgetNfts")(function* (caipAddress: CaipAddress) {
          yield* storage.removeCached(Keys.nftsCache, caipAddress)
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

        const onSwapNetwork = (...addresses: ReadonlyArray<CaipAddress>) =>
          addresses.every((address) => isSwapNetwork(caipNetworkIdOfAddress(address)))
            ? Effect.void
            : Effect.fail(new SwapsNetworkNotSupported())

        const swapTokens = Effect.fn("BlockchainApi.swapTokens")(function* (caipNetworkId: CaipNetworkId) {
          if (!isSwapNetwork(caipNetworkId)) return yield* new SwapsNetworkNotSupported()
          const answer = yield* service.json(
            { method: "GET", path: "/v1/convert/tokens", query: { projectId, chainId: caipNetworkId } },
            SwapTokensResponse
          )
          return answer.tokens
        })

        const swapQuotes = Effect.fn("BlockchainApi.swapQuotes")(function* (request: SwapQuoteRequest) {
          yield* onSwapNetwork(request.userAddress, request.from, request.to)
          const answer = yield* service.json(
            {
              method: "GET",
              path: "/v1/convert/quotes",
              query: {
                projectId,
                amount: request.amount.toString(),
                userAddress: request.userAddress,
                from: request.from,
                to: request.to,
                gasPrice: request.gasPrice.toString()
              }
            },
            SwapQuotesResponse
          )
          return answer.quotes
        })

        const swapAllowance = Effect.fn("BlockchainApi.swapAllowance")(function* (request: SwapAllowanceRequest) {
          yield* onSwapNetwork(request.userAddress, request.tokenAddress)
          const answer = yield* service.json(
            {
              method: "GET",
              path: "/v1/convert/allowance",
              query: { projectId, tokenAddress: request.tokenAddress, userAddress: request.userAddress }
            },
            SwapAllowanceResponse
          )
          return answer.allowance
        })

        const gasPrice = Effect.fn("BlockchainApi.gasPrice")(function* (caipNetworkId: CaipNetworkId) {
          if (!isSwapNetwork(caipNetworkId)) return yield* new GasPriceNetworkNotSupported()
          return yield* service.json(
            { method: "GET", path: "/v1/convert/gas-price", query: { projectId, chainId: caipNetworkId } },
            GasPriceResponse
          )
        })

        const buildSwapTransaction = Effect.fn("BlockchainApi.buildSwapTransaction")(function* (
          request: BuildSwapTransactionRequest
        ) {
          yield* onSwapNetwork(request.userAddress, request.from, request.to)
          const body: typeof BuildSwapTransactionBody.Encoded = {
            projectId: projectId ?? "",
            amount: request.amount.toString(),
            eip155: { slippage: request.slippage ?? SWAP_SLIPPAGE_PERCENT },
            from: request.from,
            to: request.to,
            userAddress: request.userAddress,
            disableEstimate: request.disableEstimate ?? false
          }
          const answer = yield* service.json(
            { method: "POST", path: "/v1/convert/build-transaction", query: { projectId }, body },
            SwapTransactionResponse
          )
          return answer.tx
        })

        const buildApproveTransaction = Effect.fn("BlockchainApi.buildApproveTransaction")(function* (
          request: BuildApproveRequest
        ) {
          yield* onSwapNetwork(request.userAddress, request.from, request.to)
          const answer = yield* service.json(
            {
              method: "GET",
              path: "/v1/convert/build-approve",
              query: { projectId, userAddress: request.userAddress, from: request.from, to: request.to }
            },
            SwapTransactionResponse
          )
          return answer.tx
        })

        const resolveName = Effect.fn("BlockchainApi.resolveName")(function* (name: string) {
          return yield* service
            .json(
              { method: "GET", path: `/v1/profile/account/${encodeURIComponent(name)}`, query: { projectId } },
              NameRecordResponse
            )
            .pipe(
              Effect.map(Option.some),
              Effect.catch((error) =>
                // A name no one holds is an answer, not a failure: the visitor sees "not found", not "Error resolving name".
                error._tag === "HttpStatusError" && error.status === 404
                  ? Effect.succeed(Option.none<NameRecord>())
                  : Effect.fail(nameErrorOf("resolve", error))
              )
            )
        })

        const namesCacheId = (address: string) => address.toLowerCase()

        const namesForAddress = Effect.fn("BlockchainApi.namesForAddress")(function* (address: string) {
          if (!evmAddress.test(address)) return []
          const cached = yield* storage.getCached(Keys.namesCache, namesCacheId(address))
          if (Option.isSome(cached)) return cached.value
          const answer = yield* service
            .json(
              { method: "GET", path: `/v1/profile/reverse/${encodeURIComponent(address)}`, query: { projectId } },
              ReverseNamesResponse
            )
            .pipe(Effect.mapError((error) => nameErrorOf("reverse", error)))
          const names = answer.names.map((record) => record.name)
          yield* storage.setCached(Keys.namesCache, namesCacheId(address), names)
          return names
        })

        const nameSuggestions = Effect.fn("BlockchainApi.nameSuggestions")(function* (
          name: string,
          options: { readonly zone?: string | undefined } = {}
        ) {
          const answer = yield* service
            .json(
              {
                method: "GET",
                path: `/v1/profile/suggestions/${encodeURIComponent(name)}`,
                query: { projectId, zone: options.zone }
              },
              NameSuggestionsResponse
            )
            .pipe(Effect.mapError((error) => nameErrorOf("suggestions", error)))
          return answer.suggestions
        })

        const decodeNameMessage = Schema.decodeUnknownOption(NameMessageJson)

        const registerName = Effect.fn("BlockchainApi.registerName")(function* (payload: NameRegistrationPayload) {
          const message = decodeNameMessage(payload.message)
          // The name travels inside the signed text; without it there is nothing the service could register. An
          // empty name, not an absent one: NameError would otherwise read Error's own `name` into its message.
          if (Option.isNone(message)) return yield* new NameError({ operation: "register" })
          const name = message.value.name
          const record = yield* service
            .json({ method: "POST", path: "/v1/profile/account", query: { projectId }, body: payload }, NameRecordResponse)
            .pipe(Effect.mapError((error) => nameErrorOf("register", error, name)))
          yield* storage.removeCached(Keys.namesCache, namesCacheId(payload.address))
          yield* storage.removeCached(Keys.identityCache, namesCacheId(payload.address))
          return record
        })

        const onrampUrl = Effect.fn("BlockchainApi.onrampUrl")(function* (request: OnrampUrlRequest) {
          const body: typeof OnrampUrlBody.Encoded = { ...request, defaultExperience: "buy" }
          const answer = yield* service.json(
            { method: "POST", path: "/v1/generators/onrampurl", query: { projectId }, body },
            OnrampUrlResponse
          )
          return answer.url
        })

        const onrampOptions = service
          .json({ method: "GET", path: "/v1/onramp/options", query: { projectId } }, OnrampOptionsSchema)
          .pipe(
            Effect.catch((error) =>
              Effect.logWarning("On-ramp options unavailable; using the fallback limits", error.message).pipe(
                Effect.as(ONRAMP_FALLBACK_OPTIONS)
              )
            ),
            Effect.withSpan("BlockchainApi.onrampOptions")
          )

        const onrampQuote = Effect.fn("BlockchainApi.onrampQuote")(function* (request: OnrampQuoteBody) {
          const body: typeof OnrampQuoteBody.Encoded = request
          return yield* service.json(
            { method: "POST", path: "/v1/onramp/quote", query: { projectId }, body },
            OnrampQuoteSchema
          )
        })

        const sessions = Effect.fn("BlockchainApi.sessions")(function* (caipAddress: CaipAddress) {
          const answer = yield* service.json(
            { method: "GET", path: `/v1/sessions/${encodeURIComponent(caipAddress)}`, query: { projectId } },
            SessionsResponse
          )
          return answer.sessions
        })

        const sessionNonce = Effect.fn("BlockchainApi.sessionNonce")(function* (caipAddress?: CaipAddress) {
          const path = caipAddress === undefined ? "/v1/sessions/nonce" : `/v1/sessions/${encodeURIComponent(caipAddress)}/nonce`
          return yield* service.json(
            { method: "POST", path, query: { projectId } },
            SessionNonceResponse
          )
        })

        const addSession = Effect.fn("BlockchainApi.addSession")(function* (caipAddress: CaipAddress, session: AddSessionBody) {
          const body: typeof AddSessionBody.Encoded = session
          return yield* service.json(
            { method: "POST", path: `/v1/sessions/${encodeURIComponent(caipAddress)}`, query: { projectId }, body },
            RemoteSiwxSession
          )
        })

        const revokeSession = Effect.fn("BlockchainApi.revokeSession")(function* (
          caipAddress: CaipAddress,
          request: RevokeSessionBody
        ) {
          const body: typeof RevokeSessionBody.Encoded = { pci: request.pci, signature: request.signature }
          const answer = yield* service.json(
            { method: "POST", path: `/v1/sessions/${encodeURIComponent(caipAddress)}/revoke`, query: { projectId }, body },
            RevokeSessionResponse
          )
          return answer.pci
        })

        return {
          supportedChains,
          balanceSupport,
          tokenBalances,
          nativeBalance,
          identity,
          transactions,
          nfts,
          forgetNfts,
          fungiblePrices,
          swapTokens,
          swapQuotes,
          swapAllowance,
          gasPrice,
          buildSwapTransaction,
          buildApproveTransaction,
          resolveName,
          namesForAddress,
          nameSuggestions,
          registerName,
          onrampUrl,
          onrampOptions,
          onrampQuote,
          sessions,
          sessionNonce,
          addSession,
          revokeSession
        }
      })
    )
}
