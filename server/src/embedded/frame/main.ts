/**
 * The frame page's entry: wires the frame's logic (frameLogic.ts) to the page — the frame origin's localStorage,
 * the wallet server on this origin, `window.parent` at the parent's exact origin, and the page's message events.
 */
import { makeWalletApi } from "./apiClient"
import { type FrameStorage, makeFrame, makeMemoryStorage, parseFrameQuery } from "./frameLogic"

// Chromium tells the embedding page's origin in ancestorOrigins even when the referrer is stripped (no-referrer).
const parentOrigin = (): string | undefined => {
  if (window.parent === window) return undefined
  const ancestor = location.ancestorOrigins?.[0]
  if (ancestor !== undefined && ancestor !== "") return ancestor
  if (document.referrer === "") return undefined
  try {
    return new URL(document.referrer).origin
  } catch {
    return undefined
  }
}

const randomId = (): string => {
  const bytes = crypto.getRandomValues(new Uint8Array(24))
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_")
}

const query = parseFrameQuery(location.search)

// Chromium denies localStorage to a cross-site frame when third-party storage is blocked (reading the property
// throws): the frame then keeps its session in memory rather than not starting at all.
const frameStorage = (): FrameStorage => {
  try {
    const storage = window.localStorage
    storage.setItem("wr-frame/probe", "1")
    storage.removeItem("wr-frame/probe")
    return storage
  } catch (error) {
    if (query.enableLogger) {
      console.info(`[wallet frame] localStorage is not available here (${error instanceof Error ? error.message : String(error)}); the session lasts as long as this page`)
    }
    return makeMemoryStorage()
  }
}
const frame = makeFrame({
  api: makeWalletApi({ fetch: (input, init) => fetch(input, init), baseUrl: "", projectId: query.projectId }),
  storage: frameStorage(),
  post: (message, targetOrigin) => window.parent.postMessage(message, targetOrigin),
  parentOrigin: parentOrigin(),
  isParent: (source) => source === window.parent,
  query,
  randomId,
  now: () => Date.now(),
  log: (text) => console.info(text)
})
window.addEventListener("message", (event) => {
  void frame.receive({ data: event.data, origin: event.origin, source: event.source })
})
void frame.start()
