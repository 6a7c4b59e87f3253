/**
 * The blockchain service's implementation (see `BlockchainApi.ts`): fetched with `import()` the first time one of its
 * calls is made, so a page pays for it only once the visitor has an account to show.
 */
import { Clock, Effect, Option, Schema } from "effect"
import * as HttpClient from "effect/http/HttpClient"
import type { Balance, Profile } from "../domain/Account"
import {
  type AddSessionBody,
  balancesSupported,
  type BuildSwapTransactionBody,
  swapsSupported,
  NameErrorBody,
  nameErrorDescription,
  type NameRecord,
  NATIVE_TOKEN_ADDRESS,
  type NftsResponse,
  type OnrampQuoteBody,
  type RevokeSessionBody,
  type SupportedChains
} from "../domain/Api"
import { type CaipAddress, type CaipNetworkId, caipNetworkIdOfAddress, parseCaipAddress, parseCaipNetworkId } from "../domain/Caip"
import { BALANCE_RETRY_BLOCK_MS, SWAP_SLIPPAGE_PERCENT } from "../domain/constants"
import { GasPriceNetworkNotSupported, NameError, type NameOperation, SwapsNetworkNotSupported } from "../domain/errors"
import { NameMessageJson, type NameRegistrationPayload } from "../domain/Names"
import {
  BALANCE_NAMESPACES,
  type BalanceOptions,
  type BlockchainApiService,
  type BuildApproveRequest,
  type BuildSwapTransactionRequest,
  type HistoryOptions,
  isNativeToken,
  type NftsOptions,
  NftsUnavailable,
  ONRAMP_FALLBACK_OPTIONS,
  type OnrampUrlRequest,
  type SwapAllowanceRequest,
  type SwapQuoteRequest,
  TokenBalanceUnavailable,
  TransactionsUnavailable
} from "./blockchainApiShape"
import { Config } from "./Config"
import { Notifications } from "./Notifications"
import { makeServiceCalls } from "./serviceCalls"
import type { ServiceError } from "./serviceHttp"
import { Storage } from "./Storage/Storage"
import * as Keys from "./Storage/keys"

/** The answer for an account with no NFTs to ask for. */
const NO_NFTS: NftsResponse = { data: [], next: null }

const evmAddress = /^0x[0-9a-fA-F]{40}$/

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

