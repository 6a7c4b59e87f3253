/**
 * The behaviour every Storage backend must show, as one function that registers the tests for a backend.
 * `Storage.test.ts` runs it over memory and over a Web Storage object; `Storage.browser.test.ts` over happy-dom's
 * `localStorage`.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Fiber, Layer, Logger, Option, Schema, Stream } from "effect"
import * as KeyValueStore from "effect/persistence/KeyValueStore"
import { TestClock } from "effect/testing"
import {
  cacheKey,
  cachePath,
  Storage,
  STORAGE_MAX_VALUE_LENGTH,
  storageKey,
  type StorageService,
  storagePath
} from "../../../src/services/Storage/Storage"
import * as Keys from "../../../src/services/Storage/keys"
import { CaipNetworkId } from "../../../src/domain/Caip"

/** A backing store to run the contract on: a fresh empty one, and one whose writes fail past `maxChars`. */
export interface Backend {
  readonly name: string
  readonly store: () => Layer.Layer<KeyValueStore.KeyValueStore>
  readonly storeWithQuota: (maxChars: number) => Layer.Layer<KeyValueStore.KeyValueStore>
}

const Profile = Schema.Struct({ name: Schema.String, age: Schema.Number, tags: Schema.Array(Schema.String) })
const profileKey = storageKey({ name: "test:profile", schema: Profile, defaultValue: { name: "nobody", age: 0, tags: [] } })
const counterKey = storageKey({ name: "test:counter", schema: Schema.Number, defaultValue: 0 })
const modeKey = storageKey({ name: "test:mode", schema: Schema.Literals(["light", "dark"]), defaultValue: "light" })
const balanceOf = (address: string) => `eip155:1:${address}`

const alice = { name: "alice", age: 31, tags: ["a", "b"] }

/** Runs `body` with Storage built over a backing store seeded with raw entries first (startup clean-up sees them). */
const withStorage = <A, E>(
  layer: Layer.Layer<KeyValueStore.KeyValueStore>,
  seed: Record<string, string>,
  body: (storage: StorageService, raw: KeyValueStore.KeyValueStore) => Effect.Effect<A, E>
): Effect.Effect<A, E> =>
  Effect.gen(function*() {
    const raw = yield* KeyValueStore.KeyValueStore
    for (const [key, value] of Object.entries(seed)) yield* Effect.orDie(raw.set(key, value))
    return yield* Effect.gen(function*() {
      return yield* body(yield* Storage, raw)
    }).pipe(Effect.provide(Storage.layer))
  }).pipe(Effect.provide(layer))

const rawGet = (raw: KeyValueStore.KeyValueStore, key: string) => Effect.orDie(raw.get(key))

