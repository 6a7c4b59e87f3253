/**
 * Modal: whether the modal is open, which view it shows and the history behind it (spec point 2), loading and
 * shake (0.5 s), the transaction stack, and the unsafe requests waiting on the visitor — every one of them is
 * rejected when the modal closes. When sign-in is required the modal cannot be closed without a session.
 */
import { Context, Deferred, Effect, Layer, SubscriptionRef } from "effect"
import { MODAL_SHAKE_MS, NOT_ALLOWED_MESSAGE_DELAY_MS } from "../domain/constants"
import { RequestRejectedByModal, RpcMethodNotAllowed } from "../domain/errors"
import { backClosesModal, type ModalView, openingView } from "../domain/rules"
import type { SecureViewKind } from "../domain/Frame"
import type { WalletCatalogEntry } from "../domain/Wallet"
import { ChainAdapters } from "./ChainAdapter"
import { Connection } from "./Connection"
import { Analytics } from "./Analytics"
import { Notifications } from "./Notifications"
import { Platform } from "./Platform"

/**
 * A route of the modal: one case per view, each with the data that view needs (the wallet being connected…). Views
 * without data are `{ view }`.
 */
export type Route =
  | {
      readonly view: "Connect"
      /** The wallets a host folds beside email, unfolded by the visitor ("Continue with a wallet"; Back folds them). */
      readonly wallets?: "unfolded" | undefined
    }
  | { readonly view: "AllWallets" }
  | { readonly view: "WhatIsAWallet" }
  | {
      readonly view: "ConnectingExternal"
      /** The connector to connect through; absent for a catalogue wallet this page cannot reach (not installed). */
      readonly connectorId?: string | undefined
      /** The catalogue entry the visitor chose, remembered as a recent wallet. */
      readonly wallet?: WalletCatalogEntry | undefined
    }
  | { readonly view: "WalletConnectBasic" }
  | { readonly view: "ConnectingWalletConnect"; readonly wallet: WalletCatalogEntry }
  | { readonly view: "Account" }
  | { readonly view: "Networks" }
  | { readonly view: "UnsupportedChain" }
  | { readonly view: "ConnectingFarcaster" }
  | { readonly view: "SIWXSignMessage" }
  | { readonly view: "ApproveTransaction" }
  // The form's data (what was typed, availability, how registering goes) is the Names service's state.
  | { readonly view: "RegisterAccountName" }
  /** `name`: the full name being registered (absent when a host opens the view itself). */
  | { readonly view: "RegisterAccountNameSuccess"; readonly name?: string | undefined }
  // The send form's data (what, how much, to whom, how it went) is the Send service's state: the three steps read it.
  | { readonly view: "Send" }
  | { readonly view: "SendReview" }
  | { readonly view: "SendResult" }
  | { readonly view: "Receive" }
  // The swap form's data (tokens, amount, quote, how approving and swapping go) is the Swap service's state.
  | { readonly view: "Swap" }
  // The Buy form's data (asset, amount, quote, the purchase awaited) is the Onramp service's state.
  | { readonly view: "Buy" }
  // The email login's and email change's data (the address, the step, the countdown) is the EmbeddedWallet's state.
  | { readonly view: "EmailVerifyOtp" }
  | { readonly view: "EmailVerifyDevice" }
  | { readonly view: "UpdateEmail" }
  | { readonly view: "UpdateEmailPrimaryOtp" }
  | { readonly view: "UpdateEmailSecondaryOtp" }
  // The embedded wallet's frame shows its own view of `kind` over this one (protect, recover, export).
  | { readonly view: "SecureFrame"; readonly kind: SecureViewKind }

/** The route of one view. */
export type RouteOf<V extends ModalView> = Extract<Route, { readonly view: V }>

/** One entry of the router history: its route, and a key no other entry had (a view opened twice is two entries). */
export interface HistoryEntry {
  readonly route: Route
  readonly key: number
}

/** A step of a transaction flow (approve, then swap…): where it goes and what to do when it ends. */
export interface TransactionStep {
  readonly route: Route
  /** Replace the current view instead of pushing it. */
  readonly replace?: boolean | undefined
}

/** What the modal shows. */
export interface ModalState {
  readonly open: boolean
  readonly loading: boolean
  readonly shake: boolean
  /**
   * The history; the last entry is the current view. Never empty. While closed, its one entry is what the next
   * open shows when it opens on Connect, with the key it will have (so a view laid out ahead, hidden, is kept).
   */
  readonly history: ReadonlyArray<HistoryEntry>
  readonly transactionStack: ReadonlyArray<TransactionStep>
  /** Sign-in is required and there is no session yet: closing shakes instead. */
  readonly signInRequired: boolean
}

