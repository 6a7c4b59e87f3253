/**
 * The modal's side of the frame's secure views over the runtime's real core and the real AUTH connector on a scripted
 * frame: the Account view's action opens SecureFrame; once that view holds its room the frame is shown over it and
 * asked for the view (in the host's theme); how the view ended hides the frame and gives the view before it back; leaving
 * the view hides the frame and tells it to drop the view; a frame that cannot show it is said in words.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, SubscriptionRef } from "effect"
import { localChainA } from "../../../../src/domain/networks"
import { decodeOptionsSync } from "../../../../src/domain/Options"
import { EmbeddedWallet } from "../../../../src/services/Embedded/EmbeddedWallet"
import type { FramePlace } from "../../../../src/services/FrameBridge/FrameBridge"
import { currentRoute, Modal } from "../../../../src/services/Modal"
import { embeddedCore, makeScriptedFrame, type ScriptedFrame } from "./scriptedFrame"
import { settle, until } from "./testPage"

const FRAME = "https://frame.test"
const options = decodeOptionsSync({ projectId: "p", networks: [localChainA], themeMode: "dark", endpoints: { frame: FRAME } })

const place: FramePlace = {
  rect: () => ({ top: 80, left: 20, width: 360, height: 416 }),
  watch: () => () => undefined,
  returnFocus: () => undefined
}

const routeNow = Effect.flatMap(Modal, (modal) => Effect.map(SubscriptionRef.get(modal.state), (state) => (state.open ? currentRoute(state) : undefined)))

/**
 * `body` over the core with a scripted frame that holds each OPEN_SECURE_VIEW (until the test releases it) and answers
 * CLOSE_SECURE_VIEW, the modal open on the Account view.
 */
const onAccount = <A, E>(body: (frame: ScriptedFrame, embedded: EmbeddedWallet["Service"]) => Effect.Effect<A, E, Modal | EmbeddedWallet>) =>
  Effect.gen(function* () {
    const frame = yield* makeScriptedFrame
    frame.answer("OPEN_SECURE_VIEW", () => "hold")
    frame.answer("CLOSE_SECURE_VIEW", () => ({ ok: undefined }))
    return yield* Effect.gen(function* () {
      yield* (yield* Modal).open({ view: "Account" })
      return yield* body(frame, yield* EmbeddedWallet)
    }).pipe(Effect.provide(embeddedCore(options, frame, {})))
  })

/** A code login from the Connect view (the scripted frame's default answers). */
const codeLogin = Effect.gen(function* () {
  yield* (yield* Modal).open({ view: "Connect" })
  const embedded = yield* EmbeddedWallet
  yield* embedded.submitEmail("ada@example.com")
  yield* embedded.submitOtp("123456")
})

