/**
 * The embedded wallet's passkey login over the runtime's real core and the real AUTH connector on a scripted frame,
 * with the page's window as a test `SocialWindow`: the passkey window opened before anything else, sent to the
 * frame's passkey page; its message taken only from our popup at the frame's origin; verified → CONNECT_PASSKEY and
 * connected; cancelled, unsupported, the server's refusal, a closed window, a blocked one and 150 s (TestClock) each
 * end in the visitor's words with no session asked for; Cancel closes the window.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Stream, SubscriptionRef } from "effect"
import { TestClock } from "effect/testing"
import { localChainA } from "../../../../src/domain/networks"
import { decodeOptionsSync } from "../../../../src/domain/Options"
import { PASSKEY_PAGE_MESSAGE } from "../../../../src/domain/passkey"
import type { Connection } from "../../../../src/services/Connection"
import { EmbeddedWallet } from "../../../../src/services/Embedded/EmbeddedWallet"
import { PASSKEY_WAIT_MS } from "../../../../src/services/Embedded/passkeyFlow"
import { SocialWindow } from "../../../../src/services/Embedded/SocialWindow"
import { Modal } from "../../../../src/services/Modal"
import type { Notifications } from "../../../../src/services/Notifications"
import type { Storage } from "../../../../src/services/Storage/Storage"
import type { Theme } from "../../../../src/services/Theme"
import { embeddedCore, makeScriptedFrame, type ScriptedFrame } from "./scriptedFrame"
import { makePage, type Page, settle, until } from "./testPage"

const FRAME = "https://frame.test"
const PASSKEY_PAGE = `${FRAME}/frame/passkey?projectId=p&state=s1`
const ADDRESS = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8"
const options = decodeOptionsSync({ projectId: "p", networks: [localChainA], features: { email: false, socials: false, passkey: true }, endpoints: { frame: FRAME } })

const withPasskey = <A, E>(page: Page, body: (frame: ScriptedFrame) => Effect.Effect<A, E, EmbeddedWallet | Modal | Connection | Storage | Notifications | Theme>) =>
  Effect.gen(function* () {
    const frame = yield* makeScriptedFrame
    frame.answer("GET_PASSKEY_URI", () => {
      page.page.events.push("GET_PASSKEY_URI")
      return { ok: { uri: PASSKEY_PAGE } }
    })
    frame.answer("CONNECT_PASSKEY", () => ({ ok: { email: null, address: ADDRESS, chainId: 31337, accounts: [{ address: ADDRESS, type: "eoa" }] } }))
    return yield* Effect.provide(body(frame), embeddedCore(options, frame, {})).pipe(Effect.provideService(SocialWindow, page.service))
  })

/** The visitor chose `mode` on the Connect view; the passkey window is at the passkey page. */
const clicked = (page: Page, mode: "create" | "login" = "login") =>
  Effect.gen(function* () {
    yield* (yield* Modal).open({ view: "Connect" })
    yield* (yield* EmbeddedWallet).connectPasskey(mode)
    yield* until((s) => s.passkey._tag === "Waiting")
    yield* settle
    expect(page.popups[0]?.navigated).toEqual([PASSKEY_PAGE])
  })

const pageSays = (page: Page, data: unknown) => page.post({ source: page.popups[0]!.window, origin: FRAME, data })

