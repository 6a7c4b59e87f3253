import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Option, Schema } from "effect"
import * as KeyValueStore from "effect/persistence/KeyValueStore"
import { TestClock } from "effect/testing"
import {
  BuildApproveQuery,
  BuildSwapTransactionBody,
  GasPriceQuery,
  NATIVE_TOKEN_ADDRESS,
  NamePath,
  NameSuggestionsQuery,
  OnrampQuoteBody,
  OnrampUrlBody,
  ProjectQuery,
  RegisterNameBody,
  ReverseNamesPath,
  RevokeSessionBody,
  SessionsPath,
  SWAP_CAIP_NETWORK_IDS,
  SwapAllowanceQuery,
  SwapQuotesQuery,
  SwapTokensQuery
} from "../../../src/domain/Api"
import type { CaipAddress, CaipNetworkId } from "../../../src/domain/Caip"
import { localChainA, localChainB, solana } from "../../../src/domain/networks"
import type { NameRegistrationPayload } from "../../../src/domain/Names"
import { decodeOptionsSync } from "../../../src/domain/Options"
import { BlockchainApi, ONRAMP_FALLBACK_OPTIONS } from "../../../src/services/BlockchainApi"
import { Config } from "../../../src/services/Config"
import { Notifications } from "../../../src/services/Notifications"
import { Storage } from "../../../src/services/Storage/Storage"
import { type FakeAnswer, type FakeHttp, makeFakeHttp, type RecordedRequest } from "../support/fakeHttpClient"
import { makeMemoryWebStorage } from "../support/memoryWebStorage"

const ALICE = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"
const CHAIN = "eip155:31337" as CaipNetworkId
const ALICE_A = `${CHAIN}:${ALICE}` as CaipAddress
const ETH = `${CHAIN}:${NATIVE_TOKEN_ADDRESS}` as CaipAddress
const WUSD = `${CHAIN}:0x5FbDB2315678afecb367f032d93F642f64180aa3` as CaipAddress
const ROUTER = `${CHAIN}:0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512` as CaipAddress
const SOLANA_ACCOUNT = `${solana.caipNetworkId}:9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM` as CaipAddress
const GOERLI_TOKEN = `eip155:5:0x5FbDB2315678afecb367f032d93F642f64180aa3` as CaipAddress

const options = decodeOptionsSync({
  projectId: "test-project",
  networks: [localChainA, localChainB, solana],
  endpoints: { blockchainApi: "http://api.test/base/" }
})

const aliceRecord = {
  name: "alice.wallet.test",
  addresses: { [String(0x8000_0000 + 31337)]: { address: ALICE } },
  attributes: { bio: "hi" }
}

const siwxSession = {
  data: {
    domain: "shop.test",
    uri: "https://shop.test",
    version: "1",
    chainId: CHAIN,
    accountAddress: ALICE,
    nonce: "n-1",
    issuedAt: "2030-01-01T00:00:00.000Z"
  },
  message: "shop.test wants you to sign in",
  signature: "0xabcdef",
  pci: "pci-1"
}

/** Well-formed answers of every endpoint added here; anything else is a 404. */
const answers: Record<string, unknown> = {
  // The services' swap networks (the host's config): the first local chain only.
  "GET /base/v1/supported-chains": { http: [CHAIN, localChainB.caipNetworkId], ws: [], swaps: [CHAIN] },
  "GET /base/v1/convert/tokens": {
    tokens: [{ name: "Wrapped USD", symbol: "WUSD", address: WUSD, decimals: 6, logoUri: "http://api.test/wusd.svg" }]
  },
  "GET /base/v1/convert/quotes": { quotes: [{ fromAmount: "1000000000000000000", toAmount: "2999500000" }] },
  "GET /base/v1/convert/allowance": { allowance: "115792089237316195423570985008687907853269984665640564039457584007913129639935" },
  "GET /base/v1/convert/gas-price": { standard: "1000000000", fast: "1500000000", instant: "2000000000" },
  "POST /base/v1/convert/build-transaction": {
    tx: { from: ALICE_A, to: ROUTER, data: "0x7ff36ab5", value: "1000000000000000000", gas: "210000", gasPrice: "1500000000" }
  },
  "GET /base/v1/convert/build-approve": { tx: { from: ALICE_A, to: WUSD, data: "0x095ea7b3", value: "0" } },
  "GET /base/v1/profile/account/alice.wallet.test": aliceRecord,
  [`GET /base/v1/profile/reverse/${ALICE}`]: { names: [aliceRecord] },
  "GET /base/v1/profile/suggestions/alice": {
    suggestions: [
      { name: "alice.wallet.test", registered: true },
      { name: "alice1.wallet.test", registered: false }
    ]
  },
  "POST /base/v1/profile/account": aliceRecord,
  "POST /base/v1/generators/onrampurl": { url: "https://onramp.test/buy?session=s1" },
  "GET /base/v1/onramp/options": {
    paymentCurrencies: [{ id: "GBP", limits: [{ id: "card", min: 20, max: 5000 }] }],
    purchaseCurrencies: [{ symbol: "ETH", name: "Ether", networks: [CHAIN] }],
    providerFeePercent: { min: 0.5, max: 1.5 }
  },
  "POST /base/v1/onramp/quote": {
    purchaseAmount: { amount: "0.031", currency: "ETH" },
    paymentTotal: { amount: "100.00", currency: "USD" },
    providerFee: { amount: "1.49", currency: "USD" },
    networkFee: { amount: "0.51", currency: "USD" }
  },
  [`GET /base/v1/sessions/${encodeURIComponent(ALICE_A)}`]: { sessions: [siwxSession] },
  [`POST /base/v1/sessions/${encodeURIComponent(ALICE_A)}/revoke`]: { pci: "pci-1" },
  [`POST /base/v1/sessions/${encodeURIComponent(ALICE_A)}/nonce`]: { nonce: "abcdEFGH1234", expiresAt: "2030-01-01T00:10:00.000Z" },
  "POST /base/v1/sessions/nonce": { nonce: "anyACCOUNT123", expiresAt: "2030-01-01T00:10:00.000Z" },
  [`POST /base/v1/sessions/${encodeURIComponent(ALICE_A)}`]: siwxSession
}

