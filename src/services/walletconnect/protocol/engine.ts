/**
 * The peer-to-peer layer both sides of WalletConnect share: topics and their keys, JSON-RPC requests sealed on a topic
 * and their answers awaited for a bounded time, requests from the peer handed to one handler (each id once), and every
 * message that cannot be opened or read reported and dropped. The dapp (`dapp.ts`) and the test wallet
 * (`wallet.ts`) are built on it.
 */
import { Clock, Data, Deferred, Effect, Exit, PubSub, Queue, Scope } from "effect"
import { deriveSymKey, EnvelopeUnreadable, hashKey, KeyAgreementFailed, open, readEnvelope, seal, type Seal } from "./crypto"
import { type RelayClient, RelayFrameInvalid, type RelayUnavailable } from "./relay"
import { METHODS, type Method, nextRpcId, type PeerMessage, readPeerMessage, type RpcError, type RpcRequest, UNSUPPORTED } from "./rpc"

/** The peer answered a request with an error: its code and words (5000 when the visitor refused). */
export class PeerRefused extends Data.TaggedError("PeerRefused")<{ readonly code: number; readonly message: string }> {}

/** The peer did not answer within the bound of the request. */
export class NoAnswer extends Data.TaggedError("NoAnswer")<{ readonly method: string; readonly message: string }> {}

/** A message from the peer that is not what the protocol allows here: dropped, reported; nothing changes. */
export class PeerMessageInvalid extends Data.TaggedError("PeerMessageInvalid")<{ readonly reason: string }> {}

/** Anything refused on the way in. */
export type Problem = RelayFrameInvalid | EnvelopeUnreadable | KeyAgreementFailed | PeerMessageInvalid

/** A request from the peer, with the topic it came on. */
export interface Incoming {
  readonly topic: string
  readonly request: RpcRequest
  /** The request's JSON text as the peer sealed it (a Verify attestation id is its SHA-256). */
  readonly text: string
  /** The sender's key when it came in a type-1 envelope. */
  readonly senderPublicKey: string | undefined
}

/** What a handler answers: a result, or an error for the peer. */
export type Answer = { readonly result: unknown } | { readonly error: RpcError }

/** The shared layer of one client. */
export interface Engine {
  readonly relay: RelayClient
  /**
   * Keeps a topic's key and follows the topic (`fresh`: a topic just made, with nothing waiting for it); `sealedTo`
   * also follows a topic of type-1 envelopes to a key of ours, in the same subscription.
   */
  readonly follow: (
    topic: string,
    symKey: string,
    options?: { readonly fresh?: boolean; readonly sealedTo?: { readonly topic: string; readonly privateKey: string } }
  ) => Effect.Effect<void, RelayUnavailable>
  /** Keeps a topic's key now (a request can be sealed on it before the subscription is made). */
  readonly keep: (topic: string, symKey: string) => void
  /** Follows several topics whose keys are known, in one subscription. */
  readonly followAll: (entries: ReadonlyArray<{ readonly topic: string; readonly symKey: string }>) => Effect.Effect<void, RelayUnavailable>
  /** Stops following a topic and forgets its key. */
  readonly forget: (topic: string, reason?: RpcError) => Effect.Effect<void>
  /** Sends a request on a topic and waits for its answer, at most `within` ms (the method's TTL by default). */
  readonly request: (
    topic: string,
    method: Method,
    params: unknown,
    options?: { readonly within?: number; readonly seal?: Seal; readonly ttl?: number }
  ) => Effect.Effect<unknown, PeerRefused | NoAnswer | RelayUnavailable>
  /** Sends a request now; its answer is the effect returned (awaited at most `within` ms). */
  readonly send: (
    topic: string,
    method: Method,
    params: unknown,
    options?: { readonly within?: number; readonly seal?: Seal; readonly ttl?: number }
  ) => Effect.Effect<Effect.Effect<unknown, PeerRefused | NoAnswer>, NoAnswer | RelayUnavailable>
  /** Sends a request without waiting for its answer (a delete: the peer may be gone). */
  readonly notify: (topic: string, method: Method, params: unknown) => Effect.Effect<void, RelayUnavailable>
  /** Answers a request of the peer. */
  readonly respond: (
    topic: string,
    request: { readonly id: number; readonly method: string },
    answer: Answer,
    options?: { readonly seal?: Seal; readonly symKey?: string; readonly responseTopic?: string }
  ) => Effect.Effect<void, RelayUnavailable>
  /** Whether a topic's key is known. */
  readonly has: (topic: string) => boolean
  /** Refused messages, for logs and tests. */
  readonly problems: PubSub.PubSub<Problem>
}

