/**
 * WalletActions: what a host asks of the connected wallet, in any family — sign a message, send a native or token
 * transfer (or an EVM call), follow a transaction until it is final, read balances, pass a raw wallet request. Each
 * action runs on the family in front (or the one named), through that family's adapter over the session's
 * provider: no action knows a family. Sending shows the visitor what happens (spec 7.7: 'Transaction started';
 * the wallet's own words, or 'Something went wrong' / 'Failed to send transaction. Please try again.' on Solana).
 * Every sent transaction is listed as pending and followed to its end in the background: its result is said
 * ('Transaction confirmed', 'Transaction failed: <reason>'), balances and activity are read again.
 */
import { Clock, Context, Effect, Fiber, Layer, Option, type Scope, SubscriptionRef } from "effect"
import type { CaipAddress, ChainNamespace } from "../domain/Caip"
import { PENDING_TRANSACTIONS_MAX } from "../domain/constants"
import { formatUnits } from "../domain/format"
import type { Transaction } from "../domain/Portfolio"
import { pendingTransaction } from "../domain/portfolioView"
import { type AdapterForNamespaceMissing, CaipNetworkOrAddressUndefined, type NetworkNotFound, UserRejected } from "../domain/errors"
import type { WalletRequestError } from "../domain/walletErrors"
import {
  type AccountSession,
  type BalancesError,
  type ChainAdapter,
  ChainAdapters,
  type ChainBalance,
  type RequestError,
  type SendError,
  type SendRequest,
  type SignError,
  type TransactionConfirmation,
  type WaitError
} from "./ChainAdapter"
import { Analytics } from "./Analytics"
import { Connection } from "./Connection"
import { Networks } from "./Networks"
import { Notifications } from "./Notifications"
import { lazyFront } from "./lazyFront"
import { Portfolio } from "./Portfolio"
import { withinWalletAnswerTime } from "./walletAnswer"

/** No account to act for: nothing connected in that family. */
export type NoAccount = CaipNetworkOrAddressUndefined | AdapterForNamespaceMissing | NetworkNotFound

const SENT = "Transaction started"
const CONFIRMED = "Transaction confirmed"
const SEND_FAILED: Partial<Record<ChainNamespace, string>> = { solana: "Failed to send transaction. Please try again." }
const GENERIC_FAILURE = "Something went wrong"

// Errors whose message is the wallet's (or node's) own sentence: the visitor reads those words.
const WALLET_WORDS: ReadonlyArray<WalletRequestError["_tag"]> = [
  "InsufficientFunds",
  "RequestAlreadyPending",
  "InvalidWalletParams",
  "WalletUnauthorized",
  "WalletMethodUnsupported",
  "WalletDisconnected",
  "TransactionRejected",
  "WalletNoAnswer"
]

/** How a send is told to the visitor, for a caller that shows its progress itself (the Send view). */
export interface SendOptions {
  /** The caller shows 'sent' and a failure in place: no snackbar for them. */
  readonly quiet?: boolean | undefined
  /** Asked when the transaction is final: `true` while the caller still shows its result, so no snackbar says it. */
  readonly resultShown?: Effect.Effect<boolean> | undefined
}

/** A transaction the visitor sent that is not final yet. */
export interface PendingTransaction {
  /** The account it was sent from. */
  readonly caipAddress: CaipAddress
  readonly transaction: Transaction
}

/** The wallet actions of every family. */
export class WalletActions extends Context.Service<
  WalletActions,
  {
    /** Signs a text message with the wallet of the family in front (or of `namespace`). */
    readonly signMessage: (message: string, namespace?: ChainNamespace) => Effect.Effect<string, SignError | NoAccount>
    /** Sends a transfer or call; the transaction hash (EVM) or signature (Solana) once the wallet sent it. */
    readonly send: (request: SendRequest, namespace?: ChainNamespace, options?: SendOptions) => Effect.Effect<string, SendError | NoAccount>
    /** Waits until a transaction sent from the account in front is final (25 s at most), then refreshes balances. */
    readonly waitForTransaction: (
      hash: string,
      namespace?: ChainNamespace
    ) => Effect.Effect<TransactionConfirmation, WaitError | NoAccount>
    /** The native and token balances of the account in front, read from its chain. */
    readonly balances: (namespace?: ChainNamespace) => Effect.Effect<ReadonlyArray<ChainBalance>, BalancesError | NoAccount>
    /** A raw request to the wallet in front, in its family's method names. */
    readonly request: (method: string, params: unknown, namespace?: ChainNamespace) => Effect.Effect<unknown, RequestError | NoAccount>
    /**
     * The visitor's own transactions sent and not final yet, newest first (at most 99), each with the CAIP-10 address
     * it was sent from: the Activity tab shows them at once.
     */
    readonly pending: SubscriptionRef.SubscriptionRef<ReadonlyArray<PendingTransaction>>
  }
