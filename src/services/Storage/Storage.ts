/**
 * Typed, versioned, schema-checked storage over `KeyValueStore`.
 *
 * Every value lives under one prefix with a schema version (`wr:v1:`). A value that is not JSON, has the wrong shape,
 * is too large, or sits under an older version is never handed to a caller: it reads as its key's default, the
 * entry is removed, and the damage is reported once per key. A browser that refuses to store (quota exceeded,
 * storage disabled) is never fatal either: the value is kept in memory for the session.
 */
import { Clock, Context, Effect, Layer, Option, PubSub, Result, Schema, Scope, Semaphore, Stream, SubscriptionRef } from "effect"
import * as KeyValueStore from "effect/persistence/KeyValueStore"

import { STORAGE_PREFIX, STORAGE_VERSION, STORAGE_VERSION_PREFIX } from "./paths"

export { STORAGE_PREFIX, STORAGE_VERSION, STORAGE_VERSION_PREFIX } from "./paths"
/** Stored strings longer than this are treated as tampered on read, and are kept in memory only on write. */
export const STORAGE_MAX_VALUE_LENGTH = 100_000

const CACHE_SEGMENT = "cache:"

/** A typed storage entry: its name under the versioned prefix, its Schema, and the value read when absent or bad. */
export interface StorageKey<A> {
  readonly _tag: "StorageKey"
  readonly name: string
  readonly schema: Schema.Codec<A, unknown>
  readonly defaultValue: A
}

/**
 * Declares a storage key. The schema's encoded side must be JSON (it is derived with `Schema.toCodecJson`).
 *
 * @example
 * const theme = storageKey({ name: "theme", schema: Schema.Literals(["light", "dark"]), defaultValue: "light" })
 */
export const storageKey = <A>(options: {
  readonly name: string
  readonly schema: Schema.Codec<A, unknown>
  readonly defaultValue: A
}): StorageKey<A> => ({ _tag: "StorageKey", ...options })

/** A family of cached entries with a lifetime, e.g. balances for 30 s; one entry per id (address, chain…). */
export interface CacheKey<A> {
  readonly _tag: "CacheKey"
  readonly name: string
  readonly schema: Schema.Codec<A, unknown>
  readonly ttlMillis: number
}

/** Declares a cache family whose entries expire `ttlMillis` after they are written. */
export const cacheKey = <A>(options: {
  readonly name: string
  readonly schema: Schema.Codec<A, unknown>
  readonly ttlMillis: number
}): CacheKey<A> => ({ _tag: "CacheKey", ...options })

/** The full backing-store key of a storage key, e.g. `wr:v1:activeNetwork:eip155`. */
export const storagePath = (key: StorageKey<unknown>): string => `${STORAGE_VERSION_PREFIX}${key.name}`

/** The full backing-store key of one cached entry, e.g. `wr:v1:cache:balance:eip155:1:0xabc`. */
export const cachePath = (key: CacheKey<unknown>, id: string): string =>
  `${STORAGE_VERSION_PREFIX}${CACHE_SEGMENT}${key.name}:${id}`

/** Why a stored value was discarded. */
export const StorageCorruptionReason = Schema.Literals(["NotJson", "InvalidValue", "TooLarge", "OutdatedVersion"])
/** Why a stored value was discarded. */
export type StorageCorruptionReason = typeof StorageCorruptionReason.Type

/** A discarded stored value: its full backing-store key and the reason. */
export const StorageCorruption = Schema.Struct({ key: Schema.String, reason: StorageCorruptionReason })
/** A discarded stored value: its full backing-store key and the reason. */
export type StorageCorruption = typeof StorageCorruption.Type

