/**
 * Sign-in with the wallet (the host's `siwx`) after an email login on a device without the share of the embedded
 * wallet's key, over the runtime's real core and AUTH connector on a scripted frame: Recover comes first, the sign view
 * after it; recovered, Sign goes on to the message (signed in the browser test, on the real frame); Recover cancelled, or a key only the first device's
 * kept secret protects, is said in the sign view in words and signs nothing, and then sign-in's own rules hold
 * (required: Cancel disconnects, every family of the login with it; otherwise it closes, connected).
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Fiber, Option, Stream, SubscriptionRef } from "effect"
import { localChainA, localSolana } from "../../../../src/domain/networks"
import { newDeviceWords } from "../../../../src/domain/newDevice"
import { decodeOptionsSync } from "../../../../src/domain/Options"
import type { SiwxMessageInput } from "../../../../src/domain/Siwx"
import { Connection } from "../../../../src/services/Connection"
import { EMBEDDED_CONNECTOR_ID } from "../../../../src/services/Embedded/EmbeddedAuth"
import { EmbeddedWallet } from "../../../../src/services/Embedded/EmbeddedWallet"
import type { FramePlace } from "../../../../src/services/FrameBridge/FrameBridge"
import { currentRoute, Modal } from "../../../../src/services/Modal"
import { Siwx, type SiwxState } from "../../../../src/services/Siwx/Siwx"
import * as Keys from "../../../../src/services/Storage/keys"
import { Storage } from "../../../../src/services/Storage/Storage"
import { hostBackend } from "../siwxHostBackend"
import { embeddedCore, FRAME_ADDRESS, makeScriptedFrame, type ScriptedFrame } from "./scriptedFrame"
import { settle, until } from "./testPage"

const place: FramePlace = {
  rect: () => ({ top: 80, left: 20, width: 360, height: 416 }),
  watch: () => () => undefined,
  returnFocus: () => undefined
}

const routeNow = Effect.flatMap(Modal, (modal) => Effect.map(SubscriptionRef.get(modal.state), (state) => (state.open ? currentRoute(state) : undefined)))

/** Once the modal shows `view` (the secure views' code comes with the first one, so a few turns are not enough). */
const viewUntil = (view: string) =>
  Effect.flatMap(Modal, (modal) => SubscriptionRef.changes(modal.state).pipe(Stream.filter((m) => m.open && currentRoute(m).view === view), Stream.runHead))

const siwxUntil = (condition: (state: SiwxState) => boolean) =>
  Effect.flatMap(Siwx, (siwx) => SubscriptionRef.changes(siwx.state).pipe(Stream.filter(condition), Stream.runHead, Effect.map(Option.getOrThrow)))

/** What the sign view says went wrong, once it asks. */
const signViewError = Effect.map(
  siwxUntil((s) => s.step._tag === "Needed" && !s.step.signing),
  (s) => (s.step._tag === "Needed" ? s.step.error?.message : undefined)
)

/** The embedded user's Solana address (the frame's on a Solana network). */
const SOLANA_ADDRESS = "7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV"

const status = Effect.flatMap(Connection, (c) => Effect.map(SubscriptionRef.get(c.state), (s) => s.namespaces.eip155?.account.status))

/** An embedded session stored before a reload, restored as the runtime's start does (the stored status read then). */
const restoreStoredSession = Effect.gen(function* () {
  const connection = yield* Connection
  const storage = yield* Storage
  yield* storage.set(Keys.connectionStatus("eip155"), "connected")
  yield* storage.set(Keys.connectedConnector("eip155"), { id: EMBEDDED_CONNECTOR_ID, type: "AUTH" })
  yield* connection.updateAccount("eip155", (account) => ({ ...account, status: "reconnecting" }))
  yield* SubscriptionRef.update(connection.state, (s) => ({
    ...s,
    activeNamespace: "eip155" as const,
    namespaces: { ...s.namespaces, eip155: { ...s.namespaces.eip155!, connector: { id: EMBEDDED_CONNECTOR_ID, type: "AUTH" as const } } }
  }))
  yield* connection.restore(() => Effect.succeed(localChainA))
})

/**
 * `body` after a code login (or, `restored`, a session restored after a reload) on a device the frame says lacks its
 * share (`recovery` protects the key), with sign-in through a host backend (`required` or not); Recover's view holds
 * until the test releases it.
 */