/** How a transaction step ended. */
export type StepOutcome = "success" | "error" | "cancel"

const CONNECT: HistoryEntry = { route: { view: "Connect" }, key: 0 }

/** The current entry of a state. */
export const currentEntry = (state: ModalState): HistoryEntry => state.history[state.history.length - 1] ?? CONNECT

/** The current route of a state. */
export const currentRoute = (state: ModalState): Route => currentEntry(state).route

const closedState: ModalState = {
  open: false,
  loading: false,
  shake: false,
  history: [CONNECT],
  transactionStack: [],
  signInRequired: false
}

/** The modal and its router. */
export class Modal extends Context.Service<
  Modal,
  {
    readonly state: SubscriptionRef.SubscriptionRef<ModalState>
    /** Opens on the view the rules choose (a requested route, Account when connected, else Connect). */
    readonly open: (route?: Route) => Effect.Effect<void>
    /** Closes and rejects every open unsafe request; shakes instead when sign-in is required. */
    readonly close: Effect.Effect<void>
    /** Goes to a view, keeping history. */
    readonly push: (route: Route) => Effect.Effect<void>
    /** Replaces the current view. */
    readonly replace: (route: Route) => Effect.Effect<void>
    /** Starts the history again from a view. */
    readonly reset: (route: Route) => Effect.Effect<void>
    /** Goes back; closes when history holds a single entry or contains UnsupportedChain. */
    readonly goBack: Effect.Effect<void>
    readonly setLoading: (loading: boolean) => Effect.Effect<void>
    /** Shakes the modal for 0.5 s (a refused close, a wrong code…). */
    readonly shake: Effect.Effect<void>
    /** Whether closing needs a sign-in session first. */
    readonly setSignInRequired: (required: boolean) => Effect.Effect<void>
    /** Enters a transaction step. */
    readonly pushTransactionStep: (step: TransactionStep) => Effect.Effect<void>
    /** Leaves the last transaction step: on error or cancel the router goes back. */
    readonly popTransactionStep: (outcome: StepOutcome) => Effect.Effect<void>
    /** An unsafe request finished: pop its transaction step if there is one, else close the modal. */
    readonly finishUnsafeRequest: (outcome: StepOutcome) => Effect.Effect<void>
    /**
     * Runs an unsafe request (signing, sending) that waits on the visitor; it fails with 'Action not allowed'
     * if the modal closes first.
     */
    readonly trackRequest: <A, E, R>(request: Effect.Effect<A, E, R>) => Effect.Effect<A, E | RequestRejectedByModal, R>
    /**
     * A method nobody may call: opens the modal, after 300 ms shows 'Requested RPC call is not allowed' and
     * rejects the open requests; fails with that error.
     */
    readonly rejectDisallowed: (method: string) => Effect.Effect<never, RpcMethodNotAllowed>
  }
