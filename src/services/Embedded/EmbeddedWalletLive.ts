/**
 * The embedded wallet's flows, fetched when the visitor chooses email (or an embedded session needs the modal): the
 * email login (email → device verification when the device is new → one-time code → connect through the AUTH
 * connector), the 30 s resend cooldown, the email change (a code to the current address, then one to the new), and
 * the approval of unsafe requests in the ApproveTransaction view. Every step waits on the frame at most 30 s (the
 * bridge's bound) and ends in words the visitor reads.
 */
import { Clock, Deferred, Effect, Exit, Fiber, Option, Result, Schedule, Schema, type Scope, Semaphore, Stream, SubscriptionRef } from "effect"
import type { Account, EmbeddedAccountType, SocialProvider } from "../../domain/Account"
import { Alerts } from "../../domain/alerts"
import { EMAIL_LOGIN_COOLDOWN_MS, RPC_ERROR_CODES } from "../../domain/constants"
import type { ChainNamespace } from "../../domain/Caip"
import { AuthInitFailed, EmailLoginDependencyFailed, EmailRateLimited, FrameError, UserRejected } from "../../domain/errors"
import { validateEmail, validateOtp } from "../../domain/validation"
import { Config } from "../Config"
import { ConnectFlow } from "../ConnectFlow"
import { accountStateOf, Connection } from "../Connection"
import { currentRoute, Modal } from "../Modal"
import { Networks } from "../Networks"
import { Notifications } from "../Notifications"
import { Portfolio } from "../Portfolio"
import { Siwx, type SiwxAccount } from "../Siwx/Siwx"
import * as Keys from "../Storage/keys"
import { Storage } from "../Storage/Storage"
import { Theme } from "../Theme"
import type { ApprovalGate, ApprovalRequest, FrameBridgeService, FrameLoadFailure } from "./authState"
import type { EmbeddedService, EmbeddedState } from "./embeddedState"
import { forgetLogin, noteCodeSent, rememberLogin, rememberSocialLogin } from "./loginCache"
import { withoutResultUri } from "./socialUrls"
import { SocialWindow, type SocialPopup } from "./SocialWindow"
import type { PasskeyMode } from "../../domain/passkey"
import type { SecureViewFlow } from "./secureViewFlow"

/** What the flows need of the AUTH connector. */
export interface EmbeddedAuthHandle {
  readonly connectorId: string
  readonly frame: Effect.Effect<FrameBridgeService, FrameLoadFailure>
  /** Puts the EVM account of `type` in front in the frame; its accounts afterwards, the one in front first. */
  readonly setPreferredAccount: (type: EmbeddedAccountType) => Effect.Effect<ReadonlyArray<Account>, { readonly message: string }>
}

/** The service, and the gate the AUTH connector's providers wait on. */
export interface EmbeddedLive extends EmbeddedService {
  readonly gate: ApprovalGate
  /** A social login whose popup the click already opened (`undefined`: it was blocked). */
  readonly socialLogin: (provider: SocialProvider, popup: SocialPopup | undefined) => Effect.Effect<void>
  /** Finishes a social login that came back in the page's address (`result_uri`), already checked and removed. */
  readonly finishSocial: (uri: string) => Effect.Effect<void>
  /** A passkey login whose popup the click already opened (`undefined`: it was blocked). */
  readonly passkeyLogin: (mode: PasskeyMode, popup: SocialPopup | undefined) => Effect.Effect<void>
}

/** The type of the message the wallet server's callback page posts to the page that opened its popup. */
export const SOCIAL_CALLBACK_MESSAGE = "wallet-runtime/social-callback"
const SocialCallbackMessage = Schema.Struct({ type: Schema.Literal(SOCIAL_CALLBACK_MESSAGE), uri: Schema.String })
/** How long the popup may stay open before the SOCIALS_TIMEOUT alert (spec 9's login-step time-out). */
export const SOCIAL_WAIT_MS = 30_000
const POPUP_CHECK_MS = 500
/** How long a Farcaster link lasts when the frame does not say (the wallet server's channels last 5 minutes). */
const FARCASTER_LINK_MS = 5 * 60_000
// One frame step (the bridge's bound), past the link's life, before the wait gives up on its own.
const FARCASTER_STEP_MS = 30_000
const FARCASTER_ASK_GAP_MS = 1_000
const FARCASTER_EXPIRED = "The sign-in link expired before it was signed: try again for a new one."


const LOGIN_VIEWS = ["EmailVerifyOtp", "EmailVerifyDevice"] as const
const UPDATE_VIEWS = ["UpdateEmail", "UpdateEmailPrimaryOtp", "UpdateEmailSecondaryOtp"] as const
const COOLDOWN_SECONDS = EMAIL_LOGIN_COOLDOWN_MS / 1_000

