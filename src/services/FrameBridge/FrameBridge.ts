/**
 * FrameBridge: the host side of the embedded-wallet frame protocol (spec 7.1, `domain/Frame.ts`). Requests are posted
 * to the hidden frame with a random id once the frame said READY (every request waits for it, in the order they were
 * made); a request ends with the frame's reply of the same id and its own `_SUCCESS` or `_ERROR` type, or with a
 * time-out. Only messages from the frame's exact origin and window are read, and only through the strict decoder:
 * anything else is dropped, never thrown, never resolving a request. The browser is reached through a `FramePort`
 * (`browserPort.ts`), so the protocol runs without a DOM in tests.
 */
import { Clock, Context, Deferred, Effect, Layer, PubSub, Queue, Result, Schema, Scope, Stream } from "effect"
import { LOGIN_STEP_TIMEOUT_MS } from "../../domain/constants"
import { FrameError, FrameLoadTimedOut, FrameStepTimedOut } from "../../domain/errors"
import {
  decodeFrameResponse,
  FRAME_PREFIX,
  type FrameErrorReply,
  FrameMessageId,
  FrameReady,
  FrameRequest,
  type FrameRequestName,
  type FrameRequestPayload,
  type FrameSuccessPayload,
  makeFrameRequest,
  replyKind
} from "../../domain/Frame"

/** The frame has this long from the bridge's start to signal READY. */
export const FRAME_LOAD_TIMEOUT_MS = 20_000
/** An RPC request may wait this long: a send waits for the visitor's approval and for a node. */
export const FRAME_RPC_TIMEOUT_MS = 120_000

/** The login and email-change steps; each is bounded by LOGIN_STEP_TIMEOUT_MS (spec point 4). */
export const FRAME_LOGIN_STEPS: ReadonlyArray<FrameRequestName> = [
  "CONNECT_EMAIL",
  "CONNECT_DEVICE",
  "CONNECT_OTP",
  "CONNECT_SOCIAL",
  "GET_SOCIAL_REDIRECT_URI",
  "UPDATE_EMAIL",
  "UPDATE_EMAIL_PRIMARY_OTP",
  "UPDATE_EMAIL_SECONDARY_OTP",
  "AWAIT_UPDATE_EMAIL"
]

/** A secure view may stay open this long: the visitor types a password, uses a passkey or reads their key. */
export const FRAME_SECURE_VIEW_TIMEOUT_MS = 600_000

/** How long the frame has to answer the request `name` once it is posted. */
export const frameRequestTimeoutMs = (name: FrameRequestName): number =>
  name === "RPC_REQUEST" ? FRAME_RPC_TIMEOUT_MS : name === "OPEN_SECURE_VIEW" ? FRAME_SECURE_VIEW_TIMEOUT_MS : LOGIN_STEP_TIMEOUT_MS

/** A message event as the bridge sees it: who sent it, from which window, and the posted data. */
export interface FrameMessage {
  readonly origin: string
  readonly source: unknown
  readonly data: unknown
}

/** The window side of the bridge: where requests go and where the frame's messages come from. */
export interface FramePort {
  /** The frame's exact origin (`https://host:port`); the only origin posted to and listened to. */
  readonly origin: string
  /** The frame's window: a message from any other window is dropped, whatever its origin. */
  readonly window: unknown
  /** Posts an encoded request to the frame's window, targeting `origin` only; may throw (e.g. a value that does not clone). */
  readonly post: (message: unknown) => void
  /** Every message event the page receives from the time the port exists, unfiltered. */
  readonly messages: Stream.Stream<FrameMessage>
  /**
   * Shows the frame visibly exactly over `place` (an element of the modal that holds the room) and gives it focus, for
   * as long as the scope lasts; then hidden again. The frame is never moved in the document (that would reload it).
   */
  readonly reveal: (place: FramePlace) => Effect.Effect<void, never, Scope.Scope>
}

/** Where a revealed frame goes: the placeholder's box on the page, and when to look at it again. */
export interface FramePlace {
  /** The placeholder's box in the viewport now. */
  readonly rect: () => { readonly top: number; readonly left: number; readonly width: number; readonly height: number }
  /** Calls `moved` whenever the box may have changed; returns the function that stops it. */
  readonly watch: (moved: () => void) => () => void
  /** Puts focus back in the modal once the frame is hidden again. */
  readonly returnFocus: () => void
}

