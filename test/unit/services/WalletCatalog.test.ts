import { describe, expect, it } from "@effect/vitest"
import { Effect, Fiber, Layer, Option, Stream, SubscriptionRef } from "effect"
import { TestClock } from "effect/testing"
import { Alerts } from "../../../src/domain/alerts"
import { localChainA, localChainB } from "../../../src/domain/networks"
import { decodeOptionsSync } from "../../../src/domain/Options"
import type { WalletCatalogEntry } from "../../../src/domain/Wallet"
import { Config } from "../../../src/services/Config"
import type { Connector } from "../../../src/services/connectors/Connector"
import { type ConnectorSource, Connectors } from "../../../src/services/connectors/Connectors"
import { makeFakeWallet } from "../../../src/services/fakes/FakeWallet"
import { Notifications } from "../../../src/services/Notifications"
import { WalletCatalog, type WalletCatalogState } from "../../../src/services/WalletCatalog"
import { SERVICE_REQUEST_TIMEOUT_MS } from "../../../src/services/serviceHttp"
import { fallbackCatalogue } from "../../../src/services/walletCatalogFallback"
import { type FakeAnswer, type FakeHttp, makeFakeHttp, type RecordedRequest } from "../support/fakeHttpClient"

/** 95 wallets: odd ones are "Amber n", even ones "Birch n". */
const CATALOGUE: ReadonlyArray<WalletCatalogEntry> = Array.from({ length: 95 }, (_, i) => ({
  id: `w${i}`,
  name: `${i % 2 === 1 ? "Amber" : "Birch"} ${i}`,
  rdns: `example.w${i}`,
  image_id: `img-${i}`,
  chains: ["eip155:31337"]
}))

const list = (value: string | null) => (value === null ? undefined : value.split(",").filter((part) => part !== ""))

/** Answers `/getWallets` like the catalogue service: include/exclude/search filters, then the 1-based page. */
const answerGetWallets = (request: RecordedRequest): FakeAnswer => {
  const params = request.url.searchParams
  const include = list(params.get("include"))
  const exclude = list(params.get("exclude")) ?? []
  const search = (params.get("search") ?? "").trim().toLowerCase()
  const matching = CATALOGUE.filter(
    (entry) =>
      (include === undefined || include.includes(entry.id)) &&
      !exclude.includes(entry.id) &&
      entry.name.toLowerCase().includes(search)
  )
  const entries = Number(params.get("entries") ?? "40")
  const start = (Number(params.get("page") ?? "1") - 1) * entries
  return { status: 200, json: { data: matching.slice(start, start + entries), count: matching.length } }
}

const catalogue = (override: (request: RecordedRequest) => FakeAnswer | undefined = () => undefined) =>
  makeFakeHttp((request) => {
    const answer = override(request)
    if (answer !== undefined) return answer
    if (request.url.pathname === "/cat/getWallets") return answerGetWallets(request)
    if (request.url.pathname.startsWith("/cat/getWalletImage/")) return { status: 200, text: "<svg/>" }
    return { status: 404, json: { error: "not found" } }
  })

const optionsWith = (extra: Record<string, unknown> = {}) =>
  decodeOptionsSync({
    projectId: "test-project",
    networks: [localChainA, localChainB],
    endpoints: { walletCatalog: "http://catalog.test/cat" },
    ...extra
  })

/** The catalogue over the page's wallets: none, or a live list the test can change (wallets announcing later). */
const layerFor = (http: FakeHttp, options = optionsWith(), wallets?: ConnectorSource) =>
  WalletCatalog.layer.pipe(
    Layer.provideMerge(Notifications.layer),
    Layer.provide(wallets === undefined ? Connectors.layer([]) : Connectors.layerFrom([Effect.succeed(wallets)])),
    Layer.provide(Config.layer(options)),
    Layer.provide(http.layer)
  )