/** Registers the Storage contract for one backend. */
export const storageContract = (backend: Backend): void => {
  const run = <A, E>(
    seed: Record<string, string>,
    body: (storage: StorageService, raw: KeyValueStore.KeyValueStore) => Effect.Effect<A, E>
  ) => withStorage(backend.store(), seed, body)

  describe(`Storage contract: ${backend.name}`, () => {
    it.effect("a value read back is the value stored, under the versioned prefix", () =>
      run({}, (storage, raw) =>
        Effect.gen(function*() {
          yield* storage.set(profileKey, alice)
          yield* storage.set(modeKey, "dark")
          expect(yield* storage.get(profileKey)).toEqual(alice)
          expect(yield* storage.get(modeKey)).toBe("dark")
          expect(storagePath(modeKey)).toBe("wr:v1:test:mode")
          expect(JSON.parse((yield* rawGet(raw, "wr:v1:test:profile")) ?? "null")).toEqual(alice)
        })))

    it.effect("an absent key reads as its default, and a removed one too", () =>
      run({}, (storage, raw) =>
        Effect.gen(function*() {
          expect(yield* storage.get(profileKey)).toEqual({ name: "nobody", age: 0, tags: [] })
          yield* storage.set(counterKey, 7)
          yield* storage.remove(counterKey)
          expect(yield* storage.get(counterKey)).toBe(0)
          expect(yield* rawGet(raw, storagePath(counterKey))).toBeUndefined()
        })))

    it.effect("modify applies updates one after another, even when run concurrently", () =>
      run({}, (storage) =>
        Effect.gen(function*() {
          const results = yield* Effect.all(
            Array.from({ length: 10 }, () => storage.modify(counterKey, (n) => n + 1)),
            { concurrency: "unbounded" }
          )
          expect(yield* storage.get(counterKey)).toBe(10)
          expect([...results].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
        })))

    it.effect("changes tells which keys were set or removed", () =>
      run({}, (storage) =>
        Effect.gen(function*() {
          const fiber = yield* storage.changes.pipe(Stream.take(3), Stream.runCollect, Effect.forkChild)
          yield* Effect.yieldNow
          yield* storage.set(modeKey, "dark")
          yield* storage.modify(counterKey, (n) => n + 1)
          yield* storage.remove(modeKey)
          expect(Array.from(yield* Fiber.join(fiber))).toEqual(["test:mode", "test:counter", "test:mode"])
        })))

    const corruptions: ReadonlyArray<readonly [string, string, string]> = [
      ["not JSON", "{name: alice", "NotJson"],
      ["the wrong shape", JSON.stringify({ id: 1 }), "InvalidValue"],
      ["wrong types", JSON.stringify({ name: "alice", age: "31", tags: ["a"] }), "InvalidValue"],
      ["a huge value", JSON.stringify({ ...alice, name: "x".repeat(STORAGE_MAX_VALUE_LENGTH) }), "TooLarge"]
    ]
    for (const [label, tampered, reason] of corruptions) {
      it.effect(`a stored value with ${label} reads as the default, is removed and reported once`, () =>
        run({ "wr:v1:test:profile": tampered }, (storage, raw) =>
          Effect.gen(function*() {
            expect(yield* storage.get(profileKey)).toEqual(profileKey.defaultValue)
            expect(yield* rawGet(raw, "wr:v1:test:profile")).toBeUndefined()
            // tampered again: still the default, still one report
            yield* Effect.orDie(raw.set("wr:v1:test:profile", tampered))
            expect(yield* storage.get(profileKey)).toEqual(profileKey.defaultValue)
            expect(yield* storage.corruptions).toEqual([{ key: "wr:v1:test:profile", reason }])
            // and the key works normally afterwards
            yield* storage.set(profileKey, alice)
            expect(yield* storage.get(profileKey)).toEqual(alice)
          })))
    }

    it.effect("a corrupt value logs one warning per key", () => {
      const warnings: Array<unknown> = []
      const collect = Logger.make((options) => {
        if (options.logLevel === "Warn") warnings.push(options.message)
      })
      return run({ "wr:v1:test:mode": "\"blue\"", "wr:v1:test:counter": "[]" }, (storage, raw) =>
        Effect.gen(function*() {
          yield* storage.get(modeKey)
          yield* Effect.orDie(raw.set("wr:v1:test:mode", "\"green\""))
          yield* storage.get(modeKey)
          yield* storage.get(counterKey)
          expect(warnings).toHaveLength(2)
        })).pipe(Effect.provide(Logger.layer([collect])))
    })

    it.effect("keys of an older version are removed at start and reported; newer and foreign keys are left", () =>
      run(
        {
          "wr:v0:activeNetwork:eip155": "\"eip155:1\"",
          "wr:activeNetwork": "\"eip155:1\"",
          "wr:v2:activeNetwork:eip155": "\"eip155:10\"",
          "host-app:theme": "dark"
        },
        (storage, raw) =>
          Effect.gen(function*() {
            expect(yield* storage.get(Keys.activeNetwork("eip155"))).toBeNull()
            expect(yield* rawGet(raw, "wr:v0:activeNetwork:eip155")).toBeUndefined()
            expect(yield* rawGet(raw, "wr:activeNetwork")).toBeUndefined()
            expect(yield* rawGet(raw, "wr:v2:activeNetwork:eip155")).toBe("\"eip155:10\"")
            expect(yield* rawGet(raw, "host-app:theme")).toBe("dark")
            const reports = yield* storage.corruptions
            expect([...reports].sort((a, b) => a.key.localeCompare(b.key))).toEqual([
              { key: "wr:activeNetwork", reason: "OutdatedVersion" },
              { key: "wr:v0:activeNetwork:eip155", reason: "OutdatedVersion" }
            ])
          })
      ))

    it.effect("a balance is cached for 30 s: present at 29.999 s, gone at 30 s", () =>
      run({}, (storage, raw) =>
        Effect.gen(function*() {
          yield* storage.setCached(Keys.balanceCache, balanceOf("0xabc"), { balance: "1.5", symbol: "ETH" })
          yield* TestClock.adjust("29999 millis")
          expect(yield* storage.getCached(Keys.balanceCache, balanceOf("0xabc"))).toEqual(
            Option.some({ balance: "1.5", symbol: "ETH" })
          )
          yield* TestClock.adjust("1 millis")
          expect(yield* storage.getCached(Keys.balanceCache, balanceOf("0xabc"))).toEqual(Option.none())
          expect(yield* rawGet(raw, cachePath(Keys.balanceCache, balanceOf("0xabc")))).toBeUndefined()
        })))

    it.effect("an identity is cached for 5 minutes, per id", () =>
      run({}, (storage) =>
        Effect.gen(function*() {
          yield* storage.setCached(Keys.identityCache, "0xabc", { profileName: "alice.eth", profileImage: null })
          yield* TestClock.adjust("299999 millis")
          expect(yield* storage.getCached(Keys.identityCache, "0xabc")).toEqual(
            Option.some({ profileName: "alice.eth", profileImage: null })
          )
          expect(yield* storage.getCached(Keys.identityCache, "0xdef")).toEqual(Option.none())
          yield* TestClock.adjust("1 millis")
          expect(yield* storage.getCached(Keys.identityCache, "0xabc")).toEqual(Option.none())
        })))

    it.effect("a cached entry can be dropped before it expires", () =>
      run({}, (storage) =>
        Effect.gen(function*() {
          yield* storage.setCached(Keys.balanceCache, "a", { balance: "1", symbol: "ETH" })
          yield* storage.removeCached(Keys.balanceCache, "a")
          expect(yield* storage.getCached(Keys.balanceCache, "a")).toEqual(Option.none())
        })))

    it.effect("a cached entry with a tampered expiry or value is not served", () => {
      const names = cacheKey({ name: "test:names", schema: Schema.Array(Schema.String), ttlMillis: 1000 })
      return run(
        {
          [cachePath(names, "far")]: JSON.stringify({ value: ["x"], expiresAt: 10_000_000 }),
          [cachePath(names, "bad")]: JSON.stringify({ value: [1], expiresAt: 500 })
        },
        (storage, raw) =>
          Effect.gen(function*() {
            expect(yield* storage.getCached(names, "far")).toEqual(Option.none())
            expect(yield* storage.getCached(names, "bad")).toEqual(Option.none())
            expect(yield* rawGet(raw, cachePath(names, "far"))).toBeUndefined()
            expect(yield* rawGet(raw, cachePath(names, "bad"))).toBeUndefined()
            expect(yield* storage.corruptions).toEqual([{ key: cachePath(names, "bad"), reason: "InvalidValue" }])
          })
      )
    })

    it.effect("expired cache entries are swept at start", () =>
      run({ [cachePath(Keys.balanceCache, "old")]: JSON.stringify({ value: { balance: "1", symbol: "E" }, expiresAt: -1 }) }, (_, raw) =>
        Effect.gen(function*() {
          expect(yield* rawGet(raw, cachePath(Keys.balanceCache, "old"))).toBeUndefined()
        })))

    it.effect("when the browser refuses every write, values still hold for the session", () =>
      withStorage(backend.storeWithQuota(0), {}, (storage, raw) =>
        Effect.gen(function*() {
          yield* storage.set(profileKey, alice)
          yield* storage.setCached(Keys.balanceCache, "a", { balance: "2", symbol: "SOL" })
          expect(yield* storage.get(profileKey)).toEqual(alice)
          expect(yield* storage.getCached(Keys.balanceCache, "a")).toEqual(Option.some({ balance: "2", symbol: "SOL" }))
          expect(yield* rawGet(raw, storagePath(profileKey))).toBeUndefined()
          yield* storage.remove(profileKey)
          expect(yield* storage.get(profileKey)).toEqual(profileKey.defaultValue)
        })))

    it.effect("a full quota is relieved by dropping caches, which can be fetched again", () =>
      withStorage(backend.storeWithQuota(400), {}, (storage, raw) =>
        Effect.gen(function*() {
          const big = cacheKey({ name: "test:big", schema: Schema.String, ttlMillis: 60_000 })
          yield* storage.setCached(big, "a", "x".repeat(300))
          expect(yield* rawGet(raw, cachePath(big, "a"))).toBeDefined()
          yield* storage.set(profileKey, { ...alice, name: "y".repeat(150) })
          expect(yield* rawGet(raw, storagePath(profileKey))).toBeDefined()
          expect(yield* rawGet(raw, cachePath(big, "a"))).toBeUndefined()
        })))

    it.effect("a value larger than the cap is kept in memory only", () =>
      run({}, (storage, raw) =>
        Effect.gen(function*() {
          const huge = { ...alice, name: "z".repeat(STORAGE_MAX_VALUE_LENGTH) }
          yield* storage.set(profileKey, huge)
          expect(yield* storage.get(profileKey)).toEqual(huge)
          expect(yield* rawGet(raw, storagePath(profileKey))).toBeUndefined()
          expect(yield* storage.corruptions).toEqual([])
        })))

    it.effect("recent wallets keep the 2 most recent, newest first, without duplicates", () =>
      run({}, (storage) =>
        Effect.gen(function*() {
          const wallet = (id: string) => ({ id, name: `Wallet ${id}`, image_id: `img-${id}`, chains: ["eip155:1"] })
          for (const id of ["a", "b", "a", "c"]) {
            yield* storage.modify(Keys.recentWallets, Keys.addRecentWallet(wallet(id)))
          }
          expect(yield* storage.get(Keys.recentWallets)).toEqual([wallet("c"), wallet("a")])
        })))

    it.effect("a tampered recent-wallets list longer than 2 reads as empty", () =>
      run(
        { [storagePath(Keys.recentWallets)]: JSON.stringify(["a", "b", "c"].map((id) => ({ id, name: id, image_id: id, chains: [] }))) },
        (storage) =>
          Effect.gen(function*() {
            expect(yield* storage.get(Keys.recentWallets)).toEqual([])
            expect(yield* storage.corruptions).toHaveLength(1)
          })
      ))

    it.effect("every product key round-trips and defaults", () =>
      run({}, (storage) =>
        Effect.gen(function*() {
          expect(yield* storage.get(Keys.connectionStatus("solana"))).toBe("disconnected")
          yield* storage.set(Keys.connectionStatus("solana"), "connected")
          expect(yield* storage.get(Keys.connectionStatus("solana"))).toBe("connected")
          expect(yield* storage.get(Keys.connectionStatus("eip155"))).toBe("disconnected")

          yield* storage.set(Keys.activeNetwork("eip155"), Schema.decodeSync(CaipNetworkId)("eip155:10"))
          expect(yield* storage.get(Keys.activeNetwork("eip155"))).toBe("eip155:10")

          expect(yield* storage.get(Keys.connectedConnector("eip155"))).toBeNull()
          yield* storage.set(Keys.connectedConnector("eip155"), { id: "walletConnect", type: "WALLET_CONNECT" })
          expect(yield* storage.get(Keys.connectedConnector("eip155"))).toEqual({ id: "walletConnect", type: "WALLET_CONNECT" })

          yield* storage.set(Keys.walletConnectDeepLink, { href: "wallet://", name: "Wallet" })
          expect(yield* storage.get(Keys.walletConnectDeepLink)).toEqual({ href: "wallet://", name: "Wallet" })

          expect(yield* storage.get(Keys.embeddedLogin)).toEqual(Keys.embeddedLogin.defaultValue)
          yield* storage.modify(Keys.embeddedLogin, (login) => ({ ...login, email: "a@b.co", emailLoginUsed: true }))
          expect((yield* storage.get(Keys.embeddedLogin)).email).toBe("a@b.co")

          expect(yield* storage.get(Keys.siwxSessions)).toEqual([])
        })))

    it.effect("a tampered active network that is not a CAIP-2 id reads as none", () =>
      run({ [storagePath(Keys.activeNetwork("eip155"))]: "\"not-a-network\"" }, (storage) =>
        Effect.gen(function*() {
          expect(yield* storage.get(Keys.activeNetwork("eip155"))).toBeNull()
        })))
  })
}
