/**
 * The embedded (email) wallet's flows over the runtime's real core (Modal, ConnectFlow, Connection, Storage) and the
 * real AUTH connector over a scripted frame: email → code or device link → code → connected; the 30 s resend
 * countdown under TestClock; the email change; one approval at a time in ApproveTransaction; the disabled service of
 * a host without email login.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Fiber, Option, Stream, SubscriptionRef } from "effect"
import { TestClock } from "effect/testing"
import { FrameLoadTimedOut, FrameNotSet, RpcMethodNotAllowed, UserRejected } from "../../../../src/domain/errors"
import { localChainA, localChainB } from "../../../../src/domain/networks"
import { decodeOptionsSync } from "../../../../src/domain/Options"
import { Connection } from "../../../../src/services/Connection"
import type { ApprovalRequest } from "../../../../src/services/Embedded/EmbeddedAuth"
import { EmbeddedWallet, type EmbeddedState } from "../../../../src/services/Embedded/EmbeddedWallet"
import { currentRoute, Modal, type ModalState } from "../../../../src/services/Modal"
import { Portfolio } from "../../../../src/services/Portfolio"
import * as Keys from "../../../../src/services/Storage/keys"
import { Storage } from "../../../../src/services/Storage/Storage"
import { embeddedCore, FRAME_ADDRESS, makeScriptedFrame, restoreEmbeddedSession, type ScriptedFrame } from "./scriptedFrame"

const EMAIL = "ada@example.com"
const BUSY = "The wallet is busy with other logins right now. Please try again after 25 seconds."
const TOO_MANY = "Too many attempts from your network. Please try again after 40 seconds."
const options = decodeOptionsSync({ projectId: "p", networks: [localChainA, localChainB], features: { email: true } })

type Services = EmbeddedWallet | Modal | Connection | Storage | Portfolio

/** Runs `body` with a scripted frame (changed by `script` first) in the real core. */
const withFrame = <A, E>(body: (frame: ScriptedFrame) => Effect.Effect<A, E, Services>, script: (frame: ScriptedFrame) => void = () => {}) =>
  Effect.gen(function* () {
    const frame = yield* makeScriptedFrame
    script(frame)
    return yield* Effect.provide(body(frame), embeddedCore(options, frame))
  })

const embeddedState = Effect.flatMap(EmbeddedWallet, (wallet) => SubscriptionRef.get(wallet.state))
const modalState = Effect.flatMap(Modal, (modal) => SubscriptionRef.get(modal.state))
const view = Effect.map(modalState, (state) => (state.open ? currentRoute(state).view : undefined))

/** Waits until the embedded wallet's state satisfies `condition`. */
const embeddedUntil = (condition: (state: EmbeddedState) => boolean) =>
  Effect.flatMap(EmbeddedWallet, (wallet) =>
    SubscriptionRef.changes(wallet.state).pipe(Stream.filter(condition), Stream.runHead, Effect.map(Option.getOrThrow))
  )
/** Waits until the modal's state satisfies `condition`. */
const modalUntil = (condition: (state: ModalState) => boolean) =>
  Effect.flatMap(Modal, (modal) => SubscriptionRef.changes(modal.state).pipe(Stream.filter(condition), Stream.runHead, Effect.map(Option.getOrThrow)))

/** Lets forked fibers (the frame's replies, the views' follower) run. */
const settle = Effect.forEach(Array.from({ length: 50 }), () => Effect.yieldNow, { discard: true })

/** The Connect view open and the email sent; the frame answered VERIFY_OTP (the default script). */
const emailSent = Effect.gen(function* () {
  yield* (yield* Modal).open({ view: "Connect" })
  yield* (yield* EmbeddedWallet).submitEmail(EMAIL)
})

/** Logged in with the right code: connected through the AUTH connector, the modal closed. */
const loggedIn = Effect.gen(function* () {
  yield* emailSent
  yield* (yield* EmbeddedWallet).submitOtp("123456")
  yield* embeddedUntil((s) => s.email === EMAIL && s.login._tag === "Idle")
})

const request = (method = "personal_sign"): ApprovalRequest => ({
  namespace: "eip155",
  method,
  chainId: localChainA.caipNetworkId,
  summary: { _tag: "Message", text: "hello" }
})

