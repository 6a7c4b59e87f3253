/**
 * The host side of the embedded-wallet frame protocol over a fake port (Queues, no DOM): the READY gate, id-matched
 * replies, time-outs under TestClock, and hostile traffic — foreign origins and windows, replays, unknown ids,
 * malformed payloads, and 10,000 fuzzed messages among real requests — that must never answer a request wrongly.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Fiber, Queue, References, Scope, Stream } from "effect"
import { TestClock } from "effect/testing"
import fc from "fast-check"
import { LOGIN_STEP_TIMEOUT_MS } from "../../../src/domain/constants"
import { FrameError, FrameLoadTimedOut, FrameNotSet, FrameStepTimedOut } from "../../../src/domain/errors"
import { FRAME_REQUEST_NAMES, type FrameRequestName } from "../../../src/domain/Frame"
import {
  FRAME_LOAD_TIMEOUT_MS,
  FRAME_LOGIN_STEPS,
  FRAME_RPC_TIMEOUT_MS,
  FrameBridge,
  type FrameBridgeService,
  type FrameMessage,
  frameRequestTimeoutMs
} from "../../../src/services/FrameBridge/FrameBridge"
import { browserFramePort } from "../../../src/services/FrameBridge/browserPort"

const FRAME = "https://frame.example"
const frameWindow = { frame: true }
const otherWindow = { frame: false }

interface Posted {
  readonly id: string
  readonly type: string
  readonly payload?: unknown
}

interface FakeFrame {
  readonly bridge: FrameBridgeService
  /** Everything posted to the frame, in order. */
  readonly posted: Array<Posted>
  /** Waits for the next post. */
  readonly nextPost: Effect.Effect<Posted>
  /** Delivers a message event to the page, from the frame unless `from` says another origin or window. */
  readonly deliver: (data: unknown, from?: { readonly origin?: string; readonly source?: unknown }) => Effect.Effect<void>
}

const fakeFrame: Effect.Effect<FakeFrame, never, Scope.Scope> = Effect.gen(function* () {
  const inbox = yield* Queue.unbounded<FrameMessage>()
  const posts = yield* Queue.unbounded<Posted>()
  const posted: Array<Posted> = []
  const bridge = yield* FrameBridge.make({
    origin: FRAME,
    window: frameWindow,
    post: (message) => {
      posted.push(message as Posted)
      Queue.offerUnsafe(posts, message as Posted)
    },
    messages: Stream.fromQueue(inbox),
    reveal: () => Effect.void
  })
  return {
    bridge,
    posted,
    nextPost: Queue.take(posts),
    deliver: (data, from = {}) =>
      Queue.offer(inbox, {
        origin: from.origin ?? FRAME,
        // `source: undefined` is a foreign window too, so only a missing key means the frame.
        source: "source" in from ? from.source : frameWindow,
        data
      }).pipe(Effect.asVoid)
  }
})

/** Lets the bridge's listener and sender fibers run. */
const settle = Effect.forEach(Array.from({ length: 25 }), () => Effect.yieldNow, { discard: true })

const READY = { type: "@wr-frame/READY" }
const success = (id: string, name: FrameRequestName, payload?: unknown) =>
  payload === undefined ? { id, type: `@wr-frame/${name}_SUCCESS` } : { id, type: `@wr-frame/${name}_SUCCESS`, payload }
const failure = (id: string, name: FrameRequestName, message: string) => ({
  id,
  type: `@wr-frame/${name}_ERROR`,
  payload: { message }
})

/** A frame that said READY and a request of GET_CHAIN_ID already posted. */
const readyWithChainIdRequest = Effect.gen(function* () {
  const frame = yield* fakeFrame
  yield* frame.deliver(READY)
  const fiber = yield* Effect.forkChild(frame.bridge.request("GET_CHAIN_ID"))
  const post = yield* frame.nextPost
  return { ...frame, fiber, id: post.id }
})

