/**
 * The modal's side of the frame's secure views (protect the wallet, recover it on a new device, export its key),
 * fetched with the first one. The SecureFrame view holds the room in the modal; the frame, never moved in the page
 * (that would reload it), is shown exactly over it and given focus (FramePort.reveal), and asked to show its view
 * (OPEN_SECURE_VIEW). What the visitor types and the key stay in the frame: the modal learns only how the view ended.
 * Leaving the view (Back, Escape, Close) hides the frame and tells it to drop the view (CLOSE_SECURE_VIEW).
 */
import { Effect, Exit, Fiber, Option, type Scope, Semaphore, Stream, SubscriptionRef } from "effect"
import type { EmbeddedWalletUser, ThemeMode } from "../../domain/Account"
import type { SecureViewKind } from "../../domain/Frame"
import { newDeviceWords } from "../../domain/newDevice"
import type { FramePlace } from "../FrameBridge/FrameBridge"
import type { SignInBlocked } from "../Siwx/SiwxLive"
import { currentRoute, type Modal } from "../Modal"
import type { FrameBridgeService } from "./authState"
import type { EmbeddedState } from "./embeddedState"

/** What the secure views need of the embedded wallet's flows. */
export interface SecureViewFlowDeps {
  readonly state: SubscriptionRef.SubscriptionRef<EmbeddedState>
  readonly frame: Effect.Effect<FrameBridgeService, { readonly _tag: string; readonly message: string }>
  /** The words of a frame step's failure. */
  readonly words: (error: { readonly _tag: string; readonly message: string }) => Effect.Effect<string>
  readonly modal: Modal["Service"]
  readonly scope: Scope.Scope
  /** The host's theme now: the frame's view is shown in it. */
  readonly themeMode: Effect.Effect<ThemeMode | undefined>
}

