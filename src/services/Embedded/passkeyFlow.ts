/**
 * The modal's side of a passkey login, fetched with the embedded wallet's flows. WebAuthn runs on the frame's origin
 * (the passkeys belong to its relying party), in a popup rather than the hidden frame: a cross-origin frame gets no
 * user activation from the host page's click (Chromium refuses `create()` there without one) and no focus (Chromium
 * refuses both ceremonies in an unfocused document), while a popup opened in the click is a focused top-level page.
 * The frame starts the ceremony for its device (GET_PASSKEY_URI); the popup's passkey page answers it and says how it
 * ended; the frame then opens the session (CONNECT_PASSKEY) and the wallet connects. Every wait is bounded.
 */
import { Effect, Exit, Fiber, Option, Schedule, type Scope, SubscriptionRef } from "effect"
import type { ThemeMode } from "../../domain/Account"
import { decodePasskeyPageMessage, type PasskeyFailure, passkeyFailureWords, type PasskeyMode } from "../../domain/passkey"
import type { FrameBridgeService } from "./authState"
import type { EmbeddedState } from "./embeddedState"
import type { SocialPopup, SocialWindowService } from "./SocialWindow"

/**
 * How long the passkey window may stay open: the browser's prompt lasts 120 s (the wallet server's WebAuthn
 * `timeout`), plus the page's own loading and the server's check.
 */
export const PASSKEY_WAIT_MS = 150_000
const POPUP_CHECK_MS = 500

/** What the passkey flow needs of the embedded wallet's flows. */
export interface PasskeyFlowDeps {
  readonly state: SubscriptionRef.SubscriptionRef<EmbeddedState>
  readonly frame: Effect.Effect<FrameBridgeService, { readonly _tag: string; readonly message: string }>
  /** The words of a frame step's failure (and its alert, for a step that timed out). */
  readonly words: (error: { readonly _tag: string; readonly message: string }) => Effect.Effect<string>
  /** Connects the embedded wallet once the frame holds the session; forgets the login when it cannot. */
  readonly connect: Effect.Effect<void, { readonly message: string }>
  /** Once connected: Recover on a device without the wallet's share, else the modal closes. */
  readonly complete: Effect.Effect<void>
  readonly page: SocialWindowService
  readonly frameOrigin: string
  readonly scope: Scope.Scope
  /** The host's theme now: the passkey window is shown in it. */
  readonly themeMode: Effect.Effect<ThemeMode | undefined>
}

type PopupOutcome = { readonly _tag: "Verified" } | PasskeyFailure
const OUTCOMES: Record<"verified" | "cancelled" | "unsupported", PopupOutcome> = {
  verified: { _tag: "Verified" },
  cancelled: { _tag: "Cancelled" },
  unsupported: { _tag: "Unsupported" }
}

