import { describe, expect, it } from "@effect/vitest"
import { Effect, Fiber, Layer, SubscriptionRef } from "effect"
import { TestClock } from "effect/testing"
import { decodeOptionsSync } from "../../../src/domain/Options"
import { localChainA } from "../../../src/domain/networks"
import { ChainAdapters } from "../../../src/services/ChainAdapter"
import { Connectors } from "../../../src/services/connectors/Connectors"
import { makeFakeChainAdapter, makeFakeWallet } from "../../../src/services/fakes/FakeWallet"
import { Analytics } from "../../../src/services/Analytics"
import { Config } from "../../../src/services/Config"
import { Connection } from "../../../src/services/Connection"
import { currentEntry, currentRoute, Modal } from "../../../src/services/Modal"
import { Notifications } from "../../../src/services/Notifications"
import { Platform } from "../../../src/services/Platform"
import { Storage } from "../../../src/services/Storage/Storage"

const ALICE = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"

const makeLayer = (options: { readonly adapters?: boolean; readonly isMobile?: boolean } = {}) =>
  Effect.gen(function* () {
    const wallet = yield* makeFakeWallet({ families: { eip155: { accounts: [{ address: ALICE, type: "eoa" }], chainId: 31337 } } })
    return Modal.layer.pipe(
      Layer.provideMerge(Analytics.layerNone),
      Layer.provideMerge(Connection.layer),
      Layer.provideMerge(Notifications.layer),
      Layer.provide(Storage.layerMemory),
      Layer.provide(Config.layer(decodeOptionsSync({ projectId: "p", networks: [localChainA] }))),
      Layer.provide(Connectors.layer([wallet.connector])),
      Layer.provide(ChainAdapters.layer(options.adapters === false ? [] : [makeFakeChainAdapter("eip155")])),
      Layer.provide(Platform.layerFixed({ isMobile: options.isMobile ?? false }))
    )
  })

const withModal = <A, E>(
  body: Effect.Effect<A, E, Modal | Connection | Notifications>,
  options?: Parameters<typeof makeLayer>[0]
) => Effect.flatMap(makeLayer(options), (layer) => Effect.provide(body, layer))

const view = Effect.gen(function* () {
  const modal = yield* Modal
  const state = yield* SubscriptionRef.get(modal.state)
  return state.open ? currentRoute(state).view : "closed"
})