const HANDLED_LIMIT = 1000

/**
 * Called with each request of ours before it is published (its method and the JSON text sealed): the dapp registers
 * its Verify attestation there. It must end by itself (bounded); the request waits for it.
 */
export type BeforeRequest = (method: Method, text: string) => Effect.Effect<void>

/**
 * Makes the engine over a relay client; `handle` answers the peer's requests (run one at a time, in order of arrival;
 * a request the handler does not know is answered "Method not found").
 */
export const makeEngine = (
  relay: RelayClient,
  handle: (incoming: Incoming) => Effect.Effect<Answer | undefined>,
  beforeRequest?: BeforeRequest
): Effect.Effect<Engine, never, Scope.Scope> =>
  Effect.gen(function* () {
    const keys = new Map<string, string>()
    const sealedTo = new Map<string, string>()
    const waiting = new Map<number, { readonly topic: string; readonly answer: Deferred.Deferred<unknown, PeerRefused> }>()
    const handled = new Set<string>()
    const problems = yield* PubSub.unbounded<Problem>()
    const report = (problem: Problem) =>
      Effect.andThen(PubSub.publish(problems, problem), Effect.logDebug(`WalletConnect: refused ${problem._tag}`, problem))

    yield* relay.problems.pipe(
      PubSub.subscribe,
      Effect.flatMap((subscription) => Effect.forever(Effect.flatMap(PubSub.take(subscription), report))),
      Effect.forkScoped
    )

    const publishSealed = (topic: string, symKey: string, body: string, publish: { readonly ttl: number; readonly tag: number }, how?: Seal) =>
      relay.publish(topic, seal(symKey, body, how), publish)

    const onMessage = (topic: string, message: string) =>
      Effect.gen(function* () {
        const envelope = readEnvelope(message)
        if (envelope instanceof EnvelopeUnreadable) return yield* report(envelope)
        let symKey = keys.get(topic)
        if (envelope.type === 1) {
          const privateKey = sealedTo.get(topic)
          if (privateKey === undefined || envelope.senderPublicKey === undefined) {
            return yield* report(new PeerMessageInvalid({ reason: "a type-1 envelope on a topic that expects none" }))
          }
          const agreed = yield* Effect.result(deriveSymKey(privateKey, envelope.senderPublicKey))
          if (agreed._tag === "Failure") return yield* report(agreed.failure)
          symKey = agreed.success
        }
        if (symKey === undefined) return yield* report(new PeerMessageInvalid({ reason: "a message on a topic without a key" }))
        const text = open(symKey, envelope)
        if (text instanceof EnvelopeUnreadable) return yield* report(text)
        const read: PeerMessage | undefined = readPeerMessage(text)
        if (read === undefined) return yield* report(new PeerMessageInvalid({ reason: "not a JSON-RPC request or answer" }))
        if (read.kind === "response") {
          const entry = waiting.get(read.id)
          // An answer must come on the topic its request went to, to an id we are waiting on.
          if (entry === undefined || (entry.topic !== topic && !sealedTo.has(topic))) {
            return yield* report(new PeerMessageInvalid({ reason: `an answer to no request of ours (id ${read.id})` }))
          }
          waiting.delete(read.id)
          Deferred.doneUnsafe(
            entry.answer,
            "error" in read ? Exit.fail(new PeerRefused({ code: read.error.code, message: read.error.message })) : Exit.succeed(read.result)
          )
          return
        }
        const key = `${topic}:${read.id}`
        if (handled.has(key)) return
        handled.add(key)
        if (handled.size > HANDLED_LIMIT) handled.delete(handled.values().next().value as string)
        const answer = yield* handle({ topic, request: read, text, senderPublicKey: envelope.senderPublicKey })
        if (answer === undefined) return
        const symKeyNow = keys.get(topic)
        if (symKeyNow === undefined) return
        const options = METHODS[read.method as Method] ?? { res: UNSUPPORTED, req: UNSUPPORTED }
        const publish = "error" in answer ? (("reject" in options ? options.reject : undefined) ?? options.res) : options.res
        yield* Effect.ignore(publishSealed(topic, symKeyNow, JSON.stringify({ id: read.id, jsonrpc: "2.0", ...answer }), publish))
      })

    yield* Effect.forever(Effect.flatMap(Queue.take(relay.messages), (m) => onMessage(m.topic, m.message))).pipe(Effect.forkScoped)

    const follow: Engine["follow"] = (topic, symKey, options) =>
      Effect.suspend(() => {
        keys.set(topic, symKey)
        if (options?.sealedTo !== undefined) sealedTo.set(options.sealedTo.topic, options.sealedTo.privateKey)
        const topics = options?.sealedTo === undefined ? [topic] : [topic, options.sealedTo.topic]
        return relay.subscribe(topics, options?.fresh === undefined ? undefined : { fresh: options.fresh })
      })

    const send: Engine["send"] = (topic, method, params, options) =>
      Effect.gen(function* () {
        const symKey = keys.get(topic)
        if (symKey === undefined) return yield* new NoAnswer({ method, message: `No key for topic ${topic.slice(0, 8)}…` })
        const id = nextRpcId(yield* Clock.currentTimeMillis)
        const answer = yield* Deferred.make<unknown, PeerRefused>()
        waiting.set(id, { topic, answer })
        const publish = options?.ttl === undefined ? METHODS[method].req : { ...METHODS[method].req, ttl: options.ttl }
        const body = JSON.stringify({ id, jsonrpc: "2.0", method, params })
        if (beforeRequest !== undefined) yield* beforeRequest(method, body)
        yield* publishSealed(topic, symKey, body, publish, options?.seal).pipe(
          Effect.tapError(() => Effect.sync(() => waiting.delete(id)))
        )
        const within = options?.within ?? publish.ttl * 1000
        return Deferred.await(answer).pipe(
          Effect.timeoutOrElse({
            duration: within,
            orElse: () => Effect.fail(new NoAnswer({ method, message: `The wallet did not answer ${method} in time` }))
          }),
          Effect.ensuring(Effect.sync(() => waiting.delete(id)))
        )
      })

    const request: Engine["request"] = (topic, method, params, options) => Effect.flatten(send(topic, method, params, options))

    return {
      relay,
      follow,
      send,
      keep: (topic, symKey) => {
        keys.set(topic, symKey)
      },
      followAll: (entries) =>
        Effect.suspend(() => {
          for (const entry of entries) keys.set(entry.topic, entry.symKey)
          return relay.subscribe(entries.map((entry) => entry.topic))
        }),
      forget: (topic, reason) =>
        Effect.suspend(() => {
          keys.delete(topic)
          sealedTo.delete(topic)
          for (const [id, entry] of waiting) {
            if (entry.topic !== topic) continue
            waiting.delete(id)
            Deferred.doneUnsafe(entry.answer, Exit.fail(new PeerRefused(reason ?? { code: 6000, message: "The session ended" })))
          }
          return relay.unsubscribe(topic)
        }),
      request,
      notify: (topic, method, params) =>
        Effect.gen(function* () {
          const symKey = keys.get(topic)
          if (symKey === undefined) return
          const id = nextRpcId(yield* Clock.currentTimeMillis)
          yield* publishSealed(topic, symKey, JSON.stringify({ id, jsonrpc: "2.0", method, params }), METHODS[method].req)
        }),
      respond: (topic, incoming, answer, options) =>
        Effect.gen(function* () {
          const symKey = options?.symKey ?? keys.get(topic)
          if (symKey === undefined) return
          const methodOptions = METHODS[incoming.method as Method] ?? { res: UNSUPPORTED, req: UNSUPPORTED }
          const publish = "error" in answer ? (("reject" in methodOptions ? methodOptions.reject : undefined) ?? methodOptions.res) : methodOptions.res
          yield* publishSealed(options?.responseTopic ?? topic, symKey, JSON.stringify({ id: incoming.id, jsonrpc: "2.0", ...answer }), publish, options?.seal)
        }),
      has: (topic) => keys.has(topic),
      problems
    }
  })

/** The topic of the key two peers agree on, with the key itself. */
export const agree = (privateKey: string, peerPublicKey: string): Effect.Effect<{ readonly symKey: string; readonly topic: string }, KeyAgreementFailed> =>
  Effect.flatMap(deriveSymKey(privateKey, peerPublicKey), (symKey) => Effect.map(hashKey(symKey), (topic) => ({ symKey, topic })))
