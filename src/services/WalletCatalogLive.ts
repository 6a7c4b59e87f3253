/**
 * The wallet catalogue's code (see `WalletCatalog.ts`): pages, featured wallets, search and the bundled list when the
 * service cannot be reached. Fetched with `import()` when the list is first needed (the modal opens), so a page's first
 * click does not carry it. Its requests are the catalogue's own call (`catalogueWallets.ts`), in this chunk, not the
 * derived clients: the first open then fetches nothing more before its first request (one chunk fewer in series, ~0.3
 * MiB less heap).
 */
import { Effect, Fiber, FiberHandle, FiberSet, Option, type Scope, Semaphore, Stream, SubscriptionRef } from "effect"
import * as HttpClient from "effect/http/HttpClient"
import type { GetWalletsQuery } from "../domain/ApiCatalogue"
import {
  FEATURED_WALLETS_COUNT,
  IMAGE_PRELOAD_TIMEOUT_MS,
  WALLET_SEARCH_DEBOUNCE_MS,
  WALLETS_PAGE_SIZE,
  WALLETS_SEARCH_SIZE
} from "../domain/constants"
import { type ConnectorInfo, installedConnectorFor, type WalletCatalogEntry } from "../domain/Wallet"
import { makeGetWallets } from "./catalogueWallets"
import { Connectors } from "./connectors/Connectors"
import { Config, namespacesOf } from "./Config"
import { Notifications } from "./Notifications"
import { SDK_TYPE, SDK_VERSION } from "./serviceHttp"
import type {
  CatalogSource,
  WalletCatalogLoader,
  WalletCatalogService,
  WalletCatalogState,
  WalletListing,
  WalletSearchState
} from "./walletCatalogState"

const nameMatches = (query: string) => (entry: WalletCatalogEntry) => entry.name.toLowerCase().includes(query.toLowerCase())

/**
 * The catalogue's code over its state, icon URLs and the host's own wallets (made with the service, in the core),
 * running in the service's scope.
 */
