/**
 * The frame page's entry: wires the frame's logic (frameLogic.ts) to the page — the frame's store (FrameStore.ts),
 * the wallet server on this origin, `window.parent` at the parent's exact origin, and the page's message events.
 */
import { Effect } from "effect"
import { makeWalletApi } from "./apiClient"
import { FramePage, FrameStore } from "./FrameStore"
import { makeFrame, parseFrameQuery } from "./frameLogic"

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

// The frame starts once it knows where it keeps its session: the first mechanism the browser allows it (FrameStore.ts),
// logged when asked. The host sends nothing before READY, so no message is missed meanwhile.
const run = async (): Promise<void> => {
  const store = await Effect.runPromise(Effect.service(FrameStore).pipe(Effect.provide(FrameStore.layer), Effect.provide(FramePage.layerBrowser)))
  if (query.enableLogger) {
    console.info(`[wallet frame] keeps its session in ${store.mechanism}${store.passedOver.length === 0 ? "" : ` (passed over: ${store.passedOver.join("; ")})`}`)
  }
  const api = makeWalletApi({ fetch: (input, init) => fetch(input, init), baseUrl: "", projectId: query.projectId })
  // The secure views' code (and the split keys' curves, Shamir and scrypt) comes the first time one opens.
  let secureView: typeof import("./secureView") | undefined
  // Cookies travel with the frame page's requests to its server.
  const storageTravels = store.mechanism === "partitioned-cookie" || store.mechanism === "storage-access"
  const frame = makeFrame({
    api,
    storage: store.storage,
    post: (message, targetOrigin) => window.parent.postMessage(message, targetOrigin),
    parentOrigin: parentOrigin(),
    isParent: (source) => source === window.parent,
    query,
    randomId,
    now: () => Date.now(),
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    log: (text) => console.info(text),
    storageTravels,
    secureViews: {
      load: async () => {
        secureView ??= await import("./secureView")
      },
      open: (kind, theme) =>
        secureView === undefined ? Promise.resolve("cancelled") : secureView.openSecureView(kind, theme, { api, storage: store.storage, credentials: navigator.credentials, storageTravels }),
      theme: (theme) => secureView?.themeSecureView(theme),
      close: () => secureView?.closeSecureView(),
      withheld: () => secureView?.withheldBySecureView() ?? []
    }
  })
  window.addEventListener("message", (event) => {
    void frame.receive({ data: event.data, origin: event.origin, source: event.source })
  })
  await frame.start()
}
void run()