type Api = typeof BlockchainApi.Service

const keyOf = (request: RecordedRequest) => `${request.method} ${request.url.pathname}`

/** The blockchain service with the answers above; `override` replaces an answer where it returns one. */
const service = (override: (request: RecordedRequest) => FakeAnswer | undefined = () => undefined) =>
  makeFakeHttp((request) => {
    const replaced = override(request)
    if (replaced !== undefined) return replaced
    const json = answers[keyOf(request)]
    return json === undefined ? { status: 404, json: { error: "not found" } } : { status: 200, json }
  })

/** Answers `answer` to requests whose path ends with `suffix`, the usual answers to the others. */
const failing = (suffix: string, answer: FakeAnswer) =>
  service((request) => (request.url.pathname.endsWith(suffix) ? answer : undefined))

const layerFor = (http: FakeHttp, web: globalThis.Storage = makeMemoryWebStorage()) =>
  BlockchainApi.layer.pipe(
    Layer.provideMerge(Notifications.layer),
    Layer.provideMerge(Storage.layer.pipe(Layer.provide(KeyValueStore.layerStorage(() => web)))),
    Layer.provide(Config.layer(options)),
    Layer.provide(http.layer)
  )

/** Runs `f` with the service over `http`. */
const withApi = <A, E>(http: FakeHttp, f: (api: Api) => Effect.Effect<A, E>, web?: globalThis.Storage) =>
  BlockchainApi.use(f).pipe(Effect.provide(layerFor(http, web)))

const queryOf = (request: RecordedRequest | undefined) => Object.fromEntries(request?.url.searchParams ?? [])

const SUPPORTED_CHAINS = "GET /base/v1/supported-chains"

/** The requests other than the list of networks (asked once, before the first swap call). */
const asked = (http: FakeHttp): ReadonlyArray<RecordedRequest> => http.requests.filter((request) => keyOf(request) !== SUPPORTED_CHAINS)

const only = (http: FakeHttp): RecordedRequest => {
  expect(asked(http)).toHaveLength(1)
  return asked(http)[0] as RecordedRequest
}

/** The server side of the contract: what the client sent decodes with the endpoint's request Schema. */
const decodesWith = <S extends Schema.Top>(schema: S, input: unknown) =>
  Schema.decodeUnknownSync(schema as unknown as Schema.Codec<S["Type"], unknown>)(input)

/** The path segment at `index` as the server's router reads it. */
const segment = (request: RecordedRequest, index: number) => decodeURIComponent(request.url.pathname.split("/")[index] ?? "")

