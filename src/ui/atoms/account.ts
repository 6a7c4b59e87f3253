/**
 * Atoms of the account in front: its token balances, native balance and identity (each an `AsyncResult`, so a
 * view shows loading, the value, or 'Token Balance Unavailable'), and its activity list, one page at a time. They
 * follow the account: another account or network means other values, and balances are read again when the
 * Portfolio says they are out of date (the visitor's own transaction was confirmed); a disconnected visitor asks
 * nothing.
 */
import { Effect, Stream } from "effect"
import * as AsyncResult from "effect/reactivity/AsyncResult"
import * as Atom from "effect/reactivity/Atom"
import type { Balance, Profile } from "../../domain/Account"
import { type CaipAddress, type ChainNamespace, caipNetworkIdOfAddress, isChainNamespace } from "../../domain/Caip"
import { type FamilyFeature, familySupports } from "../../domain/familyFeatures"
import type { Nft, Transaction } from "../../domain/Portfolio"
import { withPending } from "../../domain/portfolioView"
import type { NftsUnavailable, TransactionsUnavailable } from "../../services/BlockchainApi"
import type { ChainBalance } from "../../services/ChainAdapter"
import { Names } from "../../services/Names"
import { Portfolio } from "../../services/Portfolio"
import { WalletActions } from "../../services/WalletActions"
import { connectionStateAtom } from "./connection"
import { mapAtom, stateAtom, walletRuntimeAtom } from "./runtime"

/** The CAIP-10 address of the connected account in front, or `undefined` (a string, so atoms below re-run only when it changes). */
const activeCaipAddressAtom: Atom.Atom<CaipAddress | undefined> = mapAtom(connectionStateAtom, (result) => {
  const state = AsyncResult.getOrElse(result, () => undefined)
  const namespace = state?.activeNamespace
  const account = namespace === undefined ? undefined : state?.namespaces[namespace]?.account
  return account?.status === "connected" ? account.caipAddress : undefined
})

// A CAIP-10 address's account part (it never contains a colon).
const accountPartOf = (caipAddress: CaipAddress): string => caipAddress.slice(caipAddress.lastIndexOf(":") + 1)

/** How many times the Portfolio said balances are out of date. */
const portfolioRevisionAtom = stateAtom(Effect.map(Portfolio, (portfolio) => portfolio.revision))

/** Whether the product offers `feature` for the family of a CAIP-10 address (spec 9: the service's families only). */
const offers = (caipAddress: CaipAddress, feature: FamilyFeature): boolean => {
  const namespace = caipAddress.slice(0, caipAddress.indexOf(":"))
  return isChainNamespace(namespace) && familySupports(namespace, feature)
}

/** Token balances of the account in front (cached 30 s); empty when nothing is connected or its family has none. */
export const accountTokenBalancesAtom = Atom.withServerValueInitial(
  walletRuntimeAtom.atom((get) => {
    const caipAddress = get(activeCaipAddressAtom)
    get(portfolioRevisionAtom)
    return caipAddress === undefined || !offers(caipAddress, "tokens")
      ? Effect.succeed([])
      : Effect.flatMap(Portfolio, (portfolio) => portfolio.tokenBalances(caipAddress))
  })
)

/**
 * Native balance of the account in front (cached 30 s); `undefined` when nothing is connected or its family has no
 * balances (the service is not asked: the view says so instead).
 */
export const accountBalanceAtom = Atom.withServerValueInitial(
  walletRuntimeAtom.atom((get) => {
    const caipAddress = get(activeCaipAddressAtom)
    get(portfolioRevisionAtom)
    return caipAddress === undefined || !offers(caipAddress, "balance")
      ? Effect.succeed<Balance | undefined>(undefined)
      : Effect.flatMap(Portfolio, (portfolio) => portfolio.nativeBalance(caipAddress))
  })
)

/** How many names were registered: the account's name is read again after each (its cache was dropped). */
const namesRevisionAtom = stateAtom(Effect.map(Names, (names) => names.revision))

/** Name and avatar of the account in front (cached 5 minutes, read again after a registration); none when nothing is connected. */
export const accountIdentityAtom = Atom.withServerValueInitial(
  walletRuntimeAtom.atom((get) => {
    const caipAddress = get(activeCaipAddressAtom)
    get(namesRevisionAtom)
    // The service knows eip155 and solana accounts (spec 9): another family's account is not looked up.
    const known = caipAddress !== undefined && (offers(caipAddress, "names") || offers(caipAddress, "tokens"))
    const address = caipAddress === undefined || !known ? undefined : accountPartOf(caipAddress)
    return address === undefined
      ? Effect.succeed<Profile>({ profileName: null, profileImage: null })
      : Effect.flatMap(Portfolio, (portfolio) => portfolio.identity(address))
  })
)

/** The CAIP-10 address of a family's connected account (or of the family in front), or `undefined`. */
const caipAddressOfAtom = Atom.family((family: ChainNamespace | "front") =>
  family === "front"
    ? activeCaipAddressAtom
    : mapAtom(connectionStateAtom, (result) => {
        const account = AsyncResult.getOrElse(result, () => undefined)?.namespaces[family]?.account
        return account?.status === "connected" ? account.caipAddress : undefined
      })
)

/**
 * The balances of a family's account (or of the account in front) read from its chain through its adapter: read
 * again when the account or its network changes and after the visitor's own transactions; none when not connected.
 */