const newDeviceLogin = <A, E>(
  opts: { readonly required: boolean; readonly recovery: "password" | "device"; readonly restored?: boolean; readonly solana?: boolean },
  body: (
    frame: ScriptedFrame,
    host: ReturnType<typeof hostBackend> & { readonly created: Promise<void> },
    recovered: () => void,
    protectedOnFirstDevice: () => void
  ) => Effect.Effect<A, E, Modal | EmbeddedWallet | Siwx | Connection | Storage>
) =>
  Effect.gen(function* () {
    const frame = yield* makeScriptedFrame
    let created: () => void = () => undefined
    const made = new Promise<void>((resolve) => (created = resolve))
    const backend = hostBackend({ required: opts.required })
    const host = {
      ...backend,
      created: made,
      config: { ...backend.config, createMessage: (input: SiwxMessageInput) => backend.config.createMessage(input).finally(() => created()) }
    }
    let needsRecovery = true
    let recovery = opts.recovery
    frame.answer("GET_USER", (payload) => {
      // The same user's Solana account where the frame is asked on a Solana network.
      const onSolana = (payload as { readonly chainId?: unknown } | undefined)?.chainId === localSolana.caipNetworkId
      const address = onSolana ? SOLANA_ADDRESS : FRAME_ADDRESS
      return {
        ok: {
          address,
          chainId: onSolana ? localSolana.caipNetworkId : 31337,
          accounts: [{ address, type: "eoa" }],
          recovery,
          ...(needsRecovery ? { needsRecovery } : {})
        }
      }
    })
    frame.answer("OPEN_SECURE_VIEW", () => "hold")
    frame.answer("CLOSE_SECURE_VIEW", () => ({ ok: undefined }))
    const options = decodeOptionsSync({ projectId: "p", networks: opts.solana === true ? [localChainA, localSolana] : [localChainA], endpoints: { frame: "https://frame.test" }, siwx: host.config })
    return yield* Effect.gen(function* () {
      if (opts.restored === true) {
        yield* restoreStoredSession
      } else {
        yield* (yield* Modal).open({ view: "Connect" })
        const embedded = yield* EmbeddedWallet
        yield* embedded.submitEmail("ada@example.com")
        // The login's connect waits on sign-in: it runs apart, as a click's action would.
        yield* Effect.forkChild(embedded.submitOtp("123456"))
      }
      return yield* body(frame, host, () => void (needsRecovery = false), () => void (recovery = "password"))
    }).pipe(Effect.provide(embeddedCore(options, frame, {})))
  })

/** Recover is in front (sign-in still checking, nothing to sign yet), its view shown and asked of the frame. */
const recoverInFront = (frame: ScriptedFrame) =>
  Effect.gen(function* () {
    const embedded = yield* EmbeddedWallet
    yield* until((s) => s.needsRecovery === true)
    yield* viewUntil("SecureFrame")
    expect(yield* routeNow).toEqual({ view: "SecureFrame", kind: "recover" })
    yield* embedded.showSecureView(place)
    yield* settle
    expect(frame.posted.filter((p) => p.name === "OPEN_SECURE_VIEW").at(-1)?.payload).toMatchObject({ kind: "recover" })
  })

/** The visitor leaves Recover with its Cancel: the frame's view ends and the SecureFrame view unmounts. */
const cancelRecover = (frame: ScriptedFrame) =>
  Effect.gen(function* () {
    frame.release("OPEN_SECURE_VIEW", { ok: { outcome: "cancelled" } })
    yield* settle
    yield* (yield* EmbeddedWallet).hideSecureView
  })