/** What the Storage service offers. */
export interface StorageService {
  /** The stored value, or the key's default when absent or corrupt. */
  readonly get: <A>(key: StorageKey<A>) => Effect.Effect<A>
  /** Stores a value (kept in memory for the session if the browser refuses it). */
  readonly set: <A>(key: StorageKey<A>, value: A) => Effect.Effect<void>
  /** Removes a value; the key then reads as its default. */
  readonly remove: (key: StorageKey<unknown>) => Effect.Effect<void>
  /** Reads, applies `f` and stores the result, serialised with other `modify` calls; returns the new value. */
  readonly modify: <A>(key: StorageKey<A>, f: (current: A) => A) => Effect.Effect<A>
  /** A cached entry that has not expired yet, by `Clock` time. */
  readonly getCached: <A>(key: CacheKey<A>, id: string) => Effect.Effect<Option.Option<A>>
  /** Caches a value for the family's lifetime from now. */
  readonly setCached: <A>(key: CacheKey<A>, id: string, value: A) => Effect.Effect<void>
  /** Drops a cached entry before its expiry (e.g. a forced refresh). */
  readonly removeCached: (key: CacheKey<unknown>, id: string) => Effect.Effect<void>
  /** The names of keys set or removed from now on (`StorageKey.name`, e.g. `activeNetwork:eip155`). */
  readonly changes: Stream.Stream<string>
  /** Every corruption reported so far in this session, each key at most once. */
  readonly corruptions: Effect.Effect<ReadonlyArray<StorageCorruption>>
  /** The list of reported corruptions now and after each new report. */
  readonly corruptionsChanges: Stream.Stream<ReadonlyArray<StorageCorruption>>
}

interface Codecs<A> {
  readonly decode: (json: unknown) => Result.Result<A, unknown>
  readonly encode: (value: A) => Result.Result<unknown, unknown>
}

// Keyed by the key object; each entry's type parameter is that key's, which a WeakMap cannot express.
const codecCache = new WeakMap<object, Codecs<any>>()

const codecsOf = <A>(owner: object, schema: () => Schema.Codec<A, unknown>): Codecs<A> => {
  const cached = codecCache.get(owner)
  if (cached !== undefined) return cached
  const json = Schema.toCodecJson(schema())
  const codecs: Codecs<A> = {
    decode: Schema.decodeUnknownResult(json) as Codecs<A>["decode"],
    encode: Schema.encodeUnknownResult(json) as Codecs<A>["encode"]
  }
  codecCache.set(owner, codecs)
  return codecs
}

const keyCodecs = <A>(key: StorageKey<A>): Codecs<A> => codecsOf(key, () => key.schema)

interface CacheEntry<A> {
  readonly value: A
  readonly expiresAt: number
}

const cacheCodecs = <A>(key: CacheKey<A>): Codecs<CacheEntry<A>> =>
  codecsOf(key, () => Schema.Struct({ value: key.schema, expiresAt: Schema.Finite }))

const parseJson = Schema.decodeUnknownResult(Schema.fromJsonString(Schema.Unknown))

const ExpiresAt = Schema.fromJsonString(Schema.Struct({ expiresAt: Schema.Finite }))
const parseExpiresAt = Schema.decodeUnknownOption(ExpiresAt)

/** A raw value as read: from the backing store, or kept in memory after the store refused it. */
interface Raw {
  readonly text: string
  readonly kept: boolean
}

/** Decodes a raw stored string, or says why it cannot be trusted. */
const decodeRaw = <A>(codecs: Codecs<A>, raw: Raw): Result.Result<A, StorageCorruptionReason> => {
  // Only the backing store can be tampered with; a kept value is one we encoded ourselves, whatever its size.
  if (!raw.kept && raw.text.length > STORAGE_MAX_VALUE_LENGTH) return Result.fail("TooLarge")
  const parsed = parseJson(raw.text)
  if (Result.isFailure(parsed)) return Result.fail("NotJson")
  const decoded = codecs.decode(parsed.success)
  return Result.isFailure(decoded) ? Result.fail("InvalidValue") : Result.succeed(decoded.success)
}

const encodeRaw = <A>(codecs: Codecs<A>, name: string, value: A): Effect.Effect<string> => {
  const encoded = codecs.encode(value)
  // The value is typed, so only a refinement (e.g. a length cap) can reject it: a bug of the caller, not of the visitor.
  return Result.isFailure(encoded)
    ? Effect.die(new Error(`Storage: value for "${name}" does not match its schema: ${String(encoded.failure)}`))
    : Effect.succeed(JSON.stringify(encoded.success))
}

const VERSIONED_KEY = /^wr:v(\d+):/

