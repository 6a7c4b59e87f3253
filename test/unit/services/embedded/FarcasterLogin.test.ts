/**
 * The embedded wallet's Farcaster login over the runtime's real core and the real AUTH connector on a scripted frame:
 * the click shows ConnectingFarcaster with the frame's channel link; CONNECT_FARCASTER is asked again while it
 * answers `pending`; the user's name connects the wallet, keeps the login (provider farcaster), fills the account
 * state's `socialProvider` and `user` (useAccount's) and closes the modal;
 * a link nobody signs expires (TestClock) with Try again; the frame's refusal is said; leaving the view stops asking.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Fiber, Option, Stream, SubscriptionRef } from "effect"
import { TestClock } from "effect/testing"
import { localChainA } from "../../../../src/domain/networks"
import { decodeOptionsSync } from "../../../../src/domain/Options"
import { Connection } from "../../../../src/services/Connection"
import { EmbeddedWallet, type EmbeddedState } from "../../../../src/services/Embedded/EmbeddedWallet"
import { currentRoute, Modal } from "../../../../src/services/Modal"
import * as Keys from "../../../../src/services/Storage/keys"
import { Storage } from "../../../../src/services/Storage/Storage"
import { embeddedCore, FRAME_ADDRESS, makeScriptedFrame, type ScriptedFrame } from "./scriptedFrame"

const FRAME = "https://frame.test"
const LINK = "farcaster://connect?channelToken=t1&nonce=n0nce1234&domain=frame.test&siweUri=https%3A%2F%2Fframe.test%2F"
const options = decodeOptionsSync({ projectId: "p", networks: [localChainA], features: { email: false }, endpoints: { frame: FRAME } })

const withFarcaster = <A, E>(body: (frame: ScriptedFrame) => Effect.Effect<A, E, EmbeddedWallet | Modal | Connection | Storage>) =>
  Effect.gen(function* () {
    const frame = yield* makeScriptedFrame
    frame.answer("GET_FARCASTER_URI", () => ({ ok: { url: LINK, expiresAt: 5 * 60_000 } }))
    frame.answer("GET_USER", () => ({ ok: { address: FRAME_ADDRESS, chainId: 31337, accounts: [{ address: FRAME_ADDRESS, type: "eoa" }], email: null, username: "alice", socialProvider: "farcaster" } }))
    return yield* Effect.provide(body(frame), embeddedCore(options, frame))
  })

const until = (condition: (state: EmbeddedState) => boolean) =>
  Effect.flatMap(EmbeddedWallet, (wallet) => SubscriptionRef.changes(wallet.state).pipe(Stream.filter(condition), Stream.runHead, Effect.map(Option.getOrThrow)))

const settle = Effect.forEach(Array.from({ length: 50 }), () => Effect.yieldNow, { discard: true })

const view = Effect.flatMap(Modal, (modal) => Effect.map(SubscriptionRef.get(modal.state), (m) => (m.open ? currentRoute(m).view : undefined)))

describe("Farcaster login", () => {
  it.effect("shows the link, asks again while pending, then connects the user, keeps the login and closes the modal", () =>
    withFarcaster((frame) =>
      Effect.gen(function* () {
        const answers: Array<unknown> = [{ pending: true }, { pending: true }, { userName: "alice" }]
        frame.answer("CONNECT_FARCASTER", () => ({ ok: answers.shift() }))
        yield* (yield* Modal).open({ view: "Connect" })
        yield* (yield* EmbeddedWallet).connectFarcaster
        expect(yield* view).toBe("ConnectingFarcaster")
        // Asked again a second after each `pending`.
        for (const _ of [1, 2]) {
          yield* settle
          yield* TestClock.adjust(1_000)
        }
        const done = yield* until((s) => s.socialUser !== undefined)
        expect(done.socialUser).toEqual({ provider: "farcaster", username: "alice" })
        expect(frame.names().filter((name) => name === "CONNECT_FARCASTER")).toHaveLength(3)
        expect(yield* (yield* Storage).get(Keys.embeddedLogin)).toMatchObject({ socialUsername: "alice", socialProvider: "farcaster" })
        yield* Effect.flatMap(Modal, (modal) => SubscriptionRef.changes(modal.state).pipe(Stream.filter((m) => !m.open), Stream.runHead))
        // Spec 3's account state: the provider and the user, as useAccount() gives them.
        const connection = yield* Connection
        const account = yield* SubscriptionRef.changes(connection.state).pipe(
          Stream.map((c) => c.namespaces.eip155?.account),
          Stream.filter((a) => a?.user?.username === "alice"),
          Stream.runHead,
          Effect.map(Option.getOrThrow)
        )
        expect(account).toMatchObject({ address: FRAME_ADDRESS, socialProvider: "farcaster", user: { email: null, username: "alice" } })
        // Signed out: the account state forgets them.
        yield* connection.disconnect()
        const after = (yield* SubscriptionRef.get(connection.state)).namespaces.eip155?.account
        expect(after?.socialProvider).toBeUndefined()
        expect(after?.user).toBeUndefined()
      })
    )
  )

  it.effect("a link nobody signs expires with its time, not a moment before; Try again gets a new one", () =>
    withFarcaster((frame) =>
      Effect.gen(function* () {
        frame.answer("CONNECT_FARCASTER", () => ({ ok: { pending: true } }))
        yield* (yield* Modal).open({ view: "Connect" })
        yield* (yield* EmbeddedWallet).connectFarcaster
        yield* until((s) => s.farcaster._tag === "Waiting")
        // Every `pending` answer comes at once here: asked each second until the link's time is up.
        for (let second = 1; second < 300; second++) {
          yield* settle
          yield* TestClock.adjust(1_000)
        }
        yield* settle
        yield* TestClock.adjust(999)
        yield* settle
        expect((yield* SubscriptionRef.get((yield* EmbeddedWallet).state)).farcaster._tag).toBe("Waiting")
        yield* TestClock.adjust(1)
        const expired = yield* until((s) => s.farcaster._tag === "Failed")
        expect(expired.farcaster).toEqual({ _tag: "Failed", expired: true, message: "The sign-in link expired before it was signed: try again for a new one." })
        frame.answer("CONNECT_FARCASTER", () => "hold")
        yield* (yield* EmbeddedWallet).connectFarcaster
        yield* until((s) => s.farcaster._tag === "Waiting")
        expect(frame.names().filter((name) => name === "GET_FARCASTER_URI")).toHaveLength(2)
      })
    )
  )

  it.effect("the click's action ending (the Connect view unmounted by the view change) does not stop the sign-in", () =>
    withFarcaster((frame) =>
      Effect.gen(function* () {
        frame.answer("GET_FARCASTER_URI", () => "hold")
        frame.answer("CONNECT_FARCASTER", () => "hold")
        yield* (yield* Modal).open({ view: "Connect" })
        const click = yield* Effect.forkChild((yield* EmbeddedWallet).connectFarcaster)
        yield* until((s) => s.farcaster._tag === "Starting")
        yield* settle
        yield* Fiber.interrupt(click)
        frame.release("GET_FARCASTER_URI", { ok: { url: LINK, expiresAt: 5 * 60_000 } })
        const waiting = yield* until((s) => s.farcaster._tag === "Waiting")
        expect(waiting.farcaster).toEqual({ _tag: "Waiting", url: LINK, expiresAt: 5 * 60_000 })
        expect(yield* view).toBe("ConnectingFarcaster")
      })
    )
  )

  it.effect("the frame's refusal is said in its words, and nothing connects", () =>
    withFarcaster((frame) =>
      Effect.gen(function* () {
        frame.answer("CONNECT_FARCASTER", () => ({ error: "The Farcaster sign-in expired: try again" }))
        yield* (yield* Modal).open({ view: "Connect" })
        yield* (yield* EmbeddedWallet).connectFarcaster
        const failed = yield* until((s) => s.farcaster._tag === "Failed")
        expect(failed.farcaster).toEqual({ _tag: "Failed", expired: true, message: "The Farcaster sign-in expired: try again" })
        expect(failed.socialUser).toBeUndefined()
        expect(frame.names()).not.toContain("GET_USER")
      })
    )
  )

  it.effect("leaving the view stops the wait: the frame is asked nothing more", () =>
    withFarcaster((frame) =>
      Effect.gen(function* () {
        frame.answer("CONNECT_FARCASTER", () => "hold")
        const modal = yield* Modal
        yield* modal.open({ view: "Connect" })
        yield* (yield* EmbeddedWallet).connectFarcaster
        yield* until((s) => s.farcaster._tag === "Waiting")
        yield* settle
        yield* modal.goBack
        yield* until((s) => s.farcaster._tag === "Idle")
        const asked = frame.names().filter((name) => name === "CONNECT_FARCASTER").length
        frame.release("CONNECT_FARCASTER", { ok: { userName: "alice" } })
        yield* TestClock.adjust(60_000)
        yield* settle
        expect(frame.names().filter((name) => name === "CONNECT_FARCASTER")).toHaveLength(asked)
        expect((yield* SubscriptionRef.get((yield* EmbeddedWallet).state)).socialUser).toBeUndefined()
      })
    )
  )
})