describe("sign-in after a login on a device without the wallet's share", () => {
  it.effect("required: Recover comes before the sign view; recovered, the sign view asks with no error and Sign goes on to the message", () =>
    newDeviceLogin({ required: true, recovery: "password" }, (frame, host, recovered) =>
      Effect.gen(function* () {
        const siwx = yield* Siwx
        yield* recoverInFront(frame)
        expect((yield* SubscriptionRef.get(siwx.state)).step._tag).toBe("Checking")
        // No message made before the wallet can sign it; the modal cannot be closed meanwhile.
        expect(host.calls.filter((call) => call.startsWith("create"))).toEqual([])
        expect((yield* SubscriptionRef.get((yield* Modal).state)).signInRequired).toBe(true)
        recovered()
        frame.release("OPEN_SECURE_VIEW", { ok: { outcome: "done" } })
        expect(yield* signViewError).toBeUndefined()
        expect((yield* routeNow)?.view).toBe("SIWXSignMessage")
        expect((yield* SubscriptionRef.get((yield* EmbeddedWallet).state)).needsRecovery).toBe(false)
        // Sign: nothing stands before the message now (the signature itself is the browser test's, on the real frame).
        yield* siwx.signIn.pipe(Effect.forkChild)
        yield* Effect.promise(() => host.created)
        expect(host.calls.filter((call) => call.startsWith("create"))).toEqual(["create:eip155:31337"])
        expect(frame.names().filter((name) => name === "OPEN_SECURE_VIEW")).toHaveLength(1)
      })
    )
  )

  it.effect("required: Recover cancelled says why in the sign view and signs nothing; Sign opens Recover again; Cancel disconnects", () =>
    newDeviceLogin({ required: true, recovery: "password" }, (frame, host) =>
      Effect.gen(function* () {
        const siwx = yield* Siwx
        yield* recoverInFront(frame)
        yield* cancelRecover(frame)
        expect(yield* signViewError).toBe(newDeviceWords("password"))
        expect((yield* routeNow)?.view).toBe("SIWXSignMessage")
        expect((yield* SubscriptionRef.get(siwx.state)).step).toMatchObject({ _tag: "Needed", final: false })
        // Sign (Try again) asks for Recover again, over the sign view, before anything is signed.
        const again = yield* siwx.signIn.pipe(Effect.forkChild)
        yield* viewUntil("SecureFrame")
        expect(yield* routeNow).toEqual({ view: "SecureFrame", kind: "recover" })
        yield* (yield* EmbeddedWallet).showSecureView(place)
        yield* settle
        yield* cancelRecover(frame)
        yield* Fiber.await(again)
        expect(yield* signViewError).toBe(newDeviceWords("password"))
        expect((yield* routeNow)?.view).toBe("SIWXSignMessage")
        expect(host.calls.filter((call) => call.startsWith("create") || call.startsWith("add"))).toEqual([])
        expect(frame.names()).not.toContain("RPC_REQUEST")
        yield* siwx.cancel
        yield* settle
        expect(yield* routeNow).toBeUndefined()
        expect(yield* status).not.toBe("connected")
        expect(host.sessions).toEqual([])
      })
    )
  )

  it.effect("not required: Recover cancelled says why in the sign view; Cancel closes the modal, the wallet connected without a session", () =>
    newDeviceLogin({ required: false, recovery: "password" }, (frame, host) =>
      Effect.gen(function* () {
        yield* recoverInFront(frame)
        expect((yield* SubscriptionRef.get((yield* Modal).state)).signInRequired).toBe(false)
        yield* cancelRecover(frame)
        expect(yield* signViewError).toBe(newDeviceWords("password"))
        yield* (yield* Siwx).cancel
        yield* settle
        expect(yield* routeNow).toBeUndefined()
        expect(yield* status).toBe("connected")
        expect(host.sessions).toEqual([])
      })
    )
  )

  it.effect("an account checked while the modal is closed: Recover opens over the sign view, so leaving it goes back there with the words", () =>
    newDeviceLogin({ required: false, recovery: "password" }, (frame) =>
      Effect.gen(function* () {
        const siwx = yield* Siwx
        const modal = yield* Modal
        yield* recoverInFront(frame)
        yield* cancelRecover(frame)
        expect(yield* signViewError).toBe(newDeviceWords("password"))
        yield* siwx.cancel
        expect(yield* routeNow).toBeUndefined()
        // The account is checked again with the modal closed (as after a switch of account or network; the check reads
        // the account in front, not the wallet it is given).
        yield* siwx.afterConnect(undefined as never).pipe(Effect.forkChild)
        yield* viewUntil("SecureFrame")
        expect((yield* SubscriptionRef.get(modal.state)).history.map((entry) => entry.route.view)).toEqual(["SIWXSignMessage", "SecureFrame"])
        yield* (yield* EmbeddedWallet).showSecureView(place)
        yield* settle
        yield* cancelRecover(frame)
        yield* viewUntil("SIWXSignMessage")
        expect(yield* signViewError).toBe(newDeviceWords("password"))
        expect((yield* SubscriptionRef.get(modal.state)).history.map((entry) => entry.route.view)).toEqual(["SIWXSignMessage"])
      })
    )
  )

  it.effect("a session restored after a reload, before the flows were ever fetched: Recover comes first, over the sign view, before any message; recovered, the sign view asks", () =>
    newDeviceLogin({ required: true, recovery: "password", restored: true }, (frame, host, recovered) =>
      Effect.gen(function* () {
        const siwx = yield* Siwx
        const modal = yield* Modal
        expect(yield* status).toBe("connected")
        yield* recoverInFront(frame)
        // Sign-in's check waited for it: nothing asked to sign yet, Recover over the sign view (where leaving it goes).
        expect((yield* SubscriptionRef.get(siwx.state)).step._tag).toBe("Checking")
        expect((yield* SubscriptionRef.get(modal.state)).history.map((entry) => entry.route.view)).toEqual(["SIWXSignMessage", "SecureFrame"])
        expect((yield* SubscriptionRef.get(modal.state)).signInRequired).toBe(true)
        expect(host.calls.filter((call) => call.startsWith("create"))).toEqual([])
        recovered()
        frame.release("OPEN_SECURE_VIEW", { ok: { outcome: "done" } })
        expect(yield* signViewError).toBeUndefined()
        expect((yield* routeNow)?.view).toBe("SIWXSignMessage")
        yield* siwx.signIn.pipe(Effect.forkChild)
        yield* Effect.promise(() => host.created)
        expect(host.calls.filter((call) => call.startsWith("create"))).toEqual(["create:eip155:31337"])
      })
    )
  )

  it.effect("a key only the first device's kept secret protects: no Recover; the sign view says so in words, and Sign signs nothing", () =>
    newDeviceLogin({ required: true, recovery: "device" }, (frame, host) =>
      Effect.gen(function* () {
        expect(yield* signViewError).toBe(newDeviceWords("device", "checkAgain"))
        // The words end with what this view offers: its Check again, not a new login.
        expect(yield* signViewError).toMatch(/choose Protect your wallet, then come back here and choose Check again\.$/)
        expect((yield* routeNow)?.view).toBe("SIWXSignMessage")
        // Nothing on this device can change it: the sign view offers no Sign again, and Sign does nothing.
        const siwx = yield* Siwx
        expect((yield* SubscriptionRef.get(siwx.state)).step).toMatchObject({ _tag: "Needed", final: true })
        yield* siwx.signIn
        expect(yield* signViewError).toBe(newDeviceWords("device", "checkAgain"))
        expect((yield* SubscriptionRef.get(siwx.state)).step).toMatchObject({ _tag: "Needed", final: true, signing: false })
        expect(frame.names()).not.toContain("OPEN_SECURE_VIEW")
        expect(frame.names()).not.toContain("RPC_REQUEST")
        expect(host.calls.filter((call) => call.startsWith("create"))).toEqual([])
      })
    )
  )

  it.effect("a key only the first device protects, protected there meanwhile: Check again (Sign on that step) reads the wallet again, Recover opens, and recovered the message is made", () =>
    newDeviceLogin({ required: true, recovery: "device" }, (frame, host, recovered, protectedOnFirstDevice) =>
      Effect.gen(function* () {
        const siwx = yield* Siwx
        expect(yield* signViewError).toBe(newDeviceWords("device", "checkAgain"))
        const asked = () => frame.names().filter((name) => name === "GET_USER").length
        // Checked again before anything changed: the wallet is read again, and the same words come back.
        const before = asked()
        yield* siwx.signIn
        expect(asked()).toBeGreaterThan(before)
        expect((yield* SubscriptionRef.get(siwx.state)).step).toMatchObject({ _tag: "Needed", final: true, signing: false })
        expect(frame.names()).not.toContain("OPEN_SECURE_VIEW")
        // The visitor protects the wallet on the first device, then checks again here: Recover, then the message.
        protectedOnFirstDevice()
        const again = yield* siwx.signIn.pipe(Effect.forkChild)
        yield* recoverInFront(frame)
        expect((yield* SubscriptionRef.get(siwx.state)).step._tag).toBe("Checking")
        recovered()
        frame.release("OPEN_SECURE_VIEW", { ok: { outcome: "done" } })
        yield* Effect.promise(() => host.created)
        expect(host.calls.filter((call) => call.startsWith("create"))).toEqual(["create:eip155:31337"])
        yield* Fiber.interrupt(again)
      })
    )
  )

  it.effect("required, on a host with EVM and Solana: Recover cancelled, Disconnect disconnects both families and the modal closes, Solana never asked", () =>
    newDeviceLogin({ required: true, recovery: "password", solana: true }, (frame, host) =>
      Effect.gen(function* () {
        const siwx = yield* Siwx
        const connection = yield* Connection
        yield* recoverInFront(frame)
        const both = yield* SubscriptionRef.get(connection.state)
        expect([both.activeNamespace, both.namespaces.eip155?.account.status, both.namespaces.solana?.account.status]).toEqual(["eip155", "connected", "connected"])
        yield* cancelRecover(frame)
        expect(yield* signViewError).toBe(newDeviceWords("password"))
        yield* siwx.cancel
        yield* settle
        const after = yield* SubscriptionRef.get(connection.state)
        expect([after.activeNamespace, after.namespaces.eip155?.account.status, after.namespaces.solana?.account.status]).toEqual([undefined, "disconnected", "disconnected"])
        expect(yield* routeNow).toBeUndefined()
        expect((yield* SubscriptionRef.get((yield* Modal).state)).signInRequired).toBe(false)
        expect((yield* SubscriptionRef.get(siwx.state)).step).toEqual({ _tag: "SignedOut" })
        // The Solana account of the same login was never checked, nor Recover asked again for it.
        expect(host.calls).toEqual(["get:eip155:31337"])
        expect(frame.names().filter((name) => name === "OPEN_SECURE_VIEW")).toHaveLength(1)
        expect(host.sessions).toEqual([])
      })
    )
  )
})