export const makeWalletCatalog = (
  catalog: Pick<WalletCatalogService, "state" | "imageUrl"> & { readonly customListings: ReadonlyArray<WalletListing> }
): Effect.Effect<WalletCatalogLoader, never, Config | Notifications | Connectors | HttpClient.HttpClient | Scope.Scope> =>
  Effect.gen(function* () {
    const { state, imageUrl, customListings } = catalog
    const config = yield* Config
    const notifications = yield* Notifications
    const registry = yield* Connectors
    const client = yield* HttpClient.HttpClient
    const scope = yield* Effect.scope
    const baseUrl = config.endpoints.walletCatalog
    const askWallets = makeGetWallets({ baseUrl, client, raiseAlert: notifications.raiseAlert })
    const projectId = config.projectId
    const families: ReadonlyArray<string> = namespacesOf(config)
    const include = config.includeWalletIds !== undefined && config.includeWalletIds.length > 0 ? config.includeWalletIds : undefined
    const exclude = config.excludeWalletIds ?? []
    const featuredIds = (config.featuredWalletIds ?? []).filter((id) => !exclude.includes(id) && (include === undefined || include.includes(id)))

    // What the service (or the bundled list) answered; the public state is derived from it and the connectors.
    let source: CatalogSource | undefined
    let pages: Array<WalletCatalogEntry> = []
    let pagesLoaded = 0
    let count = 0
    let featuredRaw: ReadonlyArray<WalletCatalogEntry> = []
    let searchRaw: { readonly entries: ReadonlyArray<WalletCatalogEntry>; readonly count: number } = { entries: [], count: 0 }
    let connectors: ReadonlyArray<ConnectorInfo> = []
    const searchCache = new Map<string, { readonly entries: ReadonlyArray<WalletCatalogEntry>; readonly count: number }>()

    const allowed = (entry: WalletCatalogEntry) =>
      !exclude.includes(entry.id) && (include === undefined || include.includes(entry.id))

    // The bundled list is fetched only when the service fails, so a page whose catalogue answers never pays for it.
    // If that code cannot be fetched either (the page is offline too), the list is empty, not broken.
    const bundled = Effect.tryPromise(() => import("./walletCatalogFallback")).pipe(
      Effect.map(({ fallbackCatalogue, familiesOf }) =>
        fallbackCatalogue().filter((entry) => allowed(entry) && familiesOf(entry).some((family) => families.includes(family)))
      ),
      Effect.orElseSucceed((): ReadonlyArray<WalletCatalogEntry> => [])
    )

    const listing = (wallet: WalletCatalogEntry): WalletListing => ({
      wallet,
      imageUrl: imageUrl(wallet),
      installed: installedConnectorFor(wallet, connectors)
    })

    const publish = (patch: Partial<Omit<WalletCatalogState, "search">> = {}, searchPatch: Partial<WalletSearchState> = {}) =>
      SubscriptionRef.update(state, (current) => {
        const wallets = pages.map(listing).filter((item) => item.installed === undefined)
        const featuredFirst = featuredRaw
          .filter((entry) => featuredIds.includes(entry.id))
          .sort((a, b) => featuredIds.indexOf(a.id) - featuredIds.indexOf(b.id))
          .filter((entry, index, all) => all.findIndex((other) => other.id === entry.id) === index)
        const recommended = pages.filter((entry) => !featuredIds.includes(entry.id))
        const featured = [...featuredFirst, ...recommended]
          .map(listing)
          .filter((item) => item.installed === undefined)
          .slice(0, FEATURED_WALLETS_COUNT)
        const query = searchPatch.query ?? current.search.query
        const customMatches = query === "" ? [] : customListings.filter((item) => nameMatches(query)(item.wallet))
        const found = searchRaw.entries.map(listing)
        const results = [
          ...customMatches,
          ...found.filter((item) => item.installed !== undefined),
          ...found.filter((item) => item.installed === undefined)
        ]
        return {
          ...current,
          source,
          wallets,
          pagesLoaded,
          count,
          hasMore: source === "api" && pages.length < count,
          featured,
          ...patch,
          search: { ...current.search, ...searchPatch, results, count: searchRaw.count }
        }
      })

    const baseQuery: GetWalletsQuery = {
      ...(projectId === undefined ? {} : { projectId }),
      st: SDK_TYPE,
      sv: SDK_VERSION,
      chains: config.networks.map((network) => network.caipNetworkId),
      ...(include === undefined ? {} : { include }),
      ...(exclude.length > 0 ? { exclude } : {})
    }

    const getWallets = (query: GetWalletsQuery) => askWallets({ ...baseQuery, ...query })

    const preloaded = new Set<string>()
    const preloads = yield* FiberSet.make<void>()

    const preloadImage = Effect.fn("WalletCatalog.preloadImage")(function* (url: string) {
      if (url.startsWith("data:") || preloaded.has(url)) return true
      const loaded = yield* client.get(url).pipe(
        Effect.flatMap((response) =>
          response.status >= 200 && response.status < 300
            ? Effect.as(response.arrayBuffer, true)
            : Effect.succeed(false)
        ),
        Effect.timeoutOption(IMAGE_PRELOAD_TIMEOUT_MS),
        Effect.map((result) => Option.getOrElse(result, () => false)),
        Effect.orElseSucceed(() => false),
        Effect.provideService(HttpClient.TracerPropagationEnabled, false)
      )
      if (loaded) preloaded.add(url)
      return loaded
    })

    const preloadFeatured = Effect.gen(function* () {
      const urls = (yield* SubscriptionRef.get(state)).featured.flatMap((item) => (item.imageUrl === undefined ? [] : [item.imageUrl]))
      yield* FiberSet.run(preloads, Effect.forEach(urls, preloadImage, { concurrency: FEATURED_WALLETS_COUNT, discard: true }))
    })

    const lock = yield* Semaphore.make(1)

    // The work runs in the service's scope: a view that stops waiting (unmounts) does not cut a fetch in half.
    const detached = <A>(effect: Effect.Effect<A>): Effect.Effect<A> =>
      Effect.flatMap(Effect.forkIn(lock.withPermits(1)(effect), scope), Fiber.join)

    const loadFirst = Effect.gen(function* () {
      if (source === "api") return
      yield* publish({ started: true, loading: true })
      const [page, featured] = yield* Effect.all(
        [
          Effect.result(getWallets({ page: 1, entries: WALLETS_PAGE_SIZE })),
          featuredIds.length === 0
            ? Effect.succeed(undefined)
            : Effect.result(getWallets({ page: 1, entries: WALLETS_SEARCH_SIZE, include: featuredIds }))
        ],
        { concurrency: "unbounded" }
      )
      if (page._tag === "Success") {
        source = "api"
        pages = page.success.data.filter(allowed)
        pagesLoaded = 1
        count = page.success.count
        featuredRaw = featured?._tag === "Success" ? featured.success.data.filter(allowed) : []
        yield* publish({ loading: false, error: undefined })
      } else {
        yield* Effect.logWarning(`Wallet catalogue unavailable, using the bundled list: ${page.failure.message}`)
        const list = yield* bundled
        source = "fallback"
        pages = [...list]
        pagesLoaded = 1
        count = list.length
        featuredRaw = list.filter((entry) => featuredIds.includes(entry.id))
        yield* publish({ loading: false, error: undefined })
      }
      yield* preloadFeatured
    })

    // Views that mount while the first load runs (a render React starts again) share it: one request, not one
    // queued behind the other. A later load, once that one has ended, asks again (after the bundled list too).
    let loading: Fiber.Fiber<void> | undefined
    const load = Effect.suspend((): Effect.Effect<void> => {
      if (loading !== undefined) return Fiber.join(loading)
      const run = lock.withPermits(1)(loadFirst).pipe(Effect.ensuring(Effect.sync(() => (loading = undefined))))
      return Effect.forkIn(run, scope).pipe(
        Effect.tap((fiber) => Effect.sync(() => (loading = fiber.pollUnsafe() === undefined ? fiber : undefined))),
        Effect.flatMap(Fiber.join)
      )
    }).pipe(Effect.withSpan("WalletCatalog.load"))

    const loadNextPage = detached(
      Effect.gen(function* () {
        if (source === undefined) return yield* loadFirst
        if (source !== "api" || pages.length >= count) return
        yield* publish({ loading: true })
        const next = pagesLoaded + 1
        const page = yield* Effect.result(getWallets({ page: next, entries: WALLETS_PAGE_SIZE }))
        if (page._tag === "Failure") return yield* publish({ loading: false, error: page.failure.message })
        const known = new Set(pages.map((entry) => entry.id))
        pages = [...pages, ...page.success.data.filter((entry) => allowed(entry) && !known.has(entry.id))]
        pagesLoaded = next
        count = page.success.count
        yield* publish({ loading: false, error: undefined })
      })
    ).pipe(Effect.withSpan("WalletCatalog.loadNextPage"))

    const searchFiber = yield* FiberHandle.make<void, never>()

    const runSearch = (query: string, certifiedOnly: boolean) =>
      Effect.gen(function* () {
        yield* Effect.sleep(WALLET_SEARCH_DEBOUNCE_MS)
        const key = `${certifiedOnly ? "certified" : "any"}:${query.toLowerCase()}`
        const cached = searchCache.get(key)
        let answer = cached
        if (answer === undefined && source !== "fallback") {
          const result = yield* Effect.result(
            getWallets({
              page: 1,
              entries: WALLETS_SEARCH_SIZE,
              search: query,
              ...(certifiedOnly ? { badge_type: "certified" } : {})
            })
          )
          if (result._tag === "Success") {
            answer = { entries: result.success.data.filter(allowed), count: result.success.count }
            searchCache.set(key, answer)
          }
        }
        if (answer === undefined) {
          const matches = (yield* bundled).filter(nameMatches(query))
          answer = { entries: matches, count: matches.length }
        }
        searchRaw = answer
        yield* publish({}, { loading: false })
      })

    const search = Effect.fn("WalletCatalog.search")(function* (
      input: string,
      options: { readonly certifiedOnly?: boolean } = {}
    ) {
      const query = input.trim()
      const certifiedOnly = options.certifiedOnly ?? false
      const current = (yield* SubscriptionRef.get(state)).search
      if (query === current.query && certifiedOnly === current.certifiedOnly) {
        yield* SubscriptionRef.update(state, (s) => ({ ...s, search: { ...s.search, input } }))
        return
      }
      yield* FiberHandle.clear(searchFiber)
      // Results always belong to `query`: the previous query's are dropped, not shown under the new one.
      searchRaw = { entries: [], count: 0 }
      yield* publish({}, { input, query, certifiedOnly, loading: query !== "" })
      if (query !== "") yield* FiberHandle.run(searchFiber, runSearch(query, certifiedOnly))
    })

    // Installed and announced wallets come and go (EIP-6963 announcements): the lists follow them.
    connectors = (yield* SubscriptionRef.get(registry.connectors)).map((connector) => connector.info)
    yield* SubscriptionRef.changes(registry.connectors).pipe(
      Stream.runForEach((list) =>
        Effect.suspend(() => {
          connectors = list.map((connector) => connector.info)
          return publish()
        })
      ),
      Effect.forkIn(scope)
    )

    return { load, loadNextPage, search, preloadImage }
  })
