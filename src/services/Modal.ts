/**
 * Modal: whether the modal is open, which view it shows and the history behind it (spec point 2), loading and
 * shake (0.5 s), the transaction stack, and the unsafe requests waiting on the visitor — every one of them is
 * rejected when the modal closes. When sign-in is required the modal cannot be closed without a session.
 */
import { Context, Deferred, Effect, Layer, SubscriptionRef } from "effect"
import type { ChainNamespace } from "../domain/Caip"
import { MODAL_SHAKE_MS, NOT_ALLOWED_MESSAGE_DELAY_MS } from "../domain/constants"
import { RequestRejectedByModal, RpcMethodNotAllowed } from "../domain/errors"
import { backClosesModal, type ModalView, openingView } from "../domain/rules"
import type { WalletCatalogEntry } from "../domain/Wallet"
import { ChainAdapters } from "./ChainAdapter"
import { Connection } from "./Connection"
import { Notifications } from "./Notifications"
import { Platform } from "./Platform"

/** What a view needs to know besides its name (the wallet being connected, the network to switch to…). */
export interface RouteData {
  readonly wallet?: WalletCatalogEntry | undefined
  readonly connectorId?: string | undefined
  readonly namespace?: ChainNamespace | undefined
  readonly networkId?: string | undefined
}

/** One entry of the router history. */
export interface Route {
  readonly view: ModalView
  readonly data: RouteData
}

/** A step of a transaction flow (approve, then swap…): where it goes and what to do when it ends. */
export interface TransactionStep {
  readonly view: ModalView
  readonly data?: RouteData | undefined
  /** Replace the current view instead of pushing it. */
  readonly replace?: boolean | undefined
}

/** What the modal shows. */
export interface ModalState {
  readonly open: boolean
  readonly loading: boolean
  readonly shake: boolean
  /** The history; the last entry is the current view. Never empty. */
  readonly history: ReadonlyArray<Route>
  readonly transactionStack: ReadonlyArray<TransactionStep>
  /** Sign-in is required and there is no session yet: closing shakes instead. */
  readonly signInRequired: boolean
}

/** How a transaction step ended. */
export type StepOutcome = "success" | "error" | "cancel"

/** The current route of a state. */
export const currentRoute = (state: ModalState): Route =>
  state.history[state.history.length - 1] ?? { view: "Connect", data: {} }

const closedState: ModalState = {
  open: false,
  loading: false,
  shake: false,
  history: [{ view: "Connect", data: {} }],
  transactionStack: [],
  signInRequired: false
}

/** The modal and its router. */
export class Modal extends Context.Service<
  Modal,
  {
    readonly state: SubscriptionRef.SubscriptionRef<ModalState>
    /** Opens on the view the rules choose (a requested view, Account when connected, else Connect). */
    readonly open: (request?: { readonly view?: ModalView; readonly data?: RouteData }) => Effect.Effect<void>
    /** Closes and rejects every open unsafe request; shakes instead when sign-in is required. */
    readonly close: Effect.Effect<void>
    /** Goes to a view, keeping history. */
    readonly push: (view: ModalView, data?: RouteData) => Effect.Effect<void>
    /** Replaces the current view. */
    readonly replace: (view: ModalView, data?: RouteData) => Effect.Effect<void>
    /** Starts the history again from a view. */
    readonly reset: (view: ModalView, data?: RouteData) => Effect.Effect<void>
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
      const state = yield* SubscriptionRef.make<ModalState>(closedState)
      const scope = yield* Effect.scope
      const pending = new Map<number, Deferred.Deferred<never, RequestRejectedByModal>>()
      let nextRequestId = 1

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

      const open = Effect.fn("Modal.open")(function* (request?: { readonly view?: ModalView; readonly data?: RouteData }) {
        const view = openingView({
          adapterCount: adapters.namespaces.length,
          address: yield* connectedAddress,
          requestedView: request?.view,
          isMobile: platform.isMobile
        })
        yield* SubscriptionRef.update(state, (s) => ({
          ...s,
          open: true,
          history: [{ view, data: request?.data ?? {} }],
          transactionStack: []
        }))
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
        yield* SubscriptionRef.update(state, (s) => ({ ...closedState, signInRequired: s.signInRequired }))
        yield* rejectOpenRequests
      }).pipe(Effect.withSpan("Modal.close"))

      const push = Effect.fn("Modal.push")(function* (view: ModalView, data: RouteData = {}) {
        yield* SubscriptionRef.update(state, (s) => ({ ...s, history: [...s.history, { view, data }] }))
      })

      const replace = Effect.fn("Modal.replace")(function* (view: ModalView, data: RouteData = {}) {
        yield* SubscriptionRef.update(state, (s) => ({ ...s, history: [...s.history.slice(0, -1), { view, data }] }))
      })

      const reset = Effect.fn("Modal.reset")(function* (view: ModalView, data: RouteData = {}) {
        yield* SubscriptionRef.update(state, (s) => ({ ...s, history: [{ view, data }] }))
      })

      const goBack = Effect.gen(function* () {
        const current = yield* SubscriptionRef.get(state)
        if (backClosesModal(current.history.map((route) => route.view))) return yield* close
        yield* SubscriptionRef.update(state, (s) => ({ ...s, history: s.history.slice(0, -1) }))
      }).pipe(Effect.withSpan("Modal.goBack"))

      const pushTransactionStep = Effect.fn("Modal.pushTransactionStep")(function* (step: TransactionStep) {
        yield* SubscriptionRef.update(state, (s) => ({ ...s, transactionStack: [...s.transactionStack, step] }))
        yield* step.replace === true ? replace(step.view, step.data) : push(step.view, step.data)
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
