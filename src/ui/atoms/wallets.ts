/**
 * Atoms of the wallet catalogue: the list pages, the featured wallets, the custom wallets and the search.
 * Mounting any of them (the modal's wallet views do, once open) starts the first fetch; nothing is asked before.
 */
import { Effect, Stream, SubscriptionRef } from "effect"
import * as AsyncResult from "effect/reactivity/AsyncResult"
import * as Atom from "effect/reactivity/Atom"
import {
  initialWalletCatalogState,
  WalletCatalog,
  type WalletListing,
  type WalletSearchState
} from "../../services/WalletCatalog"
import { mapAtom, stateLikeAtom, walletRuntimeAtom } from "./runtime"

/** The catalogue's state; mounting it starts the first page and the featured wallets. */
const walletCatalogStateAtom = stateLikeAtom(
  Stream.unwrap(
    Effect.map(WalletCatalog, (catalog) =>
      SubscriptionRef.changes(catalog.state).pipe(Stream.merge(Stream.drain(Stream.fromEffect(catalog.load))))
    )
  )
)

/** The "all wallets" list: pages loaded so far, whether more exist, the total, and page loading or error. */
export interface WalletList {
  readonly wallets: ReadonlyArray<WalletListing>
  readonly count: number
  readonly hasMore: boolean
  readonly loading: boolean
  readonly error: string | undefined
  readonly offline: boolean
}

/** The "all wallets" list. */
export const walletListAtom: Atom.Atom<WalletList> = mapAtom(walletCatalogStateAtom, (result) => {
  const state = AsyncResult.getOrElse(result, () => initialWalletCatalogState)
  return {
    wallets: state.wallets,
    count: state.count,
    hasMore: state.hasMore,
    // Until the first page is in, the list is loading (also while the runtime itself starts).
    loading: state.loading || !state.started,
    error: state.error,
    offline: state.source === "fallback"
  }
})

/** The Connect view's 4 featured or recommended wallets. */
export const featuredWalletsAtom: Atom.Atom<ReadonlyArray<WalletListing>> = mapAtom(
  walletCatalogStateAtom,
  (result) => AsyncResult.getOrElse(result, () => initialWalletCatalogState).featured
)

/** The featured wallets are still coming: the catalogue's first answer (or the bundled list) is not in yet. */
export const featuredWalletsPendingAtom: Atom.Atom<boolean> = mapAtom(walletCatalogStateAtom, (result) => {
  const state = AsyncResult.getOrElse(result, () => initialWalletCatalogState)
  return state.source === undefined
})

/** The host's own wallets. */
export const customWalletsAtom: Atom.Atom<ReadonlyArray<WalletListing>> = mapAtom(
  walletCatalogStateAtom,
  (result) => AsyncResult.getOrElse(result, () => initialWalletCatalogState).custom
)

/** The featured wallets of a Connect view laid out ahead of the click: none yet, nothing asked. */
export const featuredNotAskedAtom: Atom.Atom<ReadonlyArray<WalletListing>> = Atom.make<ReadonlyArray<WalletListing>>([])

/** A Connect view laid out ahead of the click holds the catalogue's places, as it does once open until it answers. */
export const featuredPendingAheadAtom: Atom.Atom<boolean> = Atom.make(true)

/** The wallet search: input, query, results and whether it is waiting. */
export const walletSearchAtom: Atom.Atom<WalletSearchState> = mapAtom(
  walletCatalogStateAtom,
  (result) => AsyncResult.getOrElse(result, () => initialWalletCatalogState).search
)

/** Loads the next page of the "all wallets" list (nothing when every page is in). */
export const loadMoreWalletsFn = walletRuntimeAtom.fn((_: void) =>
  Effect.flatMap(WalletCatalog, (catalog) => catalog.loadNextPage)
)

/** What to search: the input as typed, and optionally certified wallets only. */
export type WalletSearchRequest = string | { readonly input: string; readonly certifiedOnly?: boolean }

/** Sets the search input; the query goes out 300 ms after the last call, trimmed. */
export const searchWalletsFn = walletRuntimeAtom.fn((request: WalletSearchRequest) =>
  Effect.flatMap(WalletCatalog, (catalog) =>
    typeof request === "string"
      ? catalog.search(request)
      : catalog.search(request.input, { certifiedOnly: request.certifiedOnly ?? false })
  )
)