describe("BlockchainApi swaps", () => {
  it.effect("tokens: GET /v1/convert/tokens with the network, decoded", () =>
    Effect.gen(function* () {
      const http = service()
      const tokens = yield* withApi(http, (api) => api.swapTokens(CHAIN))
      expect(tokens).toEqual([{ name: "Wrapped USD", symbol: "WUSD", address: WUSD, decimals: 6, logoUri: "http://api.test/wusd.svg" }])
      const request = only(http)
      expect(keyOf(request)).toBe("GET /base/v1/convert/tokens")
      expect(queryOf(request)).toEqual({ projectId: "test-project", chainId: CHAIN })
      decodesWith(SwapTokensQuery, queryOf(request))
    })
  )

  it.effect("quotes: GET /v1/convert/quotes with amount and gas price in smallest units; amounts decode as bigints", () =>
    Effect.gen(function* () {
      const http = service()
      const quotes = yield* withApi(http, (api) =>
        api.swapQuotes({ amount: 10n ** 18n, userAddress: ALICE_A, from: ETH, to: WUSD, gasPrice: 1_500_000_000n })
      )
      expect(quotes).toEqual([{ fromAmount: 10n ** 18n, toAmount: 2_999_500_000n }])
      const request = only(http)
      expect(keyOf(request)).toBe("GET /base/v1/convert/quotes")
      expect(queryOf(request)).toEqual({
        projectId: "test-project",
        amount: "1000000000000000000",
        userAddress: ALICE_A,
        from: ETH,
        to: WUSD,
        gasPrice: "1500000000"
      })
      expect(decodesWith(SwapQuotesQuery, queryOf(request)).amount).toBe(10n ** 18n)
    })
  )

  it.effect("allowance: GET /v1/convert/allowance with token and account; a max allowance keeps every digit", () =>
    Effect.gen(function* () {
      const http = service()
      const allowance = yield* withApi(http, (api) => api.swapAllowance({ tokenAddress: WUSD, userAddress: ALICE_A }))
      expect(allowance).toBe(2n ** 256n - 1n)
      const request = only(http)
      expect(keyOf(request)).toBe("GET /base/v1/convert/allowance")
      expect(queryOf(request)).toEqual({ projectId: "test-project", tokenAddress: WUSD, userAddress: ALICE_A })
      decodesWith(SwapAllowanceQuery, queryOf(request))
    })
  )

  it.effect("gas price: GET /v1/convert/gas-price with the network, three speeds in wei", () =>
    Effect.gen(function* () {
      const http = service()
      const prices = yield* withApi(http, (api) => api.gasPrice(CHAIN))
      expect(prices).toEqual({ standard: 1_000_000_000n, fast: 1_500_000_000n, instant: 2_000_000_000n })
      const request = only(http)
      expect(keyOf(request)).toBe("GET /base/v1/convert/gas-price")
      expect(queryOf(request)).toEqual({ projectId: "test-project", chainId: CHAIN })
      decodesWith(GasPriceQuery, queryOf(request))
    })
  )

  it.effect("build transaction: POST with slippage 1 % and estimation unless asked otherwise", () =>
    Effect.gen(function* () {
      const http = service()
      const tx = yield* withApi(http, (api) =>
        Effect.gen(function* () {
          const first = yield* api.buildSwapTransaction({ amount: 10n ** 18n, from: ETH, to: WUSD, userAddress: ALICE_A })
          yield* api.buildSwapTransaction({
            amount: 5n,
            from: WUSD,
            to: ETH,
            userAddress: ALICE_A,
            slippage: 0.5,
            disableEstimate: true
          })
          return first
        })
      )
      expect(tx).toEqual({
        from: ALICE_A,
        to: ROUTER,
        data: "0x7ff36ab5",
        value: 10n ** 18n,
        gas: 210_000n,
        gasPrice: 1_500_000_000n
      })
      expect(asked(http).map(keyOf)).toEqual([
        "POST /base/v1/convert/build-transaction",
        "POST /base/v1/convert/build-transaction"
      ])
      expect(queryOf(asked(http)[0])).toEqual({ projectId: "test-project" })
      expect(asked(http)[0]?.body).toEqual({
        projectId: "test-project",
        amount: "1000000000000000000",
        eip155: { slippage: 1 },
        from: ETH,
        to: WUSD,
        userAddress: ALICE_A,
        disableEstimate: false
      })
      expect(asked(http)[1]?.body).toEqual({
        projectId: "test-project",
        amount: "5",
        eip155: { slippage: 0.5 },
        from: WUSD,
        to: ETH,
        userAddress: ALICE_A,
        disableEstimate: true
      })
      for (const request of asked(http)) decodesWith(BuildSwapTransactionBody, request.body)
    })
  )

  it.effect("build approve: GET /v1/convert/build-approve; an unestimated transaction has no gas", () =>
    Effect.gen(function* () {
      const http = service()
      const tx = yield* withApi(http, (api) => api.buildApproveTransaction({ userAddress: ALICE_A, from: WUSD, to: ETH }))
      expect(tx).toEqual({ from: ALICE_A, to: WUSD, data: "0x095ea7b3", value: 0n })
      const request = only(http)
      expect(keyOf(request)).toBe("GET /base/v1/convert/build-approve")
      expect(queryOf(request)).toEqual({ projectId: "test-project", userAddress: ALICE_A, from: WUSD, to: ETH })
      decodesWith(BuildApproveQuery, queryOf(request))
    })
  )

  it("the swap networks are twelve EVM chains, the local ones among them", () => {
    expect(SWAP_CAIP_NETWORK_IDS).toHaveLength(12)
    expect(new Set(SWAP_CAIP_NETWORK_IDS).size).toBe(12)
    expect(SWAP_CAIP_NETWORK_IDS.every((id) => id.startsWith("eip155:"))).toBe(true)
    expect(SWAP_CAIP_NETWORK_IDS).toEqual(expect.arrayContaining(["eip155:1", "eip155:31337", "eip155:31338"]))
  })

  const offNetwork: ReadonlyArray<readonly [string, (api: Api) => Effect.Effect<unknown, { readonly message: string }>]> = [
    ["tokens of Solana", (api) => api.swapTokens(solana.caipNetworkId)],
    ["tokens of an EVM chain outside the list", (api) => api.swapTokens("eip155:5" as CaipNetworkId)],
    ["tokens of a chain the services serve but not for swaps (their host left it out)", (api) => api.swapTokens(localChainB.caipNetworkId)],
    ["quotes on a chain the services do not swap on", (api) => api.swapQuotes({ amount: 1n, userAddress: `${localChainB.caipNetworkId}:${ALICE}` as CaipAddress, from: `${localChainB.caipNetworkId}:${NATIVE_TOKEN_ADDRESS}` as CaipAddress, to: `${localChainB.caipNetworkId}:0x5FbDB2315678afecb367f032d93F642f64180aa3` as CaipAddress, gasPrice: 1n })],
    ["quotes for a Solana account", (api) => api.swapQuotes({ amount: 1n, userAddress: SOLANA_ACCOUNT, from: ETH, to: WUSD, gasPrice: 1n })],
    ["quotes to a token of another chain", (api) => api.swapQuotes({ amount: 1n, userAddress: ALICE_A, from: ETH, to: GOERLI_TOKEN, gasPrice: 1n })],
    ["allowance of a token outside the list", (api) => api.swapAllowance({ tokenAddress: GOERLI_TOKEN, userAddress: ALICE_A })],
    ["a swap selling a token outside the list", (api) => api.buildSwapTransaction({ amount: 1n, from: GOERLI_TOKEN, to: ETH, userAddress: ALICE_A })],
    ["an approval for a Solana account", (api) => api.buildApproveTransaction({ userAddress: SOLANA_ACCOUNT, from: WUSD, to: ETH })]
  ]
  for (const [what, call] of offNetwork) {
    it.effect(`${what}: 'Network not supported for Swaps' and no request but the services' list`, () =>
      Effect.gen(function* () {
        const http = service()
        const error = yield* Effect.flip(withApi(http, call))
        expect(error.message).toBe("Network not supported for Swaps")
        expect(asked(http)).toHaveLength(0)
      })
    )
  }

  it.effect("the swap networks are the services' (their host's config); a service that names none is taken to serve spec 9's", () =>
    Effect.gen(function* () {
      const http = service()
      expect(yield* withApi(http, (api) => Effect.all([CHAIN, localChainB.caipNetworkId, solana.caipNetworkId].map((id) => api.swapSupport(id))))).toEqual([
        true,
        false,
        false
      ])
      const silent = service((request) =>
        keyOf(request) === SUPPORTED_CHAINS ? { status: 200, json: { http: [CHAIN, localChainB.caipNetworkId], ws: [] } } : undefined
      )
      expect(yield* withApi(silent, (api) => Effect.all([localChainB.caipNetworkId, "eip155:5" as CaipNetworkId].map((id) => api.swapSupport(id))))).toEqual([
        true,
        false
      ])
    })
  )

  it.effect("gas price of a network outside the swap networks: 'Network not supported for Gas Price' and no request", () =>
    Effect.gen(function* () {
      const http = service()
      const solanaError = yield* Effect.flip(withApi(http, (api) => api.gasPrice(solana.caipNetworkId)))
      expect(solanaError.message).toBe("Network not supported for Gas Price")
      expect(solanaError._tag).toBe("GasPriceNetworkNotSupported")
      const goerliError = yield* Effect.flip(withApi(http, (api) => api.gasPrice("eip155:5" as CaipNetworkId)))
      expect(goerliError.message).toBe("Network not supported for Gas Price")
      expect(asked(http)).toHaveLength(0)
    })
  )

  it.effect("a quote the service answers with a negative amount is an invalid answer, not a quote", () =>
    Effect.gen(function* () {
      const http = failing("/quotes", { status: 200, json: { quotes: [{ fromAmount: "1", toAmount: "-5" }] } })
      const error = yield* Effect.flip(
        withApi(http, (api) => api.swapQuotes({ amount: 1n, userAddress: ALICE_A, from: ETH, to: WUSD, gasPrice: 1n }))
      )
      expect(error._tag).toBe("ServiceAnswerInvalid")
    })
  )
})

