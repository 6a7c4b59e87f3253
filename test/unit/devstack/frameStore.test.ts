/**
 * The frame's store (server/src/embedded/frame/FrameStore.ts): which mechanism it chooses for what the browser allows
 * the frame (a fake page as a Layer, modelling what Chromium keeps and drops), that it never asks for storage access
 * the browser has not granted already, and the cookies it writes.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Fiber, Layer } from "effect"
import { TestClock } from "effect/testing"
import type { FrameStorage } from "../../../server/src/embedded/frame/frameLogic"
import {
  FRAME_COOKIE_MAX_AGE_SECONDS,
  FramePage,
  FrameStore,
  makeCookieStorage,
  type StorageAccessState,
  StorageRefused
} from "../../../server/src/embedded/frame/FrameStore"

/** What the fake browser allows the frame. */
interface Allowed {
  readonly localStorage: "yes" | "refused" | "drops-writes"
  readonly permission: StorageAccessState
  /** Cookies without `Partitioned`: kept only once storage access was requested (when granted) or always. */
  readonly unpartitionedCookies: "after-access" | "never" | "always"
  readonly partitionedCookies: boolean
  /** The browser leaves `requestStorageAccess` unanswered (a prompt nobody sees). */
  readonly requestHangs?: boolean
}

const memory = (): FrameStorage & { readonly items: Map<string, string> } => {
  const items = new Map<string, string>()
  return { items, getItem: (k) => items.get(k) ?? null, setItem: (k, v) => void items.set(k, v), removeItem: (k) => void items.delete(k) }
}

/** A page whose cookie jar keeps or drops each cookie as a browser with `allowed` would; it records what it saw. */
const fakePage = (allowed: Allowed) => {
  const seen = { requested: 0, written: [] as Array<string> }
  const jar = new Map<string, string>()
  let access = false
  const local = memory()
  const service = {
    localStorage:
      allowed.localStorage === "refused"
        ? Effect.fail(new StorageRefused({ reason: "Access is denied for this document." }))
        : Effect.succeed<FrameStorage>(allowed.localStorage === "yes" ? local : { ...local, setItem: () => undefined }),
    storageAccessPermission: Effect.succeed(allowed.permission),
    requestStorageAccess: Effect.suspend(() => {
      seen.requested += 1
      if (allowed.requestHangs === true) return Effect.never
      if (allowed.permission !== "granted") return Effect.fail(new StorageRefused({ reason: "requestStorageAccess not allowed" }))
      access = true
      return Effect.void
    }),
    readCookies: () => [...jar].map(([name, value]) => `${name}=${value}`).join("; "),
    writeCookie: (cookie: string) => {
      seen.written.push(cookie)
      const [pair = "", ...attributes] = cookie.split(";").map((part) => part.trim())
      const partitioned = attributes.includes("Partitioned")
      const kept = partitioned
        ? allowed.partitionedCookies
        : allowed.unpartitionedCookies === "always" || (allowed.unpartitionedCookies === "after-access" && access)
      // Browsers keep no cookie in a cross-site frame without Secure and SameSite=None.
      if (!kept || !attributes.includes("Secure") || !attributes.includes("SameSite=None")) return
      const at = pair.indexOf("=")
      if (attributes.includes("Max-Age=0")) jar.delete(pair.slice(0, at))
      else jar.set(pair.slice(0, at), pair.slice(at + 1))
    }
  }
  return { seen, jar, local, service, layer: Layer.succeed(FramePage)(service) }
}

const choose = (page: ReturnType<typeof fakePage>) => Effect.service(FrameStore).pipe(Effect.provide(FrameStore.layer), Effect.provide(page.layer))

// Chromium 156 here: cross-site frame storage and unpartitioned cookies blocked (its default and
// profile.cookie_controls_mode 1), CHIPS kept, storage access only where already granted.
const blocked: Allowed = { localStorage: "refused", permission: "prompt", unpartitionedCookies: "after-access", partitionedCookies: true }

