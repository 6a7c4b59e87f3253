/**
 * The wallet catalogue's state and shape, shared by its tag (`WalletCatalog.ts`, in the runtime's core) and the code
 * that fills it (`WalletCatalogLive.ts`, fetched when the list is first needed).
 */
import type { Effect, SubscriptionRef } from "effect"
import type { CustomWallet, ConnectorInfo, WalletCatalogEntry } from "../domain/Wallet"

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

/** What the catalogue's code does once fetched: everything of the service but its state and the icon URLs. */
export interface WalletCatalogLoader {
  /** Fetches the first page and the featured wallets, once (again only if the service had failed). */
  readonly load: Effect.Effect<void>
  /** Fetches the next page, if any; a page already fetched is never fetched again. */
  readonly loadNextPage: Effect.Effect<void>
  /** Sets the search input; the trimmed query is asked 300 ms after the last call (an empty one clears at once). */
  readonly search: (input: string, options?: { readonly certifiedOnly?: boolean }) => Effect.Effect<void>
  /** Fetches an image ahead of showing it; `false` when it did not arrive within 2 s. */
  readonly preloadImage: (url: string) => Effect.Effect<boolean>
}

/** The wallet catalogue: its lists and icons, and what fills them. */
export interface WalletCatalogService extends WalletCatalogLoader {
  /** The lists, for atoms. */
  readonly state: SubscriptionRef.SubscriptionRef<WalletCatalogState>
  /** The icon URL of a catalogue entry. */
  readonly imageUrl: (wallet: WalletCatalogEntry) => string | undefined
}