/** The secure views over the embedded wallet's frame. */
export const makeSecureViewFlow = (deps: SecureViewFlowDeps) => {
  const { state, modal } = deps
  const setError = (secureViewError: string | undefined) => SubscriptionRef.update(state, (s) => ({ ...s, secureViewError }))
  let shown: Fiber.Fiber<void> | undefined
  // Recover opened by a login on a new device: once recovered, the connection completes as any other (the modal closes).
  let closeWhenRecovered = false
  // Showing and hiding take turns, in the order asked, each in the service's scope (not the caller's, which a view
  // leaving may end): a view mounted again at once (React's StrictMode) has its frame view dropped (CLOSE answered)
  // before the next is asked for, so a late CLOSE never ends the new one.
  const turns = Semaphore.makeUnsafe(1)
  const inTurn = (effect: Effect.Effect<void>) => Effect.asVoid(Effect.forkIn(turns.withPermit(effect), deps.scope))

  /** Opens the SecureFrame view of `kind` (over the view in front, or the modal opened on it). */
  const openSecureView = Effect.fn("EmbeddedWallet.openSecureView")(function* (kind: SecureViewKind, afterLogin = false) {
    yield* setError(undefined)
    closeWhenRecovered = afterLogin
    const now = yield* SubscriptionRef.get(modal.state)
    if (!now.open) return yield* modal.open({ view: "SecureFrame", kind })
    const route = currentRoute(now)
    if (route.view === "SecureFrame" && route.kind === kind) return
    yield* modal.push({ view: "SecureFrame", kind })
  })

  // The frame over `place` while its view lasts; then the view gives way to the one before it.
  const run = (kind: SecureViewKind, place: FramePlace) =>
    Effect.gen(function* () {
      const themeMode = yield* deps.themeMode
      const ended = yield* Effect.exit(
        Effect.scoped(
          Effect.gen(function* () {
            const bridge = yield* deps.frame
            yield* bridge.reveal(place)
            return yield* bridge.request("OPEN_SECURE_VIEW", themeMode === undefined ? { kind } : { kind, themeMode })
          })
        )
      )
      shown = undefined
      if (Exit.isFailure(ended)) {
        const error = Option.getOrUndefined(Exit.findErrorOption(ended))
        return yield* setError(error === undefined ? "The wallet could not show this page: try again." : yield* deps.words(error))
      }
      if (ended.value.outcome === "done" && kind === "protect") {
        yield* SubscriptionRef.update(state, (s) => ({ ...s, recovery: "password" as const }))
      }
      const recovered = ended.value.outcome === "done" && kind === "recover"
      if (recovered) yield* SubscriptionRef.update(state, (s) => ({ ...s, needsRecovery: false }))
      const closing = recovered && closeWhenRecovered
      const now = yield* SubscriptionRef.get(modal.state)
      if (now.open && currentRoute(now).view === "SecureFrame") yield* closing ? modal.close : modal.goBack
    })

  // Hides the frame and has it drop its view and what it showed (answered before anything else is asked of it).
  const hide = Effect.gen(function* () {
    const fiber = shown
    shown = undefined
    if (fiber === undefined) return
    yield* Fiber.interrupt(fiber)
    yield* Effect.ignore(Effect.flatMap(deps.frame, (bridge) => bridge.request("CLOSE_SECURE_VIEW")))
  })

  /** The SecureFrame view is on screen: the frame is shown over `place` and asked for the view of the route. */
  const showSecureView = (place: FramePlace) =>
    inTurn(
      Effect.gen(function* () {
        yield* hide
        const route = currentRoute(yield* SubscriptionRef.get(modal.state))
        if (route.view !== "SecureFrame") return
        shown = yield* Effect.forkIn(run(route.kind, place), deps.scope)
      })
    ).pipe(Effect.withSpan("EmbeddedWallet.showSecureView"))

  /** The SecureFrame view is gone: the frame is hidden and drops its view and what it showed. */
  const hideSecureView: Effect.Effect<void> = inTurn(hide).pipe(Effect.withSpan("EmbeddedWallet.hideSecureView"))

  /**
   * What protects the wallet's recovery share, and whether this device lacks its share, as the frame tells (the
   * Account view offers to protect or recover it).
   */
  const refreshRecovery = Effect.gen(function* () {
    const user = yield* Effect.option(Effect.flatMap(deps.frame, (bridge) => bridge.request("GET_USER", {})))
    if (Option.isSome(user)) {
      yield* SubscriptionRef.update(state, (s) => ({ ...s, recovery: user.value.recovery, needsRecovery: user.value.needsRecovery === true }))
    }
  }).pipe(Effect.withSpan("EmbeddedWallet.refreshRecovery"))

  /**
   * A login on a device without the share of the wallet's key: Recover opens over the Account view (cancelled, the
   * visitor stays connected there, where Account offers it again); recovered, the modal closes as after any login.
   */
  const recoverAfterLogin = Effect.gen(function* () {
    yield* modal.reset({ view: "Account" })
    yield* openSecureView("recover", true)
  }).pipe(Effect.withSpan("EmbeddedWallet.recoverAfterLogin"))

  /**
   * Recover before sign-in, on a device without the share of the wallet's key: the view opens over the one in front,
   * or over the sign view when the modal was closed (leaving Recover goes back to it: where sign-in is required the
   * modal cannot close); once the visitor leaves it, gives whether the wallet was recovered. What shows next is
   * sign-in's to say.
   */
  const recoverFirst = Effect.gen(function* () {
    if (!(yield* SubscriptionRef.get(modal.state)).open) yield* modal.open({ view: "SIWXSignMessage" })
    yield* openSecureView("recover")
    yield* SubscriptionRef.changes(modal.state).pipe(
      Stream.filter((now) => {
        const route = now.open ? currentRoute(now) : undefined
        return route?.view !== "SecureFrame" || route.kind !== "recover"
      }),
      Stream.runHead
    )
    return (yield* SubscriptionRef.get(state)).needsRecovery === false
  }).pipe(Effect.withSpan("EmbeddedWallet.recoverFirst"))

  /**
   * Before sign-in on a device without the share of the wallet's key (`recovery`: what protects it): Recover first;
   * gives `undefined` once recovered, otherwise why this device cannot sign, in words — a key only the first device's
   * kept secret protects cannot be recovered here at all (final: the words say to protect it on that device, then to
   * choose the sign view's Check again).
   */
  const recoverBeforeSignIn = (recovery: EmbeddedWalletUser["recovery"]): Effect.Effect<SignInBlocked | undefined> =>
    recovery === "device"
      ? Effect.succeed({ reason: newDeviceWords(recovery, "checkAgain"), final: true })
      : Effect.map(recoverFirst, (recovered) => (recovered ? undefined : { reason: newDeviceWords(recovery), final: false }))

  return { openSecureView, showSecureView, hideSecureView, refreshRecovery, recoverAfterLogin, recoverBeforeSignIn }
}

/** The secure views' operations. */
export type SecureViewFlow = ReturnType<typeof makeSecureViewFlow>
