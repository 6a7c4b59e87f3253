/**
 * The browser's FramePort: a hidden `<iframe>` of the embedded-wallet frame page appended to the page body, posts to
 * its window with the frame's exact origin as target, and the page's `message` events. Nothing touches `window` or
 * `document` until the port is built, so importing this module is safe during server rendering.
 */
import { Effect, Queue, Scope, Stream } from "effect"
import { FRAME_Z_INDEX } from "../../domain/constants"
import { FrameNotSet } from "../../domain/errors"
import type { FrameMessage, FramePlace, FramePort } from "./FrameBridge"
import { hideFrame } from "./hideFrame"

/** Where the frame page lives and what it is told in its query. */
export interface BrowserFramePortOptions {
  /** The frame endpoint (`endpoints.frame`); the page is `{frameUrl}/frame`. */
  readonly frameUrl: string
  readonly projectId: string
  readonly chainId: string | number
  /** The library's version, so the frame can refuse a host it does not speak to. */
  readonly version: string
  readonly enableLogger: boolean
}

/** The frame page's address with its query (spec 7.1: projectId, chainId, version, enableLogger). */
export const framePageUrl = (options: BrowserFramePortOptions): URL => {
  const url = new URL(`${options.frameUrl.replace(/\/+$/, "")}/frame`)
  url.searchParams.set("projectId", options.projectId)
  url.searchParams.set("chainId", String(options.chainId))
  url.searchParams.set("version", options.version)
  url.searchParams.set("enableLogger", String(options.enableLogger))
  return url
}

/**
 * Appends the hidden frame to the page body and listens to the page's messages; the frame and the listener are
 * removed when the scope closes. FrameNotSet when there is no document (server rendering) or the frame URL has no
 * origin a message can be addressed to (not http or https).
 */
export const browserFramePort = (options: BrowserFramePortOptions): Effect.Effect<FramePort, FrameNotSet, Scope.Scope> =>
  Effect.gen(function* () {
    if (typeof window === "undefined" || typeof document === "undefined" || document.body == null) {
      return yield* new FrameNotSet()
    }
    const url = yield* Effect.try({ try: () => framePageUrl(options), catch: () => new FrameNotSet() })
    // An opaque origin ("null") could only be posted to with '*': refused.
    if (url.protocol !== "https:" && url.protocol !== "http:") return yield* new FrameNotSet()
    const origin = url.origin

    // Listen before the frame exists, so a READY sent as soon as it loads is never missed.
    const inbox = yield* Queue.unbounded<FrameMessage>()
    yield* Effect.acquireRelease(
      Effect.sync(() => {
        const onMessage = (event: MessageEvent) => {
          Queue.offerUnsafe(inbox, { origin: event.origin, source: event.source, data: event.data })
        }
        window.addEventListener("message", onMessage)
        return onMessage
      }),
      (onMessage) => Effect.sync(() => window.removeEventListener("message", onMessage))
    )

    const iframe = yield* Effect.acquireRelease(
      Effect.sync(() => {
        const element = document.createElement("iframe")
        element.src = url.href
        element.title = "Embedded wallet"
        element.setAttribute("aria-hidden", "true")
        element.tabIndex = -1
        // The frame answers only an allowed parent origin, which a browser without ancestorOrigins tells it through
        // the referrer: send the origin (never the path), even when the page's own policy is no-referrer.
        element.referrerPolicy = "origin"
        // The secure views run WebAuthn in the frame once it is shown (a permission policy is read at load, so it is set now).
        element.setAttribute("allow", "publickey-credentials-get; publickey-credentials-create")
        // Style properties, not a style attribute: a strict Content-Security-Policy (no 'unsafe-inline') allows them.
        const style = element.style
        style.setProperty("position", "fixed")
        style.setProperty("border", "0")
        hideFrame(style)
        style.setProperty("z-index", String(FRAME_Z_INDEX))
        document.body.appendChild(element)
        return element
      }),
      (element) => Effect.sync(() => element.remove())
    )

    // Its code comes with the first secure view (the AUTH connector's chunk carries none of it).
    const reveal = (place: FramePlace) =>
      Effect.flatMap(
        Effect.promise(() => import("./revealFrame")),
        (module) => module.revealFrame(iframe, place)
      )

    return {
      origin,
      reveal,
      get window() {
        return iframe.contentWindow
      },
      post: (message: unknown) => {
        const target = iframe.contentWindow
        if (target === null) throw new FrameNotSet()
        target.postMessage(message, origin)
      },
      messages: Stream.fromQueue(inbox)
    }
  })