const current = Effect.flatMap(WalletCatalog, (catalog) => SubscriptionRef.get(catalog.state))
const ids = (items: WalletCatalogState["wallets"]) => items.map((item) => item.wallet.id)
const pageRequests = (http: FakeHttp) => http.to("/cat/getWallets").filter((r) => !r.url.searchParams.has("search"))
const searchRequests = (http: FakeHttp) => http.to("/cat/getWallets").filter((r) => r.url.searchParams.has("search"))

/** The first state (now or later) that passes `check`. */
const whenState = (catalog: WalletCatalog["Service"], check: (state: WalletCatalogState) => boolean) =>
  SubscriptionRef.changes(catalog.state).pipe(
    Stream.filter(check),
    Stream.runHead,
    Effect.map(Option.getOrThrow)
  )

/** An EIP-6963 wallet of the page (a fake one: the catalogue only reads what it says about itself). */
const announced = (id: string, rdns: string, explorerId?: string): Effect.Effect<Connector> =>
  Effect.map(makeFakeWallet({ id, type: "ANNOUNCED", rdns, families: { eip155: { accounts: [], chainId: 31337 } } }), (wallet) =>
    explorerId === undefined ? wallet.connector : { ...wallet.connector, info: { ...wallet.connector.info, explorerId } }
  )

