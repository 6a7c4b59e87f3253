import { createHash } from "node:crypto"
import { createServer, type Server } from "node:http"
import { Socket } from "node:net"
import { WebSocketServer, type RawData, type WebSocket } from "ws"
import type { Started } from "../lib/Started"
import {
  errorFrame,
  InvalidParams,
  optionalNumberParam,
  optionalStringParam,
  paramsObject,
  readFrame,
  resultFrame,
  RpcErrorCode,
  stringParam,
  topicsParam
} from "./jsonRpc"
import { Effect, ManagedRuntime } from "effect"
import { RelayBus, type RelayMessage } from "./RelayBus"
import { authenticateConnection, RELAY_AUTH_REFUSED } from "./auth"
import { listenOnLoopback } from "../lib/httpServer"

/** Options of the local WalletConnect relay. */
export interface RelayOptions {
  /** Port to listen on; 0 or absent takes a free one from the OS. */
  readonly port?: number
  /** Address to listen on (default 127.0.0.1). */
  readonly host?: string
  /** Where clients reach the relay behind a proxy (`wss://relay.example.com`): their auth JWT's `aud` may name it. */
  readonly publicUrl?: string
  /** Receives one line per connection, frame and error; silent when absent. */
  readonly log?: (line: string) => void
  /**
   * A Redis 7 (`redis://host:port`) shared by every relay node: messages cross nodes and the mailboxes live there.
   * Absent: one node, everything in this process.
   */
  readonly redisUrl?: string
  /** Bounds per client and per connection; the defaults suit WalletConnect clients. */
  readonly limits?: Partial<RelayLimits>
}

/** What one client (publishes) and one connection (size, topics) may ask of the relay. */
export interface RelayLimits {
  /** Messages a client (its id, over all its connections to this node) may publish per second, on average (a token bucket). Default 50. */
  readonly publishesPerSecond: number
  /** Messages it may publish at once beyond the rate. Default 200. */
  readonly publishBurst: number
  /** Characters of one published message. Default 1 MiB (1,048,576). */
  readonly maxMessageChars: number
  /** Topics one connection may follow. Default 1000. */
  readonly maxTopicsPerConnection: number
}

const DEFAULT_LIMITS: RelayLimits = {
  publishesPerSecond: 50,
  publishBurst: 200,
  maxMessageChars: 1024 * 1024,
  maxTopicsPerConnection: 1000
}

/** JSON-RPC code of a refusal for a limit (rate, topics), as EIP-1474's "Limit exceeded". */
export const RELAY_LIMIT_EXCEEDED = -32005
/** JSON-RPC code of a request the relay could not serve because its shared store (Redis) is unavailable. */
export const RELAY_UNAVAILABLE = -32000

/** What a running relay exposes. */
export interface RelayInfo {
  /** `ws://127.0.0.1:<port>` (or the host given), the `relayUrl` clients are given. */
  readonly url: string
  /** Drops every connection and listens again on the same port, keeping the mailboxes. */
  readonly restart: () => Promise<void>
}

// Clients drop a connection after 35 s without a ping.
const PING_INTERVAL_MS = 10_000
const SWEEP_INTERVAL_MS = 60_000
const MAX_FRAME_BYTES = 4 * 1024 * 1024
const CLOSE_HANDSHAKE_MS = 1000

// Tags WalletConnect 2 gives the messages the relay publishes for wc_proposeSession / wc_approveSession.
const TAG_SESSION_PROPOSE = 1100
const TAG_SESSION_PROPOSE_RESPONSE = 1101
const TAG_SESSION_SETTLE = 1102

interface Client {
  readonly socket: WebSocket
  readonly clientId: string
  /** topic → subscription id */
  readonly subscriptions: Map<string, string>
  /** our request id → the message it delivered */
  readonly awaitingAck: Map<number, RelayMessage>
  alive: boolean
  /** Requests are answered one after the other, in the order sent. */
  queue: Promise<void>
  /** The publish allowance of its client id, shared by every connection of that id to this node. */
  readonly bucket: Bucket
}

/** Publish tokens left, when they were last counted (ms), and how many connections share them. */
interface Bucket {
  tokens: number
  countedAt: number
  connections: number
}

// The same id a WalletConnect client computes for its own subscription (sha256 of topic + client id).
const subscriptionId = (topic: string, clientId: string): string =>
  createHash("sha256").update(topic + clientId).digest("hex")

/**
 * The TCP socket under a WebSocket of `ws` (its `_socket`, which `ws` itself corks around each frame), or undefined if
 * that library's shape ever changes: then frames are written one by one, as before.
 */
