import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, SubscriptionRef } from "effect"
import * as KeyValueStore from "effect/persistence/KeyValueStore"
import { TestClock } from "effect/testing"
import { Alerts } from "../../../src/domain/alerts"
import { NATIVE_TOKEN_ADDRESS } from "../../../src/domain/Api"
import type { CaipAddress } from "../../../src/domain/Caip"
import { bitcoin, localChainA, localChainB, solana } from "../../../src/domain/networks"
import { decodeOptionsSync } from "../../../src/domain/Options"
import type { TokenBalance } from "../../../src/domain/Portfolio"
import {
  BlockchainApi,
  FAILED_TO_FETCH_TRANSACTIONS,
  TOKEN_BALANCE_UNAVAILABLE
} from "../../../src/services/BlockchainApi"
import { Config } from "../../../src/services/Config"
import { Notifications } from "../../../src/services/Notifications"
import { Portfolio } from "../../../src/services/Portfolio"
import { Storage } from "../../../src/services/Storage/Storage"
import { type FakeAnswer, type FakeHttp, makeFakeHttp, type RecordedRequest } from "../support/fakeHttpClient"
import { makeMemoryWebStorage } from "../support/memoryWebStorage"

const ALICE = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"
const ALICE_A = `eip155:31337:${ALICE}` as CaipAddress
const ALICE_B = `eip155:31338:${ALICE}` as CaipAddress

const options = decodeOptionsSync({
  projectId: "test-project",
  networks: [localChainA, localChainB, solana, bitcoin],
  endpoints: { blockchainApi: "http://api.test/base/" }
})

const token = (chainId: string, symbol: string, numeric: string, address?: string): TokenBalance =>
  ({
    name: symbol,
    symbol,
    chainId,
    price: 1,
    quantity: { decimals: "18", numeric },
    iconUrl: `http://api.test/${symbol}`,
    ...(address === undefined ? {} : { address })
  }) as TokenBalance

const eth = (chainId: string, numeric: string) => token(chainId, "ETH", numeric, `${chainId}:${NATIVE_TOKEN_ADDRESS}`)

/** A blockchain service serving eip155:31337 only, with the balances given per chain. */
const service = (overrides: (request: RecordedRequest) => FakeAnswer | undefined = () => undefined) =>
  makeFakeHttp((request) => {
    const override = overrides(request)
    if (override !== undefined) return override
    const path = request.url.pathname
    if (path === "/base/v1/supported-chains") return { status: 200, json: { http: ["eip155:31337"], ws: [] } }
    if (path.endsWith("/balance")) {
      const chainId = request.url.searchParams.get("chainId") ?? ""
      return { status: 200, json: { balances: [eth(chainId, "1.5"), token(chainId, "WUSD", "10", `${chainId}:0x1234`)] } }
    }
    if (path.startsWith("/base/v1/identity/")) return { status: 200, json: { name: "alice.wallet.test", avatar: "http://api.test/a.svg" } }
    if (path.endsWith("/history")) return { status: 200, json: { data: [], next: null } }
    return { status: 404, json: { error: "not found" } }
  })

const layerFor = (web: globalThis.Storage, http: FakeHttp) =>
  Portfolio.layer.pipe(
    Layer.provideMerge(BlockchainApi.layer),
    Layer.provideMerge(Notifications.layer),
    Layer.provideMerge(Storage.layer.pipe(Layer.provide(KeyValueStore.layerStorage(() => web)))),
    Layer.provide(Config.layer(options)),
    Layer.provide(http.layer)
  )

const balancePaths = (http: FakeHttp) => http.requests.filter((r) => r.url.pathname.endsWith("/balance"))

const snackbarText = Effect.gen(function* () {
  yield* Effect.yieldNow
  const notifications = yield* Notifications
  return (yield* SubscriptionRef.get(notifications.state)).snackbar?.message
})