describe("the frame's secure views in the modal", () => {
  it.effect("Protect your wallet: SecureFrame opens, the frame is shown over its room and asked in the host's theme; done hides it and gives Account back", () =>
    onAccount((frame, embedded) =>
      Effect.gen(function* () {
        yield* embedded.openSecureView("protect")
        yield* settle
        expect(yield* routeNow).toEqual({ view: "SecureFrame", kind: "protect" })
        // Nothing is shown before the view holds its room.
        expect(frame.reveals).toEqual([])
        yield* embedded.showSecureView(place)
        yield* settle
        expect(frame.reveals).toEqual(["shown"])
        expect(frame.posted.find((p) => p.name === "OPEN_SECURE_VIEW")?.payload).toEqual({ kind: "protect", themeMode: "dark" })
        frame.release("OPEN_SECURE_VIEW", { ok: { outcome: "done" } })
        yield* until((s) => s.recovery === "password")
        yield* settle
        expect(frame.reveals).toEqual(["shown", "hidden"])
        expect(yield* routeNow).toEqual({ view: "Account" })
        // The view's own end needs no CLOSE: the frame dropped it already.
        yield* embedded.hideSecureView
        yield* settle
        expect(frame.names()).not.toContain("CLOSE_SECURE_VIEW")
      })
    )
  )

  it.effect("leaving the view (Back) hides the frame and tells it to drop the view; the visitor's cancel in the frame gives Account back with nothing changed", () =>
    onAccount((frame, embedded) =>
      Effect.gen(function* () {
        const modal = yield* Modal
        yield* embedded.openSecureView("export")
        yield* embedded.showSecureView(place)
        yield* settle
        expect(frame.reveals).toEqual(["shown"])
        yield* modal.goBack
        // The view unmounts and says so.
        yield* embedded.hideSecureView
        yield* settle
        expect(frame.reveals).toEqual(["shown", "hidden"])
        expect(frame.names()).toContain("CLOSE_SECURE_VIEW")
        expect(yield* routeNow).toEqual({ view: "Account" })

        yield* embedded.openSecureView("protect")
        yield* embedded.showSecureView(place)
        yield* settle
        frame.release("OPEN_SECURE_VIEW", { ok: { outcome: "cancelled" } })
        yield* settle
        expect(frame.reveals).toEqual(["shown", "hidden", "shown", "hidden"])
        expect(yield* routeNow).toEqual({ view: "Account" })
        expect((yield* SubscriptionRef.get(embedded.state)).recovery).toBeUndefined()
      })
    )
  )

  it.effect("a view mounted again at once (React's StrictMode): the frame drops the first view before it is asked for the second", () =>
    onAccount((frame, embedded) =>
      Effect.gen(function* () {
        yield* embedded.openSecureView("export")
        yield* embedded.showSecureView(place)
        yield* embedded.hideSecureView
        yield* embedded.showSecureView(place)
        yield* settle
        // Whether the first view got as far as the frame or not, its CLOSE comes before the second OPEN, and nothing after.
        expect(frame.names().filter((name) => name.endsWith("SECURE_VIEW")).slice(-2)).toEqual(["CLOSE_SECURE_VIEW", "OPEN_SECURE_VIEW"])
        expect(frame.reveals.at(-1)).toBe("shown")
        expect(frame.reveals.filter((r) => r === "shown").length).toBe(frame.reveals.filter((r) => r === "hidden").length + 1)
        expect(yield* routeNow).toEqual({ view: "SecureFrame", kind: "export" })
      })
    )
  )

  it.effect("a frame that cannot show the view: the frame is hidden again and the view says why", () =>
    onAccount((frame, embedded) =>
      Effect.gen(function* () {
        frame.answer("OPEN_SECURE_VIEW", () => ({ error: "Not connected: log in with your email first." }))
        yield* embedded.openSecureView("recover")
        yield* embedded.showSecureView(place)
        const state = yield* until((s) => s.secureViewError !== undefined)
        expect(state.secureViewError).toBe("Not connected: log in with your email first.")
        yield* settle
        expect(frame.reveals).toEqual(["shown", "hidden"])
        expect(yield* routeNow).toEqual({ view: "SecureFrame", kind: "recover" })
        // Asking for it again starts clean.
        yield* embedded.openSecureView("recover")
        expect((yield* SubscriptionRef.get(embedded.state)).secureViewError).toBeUndefined()
      })
    )
  )

  it.effect("a code login on a device without the key's share: Recover opens by itself over Account; recovered, the modal closes as after any login", () =>
    Effect.gen(function* () {
      const frame = yield* makeScriptedFrame
      const address = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8"
      let needsRecovery = true
      frame.answer("GET_USER", () => ({
        ok: { address, chainId: 31337, accounts: [{ address, type: "eoa" }], recovery: "password", ...(needsRecovery ? { needsRecovery } : {}) }
      }))
      frame.answer("OPEN_SECURE_VIEW", () => "hold")
      yield* Effect.gen(function* () {
        const embedded = yield* EmbeddedWallet
        yield* codeLogin
        yield* settle
        expect(yield* routeNow).toEqual({ view: "SecureFrame", kind: "recover" })
        expect((yield* SubscriptionRef.get(embedded.state)).needsRecovery).toBe(true)
        yield* embedded.showSecureView(place)
        yield* settle
        expect(frame.posted.find((p) => p.name === "OPEN_SECURE_VIEW")?.payload).toMatchObject({ kind: "recover" })
        needsRecovery = false
        frame.release("OPEN_SECURE_VIEW", { ok: { outcome: "done" } })
        yield* until((s) => s.needsRecovery === false)
        yield* settle
        expect(yield* routeNow).toBeUndefined()
      }).pipe(Effect.provide(embeddedCore(options, frame, {})))
    })
  )

  it.effect("cancelled, the visitor stays connected on Account; a wallet only the first device protects opens Account, which says so", () =>
    Effect.gen(function* () {
      const frame = yield* makeScriptedFrame
      const address = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8"
      let recovery = "password"
      frame.answer("GET_USER", () => ({ ok: { address, chainId: 31337, accounts: [{ address, type: "eoa" }], recovery, needsRecovery: true } }))
      frame.answer("OPEN_SECURE_VIEW", () => "hold")
      frame.answer("SIGN_OUT", () => ({ ok: undefined }))
      yield* Effect.gen(function* () {
        const embedded = yield* EmbeddedWallet
        const modal = yield* Modal
        yield* codeLogin
        yield* embedded.showSecureView(place)
        yield* settle
        frame.release("OPEN_SECURE_VIEW", { ok: { outcome: "cancelled" } })
        yield* settle
        expect(yield* routeNow).toEqual({ view: "Account" })
        expect((yield* SubscriptionRef.get(embedded.state)).needsRecovery).toBe(true)
        // The same user whose key only the first device's kept secret protects: no Recover, the Account view says why.
        recovery = "device"
        yield* modal.close
        yield* codeLogin
        yield* settle
        expect(yield* routeNow).toEqual({ view: "Account" })
        expect((yield* SubscriptionRef.get(embedded.state)).recovery).toBe("device")
      }).pipe(Effect.provide(embeddedCore(options, frame, {})))
    })
  )

  it.effect("the Account view learns what protects the wallet from the frame's user", () =>
    Effect.gen(function* () {
      const frame = yield* makeScriptedFrame
      const address = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8"
      frame.answer("GET_USER", () => ({ ok: { address, chainId: 31337, accounts: [{ address, type: "eoa" }], recovery: "device" } }))
      yield* Effect.gen(function* () {
        const embedded = yield* EmbeddedWallet
        yield* embedded.refreshRecovery
        expect((yield* SubscriptionRef.get(embedded.state)).recovery).toBe("device")
      }).pipe(Effect.provide(embeddedCore(options, frame, {})))
    })
  )
})