export const chainBalancesAtom = Atom.family((family: ChainNamespace | "front") =>
  Atom.withServerValueInitial(
    walletRuntimeAtom.atom((get) => {
      const caipAddress = get(caipAddressOfAtom(family))
      get(portfolioRevisionAtom)
      return caipAddress === undefined
        ? Effect.succeed<ReadonlyArray<ChainBalance>>([])
        : Effect.flatMap(WalletActions, (actions) => actions.balances(family === "front" ? undefined : family))
    })
  )
)

/** A list read page by page: the items loaded so far, in the service's order. */
export interface PagedState<A, E> {
  readonly items: ReadonlyArray<A>
  /** Every page is in. */
  readonly done: boolean
  /** A page is being fetched. */
  readonly loading: boolean
  /** The failure that emptied the list; asking for more starts again from the first page. */
  readonly error: E | undefined
}

/** One page of a paged list and the cursor of the next (none when it was the last). */
interface Page<A> {
  readonly data: ReadonlyArray<A>
  readonly next?: string | null | undefined
}

/**
 * A paged list of the account in front and the atom that asks for its next page. `pages` says, from what the atom
 * reads, how to fetch a page at a cursor (or `undefined` when there is nothing to list: no account). The first page
 * loads when the list is first read. The pages read stay a few seconds after the last reader leaves, so a panel that
 * React renders and mounts in separate tasks (a lazy panel, a concurrent render) keeps them instead of asking for the
 * first page again.
 */
const pagedList = <A, E>(
  pages: (get: Atom.AtomContext) => ((cursor: string | undefined) => Effect.Effect<Page<A>, E, Portfolio>) | undefined
) => {
  const empty: PagedState<A, E> = { items: [], done: true, loading: false, error: undefined }
  const first: PagedState<A, E> = { items: [], done: false, loading: false, error: undefined }
  // Each write asks for one more page; the list atom turns the writes into page requests.
  const requests = Atom.make(0)
  const list = Atom.withServerValueInitial(
    walletRuntimeAtom.atom((get) => {
      const pageAt = pages(get)
      if (pageAt === undefined) return Stream.make(empty)
      return Stream.suspend(() => {
        let state = first
        let cursor: string | undefined
        const nextPage = () =>
          pageAt(cursor).pipe(
            Effect.map((page): PagedState<A, E> => {
              cursor = page.next ?? undefined
              return { items: [...state.items, ...page.data], done: cursor === undefined, loading: false, error: undefined }
            }),
            Effect.catch((error) =>
              Effect.sync((): PagedState<A, E> => {
                cursor = undefined
                return { items: [], done: false, loading: false, error }
              })
            ),
            Effect.tap((next) => Effect.sync(() => (state = next)))
          )
        // The request stream's first element is its current value: the first page loads at once.
        return get.stream(requests).pipe(
          Stream.flatMap(() =>
            state.done
              ? Stream.empty
              : Stream.concat(
                  Stream.make((state = { ...state, loading: true, error: undefined })),
                  Stream.fromEffect(Effect.suspend(nextPage))
                )
          )
        )
      })
    })
  ).pipe(Atom.setIdleTTL("5 seconds"))
  // Ignored while a page is loading or when every page is in.
  const loadMore = Atom.writable(
    (get) => get(requests),
    (ctx, _: void) => {
      const current = AsyncResult.getOrElse(ctx.get(list), () => empty)
      if (current.loading || current.done) return
      ctx.set(requests, ctx.get(requests) + 1)
    }
  )
  return { list, loadMore }
}

const activity = pagedList<Transaction, TransactionsUnavailable>((get) => {
  const caipAddress = get(activeCaipAddressAtom)
  // Read again once the visitor's own transaction is final: the service lists it now.
  get(portfolioRevisionAtom)
  if (caipAddress === undefined) return undefined
  const address = accountPartOf(caipAddress)
  const chainId = caipNetworkIdOfAddress(caipAddress)
  return (cursor) => Effect.flatMap(Portfolio, (portfolio) => portfolio.transactions(address, { cursor, chainId }))
})

/** The visitor's own transactions not final yet, of every account. */
const pendingTransactionsAtom = stateAtom(Effect.map(WalletActions, (actions) => actions.pending))

/**
 * The activity of the account in front on its network, newest first, with the visitor's own transactions still
 * waiting on top; 'Failed to fetch transactions' empties the listed part.
 */
export const activityAtom = Atom.make((get) => {
  const listed = get(activity.list)
  const caipAddress = get(activeCaipAddressAtom)
  const mine = AsyncResult.getOrElse(get(pendingTransactionsAtom), () => [])
    .filter((entry) => entry.caipAddress === caipAddress)
    .map((entry) => entry.transaction)
  return AsyncResult.map(listed, (state) => (state.error !== undefined ? state : { ...state, items: withPending(state.items, mine) }))
})

/** Asks for the next page of activity (ignored while a page is loading or when every page is in). */
export const loadMoreActivityAtom = activity.loadMore

const nfts = pagedList<Nft, NftsUnavailable>((get) => {
  const caipAddress = get(activeCaipAddressAtom)
  // Read again after the visitor's own transactions (an NFT sent or received).
  get(portfolioRevisionAtom)
  if (caipAddress === undefined) return undefined
  return (cursor) => Effect.flatMap(Portfolio, (portfolio) => portfolio.nfts(caipAddress, { cursor }))
})

/** The NFTs the account in front holds on its network, spam left out; 'Failed to fetch NFTs' empties it. */
export const nftsAtom = nfts.list

/** Asks for the next page of NFTs (ignored while a page is loading or when every page is in). */
export const loadMoreNftsAtom = nfts.loadMore
