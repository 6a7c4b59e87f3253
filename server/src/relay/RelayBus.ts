/**
 * Where the relay keeps and passes messages: the per-topic mailbox (each message with its TTL, acknowledgements per
 * client) and the delivery to the other relay nodes. Two layers:
 *
 * - `RelayBus.layerMemory`: one node, everything in this process (the default; `npm start`, a single machine);
 * - `RelayBus.layerRedis(url)`: any number of nodes on one Redis 7. Each message is sent to the other nodes by
 *   sharded pub/sub (`SPUBLISH` on the topic's channel; a node `SSUBSCRIBE`s to a topic while one of its sockets
 *   follows it), and kept in the topic's mailbox in Redis (a sorted set of ids by expiry, a hash of the messages, a
 *   set of acknowledged ids per client; all keys of a topic share its hash slot and expire with its last message),
 *   so a client reconnecting to any node gets what it missed within the TTL.
 *
 * Guarantee: at least once within the TTL. A message is delivered live to the subscribers connected when it is
 * published (on any node) and again from the mailbox to any subscriber that had not acknowledged it when it
 * (re)subscribes or fetches; so a client can get it twice and drops the copy by its content (our client keys what it
 * has seen by topic and message, WalletConnect's by message hash). A message is never reported published unless the
 * mailbox holds it: when Redis cannot be reached the publish fails with an error the client sees. A Redis without
 * persistence loses its mailboxes when it restarts: messages not yet delivered at that moment are lost.
 */
import { randomUUID } from "node:crypto"
import { Clock, Context, Data, Effect, Layer } from "effect"
import { Redis } from "ioredis"
import { boundedTtl, Mailbox, MAX_PER_TOPIC, messageId, type Publication, type RelayMessage } from "./Mailbox"

export type { Publication, RelayMessage } from "./Mailbox"

/** The shared store cannot be reached or refused a command: the request that needed it fails with these words. */
export class RelayBusUnavailable extends Data.TaggedError("RelayBusUnavailable")<{ readonly message: string }> {}

/** What the relay asks of its bus. */
export interface RelayBusShape {
  /**
   * Keeps a publication in its topic's mailbox and sends it to the other nodes' subscribers of its topic (nothing to
   * send on one node); a retried publish of the same message returns (and sends) the first copy.
   */
  readonly put: (publication: Publication) => Effect.Effect<{ readonly stored: RelayMessage; readonly isNew: boolean }, RelayBusUnavailable>
  /** Unexpired messages of a topic that `clientId` neither published nor acknowledged, oldest first. */
  readonly pendingFor: (topic: string, clientId: string) => Effect.Effect<ReadonlyArray<RelayMessage>, RelayBusUnavailable>
  /** Records that `clientId` has the message: it does not get it again from the mailbox. */
  readonly acknowledge: (message: RelayMessage, clientId: string) => Effect.Effect<void, RelayBusUnavailable>
  /** This node wants the other nodes' messages on `topic` (called when its first socket follows it). */
  readonly listen: (topic: string) => Effect.Effect<void, RelayBusUnavailable>
  /** This node no longer follows `topic`. */
  readonly unlisten: (topic: string) => Effect.Effect<void>
  /** The one handler of messages the other nodes broadcast. */
  readonly onRemote: (handler: (message: RelayMessage) => void) => Effect.Effect<void>
  /**
   * The one handler called when messages may have been missed (the link to the other nodes came back after a cut):
   * the relay then delivers again what each subscriber has not acknowledged.
   */
  readonly onResync: (handler: () => void) => Effect.Effect<void>
  /** Drops expired messages kept in this process (Redis expires its own). */
  readonly sweep: Effect.Effect<void>
}

/** The relay's mailbox and cross-node delivery. */
export class RelayBus extends Context.Service<RelayBus, RelayBusShape>()("wallet-runtime-server/RelayBus") {
  /** One node, in this process's memory. */
  static readonly layerMemory: Layer.Layer<RelayBus> = Layer.effect(RelayBus)(
    Effect.gen(function* () {
      const clock = yield* Clock.Clock
      const mailbox = new Mailbox(() => clock.currentTimeMillisUnsafe())
      yield* Effect.addFinalizer(() => Effect.sync(() => mailbox.clear()))
      return RelayBus.of({
        put: (publication) => Effect.sync(() => mailbox.put(publication)),
        pendingFor: (topic, clientId) => Effect.sync(() => mailbox.pendingFor(topic, clientId)),
        acknowledge: (message, clientId) => Effect.sync(() => mailbox.acknowledge(message, clientId)),
        listen: () => Effect.void,
        unlisten: () => Effect.void,
        onRemote: () => Effect.void,
        onResync: () => Effect.void,
        sweep: Effect.sync(() => mailbox.sweep())
      })
    })
  )

  /** Many nodes on one Redis 7 at `url` (`redis://host:port`, `rediss://` for TLS). */
  static readonly layerRedis = (url: string, options: RedisBusOptions = {}): Layer.Layer<RelayBus, RelayBusUnavailable> =>
    Layer.effect(RelayBus)(makeRedisBus(url, options))
}