describe("BlockchainApi 'HTTP status code: N'", () => {
  const calls: ReadonlyArray<readonly [string, string, (api: Api) => Effect.Effect<unknown, { readonly message: string }>]> = [
    ["/convert/tokens", "swap tokens", (api) => api.swapTokens(CHAIN)],
    ["/convert/quotes", "swap quotes", (api) => api.swapQuotes({ amount: 1n, userAddress: ALICE_A, from: ETH, to: WUSD, gasPrice: 1n })],
    ["/convert/allowance", "allowance", (api) => api.swapAllowance({ tokenAddress: WUSD, userAddress: ALICE_A })],
    ["/convert/gas-price", "gas price", (api) => api.gasPrice(CHAIN)],
    ["/convert/build-transaction", "swap transaction", (api) => api.buildSwapTransaction({ amount: 1n, from: ETH, to: WUSD, userAddress: ALICE_A })],
    ["/convert/build-approve", "approve transaction", (api) => api.buildApproveTransaction({ userAddress: ALICE_A, from: WUSD, to: ETH })],
    ["/generators/onrampurl", "on-ramp page", (api) => api.onrampUrl({ destinationWallets: [{ address: ALICE, blockchains: [CHAIN] }], partnerUserId: "u" })],
    ["/onramp/quote", "on-ramp quote", (api) => api.onrampQuote({ purchaseCurrency: "ETH", paymentCurrency: "USD", amount: "100", network: CHAIN })],
    [`/sessions/${encodeURIComponent(ALICE_A)}`, "sessions", (api) => api.sessions(ALICE_A)],
    ["/revoke", "session revocation", (api) => api.revokeSession(ALICE_A, { pci: "pci-1", signature: "0xsig" })],
    ["/nonce", "sign-in nonce", (api) => api.sessionNonce(ALICE_A)],
    [
      `/sessions/${encodeURIComponent(ALICE_A)}`,
      "session kept",
      (api) => api.addSession(ALICE_A, { data: siwxSession.data, message: siwxSession.message, signature: siwxSession.signature })
    ]
  ]
  for (const [suffix, what, call] of calls) {
    it.effect(`${what}: a 502 fails with 'HTTP status code: 502'`, () =>
      Effect.gen(function* () {
        const http = failing(suffix, { status: 502, text: "Bad Gateway" })
        const error = yield* Effect.flip(withApi(http, call))
        expect(error.message).toBe("HTTP status code: 502")
        expect(asked(http)).toHaveLength(1)
      })
    )
  }
})