>()("wallet-runtime/Modal") {
  /** The live modal. */
  static readonly layer = Layer.effect(Modal)(
    Effect.gen(function* () {
      const connection = yield* Connection
      const adapters = yield* ChainAdapters
      const platform = yield* Platform
      const notifications = yield* Notifications
      const analytics = yield* Analytics
      const state = yield* SubscriptionRef.make<ModalState>(closedState)
      const scope = yield* Effect.scope
      const pending = new Map<number, Deferred.Deferred<never, RequestRejectedByModal>>()
      let nextRequestId = 1
      let nextKey = 1
      const entry = (route: Route): HistoryEntry => ({ route, key: nextKey++ })

      const rejectOpenRequests = Effect.suspend(() => {
        const waiting = [...pending.values()]
        pending.clear()
        return Effect.forEach(waiting, (deferred) => Deferred.fail(deferred, new RequestRejectedByModal()), {
          discard: true
        })
      })

      const connectedAddress = Effect.gen(function* () {
        const current = yield* SubscriptionRef.get(connection.state)
        const namespace = current.activeNamespace
        const account = namespace === undefined ? undefined : current.namespaces[namespace]?.account
        return account?.status === "connected" ? account.address : undefined
      })

      const open = Effect.fn("Modal.open")(function* (route?: Route) {
        const view = openingView({
          adapterCount: adapters.namespaces.length,
          address: yield* connectedAddress,
          requestedView: route?.view,
          isMobile: platform.isMobile
        })
        const opened: Route = route !== undefined && route.view === view ? route : ({ view } as Route)
        if (!(yield* SubscriptionRef.get(state)).open) yield* analytics.record("MODAL_OPEN", { connected: (yield* connectedAddress) !== undefined, view })
        yield* SubscriptionRef.update(state, (s) => {
          const waiting = s.open ? undefined : s.history[0]
          const reuse = waiting !== undefined && Object.keys(opened).length === 1 && waiting.route.view === opened.view
          return { ...s, open: true, history: [reuse ? waiting : entry(opened)], transactionStack: [] }
        })
      })

      const shake = Effect.gen(function* () {
        yield* SubscriptionRef.update(state, (s) => ({ ...s, shake: true }))
        yield* Effect.sleep(MODAL_SHAKE_MS)
        yield* SubscriptionRef.update(state, (s) => ({ ...s, shake: false }))
      }).pipe(Effect.withSpan("Modal.shake"))

      const close = Effect.gen(function* () {
        const current = yield* SubscriptionRef.get(state)
        if (!current.open) return
        if (current.signInRequired) {
          yield* Effect.forkIn(shake, scope)
          return
        }
        yield* SubscriptionRef.update(state, (s) => ({ ...closedState, history: [entry(CONNECT.route)], signInRequired: s.signInRequired }))
        yield* analytics.record("MODAL_CLOSE", { connected: (yield* connectedAddress) !== undefined })
        yield* rejectOpenRequests
      }).pipe(Effect.withSpan("Modal.close"))

      const push = Effect.fn("Modal.push")(function* (route: Route) {
        yield* SubscriptionRef.update(state, (s) => ({ ...s, history: [...s.history, entry(route)] }))
      })

      const replace = Effect.fn("Modal.replace")(function* (route: Route) {
        yield* SubscriptionRef.update(state, (s) => ({ ...s, history: [...s.history.slice(0, -1), entry(route)] }))
      })

      const reset = Effect.fn("Modal.reset")(function* (route: Route) {
        yield* SubscriptionRef.update(state, (s) => ({ ...s, history: [entry(route)] }))
      })

      const goBack = Effect.gen(function* () {
        const current = yield* SubscriptionRef.get(state)
        if (backClosesModal(current.history.map((item) => item.route.view))) return yield* close
        yield* SubscriptionRef.update(state, (s) => ({ ...s, history: s.history.slice(0, -1) }))
      }).pipe(Effect.withSpan("Modal.goBack"))

      const pushTransactionStep = Effect.fn("Modal.pushTransactionStep")(function* (step: TransactionStep) {
        yield* SubscriptionRef.update(state, (s) => ({ ...s, transactionStack: [...s.transactionStack, step] }))
        yield* step.replace === true ? replace(step.route) : push(step.route)
      })

      const popTransactionStep = Effect.fn("Modal.popTransactionStep")(function* (outcome: StepOutcome) {
        const current = yield* SubscriptionRef.get(state)
        if (current.transactionStack.length === 0) return
        yield* SubscriptionRef.update(state, (s) => ({ ...s, transactionStack: s.transactionStack.slice(0, -1) }))
        if (outcome !== "success") yield* goBack
      })

      const finishUnsafeRequest = Effect.fn("Modal.finishUnsafeRequest")(function* (outcome: StepOutcome) {
        const current = yield* SubscriptionRef.get(state)
        if (current.transactionStack.length > 0) yield* popTransactionStep(outcome)
        else yield* close
      })

      const trackRequest = <A, E, R>(request: Effect.Effect<A, E, R>) =>
        Effect.gen(function* () {
          const rejected = yield* Deferred.make<never, RequestRejectedByModal>()
          const id = nextRequestId++
          pending.set(id, rejected)
          return yield* Effect.raceFirst(request, Deferred.await(rejected)).pipe(
            Effect.ensuring(Effect.sync(() => pending.delete(id)))
          )
        })

      const rejectDisallowed = Effect.fn("Modal.rejectDisallowed")(function* (method: string) {
        const current = yield* SubscriptionRef.get(state)
        if (!current.open) yield* open()
        yield* Effect.sleep(NOT_ALLOWED_MESSAGE_DELAY_MS)
        const error = new RpcMethodNotAllowed({ method })
        yield* notifications.showSnackbar("error", error.message)
        yield* rejectOpenRequests
        return yield* error
      })

      return {
        state,
        open,
        close,
        push,
        replace,
        reset,
        goBack,
        setLoading: (loading: boolean) => SubscriptionRef.update(state, (s) => ({ ...s, loading })),
        shake,
        setSignInRequired: (required: boolean) =>
          SubscriptionRef.update(state, (s) => ({ ...s, signInRequired: required })),
        pushTransactionStep,
        popTransactionStep,
        finishUnsafeRequest,
        trackRequest,
        rejectDisallowed
      }
    })
  )
}