describe("FrameBridge", () => {
  it.effect("the browser port imports without a DOM and, on a server, is FrameNotSet instead of touching window", () =>
    Effect.gen(function* () {
      expect(typeof window).toBe("undefined")
      const error = yield* Effect.flip(
        browserFramePort({ frameUrl: FRAME, projectId: "p", chainId: 1, version: "1", enableLogger: false })
      )
      expect(error).toBeInstanceOf(FrameNotSet)
    }).pipe(Effect.scoped)
  )

  describe("READY gate", () => {
    it.effect("posts nothing before READY, then the waiting requests in the order they were made", () =>
      Effect.gen(function* () {
        const frame = yield* fakeFrame
        const email = yield* Effect.forkChild(frame.bridge.request("CONNECT_EMAIL", { email: "ada@example.com" }))
        yield* settle
        const chain = yield* Effect.forkChild(frame.bridge.request("GET_CHAIN_ID"))
        yield* settle
        const user = yield* Effect.forkChild(frame.bridge.request("GET_USER", { chainId: 1 }))
        yield* settle
        expect(frame.posted).toEqual([])

        yield* frame.deliver(READY)
        const first = yield* frame.nextPost
        const second = yield* frame.nextPost
        const third = yield* frame.nextPost
        expect([first.type, second.type, third.type]).toEqual(["@wr-app/CONNECT_EMAIL", "@wr-app/GET_CHAIN_ID", "@wr-app/GET_USER"])
        expect(first.payload).toEqual({ email: "ada@example.com" })
        expect(second).not.toHaveProperty("payload")
        expect(third.payload).toEqual({ chainId: 1 })
        for (const post of [first, second, third]) expect(post.id).toMatch(/^[-_A-Za-z0-9]{1,64}$/)
        expect(new Set([first.id, second.id, third.id]).size).toBe(3)

        yield* frame.deliver(success(first.id, "CONNECT_EMAIL", { action: "VERIFY_OTP" }))
        yield* frame.deliver(success(second.id, "GET_CHAIN_ID", { chainId: 10 }))
        expect(yield* Fiber.join(email)).toEqual({ action: "VERIFY_OTP" })
        expect(yield* Fiber.join(chain)).toEqual({ chainId: 10 })
        yield* Fiber.interrupt(user)
      })
    )

    it.effect("READY without an id opens the gate", () =>
      Effect.gen(function* () {
        const frame = yield* fakeFrame
        const ready = yield* Effect.forkChild(frame.bridge.ready)
        yield* settle
        expect(ready.pollUnsafe()).toBeUndefined()
        yield* frame.deliver({ type: "@wr-frame/READY", payload: { version: "1.0.0" } })
        yield* Fiber.join(ready)
        const request = yield* Effect.forkChild(frame.bridge.request("IS_CONNECTED"))
        const post = yield* frame.nextPost
        yield* frame.deliver(success(post.id, "IS_CONNECTED", { isConnected: true }))
        expect(yield* Fiber.join(request)).toEqual({ isConnected: true })
      })
    )

    it.effect("READY with an id opens the gate too", () =>
      Effect.gen(function* () {
        const frame = yield* fakeFrame
        const request = yield* Effect.forkChild(frame.bridge.request("IS_CONNECTED"))
        yield* settle
        expect(frame.posted).toEqual([])
        yield* frame.deliver({ id: "ready-1", type: "@wr-frame/READY" })
        const post = yield* frame.nextPost
        yield* frame.deliver(success(post.id, "IS_CONNECTED", { isConnected: false }))
        expect(yield* Fiber.join(request)).toEqual({ isConnected: false })
      })
    )

    it.effect("a READY from a foreign origin or window, or a malformed one, does not open the gate", () =>
      Effect.gen(function* () {
        const frame = yield* fakeFrame
        const ready = yield* Effect.forkChild(frame.bridge.ready)
        yield* frame.deliver(READY, { origin: "https://frame.example.evil" })
        yield* frame.deliver(READY, { origin: "null" })
        yield* frame.deliver(READY, { source: otherWindow })
        yield* frame.deliver(READY, { source: null })
        yield* frame.deliver({ type: "@wr-frame/READY", extra: 1 })
        yield* frame.deliver({ id: "has spaces", type: "@wr-frame/READY" })
        yield* settle
        expect(ready.pollUnsafe()).toBeUndefined()
        yield* frame.deliver(READY)
        yield* Fiber.join(ready)
      })
    )
  })

  describe("replies", () => {
    it.effect("each of two requests gets its own reply when the replies come in reverse order", () =>
      Effect.gen(function* () {
        const frame = yield* fakeFrame
        yield* frame.deliver(READY)
        const first = yield* Effect.forkChild(frame.bridge.request("GET_CHAIN_ID"))
        const firstPost = yield* frame.nextPost
        const second = yield* Effect.forkChild(frame.bridge.request("GET_CHAIN_ID"))
        const secondPost = yield* frame.nextPost
        yield* frame.deliver(success(secondPost.id, "GET_CHAIN_ID", { chainId: 2 }))
        expect(yield* Fiber.join(second)).toEqual({ chainId: 2 })
        yield* settle
        expect(first.pollUnsafe()).toBeUndefined()
        yield* frame.deliver(success(firstPost.id, "GET_CHAIN_ID", { chainId: 1 }))
        expect(yield* Fiber.join(first)).toEqual({ chainId: 1 })
      })
    )

    it.effect("a reply without payload resolves to undefined; an RPC result is passed through", () =>
      Effect.gen(function* () {
        const frame = yield* fakeFrame
        yield* frame.deliver(READY)
        const signOut = yield* Effect.forkChild(frame.bridge.request("SIGN_OUT"))
        const signOutPost = yield* frame.nextPost
        yield* frame.deliver(success(signOutPost.id, "SIGN_OUT"))
        expect(yield* Fiber.join(signOut)).toBeUndefined()

        const rpc = yield* Effect.forkChild(frame.bridge.request("RPC_REQUEST", { method: "eth_blockNumber", params: [] }))
        const rpcPost = yield* frame.nextPost
        expect(rpcPost.payload).toEqual({ method: "eth_blockNumber", params: [] })
        yield* frame.deliver(success(rpcPost.id, "RPC_REQUEST", "0x2a"))
        expect(yield* Fiber.join(rpc)).toBe("0x2a")
      })
    )

    it.effect("an _ERROR reply fails with the frame's message; an empty one with 'An error occurred'", () =>
      Effect.gen(function* () {
        const frame = yield* fakeFrame
        yield* frame.deliver(READY)
        const otp = yield* Effect.forkChild(frame.bridge.request("CONNECT_OTP", { otp: "123456" }))
        const otpPost = yield* frame.nextPost
        yield* frame.deliver(failure(otpPost.id, "CONNECT_OTP", "Invalid code"))
        const error = yield* Effect.flip(Fiber.join(otp))
        expect(error).toBeInstanceOf(FrameError)
        expect(error.message).toBe("Invalid code")

        const user = yield* Effect.forkChild(frame.bridge.request("GET_USER", {}))
        const userPost = yield* frame.nextPost
        yield* frame.deliver(failure(userPost.id, "GET_USER", ""))
        const empty = yield* Effect.flip(Fiber.join(user))
        expect(empty).toBeInstanceOf(FrameError)
        expect(empty.message).toBe("An error occurred")

        // Without any payload at all, the same words (spec 7.1: 'An error occurred' for an error without a message).
        const chain = yield* Effect.forkChild(frame.bridge.request("GET_CHAIN_ID"))
        const chainPost = yield* frame.nextPost
        yield* frame.deliver({ id: chainPost.id, type: "@wr-frame/GET_CHAIN_ID_ERROR" })
        const bare = yield* Effect.flip(Fiber.join(chain))
        expect(bare).toBeInstanceOf(FrameError)
        expect(bare.message).toBe("An error occurred")
      })
    )

    it.effect("an _ERROR reply's refusal for now keeps its code and wait on the FrameError; a reply with an unknown code is dropped", () =>
      Effect.gen(function* () {
        const frame = yield* fakeFrame
        yield* frame.deliver(READY)
        const email = yield* Effect.forkChild(frame.bridge.request("CONNECT_EMAIL", { email: "ada@example.com" }))
        const post = yield* frame.nextPost
        const words = "Please try again after 12 seconds"
        // A code the protocol does not define: the strict decoder drops the reply, the request still waits.
        yield* frame.deliver({ id: post.id, type: "@wr-frame/CONNECT_EMAIL_ERROR", payload: { message: words, code: "cooldown", retryAfterSeconds: 12 } })
        yield* frame.deliver({ id: post.id, type: "@wr-frame/CONNECT_EMAIL_ERROR", payload: { message: words, code: "email_rate_limited", retryAfterSeconds: 12 } })
        const error = yield* Effect.flip(Fiber.join(email))
        expect(error).toBeInstanceOf(FrameError)
        expect(error).toMatchObject({ message: words, code: "email_rate_limited", retryAfterSeconds: 12 })
      })
    )

    it.effect("a payload that does not encode is a FrameError and nothing is posted", () =>
      Effect.gen(function* () {
        const frame = yield* fakeFrame
        yield* frame.deliver(READY)
        const badEmail = yield* Effect.flip(frame.bridge.request("CONNECT_EMAIL", { email: "not an email" }))
        expect(badEmail).toBeInstanceOf(FrameError)
        const extraKey = yield* Effect.flip(
          frame.bridge.request("SWITCH_NETWORK", { chainId: 1, injected: true } as unknown as { chainId: number })
        )
        expect(extraKey).toBeInstanceOf(FrameError)
        yield* settle
        expect(frame.posted).toEqual([])
      })
    )

    it.effect("a request whose message cannot be posted fails with a FrameError", () =>
      Effect.gen(function* () {
        const inbox = yield* Queue.unbounded<FrameMessage>()
        const bridge = yield* FrameBridge.make({
          origin: FRAME,
          window: frameWindow,
          post: () => {
            throw new Error("DataCloneError")
          },
          messages: Stream.fromQueue(inbox),
          reveal: () => Effect.void
        })
        yield* Queue.offer(inbox, { origin: FRAME, source: frameWindow, data: READY })
        const error = yield* Effect.flip(bridge.request("RPC_REQUEST", { method: "eth_call", params: [] }))
        expect(error).toBeInstanceOf(FrameError)
        expect(error.message).toBe("The request could not be sent to the embedded wallet.")
      })
    )

    it.effect("SESSION_UPDATE tokens reach subscribers; they answer no request", () =>
      Effect.gen(function* () {
        const frame = yield* readyWithChainIdRequest
        const tokens = yield* Effect.forkChild(Stream.runCollect(Stream.take(frame.bridge.sessionUpdates, 1)))
        yield* settle
        yield* frame.deliver({ type: "@wr-frame/SESSION_UPDATE", payload: { token: "t-1" } }, { origin: "https://frame.example.evil" })
        yield* frame.deliver({ type: "@wr-frame/SESSION_UPDATE", payload: { token: "t-2" } })
        expect(yield* Fiber.join(tokens)).toEqual(["t-2"])
        expect(frame.fiber.pollUnsafe()).toBeUndefined()
      })
    )
  })

  describe("time-outs", () => {
    it("bounds: login steps 30000 ms, RPC 120 s, every other request 30000 ms", () => {
      expect(LOGIN_STEP_TIMEOUT_MS).toBe(30_000)
      for (const name of FRAME_LOGIN_STEPS) expect(frameRequestTimeoutMs(name)).toBe(30_000)
      expect(frameRequestTimeoutMs("RPC_REQUEST")).toBe(120_000)
      expect(FRAME_RPC_TIMEOUT_MS).toBe(120_000)
      for (const name of FRAME_REQUEST_NAMES) expect(frameRequestTimeoutMs(name)).toBeGreaterThan(0)
      expect(frameRequestTimeoutMs("GET_USER")).toBe(30_000)
      expect(frameRequestTimeoutMs("OPEN_SECURE_VIEW")).toBe(600_000)
    })

    it.effect("a login step the frame does not answer fails at 30000 ms, not at 29999", () =>
      Effect.gen(function* () {
        const frame = yield* fakeFrame
        yield* frame.deliver(READY)
        const otp = yield* Effect.forkChild(frame.bridge.request("CONNECT_OTP", { otp: "123456" }))
        const post = yield* frame.nextPost
        yield* TestClock.adjust("29999 millis")
        expect(otp.pollUnsafe()).toBeUndefined()
        yield* TestClock.adjust("1 millis")
        const error = yield* Effect.flip(Fiber.join(otp))
        expect(error).toBeInstanceOf(FrameStepTimedOut)
        expect(error).toMatchObject({ request: "CONNECT_OTP", timeoutMs: 30_000 })
        expect(error.message).toBe("The embedded wallet did not answer in time. Please try again.")
        // A late reply after the time-out answers nothing and breaks nothing.
        yield* frame.deliver(success(post.id, "CONNECT_OTP"))
        const next = yield* Effect.forkChild(frame.bridge.request("IS_CONNECTED"))
        const nextPost = yield* frame.nextPost
        yield* frame.deliver(success(nextPost.id, "IS_CONNECTED", { isConnected: true }))
        expect(yield* Fiber.join(next)).toEqual({ isConnected: true })
      })
    )

    it.effect("an RPC request waits up to 120 s", () =>
      Effect.gen(function* () {
        const frame = yield* fakeFrame
        yield* frame.deliver(READY)
        const send = yield* Effect.forkChild(frame.bridge.request("RPC_REQUEST", { method: "eth_sendTransaction", params: [] }))
        yield* frame.nextPost
        yield* TestClock.adjust("119999 millis")
        expect(send.pollUnsafe()).toBeUndefined()
        yield* TestClock.adjust("1 millis")
        expect(yield* Effect.flip(Fiber.join(send))).toMatchObject({ _tag: "FrameStepTimedOut", request: "RPC_REQUEST" })
      })
    )

    it.effect("a frame that never says READY: ready and waiting requests fail with FrameLoadTimedOut at 20 s, nothing posted", () =>
      Effect.gen(function* () {
        const frame = yield* fakeFrame
        expect(FRAME_LOAD_TIMEOUT_MS).toBe(20_000)
        const ready = yield* Effect.forkChild(frame.bridge.ready)
        const request = yield* Effect.forkChild(frame.bridge.request("GET_CHAIN_ID"))
        yield* TestClock.adjust("19999 millis")
        expect(ready.pollUnsafe()).toBeUndefined()
        expect(request.pollUnsafe()).toBeUndefined()
        yield* TestClock.adjust("1 millis")
        const loadError = yield* Effect.flip(Fiber.join(ready))
        expect(loadError).toBeInstanceOf(FrameLoadTimedOut)
        expect(loadError.message).toBe("The embedded wallet did not load in time. Please try again.")
        expect(yield* Effect.flip(Fiber.join(request))).toBeInstanceOf(FrameLoadTimedOut)
        // The bound runs from the bridge's start: a later wait fails at once.
        expect(yield* Effect.flip(frame.bridge.ready)).toBeInstanceOf(FrameLoadTimedOut)

        // A READY that comes late still opens the gate; the timed-out request is never posted.
        yield* frame.deliver(READY)
        yield* settle
        yield* frame.bridge.ready
        const late = yield* Effect.forkChild(frame.bridge.request("IS_CONNECTED"))
        const post = yield* frame.nextPost
        expect(post.type).toBe("@wr-app/IS_CONNECTED")
        expect(frame.posted).toHaveLength(1)
        yield* frame.deliver(success(post.id, "IS_CONNECTED", { isConnected: true }))
        expect(yield* Fiber.join(late)).toEqual({ isConnected: true })
      })
    )

    it.effect("an interrupted request stops waiting, and a reply to its id answers nothing", () =>
      Effect.gen(function* () {
        const frame = yield* readyWithChainIdRequest
        expect(Exit.hasInterrupts(yield* Fiber.interrupt(frame.fiber).pipe(Effect.andThen(Fiber.await(frame.fiber))))).toBe(true)
        yield* frame.deliver(success(frame.id, "GET_CHAIN_ID", { chainId: 5 }))
        const next = yield* Effect.forkChild(frame.bridge.request("GET_CHAIN_ID"))
        const post = yield* frame.nextPost
        yield* frame.deliver(success(post.id, "GET_CHAIN_ID", { chainId: 6 }))
        expect(yield* Fiber.join(next)).toEqual({ chainId: 6 })
      })
    )

    it.effect("a request interrupted before READY is never posted", () =>
      Effect.gen(function* () {
        const frame = yield* fakeFrame
        const left = yield* Effect.forkChild(frame.bridge.request("CONNECT_DEVICE"))
        const stays = yield* Effect.forkChild(frame.bridge.request("GET_CHAIN_ID"))
        yield* settle
        yield* Fiber.interrupt(left)
        yield* frame.deliver(READY)
        const post = yield* frame.nextPost
        expect(post.type).toBe("@wr-app/GET_CHAIN_ID")
        yield* settle
        expect(frame.posted).toHaveLength(1)
        yield* Fiber.interrupt(stays)
      })
    )
  })

  describe("hostile messages", () => {
    it.effect("a secure view's end that carries key material answers nothing; its plain outcome does", () =>
      Effect.gen(function* () {
        const frame = yield* fakeFrame
        yield* frame.deliver(READY)
        const fiber = yield* Effect.forkChild(frame.bridge.request("OPEN_SECURE_VIEW", { kind: "export" }))
        const post = yield* frame.nextPost
        expect(post).toEqual({ id: post.id, type: "@wr-app/OPEN_SECURE_VIEW", payload: { kind: "export" } })
        const key = `0x${"ab".repeat(32)}`
        yield* frame.deliver(success(post.id, "OPEN_SECURE_VIEW", { outcome: "done", key }))
        yield* frame.deliver(success(post.id, "OPEN_SECURE_VIEW", { outcome: key }))
        yield* frame.deliver({ id: post.id, type: "@wr-frame/EXPORT_PRIVATE_KEY_SUCCESS", payload: { key } })
        yield* settle
        expect(fiber.pollUnsafe()).toBeUndefined()
        yield* frame.deliver(success(post.id, "OPEN_SECURE_VIEW", { outcome: "done" }))
        expect(yield* Fiber.join(fiber)).toEqual({ outcome: "done" })
      }).pipe(Effect.scoped)
    )

    it.effect("a right reply from a foreign origin answers nothing", () =>
      Effect.gen(function* () {
        const frame = yield* readyWithChainIdRequest
        const reply = success(frame.id, "GET_CHAIN_ID", { chainId: 666 })
        for (const origin of [
          "https://frame.example.evil",
          "http://frame.example",
          "https://frame.example:8443",
          "https://sub.frame.example",
          "http://127.0.0.1:9",
          "null",
          "",
          "*"
        ]) {
          yield* frame.deliver(reply, { origin })
        }
        yield* settle
        expect(frame.fiber.pollUnsafe()).toBeUndefined()
        yield* frame.deliver(success(frame.id, "GET_CHAIN_ID", { chainId: 1 }))
        expect(yield* Fiber.join(frame.fiber)).toEqual({ chainId: 1 })
      })
    )

    it.effect("a right reply from the right origin but another window answers nothing", () =>
      Effect.gen(function* () {
        const frame = yield* readyWithChainIdRequest
        const reply = success(frame.id, "GET_CHAIN_ID", { chainId: 666 })
        for (const source of [otherWindow, null, undefined, { ...frameWindow }]) yield* frame.deliver(reply, { source })
        yield* settle
        expect(frame.fiber.pollUnsafe()).toBeUndefined()
        yield* frame.deliver(success(frame.id, "GET_CHAIN_ID", { chainId: 1 }))
        expect(yield* Fiber.join(frame.fiber)).toEqual({ chainId: 1 })
      })
    )

    it.effect("a success of another type, unknown ids and malformed replies with our id answer nothing", () =>
      Effect.gen(function* () {
        const frame = yield* readyWithChainIdRequest
        const id = frame.id
        const hostile: ReadonlyArray<unknown> = [
          success(id, "IS_CONNECTED", { isConnected: true }),
          failure(id, "IS_CONNECTED", "not yours"),
          success("someone-else", "GET_CHAIN_ID", { chainId: 666 }),
          failure("someone-else", "GET_CHAIN_ID", "not yours"),
          success(id, "GET_CHAIN_ID", { chainId: true }),
          success(id, "GET_CHAIN_ID"),
          success(id, "GET_CHAIN_ID", { chainId: 666, extra: 1 }),
          { ...success(id, "GET_CHAIN_ID", { chainId: 666 }), extra: 1 },
          JSON.parse(`{"id":"${id}","type":"@wr-frame/GET_CHAIN_ID_SUCCESS","payload":{"chainId":666},"__proto__":{"polluted":true}}`),
          JSON.parse(`{"id":"${id}","type":"@wr-frame/GET_CHAIN_ID_SUCCESS","payload":{"chainId":666,"__proto__":{"polluted":true}}}`),
          { id, type: "@wr-frame/GET_CHAIN_ID_ERROR", payload: { message: 7 } },
          { id: [id], type: "@wr-frame/GET_CHAIN_ID_SUCCESS", payload: { chainId: 666 } },
          { type: "@wr-frame/GET_CHAIN_ID_SUCCESS", payload: { chainId: 666 } },
          { id, type: "@wr-app/GET_CHAIN_ID" },
          { id, type: "@w3m-frame/GET_CHAIN_ID_SUCCESS", payload: { chainId: 666 } },
          JSON.stringify(success(id, "GET_CHAIN_ID", { chainId: 666 })),
          null,
          undefined,
          42,
          [success(id, "GET_CHAIN_ID", { chainId: 666 })]
        ]
        for (const data of hostile) yield* frame.deliver(data)
        yield* settle
        expect(frame.fiber.pollUnsafe()).toBeUndefined()
        expect(({} as Record<string, unknown>).polluted).toBeUndefined()
        yield* frame.deliver(success(id, "GET_CHAIN_ID", { chainId: 1 }))
        expect(yield* Fiber.join(frame.fiber)).toEqual({ chainId: 1 })
      })
    )

    it.effect("a replayed reply to an answered id changes nothing", () =>
      Effect.gen(function* () {
        const frame = yield* readyWithChainIdRequest
        yield* frame.deliver(success(frame.id, "GET_CHAIN_ID", { chainId: 1 }))
        expect(yield* Fiber.join(frame.fiber)).toEqual({ chainId: 1 })

        const next = yield* Effect.forkChild(frame.bridge.request("GET_CHAIN_ID"))
        const post = yield* frame.nextPost
        yield* frame.deliver(success(frame.id, "GET_CHAIN_ID", { chainId: 666 }))
        yield* frame.deliver(failure(frame.id, "GET_CHAIN_ID", "replayed"))
        yield* settle
        expect(next.pollUnsafe()).toBeUndefined()
        yield* frame.deliver(success(post.id, "GET_CHAIN_ID", { chainId: 2 }))
        expect(yield* Fiber.join(next)).toEqual({ chainId: 2 })
        // And a replay of that answer after it: the listener is still alive and nothing else was posted.
        yield* frame.deliver(success(post.id, "GET_CHAIN_ID", { chainId: 666 }))
        const third = yield* Effect.forkChild(frame.bridge.request("GET_CHAIN_ID"))
        const thirdPost = yield* frame.nextPost
        yield* frame.deliver(success(thirdPost.id, "GET_CHAIN_ID", { chainId: 3 }))
        expect(yield* Fiber.join(third)).toEqual({ chainId: 3 })
        expect(frame.posted).toHaveLength(3)
      })
    )
  })
})