/** The arguments after the name of `request`: the request's payload, or nothing when it carries none. */
export type FrameRequestArgs<N extends FrameRequestName> = FrameRequestPayload<N> extends undefined
  ? []
  : [FrameRequestPayload<N>]

/** What a request may end with besides its reply. */
export type FrameRequestError = FrameError | FrameStepTimedOut | FrameLoadTimedOut

/** The bridge's operations. */
export interface FrameBridgeService {
  /** Posts the request `name` once the frame is ready and waits for its own reply; its success payload, typed. */
  readonly request: <N extends FrameRequestName>(
    name: N,
    ...payload: FrameRequestArgs<N>
  ) => Effect.Effect<FrameSuccessPayload<N>, FrameRequestError>
  /** Succeeds once the frame signalled READY; FrameLoadTimedOut when it did not within FRAME_LOAD_TIMEOUT_MS of start. */
  readonly ready: Effect.Effect<void, FrameLoadTimedOut>
  /** The login session tokens the frame announces (SESSION_UPDATE), from the time of subscription. */
  readonly sessionUpdates: Stream.Stream<string>
  /** Shows the frame over `place` while the scope lasts (FramePort.reveal). */
  readonly reveal: (place: FramePlace) => Effect.Effect<void, never, Scope.Scope>
}

interface Pending {
  readonly request: FrameRequest
  readonly reply: Deferred.Deferred<unknown, FrameError>
}

interface Outgoing {
  readonly id: string
  readonly encoded: unknown
}

// Strict like the decoder: a payload with a key the protocol does not define is not sent.
const strict = { onExcessProperty: "error", errors: "first" } as const
const encodeRequest = Schema.encodeResult(FrameRequest)

// The contract's READY has no id; a frame may still send one (spec: a frame message has an optional id). Same
// strictness otherwise.
const decodeReadyWithId = Schema.decodeUnknownResult(Schema.Struct({ ...FrameReady.fields, id: FrameMessageId }))

const randomId = (): string =>
  Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, "0")).join("")

// An error reply may carry no message: FrameError then reads 'An error occurred'. A refusal for now keeps its code
// and wait, so the flows decide on the code (the mail's cool-down), not on the words.
const frameErrorOf = (payload: FrameErrorReply["payload"]): FrameError =>
  new FrameError({
    ...(payload?.message === undefined ? {} : { reason: payload.message }),
    ...(payload?.code === undefined ? {} : { code: payload.code }),
    ...(payload?.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: payload.retryAfterSeconds })
  })

const READY_TYPE = `${FRAME_PREFIX}READY` as const
const SESSION_UPDATE_TYPE = `${FRAME_PREFIX}SESSION_UPDATE` as const