describe("BlockchainApi", () => {
  it.effect("token balances come from the service once, then from storage for 30 s, across a reload", () =>
    Effect.gen(function* () {
      const web = makeMemoryWebStorage()
      const http = service()
      const read = Effect.flatMap(BlockchainApi, (api) => api.tokenBalances(ALICE_A))
      const first = yield* read.pipe(Effect.provide(layerFor(web, http)))
      expect(first.map((t) => t.symbol)).toEqual(["ETH", "WUSD"])
      const request = balancePaths(http)[0]
      expect(request?.url.pathname).toBe(`/base/v1/account/${ALICE}/balance`)
      expect(Object.fromEntries(request?.url.searchParams ?? [])).toEqual({
        projectId: "test-project",
        currency: "usd",
        chainId: "eip155:31337"
      })

      // A reload: a new runtime over the same browser storage asks nothing inside the window.
      yield* TestClock.adjust("29999 millis")
      const again = yield* read.pipe(Effect.provide(layerFor(web, http)))
      expect(again).toEqual(first)
      expect(balancePaths(http)).toHaveLength(1)

      yield* TestClock.adjust("1 millis")
      yield* read.pipe(Effect.provide(layerFor(web, http)))
      expect(balancePaths(http)).toHaveLength(2)
    })
  )

  it.effect("forceUpdate skips the cache and asks the service to skip its own", () =>
    Effect.gen(function* () {
      const http = service()
      yield* Effect.gen(function* () {
        const api = yield* BlockchainApi
        yield* api.tokenBalances(ALICE_A)
        yield* api.nativeBalance(ALICE_A, { forceUpdate: true })
        expect(balancePaths(http)).toHaveLength(2)
        expect(balancePaths(http)[1]?.url.searchParams.get("forceUpdate")).toBe(`eip155:31337:${NATIVE_TOKEN_ADDRESS}`)
      }).pipe(Effect.provide(layerFor(makeMemoryWebStorage(), http)))
    })
  )

  it.effect("the native balance is the chain's coin, cached 30 s; an account holding none shows 0 in the network's symbol", () =>
    Effect.gen(function* () {
      let empty = false
      const http = service((request) =>
        empty && request.url.pathname.endsWith("/balance") ? { status: 200, json: { balances: [] } } : undefined
      )
      yield* Effect.gen(function* () {
        const api = yield* BlockchainApi
        expect(yield* api.nativeBalance(ALICE_A)).toEqual({ balance: "1.5", symbol: "ETH" })
        expect(yield* api.nativeBalance(ALICE_A)).toEqual({ balance: "1.5", symbol: "ETH" })
        expect(balancePaths(http)).toHaveLength(1)
        empty = true
        yield* TestClock.adjust("30 seconds")
        expect(yield* api.nativeBalance(ALICE_A)).toEqual({ balance: "0", symbol: "ETH" })
      }).pipe(Effect.provide(layerFor(makeMemoryWebStorage(), http)))
    })
  )

  it.effect("a balance failure is 'Token Balance Unavailable' (the service shows nothing) and blocks that network's balance for 30 s", () =>
    Effect.gen(function* () {
      let failing = true
      const http = service((request) =>
        failing && request.url.pathname.endsWith("/balance") ? { status: 500, json: { error: "boom" } } : undefined
      )
      yield* Effect.gen(function* () {
        const api = yield* BlockchainApi
        const error = yield* Effect.flip(api.tokenBalances(ALICE_A))
        expect(error.message).toBe(TOKEN_BALANCE_UNAVAILABLE)
        expect(error.reason).toBe("failed")
        expect(error.detail).toContain("HTTP status code: 500")
        expect(yield* snackbarText).toBeUndefined()

        failing = false
        yield* TestClock.adjust("29999 millis")
        const blocked = yield* Effect.flip(api.tokenBalances(ALICE_A, { forceUpdate: true }))
        expect(blocked.reason).toBe("retryBlocked")
        expect(balancePaths(http)).toHaveLength(1)

        yield* TestClock.adjust("1 millis")
        expect((yield* api.tokenBalances(ALICE_A)).length).toBe(2)
        expect(balancePaths(http)).toHaveLength(2)
      }).pipe(Effect.provide(layerFor(makeMemoryWebStorage(), http)))
    })
  )

  it.effect("a network the service does not serve is 'Token Balance Unavailable' without asking for its balance", () =>
    Effect.gen(function* () {
      const http = service()
      yield* Effect.gen(function* () {
        const api = yield* BlockchainApi
        const error = yield* Effect.flip(api.tokenBalances(ALICE_B))
        expect(error.reason).toBe("unsupportedNetwork")
        expect(yield* snackbarText).toBeUndefined()
        expect(balancePaths(http)).toHaveLength(0)
        // The list of served chains is asked once per runtime.
        yield* api.tokenBalances(ALICE_A)
        expect(http.to("/base/v1/supported-chains")).toHaveLength(1)
      }).pipe(Effect.provide(layerFor(makeMemoryWebStorage(), http)))
    })
  )

  it.effect("families without balances (bitcoin) get none and cause no request", () =>
    Effect.gen(function* () {
      const http = service()
      const result = yield* Effect.flatMap(BlockchainApi, (api) =>
        api.tokenBalances("bip122:000000000019d6689c085ae165831e93:bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq" as CaipAddress)
      ).pipe(Effect.provide(layerFor(makeMemoryWebStorage(), http)))
      expect(result).toEqual([])
      expect(http.requests).toHaveLength(0)
    })
  )

  it.effect("identity is cached 5 minutes across a reload; non-EVM addresses have none and ask nothing", () =>
    Effect.gen(function* () {
      const web = makeMemoryWebStorage()
      const http = service()
      const read = (address: string) => Effect.flatMap(BlockchainApi, (api) => api.identity(address, { sender: ALICE }))
      const profile = yield* read(ALICE).pipe(Effect.provide(layerFor(web, http)))
      expect(profile).toEqual({ profileName: "alice.wallet.test", profileImage: "http://api.test/a.svg" })
      expect(http.requests[0]?.url.searchParams.get("sender")).toBe(ALICE)

      yield* TestClock.adjust("299 seconds")
      yield* read(ALICE.toLowerCase()).pipe(Effect.provide(layerFor(web, http)))
      expect(http.requests).toHaveLength(1)
      yield* TestClock.adjust("1 seconds")
      yield* read(ALICE).pipe(Effect.provide(layerFor(web, http)))
      expect(http.requests).toHaveLength(2)

      const none = yield* read("9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM").pipe(Effect.provide(layerFor(web, http)))
      expect(none).toEqual({ profileName: null, profileImage: null })
      expect(http.requests).toHaveLength(2)
    })
  )

  it.effect("a history failure is 'Failed to fetch transactions' (the service shows nothing)", () =>
    Effect.gen(function* () {
      const http = service((request) => (request.url.pathname.endsWith("/history") ? "unreachable" : undefined))
      yield* Effect.gen(function* () {
        const api = yield* BlockchainApi
        const error = yield* Effect.flip(api.transactions(ALICE, { cursor: "c1" }))
        expect(error.message).toBe(FAILED_TO_FETCH_TRANSACTIONS)
        expect(yield* snackbarText).toBeUndefined()
        expect(http.requests[0]?.url.searchParams.get("cursor")).toBe("c1")
      }).pipe(Effect.provide(layerFor(makeMemoryWebStorage(), http)))
    })
  )

  it.effect("the history of an address the services' API does not take (a Bitcoin account's) fails without a request", () =>
    Effect.gen(function* () {
      const http = service()
      yield* Effect.gen(function* () {
        const api = yield* BlockchainApi
        const error = yield* Effect.flip(api.transactions("bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080"))
        expect(error.message).toBe(FAILED_TO_FETCH_TRANSACTIONS)
        expect(error.detail).toContain("request not sent")
        expect(http.requests).toEqual([])
      }).pipe(Effect.provide(layerFor(makeMemoryWebStorage(), http)))
    })
  )

  it.effect("Portfolio tells the visitor: 'Token Balance Unavailable' once per failure, not again while the retry block runs", () =>
    Effect.gen(function* () {
      const http = service((request) => (request.url.pathname.endsWith("/balance") ? { status: 500, json: { error: "boom" } } : undefined))
      yield* Effect.gen(function* () {
        const portfolio = yield* Portfolio
        const notifications = yield* Notifications
        yield* Effect.flip(portfolio.nativeBalance(ALICE_A))
        expect(yield* snackbarText).toBe(TOKEN_BALANCE_UNAVAILABLE)
        yield* notifications.hideSnackbar
        const blocked = yield* Effect.flip(portfolio.nativeBalance(ALICE_A))
        expect(blocked.reason).toBe("retryBlocked")
        expect(yield* snackbarText).toBeUndefined()
      }).pipe(Effect.provide(layerFor(makeMemoryWebStorage(), http)))
    })
  )

  it.effect("Portfolio: a configured network the service does not serve is said; a network outside the host's list is not (the Switch-network view says it)", () =>
    Effect.gen(function* () {
      const http = service()
      yield* Effect.gen(function* () {
        const portfolio = yield* Portfolio
        const notifications = yield* Notifications
        // Both show '0.00' (spec 9); only the listed one is said.
        const unlisted = yield* portfolio.nativeBalance(`eip155:1:${ALICE}` as CaipAddress)
        expect(unlisted.balance).toBe("0.00")
        expect(yield* snackbarText).toBeUndefined()

        const unserved = yield* portfolio.nativeBalance(ALICE_B)
        expect(unserved.balance).toBe("0.00")
        expect(yield* snackbarText).toBe(TOKEN_BALANCE_UNAVAILABLE)
        yield* notifications.hideSnackbar
      }).pipe(Effect.provide(layerFor(makeMemoryWebStorage(), http)))
    })
  )

  it.effect("Portfolio leaves 'Failed to fetch transactions' to the tab that asked (no snackbar saying it twice)", () =>
    Effect.gen(function* () {
      const http = service((request) => (request.url.pathname.endsWith("/history") ? "unreachable" : undefined))
      yield* Effect.gen(function* () {
        const error = yield* Effect.flip((yield* Portfolio).transactions(ALICE))
        expect(error.message).toBe(FAILED_TO_FETCH_TRANSACTIONS)
        expect(yield* snackbarText).toBeUndefined()
      }).pipe(Effect.provide(layerFor(makeMemoryWebStorage(), http)))
    })
  )

  it.effect("Portfolio.refresh reads past every cache and moves its revision (views read again)", () =>
    Effect.gen(function* () {
      const http = service()
      yield* Effect.gen(function* () {
        const portfolio = yield* Portfolio
        yield* portfolio.nativeBalance(ALICE_A)
        yield* portfolio.nativeBalance(ALICE_A)
        expect(balancePaths(http)).toHaveLength(1)
        yield* portfolio.refresh(ALICE_A)
        expect(balancePaths(http)).toHaveLength(2)
        expect(balancePaths(http).at(-1)?.url.searchParams.get("forceUpdate")).toBe(`eip155:31337:${NATIVE_TOKEN_ADDRESS}`)
        expect(yield* SubscriptionRef.get(portfolio.revision)).toBe(1)
      }).pipe(Effect.provide(layerFor(makeMemoryWebStorage(), http)))
    })
  )

  it.effect("'Unauthorized: invalid key' raises Invalid Project ID once; 'origin not allowed' raises Invalid App Configuration", () =>
    Effect.gen(function* () {
      let text = "Unauthorized: invalid key"
      const http = service((request) =>
        request.url.pathname.startsWith("/base/v1/identity/") ? { status: request.url.searchParams.has("sender") ? 401 : 403, text } : undefined
      )
      yield* Effect.gen(function* () {
        const api = yield* BlockchainApi
        const notifications = yield* Notifications
        const first = yield* Effect.flip(api.identity(ALICE, { sender: ALICE }))
        expect(first.message).toBe("HTTP status code: 401")
        yield* Effect.flip(api.identity(ALICE, { sender: ALICE }))
        expect((yield* SubscriptionRef.get(notifications.state)).alerts).toEqual([Alerts.INVALID_PROJECT_ID])

        text = "Unauthorized: origin not allowed"
        const second = yield* Effect.flip(api.identity(ALICE))
        expect(second.message).toBe("HTTP status code: 403")
        expect((yield* SubscriptionRef.get(notifications.state)).alerts.map((a) => a.id)).toEqual([
          "INVALID_PROJECT_ID",
          "INVALID_APP_CONFIGURATION"
        ])
      }).pipe(Effect.provide(layerFor(makeMemoryWebStorage(), http)))
    })
  )

  it.effect("prices are asked with the projectId in the body, and not at all for no tokens", () =>
    Effect.gen(function* () {
      const http = service((request) =>
        request.url.pathname === "/base/v1/fungible/price"
          ? { status: 200, json: { fungibles: [{ name: "Ether", symbol: "ETH", iconUrl: "x", price: 3000 }] } }
          : undefined
      )
      yield* Effect.gen(function* () {
        const api = yield* BlockchainApi
        expect(yield* api.fungiblePrices([])).toEqual([])
        expect(http.requests).toHaveLength(0)
        const prices = yield* api.fungiblePrices([`eip155:31337:${NATIVE_TOKEN_ADDRESS}` as CaipAddress])
        expect(prices.map((p) => p.price)).toEqual([3000])
        expect(http.requests[0]?.method).toBe("POST")
        expect(http.requests[0]?.body).toEqual({
          projectId: "test-project",
          currency: "usd",
          addresses: [`eip155:31337:${NATIVE_TOKEN_ADDRESS}`]
        })
      }).pipe(Effect.provide(layerFor(makeMemoryWebStorage(), http)))
    })
  )
})