describe("EmbeddedWallet: email login", () => {
  it.effect("a malformed email is refused with words, and the frame is asked nothing", () =>
    withFrame((frame) =>
      Effect.gen(function* () {
        yield* (yield* Modal).open({ view: "Connect" })
        yield* (yield* EmbeddedWallet).submitEmail("ada@")
        const state = yield* embeddedState
        expect(state.error).toBe("Enter a valid email address")
        expect(state.login._tag).toBe("Idle")
        expect(yield* view).toBe("Connect")
        yield* settle
        expect(frame.posted).toEqual([])
      })
    )
  )

  it.effect("VERIFY_OTP pushes EmailVerifyOtp and starts the 30 s countdown; a resend is refused while it counts", () =>
    withFrame((frame) =>
      Effect.gen(function* () {
        yield* emailSent
        const wallet = yield* EmbeddedWallet
        expect(frame.posted.filter((post) => post.name === "CONNECT_EMAIL").map((post) => post.payload)).toEqual([{ email: EMAIL }])
        expect(yield* view).toBe("EmailVerifyOtp")
        const state = yield* embeddedState
        expect(state.login).toEqual({ _tag: "VerifyOtp", email: EMAIL, submitting: false })
        expect(state.resendInSeconds).toBe(30)
        // The time the code was mailed is kept, so the cooldown survives a reload.
        expect((yield* (yield* Storage).get(Keys.embeddedLogin)).lastEmailLoginTime).toBe(0)

        yield* TestClock.adjust(29_000)
        expect((yield* embeddedState).resendInSeconds).toBe(1)
        yield* wallet.resend
        expect((yield* embeddedState).error).toBe("Please try again after 1 seconds")
        expect(frame.names().filter((name) => name === "CONNECT_EMAIL")).toHaveLength(1)

        yield* TestClock.adjust(1_000)
        expect((yield* embeddedState).resendInSeconds).toBe(0)
        yield* wallet.resend
        expect(frame.names().filter((name) => name === "CONNECT_EMAIL")).toHaveLength(2)
        const after = yield* embeddedState
        expect(after.error).toBeUndefined()
        expect(after.resendInSeconds).toBe(30)
        expect(yield* view).toBe("EmailVerifyOtp")
      })
    )
  )

  it.effect("the frame's rate limit restarts the countdown from its own seconds, and says so", () =>
    withFrame((frame) =>
      Effect.gen(function* () {
        yield* emailSent
        yield* TestClock.adjust(30_000)
        frame.answer("CONNECT_EMAIL", () => ({ error: "Please try again after 12 seconds", code: "email_rate_limited", retryAfterSeconds: 12 }))
        yield* (yield* EmbeddedWallet).resend
        const state = yield* embeddedState
        expect(state.error).toBe("Please try again after 12 seconds")
        expect(state.resendInSeconds).toBe(12)
        expect(state.login._tag).toBe("VerifyOtp")
        yield* TestClock.adjust(11_000)
        expect((yield* embeddedState).resendInSeconds).toBe(1)
        yield* TestClock.adjust(1_000)
        expect((yield* embeddedState).resendInSeconds).toBe(0)
      })
    )
  )

  it.effect("a wallet too busy for the device wait says so and starts no resend countdown: Resend mails at once, the mail's own limit still counts", () =>
    withFrame(
      (frame) =>
        Effect.gen(function* () {
          yield* emailSent
          const busy = yield* embeddedUntil((s) => s.login._tag === "VerifyDevice" && !s.login.waiting && s.error !== undefined)
          expect(busy.error).toBe(BUSY)
          // The countdown is the link's mail's, not the refusal's 25 s.
          expect(busy.resendInSeconds).toBe(30)
          yield* TestClock.adjust(30_000)
          expect((yield* embeddedState).resendInSeconds).toBe(0)
          const wallet = yield* EmbeddedWallet
          yield* wallet.waitForDevice
          const again = yield* embeddedUntil((s) => s.login._tag === "VerifyDevice" && !s.login.waiting && s.error !== undefined)
          expect(again.error).toBe(BUSY)
          expect(again.resendInSeconds).toBe(0)
          yield* wallet.resend
          expect(frame.names().filter((name) => name === "CONNECT_EMAIL")).toHaveLength(2)
          expect((yield* embeddedState).resendInSeconds).toBe(30)
          // The mail's own limit, with its code, still sets the countdown from its seconds.
          yield* TestClock.adjust(30_000)
          frame.answer("CONNECT_EMAIL", () => ({ error: "Please try again after 7 seconds", code: "email_rate_limited", retryAfterSeconds: 7 }))
          yield* wallet.resend
          const limited = yield* embeddedState
          expect(limited.error).toBe("Please try again after 7 seconds")
          expect(limited.resendInSeconds).toBe(7)
        }),
      (frame) => {
        frame.answer("CONNECT_EMAIL", () => ({ ok: { action: "VERIFY_DEVICE" } }))
        frame.answer("CONNECT_DEVICE", () => ({ error: BUSY, code: "busy", retryAfterSeconds: 25 }))
      }
    )
  )

  it.effect("too many tries from the network on a Farcaster start is said there and leaves the email login free", () =>
    withFrame(
      (frame) =>
        Effect.gen(function* () {
          yield* (yield* Modal).open({ view: "Connect" })
          const wallet = yield* EmbeddedWallet
          yield* wallet.connectFarcaster
          const failed = yield* embeddedUntil((s) => s.farcaster._tag === "Failed")
          expect(failed.farcaster).toMatchObject({ _tag: "Failed", message: TOO_MANY })
          expect(failed.resendInSeconds).toBe(0)
          yield* (yield* Modal).goBack
          yield* wallet.submitEmail(EMAIL)
          const state = yield* embeddedState
          expect(state.error).toBeUndefined()
          expect(frame.names()).toContain("CONNECT_EMAIL")
          expect(yield* view).toBe("EmailVerifyOtp")
        }),
      (frame) => {
        frame.answer("GET_FARCASTER_URI", () => ({ error: TOO_MANY, code: "rate_limited", retryAfterSeconds: 40 }))
      }
    )
  )

  it.effect("a cooldown started before a reload is still counted: a code mailed 10 s ago leaves 20 s", () =>
    Effect.gen(function* () {
      const frame = yield* makeScriptedFrame
      yield* TestClock.setTime(100_000)
      const state = yield* Effect.gen(function* () {
        // The first visit mailed a code at 90 s; the flows load again in the same storage (the reload).
        yield* (yield* Storage).modify(Keys.embeddedLogin, (cache) => ({ ...cache, lastEmailLoginTime: 90_000 }))
        yield* (yield* EmbeddedWallet).submitEmail(EMAIL)
        return yield* embeddedState
      }).pipe(Effect.provide(embeddedCore(options, frame)))
      expect(state.error).toBe("Please try again after 20 seconds")
      expect(state.resendInSeconds).toBe(20)
      expect(frame.names()).not.toContain("CONNECT_EMAIL")
    })
  )

  it.effect("VERIFY_DEVICE shows EmailVerifyDevice and waits for the link; once opened (CONNECT_DEVICE answers), a code is mailed: EmailVerifyOtp", () =>
    withFrame(
      (frame) =>
        Effect.gen(function* () {
          yield* emailSent
          expect(yield* view).toBe("EmailVerifyDevice")
          const waiting = yield* embeddedUntil((s) => s.login._tag === "VerifyDevice")
          expect(waiting.login).toEqual({ _tag: "VerifyDevice", email: EMAIL, waiting: true })
          yield* settle
          expect(frame.names()).toContain("CONNECT_DEVICE")
          yield* TestClock.adjust(10_000)
          frame.release("CONNECT_DEVICE", { ok: undefined })
          const state = yield* embeddedUntil((s) => s.login._tag === "VerifyOtp")
          expect(state.login).toEqual({ _tag: "VerifyOtp", email: EMAIL, submitting: false })
          expect(state.error).toBeUndefined()
          // The server mailed the code just now: the countdown starts again.
          expect(state.resendInSeconds).toBe(30)
          yield* modalUntil((m) => m.open && currentRoute(m).view === "EmailVerifyOtp")
          // The code view replaced the device view: Back leads to the email field.
          expect((yield* modalState).history.map((entry) => entry.route.view)).toEqual(["Connect", "EmailVerifyOtp"])
          expect(frame.names().filter((name) => name === "CONNECT_DEVICE")).toHaveLength(1)
        }),
      (frame) => {
        frame.answer("CONNECT_EMAIL", () => ({ ok: { action: "VERIFY_DEVICE" } }))
        frame.answer("CONNECT_DEVICE", () => "hold")
      }
    )
  )

  it.effect("a device step that times out stops waiting with words; 'Wait again' waits again", () =>
    withFrame(
      (frame) =>
        Effect.gen(function* () {
          yield* emailSent
          yield* embeddedUntil((s) => s.login._tag === "VerifyDevice")
          yield* TestClock.adjust(29_999)
          expect((yield* embeddedState).login).toMatchObject({ _tag: "VerifyDevice", waiting: true })
          yield* TestClock.adjust(1)
          const stopped = yield* embeddedUntil((s) => s.login._tag === "VerifyDevice" && !s.login.waiting)
          expect(stopped.error).toBe("We are still waiting for the link to be opened. Open it, then wait again.")
          expect(yield* view).toBe("EmailVerifyDevice")
          yield* (yield* EmbeddedWallet).waitForDevice
          const again = yield* embeddedUntil((s) => s.login._tag === "VerifyDevice" && s.login.waiting)
          expect(again.login).toEqual({ _tag: "VerifyDevice", email: EMAIL, waiting: true })
          expect(again.error).toBeUndefined()
          yield* settle
          expect(frame.names().filter((name) => name === "CONNECT_DEVICE")).toHaveLength(2)
        }),
      (frame) => {
        frame.answer("CONNECT_EMAIL", () => ({ ok: { action: "VERIFY_DEVICE" } }))
        frame.answer("CONNECT_DEVICE", () => "hold")
      }
    )
  )

  it.effect("closing the modal while the device link is awaited stops waiting: a late answer of the frame opens nothing", () =>
    withFrame(
      (frame) =>
        Effect.gen(function* () {
          yield* emailSent
          yield* embeddedUntil((s) => s.login._tag === "VerifyDevice")
          yield* settle
          yield* (yield* Modal).close
          yield* embeddedUntil((s) => s.login._tag === "Idle")
          frame.release("CONNECT_DEVICE", { ok: undefined })
          yield* settle
          yield* TestClock.adjust(30_000)
          expect((yield* embeddedState).login._tag).toBe("Idle")
          expect((yield* modalState).open).toBe(false)
        }),
      (frame) => {
        frame.answer("CONNECT_EMAIL", () => ({ ok: { action: "VERIFY_DEVICE" } }))
        frame.answer("CONNECT_DEVICE", () => "hold")
      }
    )
  )

  it.effect("a resend from the device view mails a new link and waits for it, the earlier wait ended", () =>
    withFrame(
      (frame) =>
        Effect.gen(function* () {
          yield* emailSent
          yield* embeddedUntil((s) => s.login._tag === "VerifyDevice")
          yield* TestClock.adjust(30_000)
          yield* embeddedUntil((s) => s.login._tag === "VerifyDevice" && !s.login.waiting)
          yield* (yield* EmbeddedWallet).resend
          yield* embeddedUntil((s) => s.login._tag === "VerifyDevice" && s.login.waiting)
          expect(frame.names().filter((name) => name === "CONNECT_EMAIL")).toHaveLength(2)
          expect((yield* modalState).history.map((entry) => entry.route.view)).toEqual(["Connect", "EmailVerifyDevice"])
          expect((yield* embeddedState).resendInSeconds).toBe(30)
          yield* settle
          frame.release("CONNECT_DEVICE", { ok: undefined })
          yield* modalUntil((m) => m.open && currentRoute(m).view === "EmailVerifyOtp")
          expect((yield* embeddedState).login).toEqual({ _tag: "VerifyOtp", email: EMAIL, submitting: false })
        }),
      (frame) => {
        frame.answer("CONNECT_EMAIL", () => ({ ok: { action: "VERIFY_DEVICE" } }))
        frame.answer("CONNECT_DEVICE", () => "hold")
      }
    )
  )

  it.effect("a wrong code says the frame's words and stays on the code view, no longer submitting", () =>
    withFrame((frame) =>
      Effect.gen(function* () {
        yield* emailSent
        frame.answer("CONNECT_OTP", () => ({ error: "Invalid code" }))
        yield* (yield* EmbeddedWallet).submitOtp("000000")
        const state = yield* embeddedState
        expect(state.error).toBe("Invalid code")
        expect(state.login).toEqual({ _tag: "VerifyOtp", email: EMAIL, submitting: false })
        expect(yield* view).toBe("EmailVerifyOtp")
        expect(frame.names()).not.toContain("GET_USER")
        const connection = yield* Connection
        expect((yield* SubscriptionRef.get(connection.state)).namespaces.eip155?.account.status).not.toBe("connected")
      })
    )
  )

  it.effect("the right code connects through the AUTH connector: the frame's address on eip155, the modal closed, the login cached", () =>
    withFrame((frame) =>
      Effect.gen(function* () {
        yield* emailSent
        yield* (yield* EmbeddedWallet).submitOtp(" 123456 ")
        expect(frame.posted.find((post) => post.name === "CONNECT_OTP")?.payload).toEqual({ otp: "123456" })
        const connection = yield* Connection
        const eip155 = (yield* SubscriptionRef.get(connection.state)).namespaces.eip155
        expect(eip155?.account.status).toBe("connected")
        expect(eip155?.connector?.type).toBe("AUTH")
        expect(eip155?.account.caipAddress).toBe(`${localChainA.caipNetworkId}:${FRAME_ADDRESS}`)
        expect((yield* modalState).open).toBe(false)
        const state = yield* embeddedState
        expect(state.login._tag).toBe("Idle")
        expect(state.email).toBe(EMAIL)
        expect(state.error).toBeUndefined()
        expect(state.resendInSeconds).toBe(0)
        const cache = yield* (yield* Storage).get(Keys.embeddedLogin)
        expect(cache).toMatchObject({ email: EMAIL, emailLoginUsed: true, lastEmailLoginTime: null })
        expect(frame.names()).toEqual(expect.arrayContaining(["IS_CONNECTED", "SWITCH_NETWORK", "GET_USER"]))
      })
    )
  )

  it.effect("leaving the code view (Back) ends the login; closing the modal too", () =>
    withFrame(() =>
      Effect.gen(function* () {
        const modal = yield* Modal
        yield* emailSent
        yield* modal.goBack
        expect(yield* view).toBe("Connect")
        const back = yield* embeddedUntil((s) => s.login._tag === "Idle")
        expect(back.error).toBeUndefined()

        yield* TestClock.adjust(30_000)
        yield* (yield* EmbeddedWallet).submitEmail(EMAIL)
        expect((yield* embeddedState).login._tag).toBe("VerifyOtp")
        yield* modal.close
        yield* embeddedUntil((s) => s.login._tag === "Idle")
        // A code submitted after the view is gone is asked of nobody.
        yield* (yield* EmbeddedWallet).submitOtp("123456")
        expect((yield* embeddedState).login._tag).toBe("Idle")
      })
    )
  )
})

