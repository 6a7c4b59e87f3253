/**
 * WalletCatalog: the wallet list of the modal from `GET /getWallets` (spec 7.3). Nothing is asked before the list
 * is first needed (the modal opens); then pages of 40 arrive one at a time and a page once fetched is never
 * fetched again. Search trims the input and waits 300 ms after the last keystroke, then asks for up to 100.
 * The Connect view's 4 featured or recommended wallets put the host's `featuredWalletIds` first. The host's
 * include/exclude ids and custom wallets apply everywhere, and a wallet the visitor has installed (same id or
 * rdns as an injected or announced connector) appears once, as installed. When the service cannot be reached
 * the bundled list stands in, so the modal is never empty offline.
 */
import { Context, Effect, Fiber, FiberHandle, FiberSet, Layer, Option, Semaphore, Stream, SubscriptionRef } from "effect"
import * as HttpClient from "effect/http/HttpClient"
import type { GetWalletsQuery } from "../domain/Api"
import {
  FEATURED_WALLETS_COUNT,
  IMAGE_PRELOAD_TIMEOUT_MS,
  WALLET_SEARCH_DEBOUNCE_MS,
  WALLETS_PAGE_SIZE,
  WALLETS_SEARCH_SIZE
} from "../domain/constants"
import { type ConnectorInfo, type CustomWallet, installedConnectorFor, type WalletCatalogEntry } from "../domain/Wallet"
import { Connectors } from "./connectors/Connectors"
import { Config, namespacesOf } from "./Config"
import { Notifications } from "./Notifications"
import { catalogImageUrl } from "./catalogImages"
import { makeServiceCalls } from "./serviceCalls"
import { SDK_TYPE, SDK_VERSION } from "./serviceHttp"
import { generatedIcon } from "./generatedIcon"

/** A wallet as the modal lists it: the catalogue entry, its icon, and the connector reaching it if installed. */
export interface WalletListing {
  readonly wallet: WalletCatalogEntry
  /** Its icon: the catalogue's image endpoint, the host's URL, or a generated `data:` icon. */
  readonly imageUrl: string | undefined
  /** The installed or announced connector of this wallet, when the visitor has it: the wallet is shown as installed. */
  readonly installed: ConnectorInfo | undefined
}

/** The wallet search: what was typed, the trimmed query the results are for, and the results. */
export interface WalletSearchState {
  /** The input as typed. */
  readonly input: string
  /** The trimmed query of `results` (empty: no search). */
  readonly query: string
  /** Only certified wallets (`badge_type=certified`). */
  readonly certifiedOnly: boolean
  /** Matches, installed ones first; custom wallets that match come before the catalogue's. */
  readonly results: ReadonlyArray<WalletListing>
  /** Catalogue wallets matching in all (the results hold at most 100 of them). */
  readonly count: number
  /** A search is waiting for its 300 ms or for its answer. */
  readonly loading: boolean
}

/** Where the listed wallets come from. */
export type CatalogSource = "api" | "fallback"

/** What the wallet views show. */
export interface WalletCatalogState {
  /** The list was asked for (the modal opened); nothing is fetched before. */
  readonly started: boolean
  /** The service, or the bundled list when the service could not be reached. */
  readonly source: CatalogSource | undefined
  /** Every page loaded so far, in the catalogue's order, without the installed wallets (listed as connectors). */
  readonly wallets: ReadonlyArray<WalletListing>
  /** Pages of 40 loaded so far. */
  readonly pagesLoaded: number
  /** Wallets the catalogue holds for this host, over all pages. */
  readonly count: number
  /** More pages can be loaded. */
  readonly hasMore: boolean
  /** The Connect view's wallets: the host's featured ones first, then recommended, 4 at most, none installed. */
  readonly featured: ReadonlyArray<WalletListing>
  /** The host's own wallets (`customWallets`). */
  readonly custom: ReadonlyArray<WalletListing>
  /** A page is being fetched. */
  readonly loading: boolean
  /** Why the last page could not be fetched (the list so far stays). */
  readonly error: string | undefined
  readonly search: WalletSearchState
}

/** The catalogue before anything was asked. */
export const initialWalletCatalogState: WalletCatalogState = {
  started: false,
  source: undefined,
  wallets: [],
  pagesLoaded: 0,
  count: 0,
  hasMore: false,
  featured: [],
  custom: [],
  loading: false,
  error: undefined,
  search: { input: "", query: "", certifiedOnly: false, results: [], count: 0, loading: false }
}