/** The blockchain service at `Config.endpoints.blockchainApi`, over the HttpClient in context. */
export const makeBlockchainApi: Effect.Effect<BlockchainApiService, never, Config | Storage | Notifications | HttpClient.HttpClient> =
  Effect.gen(function* () {
    const config = yield* Config
    const storage = yield* Storage
    const notifications = yield* Notifications
    const service = makeServiceCalls({
      baseUrl: config.endpoints.blockchainApi,
      client: yield* HttpClient.HttpClient,
      raiseAlert: notifications.raiseAlert
    })
    const projectId = config.projectId
    const projectQuery = projectId === undefined ? {} : { projectId }
    // Per network: no balance request before this time (epoch ms) after a failure.
    const blockedUntil = new Map<CaipNetworkId, number>()
    let supported: SupportedChains | undefined

    const supportedChains = Effect.suspend(() =>
      supported !== undefined
        ? Effect.succeed(supported)
        : service.call("blockchain", (blockchain) => blockchain.supportedChains({ query: projectQuery })).pipe(
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
        service.call("blockchain", (blockchain) => {
          const forceUpdate = forceUpdateOf(caipNetworkId, options.forceUpdate)
          return blockchain.balance({
            params: { address: parts.success.address },
            query: { ...projectQuery, currency: "usd", chainId: caipNetworkId, ...(forceUpdate === undefined ? {} : { forceUpdate }) }
          })
        })
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
      const sender = options.sender === undefined ? {} : { sender: options.sender }
      const answer = yield* service.call("blockchain", (blockchain) =>
        blockchain.identity({ params: { address }, query: { ...projectQuery, ...sender } })
      )
      const profile: Profile = { profileName: answer.name, profileImage: answer.avatar }
      yield* storage.setCached(Keys.identityCache, key, profile)
      return profile
    })

    const transactions = Effect.fn("BlockchainApi.transactions")(function* (
      address: string,
      options: HistoryOptions = {}
    ) {
      const cursor = options.cursor === undefined ? {} : { cursor: options.cursor }
      const chainId = options.chainId === undefined ? {} : { chainId: options.chainId }
      return yield* service
        .call("blockchain", (blockchain) =>
          blockchain.history({ params: { address }, query: { ...projectQuery, ...cursor, ...chainId } })
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
      const cursor = options.cursor === undefined ? {} : { cursor: options.cursor }
      const page = yield* service
        .call("blockchain", (blockchain) =>
          blockchain.nfts({ params: { address: parts.success.address }, query: { ...projectQuery, chainId: caipNetworkId, ...cursor } })
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
      const answer = yield* service.call("blockchain", (blockchain) =>
        blockchain.fungiblePrice({ query: projectQuery, payload: { projectId: projectId ?? "", currency: "usd", addresses } })
      )
      return answer.fungibles
    })

    // The swap networks are the services' (the host's config), known from `v1/supported-chains`.
    const swapSupport = Effect.fn("BlockchainApi.swapSupport")(function* (caipNetworkId: CaipNetworkId) {
      return swapsSupported(yield* supportedChains, caipNetworkId)
    })

    const onSwapNetwork = Effect.fnUntraced(function* (...addresses: ReadonlyArray<CaipAddress>) {
      const chains = yield* supportedChains
      if (!addresses.every((address) => swapsSupported(chains, caipNetworkIdOfAddress(address)))) return yield* new SwapsNetworkNotSupported()
    })

    const swapTokens = Effect.fn("BlockchainApi.swapTokens")(function* (caipNetworkId: CaipNetworkId) {
      if (!(yield* swapSupport(caipNetworkId))) return yield* new SwapsNetworkNotSupported()
      const answer = yield* service.call("convert", (convert) => convert.tokens({ query: { ...projectQuery, chainId: caipNetworkId } }))
      return answer.tokens
    })

    const swapQuotes = Effect.fn("BlockchainApi.swapQuotes")(function* (request: SwapQuoteRequest) {
      yield* onSwapNetwork(request.userAddress, request.from, request.to)
      const answer = yield* service.call("convert", (convert) =>
        convert.quotes({
          query: {
            ...projectQuery,
            amount: request.amount,
            userAddress: request.userAddress,
            from: request.from,
            to: request.to,
            gasPrice: request.gasPrice
          }
        })
      )
      return answer.quotes
    })

    const swapAllowance = Effect.fn("BlockchainApi.swapAllowance")(function* (request: SwapAllowanceRequest) {
      yield* onSwapNetwork(request.userAddress, request.tokenAddress)
      const answer = yield* service.call("convert", (convert) =>
        convert.allowance({ query: { ...projectQuery, tokenAddress: request.tokenAddress, userAddress: request.userAddress } })
      )
      return answer.allowance
    })

    const gasPrice = Effect.fn("BlockchainApi.gasPrice")(function* (caipNetworkId: CaipNetworkId) {
      if (!(yield* swapSupport(caipNetworkId))) return yield* new GasPriceNetworkNotSupported()
      return yield* service.call("convert", (convert) => convert.gasPrice({ query: { ...projectQuery, chainId: caipNetworkId } }))
    })

    const buildSwapTransaction = Effect.fn("BlockchainApi.buildSwapTransaction")(function* (
      request: BuildSwapTransactionRequest
    ) {
      yield* onSwapNetwork(request.userAddress, request.from, request.to)
      const payload: BuildSwapTransactionBody = {
        projectId: projectId ?? "",
        amount: request.amount,
        eip155: { slippage: request.slippage ?? SWAP_SLIPPAGE_PERCENT },
        from: request.from,
        to: request.to,
        userAddress: request.userAddress,
        disableEstimate: request.disableEstimate ?? false
      }
      const answer = yield* service.call("convert", (convert) => convert.buildTransaction({ query: projectQuery, payload }))
      return answer.tx
    })

    const buildApproveTransaction = Effect.fn("BlockchainApi.buildApproveTransaction")(function* (
      request: BuildApproveRequest
    ) {
      yield* onSwapNetwork(request.userAddress, request.from, request.to)
      const answer = yield* service.call("convert", (convert) =>
        convert.buildApprove({ query: { ...projectQuery, userAddress: request.userAddress, from: request.from, to: request.to } })
      )
      return answer.tx
    })

    const resolveName = Effect.fn("BlockchainApi.resolveName")(function* (name: string) {
      return yield* service
        .call("names", (names) => names.record({ params: { name }, query: projectQuery }))
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
        .call("names", (names) => names.reverse({ params: { address }, query: projectQuery }))
        .pipe(Effect.mapError((error) => nameErrorOf("reverse", error)))
      const names = answer.names.map((record) => record.name)
      yield* storage.setCached(Keys.namesCache, namesCacheId(address), names)
      return names
    })

    const nameSuggestions = Effect.fn("BlockchainApi.nameSuggestions")(function* (
      name: string,
      options: { readonly zone?: string | undefined } = {}
    ) {
      const zone = options.zone === undefined ? {} : { zone: options.zone }
      const answer = yield* service
        .call("names", (names) => names.suggestions({ params: { name }, query: { ...projectQuery, ...zone } }))
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
        .call("names", (names) => names.register({ query: projectQuery, payload }))
        .pipe(Effect.mapError((error) => nameErrorOf("register", error, name)))
      yield* storage.removeCached(Keys.namesCache, namesCacheId(payload.address))
      yield* storage.removeCached(Keys.identityCache, namesCacheId(payload.address))
      return record
    })

    const onrampUrl = Effect.fn("BlockchainApi.onrampUrl")(function* (request: OnrampUrlRequest) {
      const answer = yield* service.call("onramp", (onramp) =>
        onramp.url({ query: projectQuery, payload: { ...request, defaultExperience: "buy" } })
      )
      return answer.url
    })

    const onrampOptions = service
      .call("onramp", (onramp) => onramp.options({ query: projectQuery }))
      .pipe(
        Effect.catch((error) =>
          Effect.logWarning("On-ramp options unavailable; using the fallback limits", error.message).pipe(
            Effect.as(ONRAMP_FALLBACK_OPTIONS)
          )
        ),
        Effect.withSpan("BlockchainApi.onrampOptions")
      )

    const onrampQuote = Effect.fn("BlockchainApi.onrampQuote")(function* (request: OnrampQuoteBody) {
      return yield* service.call("onramp", (onramp) => onramp.quote({ query: projectQuery, payload: request }))
    })

    const sessions = Effect.fn("BlockchainApi.sessions")(function* (caipAddress: CaipAddress) {
      const answer = yield* service.call("sessions", (sessions) => sessions.list({ params: { address: caipAddress }, query: projectQuery }))
      return answer.sessions
    })

    const sessionNonce = Effect.fn("BlockchainApi.sessionNonce")(function* (caipAddress?: CaipAddress) {
      return yield* service.call("sessions", (sessions) =>
        caipAddress === undefined
          ? sessions.anyAccountNonce({ query: projectQuery })
          : sessions.nonce({ params: { address: caipAddress }, query: projectQuery })
      )
    })

    const addSession = Effect.fn("BlockchainApi.addSession")(function* (caipAddress: CaipAddress, session: AddSessionBody) {
      return yield* service.call("sessions", (sessions) =>
        sessions.add({ params: { address: caipAddress }, query: projectQuery, payload: session })
      )
    })

    const revokeSession = Effect.fn("BlockchainApi.revokeSession")(function* (
      caipAddress: CaipAddress,
      request: RevokeSessionBody
    ) {
      const payload: RevokeSessionBody = { pci: request.pci, signature: request.signature }
      const answer = yield* service.call("sessions", (sessions) =>
        sessions.revoke({ params: { address: caipAddress }, query: projectQuery, payload })
      )
      return answer.pci
    })

    return {
      supportedChains,
      balanceSupport,
      swapSupport,
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