/** The passkey login over the embedded wallet's frame and the page's popup. */
export const makePasskeyFlow = (deps: PasskeyFlowDeps) => {
  const { state, page } = deps
  const update = (f: (s: EmbeddedState) => EmbeddedState) => SubscriptionRef.update(state, f)
  const failed = (message: string | undefined) => update((s) => ({ ...s, passkey: { _tag: "Idle" }, passkeyError: message }))
  let popupOpen: SocialPopup | undefined
  let wait: Fiber.Fiber<void> | undefined

  // The passkey page's message, from the popup we opened and the frame's exact origin only: any other is ignored.
  const messageFrom = (popup: SocialPopup) =>
    Effect.callback<PopupOutcome>((resume) => {
      const stop = page.listen((message) => {
        if (message.source !== popup.window || message.origin !== deps.frameOrigin) return
        const decoded = decodePasskeyPageMessage(message.data)
        if (decoded === undefined) return
        stop()
        resume(Effect.succeed(decoded.outcome === "failed" ? { _tag: "Failed", message: decoded.message } : OUTCOMES[decoded.outcome]))
      })
      return Effect.sync(stop)
    })

  const closed = (popup: SocialPopup) =>
    Effect.sync(() => popup.isClosed()).pipe(
      Effect.repeat({ until: (isClosed) => isClosed, schedule: Schedule.spaced(POPUP_CHECK_MS) }),
      Effect.as<PopupOutcome>({ _tag: "WindowClosed" })
    )

  /** The frame opens the session of the ceremony the popup answered; the wallet connects and the login completes. */
  const finish = (mode: PasskeyMode) =>
    Effect.gen(function* () {
      yield* update((s) => ({ ...s, passkey: { _tag: "Connecting", mode }, passkeyError: undefined }))
      const session = yield* Effect.exit(Effect.flatMap(deps.frame, (bridge) => bridge.request("CONNECT_PASSKEY")))
      if (Exit.isFailure(session)) {
        const error = Option.getOrUndefined(Exit.findErrorOption(session))
        return yield* failed(error === undefined ? undefined : yield* deps.words(error))
      }
      const connected = yield* Effect.exit(deps.connect)
      if (Exit.isFailure(connected)) return yield* failed(Option.getOrUndefined(Exit.findErrorOption(connected))?.message)
      yield* update((s) => ({ ...s, passkey: { _tag: "Idle" }, passkeyError: undefined }))
      yield* deps.complete
    })

  const waitPopup = (mode: PasskeyMode, popup: SocialPopup) =>
    Effect.gen(function* () {
      const outcome = yield* Effect.raceFirst(messageFrom(popup), closed(popup)).pipe(
        Effect.timeoutOrElse({ duration: PASSKEY_WAIT_MS, orElse: () => Effect.succeed<PopupOutcome>({ _tag: "TimedOut" }) })
      )
      popupOpen = undefined
      popup.close()
      if (outcome._tag === "Verified") return yield* finish(mode)
      return yield* failed(passkeyFailureWords(outcome))
    })

  /** A passkey button's click, with the popup it opened (`undefined`: blocked). */
  const passkeyLogin = Effect.fn("EmbeddedWallet.passkeyLogin")(function* (mode: PasskeyMode, popup: SocialPopup | undefined) {
    if ((yield* SubscriptionRef.get(state)).passkey._tag !== "Idle") {
      popup?.close()
      return
    }
    if (popup === undefined) return yield* failed(passkeyFailureWords({ _tag: "Blocked" }))
    yield* update((s) => ({ ...s, passkey: { _tag: "Waiting", mode }, passkeyError: undefined }))
    // Kept from the start: a Cancel while the frame still answers closes it too.
    popupOpen = popup
    const themeMode = yield* deps.themeMode
    const asked = yield* Effect.exit(
      Effect.flatMap(deps.frame, (bridge) => bridge.request("GET_PASSKEY_URI", themeMode === undefined ? { mode } : { mode, themeMode }))
    )
    if (Exit.isFailure(asked)) {
      popup.close()
      popupOpen = undefined
      const error = Option.getOrUndefined(Exit.findErrorOption(asked))
      return yield* failed(error === undefined ? undefined : yield* deps.words(error))
    }
    // Cancelled while the frame answered: nothing more (cancelPasskey closed the popup).
    if ((yield* SubscriptionRef.get(state)).passkey._tag !== "Waiting") return popup.close()
    popup.navigate(asked.value.uri)
    wait = yield* Effect.forkIn(waitPopup(mode, popup), deps.scope)
  })

  const cancelPasskey = Effect.gen(function* () {
    const fiber = wait
    wait = undefined
    popupOpen?.close()
    popupOpen = undefined
    if (fiber !== undefined) yield* Fiber.interrupt(fiber)
    yield* update((s) => ({ ...s, passkey: s.passkey._tag === "Waiting" ? { _tag: "Idle" } : s.passkey }))
  }).pipe(Effect.withSpan("EmbeddedWallet.cancelPasskey"))

  return { passkeyLogin, cancelPasskey }
}
