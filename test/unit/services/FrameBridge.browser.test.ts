// @vitest-environment happy-dom
/**
 * The browser FramePort in happy-dom (which loads no iframe page): the hidden frame's element and address, posts
 * addressed to the frame's exact origin only, the page's message events reaching the bridge from the frame's window
 * only, and the frame and listener gone when the scope closes.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Fiber, Scope } from "effect"
import { vi } from "vitest"
import { FrameNotSet } from "../../../src/domain/errors"
import { FrameBridge } from "../../../src/services/FrameBridge/FrameBridge"
import { browserFramePort, framePageUrl } from "../../../src/services/FrameBridge/browserPort"

const OPTIONS = {
  frameUrl: "https://frame.example:8443/",
  projectId: "p r&oject",
  chainId: "eip155:1",
  version: "1.2.3",
  enableLogger: false
} as const

const frames = () => Array.from(document.body.querySelectorAll("iframe"))

const dispatch = (data: unknown, origin: string, source: unknown) =>
  Effect.sync(() => window.dispatchEvent(new MessageEvent("message", { data, origin, source: source as Window })))

interface Post {
  readonly message: { readonly id: string; readonly type: string }
  readonly target: unknown
}

/**
 * happy-dom loads no iframe page, so the frame has no window: give the element one that records what is posted to
 * it (an own property over the element's getter; the port reads it the way it reads a browser's).
 */
const stubFrameWindow = (iframe: HTMLIFrameElement) => {
  const posts: Array<Post> = []
  const frameWindow = {
    postMessage: (message: Post["message"], target: unknown) => {
      posts.push({ message, target })
    }
  }
  Object.defineProperty(iframe, "contentWindow", { value: frameWindow, configurable: true })
  return { frameWindow, posts }
}

describe("browserFramePort", () => {
  it("builds the frame page address with its query", () => {
    const url = framePageUrl({ ...OPTIONS, frameUrl: "https://frame.example/base//", chainId: 10, enableLogger: true })
    expect(url.origin).toBe("https://frame.example")
    expect(url.pathname).toBe("/base/frame")
    expect(Object.fromEntries(url.searchParams)).toEqual({ projectId: "p r&oject", chainId: "10", version: "1.2.3", enableLogger: "true" })
  })

  it.effect("appends one hidden, unfocusable frame at z-index 999999, removed when the scope closes", () =>
    Effect.gen(function* () {
      const scope = yield* Scope.make()
      const removed = vi.spyOn(window, "removeEventListener")
      const port = yield* browserFramePort(OPTIONS).pipe(Scope.provide(scope))
      expect(port.origin).toBe("https://frame.example:8443")
      const [iframe, ...others] = frames()
      expect(others).toEqual([])
      expect(iframe).toBeDefined()
      const src = new URL(iframe!.getAttribute("src")!)
      expect(`${src.origin}${src.pathname}`).toBe("https://frame.example:8443/frame")
      expect(Object.fromEntries(src.searchParams)).toEqual({
        projectId: "p r&oject",
        chainId: "eip155:1",
        version: "1.2.3",
        enableLogger: "false"
      })
      expect(iframe!.getAttribute("title")).toBe("Embedded wallet")
      expect(iframe!.getAttribute("aria-hidden")).toBe("true")
      expect(iframe!.tabIndex).toBe(-1)
      expect(iframe!.getAttribute("referrerpolicy")).toBe("origin")
      // Only WebAuthn is delegated, for the passkey in the frame's own views (shown over the modal); nothing else.
      expect(iframe!.getAttribute("allow")).toBe("publickey-credentials-get; publickey-credentials-create")
      expect(iframe!.style.getPropertyValue("z-index")).toBe("999999")
      expect(iframe!.style.getPropertyValue("visibility")).toBe("hidden")
      expect(iframe!.style.getPropertyValue("width")).toBe("0px")
      expect(iframe!.style.getPropertyValue("height")).toBe("0px")
      expect(port.window).toBe(iframe!.contentWindow)
      // Without a window (happy-dom loads no page) a post cannot be addressed: it throws, the bridge reports it.
      expect(() => port.post({ id: "a1", type: "@wr-app/IS_CONNECTED" })).toThrow(FrameNotSet)
      expect(removed.mock.calls.filter(([type]) => type === "message")).toEqual([])
      yield* Scope.close(scope, Exit.void)
      expect(frames()).toEqual([])
      expect(removed.mock.calls.filter(([type]) => type === "message")).toHaveLength(1)
      removed.mockRestore()
    })
  )

  it.effect("posts to the frame's window with its exact origin as target, never '*'", () =>
    Effect.gen(function* () {
      const port = yield* browserFramePort(OPTIONS)
      const { frameWindow, posts } = stubFrameWindow(frames()[0]!)
      expect(port.window).toBe(frameWindow)
      port.post({ id: "a1", type: "@wr-app/IS_CONNECTED" })
      expect(posts).toEqual([{ message: { id: "a1", type: "@wr-app/IS_CONNECTED" }, target: "https://frame.example:8443" }])
    }).pipe(Effect.scoped)
  )

  it.effect("a bridge over it: READY and the reply come only from the frame's window and origin", () =>
    Effect.gen(function* () {
      const port = yield* browserFramePort(OPTIONS)
      const bridge = yield* FrameBridge.make(port)
      const { frameWindow: contentWindow, posts } = stubFrameWindow(frames()[0]!)

      const request = yield* Effect.forkChild(bridge.request("IS_CONNECTED"))
      yield* dispatch({ type: "@wr-frame/READY" }, "https://frame.example", contentWindow)
      yield* dispatch({ type: "@wr-frame/READY" }, "https://frame.example:8443", window)
      yield* Effect.yieldNow
      expect(posts).toEqual([])

      yield* dispatch({ type: "@wr-frame/READY" }, "https://frame.example:8443", contentWindow)
      yield* Effect.repeat(Effect.yieldNow, { until: () => posts.length > 0 })
      expect(posts[0]!.target).toBe("https://frame.example:8443")
      const id = posts[0]!.message.id
      yield* dispatch({ id, type: "@wr-frame/IS_CONNECTED_SUCCESS", payload: { isConnected: false } }, "https://frame.example.evil", contentWindow)
      yield* dispatch({ id, type: "@wr-frame/IS_CONNECTED_SUCCESS", payload: { isConnected: true } }, "https://frame.example:8443", contentWindow)
      expect(yield* Fiber.join(request)).toEqual({ isConnected: true })
    }).pipe(Effect.scoped)
  )

  it.effect("a frame URL without an addressable origin is FrameNotSet, and nothing is appended", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(browserFramePort({ ...OPTIONS, frameUrl: "data:text/html,hi" }))
      expect(error).toBeInstanceOf(FrameNotSet)
      expect(frames()).toEqual([])
    }).pipe(Effect.scoped)
  )
})