describe("EmbeddedWallet: a frame that fails to initialise", () => {
  const FAILED = "A problem occurred while trying initialize authentication"

  it.effect("on Connect: the email is not sent and the visitor reads spec 8's words there", () =>
    withFrame((frame) =>
      Effect.gen(function* () {
        frame.failLoad(new FrameLoadTimedOut({ timeoutMs: 30_000 }))
        yield* emailSent
        const state = yield* embeddedState
        expect(state.error).toBe(FAILED)
        expect(state.login._tag).toBe("Idle")
        expect(yield* view).toBe("Connect")
      })
    )
  )

  it.effect("while logged in (changing the email): the embedded wallet is disconnected and the modal returns to Connect", () =>
    withFrame((frame) =>
      Effect.gen(function* () {
        yield* loggedIn
        const modal = yield* Modal
        yield* modal.open({ view: "Account" })
        yield* modal.push({ view: "UpdateEmail" })
        frame.failLoad(new FrameNotSet())
        yield* (yield* EmbeddedWallet).startEmailUpdate("grace@example.com")
        expect((yield* embeddedState).error).toBe(FAILED)
        expect(yield* view).toBe("Connect")
        const connection = yield* SubscriptionRef.get((yield* Connection).state)
        expect(connection.namespaces.eip155?.account.status).toBe("disconnected")
      })
    )
  )
})

