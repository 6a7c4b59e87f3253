/**
 * The delivery guarantee of the relay's bus, one contract run against both layers (in-process, and Redis 7 on a real
 * Redis from test/support/redis.ts): a message is kept for each subscriber that has neither published nor
 * acknowledged it, until its TTL (TestClock, set to now, moves past it); a retried publish is kept once, with the id
 * clients drop duplicates by (sha256 of the text); an acknowledgement holds for that client only. On Redis, a
 * second node's bus hears what the first puts on a topic it listens to — and not its own — and its mailbox is the same one.
 */
import { describe, expect, it } from "@effect/vitest"
import { createHash } from "node:crypto"
import { Context, Deferred, Effect, Layer } from "effect"
import { TestClock } from "effect/testing"
import { afterAll, beforeAll } from "vitest"
import { RelayBus, type RelayMessage } from "../../server/src/relay/RelayBus"
import { type RunningRedis, startRedis } from "../support/redis"

let redis: RunningRedis
beforeAll(async () => {
  redis = await startRedis()
})
afterAll(async () => {
  await redis?.stop()
})

const publication = (topic: string, message: string, publisher: string, ttlSeconds = 300) => ({
  topic,
  message,
  publisher,
  ttlSeconds,
  tag: 1108,
  attestation: undefined
})

const contract = (name: string, layer: () => Layer.Layer<RelayBus, unknown>) =>
  describe(`RelayBus (${name})`, () => {
    const withBus = <A, E>(body: (bus: RelayBus["Service"], topic: string) => Effect.Effect<A, E>) =>
      Effect.gen(function* () {
        yield* TestClock.setTime(Date.now())
        const bus = yield* RelayBus
        return yield* body(bus, `topic-${crypto.randomUUID()}`)
      }).pipe(Effect.provide(layer()))

    it.effect("keeps a message for the others until each acknowledges it, never for its publisher", () =>
      withBus((bus, topic) =>
        Effect.gen(function* () {
          const { stored, isNew } = yield* bus.put(publication(topic, "hello", "dapp"))
          expect(isNew).toBe(true)
          expect(stored.id).toBe(createHash("sha256").update("hello").digest("hex"))
          expect((yield* bus.pendingFor(topic, "dapp")).map((m) => m.message)).toEqual([])
          expect((yield* bus.pendingFor(topic, "wallet")).map((m) => m.message)).toEqual(["hello"])
          expect((yield* bus.pendingFor(topic, "watcher")).map((m) => m.message)).toEqual(["hello"])
          yield* bus.acknowledge(stored, "wallet")
          expect(yield* bus.pendingFor(topic, "wallet")).toEqual([])
          expect((yield* bus.pendingFor(topic, "watcher")).map((m) => m.message)).toEqual(["hello"])
        })
      )
    )

    it.effect("keeps a retried publish once, under the id of its text", () =>
      withBus((bus, topic) =>
        Effect.gen(function* () {
          const first = yield* bus.put(publication(topic, "same", "dapp"))
          yield* TestClock.adjust("1 second")
          const again = yield* bus.put(publication(topic, "same", "dapp"))
          expect(again.isNew).toBe(false)
          expect(again.stored).toEqual(first.stored)
          expect((yield* bus.pendingFor(topic, "wallet")).map((m) => m.id)).toEqual([first.stored.id])
        })
      )
    )

    it.effect("lets each message go at its own TTL, oldest first until then", () =>
      withBus((bus, topic) =>
        Effect.gen(function* () {
          yield* bus.put(publication(topic, "short", "dapp", 30))
          yield* TestClock.adjust("1 second")
          yield* bus.put(publication(topic, "long", "dapp", 300))
          expect((yield* bus.pendingFor(topic, "wallet")).map((m) => m.message)).toEqual(["short", "long"])
          yield* TestClock.adjust("30 seconds")
          expect((yield* bus.pendingFor(topic, "wallet")).map((m) => m.message)).toEqual(["long"])
          yield* TestClock.adjust("300 seconds")
          expect(yield* bus.pendingFor(topic, "wallet")).toEqual([])
        })
      )
    )
  })

contract("in-process", () => RelayBus.layerMemory)
contract("Redis", () => RelayBus.layerRedis(redis.url, { prefix: `test-${crypto.randomUUID()}:` }))

describe("RelayBus on Redis, two nodes", () => {
  it.live("a message put on one node reaches the other node listening on the topic, not its sender; both read one mailbox", () =>
    Effect.gen(function* () {
      const prefix = `nodes-${crypto.randomUUID()}:`
      const topic = `topic-${crypto.randomUUID()}`
      const a = yield* Layer.build(RelayBus.layerRedis(redis.url, { prefix }))
      const b = yield* Layer.build(RelayBus.layerRedis(redis.url, { prefix }))
      const busA = Context.get(a, RelayBus)
      const busB = Context.get(b, RelayBus)
      const heardByA = yield* Deferred.make<RelayMessage>()
      const heardByB: Array<RelayMessage> = []
      yield* busA.onRemote((message) => Deferred.doneUnsafe(heardByA, Effect.succeed(message)))
      yield* busB.onRemote((message) => heardByB.push(message))
      yield* busA.listen(topic)
      yield* busB.listen(topic)

      const { stored } = yield* busB.put(publication(topic, "from B", "wallet"))
      const heard = yield* Deferred.await(heardByA).pipe(Effect.timeout("10 seconds"))
      expect(heard).toEqual(stored)
      expect(heardByB).toEqual([])
      expect((yield* busA.pendingFor(topic, "dapp")).map((m) => m.message)).toEqual(["from B"])
    }).pipe(Effect.scoped)
  )
})