/** The flows over the runtime's services and the AUTH connector. */
export const makeEmbeddedWallet = (state: SubscriptionRef.SubscriptionRef<EmbeddedState>, auth: EmbeddedAuthHandle) =>
  Effect.gen(function* () {
    const modal = yield* Modal
    const connectFlow = yield* ConnectFlow
    const connection = yield* Connection
    const networks = yield* Networks
    const portfolio = yield* Portfolio
    const storage = yield* Storage
    const notifications = yield* Notifications
    const config = yield* Config
    const page = yield* SocialWindow
    const theme = yield* Theme
    const siwx = yield* Siwx
    const scope: Scope.Scope = yield* Effect.scope
    const update = (f: (s: EmbeddedState) => EmbeddedState) => SubscriptionRef.update(state, f)
    const setError = (error: string | undefined) => update((s) => ({ ...s, error }))

    // One countdown at a time, from the last code mailed; it ticks with the Clock, so tests drive it with TestClock.
    let countdown: Fiber.Fiber<void> | undefined
    const startCooldown = (seconds: number) =>
      Effect.gen(function* () {
        if (countdown !== undefined) yield* Fiber.interrupt(countdown)
        yield* update((s) => ({ ...s, resendInSeconds: seconds }))
        countdown = yield* Effect.forkIn(
          Effect.gen(function* () {
            for (let left = seconds - 1; left >= 0; left--) {
              yield* Effect.sleep(1_000)
              yield* update((s) => ({ ...s, resendInSeconds: left }))
            }
          }),
          scope
        )
      })

    // A code mailed in an earlier visit still holds the cooldown after a reload.
    const cache = yield* storage.get(Keys.embeddedLogin)
    if (cache.lastEmailLoginTime !== null) {
      const left = Math.ceil((cache.lastEmailLoginTime + EMAIL_LOGIN_COOLDOWN_MS - (yield* Clock.currentTimeMillis)) / 1_000)
      if (left > 0 && left <= COOLDOWN_SECONDS) yield* startCooldown(left)
    }

    /**
     * The frame; when it cannot be used (it did not load, or no page to put it in), spec 8's 'A problem occurred while
     * trying initialize authentication': the host gets its alert, an embedded session is disconnected, and an email
     * view gives way to Connect, where the visitor reads the words.
     */
    const frame = auth.frame.pipe(
      Effect.catch((error) =>
        Effect.gen(function* () {
          if (error._tag === "FrameLoadTimedOut") yield* notifications.raiseAlert(Alerts.EMBEDDED_WALLET_LOAD_TIMEOUT)
          const families = (yield* SubscriptionRef.get(connection.state)).namespaces
          const held = Object.entries(families).find(([, family]) => family?.connector?.id === auth.connectorId && family.account.status !== "disconnected")
          if (held !== undefined) yield* Effect.ignore(connection.disconnect(held[0] as ChainNamespace))
          yield* update((s) => ({ ...s, login: { _tag: "Idle" }, update: { _tag: "Idle" } }))
          const now = yield* SubscriptionRef.get(modal.state)
          const views: ReadonlyArray<string> = [...LOGIN_VIEWS, ...UPDATE_VIEWS]
          if (now.open && views.includes(currentRoute(now).view)) yield* modal.reset({ view: "Connect" })
          return yield* new AuthInitFailed()
        })
      )
    )
    type StepError = AuthInitFailed | { readonly _tag: string; readonly message: string }
    // Only the mail's own limit (the frame's `email_rate_limited`, spec 8's 'Please try again after N seconds')
    // restarts the resend countdown, from its seconds: a wallet busy or a network's too many tries, worded alike,
    // refused no mail, so they leave Resend and the email field alone.
    const words = (error: StepError) =>
      Effect.gen(function* () {
        if (error._tag === "FrameStepTimedOut") yield* notifications.raiseAlert(Alerts.AUTH_TIMEOUT)
        if (error instanceof FrameError && error.code === "email_rate_limited") yield* startCooldown(error.retryAfterSeconds ?? COOLDOWN_SECONDS)
        return error.message
      })

    const cooling = Effect.map(SubscriptionRef.get(state), (s) =>
      s.resendInSeconds > 0 ? new EmailRateLimited({ seconds: s.resendInSeconds }).message : undefined
    )

    // ---- Login

    // What protects the wallet's key and whether this device lacks its share, as the frame's user says (kept in state).
    const askRecovery = Effect.gen(function* () {
      const user = Option.getOrUndefined(yield* Effect.option(Effect.flatMap(frame, (bridge) => bridge.request("GET_USER", {}))))
      yield* update((s) => ({ ...s, recovery: user?.recovery, needsRecovery: user?.needsRecovery === true }))
      return user
    })

    /**
     * A login is over and the wallet connected: on a device without the share of the wallet's split key, Recover
     * opens by itself (before the Account view); where only the first device's kept secret protects the key, the
     * Account view says so; otherwise the modal closes as after any wallet, when it still shows one of `views`.
     */
    const completeLogin = (views: ReadonlyArray<string>) =>
      Effect.gen(function* () {
        const user = yield* askRecovery
        const now = yield* SubscriptionRef.get(modal.state)
        if (!now.open || !views.includes(currentRoute(now).view)) return
        if (user?.needsRecovery !== true) return yield* modal.close
        if (user.recovery === "device") return yield* modal.reset({ view: "Account" })
        yield* viaSecureViews((flow) => flow.recoverAfterLogin)
      }).pipe(Effect.withSpan("EmbeddedWallet.completeLogin"))

    let deviceWait: Fiber.Fiber<void> | undefined
    const stopDeviceWait = Effect.suspend(() => {
      const fiber = deviceWait
      deviceWait = undefined
      return fiber === undefined ? Effect.void : Fiber.interrupt(fiber)
    })

    const waitDevice = (email: string) =>
      Effect.gen(function* () {
        yield* update((s) => ({ ...s, login: { _tag: "VerifyDevice", email, waiting: true }, error: undefined }))
        const exit = yield* Effect.exit(Effect.flatMap(frame, (bridge) => bridge.request("CONNECT_DEVICE")))
        if (Exit.isSuccess(exit)) {
          // The device is verified: the server mailed a code.
          yield* startCooldown(COOLDOWN_SECONDS)
          yield* update((s) => ({ ...s, login: { _tag: "VerifyOtp", email, submitting: false }, error: undefined }))
          yield* modal.replace({ view: "EmailVerifyOtp" })
          return
        }
        const error = Option.getOrUndefined(Exit.findErrorOption(exit))
        const message =
          error === undefined
            ? undefined
            : error._tag === "FrameStepTimedOut"
              ? "We are still waiting for the link to be opened. Open it, then wait again."
              : yield* words(error)
        yield* update((s) => ({ ...s, login: { _tag: "VerifyDevice", email, waiting: false }, error: message }))
      })

    const startWaitingForDevice = (email: string) =>
      Effect.gen(function* () {
        yield* stopDeviceWait
        deviceWait = yield* Effect.forkIn(waitDevice(email), scope)
      })

    /** Mails a code (or a device link) to `email`; `views`: push the next view (a first send) or replace it (resend). */
    const sendEmail = (email: string, views: "push" | "replace") =>
      Effect.gen(function* () {
        const exit = yield* Effect.exit(Effect.flatMap(frame, (bridge) => bridge.request("CONNECT_EMAIL", { email })))
        if (Exit.isFailure(exit)) {
          const error = Option.getOrUndefined(Exit.findErrorOption(exit))
          const message = error === undefined ? undefined : yield* words(error)
          yield* update((s) => ({ ...s, login: s.login._tag === "SendingEmail" ? { _tag: "Idle" } : s.login, error: message }))
          return
        }
        yield* noteCodeSent(storage, yield* Clock.currentTimeMillis)
        yield* startCooldown(COOLDOWN_SECONDS)
        const go = (route: { readonly view: "EmailVerifyOtp" | "EmailVerifyDevice" }) =>
          views === "push" ? modal.push(route) : modal.replace(route)
        if (exit.value.action === "VERIFY_DEVICE") {
          yield* go({ view: "EmailVerifyDevice" })
          yield* startWaitingForDevice(email)
        } else {
          yield* stopDeviceWait
          yield* update((s) => ({ ...s, login: { _tag: "VerifyOtp", email, submitting: false }, error: undefined }))
          yield* go({ view: "EmailVerifyOtp" })
        }
      })

    const submitEmail = Effect.fn("EmbeddedWallet.submitEmail")(function* (input: string) {
      const valid = validateEmail(input)
      if (Result.isFailure(valid)) return yield* setError(valid.failure)
      const current = yield* SubscriptionRef.get(state)
      if (current.login._tag === "SendingEmail") return
      const waiting = yield* cooling
      if (waiting !== undefined) return yield* setError(waiting)
      yield* update((s) => ({ ...s, login: { _tag: "SendingEmail", email: valid.success }, error: undefined }))
      yield* sendEmail(valid.success, "push")
    })

    const resend = Effect.gen(function* () {
      const current = yield* SubscriptionRef.get(state)
      const login = current.login
      if (login._tag !== "VerifyOtp" && login._tag !== "VerifyDevice") return
      const waiting = yield* cooling
      if (waiting !== undefined) return yield* setError(waiting)
      yield* setError(undefined)
      yield* sendEmail(login.email, "replace")
    }).pipe(Effect.withSpan("EmbeddedWallet.resend"))

    const waitForDevice = Effect.gen(function* () {
      const login = (yield* SubscriptionRef.get(state)).login
      if (login._tag === "VerifyDevice" && !login.waiting) yield* startWaitingForDevice(login.email)
    }).pipe(Effect.withSpan("EmbeddedWallet.waitForDevice"))

    const submitOtp = Effect.fn("EmbeddedWallet.submitOtp")(function* (input: string) {
      const login = (yield* SubscriptionRef.get(state)).login
      if (login._tag !== "VerifyOtp" || login.submitting) return
      const valid = validateOtp(input)
      if (Result.isFailure(valid)) return yield* setError(valid.failure)
      const email = login.email
      yield* update((s) => ({ ...s, login: { _tag: "VerifyOtp", email, submitting: true }, error: undefined }))
      const checked = yield* Effect.exit(Effect.flatMap(frame, (bridge) => bridge.request("CONNECT_OTP", { otp: valid.success })))
      if (Exit.isFailure(checked)) {
        const error = Option.getOrUndefined(Exit.findErrorOption(checked))
        const message = error === undefined ? undefined : yield* words(error)
        yield* update((s) => ({ ...s, login: { _tag: "VerifyOtp", email, submitting: false }, error: message }))
        yield* Effect.forkIn(modal.shake, scope)
        return
      }
      yield* update((s) => ({ ...s, login: { _tag: "Connecting", email } }))
      const active = yield* Effect.option(networks.activeNetwork("eip155"))
      yield* rememberLogin(storage, email, Option.getOrUndefined(Option.map(active, (network) => network.caipNetworkId)))
      const connected = yield* Effect.exit(connectFlow.connect(auth.connectorId))
      if (Exit.isFailure(connected)) {
        // Kept before connecting (the Account view reads it as the wallet connects); a failed connection forgets it.
        yield* forgetLogin(storage)
        const error = Option.getOrUndefined(Exit.findErrorOption(connected))
        yield* update((s) => ({ ...s, login: { _tag: "VerifyOtp", email, submitting: false }, error: error?.message }))
        return
      }
      yield* update((s) => ({ ...s, login: { _tag: "Idle" }, email, error: undefined, resendInSeconds: 0 }))
      if (countdown !== undefined) yield* Fiber.interrupt(countdown)
      // Connected (and signed in, when the host asks for it).
      yield* completeLogin(LOGIN_VIEWS)
    })

    const cancelLogin = Effect.gen(function* () {
      yield* stopDeviceWait
      yield* update((s) => ({ ...s, login: { _tag: "Idle" }, error: undefined }))
    }).pipe(Effect.withSpan("EmbeddedWallet.cancelLogin"))

    // ---- Social login

    const frameOrigin = new URL(config.endpoints.frame).origin
    let socialPopup: SocialPopup | undefined
    let socialWait: Fiber.Fiber<void> | undefined

    /** Hands the provider's callback address to the frame, then connects like an email login. */
    const finishSocial = (uri: string, chosen: SocialProvider | undefined) =>
      Effect.gen(function* () {
        yield* update((s) => ({ ...s, social: { _tag: "Connecting", provider: chosen }, socialError: undefined }))
        const user = yield* Effect.exit(Effect.flatMap(frame, (bridge) => bridge.request("CONNECT_SOCIAL", { uri })))
        if (Exit.isFailure(user)) {
          const error = Option.getOrUndefined(Exit.findErrorOption(user))
          const message = error === undefined ? undefined : yield* words(error)
          return yield* update((s) => ({ ...s, social: { _tag: "Idle" }, socialError: message }))
        }
        const provider = user.value.socialProvider ?? chosen
        const username = user.value.username ?? user.value.userName ?? ""
        const active = yield* Effect.option(networks.activeNetwork("eip155"))
        yield* rememberSocialLogin(storage, { provider, username }, Option.getOrUndefined(Option.map(active, (network) => network.caipNetworkId)))
        const connected = yield* Effect.exit(connectFlow.connect(auth.connectorId))
        if (Exit.isFailure(connected)) {
          yield* forgetLogin(storage)
          const error = Option.getOrUndefined(Exit.findErrorOption(connected))
          return yield* update((s) => ({ ...s, social: { _tag: "Idle" }, socialError: error?.message }))
        }
        yield* update((s) => ({ ...s, social: { _tag: "Idle" }, socialUser: { provider, username }, socialError: undefined }))
        yield* completeLogin(["Connect"])
      })

    type PopupOutcome = { readonly _tag: "Callback"; readonly uri: string } | { readonly _tag: "Closed" } | { readonly _tag: "TimedOut" }

    // The callback page's message, from the popup we opened and the frame's exact origin only: any other is ignored.
    const callbackFrom = (popup: SocialPopup) =>
      Effect.callback<PopupOutcome>((resume) => {
        const stop = page.listen((message) => {
          if (message.source !== popup.window || message.origin !== frameOrigin) return
          const decoded = Schema.decodeUnknownOption(SocialCallbackMessage)(message.data)
          if (Option.isNone(decoded)) return
          stop()
          resume(Effect.succeed({ _tag: "Callback", uri: decoded.value.uri }))
        })
        return Effect.sync(stop)
      })

    const closedPopup = (popup: SocialPopup) =>
      Effect.sync(() => popup.isClosed()).pipe(
        Effect.repeat({ until: (closed) => closed, schedule: Schedule.spaced(POPUP_CHECK_MS) }),
        Effect.as<PopupOutcome>({ _tag: "Closed" })
      )

    const waitPopup = (provider: SocialProvider, popup: SocialPopup) =>
      Effect.gen(function* () {
        const outcome = yield* Effect.raceFirst(callbackFrom(popup), closedPopup(popup)).pipe(
          Effect.timeoutOrElse({ duration: SOCIAL_WAIT_MS, orElse: () => Effect.succeed<PopupOutcome>({ _tag: "TimedOut" }) })
        )
        socialPopup = undefined
        switch (outcome._tag) {
          case "Callback":
            popup.close()
            return yield* finishSocial(outcome.uri, provider)
          case "Closed":
            return yield* update((s) => ({ ...s, social: { _tag: "Idle" }, socialError: "The login was cancelled: the window was closed." }))
          case "TimedOut":
            popup.close()
            yield* notifications.raiseAlert(Alerts.SOCIALS_TIMEOUT)
            return yield* update((s) => ({ ...s, social: { _tag: "Idle" }, socialError: "The login took too long: try again." }))
        }
      })

    const socialLogin = Effect.fn("EmbeddedWallet.socialLogin")(function* (provider: SocialProvider, popup: SocialPopup | undefined) {
      if ((yield* SubscriptionRef.get(state)).social._tag !== "Idle") {
        popup?.close()
        return
      }
      yield* update((s) => ({ ...s, social: { _tag: "Waiting", provider }, socialError: undefined }))
      // Kept from the start: a Cancel while the frame still answers closes it too.
      socialPopup = popup
      const here = page.pageUrl()
      const asked = yield* Effect.exit(
        Effect.flatMap(frame, (bridge) =>
          bridge.request("GET_SOCIAL_REDIRECT_URI", here === undefined ? { provider } : { provider, returnTo: withoutResultUri(here) })
        )
      )
      if (Exit.isFailure(asked)) {
        popup?.close()
        const error = Option.getOrUndefined(Exit.findErrorOption(asked))
        const message = error === undefined ? undefined : yield* words(error)
        return yield* update((s) => ({ ...s, social: { _tag: "Idle" }, socialError: message }))
      }
      // Cancelled while the frame answered: nothing more (cancelSocial closed the popup).
      if ((yield* SubscriptionRef.get(state)).social._tag !== "Waiting") {
        popup?.close()
        return
      }
      // No popup (blocked): the page itself goes to the provider, and comes back with `result_uri`.
      if (popup === undefined) return page.redirect(asked.value.uri)
      popup.navigate(asked.value.uri)
      socialWait = yield* Effect.forkIn(waitPopup(provider, popup), scope)
    })

    const cancelSocial = Effect.gen(function* () {
      const fiber = socialWait
      socialWait = undefined
      socialPopup?.close()
      socialPopup = undefined
      if (fiber !== undefined) yield* Fiber.interrupt(fiber)
      yield* update((s) => ({ ...s, social: s.social._tag === "Waiting" ? { _tag: "Idle" } : s.social }))
    }).pipe(Effect.withSpan("EmbeddedWallet.cancelSocial"))

    // ---- Farcaster

    let farcasterWait: Fiber.Fiber<void> | undefined
    const setFarcaster = (farcaster: EmbeddedState["farcaster"]) => update((s) => ({ ...s, farcaster }))
    const farcasterFailed = (message: string, expired = false) => setFarcaster({ _tag: "Failed", message, expired })

    /** Signed: the frame holds the session; connect like a social login, then complete the login. */
    const finishFarcaster = (username: string) =>
      Effect.gen(function* () {
        yield* setFarcaster({ _tag: "Connecting", username })
        const social = { provider: "farcaster" as const, username }
        const active = yield* Effect.option(networks.activeNetwork("eip155"))
        yield* rememberSocialLogin(storage, social, Option.getOrUndefined(Option.map(active, (network) => network.caipNetworkId)))
        const connected = yield* Effect.exit(connectFlow.connect(auth.connectorId))
        if (Exit.isFailure(connected)) {
          yield* forgetLogin(storage)
          const error = Option.getOrUndefined(Exit.findErrorOption(connected))
          return yield* farcasterFailed(error?.message ?? "The wallet could not connect: try again.")
        }
        yield* update((s) => ({ ...s, farcaster: { _tag: "Idle" }, socialUser: social }))
        yield* completeLogin(["ConnectingFarcaster"])
      })

    // Asks the frame until the channel is signed, refused or expired; each ask is one frame step (the frame holds it 25 s).
    const waitFarcaster = (expiresAt: number) =>
      Effect.flatMap(Clock.currentTimeMillis, (startedAt) => Effect.gen(function* () {
        while (true) {
          const exit = yield* Effect.exit(Effect.flatMap(frame, (bridge) => bridge.request("CONNECT_FARCASTER")))
          if (Exit.isFailure(exit)) {
            const error = Option.getOrUndefined(Exit.findErrorOption(exit))
            // A step the frame did not answer in time is asked again while the link lasts.
            if (error?._tag === "FrameStepTimedOut" && (yield* Clock.currentTimeMillis) < expiresAt) continue
            const message = error === undefined ? "The Farcaster sign-in stopped: try again." : yield* words(error)
            return yield* farcasterFailed(message, /expired/i.test(message))
          }
          if ("userName" in exit.value) return yield* finishFarcaster(exit.value.userName)
          if ((yield* Clock.currentTimeMillis) >= expiresAt) return yield* farcasterFailed(FARCASTER_EXPIRED, true)
          // A frame that answers `pending` at once is not asked again in a tight loop.
          yield* Effect.sleep(FARCASTER_ASK_GAP_MS)
        }
      }).pipe(
        // Bounded even if the frame answered `pending` forever: the link's life and one more step.
        Effect.timeoutOrElse({
          duration: Math.max(0, expiresAt - startedAt) + FARCASTER_STEP_MS,
          orElse: () => farcasterFailed(FARCASTER_EXPIRED, true)
        })
      ))

    const stopFarcasterWait = Effect.suspend(() => {
      const fiber = farcasterWait
      farcasterWait = undefined
      return fiber === undefined ? Effect.void : Fiber.interrupt(fiber)
    })

    // The link, then the wait: one fiber of the service's scope, so the view change (which ends the click's action,
    // the Connect view being gone) does not stop it; leaving ConnectingFarcaster does.
    const farcasterLogin = Effect.gen(function* () {
      const asked = yield* Effect.exit(Effect.flatMap(frame, (bridge) => bridge.request("GET_FARCASTER_URI")))
      if (Exit.isFailure(asked)) {
        const error = Option.getOrUndefined(Exit.findErrorOption(asked))
        return yield* farcasterFailed(error === undefined ? "The Farcaster sign-in could not start: try again." : yield* words(error))
      }
      const started = yield* Clock.currentTimeMillis
      const expiresAt = asked.value.expiresAt ?? started + FARCASTER_LINK_MS
      yield* setFarcaster({ _tag: "Waiting", url: asked.value.url, expiresAt: asked.value.expiresAt })
      yield* waitFarcaster(expiresAt)
    })

    const connectFarcaster = Effect.gen(function* () {
      const step = (yield* SubscriptionRef.get(state)).farcaster
      if (step._tag === "Starting" || step._tag === "Connecting") return
      yield* stopFarcasterWait
      yield* setFarcaster({ _tag: "Starting" })
      const now = yield* SubscriptionRef.get(modal.state)
      if (!now.open) yield* modal.open({ view: "ConnectingFarcaster" })
      else if (currentRoute(now).view !== "ConnectingFarcaster") yield* modal.push({ view: "ConnectingFarcaster" })
      farcasterWait = yield* Effect.forkIn(farcasterLogin, scope)
    }).pipe(Effect.withSpan("EmbeddedWallet.connectFarcaster"))

    const cancelFarcaster = Effect.gen(function* () {
      yield* stopFarcasterWait
      yield* update((s) => ({ ...s, farcaster: s.farcaster._tag === "Connecting" ? s.farcaster : { _tag: "Idle" } }))
    }).pipe(Effect.withSpan("EmbeddedWallet.cancelFarcaster"))

    // ---- Email change

    const startEmailUpdate = Effect.fn("EmbeddedWallet.startEmailUpdate")(function* (input: string) {
      const valid = validateEmail(input)
      if (Result.isFailure(valid)) return yield* setError(valid.failure)
      const current = yield* SubscriptionRef.get(state)
      if (current.update._tag !== "Idle") return
      if (current.email !== undefined && current.email.toLowerCase() === valid.success.toLowerCase()) {
        return yield* setError("That is already your email address.")
      }
      const newEmail = valid.success
      yield* update((s) => ({ ...s, update: { _tag: "Sending", newEmail }, error: undefined }))
      const exit = yield* Effect.exit(Effect.flatMap(frame, (bridge) => bridge.request("UPDATE_EMAIL", { email: newEmail })))
      if (Exit.isFailure(exit)) {
        const error = Option.getOrUndefined(Exit.findErrorOption(exit))
        const message = error === undefined ? undefined : yield* words(error)
        return yield* update((s) => ({ ...s, update: { _tag: "Idle" }, error: message }))
      }
      yield* update((s) => ({ ...s, update: { _tag: "PrimaryOtp", newEmail, submitting: false } }))
      yield* modal.push({ view: "UpdateEmailPrimaryOtp" })
    })

    const submitEmailUpdateOtp = Effect.fn("EmbeddedWallet.submitEmailUpdateOtp")(function* (input: string) {
      const step = (yield* SubscriptionRef.get(state)).update
      if ((step._tag !== "PrimaryOtp" && step._tag !== "SecondaryOtp") || step.submitting) return
      const valid = validateOtp(input)
      if (Result.isFailure(valid)) return yield* setError(valid.failure)
      const { newEmail } = step
      yield* update((s) => ({ ...s, update: { ...step, submitting: true }, error: undefined }))
      const failed = (exit: Exit.Exit<unknown, StepError>) =>
        Effect.gen(function* () {
          const error = Option.getOrUndefined(Exit.findErrorOption(exit))
          const message = error === undefined ? undefined : yield* words(error)
          yield* update((s) => ({ ...s, update: { ...step, submitting: false }, error: message }))
          yield* Effect.forkIn(modal.shake, scope)
        })
      if (step._tag === "PrimaryOtp") {
        const exit = yield* Effect.exit(Effect.flatMap(frame, (bridge) => bridge.request("UPDATE_EMAIL_PRIMARY_OTP", { otp: valid.success })))
        if (Exit.isFailure(exit)) return yield* failed(exit)
        yield* update((s) => ({ ...s, update: { _tag: "SecondaryOtp", newEmail, submitting: false } }))
        return yield* modal.replace({ view: "UpdateEmailSecondaryOtp" })
      }
      const exit = yield* Effect.exit(
        Effect.flatMap(frame, (bridge) =>
          Effect.andThen(bridge.request("UPDATE_EMAIL_SECONDARY_OTP", { otp: valid.success }), bridge.request("AWAIT_UPDATE_EMAIL"))
        )
      )
      if (Exit.isFailure(exit)) return yield* failed(exit)
      const email = exit.value.email
      yield* rememberLogin(storage, email)
      yield* update((s) => ({ ...s, email, update: { _tag: "Idle" }, error: undefined }))
      yield* modal.reset({ view: "Account" })
      yield* notifications.showSnackbar("success", `Your email is now ${email}`)
    })

    const cancelEmailUpdate = update((s) => ({ ...s, update: { _tag: "Idle" }, error: undefined })).pipe(
      Effect.withSpan("EmbeddedWallet.cancelEmailUpdate")
    )

    // Leaving the login's or the change's views (Back, Close, Escape) ends that step: nothing waits on a view gone.
    yield* SubscriptionRef.changes(modal.state).pipe(
      Stream.map((m) => (m.open ? currentRoute(m).view : undefined)),
      Stream.changes,
      Stream.runForEach((view) =>
        Effect.gen(function* () {
          const s = yield* SubscriptionRef.get(state)
          const inLogin = view !== undefined && (LOGIN_VIEWS as ReadonlyArray<string>).includes(view)
          const onConnect = view === "Connect"
          if ((s.login._tag === "VerifyOtp" || s.login._tag === "VerifyDevice") && !inLogin) yield* cancelLogin
          else if (s.login._tag === "Idle" && s.error !== undefined && !onConnect && !inLogin && s.update._tag === "Idle") yield* setError(undefined)
          // Judged on the modal as it is now: a view change seen late (the Connect view's opening) must not stop a wait
          // the visitor started after it.
          const farcaster = s.farcaster._tag
          const modalNow = yield* SubscriptionRef.get(modal.state)
          const onFarcaster = modalNow.open && currentRoute(modalNow).view === "ConnectingFarcaster"
          if ((farcaster === "Starting" || farcaster === "Waiting" || farcaster === "Failed") && !onFarcaster) yield* cancelFarcaster
          const inUpdate = view !== undefined && (UPDATE_VIEWS as ReadonlyArray<string>).includes(view)
          if (s.update._tag !== "Idle" && s.update._tag !== "Sending" && !inUpdate) yield* cancelEmailUpdate
        })
      ),
      Effect.forkIn(scope)
    )

    // ---- Approvals

    const lock = yield* Semaphore.make(1)
    let decision: Deferred.Deferred<boolean> | undefined
    let nextApproval = 1

    const leave = (openedHere: boolean) =>
      Effect.gen(function* () {
        yield* update((s) => ({ ...s, approval: undefined }))
        const now = yield* SubscriptionRef.get(modal.state)
        if (!now.open) return
        if (openedHere) return yield* modal.close
        yield* modal.popTransactionStep("success")
        if (currentRoute(yield* SubscriptionRef.get(modal.state)).view === "ApproveTransaction") yield* modal.goBack
      })

    const refreshBalance = (request: ApprovalRequest) =>
      Effect.gen(function* () {
        const live = yield* connection.session(request.namespace)
        if (Option.isNone(live)) return
        const caip = `${request.chainId}:${live.value.address}`
        yield* portfolio.refresh(caip as Parameters<typeof portfolio.refresh>[0])
      })

    const approved = <A, E>(request: ApprovalRequest, ask: Effect.Effect<A, E>) =>
      lock.withPermits(1)(
        Effect.gen(function* () {
          const asked = yield* Deferred.make<boolean>()
          decision = asked
          // A session restored in this page has not said yet whether this device can sign: the view offers Recover if not.
          if ((yield* SubscriptionRef.get(state)).needsRecovery === undefined) yield* askRecovery
          const openedHere = !(yield* SubscriptionRef.get(modal.state)).open
          const network = (yield* SubscriptionRef.get(networks.state)).requested.find((n) => n.caipNetworkId === request.chainId)
          yield* update((s) => ({
            ...s,
            approval: {
              id: nextApproval++,
              method: request.method,
              chainId: request.chainId,
              networkName: network?.name ?? request.chainId,
              summary: request.summary,
              working: false
            }
          }))
          if (openedHere) yield* modal.open({ view: "ApproveTransaction" })
          else yield* modal.pushTransactionStep({ route: { view: "ApproveTransaction" } })
          // Closing the modal rejects every open unsafe request (spec 4). Leaving the view with Back (it has one when
          // pushed over another view) rejects it too: else the request waits unseen and every later one behind it.
          // Recover, opened from the view on a device without the key's share, comes back to it: the request waits.
          const viewLeft = SubscriptionRef.changes(modal.state).pipe(
            Stream.filter((m) => {
              const route = m.open ? currentRoute(m) : undefined
              return route !== undefined && route.view !== "ApproveTransaction" && !(route.view === "SecureFrame" && route.kind === "recover")
            }),
            Stream.runHead,
            Effect.as(false)
          )
          const yes = yield* modal.trackRequest(Effect.raceFirst(Deferred.await(asked), viewLeft)).pipe(Effect.orElseSucceed(() => false))
          decision = undefined
          if (!yes) {
            yield* leave(openedHere)
            return yield* new UserRejected({ code: RPC_ERROR_CODES.userRejected })
          }
          yield* update((s) => ({ ...s, approval: s.approval === undefined ? undefined : { ...s.approval, working: true } }))
          const exit = yield* Effect.exit(ask)
          yield* leave(openedHere)
          if (Exit.isSuccess(exit)) yield* Effect.forkIn(refreshBalance(request), scope)
          return yield* exit
        })
      )

    // ---- The account in front (the Account view's switch)

    const setAccountSwitch = (accountSwitch: EmbeddedState["accountSwitch"]) => update((s) => ({ ...s, accountSwitch }))
    const setPreferredAccount = Effect.fn("EmbeddedWallet.setPreferredAccount")(function* (type: EmbeddedAccountType) {
      if ((yield* SubscriptionRef.get(state)).accountSwitch.switching !== undefined) return
      yield* setAccountSwitch({ switching: type, error: undefined })
      const exit = yield* Effect.exit(auth.setPreferredAccount(type))
      if (Exit.isFailure(exit)) {
        const error = Option.getOrUndefined(Exit.findErrorOption(exit))
        return yield* setAccountSwitch({ switching: undefined, error: error?.message ?? "The account could not be switched: try again." })
      }
      // The account in front changes at once: its address, balance and sends follow it.
      const accounts = exit.value
      const front = accounts[0]
      const family = (yield* SubscriptionRef.get(connection.state)).namespaces.eip155
      const chainId = family?.chainId
      if (front !== undefined && chainId !== undefined && family?.account.status === "connected") {
        yield* connection.updateAccount("eip155", (account) => ({ ...account, ...accountStateOf("eip155", { address: front.address, accounts }, chainId) }))
      }
      yield* setAccountSwitch({ switching: undefined, error: undefined })
    })

    // A flow whose code comes on its first use, not with every login's flows; made once.
    const flowOnFirstUse = <M, F>(load: () => Promise<M>, make: (module: M) => F) =>
      Effect.cached(Effect.tryPromise({ try: load, catch: () => new EmailLoginDependencyFailed() }).pipe(Effect.map(make)))
    const themeMode = Effect.map(SubscriptionRef.get(theme.state), (current) => current.themeMode)

    // ---- Passkey

    // Its code comes with the first passkey click (the popup is already open by then).
    const passkey = yield* flowOnFirstUse(
      () => import("./passkeyFlow"),
      (module) =>
        module.makePasskeyFlow({
          state,
          frame,
          words,
          connect: connectFlow.connect(auth.connectorId).pipe(Effect.tapError(() => forgetLogin(storage)), Effect.asVoid),
          complete: completeLogin(["Connect"]),
          page,
          frameOrigin,
          scope,
          themeMode
        })
    )
    const passkeyLogin = (mode: PasskeyMode, popup: SocialPopup | undefined) =>
      Effect.flatMap(passkey, (flow) => flow.passkeyLogin(mode, popup)).pipe(
        Effect.catch((error) => {
          popup?.close()
          return update((s) => ({ ...s, passkeyError: error.message }))
        })
      )

    // ---- The frame's secure views (protect, recover, export)

    // Their code comes with the first one.
    const secureViews = yield* flowOnFirstUse(
      () => import("./secureViewFlow"),
      (module) => module.makeSecureViewFlow({ state, frame, words, modal, scope, themeMode })
    )
    const viaSecureViews = (use: (flow: SecureViewFlow) => Effect.Effect<void>) =>
      Effect.flatMap(secureViews, use).pipe(Effect.catch((error) => update((s) => ({ ...s, secureViewError: error.message }))))

    /**
     * Before the embedded account is asked to sign in (the host's `siwx`): on a device without the share of its key,
     * Recover first; what stops it signing here is said in words (the secure views' code decides, with the first one).
     */
    const recoverBeforeSignIn = (account: SiwxAccount) =>
      Effect.gen(function* () {
        const family = (yield* SubscriptionRef.get(connection.state)).namespaces[account.namespace]
        if (family?.connector?.id !== auth.connectorId) return undefined
        const user = yield* askRecovery
        if (user?.needsRecovery !== true) return undefined
        return yield* Effect.flatMap(secureViews, (flow) => flow.recoverBeforeSignIn(user.recovery)).pipe(Effect.catch((error) => Effect.succeed({ reason: error.message, final: false })))
      }).pipe(Effect.withSpan("EmbeddedWallet.recoverBeforeSignIn"))
    // Sign-in's code is fetched only when the host configured sign-in (then at start, so it is here or on its way): the
    // step is set there before these flows are ready, so a restored session's check (which waits for them) finds it.
    if ((yield* SubscriptionRef.get(siwx.state)).step._tag !== "Disabled") {
      yield* Effect.tryPromise(() => import("../Siwx/SiwxLive")).pipe(
        Effect.flatMap((module) => module.requireFirst(siwx.state, recoverBeforeSignIn)),
        Effect.ignore
      )
    }

    const answer = (yes: boolean) => Effect.suspend(() => (decision === undefined ? Effect.void : Deferred.succeed(decision, yes).pipe(Effect.asVoid)))

    const service: EmbeddedLive = {
      state,
      submitEmail,
      resend,
      waitForDevice,
      submitOtp,
      cancelLogin,
      startEmailUpdate,
      submitEmailUpdateOtp,
      cancelEmailUpdate,
      connectSocial: (provider) => Effect.suspend(() => socialLogin(provider, page.open())),
      cancelSocial,
      connectFarcaster,
      cancelFarcaster,
      socialLogin,
      connectPasskey: (mode) => Effect.suspend(() => passkeyLogin(mode, page.open())),
      passkeyLogin,
      // Nothing to stop before the flow's code came.
      cancelPasskey: Effect.flatMap(passkey, (flow) => flow.cancelPasskey).pipe(Effect.ignore),
      finishSocial: (uri) => finishSocial(uri, undefined),
      approve: answer(true).pipe(Effect.withSpan("EmbeddedWallet.approve")),
      reject: answer(false).pipe(Effect.withSpan("EmbeddedWallet.reject")),
      setPreferredAccount,
      openSecureView: (kind) => viaSecureViews((flow) => flow.openSecureView(kind)),
      showSecureView: (place) => viaSecureViews((flow) => flow.showSecureView(place)),
      hideSecureView: viaSecureViews((flow) => flow.hideSecureView),
      refreshRecovery: viaSecureViews((flow) => flow.refreshRecovery),
      gate: { approved, disallowed: (method) => modal.rejectDisallowed(method) }
    }
    return service
  })