describe("passkey login in a popup", () => {
  it.effect("opens the window before asking the frame, then connects once our window says verified from the frame's origin", () => {
    const page = makePage()
    return withPasskey(page, (frame) =>
      Effect.gen(function* () {
        yield* clicked(page, "create")
        expect(page.page.events).toEqual(["open", "GET_PASSKEY_URI"])
        expect(frame.posted.find((p) => p.name === "GET_PASSKEY_URI")?.payload).toEqual({ mode: "create" })
        const popup = page.popups[0]!.window
        // Another window at the frame origin, our window at another origin, another message: all ignored.
        page.post({ source: { someone: "else" }, origin: FRAME, data: { type: PASSKEY_PAGE_MESSAGE, outcome: "verified" } })
        page.post({ source: popup, origin: "https://evil.test", data: { type: PASSKEY_PAGE_MESSAGE, outcome: "verified" } })
        page.post({ source: popup, origin: FRAME, data: { type: "wallet-runtime/social-callback", uri: "x" } })
        yield* settle
        expect(frame.names()).not.toContain("CONNECT_PASSKEY")
        expect((yield* SubscriptionRef.get((yield* EmbeddedWallet).state)).passkey).toEqual({ _tag: "Waiting", mode: "create" })
        pageSays(page, { type: PASSKEY_PAGE_MESSAGE, outcome: "verified" })
        yield* until((s) => s.passkey._tag === "Idle")
        expect(frame.names()).toContain("CONNECT_PASSKEY")
        expect(page.popups[0]?.closed).toBe(true)
        expect(page.listening()).toBe(0)
        // Connected: the modal closes, as after any wallet.
        yield* Effect.flatMap(Modal, (modal) => SubscriptionRef.changes(modal.state).pipe(Stream.filter((m) => !m.open), Stream.runHead))
        expect((yield* SubscriptionRef.get((yield* EmbeddedWallet).state)).passkeyError).toBeUndefined()
      })
    )
  })

  it.effect.each([
    [{ outcome: "cancelled" }, "The passkey request was cancelled. Nothing was changed: try again when you are ready."],
    [{ outcome: "unsupported" }, "This browser cannot use passkeys: log in another way."],
    [
      { outcome: "failed", message: "This passkey is not known here: create a new one, or log in another way" },
      "This passkey is not known here: create a new one, or log in another way"
    ]
  ] as const)("the window's %j ends it in words, with no session asked for", ([outcome, words]) => {
    const page = makePage()
    return withPasskey(page, (frame) =>
      Effect.gen(function* () {
        yield* clicked(page)
        pageSays(page, { type: PASSKEY_PAGE_MESSAGE, ...outcome })
        const state = yield* until((s) => s.passkeyError !== undefined)
        expect(state.passkeyError).toBe(words)
        expect(state.passkey._tag).toBe("Idle")
        expect(frame.names()).not.toContain("CONNECT_PASSKEY")
        expect(page.popups[0]?.closed).toBe(true)
      })
    )
  })

  it.effect("a window the visitor closes ends the wait: closed, nothing changed", () => {
    const page = makePage()
    return withPasskey(page, (frame) =>
      Effect.gen(function* () {
        yield* clicked(page)
        page.popups[0]!.closed = true
        yield* TestClock.adjust(500)
        const state = yield* until((s) => s.passkeyError !== undefined)
        expect(state.passkeyError).toBe("The passkey window was closed before you used your passkey. Nothing was changed: try again.")
        expect(frame.names()).not.toContain("CONNECT_PASSKEY")
      })
    )
  })

  it.effect("a window still open after 150 s is closed and said too long; not a moment before", () => {
    const page = makePage()
    return withPasskey(page, () =>
      Effect.gen(function* () {
        yield* clicked(page)
        yield* TestClock.adjust(PASSKEY_WAIT_MS - 1)
        yield* settle
        expect((yield* SubscriptionRef.get((yield* EmbeddedWallet).state)).passkey._tag).toBe("Waiting")
        yield* TestClock.adjust(1)
        const state = yield* until((s) => s.passkeyError !== undefined)
        expect(state.passkeyError).toBe("The passkey request took too long: try again.")
        expect(page.popups[0]?.closed).toBe(true)
      })
    )
  })

  it.effect("a blocked window is said at once, and the frame is asked nothing", () => {
    const page = makePage({ blocked: true })
    return withPasskey(page, (frame) =>
      Effect.gen(function* () {
        yield* (yield* EmbeddedWallet).connectPasskey("login")
        const state = yield* until((s) => s.passkeyError !== undefined)
        expect(state.passkeyError).toBe("Your browser blocked the passkey window: allow pop-ups for this site, then try again.")
        expect(frame.names()).not.toContain("GET_PASSKEY_URI")
      })
    )
  })

  it.effect("Cancel closes the window and stops listening", () => {
    const page = makePage()
    return withPasskey(page, (frame) =>
      Effect.gen(function* () {
        yield* clicked(page)
        yield* (yield* EmbeddedWallet).cancelPasskey
        const state = yield* until((s) => s.passkey._tag === "Idle")
        expect(state.passkeyError).toBeUndefined()
        expect(page.popups[0]?.closed).toBe(true)
        expect(page.listening()).toBe(0)
        expect(frame.names()).not.toContain("CONNECT_PASSKEY")
      })
    )
  })
})