describe("FrameStore: the mechanism the frame keeps its session in", () => {
  it.effect("a same-site host, or a browser that partitions instead of blocking: the origin's localStorage, no cookie written", () =>
    Effect.gen(function* () {
      const page = fakePage({ ...blocked, localStorage: "yes" })
      const store = yield* choose(page)
      expect(store.mechanism).toBe("localStorage")
      store.storage.setItem("wr-frame/session-token", "t")
      expect(page.local.items.get("wr-frame/session-token")).toBe("t")
      expect(page.seen.written).toEqual([])
      expect(page.seen.requested).toBe(0)
    }))

  it.effect("third-party storage blocked, access not granted: never asks (a hidden frame has no click), keeps a Partitioned cookie", () =>
    Effect.gen(function* () {
      const page = fakePage(blocked)
      const store = yield* choose(page)
      expect(store.mechanism).toBe("partitioned-cookie")
      expect(page.seen.requested).toBe(0)
      expect(store.passedOver).toEqual(["localStorage: Access is denied for this document.", "storage-access: the permission is prompt"])
      store.storage.setItem("wr-frame/session-token", "token-1")
      expect(store.storage.getItem("wr-frame/session-token")).toBe("token-1")
      expect(page.seen.written.at(-1)).toBe(
        `wr-frame%2Fsession-token=token-1; Max-Age=${FRAME_COOKIE_MAX_AGE_SECONDS}; Path=/frame; Secure; SameSite=None; Partitioned`
      )
    }))

  it.effect("storage access already granted under this host: requested without a click, the frame's own unpartitioned cookies", () =>
    Effect.gen(function* () {
      const page = fakePage({ ...blocked, permission: "granted" })
      const store = yield* choose(page)
      expect(store.mechanism).toBe("storage-access")
      expect(page.seen.requested).toBe(1)
      store.storage.setItem("wr-frame/device-id", "d")
      expect(page.seen.written.at(-1)).not.toContain("Partitioned")
      expect(store.storage.getItem("wr-frame/device-id")).toBe("d")
    }))

  it.effect("access granted but its cookies still dropped: the Partitioned cookie, and the log says why", () =>
    Effect.gen(function* () {
      const page = fakePage({ ...blocked, permission: "granted", unpartitionedCookies: "never" })
      const store = yield* choose(page)
      expect(store.mechanism).toBe("partitioned-cookie")
      expect(store.passedOver[1]).toBe("storage-access: a value written was not kept")
    }))

  it.effect("a storage-access request left unanswered is passed over after 2 s: the frame still starts, on the Partitioned cookie", () =>
    Effect.gen(function* () {
      const page = fakePage({ ...blocked, permission: "granted", requestHangs: true })
      const fiber = yield* Effect.forkChild(choose(page))
      yield* TestClock.adjust("1999 millis")
      expect(fiber.pollUnsafe()).toBeUndefined()
      yield* TestClock.adjust("1 millis")
      const store = yield* Fiber.join(fiber)
      expect(store.mechanism).toBe("partitioned-cookie")
      expect(store.passedOver[1]).toBe("storage-access: no answer within 2 seconds")
    }))

  it.effect("a localStorage that takes writes but keeps nothing is not chosen", () =>
    Effect.gen(function* () {
      const store = yield* choose(fakePage({ ...blocked, localStorage: "drops-writes" }))
      expect(store.mechanism).toBe("partitioned-cookie")
      expect(store.passedOver[0]).toBe("localStorage: a value written was not kept")
    }))

  it.effect("nothing persistent allowed (no storage, no cookie kept, no API): memory, the session lasts as long as the page", () =>
    Effect.gen(function* () {
      const page = fakePage({ localStorage: "refused", permission: "unsupported", unpartitionedCookies: "never", partitionedCookies: false })
      const store = yield* choose(page)
      expect(store.mechanism).toBe("memory")
      store.storage.setItem("k", "v")
      expect(store.storage.getItem("k")).toBe("v")
      expect(page.jar.size).toBe(0)
    }))
})

describe("the frame's cookie storage", () => {
  it("keeps any text under any key, tells keys apart, and forgets a removed one", () => {
    const page = fakePage(blocked)
    const cookies = makeCookieStorage(page.service, true)
    cookies.setItem("wr-frame/pending-email", "ann; x=1 ✓@example.test")
    cookies.setItem("wr-frame/pending-email-2", "other")
    expect(cookies.getItem("wr-frame/pending-email")).toBe("ann; x=1 ✓@example.test")
    expect(cookies.getItem("wr-frame/pending")).toBe(null)
    cookies.removeItem("wr-frame/pending-email")
    expect(cookies.getItem("wr-frame/pending-email")).toBe(null)
    expect(cookies.getItem("wr-frame/pending-email-2")).toBe("other")
  })
})
