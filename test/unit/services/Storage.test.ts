import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import * as KeyValueStore from "effect/persistence/KeyValueStore"
import { vi } from "vitest"
import { Storage, storageKey, storagePath } from "../../../src/services/Storage/Storage"
import { recentWallets } from "../../../src/services/Storage/keys"
import { type Backend, storageContract } from "./StorageContract"

/** A Web Storage object like the browser's, refusing writes that would take it past `maxChars` as browsers do. */
class WebStorage implements globalThis.Storage {
  readonly #items = new Map<string, string>()
  constructor(readonly maxChars = Infinity) {}
  get length() {
    return this.#items.size
  }
  key(index: number) {
    return Array.from(this.#items.keys())[index] ?? null
  }
  getItem(key: string) {
    return this.#items.get(key) ?? null
  }
  setItem(key: string, value: string) {
    let used = key.length + value.length
    for (const [k, v] of this.#items) if (k !== key) used += k.length + v.length
    if (used > this.maxChars) throw new DOMException("The quota has been exceeded.", "QuotaExceededError")
    this.#items.set(key, String(value))
  }
  removeItem(key: string) {
    this.#items.delete(key)
  }
  clear() {
    this.#items.clear()
  }
}

/** The in-memory store with a write quota, failing as `layerStorage` fails when the browser refuses. */
const memoryWithQuota = (maxChars: number): Layer.Layer<KeyValueStore.KeyValueStore> =>
  Layer.effect(KeyValueStore.KeyValueStore)(Effect.gen(function*() {
    const inner = yield* KeyValueStore.KeyValueStore
    const used = (exceptKey: string) =>
      Effect.gen(function*() {
        let total = 0
        for (const key of yield* inner.keys) {
          if (key !== exceptKey) total += key.length + ((yield* inner.get(key))?.length ?? 0)
        }
        return total
      })
    return {
      ...inner,
      set: (key: string, value: string | Uint8Array) =>
        Effect.flatMap(used(key), (total) =>
          total + key.length + value.length > maxChars
            ? Effect.fail(new KeyValueStore.KeyValueStoreError({ method: "set", key, message: "quota exceeded" }))
            : inner.set(key, value))
    }
  })).pipe(Layer.provide(KeyValueStore.layerMemory))

const memory: Backend = {
  name: "memory",
  store: () => KeyValueStore.layerMemory,
  storeWithQuota: memoryWithQuota
}

const webStorage: Backend = {
  name: "Web Storage object",
  store: () => KeyValueStore.layerStorage(() => new WebStorage()),
  storeWithQuota: (maxChars) => KeyValueStore.layerStorage(() => new WebStorage(maxChars))
}

storageContract(memory)
storageContract(webStorage)

const themeKey = storageKey({ name: "test:theme", schema: recentWallets.schema, defaultValue: [] })

describe("Storage layers", () => {
  it.effect("layerMemory works with no browser at all", () =>
    Effect.gen(function*() {
      const storage = yield* Storage
      yield* storage.set(themeKey, [])
      expect(yield* storage.get(themeKey)).toEqual([])
    }).pipe(Effect.provide(Storage.layerMemory)))

  it.effect("layerBrowser falls back to memory when there is no localStorage (SSR, node)", () =>
    Effect.gen(function*() {
      expect("localStorage" in globalThis).toBe(false)
      const storage = yield* Storage
      const wallet = { id: "w", name: "W", image_id: "i", chains: [] }
      yield* storage.set(recentWallets, [wallet])
      expect(yield* storage.get(recentWallets)).toEqual([wallet])
    }).pipe(Effect.provide(Storage.layerBrowser)))

  it.effect("layerBrowser falls back to memory when reading localStorage throws (storage disabled)", () =>
    Effect.gen(function*() {
      Object.defineProperty(globalThis, "localStorage", {
        configurable: true,
        get: () => {
          throw new DOMException("The operation is insecure.", "SecurityError")
        }
      })
      yield* Effect.addFinalizer(() => Effect.sync(() => Reflect.deleteProperty(globalThis, "localStorage")))
      const wallet = { id: "w", name: "W", image_id: "i", chains: [] }
      const stored = yield* Effect.gen(function*() {
        const storage = yield* Storage
        yield* storage.set(recentWallets, [wallet])
        return yield* storage.get(recentWallets)
      }).pipe(Effect.provide(Storage.layerBrowser))
      expect(stored).toEqual([wallet])
    }).pipe(Effect.scoped))

  it.effect("layerBrowser writes to localStorage when there is one", () =>
    Effect.gen(function*() {
      const local = new WebStorage()
      Object.defineProperty(globalThis, "localStorage", { configurable: true, value: local })
      yield* Effect.addFinalizer(() => Effect.sync(() => Reflect.deleteProperty(globalThis, "localStorage")))
      const wallet = { id: "w", name: "W", image_id: "i", chains: [] }
      yield* Effect.gen(function*() {
        const storage = yield* Storage
        yield* storage.set(recentWallets, [wallet])
      }).pipe(Effect.provide(Storage.layerBrowser))
      expect(JSON.parse(local.getItem(storagePath(recentWallets)) ?? "null")).toEqual([wallet])
    }).pipe(Effect.scoped))

  it("importing the Storage modules touches no storage (SSR-safe)", async () => {
    const reads = vi.fn(() => new WebStorage())
    Object.defineProperty(globalThis, "localStorage", { configurable: true, get: reads })
    try {
      vi.resetModules()
      await import("../../../src/services/Storage/Storage")
      await import("../../../src/services/Storage/keys")
      expect(reads).not.toHaveBeenCalled()
    } finally {
      Reflect.deleteProperty(globalThis, "localStorage")
    }
  })
})