const payload = (name: string): NameRegistrationPayload => ({
  coin_type: 0x8000_0000 + 31337,
  address: ALICE,
  message: JSON.stringify({ name, attributes: {}, timestamp: 1_900_000_000 }),
  signature: "0x1234"
})

describe("BlockchainApi names", () => {
  it.effect("resolve: GET /v1/profile/account/{name} gives the record; a name no one holds (404) gives none", () =>
    Effect.gen(function* () {
      const http = service()
      const found = yield* withApi(http, (api) => api.resolveName("alice.wallet.test"))
      expect(found).toEqual(Option.some(aliceRecord))
      const request = only(http)
      expect(keyOf(request)).toBe("GET /base/v1/profile/account/alice.wallet.test")
      expect(queryOf(request)).toEqual({ projectId: "test-project" })
      decodesWith(ProjectQuery, queryOf(request))
      expect(decodesWith(NamePath, { name: segment(request, 5) })).toEqual({ name: "alice.wallet.test" })

      const missing = yield* withApi(http, (api) => api.resolveName("nobody.wallet.test"))
      expect(missing).toEqual(Option.none())
    })
  )

  it.effect("resolve failures: the service's description, else 'Error resolving name'", () =>
    Effect.gen(function* () {
      const described = yield* Effect.flip(
        withApi(failing("/alice.wallet.test", { status: 500, json: { reasons: [{ description: "Name service is down" }] } }), (api) =>
          api.resolveName("alice.wallet.test")
        )
      )
      expect(described._tag).toBe("NameError")
      expect(described.message).toBe("Name service is down")

      const plain = yield* Effect.flip(
        withApi(failing("/alice.wallet.test", { status: 500, text: "Internal Server Error" }), (api) => api.resolveName("alice.wallet.test"))
      )
      expect(plain.message).toBe("Error resolving name")

      const unreachable = yield* Effect.flip(
        withApi(failing("/alice.wallet.test", "unreachable"), (api) => api.resolveName("alice.wallet.test"))
      )
      expect(unreachable.message).toBe("Error resolving name")

      const malformed = yield* Effect.flip(
        withApi(failing("/alice.wallet.test", { status: 200, json: { name: 7 } }), (api) => api.resolveName("alice.wallet.test"))
      )
      expect(malformed.message).toBe("Error resolving name")
    })
  )

  it.effect("names of an address: GET /v1/profile/reverse/{address}, then from storage for 5 minutes, across a reload", () =>
    Effect.gen(function* () {
      const web = makeMemoryWebStorage()
      const http = service()
      const read = (address: string) => withApi(http, (api) => api.namesForAddress(address), web)
      expect(yield* read(ALICE)).toEqual(["alice.wallet.test"])
      const request = only(http)
      expect(keyOf(request)).toBe(`GET /base/v1/profile/reverse/${ALICE}`)
      expect(queryOf(request)).toEqual({ projectId: "test-project" })
      decodesWith(ReverseNamesPath, { address: segment(request, 5) })

      yield* TestClock.adjust("299999 millis")
      expect(yield* read(ALICE.toLowerCase())).toEqual(["alice.wallet.test"])
      expect(http.requests).toHaveLength(1)

      yield* TestClock.adjust("1 millis")
      expect(yield* read(ALICE)).toEqual(["alice.wallet.test"])
      expect(http.requests).toHaveLength(2)
    })
  )

  it.effect("names of an address: non-EVM addresses have none and ask nothing; failures are not cached", () =>
    Effect.gen(function* () {
      const web = makeMemoryWebStorage()
      let down = true
      const http = service((request) => (down && request.url.pathname.includes("/reverse/") ? { status: 503, text: "down" } : undefined))
      const read = (address: string) => withApi(http, (api) => api.namesForAddress(address), web)
      expect(yield* read("9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM")).toEqual([])
      expect(http.requests).toHaveLength(0)

      const error = yield* Effect.flip(read(ALICE))
      expect(error.message).toBe("Error fetching names for address")
      down = false
      expect(yield* read(ALICE)).toEqual(["alice.wallet.test"])
      expect(http.requests).toHaveLength(2)
    })
  )

  it.effect("names of an address: an error answer's description is shown", () =>
    Effect.gen(function* () {
      const http = failing(`/reverse/${ALICE}`, { status: 400, json: { error: "Address is not checksummed" } })
      const error = yield* Effect.flip(withApi(http, (api) => api.namesForAddress(ALICE)))
      expect(error.message).toBe("Address is not checksummed")
    })
  )

  it.effect("suggestions: GET /v1/profile/suggestions/{name} with the zone when given", () =>
    Effect.gen(function* () {
      const http = service()
      const suggestions = yield* withApi(http, (api) =>
        Effect.tap(api.nameSuggestions("alice", { zone: "wallet.test" }), () => api.nameSuggestions("alice"))
      )
      expect(suggestions).toEqual([
        { name: "alice.wallet.test", registered: true },
        { name: "alice1.wallet.test", registered: false }
      ])
      expect(http.requests.map(keyOf)).toEqual(["GET /base/v1/profile/suggestions/alice", "GET /base/v1/profile/suggestions/alice"])
      expect(queryOf(http.requests[0])).toEqual({ projectId: "test-project", zone: "wallet.test" })
      expect(queryOf(http.requests[1])).toEqual({ projectId: "test-project" })
      for (const request of http.requests) decodesWith(NameSuggestionsQuery, queryOf(request))
    })
  )

  it.effect("suggestion failures: the service's description, else 'Error fetching name suggestions'", () =>
    Effect.gen(function* () {
      const described = yield* Effect.flip(
        withApi(failing("/suggestions/al", { status: 400, json: { reasons: [{ description: "Name is too short" }, { description: "x" }] } }), (api) =>
          api.nameSuggestions("al")
        )
      )
      expect(described.message).toBe("Name is too short")
      const plain = yield* Effect.flip(withApi(failing("/suggestions/alice", "unreachable"), (api) => api.nameSuggestions("alice")))
      expect(plain.message).toBe("Error fetching name suggestions")
    })
  )

  it.effect("register: POST /v1/profile/account with the payload exactly; the address's cached names are asked again after", () =>
    Effect.gen(function* () {
      const web = makeMemoryWebStorage()
      const http = service()
      const registered = yield* withApi(
        http,
        (api) =>
          Effect.gen(function* () {
            yield* api.namesForAddress(ALICE)
            const record = yield* api.registerName(payload("alice.wallet.test"))
            yield* api.namesForAddress(ALICE)
            return record
          }),
        web
      )
      expect(registered).toEqual(aliceRecord)
      expect(http.requests.map(keyOf)).toEqual([
        `GET /base/v1/profile/reverse/${ALICE}`,
        "POST /base/v1/profile/account",
        `GET /base/v1/profile/reverse/${ALICE}`
      ])
      const request = http.requests[1]
      expect(queryOf(request)).toEqual({ projectId: "test-project" })
      expect(request?.body).toEqual(payload("alice.wallet.test"))
      decodesWith(RegisterNameBody, request?.body)
    })
  )

  it.effect("register failures: the service's description, else 'Error registering name {name}'", () =>
    Effect.gen(function* () {
      const taken = yield* Effect.flip(
        withApi(failing("/profile/account", { status: 409, json: { error: "alice.wallet.test is already registered" } }), (api) =>
          api.registerName(payload("alice.wallet.test"))
        )
      )
      expect(taken.message).toBe("alice.wallet.test is already registered")

      const plain = yield* Effect.flip(
        withApi(failing("/profile/account", { status: 500, text: "oops" }), (api) => api.registerName(payload("carol.wallet.test")))
      )
      expect(plain.message).toBe("Error registering name carol.wallet.test")
      expect(plain._tag).toBe("NameError")
    })
  )

  it.effect("register: a payload whose message is not a name message fails without a request", () =>
    Effect.gen(function* () {
      const http = service()
      const error = yield* Effect.flip(withApi(http, (api) => api.registerName({ ...payload("x"), message: "hello" })))
      expect(error.message).toBe("Error registering name")
      expect(http.requests).toHaveLength(0)
    })
  )
})