// ---------------------------------------------------------------------------------------------------------------
// Fuzzing: 20 runs of 500 hostile messages each (10,000 in all) among real requests.

const FUZZ_RUNS = 20
const FUZZ_MESSAGES_PER_RUN = 500
const REAL_REQUESTS = 6

const messageId = fc.stringMatching(/^[-_A-Za-z0-9]{1,64}$/)
const replyName = fc.constantFrom<FrameRequestName>(...FRAME_REQUEST_NAMES)
const foreignOrigin = fc.oneof(
  fc.constantFrom("https://frame.example.evil", "http://frame.example", "http://127.0.0.1:4173", "null", "", "https://FRAME.example"),
  fc.webUrl().map((url) => new URL(url).origin)
)
const origin = fc.oneof(fc.constant(FRAME), foreignOrigin)
const source = fc.constantFrom<unknown>(frameWindow, otherWindow, null, undefined, {})

/** A well-formed (or nearly) reply with a random id. */
const randomReply = fc.oneof(
  fc.tuple(messageId, fc.integer()).map(([id, chainId]) => success(id, "GET_CHAIN_ID", { chainId })),
  fc.tuple(messageId, fc.jsonValue()).map(([id, result]) => success(id, "RPC_REQUEST", result)),
  fc.tuple(messageId, fc.constantFrom("done", "cancelled")).map(([id, outcome]) => success(id, "OPEN_SECURE_VIEW", { outcome })),
  // A secure view's end that would carry key material: never a reply.
  fc.tuple(messageId, fc.stringMatching(/^[0-9a-f]{64}$/)).map(([id, key]) => success(id, "OPEN_SECURE_VIEW", { outcome: "done", key: `0x${key}` })),
  fc.tuple(messageId, replyName, fc.string()).map(([id, name, message]) => failure(id, name, message)),
  fc.tuple(messageId, replyName).map(([id, name]) => success(id, name)),
  fc.constant(READY),
  fc.string().map((token) => ({ type: "@wr-frame/SESSION_UPDATE", payload: { token } }))
)

