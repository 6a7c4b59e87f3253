/**
 * The embedded wallet's social login over the runtime's real core and the real AUTH connector on a scripted frame,
 * with the page's window as a test `SocialWindow`: the popup opened before anything else, sent to the frame's
 * redirect URI; the callback taken only from our popup at the frame's origin; a closed popup cancels; 30000 ms raise
 * SOCIALS_TIMEOUT (TestClock); a blocked popup sends the page itself; `result_uri` on return completes the login when
 * it is the frame origin's callback and is refused otherwise, and leaves the address either way; the provider and
 * name are shown, kept, and forgotten on disconnect.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Fiber, Option, Stream, SubscriptionRef } from "effect"
import { TestClock } from "effect/testing"
import { localChainA } from "../../../../src/domain/networks"
import { decodeOptionsSync } from "../../../../src/domain/Options"
import { Connection } from "../../../../src/services/Connection"
import { EmbeddedWallet } from "../../../../src/services/Embedded/EmbeddedWallet"
import { SocialWindow } from "../../../../src/services/Embedded/SocialWindow"
import { Modal } from "../../../../src/services/Modal"
import { Notifications } from "../../../../src/services/Notifications"
import * as Keys from "../../../../src/services/Storage/keys"
import type { PlatformInfo } from "../../../../src/services/Platform"
import { Storage } from "../../../../src/services/Storage/Storage"
import { Theme } from "../../../../src/services/Theme"
import { embeddedCore, makeScriptedFrame, type ScriptedFrame } from "./scriptedFrame"
import { makePage, PAGE, type Page, settle, until } from "./testPage"

const FRAME = "https://frame.test"
const PROVIDER_URI = "https://idp.test/auth?state=s1"
const CALLBACK = `${FRAME}/social/callback?code=c1&state=s1`
const options = decodeOptionsSync({ projectId: "p", networks: [localChainA], features: { email: false }, endpoints: { frame: FRAME } })



const withSocial = <A, E>(
  page: Page & { readonly platform?: Partial<PlatformInfo> },
  body: (frame: ScriptedFrame) => Effect.Effect<A, E, EmbeddedWallet | Modal | Connection | Storage | Notifications | Theme>
) =>
  Effect.gen(function* () {
    const frame = yield* makeScriptedFrame
    frame.answer("GET_SOCIAL_REDIRECT_URI", () => {
      page.page.events.push("GET_SOCIAL_REDIRECT_URI")
      return { ok: { uri: PROVIDER_URI } }
    })
    frame.answer("CONNECT_SOCIAL", (payload) =>
      (payload as { uri: string }).uri === CALLBACK
        ? { ok: { address: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8", chainId: 31337, accounts: [], username: "octo", socialProvider: "github" } }
        : { error: "This login was not started here, was used already or has expired: try again" }
    )
    return yield* Effect.provide(body(frame), embeddedCore(options, frame, page.platform ?? {})).pipe(Effect.provideService(SocialWindow, page.service))
  })



/** The visitor clicked GitHub on the Connect view; the popup is at the provider. */
const clicked = (page: Page) =>
  Effect.gen(function* () {
    yield* (yield* Modal).open({ view: "Connect" })
    yield* (yield* EmbeddedWallet).connectSocial("github")
    yield* until((s) => s.social._tag === "Waiting")
    yield* settle
    expect(page.popups[0]?.navigated).toEqual([PROVIDER_URI])
  })