describe("BlockchainApi on-ramp", () => {
  it.effect("page: POST /v1/generators/onrampurl with the buy experience, gives the provider's URL", () =>
    Effect.gen(function* () {
      const http = service()
      const url = yield* withApi(http, (api) =>
        api.onrampUrl({
          destinationWallets: [{ address: ALICE, blockchains: [CHAIN], assets: ["ETH"] }],
          defaultNetwork: CHAIN,
          partnerUserId: "visitor-1",
          presetFiatAmount: 100
        })
      )
      expect(url).toBe("https://onramp.test/buy?session=s1")
      const request = only(http)
      expect(keyOf(request)).toBe("POST /base/v1/generators/onrampurl")
      expect(queryOf(request)).toEqual({ projectId: "test-project" })
      expect(request.body).toEqual({
        destinationWallets: [{ address: ALICE, blockchains: [CHAIN], assets: ["ETH"] }],
        defaultNetwork: CHAIN,
        partnerUserId: "visitor-1",
        defaultExperience: "buy",
        presetFiatAmount: 100
      })
      decodesWith(OnrampUrlBody, request.body)
    })
  )

  it.effect("page: a URL that is not http(s) is refused, never handed on to be opened", () =>
    Effect.gen(function* () {
      const http = failing("/onrampurl", { status: 200, json: { url: "javascript:alert(1)" } })
      const error = yield* Effect.flip(
        withApi(http, (api) => api.onrampUrl({ destinationWallets: [{ address: ALICE, blockchains: [CHAIN] }], partnerUserId: "u" }))
      )
      expect(error._tag).toBe("ServiceAnswerInvalid")
    })
  )

  it.effect("options: GET /v1/onramp/options, decoded", () =>
    Effect.gen(function* () {
      const http = service()
      const offered = yield* withApi(http, (api) => api.onrampOptions)
      expect(offered).toEqual(answers["GET /base/v1/onramp/options"])
      const request = only(http)
      expect(keyOf(request)).toBe("GET /base/v1/onramp/options")
      expect(queryOf(request)).toEqual({ projectId: "test-project" })
    })
  )

  const fallbackCases: ReadonlyArray<readonly [string, FakeAnswer]> = [
    ["a 500", { status: 500, text: "boom" }],
    ["an unreachable service", "unreachable"],
    ["a malformed answer", { status: 200, json: { paymentCurrencies: "USD" } }]
  ]
  for (const [what, answer] of fallbackCases) {
    it.effect(`options after ${what}: spec 9's fallback (card 10–7500, bank 10–25000, USD and EUR, fee 1–2 %)`, () =>
      Effect.gen(function* () {
        const offered = yield* withApi(failing("/onramp/options", answer), (api) => api.onrampOptions)
        expect(offered).toEqual(ONRAMP_FALLBACK_OPTIONS)
        expect(offered).toEqual({
          paymentCurrencies: [
            { id: "USD", limits: [{ id: "card", min: 10, max: 7500 }, { id: "bankAccount", min: 10, max: 25000 }] },
            { id: "EUR", limits: [{ id: "card", min: 10, max: 7500 }, { id: "bankAccount", min: 10, max: 25000 }] }
          ],
          purchaseCurrencies: [],
          providerFeePercent: { min: 1, max: 2 }
        })
      })
    )
  }

  it.effect("quote: POST /v1/onramp/quote with the purchase, decoded", () =>
    Effect.gen(function* () {
      const http = service()
      const quote = yield* withApi(http, (api) =>
        api.onrampQuote({ purchaseCurrency: "ETH", paymentCurrency: "USD", amount: "100", network: CHAIN })
      )
      expect(quote).toEqual(answers["POST /base/v1/onramp/quote"])
      const request = only(http)
      expect(keyOf(request)).toBe("POST /base/v1/onramp/quote")
      expect(queryOf(request)).toEqual({ projectId: "test-project" })
      expect(request.body).toEqual({ purchaseCurrency: "ETH", paymentCurrency: "USD", amount: "100", network: CHAIN })
      decodesWith(OnrampQuoteBody, request.body)
    })
  )
})