/** How a message aimed at a real request's id is made wrong, so it must not answer it. */
type Aim = "foreign-origin" | "foreign-window" | "other-type" | "extra-key" | "bad-payload" | "proto"
const aimed = fc.record({
  target: fc.nat({ max: REAL_REQUESTS - 1 }),
  aim: fc.constantFrom<Aim>("foreign-origin", "foreign-window", "other-type", "extra-key", "bad-payload", "proto"),
  origin: foreignOrigin,
  chainId: fc.integer()
})

type Fuzz =
  | { readonly kind: "random"; readonly origin: string; readonly source: unknown; readonly data: unknown }
  | { readonly kind: "aimed"; readonly target: number; readonly aim: Aim; readonly origin: string; readonly chainId: number }

const fuzzMessage: fc.Arbitrary<Fuzz> = fc.oneof(
  fc.record({ origin, source, data: fc.oneof(fc.jsonValue(), fc.anything(), randomReply) }).map((m) => ({ kind: "random", ...m }) as const),
  aimed.map((m) => ({ kind: "aimed", ...m }) as const)
)

/** Which real requests get their true reply (a success with their own chain id, or an error), and where. */
const plan = fc.array(fc.record({ answer: fc.constantFrom("success", "error", "none"), at: fc.nat({ max: FUZZ_MESSAGES_PER_RUN }) }), {
  minLength: REAL_REQUESTS,
  maxLength: REAL_REQUESTS
})