const make: Effect.Effect<StorageService, never, KeyValueStore.KeyValueStore | Scope.Scope> = Effect.gen(function*() {
  const store = yield* KeyValueStore.KeyValueStore
  const changes = yield* PubSub.unbounded<string>()
  yield* Effect.addFinalizer(() => PubSub.shutdown(changes))
  const corruptions = yield* SubscriptionRef.make<ReadonlyArray<StorageCorruption>>([])
  const lock = yield* Semaphore.make(1)
  // Values the backing store refused (quota, disabled storage, over the size cap) live here for the session.
  const memory = new Map<string, string>()
  const reported = new Set<string>()
  const warnedFailures = new Set<string>()

  const warnOnce = (key: string, message: string, cause?: unknown) =>
    Effect.suspend(() => {
      if (warnedFailures.has(key)) return Effect.void
      warnedFailures.add(key)
      return Effect.logWarning(message, { key, cause })
    })

  const report = (key: string, reason: StorageCorruptionReason) =>
    Effect.suspend(() => {
      if (reported.has(key)) return Effect.void
      reported.add(key)
      return Effect.logWarning("Storage: discarded a stored value that cannot be trusted", { key, reason }).pipe(
        Effect.andThen(SubscriptionRef.update(corruptions, (list) => [...list, { key, reason }]))
      )
    })

  const readRaw = (path: string): Effect.Effect<Raw | undefined> =>
    Effect.suspend(() => {
      const kept = memory.get(path)
      if (kept !== undefined) return Effect.succeed({ text: kept, kept: true })
      return store.get(path).pipe(
        Effect.map((text) => text === undefined ? undefined : { text, kept: false }),
        Effect.catch((error) => Effect.as(warnOnce(path, "Storage: cannot read, using defaults", error), undefined))
      )
    })

  const removeRaw = (path: string): Effect.Effect<void> =>
    Effect.suspend(() => {
      memory.delete(path)
      return store.remove(path).pipe(
        Effect.catch((error) => warnOnce(path, "Storage: cannot remove a stored value", error))
      )
    })

  const writeRaw = (path: string, raw: string): Effect.Effect<void> =>
    Effect.gen(function*() {
      if (raw.length > STORAGE_MAX_VALUE_LENGTH) {
        memory.set(path, raw)
        yield* store.remove(path).pipe(Effect.ignore)
        return yield* warnOnce(path, "Storage: value too large to persist, kept in memory for this session")
      }
      const first = yield* Effect.exit(store.set(path, raw))
      if (first._tag === "Success") {
        memory.delete(path)
        return
      }
      // Caches are the only entries we can rebuild, so they make room when the browser's quota is full.
      yield* store.clearPrefix(`${STORAGE_VERSION_PREFIX}${CACHE_SEGMENT}`).pipe(Effect.ignore)
      const second = yield* Effect.exit(store.set(path, raw))
      if (second._tag === "Success") {
        memory.delete(path)
        return
      }
      memory.set(path, raw)
      yield* warnOnce(path, "Storage: the browser refused to store, kept in memory for this session", second.cause)
    })

  const readKey = <A>(key: StorageKey<A>): Effect.Effect<A> =>
    Effect.gen(function*() {
      const path = storagePath(key)
      const raw = yield* readRaw(path)
      if (raw === undefined) return key.defaultValue
      const decoded = decodeRaw(keyCodecs(key), raw)
      if (Result.isSuccess(decoded)) return decoded.success
      yield* removeRaw(path)
      yield* report(path, decoded.failure)
      return key.defaultValue
    })

  const writeKey = <A>(key: StorageKey<A>, value: A): Effect.Effect<void> =>
    encodeRaw(keyCodecs(key), key.name, value).pipe(
      Effect.flatMap((raw) => writeRaw(storagePath(key), raw)),
      Effect.andThen(PubSub.publish(changes, key.name))
    )

  // Drops entries of older versions and expired cache entries, so the store does not grow without bound.
  const cleanUp = Effect.gen(function*() {
    const keys = yield* store.keys.pipe(Effect.catch(() => Effect.succeed<ReadonlyArray<string>>([])))
    const now = yield* Clock.currentTimeMillis
    for (const path of keys) {
      if (!path.startsWith(STORAGE_PREFIX)) continue
      if (path.startsWith(STORAGE_VERSION_PREFIX)) {
        if (!path.startsWith(`${STORAGE_VERSION_PREFIX}${CACHE_SEGMENT}`)) continue
        const raw = yield* readRaw(path)
        const entry = raw === undefined ? Option.none() : parseExpiresAt(raw.text)
        if (Option.isSome(entry) && entry.value.expiresAt <= now) yield* removeRaw(path)
        continue
      }
      const version = VERSIONED_KEY.exec(path)?.[1]
      // A newer version's entries belong to a newer build of the host app: leave them for it.
      if (version !== undefined && Number(version) > STORAGE_VERSION) continue
      yield* removeRaw(path)
      yield* report(path, "OutdatedVersion")
    }
  })
  yield* cleanUp

  return {
    get: Effect.fn("Storage.get")(function*<A>(key: StorageKey<A>): Effect.fn.Return<A> {
      return yield* readKey(key)
    }),
    set: Effect.fn("Storage.set")(function*<A>(key: StorageKey<A>, value: A): Effect.fn.Return<void> {
      yield* lock.withPermits(1)(writeKey(key, value))
    }),
    remove: Effect.fn("Storage.remove")(function*(key: StorageKey<unknown>) {
      yield* lock.withPermits(1)(removeRaw(storagePath(key)))
      yield* PubSub.publish(changes, key.name)
    }),
    modify: Effect.fn("Storage.modify")(function*<A>(key: StorageKey<A>, f: (current: A) => A): Effect.fn.Return<A> {
      return yield* lock.withPermits(1)(Effect.gen(function*() {
        const next = f(yield* readKey(key))
        yield* writeKey(key, next)
        return next
      }))
    }),
    getCached: Effect.fn("Storage.getCached")(
      function*<A>(key: CacheKey<A>, id: string): Effect.fn.Return<Option.Option<A>> {
        const path = cachePath(key, id)
        const raw = yield* readRaw(path)
        if (raw === undefined) return Option.none()
        const decoded = decodeRaw(cacheCodecs(key), raw)
        if (Result.isFailure(decoded)) {
          yield* removeRaw(path)
          yield* report(path, decoded.failure)
          return Option.none()
        }
        const now = yield* Clock.currentTimeMillis
        const { expiresAt, value } = decoded.success
        // An expiry further away than the lifetime was written by a clock we cannot trust (or by hand).
        if (now >= expiresAt || expiresAt - now > key.ttlMillis) {
          yield* removeRaw(path)
          return Option.none()
        }
        return Option.some(value)
      }
    ),
    setCached: Effect.fn("Storage.setCached")(function*<A>(key: CacheKey<A>, id: string, value: A): Effect.fn.Return<void> {
      const now = yield* Clock.currentTimeMillis
      const raw = yield* encodeRaw(cacheCodecs(key), key.name, { value, expiresAt: now + key.ttlMillis })
      yield* writeRaw(cachePath(key, id), raw)
    }),
    removeCached: Effect.fn("Storage.removeCached")(function*(key: CacheKey<unknown>, id: string) {
      yield* removeRaw(cachePath(key, id))
    }),
    changes: Stream.fromPubSub(changes),
    corruptions: SubscriptionRef.get(corruptions),
    corruptionsChanges: SubscriptionRef.changes(corruptions)
  }
})

