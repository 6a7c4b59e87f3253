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
import { type CaipAddress, type ChainNamespace, caipNetworkIdOfAddress } from "../../domain/Caip"
import type { Transaction } from "../../domain/Portfolio"
import type { TransactionsUnavailable } from "../../services/BlockchainApi"
import type { ChainBalance } from "../../services/ChainAdapter"
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

/** Token balances of the account in front (cached 30 s); empty when nothing is connected. */
export const accountTokenBalancesAtom = Atom.withServerValueInitial(
  walletRuntimeAtom.atom((get) => {
    const caipAddress = get(activeCaipAddressAtom)
    get(portfolioRevisionAtom)
    return caipAddress === undefined ? Effect.succeed([]) : Effect.flatMap(Portfolio, (portfolio) => portfolio.tokenBalances(caipAddress))
  })
)

/** Native balance of the account in front (cached 30 s); `undefined` when nothing is connected. */
export const accountBalanceAtom = Atom.withServerValueInitial(
  walletRuntimeAtom.atom((get) => {
    const caipAddress = get(activeCaipAddressAtom)
    get(portfolioRevisionAtom)
    return caipAddress === undefined
      ? Effect.succeed<Balance | undefined>(undefined)
      : Effect.flatMap(Portfolio, (portfolio) => portfolio.nativeBalance(caipAddress))
  })
)

/** Name and avatar of the account in front (cached 5 minutes); none when nothing is connected. */
export const accountIdentityAtom = Atom.withServerValueInitial(
  walletRuntimeAtom.atom((get) => {
    const caipAddress = get(activeCaipAddressAtom)
    const address = caipAddress === undefined ? undefined : accountPartOf(caipAddress)
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

/** The activity list: the pages loaded so far, newest first. */
export interface ActivityState {
  readonly transactions: ReadonlyArray<Transaction>
  /** Every page is in. */
  readonly done: boolean
  /** A page is being fetched. */
  readonly loading: boolean
  /** 'Failed to fetch transactions': the list was emptied; asking for more starts again from the first page. */
  readonly error: TransactionsUnavailable | undefined
}

/** The activity of no account. */
const emptyActivity: ActivityState = { transactions: [], done: true, loading: false, error: undefined }

const firstPage: ActivityState = { transactions: [], done: false, loading: false, error: undefined }

// Each write asks for one more page; the activity atom turns the writes into page requests.
const activityRequestsAtom = Atom.make(0)

/**
 * The activity of the account in front on its network; the first page loads when it is first read. The pages read
 * stay a few seconds after the last reader leaves, so a panel that React renders and mounts in separate tasks (a lazy
 * panel, a concurrent render) keeps them instead of asking for the first page again.
 */
export const activityAtom = Atom.withServerValueInitial(
  walletRuntimeAtom.atom((get) => {
    const caipAddress = get(activeCaipAddressAtom)
    if (caipAddress === undefined) return Stream.make(emptyActivity)
    const address = accountPartOf(caipAddress)
    const chainId = caipNetworkIdOfAddress(caipAddress)
    return Stream.unwrap(
      Effect.map(Portfolio, (api) =>
        Stream.suspend(() => {
          let state = firstPage
          let cursor: string | undefined
          const nextPage = () =>
            api.transactions(address, { cursor, chainId }).pipe(
            Effect.map((page): ActivityState => {
              cursor = page.next ?? undefined
              return { transactions: [...state.transactions, ...page.data], done: cursor === undefined, loading: false, error: undefined }
            }),
            Effect.catch((error) =>
              Effect.sync((): ActivityState => {
                cursor = undefined
                return { transactions: [], done: false, loading: false, error }
              })
            ),
            Effect.tap((next) => Effect.sync(() => (state = next)))
          )
          // The request stream's first element is its current value: the first page loads at once.
          return get.stream(activityRequestsAtom).pipe(
            Stream.flatMap(() =>
              state.done
                ? Stream.empty
                : Stream.concat(
                    Stream.make((state = { ...state, loading: true, error: undefined })),
                    Stream.fromEffect(nextPage())
                  )
            )
          )
        })
      )
    )
  })
).pipe(Atom.setIdleTTL("5 seconds"))

/** Asks for the next page of activity (ignored while a page is loading or when every page is in). */
export const loadMoreActivityAtom = Atom.writable(
  (get) => get(activityRequestsAtom),
  (ctx, _: void) => {
    const current = AsyncResult.getOrElse(ctx.get(activityAtom), () => emptyActivity)
    if (current.loading || current.done) return
    ctx.set(activityRequestsAtom, ctx.get(activityRequestsAtom) + 1)
  }
)