const streamOf = (socket: WebSocket): Socket | undefined => {
  const raw: unknown = Reflect.get(socket, "_socket")
  return raw instanceof Socket ? raw : undefined
}

const frameText = (data: RawData): string =>
  Array.isArray(data)
    ? Buffer.concat(data).toString("utf8")
    : data instanceof ArrayBuffer
      ? Buffer.from(new Uint8Array(data)).toString("utf8")
      : data.toString("utf8")

const closeServer = (server: Server): Promise<void> =>
  new Promise((resolve) => {
    server.close(() => resolve())
    server.closeAllConnections()
  })

/** Starts a WalletConnect relay on 127.0.0.1 that keeps messages for late subscribers and survives its own restart. */
export async function startRelay(opts: RelayOptions = {}): Promise<Started<RelayInfo>> {
  const log = opts.log ?? (() => {})
  const limits: RelayLimits = { ...DEFAULT_LIMITS, ...opts.limits }
  const runtime = ManagedRuntime.make(opts.redisUrl === undefined ? RelayBus.layerMemory : RelayBus.layerRedis(opts.redisUrl))
  let bus: RelayBus["Service"]
  try {
    bus = await runtime.runPromise(Effect.service(RelayBus))
  } catch (error) {
    await runtime.dispose()
    throw error
  }
  const run = <A, E>(effect: Effect.Effect<A, E>): Promise<A> => runtime.runPromise(effect)
  const clients = new Set<Client>()
  const subscribers = new Map<string, Set<Client>>()
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES })
  // Safe integers: the client echoes these ids back through a double-precision parse.
  let nextOutgoingId = Date.now() * 1000

  // Frames to one socket within one turn of the event loop leave in one write: the socket is corked at its first
  // frame and uncorked once the turn's work is done (setImmediate). A write per frame was the node's largest cost in
  // its CPU profile (a third of the time spent relaying, in writev).
  const corked = new Set<Socket>()
  const uncorkAll = (): void => {
    for (const socket of corked) socket.uncork()
    corked.clear()
  }
  const send = (client: Client, frame: string): void => {
    const socket = client.socket
    if (socket.readyState !== socket.OPEN) return
    const raw = streamOf(socket)
    if (raw !== undefined && !corked.has(raw)) {
      if (corked.size === 0) setImmediate(uncorkAll)
      raw.cork()
      corked.add(raw)
    }
    socket.send(frame)
  }

  const deliver = (client: Client, message: RelayMessage): void => {
    const subId = client.subscriptions.get(message.topic)
    if (subId === undefined) return
    for (const inFlight of client.awaitingAck.values()) if (inFlight.id === message.id && inFlight.topic === message.topic) return
    const id = nextOutgoingId++
    client.awaitingAck.set(id, message)
    send(
      client,
      JSON.stringify({
        id,
        jsonrpc: "2.0",
        method: "irn_subscription",
        params: {
          id: subId,
          data: {
            topic: message.topic,
            message: message.message,
            publishedAt: message.publishedAt,
            attestation: message.attestation,
            tag: message.tag
          }
        }
      })
    )
  }

  const deliverToSubscribers = (message: RelayMessage): void => {
    for (const client of subscribers.get(message.topic) ?? []) {
      if (client.clientId !== message.publisher) deliver(client, message)
    }
  }
  // Messages published on the other nodes (Redis); nothing comes on one node.
  await run(bus.onRemote(deliverToSubscribers))

  const subscribe = async (client: Client, topics: ReadonlyArray<string>): Promise<Array<string>> => {
    const added = new Set(topics.filter((topic) => !client.subscriptions.has(topic)))
    if (client.subscriptions.size + added.size > limits.maxTopicsPerConnection) {
      throw new LimitExceeded(
        `Too many topics: a connection may follow at most ${limits.maxTopicsPerConnection} (it follows ` +
          `${client.subscriptions.size} and asked for ${added.size} more)`
      )
    }
    const ids: Array<string> = []
    for (const topic of topics) {
      const id = subscriptionId(topic, client.clientId)
      let set = subscribers.get(topic)
      if (set === undefined) {
        set = new Set()
        subscribers.set(topic, set)
        set.add(client)
        client.subscriptions.set(topic, id)
        try {
          // Listen before the mailbox is read: a message is then either in the mailbox or heard live.
          await run(bus.listen(topic))
        } catch (error) {
          unsubscribe(client, topic)
          throw error
        }
      } else {
        set.add(client)
        client.subscriptions.set(topic, id)
      }
      ids.push(id)
    }
    return ids
  }

  const flushMailbox = async (client: Client, topics: Iterable<string>): Promise<void> => {
    for (const topic of topics) for (const message of await run(bus.pendingFor(topic, client.clientId))) deliver(client, message)
  }

  // The link to the other nodes was cut and is back: what was published meantime is in the mailboxes.
  await run(
    bus.onResync(() => {
      for (const client of clients) {
        flushMailbox(client, [...client.subscriptions.keys()]).catch((error: unknown) => log(`relay: resync failed: ${errorText(error)}`))
      }
    })
  )

  const unsubscribe = (client: Client, topic: string): void => {
    client.subscriptions.delete(topic)
    const set = subscribers.get(topic)
    set?.delete(client)
    if (set?.size === 0) {
      subscribers.delete(topic)
      void run(bus.unlisten(topic))
    }
  }

  // One allowance per client id: opening more connections does not buy more publishes.
  const buckets = new Map<string, Bucket>()
  const bucketOf = (clientId: string): Bucket => {
    const bucket = buckets.get(clientId) ?? { tokens: limits.publishBurst, countedAt: performance.now(), connections: 0 }
    bucket.connections++
    buckets.set(clientId, bucket)
    return bucket
  }
  const releaseBucket = (client: Client): void => {
    if (--client.bucket.connections === 0) buckets.delete(client.clientId)
  }

  /** Takes publish tokens of the client, or refuses. */
  const takeToken = (client: Client, count: number): void => {
    const now = performance.now()
    const bucket = client.bucket
    bucket.tokens = Math.min(limits.publishBurst, bucket.tokens + ((now - bucket.countedAt) / 1000) * limits.publishesPerSecond)
    bucket.countedAt = now
    if (bucket.tokens < count) {
      throw new LimitExceeded(`Rate limit exceeded: a connection may publish ${limits.publishesPerSecond} messages per second`)
    }
    bucket.tokens -= count
  }

  const checkSize = (message: string): void => {
    if (message.length > limits.maxMessageChars) {
      throw new InvalidParams(`Message too large: ${message.length} characters, at most ${limits.maxMessageChars}`)
    }
  }

  const publish = async (
    publisher: Client,
    topic: string,
    message: string,
    meta: { readonly ttlSeconds: number | undefined; readonly tag: number | undefined; readonly attestation: string | undefined }
  ): Promise<void> => {
    // Stored (and sent to the other nodes), then delivered here.
    const { stored } = await run(bus.put({ topic, message, publisher: publisher.clientId, ...meta }))
    deliverToSubscribers(stored)
  }

  const publishParams = (params: Record<string, unknown>, tag: number | undefined) => ({
    ttlSeconds: optionalNumberParam(params, "ttl"),
    tag: optionalNumberParam(params, "tag") ?? tag,
    attestation: optionalStringParam(params, "attestation")
  })

  /** Answers one request; `after` runs once the reply is sent (mailbox deliveries must follow the subscribe reply). */
  const handle = async (client: Client, method: string, rawParams: unknown): Promise<{ result: unknown; after?: () => Promise<void> }> => {
    switch (method) {
      case "irn_subscribe": {
        const topic = stringParam(paramsObject(rawParams), "topic")
        const [id] = await subscribe(client, [topic])
        return { result: id, after: () => flushMailbox(client, [topic]) }
      }
      case "irn_batchSubscribe": {
        const topics = topicsParam(paramsObject(rawParams), "topics")
        return { result: await subscribe(client, topics), after: () => flushMailbox(client, topics) }
      }
      case "irn_unsubscribe": {
        unsubscribe(client, stringParam(paramsObject(rawParams), "topic"))
        return { result: true }
      }
      case "irn_batchUnsubscribe": {
        const subs = paramsObject(rawParams).subscriptions
        if (!Array.isArray(subs)) throw new InvalidParams("params.subscriptions must be an array")
        for (const sub of subs) unsubscribe(client, stringParam(paramsObject(sub), "topic"))
        return { result: true }
      }
      case "irn_publish": {
        const params = paramsObject(rawParams)
        const message = stringParam(params, "message")
        checkSize(message)
        takeToken(client, 1)
        await publish(client, stringParam(params, "topic"), message, publishParams(params, undefined))
        return { result: true }
      }
      case "irn_batchPublish": {
        const messages = paramsObject(rawParams).messages
        if (!Array.isArray(messages)) throw new InvalidParams("params.messages must be an array")
        const checked = messages.map((m) => {
          const params = paramsObject(m)
          const message = stringParam(params, "message")
          checkSize(message)
          return { topic: stringParam(params, "topic"), message, meta: publishParams(params, undefined) }
        })
        takeToken(client, checked.length)
        for (const m of checked) await publish(client, m.topic, m.message, m.meta)
        return { result: true }
      }
      case "irn_batchFetchMessages": {
        const topics = topicsParam(paramsObject(rawParams), "topics")
        const messages = (await Promise.all(topics.map((topic) => run(bus.pendingFor(topic, client.clientId))))).flat()
        await Promise.all(messages.map((m) => run(bus.acknowledge(m, client.clientId))))
        return {
          result: {
            messages: messages.map((m) => ({
              topic: m.topic,
              message: m.message,
              publishedAt: m.publishedAt,
              attestation: m.attestation,
              tag: m.tag
            })),
            hasMore: false
          }
        }
      }
      case "wc_proposeSession": {
        const params = paramsObject(rawParams)
        const pairingTopic = stringParam(params, "pairingTopic")
        const proposal = stringParam(params, "sessionProposal")
        checkSize(proposal)
        takeToken(client, 1)
        await subscribe(client, [pairingTopic])
        await publish(client, pairingTopic, proposal, publishParams(params, TAG_SESSION_PROPOSE))
        return { result: true, after: () => flushMailbox(client, [pairingTopic]) }
      }
      case "wc_approveSession": {
        const params = paramsObject(rawParams)
        const pairingTopic = stringParam(params, "pairingTopic")
        const sessionTopic = stringParam(params, "sessionTopic")
        const response = stringParam(params, "sessionProposalResponse")
        const settlement = stringParam(params, "sessionSettlementRequest")
        const { ttlSeconds, attestation } = publishParams(params, undefined)
        checkSize(response)
        checkSize(settlement)
        takeToken(client, 2)
        await subscribe(client, [sessionTopic])
        await publish(client, pairingTopic, response, { ttlSeconds, attestation, tag: TAG_SESSION_PROPOSE_RESPONSE })
        await publish(client, sessionTopic, settlement, { ttlSeconds, attestation, tag: TAG_SESSION_SETTLE })
        return { result: true, after: () => flushMailbox(client, [sessionTopic]) }
      }
      default:
        throw new MethodNotFound(method)
    }
  }

  const onFrame = (client: Client, text: string): void => {
    const frame = readFrame(text)
    switch (frame.kind) {
      case "notification":
        return
      case "invalid":
        log(`relay: invalid frame from ${client.clientId}: ${frame.message}`)
        send(client, errorFrame(frame.id, frame.code, frame.message))
        return
      case "response": {
        if (typeof frame.id !== "number") return
        const message = client.awaitingAck.get(frame.id)
        client.awaitingAck.delete(frame.id)
        if (message && frame.ok) {
          run(bus.acknowledge(message, client.clientId)).catch((error: unknown) =>
            log(`relay: acknowledgement not recorded (the message may come again): ${errorText(error)}`)
          )
        }
        return
      }
      case "request": {
        log(`relay: ${frame.method} from ${client.clientId}`)
        const { id, method, params } = frame
        client.queue = client.queue.then(async () => {
          try {
            const { result, after } = await handle(client, method, params)
            send(client, resultFrame(id, result))
            await after?.()
          } catch (error) {
            const code =
              error instanceof InvalidParams
                ? RpcErrorCode.invalidParams
                : error instanceof MethodNotFound
                  ? RpcErrorCode.methodNotFound
                  : error instanceof LimitExceeded
                    ? RELAY_LIMIT_EXCEEDED
                    : isBusUnavailable(error)
                      ? RELAY_UNAVAILABLE
                      : RpcErrorCode.internal
            const message = errorText(error)
            log(`relay: ${method} failed: ${message}`)
            send(client, errorFrame(id, code, message))
          }
        })
      }
    }
  }

  wss.on("connection", (socket: WebSocket, clientId: string) => {
    const client: Client = {
      socket,
      clientId,
      subscriptions: new Map(),
      awaitingAck: new Map(),
      alive: true,
      queue: Promise.resolve(),
      bucket: bucketOf(clientId)
    }
    clients.add(client)
    log(`relay: connected ${clientId}`)
    socket.on("pong", () => {
      client.alive = true
    })
    socket.on("message", (data, isBinary) => {
      if (isBinary) {
        send(client, errorFrame("null", RpcErrorCode.invalidRequest, "Binary frames are not supported"))
        return
      }
      onFrame(client, frameText(data))
    })
    socket.on("error", (error) => log(`relay: socket error ${clientId}: ${error.message}`))
    socket.on("close", () => {
      clients.delete(client)
      releaseBucket(client)
      for (const topic of [...client.subscriptions.keys()]) unsubscribe(client, topic)
      log(`relay: disconnected ${clientId}`)
    })
  })

  const makeServer = (): Server => {
    const server = createServer((_request, response) => {
      response.writeHead(200, { "content-type": "text/plain" }).end("wallet-runtime relay\n")
    })
    server.on("upgrade", (request, socket, head) => {
      socket.on("error", () => socket.destroy())
      // Only a client proving its id (a verified auth JWT) is served; the others hear why in the close frame.
      const auth = authenticateConnection(request.url, { port, host: request.headers.host, now: Date.now(), publicUrl: opts.publicUrl })
      wss.handleUpgrade(request, socket, head, (ws) => {
        if (auth.ok) wss.emit("connection", ws, auth.clientId)
        else {
          log(`relay: refused a connection: ${auth.reason}`)
          ws.close(RELAY_AUTH_REFUSED, auth.reason)
        }
      })
    })
    server.on("clientError", (_error, socket) => socket.destroy())
    return server
  }

  let server = makeServer()
  const host = opts.host ?? "127.0.0.1"
  const port = await listenOnLoopback(server, opts.port ?? 0, host)

  const pinger = setInterval(() => {
    for (const client of clients) {
      if (!client.alive) {
        client.socket.terminate()
        continue
      }
      client.alive = false
      client.socket.ping()
    }
  }, PING_INTERVAL_MS)
  pinger.unref()
  const sweeper = setInterval(() => void run(bus.sweep), SWEEP_INTERVAL_MS)
  sweeper.unref()

  // A close handshake (1012 service restart, or 1001 going away on stop) rather than a cut: once it completes the
  // client knows it is disconnected, so nothing it sends afterwards is lost in a dead socket (WalletConnect retries
  // those only after 20 s).
  const closeGracefully = (client: Client, code: 1001 | 1012): Promise<void> =>
    new Promise((resolve) => {
      if (client.socket.readyState === client.socket.CLOSED) return resolve()
      const cut = setTimeout(() => client.socket.terminate(), CLOSE_HANDSHAKE_MS)
      client.socket.once("close", () => {
        clearTimeout(cut)
        resolve()
      })
      client.socket.close(code, code === 1001 ? "relay stopping" : "relay restart")
    })

  const dropConnections = async (code: 1001 | 1012): Promise<void> => {
    // No new connection from here on, while the open ones close.
    const closed = closeServer(server)
    await Promise.all([...clients].map((client) => closeGracefully(client, code)))
    clients.clear()
    for (const topic of subscribers.keys()) await run(bus.unlisten(topic))
    subscribers.clear()
    await closed
  }

  let stopped: Promise<void> | undefined
  let restarting: Promise<void> = Promise.resolve()

  const restart = (): Promise<void> => {
    // A failed restart must not block the next one.
    restarting = restarting.catch(() => {}).then(async () => {
      if (stopped) return
      await dropConnections(1012)
      server = makeServer()
      // Another process may grab the port in the moment it is free; try again briefly.
      for (let attempt = 0; ; attempt++) {
        try {
          await listenOnLoopback(server, port, host)
          break
        } catch (error) {
          if (attempt >= 20) throw error
          await new Promise((resolve) => setTimeout(resolve, 50))
        }
      }
      log(`relay: restarted on port ${port}`)
    })
    return restarting
  }

  const stop = (): Promise<void> => {
    stopped ??= (async () => {
      clearInterval(pinger)
      clearInterval(sweeper)
      await restarting.catch(() => {})
      await dropConnections(1001)
      wss.close()
      await runtime.dispose()
    })()
    return stopped
  }

  return { info: { url: `ws://${host.includes(":") ? `[${host}]` : host}:${port}`, restart }, stop }
}

const errorText = (error: unknown): string => (error instanceof Error ? error.message : "Internal error")

const isBusUnavailable = (error: unknown): boolean =>
  typeof error === "object" && error !== null && (error as { _tag?: unknown })._tag === "RelayBusUnavailable"

class LimitExceeded extends Error {
  override readonly name = "LimitExceeded"
}

class MethodNotFound extends Error {
  override readonly name = "MethodNotFound"
  constructor(method: string) {
    super(`Method not found: ${method}`)
  }
}