// Reading `localStorage` throws in some browsers when storage is disabled (e.g. blocked cookies); there is none
// during SSR. Either way the session runs on memory.
const browserStore: Layer.Layer<KeyValueStore.KeyValueStore> = Layer.unwrap(
  Effect.try({
    try: () => globalThis.localStorage as globalThis.Storage | undefined,
    catch: () => undefined
  }).pipe(
    Effect.orElseSucceed(() => undefined),
    Effect.map((local) => local === undefined ? KeyValueStore.layerMemory : KeyValueStore.layerStorage(() => local))
  )
)

/** Typed, versioned storage: reads never fail, bad values read as defaults, browser refusals stay in memory. */
export class Storage extends Context.Service<Storage, StorageService>()("wallet-runtime/Storage") {
  /** Storage over the `KeyValueStore` in context. */
  static readonly layer: Layer.Layer<Storage, never, KeyValueStore.KeyValueStore> = Layer.effect(Storage)(make)

  /** Storage in memory only (tests, SSR). */
  static readonly layerMemory: Layer.Layer<Storage> = Storage.layer.pipe(Layer.provide(KeyValueStore.layerMemory))

  /** Storage over the browser's `localStorage`, or memory when there is none or it cannot be reached. */
  static readonly layerBrowser: Layer.Layer<Storage> = Storage.layer.pipe(Layer.provide(browserStore))
}