/** A host's custom wallet as a catalogue entry (it supports whatever the host says; no catalogue chains). */
export const customWalletEntry = (wallet: CustomWallet): WalletCatalogEntry => ({
  id: wallet.id,
  name: wallet.name,
  image_id: "",
  ...(wallet.image_url === undefined ? {} : { image_url: wallet.image_url }),
  ...(wallet.homepage === undefined ? {} : { homepage: wallet.homepage }),
  ...(wallet.mobile_link === undefined ? {} : { mobile_link: wallet.mobile_link }),
  ...(wallet.desktop_link === undefined ? {} : { desktop_link: wallet.desktop_link }),
  ...(wallet.webapp_link === undefined ? {} : { webapp_link: wallet.webapp_link }),
  ...(wallet.app_store === undefined ? {} : { app_store: wallet.app_store }),
  ...(wallet.play_store === undefined ? {} : { play_store: wallet.play_store }),
  chains: []
})

const nameMatches = (query: string) => (entry: WalletCatalogEntry) => entry.name.toLowerCase().includes(query.toLowerCase())

/** The wallet catalogue. */
export class WalletCatalog extends Context.Service<
  WalletCatalog,
  {
    /** The lists, for atoms. */
    readonly state: SubscriptionRef.SubscriptionRef<WalletCatalogState>
    /** Fetches the first page and the featured wallets, once (again only if the service had failed). */
    readonly load: Effect.Effect<void>
    /** Fetches the next page, if any; a page already fetched is never fetched again. */
    readonly loadNextPage: Effect.Effect<void>
    /** Sets the search input; the trimmed query is asked 300 ms after the last call (an empty one clears at once). */
    readonly search: (input: string, options?: { readonly certifiedOnly?: boolean }) => Effect.Effect<void>
    /** The icon URL of a catalogue entry. */
    readonly imageUrl: (wallet: WalletCatalogEntry) => string | undefined
    /** Fetches an image ahead of showing it; `false` when it did not arrive within 2 s. */
    readonly preloadImage: (url: string) => Effect.Effect<boolean>
  }
>()("wallet-runtime/WalletCatalog") {
  /** The catalogue at `Config.endpoints.walletCatalog`, over the HttpClient in context. */
  static readonly layer: Layer.Layer<WalletCatalog, never, Config | Notifications | Connectors | HttpClient.HttpClient> =
    Layer.effect(WalletCatalog)(
      Effect.gen(function* () {
        const config = yield* Config
        const notifications = yield* Notifications
        const registry = yield* Connectors
        const client = yield* HttpClient.HttpClient
        const scope = yield* Effect.scope
        const baseUrl = config.endpoints.walletCatalog
        const service = makeServiceCalls({ baseUrl, client, raiseAlert: notifications.raiseAlert })
        const projectId = config.projectId
        const families: ReadonlyArray<string> = namespacesOf(config)
        const include = config.includeWalletIds !== undefined && config.includeWalletIds.length > 0 ? config.includeWalletIds : undefined
        const exclude = config.excludeWalletIds ?? []
        const featuredIds = (config.featuredWalletIds ?? []).filter((id) => !exclude.includes(id) && (include === undefined || include.includes(id)))

        const imageUrl = (wallet: WalletCatalogEntry): string | undefined => {
          if (wallet.image_url !== undefined && wallet.image_url !== "") return wallet.image_url
          if (wallet.image_id === "") return undefined
          return catalogImageUrl(baseUrl, projectId, "/getWalletImage", wallet.image_id)
        }

        const custom = (config.customWallets ?? []).map(customWalletEntry)
        const customListings: ReadonlyArray<WalletListing> = custom.map((wallet) => ({
          wallet,
          imageUrl: wallet.image_url ?? generatedIcon(wallet.id, wallet.name),
          installed: undefined
        }))

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

        const state = yield* SubscriptionRef.make<WalletCatalogState>({ ...initialWalletCatalogState, custom: customListings })

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

        const getWallets = (query: GetWalletsQuery) =>
          service.call("catalogue", (catalogue) => catalogue.getWallets({ query: { ...baseQuery, ...query } }))

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

        return { state, load, loadNextPage, search, imageUrl, preloadImage }
      })
    )
}