>()("wallet-runtime/WalletActions") {
  /**
   * The live actions over the connection, networks and adapters. The pending list exists from the start (the Activity
   * tab reads it); the actions are built on the first one asked, so a page whose visitor never connects builds none.
   */
  static readonly layer = Layer.effect(WalletActions)(
    Effect.gen(function* () {
      const pending = yield* SubscriptionRef.make<ReadonlyArray<PendingTransaction>>([])
      const { front } = yield* lazyFront<WalletActions["Service"], ActionsNeed | Scope.Scope, "pending">(makeActions(pending), {
        signMessage: 1,
        send: 1,
        waitForTransaction: 1,
        balances: 1,
        request: 1
      })
      return { ...front, pending }
    })
  )
}

type ActionsNeed = Connection | Networks | ChainAdapters | Notifications | Portfolio | Analytics

// The actions themselves, keeping the visitor's sent transactions in `pending`.
const makeActions = (pending: SubscriptionRef.SubscriptionRef<ReadonlyArray<PendingTransaction>>) =>
  Effect.gen(function* () {
    const connection = yield* Connection
    const networks = yield* Networks
    const adapters = yield* ChainAdapters
    const notifications = yield* Notifications
    const portfolio = yield* Portfolio
    const analytics = yield* Analytics
    const scope = yield* Effect.scope
    // Each sent transaction is followed once, in the background, whether or not anyone waits for it: its result is
    // said, balances are read again, and it leaves the pending list. Waiting for it joins that follower.
    const followers = new Map<string, Fiber.Fiber<TransactionConfirmation, WaitError>>()

    const sayUnlessShown = (resultShown: Effect.Effect<boolean>, variant: "success" | "error", message: string) =>
      Effect.flatMap(resultShown, (shown) => (shown ? Effect.void : notifications.showSnackbar(variant, message)))

    const follow = (
      adapter: ChainAdapter,
      session: AccountSession,
      hash: string,
      caipAddress: CaipAddress | undefined,
      resultShown: Effect.Effect<boolean> = Effect.succeed(false)
    ) =>
      adapter.waitForTransaction(hash, session.network).pipe(
        Effect.tapError((error) =>
          sayUnlessShown(resultShown, "error", error._tag === "TransactionReverted" ? `Transaction failed: ${error.message}` : error.message)
        ),
        Effect.tap(() => sayUnlessShown(resultShown, "success", CONFIRMED)),
        Effect.ensuring(
          Effect.gen(function* () {
            followers.delete(hash)
            yield* SubscriptionRef.update(pending, (list) => list.filter((entry) => entry.transaction.id !== hash))
            if (caipAddress !== undefined) yield* portfolio.refresh(caipAddress)
          })
        )
      )

    // What was sent, in words, for the pending row: the native amount, or a token the Tokens tab knows.
    const sentAmount = (request: SendRequest, session: AccountSession, caipAddress: CaipAddress | undefined) =>
      Effect.gen(function* () {
        const value = request.value ?? 0n
        if (request.token === undefined) {
          const { symbol, decimals } = session.network.nativeCurrency
          return { numeric: formatUnits(value, decimals), symbol }
        }
        if (caipAddress === undefined) return undefined
        const wanted = request.token.toLowerCase()
        const tokens = yield* portfolio.tokenBalances(caipAddress).pipe(Effect.orElseSucceed(() => []))
        // The service names a token by its CAIP-10 address; the request by the contract or mint alone.
        const token = tokens.find((t) => t.address?.toLowerCase().endsWith(wanted) === true)
        return token === undefined ? undefined : { numeric: formatUnits(value, Number(token.quantity.decimals)), symbol: token.symbol }
      })

    const inFront = (namespace: ChainNamespace | undefined) =>
      Effect.gen(function* () {
        const family = namespace ?? (yield* SubscriptionRef.get(connection.state)).activeNamespace
        if (family === undefined) return yield* new CaipNetworkOrAddressUndefined()
        const live = yield* connection.session(family)
        if (Option.isNone(live)) return yield* new CaipNetworkOrAddressUndefined()
        const adapter: ChainAdapter = yield* adapters.get(family)
        const session: AccountSession = {
          provider: live.value.provider,
          address: live.value.address,
          network: yield* networks.activeNetwork(family),
          walletName: live.value.connector.info.name ?? live.value.connector.info.id
        }
        return { adapter, session, family }
      })

    const signMessage = Effect.fn("WalletActions.signMessage")(function* (message: string, namespace?: ChainNamespace) {
      const { adapter, session } = yield* inFront(namespace)
      return yield* withinWalletAnswerTime(adapter.signMessage(session, message)).pipe(
        Effect.tap(() => analytics.record("SIGN_MESSAGE_SUCCESS", { network: session.network.caipNetworkId })),
        Effect.tapError((error) => analytics.record("SIGN_MESSAGE_ERROR", { network: session.network.caipNetworkId, message: error.message }))
      )
    })

    const send = Effect.fn("WalletActions.send")(function* (request: SendRequest, namespace?: ChainNamespace, options: SendOptions = {}) {
      const { adapter, session, family } = yield* inFront(namespace)
      const asset = "nft" in request && request.nft !== undefined ? "nft" : (request.token ?? "native")
      yield* analytics.record("SEND_INITIATED", { network: session.network.caipNetworkId, token: asset })
      const hash = yield* withinWalletAnswerTime(adapter.send(session, request)).pipe(
        Effect.tapError((error) => analytics.record("SEND_ERROR", { network: session.network.caipNetworkId, message: error.message })),
        Effect.tapError((error) =>
          error instanceof UserRejected || options.quiet === true
            ? Effect.void
            : notifications.showSnackbar(
                "error",
                (WALLET_WORDS as ReadonlyArray<string>).includes(error._tag) ? error.message : (SEND_FAILED[family] ?? GENERIC_FAILURE)
              )
        )
      )
      if (options.quiet !== true) yield* notifications.showSnackbar("success", SENT)
      yield* analytics.record("SEND_SUCCESS", { network: session.network.caipNetworkId, hash })
      const caipAddress = (yield* SubscriptionRef.get(connection.state)).namespaces[family]?.account.caipAddress
      if (caipAddress !== undefined) {
        const transaction = pendingTransaction({
          hash,
          caipNetworkId: session.network.caipNetworkId,
          from: session.address,
          to: request.to,
          sentAt: new Date(yield* Clock.currentTimeMillis).toISOString(),
          amount: yield* sentAmount(request, session, caipAddress)
        })
        yield* SubscriptionRef.update(pending, (list) => [{ caipAddress, transaction }, ...list].slice(0, PENDING_TRANSACTIONS_MAX))
      }
      followers.set(hash, yield* Effect.forkIn(follow(adapter, session, hash, caipAddress, options.resultShown), scope))
      return hash
    })

    const waitForTransaction = Effect.fn("WalletActions.waitForTransaction")(function* (hash: string, namespace?: ChainNamespace) {
      const follower = followers.get(hash)
      if (follower !== undefined) return yield* Fiber.join(follower)
      // A transaction sent some other way (before a reload, by the host itself) is followed here, once.
      const { adapter, session, family } = yield* inFront(namespace)
      const caipAddress = (yield* SubscriptionRef.get(connection.state)).namespaces[family]?.account.caipAddress
      const started = yield* Effect.forkIn(follow(adapter, session, hash, caipAddress), scope)
      followers.set(hash, started)
      return yield* Fiber.join(started)
    })

    const balances = Effect.fn("WalletActions.balances")(function* (namespace?: ChainNamespace) {
      const { adapter, session } = yield* inFront(namespace)
      return yield* adapter.balances(session.address, session.network)
    })

    const request = Effect.fn("WalletActions.request")(function* (method: string, params: unknown, namespace?: ChainNamespace) {
      const { adapter, session } = yield* inFront(namespace)
      return yield* withinWalletAnswerTime(adapter.request(session, method, params))
    })

    return { signMessage, send, waitForTransaction, balances, request, pending }
  })