/** Bounds of the Redis layer. */
export interface RedisBusOptions {
  /** Bound on each command and on the first connection, in milliseconds. Default 2000. */
  readonly commandTimeoutMs?: number
  /** Key prefix, so several relays can share one Redis. Default `wr:relay:`. */
  readonly prefix?: string
}

// Stores a message unless the topic holds it already; drops expired ones and the excess; sends the kept copy to the
// other nodes on the topic's shard channel (same hash tag as the keys, so the same slot). Atomic, so two nodes
// receiving the same retried publish keep one copy; one round trip per message. KEYS: ids by expiry, messages by id.
// ARGV: id, now, expiresAt, message JSON, the per-topic bound, the shard channel, this node's id. Returns {1, json}
// when stored, {0, first json} when it was there.
const PUT = `
local expired = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[2])
if #expired > 0 then
  redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[2])
  redis.call('HDEL', KEYS[2], unpack(expired))
end
local wire = function(json) return '{"node":' .. cjson.encode(ARGV[7]) .. ',"m":' .. json .. '}' end
if redis.call('ZSCORE', KEYS[1], ARGV[1]) then
  local first = redis.call('HGET', KEYS[2], ARGV[1])
  redis.call('SPUBLISH', ARGV[6], wire(first))
  return {0, first}
end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[4])
local excess = redis.call('ZCARD', KEYS[1]) - tonumber(ARGV[5])
if excess > 0 then
  local gone = redis.call('ZPOPMIN', KEYS[1], excess)
  for i = 1, #gone, 2 do redis.call('HDEL', KEYS[2], gone[i]) end
end
for _, key in ipairs(KEYS) do
  redis.call('PEXPIREAT', key, ARGV[3], 'NX')
  redis.call('PEXPIREAT', key, ARGV[3], 'GT')
end
redis.call('SPUBLISH', ARGV[6], wire(ARGV[4]))
return {1, ARGV[4]}
`

// The unexpired messages of a topic a client has not acknowledged. KEYS: ids by expiry, messages, the client's
// acknowledged ids. ARGV: now.
const PENDING = `
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '(' .. ARGV[1], '+inf')
local out = {}
for _, id in ipairs(ids) do
  if redis.call('SISMEMBER', KEYS[3], id) == 0 then
    local json = redis.call('HGET', KEYS[2], id)
    if json then out[#out + 1] = json end
  end
end
return out
`

/** The bus's Lua scripts, as commands of the connection (see `defineCommand` below). */
interface RelayScripts {
  readonly relayPut: (...keysThenArgs: ReadonlyArray<string | number>) => Promise<unknown>
  readonly relayPending: (...keysThenArgs: ReadonlyArray<string | number>) => Promise<unknown>
}

interface Wire {
  readonly node: string
  readonly m: RelayMessage
}

const asMessage = (json: string): RelayMessage => {
  const raw = JSON.parse(json) as Record<string, unknown>
  return {
    id: String(raw["id"]),
    topic: String(raw["topic"]),
    message: String(raw["message"]),
    publishedAt: Number(raw["publishedAt"]),
    expiresAt: Number(raw["expiresAt"]),
    tag: typeof raw["tag"] === "number" ? raw["tag"] : undefined,
    attestation: typeof raw["attestation"] === "string" ? raw["attestation"] : undefined,
    publisher: String(raw["publisher"])
  }
}

const redisUrlForLog = (url: string): string => {
  try {
    const parsed = new URL(url)
    parsed.password = ""
    parsed.username = ""
    return parsed.toString()
  } catch {
    return "(the configured Redis URL)"
  }
}