/** Builds the bridge over `port`; its listener and sender live as long as the scope. */
const make = (port: FramePort): Effect.Effect<FrameBridgeService, never, Scope.Scope> =>
  Effect.gen(function* () {
    const startedAt = yield* Clock.currentTimeMillis
    const readyLatch = yield* Deferred.make<void>()
    const pending = new Map<string, Pending>()
    const outbox = yield* Queue.unbounded<Outgoing>()
    const sessions = yield* PubSub.unbounded<string>()

    const fromFrame = (message: FrameMessage): boolean =>
      message.origin === port.origin && port.window != null && message.source === port.window

    const receive = (message: FrameMessage): Effect.Effect<void> =>
      Effect.suspend(() => {
        if (!fromFrame(message)) return Effect.void
        const decoded = decodeFrameResponse(message.data)
        if (Result.isFailure(decoded)) {
          if (Result.isSuccess(decodeReadyWithId(message.data, strict))) return Deferred.succeed(readyLatch, undefined)
          return Effect.logWarning("FrameBridge: a malformed message of the frame was dropped", decoded.failure.message)
        }
        const response = decoded.success
        if (response.type === READY_TYPE) return Deferred.succeed(readyLatch, undefined)
        if (response.type === SESSION_UPDATE_TYPE) return PubSub.publish(sessions, response.payload.token)
        const waiting = pending.get(response.id)
        // An unknown id is a reply to a request that already ended (answered, timed out, interrupted) or to none.
        if (waiting === undefined) return Effect.logDebug("FrameBridge: a reply to no waiting request was dropped", response.type)
        switch (replyKind(waiting.request, response)) {
          case "success":
            pending.delete(response.id)
            return Deferred.succeed(waiting.reply, "payload" in response ? response.payload : undefined)
          case "error":
            pending.delete(response.id)
            // Only FrameErrorReply has an `_ERROR` type; an empty message reads 'An error occurred'.
            return Deferred.fail(waiting.reply, frameErrorOf((response as FrameErrorReply).payload))
          case "unrelated":
            return Effect.logDebug("FrameBridge: a reply of another type for a waiting id was dropped", response.type)
        }
      }).pipe(
        Effect.asVoid,
        // A listener that dies would leave every later request unanswered: log and keep listening.
        Effect.catchCause((cause) => Effect.logWarning("FrameBridge: a frame message could not be handled", cause))
      )

    yield* Effect.forkScoped(Stream.runForEach(port.messages, receive), { startImmediately: true })

    const send = (item: Outgoing): Effect.Effect<void> =>
      Effect.suspend(() => {
        const waiting = pending.get(item.id)
        // Interrupted or timed out before READY: never posted.
        if (waiting === undefined) return Effect.void
        return Effect.try({
          try: () => port.post(item.encoded),
          catch: (cause) => cause
        }).pipe(
          Effect.catch((cause) => {
            pending.delete(item.id)
            return Effect.logWarning("FrameBridge: a request could not be posted to the frame", cause).pipe(
              Effect.andThen(Deferred.fail(waiting.reply, new FrameError({ reason: "The request could not be sent to the embedded wallet." })))
            )
          }),
          Effect.asVoid
        )
      })

    // One sender posts in the order requests were made, and nothing before READY.
    yield* Effect.forkScoped(
      Deferred.await(readyLatch).pipe(Effect.andThen(Effect.forever(Effect.flatMap(Queue.take(outbox), send)))),
      { startImmediately: true }
    )

    const ready: Effect.Effect<void, FrameLoadTimedOut> = Effect.gen(function* () {
      if (yield* Deferred.isDone(readyLatch)) return
      const now = yield* Clock.currentTimeMillis
      const remaining = Math.max(0, startedAt + FRAME_LOAD_TIMEOUT_MS - now)
      yield* Deferred.await(readyLatch).pipe(
        Effect.timeoutOrElse({
          duration: remaining,
          orElse: () => Effect.fail(new FrameLoadTimedOut({ timeoutMs: FRAME_LOAD_TIMEOUT_MS }))
        })
      )
    })

    const requestAny = Effect.fn("FrameBridge.request")(function* (name: FrameRequestName, payload: ReadonlyArray<unknown>) {
      const id = randomId()
      // The public `request` typed the payload by name; here the name is any name, so the builder is called untyped.
      const request = (makeFrameRequest as (name: FrameRequestName, id: string, ...payload: ReadonlyArray<unknown>) => FrameRequest)(
        name,
        id,
        ...payload
      )
      const encoded = encodeRequest(request, strict)
      if (Result.isFailure(encoded)) {
        yield* Effect.logWarning(`FrameBridge: the ${name} request does not encode`, encoded.failure.message)
        return yield* new FrameError({ reason: "The request to the embedded wallet is not valid." })
      }
      const reply = yield* Deferred.make<unknown, FrameError>()
      const timeoutMs = frameRequestTimeoutMs(name)
      return yield* Effect.gen(function* () {
        pending.set(id, { request, reply })
        yield* Queue.offer(outbox, { id, encoded: encoded.success })
        yield* ready
        return yield* Deferred.await(reply).pipe(
          Effect.timeoutOrElse({
            duration: timeoutMs,
            orElse: () => Effect.fail(new FrameStepTimedOut({ request: name, timeoutMs }))
          })
        )
      }).pipe(
        // Whatever ends the wait (reply, time-out, the visitor leaving), a later reply to this id is ignored.
        Effect.ensuring(Effect.sync(() => pending.delete(id)))
      )
    })

    return {
      // The cast is what the decoder and replyKind checked: a success of this request's own type.
      request: <N extends FrameRequestName>(name: N, ...payload: FrameRequestArgs<N>) =>
        requestAny(name, payload) as Effect.Effect<FrameSuccessPayload<N>, FrameRequestError>,
      ready,
      sessionUpdates: Stream.fromPubSub(sessions),
      reveal: port.reveal
    }
  })

/** The embedded-wallet frame bridge (host side). */
export class FrameBridge extends Context.Service<FrameBridge, FrameBridgeService>()("wallet-runtime/FrameBridge") {
  /** The bridge over `port`, listening from now until its scope closes. */
  static readonly make = make
  /** The bridge over `port` as a layer. */
  static readonly layer = (port: FramePort): Layer.Layer<FrameBridge> => Layer.effect(FrameBridge)(make(port))
}