describe("WalletCatalog", () => {
  it.effect("asks nothing until the list is needed, then pages of 40 with the host's projectId, SDK and chains", () =>
    Effect.gen(function* () {
      const http = catalogue()
      yield* Effect.gen(function* () {
        const catalog = yield* WalletCatalog
        yield* TestClock.adjust("1 minute")
        expect(http.requests).toEqual([])
        expect((yield* current).started).toBe(false)

        yield* catalog.load
        const first = pageRequests(http)[0]
        expect(Object.fromEntries(first?.url.searchParams ?? [])).toEqual({
          projectId: "test-project",
          st: "wallet-runtime",
          sv: "0.1.0",
          chains: "eip155:31337,eip155:31338",
          page: "1",
          entries: "40"
        })
        const state = yield* current
        expect(state).toMatchObject({ started: true, source: "api", pagesLoaded: 1, count: 95, hasMore: true, loading: false })
        expect(ids(state.wallets)).toEqual(CATALOGUE.slice(0, 40).map((e) => e.id))
        expect(state.wallets[0]?.imageUrl).toBe(
          "http://catalog.test/cat/getWalletImage/img-0?projectId=test-project&st=wallet-runtime&sv=0.1.0"
        )
      }).pipe(Effect.provide(layerFor(http)))
    })
  )

  it.effect("loads page after page and never fetches a page twice", () =>
    Effect.gen(function* () {
      const http = catalogue()
      yield* Effect.gen(function* () {
        const catalog = yield* WalletCatalog
        yield* catalog.load
        yield* catalog.load
        yield* catalog.loadNextPage
        yield* catalog.loadNextPage
        const state = yield* current
        expect(ids(state.wallets)).toEqual(CATALOGUE.map((e) => e.id))
        expect(state).toMatchObject({ pagesLoaded: 3, hasMore: false })
        yield* catalog.loadNextPage
        yield* catalog.load
        expect(pageRequests(http).map((r) => r.url.searchParams.get("page"))).toEqual(["1", "2", "3"])
      }).pipe(Effect.provide(layerFor(http)))
    })
  )

  it.effect("search trims its input and waits 300 ms after the last keystroke, then asks for 100", () =>
    Effect.gen(function* () {
      const http = catalogue()
      yield* Effect.gen(function* () {
        const catalog = yield* WalletCatalog
        yield* catalog.search("a")
        yield* TestClock.adjust("200 millis")
        yield* catalog.search("am")
        yield* TestClock.adjust("200 millis")
        yield* catalog.search("  amb ")
        expect((yield* current).search).toMatchObject({ input: "  amb ", query: "amb", loading: true })
        yield* TestClock.adjust("299 millis")
        expect(searchRequests(http)).toHaveLength(0)
        yield* TestClock.adjust("1 millis")
        expect(searchRequests(http).map((r) => [r.url.searchParams.get("search"), r.url.searchParams.get("entries")])).toEqual([
          ["amb", "100"]
        ])
        const search = (yield* current).search
        expect(search).toMatchObject({ query: "amb", loading: false, count: 47 })
        expect(search.results.every((item) => item.wallet.name.startsWith("Amber"))).toBe(true)

        // Spaces alone change nothing; clearing is at once; the same query again comes from memory.
        yield* catalog.search("amb  ")
        yield* TestClock.adjust("1 second")
        yield* catalog.search("   ")
        expect((yield* current).search).toMatchObject({ query: "", results: [], loading: false })
        yield* catalog.search("amb")
        yield* TestClock.adjust("300 millis")
        expect((yield* current).search.results).toHaveLength(47)
        expect(searchRequests(http)).toHaveLength(1)
      }).pipe(Effect.provide(layerFor(http)))
    })
  )

  it.effect("certified-only search sends badge_type=certified", () =>
    Effect.gen(function* () {
      const http = catalogue()
      yield* Effect.gen(function* () {
        const catalog = yield* WalletCatalog
        yield* catalog.search("birch", { certifiedOnly: true })
        yield* TestClock.adjust("300 millis")
        expect(searchRequests(http)[0]?.url.searchParams.get("badge_type")).toBe("certified")
      }).pipe(Effect.provide(layerFor(http)))
    })
  )

  it.effect("shows 4 featured or recommended wallets, the host's featured ids first in the host's order", () =>
    Effect.gen(function* () {
      const http = catalogue()
      const options = optionsWith({ featuredWalletIds: ["w50", "w7"] })
      yield* Effect.gen(function* () {
        const catalog = yield* WalletCatalog
        yield* catalog.load
        expect(ids((yield* current).featured)).toEqual(["w50", "w7", "w0", "w1"])
        const featuredRequest = pageRequests(http).find((r) => r.url.searchParams.get("include") === "w50,w7")
        expect(featuredRequest).toBeDefined()
      }).pipe(Effect.provide(layerFor(http, options)))
    })
  )

  it.effect("include and exclude ids reach the service and hold for every list", () =>
    Effect.gen(function* () {
      // This service ignores the filters, so what the visitor sees proves they are also applied here.
      const http = catalogue((request) =>
        request.url.pathname === "/cat/getWallets"
          ? { status: 200, json: { data: CATALOGUE.slice(0, 10), count: 10 } }
          : undefined
      )
      const options = optionsWith({ includeWalletIds: ["w1", "w2", "w3"], excludeWalletIds: ["w2"], featuredWalletIds: ["w2", "w3"] })
      yield* Effect.gen(function* () {
        const catalog = yield* WalletCatalog
        yield* catalog.load
        const state = yield* current
        expect(ids(state.wallets)).toEqual(["w1", "w3"])
        expect(ids(state.featured)).toEqual(["w3", "w1"])
        const first = pageRequests(http)[0]?.url.searchParams
        expect([first?.get("include"), first?.get("exclude")]).toEqual(["w1,w2,w3", "w2"])
      }).pipe(Effect.provide(layerFor(http, options)))
    })
  )

  it.effect("custom wallets are listed with a generated icon and found by search", () =>
    Effect.gen(function* () {
      const http = catalogue()
      const options = optionsWith({ customWallets: [{ id: "my-wallet", name: "Amber House Wallet", homepage: "https://my.example" }] })
      yield* Effect.gen(function* () {
        const catalog = yield* WalletCatalog
        const custom = (yield* current).custom
        expect(custom.map((item) => item.wallet.name)).toEqual(["Amber House Wallet"])
        expect(custom[0]?.imageUrl).toMatch(/^data:image\/svg\+xml,/)
        yield* catalog.search("amber h")
        yield* TestClock.adjust("300 millis")
        expect(ids((yield* current).search.results)).toEqual(["my-wallet"])
      }).pipe(Effect.provide(layerFor(http, options)))
    })
  )

  it.effect("a wallet the visitor has installed appears once, as installed, also when it is announced later", () =>
    Effect.gen(function* () {
      const http = catalogue()
      const wallets = yield* SubscriptionRef.make<ReadonlyArray<Connector>>([yield* announced("installed-w0", "example.w0")])
      const options = optionsWith({ featuredWalletIds: ["w0"] })
      yield* Effect.gen(function* () {
        const catalog = yield* WalletCatalog
        yield* catalog.load
        let state = yield* current
        expect(ids(state.wallets)).not.toContain("w0")
        expect(ids(state.featured)).toEqual(["w1", "w2", "w3", "w4"])

        const late = yield* announced("w3", "other.rdns", "w3")
        yield* SubscriptionRef.update(wallets, (list) => [...list, late])
        state = yield* whenState(catalog, (s) => !ids(s.wallets).includes("w3"))
        expect(ids(state.wallets).slice(0, 4)).toEqual(["w1", "w2", "w4", "w5"])
        expect(ids(state.featured)).toEqual(["w1", "w2", "w4", "w5"])

        yield* catalog.search("birch 0")
        yield* TestClock.adjust("300 millis")
        const results = (yield* current).search.results
        expect(results.map((item) => [item.wallet.id, item.installed?.id])).toEqual([["w0", "installed-w0"]])
      }).pipe(Effect.provide(layerFor(http, options, wallets)))
    })
  )

  it.effect("a wallet without rdns (a Wallet Standard one) is recognised as installed by its name", () =>
    Effect.gen(function* () {
      const http = catalogue()
      const amber = yield* makeFakeWallet({ id: "amber-standard", name: " amber 1 ", families: { solana: { accounts: [], chainId: "devnet" } } })
      const wallets = yield* SubscriptionRef.make<ReadonlyArray<Connector>>([amber.connector])
      yield* Effect.gen(function* () {
        const catalog = yield* WalletCatalog
        yield* catalog.load
        expect(ids((yield* current).wallets)).not.toContain("w1")
        yield* catalog.search("amber 1")
        yield* TestClock.adjust("300 millis")
        const results = (yield* current).search.results
        expect(results.find((item) => item.wallet.id === "w1")?.installed?.id).toBe("amber-standard")
        // Another wallet whose name only starts the same is not it.
        expect(results.find((item) => item.wallet.id === "w11")?.installed).toBeUndefined()
      }).pipe(Effect.provide(layerFor(http, optionsWith(), wallets)))
    })
  )

  it.effect("offline, the bundled list stands in: wallets of the host's families, 4 featured, local search", () =>
    Effect.gen(function* () {
      const http = catalogue(() => "unreachable")
      const options = optionsWith({ featuredWalletIds: ["4622a2b2d6af1c9844944291e5e7351a6aa24cd7b23099efac1b2fd875da31a0"] })
      yield* Effect.gen(function* () {
        const catalog = yield* WalletCatalog
        yield* catalog.load
        const state = yield* current
        const evmOnly = fallbackCatalogue().filter((entry) => entry.chains.some((chain) => chain.startsWith("eip155:")))
        expect(state).toMatchObject({ source: "fallback", count: evmOnly.length, hasMore: false, error: undefined })
        expect(state.wallets.length).toBeGreaterThanOrEqual(20)
        expect(state.wallets.map((item) => item.wallet.name)).not.toContain("Solflare")
        expect(state.wallets.every((item) => item.imageUrl?.startsWith("data:image/svg+xml,"))).toBe(true)
        expect(state.featured.map((item) => item.wallet.name)).toEqual(["Trust Wallet", "MetaMask", "Coinbase Wallet", "Rainbow"])

        const before = http.requests.length
        yield* catalog.search(" rab ")
        yield* TestClock.adjust("300 millis")
        expect((yield* current).search.results.map((item) => item.wallet.name)).toEqual(["Rabby Wallet"])
        expect(http.requests.length).toBe(before)
      }).pipe(Effect.provide(layerFor(http, options)))
    })
  )

  it.effect("a catalogue that sends its headers and then stalls gives way to the bundled list after the time-out", () =>
    Effect.gen(function* () {
      let markAsked: () => void = () => undefined
      const asked = new Promise<void>((resolve) => (markAsked = resolve))
      const http = catalogue((request) => {
        if (!request.url.pathname.endsWith("/getWallets")) return undefined
        markAsked()
        return { status: 200, stallBody: true }
      })
      yield* Effect.gen(function* () {
        const catalog = yield* WalletCatalog
        const loading = yield* Effect.forkChild(catalog.load)
        // The catalogue's code and client are fetched (in real time) before its request leaves.
        yield* Effect.promise(() => asked)
        yield* TestClock.adjust(SERVICE_REQUEST_TIMEOUT_MS)
        yield* Fiber.join(loading)
        expect((yield* current).source).toBe("fallback")
        expect((yield* current).wallets.length).toBeGreaterThanOrEqual(20)
      }).pipe(Effect.provide(layerFor(http)))
    })
  )

  it.effect("loads started while one runs share it (one request, not one queued behind the other); a later one asks again", () =>
    Effect.gen(function* () {
      const http = catalogue(() => "unreachable")
      yield* Effect.gen(function* () {
        const catalog = yield* WalletCatalog
        const asked = () => http.requests.filter((request) => request.url.pathname.endsWith("/getWallets")).length
        yield* Effect.all([catalog.load, catalog.load, catalog.load], { concurrency: "unbounded" })
        expect(asked()).toBe(1)
        expect((yield* current).source).toBe("fallback")
        yield* catalog.load
        expect(asked()).toBe(2)
      }).pipe(Effect.provide(layerFor(http)))
    })
  )

  it.effect("an unknown projectId raises Invalid Project ID and the bundled list still shows", () =>
    Effect.gen(function* () {
      const http = catalogue(() => ({ status: 401, text: "Unauthorized: invalid key" }))
      yield* Effect.gen(function* () {
        const catalog = yield* WalletCatalog
        yield* catalog.load
        expect((yield* current).source).toBe("fallback")
        const notifications = yield* Notifications
        expect((yield* SubscriptionRef.get(notifications.state)).alerts).toEqual([Alerts.INVALID_PROJECT_ID])
      }).pipe(Effect.provide(layerFor(http)))
    })
  )

  it.effect("a failed later page keeps the list and says why; the page can be asked again", () =>
    Effect.gen(function* () {
      let failing = true
      const http = catalogue((request) =>
        failing && request.url.searchParams.get("page") === "2" ? { status: 503, json: { error: "busy" } } : undefined
      )
      yield* Effect.gen(function* () {
        const catalog = yield* WalletCatalog
        yield* catalog.load
        yield* catalog.loadNextPage
        expect(yield* current).toMatchObject({ error: "HTTP status code: 503", pagesLoaded: 1, hasMore: true, loading: false })
        failing = false
        yield* catalog.loadNextPage
        expect(yield* current).toMatchObject({ error: undefined, pagesLoaded: 2 })
      }).pipe(Effect.provide(layerFor(http)))
    })
  )

  it.effect("image preload gives up after 2 s; generated icons need no request", () =>
    Effect.gen(function* () {
      const http = catalogue((request) => (request.url.pathname === "/cat/getWalletImage/slow" ? "hang" : undefined))
      yield* Effect.gen(function* () {
        const catalog = yield* WalletCatalog
        expect(yield* catalog.preloadImage("http://catalog.test/cat/getWalletImage/fast")).toBe(true)
        expect(yield* catalog.preloadImage("data:image/svg+xml,%3Csvg%2F%3E")).toBe(true)
        const slow = yield* Effect.forkChild(catalog.preloadImage("http://catalog.test/cat/getWalletImage/slow"))
        yield* TestClock.adjust("1999 millis")
        expect(slow.pollUnsafe()).toBeUndefined()
        yield* TestClock.adjust("1 millis")
        expect(yield* Fiber.join(slow)).toBe(false)
        expect(http.requests.map((r) => r.url.pathname)).toEqual(["/cat/getWalletImage/fast", "/cat/getWalletImage/slow"])
      }).pipe(Effect.provide(layerFor(http)))
    })
  )
})