const makeRedisBus = (url: string, options: RedisBusOptions) =>
  Effect.gen(function* () {
    const timeout = options.commandTimeoutMs ?? 2000
    const prefix = options.prefix ?? "wr:relay:"
    const node = randomUUID()
    const where = redisUrlForLog(url)
    const connectionOptions = {
      lazyConnect: true,
      // Commands issued in the same turn go to Redis in one write (ioredis's auto-pipelining).
      enableAutoPipelining: true,
      // A command while Redis is away fails at once (the client hears it) instead of queueing without bound.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      commandTimeout: timeout,
      connectTimeout: timeout,
      // Reconnect for ever, at most every 2 s: a Redis that comes back is used again without a restart.
      retryStrategy: (attempt: number) => Math.min(attempt * 100, 2000)
    }
    const unavailable = (what: string) => (error: unknown) =>
      new RelayBusUnavailable({
        message: `Redis (${where}) is unavailable: ${what} failed: ${error instanceof Error ? error.message : String(error)}`
      })
    const open = (role: string, more: { readonly autoResubscribe?: boolean } = {}) =>
      Effect.acquireRelease(
        Effect.tryPromise({
          try: async () => {
            const client = new Redis(url, { ...connectionOptions, ...more, connectionName: `wallet-runtime-relay-${role}` })
            // Connection errors are retried by the client; the commands they fail report them.
            let lastError: Error | undefined
            client.on("error", (error: Error) => (lastError = error))
            try {
              await client.connect()
            } catch (error) {
              client.disconnect()
              throw lastError ?? error
            }
            return client
          },
          catch: unavailable("connecting")
        }),
        (client) => Effect.sync(() => client.disconnect())
      )
    // The scripts are sent once and then called by their SHA (ioredis's defineCommand: EVALSHA, EVAL on a miss).
    const commands = yield* Effect.map(open("commands"), (client) => {
      client.defineCommand("relayPut", { numberOfKeys: 2, lua: PUT })
      client.defineCommand("relayPending", { numberOfKeys: 3, lua: PENDING })
      return client as Redis & RelayScripts
    })
    // A connection in subscriber mode takes no other command; it re-subscribes its channels when it reconnects.
    // It re-subscribes by our hand (below), so that the resync runs once the channels are followed again.
    const subscriber = yield* open("subscriber", { autoResubscribe: false })

    const zKey = (topic: string) => `${prefix}{${topic}}:ids`
    const hKey = (topic: string) => `${prefix}{${topic}}:messages`
    const ackKey = (topic: string, clientId: string) => `${prefix}{${topic}}:acked:${clientId}`
    const channel = (topic: string) => `${prefix}{${topic}}`

    let handler: (message: RelayMessage) => void = () => undefined
    let resync: () => void = () => undefined
    const listened = new Set<string>()
    // Connected already: each "ready" from here on is a reconnection.
    subscriber.on("ready", () => {
      // Back after a cut: follow the topics again, then deliver what may have passed meanwhile.
      void (async () => {
        await Promise.all([...listened].map((topic) => subscriber.ssubscribe(channel(topic))))
        // The mailboxes are read on the other connection: wait (boundedly) until it is back too.
        for (let attempt = 0; attempt < 50; attempt++) {
          try {
            await commands.ping()
            break
          } catch {
            await new Promise((resolve) => setTimeout(resolve, 100))
          }
        }
        resync()
      })().catch(() => undefined)
    })
    subscriber.on("smessage", (_channel: string, payload: string) => {
      let wire: Wire
      try {
        wire = JSON.parse(payload) as Wire
      } catch {
        return
      }
      if (wire.node !== node) handler(asMessage(JSON.stringify(wire.m)))
    })

    const run = <A>(what: string, command: () => Promise<A>) => Effect.tryPromise({ try: command, catch: unavailable(what) })

    return RelayBus.of({
      put: Effect.fn("RelayBus.put")(function* (publication: Publication) {
        const publishedAt = yield* Clock.currentTimeMillis
        const stored: RelayMessage = {
          id: messageId(publication.message),
          topic: publication.topic,
          message: publication.message,
          publishedAt,
          expiresAt: publishedAt + boundedTtl(publication.ttlSeconds) * 1000,
          tag: publication.tag,
          attestation: publication.attestation,
          publisher: publication.publisher
        }
        const reply = (yield* run("storing a message", () =>
          commands.relayPut(
            zKey(stored.topic),
            hKey(stored.topic),
            stored.id,
            publishedAt,
            stored.expiresAt,
            JSON.stringify(stored),
            MAX_PER_TOPIC,
            channel(stored.topic),
            node
          )
        )) as [number, string]
        return reply[0] === 1 ? { stored, isNew: true } : { stored: asMessage(reply[1]), isNew: false }
      }),
      pendingFor: Effect.fn("RelayBus.pendingFor")(function* (topic: string, clientId: string) {
        const now = yield* Clock.currentTimeMillis
        const jsons = (yield* run("reading a mailbox", () =>
          commands.relayPending(zKey(topic), hKey(topic), ackKey(topic, clientId), now)
        )) as Array<string>
        return jsons
          .map(asMessage)
          .filter((m) => m.publisher !== clientId)
          .sort((a, b) => a.publishedAt - b.publishedAt)
      }),
      acknowledge: Effect.fn("RelayBus.acknowledge")(function* (message: RelayMessage, clientId: string) {
        const key = ackKey(message.topic, clientId)
        yield* run("recording an acknowledgement", () =>
          commands
            .multi()
            .sadd(key, message.id)
            .pexpireat(key, message.expiresAt, "NX")
            .pexpireat(key, message.expiresAt, "GT")
            .exec()
        )
      }),
      listen: Effect.fn("RelayBus.listen")(function* (topic: string) {
        yield* run("subscribing to a topic", () => subscriber.ssubscribe(channel(topic)))
        listened.add(topic)
      }),
      unlisten: (topic) =>
        Effect.suspend(() => {
          listened.delete(topic)
          return Effect.ignore(run("unsubscribing", () => subscriber.sunsubscribe(channel(topic))))
        }),
      onRemote: (next) =>
        Effect.sync(() => {
          handler = next
        }),
      onResync: (next) =>
        Effect.sync(() => {
          resync = next
        }),
      sweep: Effect.void
    })
  })