const aimedMessage = (id: string, fuzz: Extract<Fuzz, { kind: "aimed" }>): FrameMessage => {
  const right = success(id, "GET_CHAIN_ID", { chainId: fuzz.chainId })
  switch (fuzz.aim) {
    case "foreign-origin":
      return { origin: fuzz.origin, source: frameWindow, data: right }
    case "foreign-window":
      return { origin: FRAME, source: otherWindow, data: right }
    case "other-type":
      return { origin: FRAME, source: frameWindow, data: success(id, "IS_CONNECTED", { isConnected: true }) }
    case "extra-key":
      return { origin: FRAME, source: frameWindow, data: { ...right, extra: fuzz.chainId } }
    case "bad-payload":
      return { origin: FRAME, source: frameWindow, data: success(id, "GET_CHAIN_ID", { chainId: { value: fuzz.chainId } }) }
    case "proto":
      return {
        origin: FRAME,
        source: frameWindow,
        data: JSON.parse(`{"id":"${id}","type":"@wr-frame/GET_CHAIN_ID_SUCCESS","payload":{"chainId":1},"__proto__":{"chainId":2}}`)
      }
  }
}

const fuzzRun = (messages: ReadonlyArray<Fuzz>, answers: ReadonlyArray<{ readonly answer: string; readonly at: number }>) =>
  Effect.scoped(
    Effect.gen(function* () {
      const frame = yield* fakeFrame
      yield* frame.deliver(READY)
      const requests = yield* Effect.forEach(Array.from({ length: REAL_REQUESTS }), () =>
        Effect.gen(function* () {
          const fiber = yield* Effect.forkChild(frame.bridge.request("GET_CHAIN_ID"))
          const post = yield* frame.nextPost
          return { fiber, id: post.id }
        })
      )
      const trueReply = (k: number) =>
        answers[k]!.answer === "success"
          ? success(requests[k]!.id, "GET_CHAIN_ID", { chainId: 1000 + k })
          : failure(requests[k]!.id, "GET_CHAIN_ID", `error ${k}`)
      for (let i = 0; i <= messages.length; i++) {
        for (let k = 0; k < REAL_REQUESTS; k++) {
          if (answers[k]!.answer !== "none" && answers[k]!.at === i) yield* frame.deliver(trueReply(k))
        }
        const fuzz = messages[i]
        if (fuzz === undefined) continue
        if (fuzz.kind === "random") yield* frame.deliver(fuzz.data, { origin: fuzz.origin, source: fuzz.source })
        else {
          const message = aimedMessage(requests[fuzz.target]!.id, fuzz)
          yield* frame.deliver(message.data, { origin: message.origin, source: message.source })
        }
      }
      // A sentinel request answered last: once it resolves, every message before it was handled.
      const sentinel = yield* Effect.forkChild(frame.bridge.request("IS_CONNECTED"))
      const sentinelPost = yield* frame.nextPost
      yield* frame.deliver(success(sentinelPost.id, "IS_CONNECTED", { isConnected: true }))
      expect(yield* Fiber.join(sentinel)).toEqual({ isConnected: true })

      for (let k = 0; k < REAL_REQUESTS; k++) {
        const { fiber } = requests[k]!
        switch (answers[k]!.answer) {
          case "success":
            expect(yield* Fiber.join(fiber)).toEqual({ chainId: 1000 + k })
            break
          case "error":
            expect((yield* Effect.flip(Fiber.join(fiber))).message).toBe(`error ${k}`)
            break
          default:
            expect(fiber.pollUnsafe()).toBeUndefined()
        }
      }
      expect(frame.posted).toHaveLength(REAL_REQUESTS + 1)
    })
  )

describe("FrameBridge under fuzzed traffic", () => {
  it("10,000 hostile messages among real requests: each request ends only with its own reply, nothing throws", async () => {
    let delivered = 0
    await fc.assert(
      fc.asyncProperty(fc.array(fuzzMessage, { minLength: FUZZ_MESSAGES_PER_RUN, maxLength: FUZZ_MESSAGES_PER_RUN }), plan, async (messages, answers) => {
        delivered += messages.length
        // Each malformed message from the frame's origin and window is logged; 10,000 of them are not worth reading.
        await Effect.runPromise(fuzzRun(messages, answers).pipe(Effect.provideService(References.MinimumLogLevel, "Error")))
      }),
      { numRuns: FUZZ_RUNS }
    )
    expect(delivered).toBeGreaterThanOrEqual(10_000)
  }, 120_000)
})
