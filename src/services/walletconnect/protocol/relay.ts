/**
 * A client of a WalletConnect relay (spec: servers/relay, the `irn_*` JSON-RPC over a WebSocket): connects with a
 * signed JWT, subscribes, publishes with each message's tag and TTL, fetches what waited while it was away,
 * acknowledges each delivery, drops a delivery it already had, and reconnects with backoff while it has topics to
 * follow. Every wait is bounded. Frames from the relay are read defensively: a malformed or hostile one is reported
 * and dropped, never trusted.
 */
import { Clock, Data, Deferred, Effect, Exit, type Fiber, FiberSet, PubSub, Queue, Scope, Semaphore } from "effect"
import { nextRpcId, type PublishOptions } from "./rpc"
import { signRelayJwt } from "./relayJwt"
import { randomKey } from "./crypto"

/** The relay cannot be reached, closed on us, refused us (its words in `message`) or did not answer in time. */
export class RelayUnavailable extends Data.TaggedError("RelayUnavailable")<{
  readonly message: string
  /** True when the connection was lost under a request (another connection may carry it). */
  readonly lost: boolean
}> {}

/** A frame from the relay that is not what the relay protocol sends: dropped, reported. */
export class RelayFrameInvalid extends Data.TaggedError("RelayFrameInvalid")<{ readonly reason: string }> {}

/** A message the relay delivered on a topic we follow. */
export interface RelayMessage {
  readonly topic: string
  readonly message: string
  readonly publishedAt: number
  readonly tag: number | undefined
}

/** The part of the WebSocket API used here: the browser's, or `ws` in Node. */
export interface SocketLike {
  readonly readyState: number
  onopen: ((event: unknown) => void) | null
  onclose: ((event: { readonly code?: number; readonly reason?: string }) => void) | null
  onerror: ((event: unknown) => void) | null
  onmessage: ((event: { readonly data: unknown }) => void) | null
  send(data: string): void
  close(code?: number, reason?: string): void
}

/** A WebSocket constructor (`globalThis.WebSocket`, or `ws`'s in Node). */
export type SocketConstructor = new (url: string) => SocketLike

/** What a relay client is made from. */
export interface RelayClientOptions {
  readonly relayUrl: string
  readonly projectId: string
  /** The client's Ed25519 seed (hex): its id at the relay, kept across reloads so its mailbox follows it. */
  readonly seed: string
  readonly WebSocket: SocketConstructor
  /** Who is connecting, for the relay's logs (`ua`). */
  readonly userAgent?: string
  /** Called with the relay's words when it closes on us with a reason (an unknown project, an origin not allowed). */
  readonly onRefusal?: (message: string) => void
}

/** A connected (or connecting) relay client; it lives as long as its scope. */
export interface RelayClient {
  /**
   * Follows topics (one `irn_subscribe`, or `irn_batchSubscribe`), then fetches what waited for them; a topic just
   * made (`fresh`: a new pairing's) has nothing waiting yet, and is not fetched until a reconnection.
   */
  readonly subscribe: (topics: ReadonlyArray<string>, options?: { readonly fresh?: boolean }) => Effect.Effect<void, RelayUnavailable>
  /** Stops following a topic; best effort. */
  readonly unsubscribe: (topic: string) => Effect.Effect<void>
  /** Publishes a sealed message on a topic with its tag and TTL. */
  readonly publish: (topic: string, message: string, options: PublishOptions) => Effect.Effect<void, RelayUnavailable>
  /** Messages delivered on followed topics, each once, in order of arrival. */
  readonly messages: Queue.Dequeue<RelayMessage>
  /** Frames refused as malformed or hostile. */
  readonly problems: PubSub.PubSub<RelayFrameInvalid>
  /** The topics followed. */
  readonly topics: () => ReadonlyArray<string>
}

const OPEN = 1
/** How long the relay has to open a connection or answer a request. */
export const RELAY_ANSWER_MS = 10_000
const BACKOFF_FIRST_MS = 100
const BACKOFF_MAX_MS = 5_000
const SEEN_LIMIT = 1000
const MAX_FRAME_CHARS = 4 * 1024 * 1024

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value)

