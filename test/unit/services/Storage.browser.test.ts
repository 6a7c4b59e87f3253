// @vitest-environment happy-dom
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as KeyValueStore from "effect/persistence/KeyValueStore"
import { beforeEach } from "vitest"
import { Storage, storagePath } from "../../../src/services/Storage/Storage"
import { connectionStatus, recentWallets } from "../../../src/services/Storage/keys"
import { storageContract } from "./StorageContract"

/** happy-dom's localStorage, refusing writes past `maxChars` as a full browser quota does. */
const localStorageWithQuota = (maxChars: number): globalThis.Storage => {
  const local = window.localStorage
  const used = (exceptKey: string) => {
    let total = 0
    for (let i = 0; i < local.length; i++) {
      const key = local.key(i)
      if (key !== null && key !== exceptKey) total += key.length + (local.getItem(key)?.length ?? 0)
    }
    return total
  }
  return {
    get length() {
      return local.length
    },
    key: (index) => local.key(index),
    getItem: (key) => local.getItem(key),
    setItem: (key, value) => {
      if (used(key) + key.length + value.length > maxChars) {
        throw new DOMException("The quota has been exceeded.", "QuotaExceededError")
      }
      local.setItem(key, value)
    },
    removeItem: (key) => local.removeItem(key),
    clear: () => local.clear()
  }
}

beforeEach(() => window.localStorage.clear())

storageContract({
  name: "happy-dom localStorage",
  store: () => KeyValueStore.layerStorage(() => window.localStorage),
  storeWithQuota: (maxChars) => KeyValueStore.layerStorage(() => localStorageWithQuota(maxChars))
})

describe("Storage.layerBrowser in a browser", () => {
  it.effect("persists to localStorage, and a new session reads what the last one stored", () =>
    Effect.gen(function*() {
      const wallet = { id: "w", name: "W", image_id: "i", chains: ["eip155:1"] }
      yield* Effect.gen(function*() {
        const storage = yield* Storage
        yield* storage.set(recentWallets, [wallet])
        yield* storage.set(connectionStatus("eip155"), "connected")
      }).pipe(Effect.provide(Storage.layerBrowser))
      expect(window.localStorage.getItem(storagePath(connectionStatus("eip155")))).toBe("\"connected\"")

      const restored = yield* Effect.gen(function*() {
        const storage = yield* Storage
        return [yield* storage.get(recentWallets), yield* storage.get(connectionStatus("eip155"))] as const
      }).pipe(Effect.provide(Storage.layerBrowser))
      expect(restored).toEqual([[wallet], "connected"])
    }))
})