describe("Modal", () => {
  it.effect("opens on Connect when nothing is connected, on Account when connected, on a requested view", () =>
    withModal(
      Effect.gen(function* () {
        const modal = yield* Modal
        const connection = yield* Connection
        yield* modal.open()
        expect(yield* view).toBe("Connect")
        yield* connection.connect({ connectorId: "injected", networks: [localChainA] })
        yield* modal.open()
        expect(yield* view).toBe("Account")
        yield* modal.open({ view: "Networks" })
        expect(yield* view).toBe("Networks")
      })
    )
  )

  it.effect("with no adapters and no address opens the basic remote-protocol view, AllWallets on mobile", () =>
    Effect.gen(function* () {
      yield* withModal(Effect.flatMap(Modal, (m) => m.open()).pipe(Effect.andThen(view)), { adapters: false }).pipe(
        Effect.map((v) => expect(v).toBe("WalletConnectBasic"))
      )
      yield* withModal(Effect.flatMap(Modal, (m) => m.open()).pipe(Effect.andThen(view)), { adapters: false, isMobile: true }).pipe(
        Effect.map((v) => expect(v).toBe("AllWallets"))
      )
    })
  )

  it.effect("goes back through history and closes from the first view", () =>
    withModal(
      Effect.gen(function* () {
        const modal = yield* Modal
        yield* modal.open()
        yield* modal.push({ view: "AllWallets" })
        yield* modal.push({ view: "ConnectingExternal", connectorId: "io.metamask" })
        yield* modal.goBack
        expect(yield* view).toBe("AllWallets")
        yield* modal.goBack
        expect(yield* view).toBe("Connect")
        yield* modal.goBack
        expect(yield* view).toBe("closed")
      })
    )
  )

  it.effect("going back from a history with UnsupportedChain closes the modal", () =>
    withModal(
      Effect.gen(function* () {
        const modal = yield* Modal
        yield* modal.open({ view: "UnsupportedChain" })
        yield* modal.push({ view: "Networks" })
        yield* modal.goBack
        expect(yield* view).toBe("closed")
      })
    )
  )

  it.effect("shakes for exactly 0.5 s", () =>
    withModal(
      Effect.gen(function* () {
        const modal = yield* Modal
        const shaking = yield* Effect.forkChild(modal.shake)
        yield* Effect.yieldNow
        expect((yield* SubscriptionRef.get(modal.state)).shake).toBe(true)
        yield* TestClock.adjust("499 millis")
        expect((yield* SubscriptionRef.get(modal.state)).shake).toBe(true)
        yield* TestClock.adjust("1 millis")
        yield* Fiber.join(shaking)
        expect((yield* SubscriptionRef.get(modal.state)).shake).toBe(false)
      })
    )
  )

  it.effect("closing rejects every open unsafe request with 'Action not allowed'", () =>
    withModal(
      Effect.gen(function* () {
        const modal = yield* Modal
        yield* modal.open({ view: "ApproveTransaction" })
        const first = yield* Effect.forkChild(modal.trackRequest(Effect.never))
        const second = yield* Effect.forkChild(modal.trackRequest(Effect.never))
        yield* Effect.yieldNow
        yield* modal.close
        const errors = yield* Effect.all([Effect.flip(Fiber.join(first)), Effect.flip(Fiber.join(second))])
        expect(errors.map((e) => e.message)).toEqual(["Action not allowed", "Action not allowed"])
      })
    )
  )

  it.effect("a request that finishes first is not affected by a later close", () =>
    withModal(
      Effect.gen(function* () {
        const modal = yield* Modal
        yield* modal.open()
        expect(yield* modal.trackRequest(Effect.succeed("0xsigned"))).toBe("0xsigned")
        yield* modal.close
      })
    )
  )

  it.effect("when sign-in is required, closing shakes and keeps the modal open", () =>
    withModal(
      Effect.gen(function* () {
        const modal = yield* Modal
        yield* modal.open({ view: "SIWXSignMessage" })
        yield* modal.setSignInRequired(true)
        yield* modal.close
        yield* Effect.yieldNow
        let state = yield* SubscriptionRef.get(modal.state)
        expect(state.open).toBe(true)
        expect(state.shake).toBe(true)
        yield* TestClock.adjust("500 millis")
        state = yield* SubscriptionRef.get(modal.state)
        expect(state.shake).toBe(false)
        yield* modal.setSignInRequired(false)
        yield* modal.close
        expect(yield* view).toBe("closed")
      })
    )
  )

  it.effect("a disallowed method opens the modal, and only after 300 ms shows the message and rejects open requests", () =>
    withModal(
      Effect.gen(function* () {
        const modal = yield* Modal
        const notifications = yield* Notifications
        const waiting = yield* Effect.forkChild(modal.trackRequest(Effect.never))
        const disallowed = yield* Effect.forkChild(modal.rejectDisallowed("eth_sign"))
        yield* Effect.yieldNow
        expect(yield* view).toBe("Connect")
        yield* TestClock.adjust("299 millis")
        expect((yield* SubscriptionRef.get(notifications.state)).snackbar).toBeUndefined()
        expect(waiting.pollUnsafe()).toBeUndefined()
        yield* TestClock.adjust("1 millis")
        const error = yield* Effect.flip(Fiber.join(disallowed))
        expect(error.message).toBe("Requested RPC call is not allowed")
        expect((yield* SubscriptionRef.get(notifications.state)).snackbar?.message).toBe("Requested RPC call is not allowed")
        expect((yield* Effect.flip(Fiber.join(waiting))).message).toBe("Action not allowed")
      })
    )
  )

  it.effect("transaction steps: success pops the step; cancel pops and goes back; without a step an unsafe request closes", () =>
    withModal(
      Effect.gen(function* () {
        const modal = yield* Modal
        yield* modal.open({ view: "Account" })
        yield* modal.pushTransactionStep({ route: { view: "ApproveTransaction" } })
        expect(yield* view).toBe("ApproveTransaction")
        yield* modal.finishUnsafeRequest("cancel")
        expect(yield* view).toBe("Account")
        expect((yield* SubscriptionRef.get(modal.state)).transactionStack).toEqual([])
        yield* modal.pushTransactionStep({ route: { view: "ApproveTransaction" } })
        yield* modal.finishUnsafeRequest("success")
        expect(yield* view).toBe("ApproveTransaction")
        expect((yield* SubscriptionRef.get(modal.state)).transactionStack).toEqual([])
        yield* modal.finishUnsafeRequest("success")
        expect(yield* view).toBe("closed")
      })
    )
  )
})

describe("Modal routes", () => {
  it.effect("every history entry has a key of its own, even the same view opened twice", () =>
    withModal(
      Effect.gen(function* () {
        const modal = yield* Modal
        yield* modal.open()
        yield* modal.push({ view: "ConnectingExternal", connectorId: "a" })
        const first = currentEntry(yield* SubscriptionRef.get(modal.state))
        yield* modal.goBack
        yield* modal.push({ view: "ConnectingExternal", connectorId: "a" })
        const second = currentEntry(yield* SubscriptionRef.get(modal.state))
        expect(second.route).toEqual(first.route)
        expect(second.key).not.toBe(first.key)
      })
    )
  )

  it.effect("closed, it holds the entry its next open on Connect shows (so a view laid out ahead is kept), fresh after each close", () =>
    withModal(
      Effect.gen(function* () {
        const modal = yield* Modal
        const waiting = currentEntry(yield* SubscriptionRef.get(modal.state))
        yield* modal.open()
        const shown = currentEntry(yield* SubscriptionRef.get(modal.state))
        expect(shown).toEqual(waiting)
        yield* modal.close
        const next = currentEntry(yield* SubscriptionRef.get(modal.state))
        expect(next.route).toEqual({ view: "Connect" })
        expect(next.key).not.toBe(shown.key)
        yield* modal.open({ view: "Networks" })
        expect(currentEntry(yield* SubscriptionRef.get(modal.state)).key).not.toBe(next.key)
      })
    )
  )

  it.effect("a route carries its view's data: the connector and catalogue wallet of a connecting view", () =>
    withModal(
      Effect.gen(function* () {
        const modal = yield* Modal
        const wallet = { id: "w", name: "W", image_id: "w", chains: [] }
        yield* modal.open({ view: "ConnectingExternal", connectorId: "io.metamask", wallet })
        const route = currentRoute(yield* SubscriptionRef.get(modal.state))
        expect(route).toEqual({ view: "ConnectingExternal", connectorId: "io.metamask", wallet })
      })
    )
  )
})