// The relay's own request ids may exceed 2^53: the acknowledgement echoes the id exactly as it was written.
const rawIdOf = (text: string): string | undefined => /^\s*\{\s*"id"\s*:\s*(-?\d+)/.exec(text)?.[1]

/** Makes a relay client; it connects on first use. */
export const makeRelayClient = (options: RelayClientOptions): Effect.Effect<RelayClient, never, Scope.Scope> =>
  Effect.gen(function* () {
    const scope = yield* Effect.scope
    // Fibers started from the socket's callbacks (the reconnect loop) live in this scope and end with it.
    const runFork = yield* FiberSet.makeRuntime<never>()
    const messages = yield* Queue.unbounded<RelayMessage>()
    const problems = yield* PubSub.unbounded<RelayFrameInvalid>()
    const connecting = yield* Semaphore.make(1)
    const followed = new Set<string>()
    // Topics subscribed on the current socket.
    const active = new Set<string>()
    // Topics just made: nothing can wait for them at the relay yet.
    const fresh = new Set<string>()
    const pending = new Map<number, Deferred.Deferred<unknown, RelayUnavailable>>()
    const seen = new Set<string>()
    const sub = randomKey()
    let socket: SocketLike | undefined
    let closedByUs = false
    let reconnecting: Fiber.Fiber<void> | undefined

    const report = (reason: string) => PubSub.publishUnsafe(problems, new RelayFrameInvalid({ reason }))

    const remember = (key: string): boolean => {
      if (seen.has(key)) return false
      seen.add(key)
      if (seen.size > SEEN_LIMIT) seen.delete(seen.values().next().value as string)
      return true
    }

    const onFrame = (current: SocketLike, text: string) => {
      if (text.length > MAX_FRAME_CHARS) return report("frame too large")
      let frame: unknown
      try {
        frame = JSON.parse(text)
      } catch {
        return report("frame is not JSON")
      }
      if (!isRecord(frame)) return report("frame is not an object")
      if (frame["method"] === "irn_subscription") {
        const rawId = rawIdOf(text)
        const params = frame["params"]
        const data = isRecord(params) ? params["data"] : undefined
        if (rawId === undefined || !isRecord(data) || typeof data["topic"] !== "string" || typeof data["message"] !== "string") {
          return report("irn_subscription without an id, a topic or a message")
        }
        if (current.readyState === OPEN) current.send(`{"id":${rawId},"jsonrpc":"2.0","result":true}`)
        const topic = data["topic"]
        if (!followed.has(topic)) return report("a message on a topic not followed")
        if (!remember(`${topic}:${data["message"]}`)) return
        Queue.offerUnsafe(messages, {
          topic,
          message: data["message"],
          publishedAt: typeof data["publishedAt"] === "number" ? data["publishedAt"] : 0,
          tag: typeof data["tag"] === "number" ? data["tag"] : undefined
        })
        return
      }
      const id = frame["id"]
      const waiting = typeof id === "number" ? pending.get(id) : undefined
      if (waiting === undefined) return report("an answer to no request of ours")
      pending.delete(id as number)
      const error = frame["error"]
      if ("result" in frame) Deferred.doneUnsafe(waiting, Exit.succeed(frame["result"]))
      else {
        const message = isRecord(error) && typeof error["message"] === "string" ? error["message"] : "The relay refused the request"
        Deferred.doneUnsafe(waiting, Exit.fail(new RelayUnavailable({ message, lost: false })))
      }
    }

    const failPending = (error: RelayUnavailable) => {
      for (const waiting of pending.values()) Deferred.doneUnsafe(waiting, Exit.fail(error))
      pending.clear()
    }

    const open: Effect.Effect<SocketLike, RelayUnavailable> = Effect.gen(function* () {
      const now = yield* Clock.currentTimeMillis
      const aud = options.relayUrl
      const auth = yield* signRelayJwt(options.seed, { aud, sub, now })
      const url = new URL(aud)
      url.searchParams.set("auth", auth)
      url.searchParams.set("projectId", options.projectId)
      url.searchParams.set("ua", options.userAgent ?? "wc-2/js-wallet-runtime")
      return yield* Effect.callback<SocketLike, RelayUnavailable>((resume) => {
        let created: SocketLike
        try {
          created = new options.WebSocket(url.toString())
        } catch (error) {
          return resume(Effect.fail(new RelayUnavailable({ message: `The relay cannot be reached: ${String(error)}`, lost: false })))
        }
        let opened = false
        created.onopen = () => {
          opened = true
          resume(Effect.succeed(created))
        }
        created.onerror = () => undefined
        created.onmessage = (event) => onFrame(created, typeof event.data === "string" ? event.data : String(event.data))
        created.onclose = (event) => {
          const reason = event.reason ?? ""
          const error = new RelayUnavailable({ message: reason !== "" ? reason : `The relay closed the connection (${event.code ?? "no code"})`, lost: true })
          if (socket === created) {
            socket = undefined
            active.clear()
          }
          failPending(error)
          if (reason !== "" && event.code !== 1000 && event.code !== 1012) options.onRefusal?.(reason)
          if (!opened) resume(Effect.fail(error))
          else if (!closedByUs && followed.size > 0) startReconnecting()
        }
        return Effect.sync(() => {
          if (!opened) created.close()
        })
      }).pipe(
        Effect.timeoutOrElse({
          duration: RELAY_ANSWER_MS,
          orElse: () => Effect.fail(new RelayUnavailable({ message: "The relay did not answer in time", lost: false }))
        })
      )
    })

    // One request on a socket, answered within RELAY_ANSWER_MS.
    const call = (current: SocketLike, method: string, params: unknown): Effect.Effect<unknown, RelayUnavailable> =>
      Effect.gen(function* () {
        const id = nextRpcId(yield* Clock.currentTimeMillis)
        const answer = Deferred.makeUnsafe<unknown, RelayUnavailable>()
        pending.set(id, answer)
        current.send(JSON.stringify({ id, jsonrpc: "2.0", method, params }))
        return yield* Deferred.await(answer).pipe(
          Effect.timeoutOrElse({
            duration: RELAY_ANSWER_MS,
            orElse: () => Effect.fail(new RelayUnavailable({ message: `The relay did not answer ${method} in time`, lost: false }))
          }),
          Effect.ensuring(Effect.sync(() => pending.delete(id)))
        )
      })

    const offer = (entry: unknown) => {
      if (!isRecord(entry) || typeof entry["topic"] !== "string" || typeof entry["message"] !== "string") return report("a fetched message without a topic or a message")
      if (!followed.has(entry["topic"]) || !remember(`${entry["topic"]}:${entry["message"]}`)) return
      Queue.offerUnsafe(messages, {
        topic: entry["topic"],
        message: entry["message"],
        publishedAt: typeof entry["publishedAt"] === "number" ? entry["publishedAt"] : 0,
        tag: typeof entry["tag"] === "number" ? entry["tag"] : undefined
      })
    }

    // Subscribes what is followed but not yet subscribed on this socket, then fetches what waited for it.
    const catchUp = (current: SocketLike): Effect.Effect<void, RelayUnavailable> =>
      Effect.gen(function* () {
        const missing = [...followed].filter((topic) => !active.has(topic))
        if (missing.length === 0) return
        yield* missing.length === 1 ? call(current, "irn_subscribe", { topic: missing[0] }) : call(current, "irn_batchSubscribe", { topics: missing })
        for (const topic of missing) active.add(topic)
        const waiting = missing.filter((topic) => !fresh.has(topic))
        for (const topic of missing) fresh.delete(topic)
        if (waiting.length === 0) return
        for (let page = 0; page < 10; page++) {
          const answer = yield* call(current, "irn_batchFetchMessages", { topics: waiting })
          if (!isRecord(answer) || !Array.isArray(answer["messages"])) return report("irn_batchFetchMessages answered without messages")
          for (const entry of answer["messages"]) offer(entry)
          if (answer["hasMore"] !== true) return
        }
      })

    // The open socket, opened first if need be, with every followed topic subscribed on it.
    const connection = Semaphore.withPermit(connecting)(
      Effect.gen(function* () {
        let current = socket
        if (current === undefined || current.readyState !== OPEN) {
          current = yield* open
          socket = current
          active.clear()
        }
        yield* catchUp(current)
        return current
      })
    )

    // A connection lost under a request (a relay restart): the next connection carries it, twice at most.
    const request = (method: string, params: unknown): Effect.Effect<unknown, RelayUnavailable> =>
      Effect.flatMap(connection, (current) => call(current, method, params)).pipe(Effect.retry({ times: 2, while: (error) => error.lost }))

    const startReconnecting = () => {
      if (reconnecting !== undefined) return
      const loop = Effect.gen(function* () {
        let wait = BACKOFF_FIRST_MS
        while (followed.size > 0 && !closedByUs) {
          yield* Effect.sleep(wait)
          if (Exit.isSuccess(yield* Effect.exit(connection))) return
          wait = Math.min(wait * 2, BACKOFF_MAX_MS)
        }
      }).pipe(Effect.ensuring(Effect.sync(() => (reconnecting = undefined))))
      reconnecting = runFork(loop)
    }

    yield* Scope.addFinalizer(
      scope,
      Effect.sync(() => {
        closedByUs = true
        failPending(new RelayUnavailable({ message: "The relay client was closed", lost: false }))
        socket?.close(1000, "client closed")
        socket = undefined
      })
    )

    return {
      subscribe: (topics, subscription) =>
        Effect.suspend(() => {
          for (const topic of topics) {
            followed.add(topic)
            if (subscription?.fresh === true) fresh.add(topic)
          }
          return Effect.asVoid(connection)
        }).pipe(Effect.retry({ times: 2, while: (error) => error.lost })),
      unsubscribe: (topic) =>
        Effect.suspend(() => {
          if (!followed.delete(topic)) return Effect.void
          const current = socket
          if (current === undefined || !active.delete(topic)) return Effect.void
          return Effect.ignore(call(current, "irn_unsubscribe", { topic }))
        }),
      publish: (topic, message, publish) =>
        Effect.asVoid(request("irn_publish", { topic, message, ttl: publish.ttl, tag: publish.tag, prompt: false })),
      messages,
      problems,
      topics: () => [...followed]
    }
  })