describe("EmbeddedWallet: sign-out", () => {
  it.effect("disconnecting signs the frame out, forgets the login and the Account view's email", () =>
    withFrame((frame) =>
      Effect.gen(function* () {
        yield* loggedIn
        yield* (yield* Connection).disconnect()
        expect(frame.names()).toContain("SIGN_OUT")
        const state = yield* embeddedUntil((s) => s.email === undefined)
        expect(state.login._tag).toBe("Idle")
        expect(yield* (yield* Storage).get(Keys.embeddedLogin)).toMatchObject({ email: null, emailLoginUsed: false, lastChain: null })
      })
    )
  )
})

describe("EmbeddedWallet: restore", () => {
  it.effect("a session restored at start, nothing of the wallet used since: the Account view's email and the account's user follow it", () =>
    withFrame(() =>
      Effect.gen(function* () {
        const connection = yield* Connection
        yield* (yield* Storage).set(Keys.embeddedLogin, { email: EMAIL, emailLoginUsed: true, lastEmailLoginTime: null, lastChain: null, socialUsername: null })
        yield* restoreEmbeddedSession(localChainA)
        expect((yield* embeddedUntil((s) => s.email !== undefined)).email).toBe(EMAIL)
        yield* settle
        const account = (yield* SubscriptionRef.get(connection.state)).namespaces.eip155?.account
        expect(account?.status).toBe("connected")
        expect(account?.user?.email).toBe(EMAIL)
      })
    )
  )
})

