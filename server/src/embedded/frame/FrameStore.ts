/**
 * Where the frame keeps what must outlive a reload (device id, session token, the account in front, and later the
 * device share of a split key): one small store, `getItem` / `setItem` / `removeItem`, over the first mechanism the
 * browser lets the frame use, chosen once at start:
 *
 * 1. `localStorage` of the frame's origin: a same-site host, or a browser that gives a cross-site frame its storage
 *    (partitioned by the host's site where the browser partitions);
 * 2. `storage-access`: the Storage Access API where the browser already granted this frame access under this host
 *    (`navigator.permissions` says `granted`, so `document.requestStorageAccess()` needs no click: a hidden frame
 *    gets none, and it never prompts): the frame's own, unpartitioned cookies;
 * 3. `partitioned-cookie`: a `Partitioned` (CHIPS) cookie the frame writes itself, which Chromium keeps even when it
 *    blocks third-party cookies and storage: kept per host site, readable only by the frame's origin, sent only with
 *    the frame page's own requests (`Path=/frame`; the wallet server reads no cookie: its API takes the bearer);
 * 4. `memory`: nothing persistent is allowed; the session lasts as long as the page.
 *
 * A value kept in a cookie travels with the frame page's own requests to the frame's server (as the session token
 * does anyway, as the bearer of every API call): a secret the server must never see (the device share) may be kept
 * here only sealed under a key the server does not hold.
 *
 * The page's side (probes, `document.cookie`, the permission) is the {@link FramePage} service, so the choice is
 * unit-tested with a Layer of a fake page; `main.ts` provides {@link FramePage.layerBrowser}.
 */
import { Context, Data, Effect, Layer, Result } from "effect"
import { type FrameStorage, makeMemoryStorage } from "./frameLogic"

/** How the store keeps its values, in the order they are tried. */
export type FrameStoreMechanism = "localStorage" | "storage-access" | "partitioned-cookie" | "memory"

/** The browser refused a storage mechanism (its words). */
export class StorageRefused extends Data.TaggedError("StorageRefused")<{ readonly reason: string }> {}

/** The state of the frame's `storage-access` permission under this host. */
export type StorageAccessState = "granted" | "prompt" | "denied" | "unsupported"

/** What the store needs of the frame's page. */
export interface FramePageService {
  /** The origin's `localStorage`, or why it cannot be used. */
  readonly localStorage: Effect.Effect<FrameStorage, StorageRefused>
  /** The `storage-access` permission's state, without asking the visitor anything. */
  readonly storageAccessPermission: Effect.Effect<StorageAccessState>
  /** `document.requestStorageAccess()`: only called when already granted (so no click is needed). */
  readonly requestStorageAccess: Effect.Effect<void, StorageRefused>
  /** `document.cookie` as the frame reads it. */
  readonly readCookies: () => string
  /** Writes one `Set-Cookie`-style string through `document.cookie`. */
  readonly writeCookie: (cookie: string) => void
}

/** The frame's page, as the store sees it. */
export class FramePage extends Context.Service<FramePage, FramePageService>()("wallet-frame/FramePage") {
  /** The real page: `window.localStorage`, `navigator.permissions`, `document.requestStorageAccess`, `document.cookie`. */
  static readonly layerBrowser: Layer.Layer<FramePage> = Layer.sync(FramePage)(() => browserPage)
}

const refusal = (error: unknown) => new StorageRefused({ reason: error instanceof Error ? error.message : String(error) })

const browserPage: FramePageService = {
  // Reading the property throws in Chromium when third-party storage is blocked.
  localStorage: Effect.try({ try: () => window.localStorage as FrameStorage, catch: refusal }),
  storageAccessPermission: Effect.promise(async (): Promise<StorageAccessState> => {
    if (typeof document.requestStorageAccess !== "function" || navigator.permissions === undefined) return "unsupported"
    try {
      return (await navigator.permissions.query({ name: "storage-access" as PermissionName })).state
    } catch {
      return "unsupported"
    }
  }),
  requestStorageAccess: Effect.tryPromise({ try: () => document.requestStorageAccess(), catch: refusal }),
  readCookies: () => document.cookie,
  writeCookie: (cookie) => {
    document.cookie = cookie
  }
}

/** The frame page's path: the cookies are scoped to it, so they go with no request to the wallet server's API. */
export const FRAME_COOKIE_PATH = "/frame"

/** How long a cookie is kept: 400 days, the most Chromium keeps one (a session ends earlier on the server). */
export const FRAME_COOKIE_MAX_AGE_SECONDS = 400 * 24 * 60 * 60