describe("social login in a popup", () => {
  it.effect("opens the popup before asking the frame, then connects with the callback our popup posts from the frame origin", () => {
    const page = makePage()
    return withSocial(page, (frame) =>
      Effect.gen(function* () {
        yield* clicked(page)
        expect(page.page.events).toEqual(["open", "GET_SOCIAL_REDIRECT_URI"])
        expect(frame.posted.find((p) => p.name === "GET_SOCIAL_REDIRECT_URI")?.payload).toEqual({ provider: "github", returnTo: PAGE })
        const popup = page.popups[0]!.window
        // Another window at the frame origin, and our popup at another origin: both ignored.
        page.post({ source: { someone: "else" }, origin: FRAME, data: { type: "wallet-runtime/social-callback", uri: CALLBACK } })
        page.post({ source: popup, origin: "https://evil.test", data: { type: "wallet-runtime/social-callback", uri: CALLBACK } })
        page.post({ source: popup, origin: FRAME, data: { type: "something-else", uri: CALLBACK } })
        yield* settle
        expect(frame.names()).not.toContain("CONNECT_SOCIAL")
        expect((yield* SubscriptionRef.get((yield* EmbeddedWallet).state)).social._tag).toBe("Waiting")
        page.post({ source: popup, origin: FRAME, data: { type: "wallet-runtime/social-callback", uri: CALLBACK } })
        const done = yield* until((s) => s.socialUser !== undefined)
        expect(done.socialUser).toEqual({ provider: "github", username: "octo" })
        expect(frame.posted.find((p) => p.name === "CONNECT_SOCIAL")?.payload).toEqual({ uri: CALLBACK })
        expect(page.popups[0]?.closed).toBe(true)
        expect(page.listening()).toBe(0)
        // Connected: the modal closes, as after any wallet.
        yield* Effect.flatMap(Modal, (modal) => SubscriptionRef.changes(modal.state).pipe(Stream.filter((m) => !m.open), Stream.runHead))
        expect(yield* (yield* Storage).get(Keys.embeddedLogin)).toMatchObject({ socialUsername: "octo", socialProvider: "github" })
        // Disconnect clears the social username from the login cache (spec 4).
        yield* (yield* Connection).disconnect()
        yield* until((s) => s.socialUser === undefined)
        expect(yield* (yield* Storage).get(Keys.embeddedLogin)).toMatchObject({ socialUsername: null, socialProvider: null })
      })
    )
  })

  it.effect("a popup the visitor closes ends the wait as cancelled; the frame is asked nothing more", () => {
    const page = makePage()
    return withSocial(page, (frame) =>
      Effect.gen(function* () {
        yield* clicked(page)
        page.popups[0]!.closed = true
        yield* TestClock.adjust(500)
        const state = yield* until((s) => s.social._tag === "Idle")
        expect(state.socialError).toBe("The login was cancelled: the window was closed.")
        expect(frame.names()).not.toContain("CONNECT_SOCIAL")
      })
    )
  })

  it.effect("a wait of 30000 ms raises SOCIALS_TIMEOUT and closes the popup; not a moment before", () => {
    const page = makePage()
    return withSocial(page, () =>
      Effect.gen(function* () {
        yield* clicked(page)
        const notifications = yield* Notifications
        yield* TestClock.adjust(29_999)
        expect((yield* SubscriptionRef.get(notifications.state)).alerts.map((a) => a.id)).not.toContain("SOCIALS_TIMEOUT")
        yield* TestClock.adjust(1)
        const state = yield* until((s) => s.social._tag === "Idle")
        expect(state.socialError).toBe("The login took too long: try again.")
        expect((yield* SubscriptionRef.get(notifications.state)).alerts.map((a) => a.id)).toContain("SOCIALS_TIMEOUT")
        expect(page.popups[0]?.closed).toBe(true)
      })
    )
  })

  it.effect("the visitor's Cancel closes the popup and stops listening", () => {
    const page = makePage()
    return withSocial(page, () =>
      Effect.gen(function* () {
        yield* clicked(page)
        yield* (yield* EmbeddedWallet).cancelSocial
        expect((yield* SubscriptionRef.get((yield* EmbeddedWallet).state)).social._tag).toBe("Idle")
        expect(page.popups[0]?.closed).toBe(true)
        yield* settle
        expect(page.listening()).toBe(0)
      })
    )
  })

  it.effect("a Cancel while the frame still answers closes the popup, and the provider's page is never opened", () => {
    const page = makePage()
    return withSocial(page, (frame) =>
      Effect.gen(function* () {
        frame.answer("GET_SOCIAL_REDIRECT_URI", () => "hold")
        yield* (yield* Modal).open({ view: "Connect" })
        // The click's action waits on the frame: it runs beside the test, as in the page.
        const clicking = yield* Effect.forkChild((yield* EmbeddedWallet).connectSocial("github"))
        yield* until((s) => s.social._tag === "Waiting")
        yield* settle
        yield* (yield* EmbeddedWallet).cancelSocial
        expect(page.popups[0]?.closed).toBe(true)
        frame.release("GET_SOCIAL_REDIRECT_URI", { ok: { uri: PROVIDER_URI } })
        yield* Fiber.join(clicking)
        expect(page.popups[0]?.navigated).toEqual([])
        expect(page.listening()).toBe(0)
        expect((yield* SubscriptionRef.get((yield* EmbeddedWallet).state)).social._tag).toBe("Idle")
      })
    )
  })

  it.effect("the frame's refusal (a wrong state) is said under the buttons, and nothing is connected", () => {
    const page = makePage()
    return withSocial(page, () =>
      Effect.gen(function* () {
        yield* clicked(page)
        page.post({ source: page.popups[0]!.window, origin: FRAME, data: { type: "wallet-runtime/social-callback", uri: `${FRAME}/social/callback?code=c&state=forged` } })
        const state = yield* until((s) => s.social._tag === "Idle" && s.socialError !== undefined)
        expect(state.socialError).toContain("not started here")
        expect(state.socialUser).toBeUndefined()
        expect(yield* (yield* Connection).session("eip155")).toEqual(Option.none())
      })
    )
  })
})