describe("EmbeddedWallet: email change", () => {
  it.effect("a code to the current address, then one to the new: the new email is shown and cached, the Account view back", () =>
    withFrame((frame) =>
      Effect.gen(function* () {
        yield* loggedIn
        const wallet = yield* EmbeddedWallet
        const modal = yield* Modal
        yield* modal.open({ view: "Account" })
        yield* modal.push({ view: "UpdateEmail" })

        yield* wallet.startEmailUpdate(EMAIL.toUpperCase())
        expect((yield* embeddedState).error).toBe("That is already your email address.")

        yield* wallet.startEmailUpdate("grace@example.com")
        expect(frame.posted.find((post) => post.name === "UPDATE_EMAIL")?.payload).toEqual({ email: "grace@example.com" })
        expect((yield* embeddedState).update).toEqual({ _tag: "PrimaryOtp", newEmail: "grace@example.com", submitting: false })
        expect(yield* view).toBe("UpdateEmailPrimaryOtp")

        yield* wallet.submitEmailUpdateOtp("111111")
        expect((yield* embeddedState).update).toEqual({ _tag: "SecondaryOtp", newEmail: "grace@example.com", submitting: false })
        expect(yield* view).toBe("UpdateEmailSecondaryOtp")

        yield* wallet.submitEmailUpdateOtp("222222")
        const state = yield* embeddedState
        expect(state.email).toBe("grace@example.com")
        expect(state.update._tag).toBe("Idle")
        expect(yield* view).toBe("Account")
        expect((yield* (yield* Storage).get(Keys.embeddedLogin)).email).toBe("grace@example.com")
        expect(frame.names().slice(-3)).toEqual(["UPDATE_EMAIL_PRIMARY_OTP", "UPDATE_EMAIL_SECONDARY_OTP", "AWAIT_UPDATE_EMAIL"])
      })
    )
  )

  it.effect("a wrong code of the change says so and stays on its step", () =>
    withFrame((frame) =>
      Effect.gen(function* () {
        yield* loggedIn
        const wallet = yield* EmbeddedWallet
        const modal = yield* Modal
        yield* modal.open({ view: "Account" })
        yield* modal.push({ view: "UpdateEmail" })
        yield* wallet.startEmailUpdate("grace@example.com")
        frame.answer("UPDATE_EMAIL_PRIMARY_OTP", () => ({ error: "Invalid code" }))
        yield* wallet.submitEmailUpdateOtp("111111")
        const state = yield* embeddedState
        expect(state.error).toBe("Invalid code")
        expect(state.update).toEqual({ _tag: "PrimaryOtp", newEmail: "grace@example.com", submitting: false })
        expect(state.email).toBe(EMAIL)
        expect(yield* view).toBe("UpdateEmailPrimaryOtp")
      })
    )
  )
})