describe("BlockchainApi sign-in sessions", () => {
  it.effect("list: GET /v1/sessions/{CAIP-10 address}, each session with its pci", () =>
    Effect.gen(function* () {
      const http = service()
      const sessions = yield* withApi(http, (api) => api.sessions(ALICE_A))
      expect(sessions).toEqual([siwxSession])
      const request = only(http)
      expect(keyOf(request)).toBe(`GET /base/v1/sessions/${encodeURIComponent(ALICE_A)}`)
      expect(queryOf(request)).toEqual({ projectId: "test-project" })
      expect(decodesWith(SessionsPath, { address: segment(request, 4) })).toEqual({ address: ALICE_A })
    })
  )

  it.effect("revoke: POST /v1/sessions/{address}/revoke with pci and signature, gives the pci revoked", () =>
    Effect.gen(function* () {
      const http = service()
      const revoked = yield* withApi(http, (api) => api.revokeSession(ALICE_A, { pci: "pci-1", signature: "0xsig" }))
      expect(revoked).toBe("pci-1")
      const request = only(http)
      expect(keyOf(request)).toBe(`POST /base/v1/sessions/${encodeURIComponent(ALICE_A)}/revoke`)
      expect(queryOf(request)).toEqual({ projectId: "test-project" })
      expect(request.body).toEqual({ pci: "pci-1", signature: "0xsig" })
      decodesWith(RevokeSessionBody, request.body)
    })
  )

  it.effect("nonce: POST /v1/sessions/{address}/nonce gives the nonce and its expiry", () =>
    Effect.gen(function* () {
      const http = service()
      const answer = yield* withApi(http, (api) => api.sessionNonce(ALICE_A))
      expect(answer).toEqual({ nonce: "abcdEFGH1234", expiresAt: "2030-01-01T00:10:00.000Z" })
      const request = only(http)
      expect(keyOf(request)).toBe(`POST /base/v1/sessions/${encodeURIComponent(ALICE_A)}/nonce`)
      expect(queryOf(request)).toEqual({ projectId: "test-project" })
    })
  )

  it.effect("nonce without an account (one-click sign-in): POST /v1/sessions/nonce", () =>
    Effect.gen(function* () {
      const http = service()
      const answer = yield* withApi(http, (api) => api.sessionNonce())
      expect(answer).toEqual({ nonce: "anyACCOUNT123", expiresAt: "2030-01-01T00:10:00.000Z" })
      const request = only(http)
      expect(keyOf(request)).toBe("POST /base/v1/sessions/nonce")
      expect(queryOf(request)).toEqual({ projectId: "test-project" })
    })
  )

  it.effect("nonce: a nonce of fewer than 8 letters or digits is an invalid answer", () =>
    Effect.gen(function* () {
      const http = failing("/nonce", { status: 200, json: { nonce: "abc", expiresAt: "2030-01-01T00:10:00.000Z" } })
      const error = yield* Effect.flip(withApi(http, (api) => api.sessionNonce(ALICE_A)))
      expect(error._tag).toBe("ServiceAnswerInvalid")
    })
  )

  it.effect("add: POST /v1/sessions/{address} with data, message and signature, gives the session with its pci", () =>
    Effect.gen(function* () {
      const http = service()
      const { pci: _pci, ...signed } = siwxSession
      const kept = yield* withApi(http, (api) => api.addSession(ALICE_A, signed))
      expect(kept).toEqual(siwxSession)
      const request = only(http)
      expect(keyOf(request)).toBe(`POST /base/v1/sessions/${encodeURIComponent(ALICE_A)}`)
      expect(request.body).toEqual(signed)
    })
  )

  it.effect("list: a session without a signature is an invalid answer", () =>
    Effect.gen(function* () {
      const http = failing(`/sessions/${encodeURIComponent(ALICE_A)}`, { status: 200, json: { sessions: [{ ...siwxSession, signature: "" }] } })
      const error = yield* Effect.flip(withApi(http, (api) => api.sessions(ALICE_A)))
      expect(error._tag).toBe("ServiceAnswerInvalid")
    })
  )
})