const PROBE_KEY = "wr-frame/probe"

/** The longest the frame waits on the browser's storage-access answers before passing over them (they may prompt). */
export const STORAGE_ACCESS_WAIT = "2 seconds"

/**
 * Web-storage-shaped access to the frame's cookies: one cookie per key (names and values URI-encoded), `Secure;
 * SameSite=None` so the browser keeps them in a cross-site frame, `Partitioned` unless the Storage Access API gave
 * the frame its unpartitioned cookies. Chromium treats http://localhost and http://127.0.0.1 as secure.
 */
export const makeCookieStorage = (page: Pick<FramePageService, "readCookies" | "writeCookie">, partitioned: boolean): FrameStorage => {
  const attributes = `Path=${FRAME_COOKIE_PATH}; Secure; SameSite=None${partitioned ? "; Partitioned" : ""}`
  return {
    getItem: (key) => {
      const name = encodeURIComponent(key)
      for (const pair of page.readCookies().split(";")) {
        const at = pair.indexOf("=")
        if (at > 0 && pair.slice(0, at).trim() === name) {
          try {
            return decodeURIComponent(pair.slice(at + 1).trim())
          } catch {
            return null
          }
        }
      }
      return null
    },
    setItem: (key, value) => page.writeCookie(`${encodeURIComponent(key)}=${encodeURIComponent(value)}; Max-Age=${FRAME_COOKIE_MAX_AGE_SECONDS}; ${attributes}`),
    removeItem: (key) => page.writeCookie(`${encodeURIComponent(key)}=; Max-Age=0; ${attributes}`)
  }
}

// A store is usable when what it was given reads back: browsers drop a refused cookie silently.
const keeps = (storage: FrameStorage): Effect.Effect<FrameStorage, StorageRefused> =>
  Effect.try({
    try: () => {
      const value = `probe-${Math.random().toString(36).slice(2)}`
      storage.setItem(PROBE_KEY, value)
      const read = storage.getItem(PROBE_KEY)
      storage.removeItem(PROBE_KEY)
      if (read !== value) throw new Error("a value written was not kept")
      return storage
    },
    catch: refusal
  })

/** The frame's store: the mechanism chosen at start, and the storage over it. */
export class FrameStore extends Context.Service<
  FrameStore,
  {
    readonly mechanism: FrameStoreMechanism
    readonly storage: FrameStorage
    /** Why each mechanism before the chosen one was passed over, for the frame's log. */
    readonly passedOver: ReadonlyArray<string>
  }
>()("wallet-frame/FrameStore") {
  /** Chooses the first mechanism the page allows (see the module's header). */
  static readonly layer: Layer.Layer<FrameStore, never, FramePage> = Layer.effect(FrameStore)(
    Effect.gen(function* () {
      const page = yield* FramePage
      const passedOver: Array<string> = []
      const chosen = (mechanism: FrameStoreMechanism, storage: FrameStorage) => ({ mechanism, storage, passedOver })
      const local = yield* Effect.result(Effect.flatMap(page.localStorage, keeps))
      if (Result.isSuccess(local)) return chosen("localStorage", local.success)
      passedOver.push(`localStorage: ${local.failure.reason}`)
      const permission = yield* page.storageAccessPermission.pipe(
        Effect.timeoutOrElse({ duration: STORAGE_ACCESS_WAIT, orElse: () => Effect.succeed("unsupported" as const) })
      )
      if (permission === "granted") {
        const request = page.requestStorageAccess.pipe(
          Effect.timeoutOrElse({
            duration: STORAGE_ACCESS_WAIT,
            orElse: () => Effect.fail(new StorageRefused({ reason: `no answer within ${STORAGE_ACCESS_WAIT}` }))
          })
        )
        const unpartitioned = yield* Effect.result(Effect.andThen(request, keeps(makeCookieStorage(page, false))))
        if (Result.isSuccess(unpartitioned)) return chosen("storage-access", unpartitioned.success)
        passedOver.push(`storage-access: ${unpartitioned.failure.reason}`)
      } else {
        passedOver.push(`storage-access: the permission is ${permission}`)
      }
      const partitioned = yield* Effect.result(keeps(makeCookieStorage(page, true)))
      if (Result.isSuccess(partitioned)) return chosen("partitioned-cookie", partitioned.success)
      passedOver.push(`partitioned-cookie: ${partitioned.failure.reason}`)
      return chosen("memory", makeMemoryStorage())
    })
  )
}