describe("EmbeddedWallet: approvals", () => {
  /** Waits until a request waits on the visitor in the ApproveTransaction view. */
  const approvalShown = Effect.gen(function* () {
    yield* modalUntil((m) => m.open && currentRoute(m).view === "ApproveTransaction")
    return yield* embeddedUntil((s) => s.approval !== undefined && !s.approval.working)
  })

  /** An ask that records that it ran. */
  const asking = () => {
    const ran: Array<string> = []
    const ask = (answer: string) => Effect.sync(() => (ran.push(answer), answer))
    return { ran, ask }
  }

  it.effect("with the modal closed: ApproveTransaction opens; approve → the ask runs, the modal closes, the balance is read again", () =>
    withFrame((frame) =>
      Effect.gen(function* () {
        yield* loggedIn
        const portfolio = yield* Portfolio
        const revision = yield* SubscriptionRef.get(portfolio.revision)
        const { ran, ask } = asking()
        const fiber = yield* Effect.forkChild(frame.gate()!.approved(request(), ask("0xsigned")))
        const waiting = yield* approvalShown
        expect(waiting.approval).toMatchObject({ method: "personal_sign", chainId: localChainA.caipNetworkId, networkName: localChainA.name, working: false })
        expect(yield* view).toBe("ApproveTransaction")
        expect(ran).toEqual([])

        yield* (yield* EmbeddedWallet).approve
        expect(yield* Fiber.join(fiber)).toBe("0xsigned")
        expect(ran).toEqual(["0xsigned"])
        expect((yield* modalState).open).toBe(false)
        expect((yield* embeddedState).approval).toBeUndefined()
        yield* Effect.flatMap(Portfolio, (p) => SubscriptionRef.changes(p.revision).pipe(Stream.filter((n) => n > revision), Stream.runHead))
      })
    )
  )

  it.effect("with the modal open on another view: pushed as a transaction step, and afterwards back on that view", () =>
    withFrame((frame) =>
      Effect.gen(function* () {
        yield* loggedIn
        const modal = yield* Modal
        yield* modal.open({ view: "Account" })
        const { ask } = asking()
        const fiber = yield* Effect.forkChild(frame.gate()!.approved(request(), ask("0xsigned")))
        yield* approvalShown
        expect(yield* view).toBe("ApproveTransaction")
        expect((yield* modalState).transactionStack).toHaveLength(1)
        yield* (yield* EmbeddedWallet).approve
        expect(yield* Fiber.join(fiber)).toBe("0xsigned")
        expect(yield* view).toBe("Account")
        expect((yield* modalState).transactionStack).toHaveLength(0)
      })
    )
  )

  it.effect("reject → UserRejected (4001) and the ask never runs; pushed from another view, back on it", () =>
    withFrame((frame) =>
      Effect.gen(function* () {
        yield* loggedIn
        const { ran, ask } = asking()
        const fiber = yield* Effect.forkChild(frame.gate()!.approved(request(), ask("0xsigned")))
        yield* approvalShown
        yield* (yield* EmbeddedWallet).reject
        const error = yield* Effect.flip(Fiber.join(fiber))
        expect(error).toBeInstanceOf(UserRejected)
        expect((error as UserRejected).code).toBe(4001)
        expect(ran).toEqual([])
        expect((yield* modalState).open).toBe(false)

        const modal = yield* Modal
        yield* modal.open({ view: "Account" })
        const second = yield* Effect.forkChild(frame.gate()!.approved(request(), ask("0xsecond")))
        yield* approvalShown
        yield* (yield* EmbeddedWallet).reject
        expect(yield* Effect.flip(Fiber.join(second))).toBeInstanceOf(UserRejected)
        expect(yield* view).toBe("Account")
        expect(ran).toEqual([])
      })
    )
  )

  it.effect("Back from ApproveTransaction (pushed over another view) rejects the request (4001); the next request is shown", () =>
    withFrame((frame) =>
      Effect.gen(function* () {
        yield* loggedIn
        const modal = yield* Modal
        yield* modal.open({ view: "Account" })
        const { ran, ask } = asking()
        const fiber = yield* Effect.forkChild(frame.gate()!.approved(request(), ask("0xsigned")))
        yield* approvalShown
        yield* modal.goBack
        const error = yield* Effect.flip(Fiber.join(fiber))
        expect(error).toBeInstanceOf(UserRejected)
        expect(ran).toEqual([])
        expect(yield* view).toBe("Account")
        expect((yield* modalState).transactionStack).toHaveLength(0)
        expect((yield* embeddedState).approval).toBeUndefined()

        const next = yield* Effect.forkChild(frame.gate()!.approved(request(), ask("0xnext")))
        yield* approvalShown
        yield* (yield* EmbeddedWallet).approve
        expect(yield* Fiber.join(next)).toBe("0xnext")
        expect(yield* view).toBe("Account")
      })
    )
  )

  it.effect("closing the modal while the visitor decides rejects the request (4001), the ask never runs", () =>
    withFrame((frame) =>
      Effect.gen(function* () {
        yield* loggedIn
        const { ran, ask } = asking()
        const fiber = yield* Effect.forkChild(frame.gate()!.approved(request(), ask("0xsigned")))
        yield* approvalShown
        yield* (yield* Modal).close
        const exit = yield* Fiber.await(fiber)
        expect(Exit.isFailure(exit)).toBe(true)
        const error = yield* Effect.flip(Fiber.join(fiber))
        expect(error).toBeInstanceOf(UserRejected)
        expect((error as UserRejected).code).toBe(4001)
        expect(ran).toEqual([])
        expect((yield* embeddedState).approval).toBeUndefined()
      })
    )
  )

  it.effect("two requests at once: the second is shown only once the first ended", () =>
    withFrame((frame) =>
      Effect.gen(function* () {
        yield* loggedIn
        const wallet = yield* EmbeddedWallet
        const { ran, ask } = asking()
        const first = yield* Effect.forkChild(frame.gate()!.approved(request(), ask("first")))
        const shown = yield* approvalShown
        const second = yield* Effect.forkChild(frame.gate()!.approved(request("eth_sendTransaction"), ask("second")))
        yield* settle
        expect((yield* embeddedState).approval?.id).toBe(shown.approval!.id)
        expect((yield* embeddedState).approval?.method).toBe("personal_sign")
        expect(second.pollUnsafe()).toBeUndefined()

        yield* wallet.approve
        expect(yield* Fiber.join(first)).toBe("first")
        const next = yield* approvalShown
        expect(next.approval?.method).toBe("eth_sendTransaction")
        expect(next.approval!.id).toBeGreaterThan(shown.approval!.id)
        expect(yield* view).toBe("ApproveTransaction")
        expect(ran).toEqual(["first"])
        yield* wallet.approve
        expect(yield* Fiber.join(second)).toBe("second")
        expect(ran).toEqual(["first", "second"])
      })
    )
  )

  it.effect("a disallowed method takes the modal's not-allowed path: RpcMethodNotAllowed after 300 ms", () =>
    withFrame((frame) =>
      Effect.gen(function* () {
        yield* loggedIn
        const fiber = yield* Effect.forkChild(frame.gate()!.disallowed("eth_sign"))
        yield* settle
        expect((yield* modalState).open).toBe(true)
        yield* TestClock.adjust(299)
        expect(fiber.pollUnsafe()).toBeUndefined()
        yield* TestClock.adjust(1)
        const error = yield* Effect.flip(Fiber.join(fiber))
        expect(error).toBeInstanceOf(RpcMethodNotAllowed)
        expect(error.message).toBe("Requested RPC call is not allowed")
      })
    )
  )
})