describe("theme and dapp data to the frame", () => {
  it.effect("once the frame said READY: SYNC_DAPP_DATA, SYNC_THEME now, and SYNC_THEME again when the host changes it", () => {
    const page = makePage()
    return withSocial(page, (frame) =>
      Effect.gen(function* () {
        yield* clicked(page)
        yield* settle
        expect(frame.posted.find((p) => p.name === "SYNC_DAPP_DATA")?.payload).toMatchObject({ projectId: "p", sdkType: "wallet-runtime", sdkVersion: "4" })
        expect(frame.posted.filter((p) => p.name === "SYNC_THEME")).toHaveLength(1)
        yield* (yield* Theme).setThemeMode("dark")
        yield* settle
        expect(frame.posted.filter((p) => p.name === "SYNC_THEME").map((p) => p.payload)).toEqual([{}, { themeMode: "dark" }])
      })
    )
  })

  it.effect("nothing is sent, and the frame is not loaded for it, before the visitor needs the frame", () => {
    const page = makePage()
    return withSocial(page, (frame) =>
      Effect.gen(function* () {
        yield* (yield* Theme).setThemeMode("dark")
        yield* settle
        expect(frame.names()).toEqual([])
      })
    )
  })
})

describe("social login without a popup", () => {
  it.effect("a blocked popup sends the page itself to the provider", () => {
    const page = makePage({ blocked: true })
    return withSocial(page, (frame) =>
      Effect.gen(function* () {
        yield* (yield* Modal).open({ view: "Connect" })
        yield* (yield* EmbeddedWallet).connectSocial("github")
        yield* settle
        expect(page.page.redirected).toEqual([PROVIDER_URI])
        expect(frame.posted.find((p) => p.name === "GET_SOCIAL_REDIRECT_URI")?.payload).toEqual({ provider: "github", returnTo: PAGE })
      })
    )
  })

  it.effect("inside a messenger's mini-app no popup is opened: the page goes to the provider", () => {
    const page = { ...makePage(), platform: { miniApp: "android" as const } }
    return withSocial(page, () =>
      Effect.gen(function* () {
        yield* (yield* Modal).open({ view: "Connect" })
        yield* (yield* EmbeddedWallet).connectSocial("google")
        yield* settle
        expect(page.page.events).not.toContain("open")
        expect(page.popups).toEqual([])
        expect(page.page.redirected).toEqual([PROVIDER_URI])
      })
    )
  })

  it.effect("back with result_uri (the frame origin's callback): it leaves the address and completes the login", () => {
    const page = makePage({ href: `${PAGE}&result_uri=${encodeURIComponent(CALLBACK)}` })
    return withSocial(page, (frame) =>
      Effect.gen(function* () {
        const state = yield* until((s) => s.socialUser !== undefined)
        expect(state.socialUser).toEqual({ provider: "github", username: "octo" })
        expect(page.page.href).toBe(PAGE)
        expect(frame.posted.find((p) => p.name === "CONNECT_SOCIAL")?.payload).toEqual({ uri: CALLBACK })
      })
    )
  })

  it.effect("a result_uri of another origin is refused: removed from the address, never sent to the frame", () => {
    const page = makePage({ href: `${PAGE}&result_uri=${encodeURIComponent("https://evil.test/social/callback?code=c1&state=s1")}` })
    return withSocial(page, (frame) =>
      Effect.gen(function* () {
        const state = yield* until((s) => s.socialError !== undefined)
        expect(state.socialError).toBe("A login result from another site was refused.")
        expect(page.page.href).toBe(PAGE)
        yield* settle
        expect(frame.names()).not.toContain("CONNECT_SOCIAL")
      })
    )
  })
})