describe("the AUTH connector's EIP-1193 provider", () => {
  /** The provider the AUTH connector handed the eip155 family. */
  const provider = Effect.gen(function* () {
    const session = yield* (yield* Connection).session("eip155")
    const live = Option.getOrThrow(session)
    if (live.provider.namespace !== "eip155") throw new Error("not an EIP-1193 provider")
    return live.provider.provider
  })
  const call = (method: string, params?: unknown) =>
    Effect.flatMap(provider, (p) =>
      Effect.tryPromise({ try: () => p.request(params === undefined ? { method } : { method, params }), catch: (error) => error as Error & { readonly code?: number } })
    )
  const rpcPosts = (frame: ScriptedFrame) => frame.posted.filter((post) => post.name === "RPC_REQUEST").map((post) => post.payload)

  it.effect("a safe method goes to the frame at once, without the modal", () =>
    withFrame((frame) =>
      Effect.gen(function* () {
        yield* loggedIn
        expect(yield* call("eth_blockNumber")).toBe("result of eth_blockNumber")
        expect(rpcPosts(frame)).toEqual([{ method: "eth_blockNumber" }])
        expect((yield* modalState).open).toBe(false)
        expect(yield* call("eth_accounts")).toEqual([FRAME_ADDRESS])
        expect(yield* call("eth_chainId")).toBe("0x7a69")
      })
    )
  )

  it.effect("an unsafe method waits for ApproveTransaction, then goes to the frame; rejected, the frame is never asked (4001)", () =>
    withFrame((frame) =>
      Effect.gen(function* () {
        yield* loggedIn
        const signing = yield* Effect.forkChild(call("personal_sign", ["0x68656c6c6f", FRAME_ADDRESS]))
        const shown = yield* modalUntil((m) => m.open && currentRoute(m).view === "ApproveTransaction").pipe(
          Effect.andThen(embeddedUntil((s) => s.approval !== undefined))
        )
        expect(shown.approval?.summary).toEqual({ _tag: "Message", text: "hello" })
        expect(rpcPosts(frame)).toEqual([])
        yield* (yield* EmbeddedWallet).approve
        expect(yield* Fiber.join(signing)).toBe("result of personal_sign")
        expect(rpcPosts(frame)).toEqual([{ method: "personal_sign", params: ["0x68656c6c6f", FRAME_ADDRESS] }])

        const refused = yield* Effect.forkChild(call("personal_sign", ["0x68656c6c6f", FRAME_ADDRESS]))
        yield* modalUntil((m) => m.open && currentRoute(m).view === "ApproveTransaction")
        yield* embeddedUntil((s) => s.approval !== undefined)
        yield* (yield* EmbeddedWallet).reject
        const error = yield* Effect.flip(Fiber.join(refused))
        expect(error.code).toBe(4001)
        expect(rpcPosts(frame)).toHaveLength(1)
      })
    )
  )

  // The TestClock starts at 0: a week from then is a future expiry, 0 a past one.
  const WEEK = 604_800
  const permissionRequest = (expiry: number, periodAmount: unknown = "0x2386f26fc10000") => [
    [{ chainId: "0x7a69", expiry, permission: { type: "native-token-periodic", data: { periodAmount, periodDuration: 86_400, justification: "Coffee" } } }]
  ]

  it.effect("a permission request is shown in words (what, how much, how often, until when), then goes to the frame", () =>
    withFrame((frame) =>
      Effect.gen(function* () {
        yield* loggedIn
        const granting = yield* Effect.forkChild(call("wallet_requestExecutionPermissions", permissionRequest(WEEK)))
        const shown = yield* embeddedUntil((s) => s.approval !== undefined)
        const until = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" }).format(new Date(WEEK * 1000))
        expect(shown.approval?.summary).toEqual({
          _tag: "Permissions",
          grant: true,
          permissions: [
            {
              sentence: `This site may spend up to 0.01 ETH per day from your account, without asking again, until ${until}.`,
              token: "ETH",
              amount: "Up to 0.01 ETH per day",
              until,
              reason: "Coffee"
            }
          ]
        })
        expect(rpcPosts(frame)).toEqual([])
        yield* (yield* EmbeddedWallet).approve
        expect(yield* Fiber.join(granting)).toBe("result of wallet_requestExecutionPermissions")
        expect(rpcPosts(frame)).toEqual([{ method: "wallet_requestExecutionPermissions", params: permissionRequest(WEEK) }])
      })
    )
  )

  it.effect("a bad permission request is refused before approval with its reason (-32602): the modal stays shut, the frame is never asked", () =>
    withFrame((frame) =>
      Effect.gen(function* () {
        yield* loggedIn
        const past = yield* Effect.flip(call("wallet_requestExecutionPermissions", permissionRequest(0)))
        expect([past.code, past.message]).toEqual([-32602, "The permission's expiry is in the past"])
        const zero = yield* Effect.flip(call("wallet_grantPermissions", permissionRequest(WEEK, "0x0")))
        expect(zero.message).toBe("The permission's periodAmount must be more than zero")
        expect((yield* modalState).open).toBe(false)
        expect(rpcPosts(frame)).toEqual([])
      })
    )
  )

  it.effect("a send carrying a permission's context goes to the frame at once (the wallet server checks the grant); a revoke names the grant it ends", () =>
    withFrame((frame) =>
      Effect.gen(function* () {
        yield* loggedIn
        const context = `0x${"12".repeat(32)}`
        const use = [{ to: FRAME_ADDRESS, value: "0x1", permissionsContext: context }]
        expect(yield* call("eth_sendTransaction", use)).toBe("result of eth_sendTransaction")
        expect((yield* modalState).open).toBe(false)
        const granted = { ...permissionRequest(WEEK)[0]![0], context }
        frame.answer("RPC_REQUEST", (payload) =>
          ({ ok: (payload as { method: string }).method === "wallet_getGrantedExecutionPermissions" ? [granted] : "revoked" })
        )
        const unknown = yield* Effect.flip(call("wallet_revokeExecutionPermission", [{ permissionContext: `0x${"34".repeat(32)}` }]))
        expect(unknown.message).toBe("This site has no active permission with that context")
        const revoking = yield* Effect.forkChild(call("wallet_revokeExecutionPermission", [{ permissionContext: context }]))
        const shown = yield* embeddedUntil((s) => s.approval !== undefined)
        expect(shown.approval?.summary).toMatchObject({ _tag: "Permissions", grant: false, permissions: [{ amount: "Up to 0.01 ETH per day" }] })
        yield* (yield* EmbeddedWallet).approve
        expect(yield* Fiber.join(revoking)).toBe("revoked")
        expect(rpcPosts(frame).map((post) => (post as { method: string }).method)).toEqual([
          "eth_sendTransaction",
          "wallet_getGrantedExecutionPermissions",
          "wallet_getGrantedExecutionPermissions",
          "wallet_revokeExecutionPermission"
        ])
      })
    )
  )

  it.effect("a method nobody may call is refused with the not-allowed words (4200) after 300 ms, the frame never asked", () =>
    withFrame((frame) =>
      Effect.gen(function* () {
        yield* loggedIn
        const refused = yield* Effect.forkChild(call("eth_sign", [FRAME_ADDRESS, "0x00"]))
        yield* modalUntil((m) => m.open)
        yield* TestClock.adjust(300)
        const error = yield* Effect.flip(Fiber.join(refused))
        expect(error.code).toBe(4200)
        expect(error.message).toBe("Requested RPC call is not allowed")
        expect(rpcPosts(frame)).toEqual([])
      })
    )
  )

  it.effect("wallet_switchEthereumChain moves the frame (SWITCH_NETWORK, GET_USER) and the connection follows the chain", () =>
    withFrame((frame) =>
      Effect.gen(function* () {
        yield* loggedIn
        expect(yield* call("wallet_switchEthereumChain", [{ chainId: "0x7a6a" }])).toBeNull()
        expect(frame.posted.slice(-2).map((post) => [post.name, post.payload])).toEqual([
          ["SWITCH_NETWORK", { chainId: 31338 }],
          ["GET_USER", { chainId: 31338 }]
        ])
        const connection = yield* Connection
        // The connection applies a wallet's events once it has been quiet 50 ms.
        yield* settle
        yield* TestClock.adjust(50)
        yield* SubscriptionRef.changes(connection.state).pipe(
          Stream.filter((s) => s.namespaces.eip155?.account.caipAddress === `${localChainB.caipNetworkId}:${FRAME_ADDRESS}`),
          Stream.runHead
        )
        expect(yield* call("eth_chainId")).toBe("0x7a6a")
        const unknown = yield* Effect.flip(call("wallet_switchEthereumChain", [{ chainId: "0x1" }]))
        expect(unknown.code).toBe(4902)
      })
    )
  )
})

describe("EmbeddedWallet without email login", () => {
  it.effect("a host without the AUTH connector: not enabled, and every method does nothing", () =>
    Effect.gen(function* () {
      const wallet = yield* EmbeddedWallet
      const before = yield* SubscriptionRef.get(wallet.state)
      expect(before.enabled).toBe(false)
      yield* wallet.submitEmail(EMAIL)
      yield* wallet.submitEmail("ada@")
      yield* wallet.resend
      yield* wallet.submitOtp("123456")
      yield* wallet.startEmailUpdate("grace@example.com")
      yield* wallet.approve
      yield* wallet.reject
      expect(yield* SubscriptionRef.get(wallet.state)).toEqual(before)
      expect((yield* SubscriptionRef.get((yield* Modal).state)).open).toBe(false)
    }).pipe(Effect.provide(embeddedCore(options)))
  )
})
