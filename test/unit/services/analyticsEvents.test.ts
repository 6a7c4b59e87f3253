import { describe, expect, it } from "@effect/vitest"
import { Effect, Fiber } from "effect"
import { TestClock } from "effect/testing"
import type { AnalyticsEventName } from "../../../src/domain/analytics"
import { localChainA, localChainB } from "../../../src/domain/networks"
import { decodeOptionsSync } from "../../../src/domain/Options"
import { UserRejected } from "../../../src/domain/errors"
import { testLayer } from "../../../src/layers/Test"
import { Analytics, ANALYTICS_SEND_DELAY_MS } from "../../../src/services/Analytics"
import { ConnectFlow } from "../../../src/services/ConnectFlow"
import { makeFakeWallet } from "../../../src/services/fakes/FakeWallet"
import { Modal } from "../../../src/services/Modal"
import { Networks } from "../../../src/services/Networks"
import { WalletActions } from "../../../src/services/WalletActions"
import { makeFakeHttp } from "../support/fakeHttpClient"

const ALICE = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"

// The services' client is fetched on the first event; it is loaded here first, so that `settle`'s few turns are
// spent sending the events, not on the first load of that code.
await import("../../../src/services/servicesApiClient")

const service = (enabled: boolean) =>
  makeFakeHttp((request) => {
    if (request.url.pathname === "/getAnalyticsConfig") return { status: 200, json: { isAnalyticsEnabled: enabled } }
    if (request.url.pathname === "/e") return { status: 200, json: { accepted: true } }
    return "unreachable"
  })

interface SentEvent {
  readonly props: { readonly event: AnalyticsEventName; readonly address?: string; readonly properties?: Record<string, unknown> }
}
const eventsSent = (http: ReturnType<typeof service>) => http.to("/e").map((request) => request.body as SentEvent)
const namesSent = (http: ReturnType<typeof service>) => eventsSent(http).map((event) => event.props.event)

/** Lets the events recorded in the background reach the fake service (each is sent a moment after its action). */
const settle = Effect.forEach(Array.from({ length: 30 }), () => Effect.yieldNow, { discard: true }).pipe(
  Effect.andThen(TestClock.adjust(ANALYTICS_SEND_DELAY_MS)),
  Effect.andThen(Effect.forEach(Array.from({ length: 30 }), () => Effect.yieldNow, { discard: true }))
)

const visit = (options: Record<string, unknown>, http: ReturnType<typeof service>) =>
  Effect.gen(function* () {
    const wallet = yield* makeFakeWallet({
      id: "io.metamask",
      name: "MetaMask",
      rdns: "io.metamask",
      families: { eip155: { accounts: [{ address: ALICE, type: "eoa" }], chainId: 31337 } }
    })
    const decoded = decodeOptionsSync({ projectId: "p", networks: [localChainA, localChainB], endpoints: { walletCatalog: "http://catalog.test" }, ...options })
    yield* Effect.gen(function* () {
      const flow = yield* ConnectFlow
      yield* (yield* Modal).open()
      const connecting = yield* Effect.forkChild(flow.connect("io.metamask"))
      yield* Fiber.join(connecting)
      yield* (yield* Networks).switchNetwork(localChainB.caipNetworkId)
      const actions = yield* WalletActions
      yield* actions.signMessage("hello")
      wallet.script.signError = new UserRejected({ code: 4001 })
      yield* Effect.ignore(actions.signMessage("again"))
      yield* actions.send({ to: ALICE, value: 1n })
      yield* (yield* Modal).close
      yield* settle
    }).pipe(Effect.provide(testLayer(decoded, { wallets: [wallet], httpClient: http.layer })))
  })

describe("what the visitor does is recorded, when analytics is allowed", () => {
  it.effect("connect, network switch, signatures and a send each send their event, with the connected address", () =>
    Effect.gen(function* () {
      const http = service(true)
      yield* visit({}, http)
      // Each is sent in the background, so their order on the wire is not promised.
      expect([...namesSent(http)].sort()).toEqual(
        ["MODAL_OPEN", "CONNECT_SUCCESS", "SWITCH_NETWORK", "SIGN_MESSAGE_SUCCESS", "SIGN_MESSAGE_ERROR", "SEND_INITIATED", "SEND_SUCCESS", "MODAL_CLOSE"].sort()
      )
      const connected = eventsSent(http).find((event) => event.props.event === "CONNECT_SUCCESS")
      expect(connected?.props).toMatchObject({ address: ALICE, properties: { name: "MetaMask", namespaces: ["eip155"] } })
    })
  )

  it.effect("the same visit sends no event when the service says analytics is off, and asks nothing when the host does", () =>
    Effect.gen(function* () {
      const analyticsCalls = (http: ReturnType<typeof service>) =>
        http.requests.map((r) => r.url.pathname).filter((path) => path === "/getAnalyticsConfig" || path === "/e")
      const off = service(false)
      yield* visit({}, off)
      expect(analyticsCalls(off)).toEqual(["/getAnalyticsConfig"])
      const hostOff = service(true)
      yield* visit({ enableAnalytics: false }, hostOff)
      expect(analyticsCalls(hostOff)).toEqual([])
    })
  )
})

describe("the visitor's action comes first", () => {
  it.effect("an event is taken when it happens (its time) and sent a moment later, not during the action", () =>
    Effect.gen(function* () {
      const http = service(true)
      const decoded = decodeOptionsSync({ projectId: "p", networks: [localChainA], endpoints: { walletCatalog: "http://catalog.test" } })
      yield* TestClock.adjust(1_000)
      yield* Effect.gen(function* () {
        yield* (yield* Modal).open()
        yield* Effect.forEach(Array.from({ length: 30 }), () => Effect.yieldNow, { discard: true })
        expect(http.requests).toEqual([])
        yield* TestClock.adjust(ANALYTICS_SEND_DELAY_MS)
        yield* Effect.forEach(Array.from({ length: 30 }), () => Effect.yieldNow, { discard: true })
        expect(namesSent(http)).toEqual(["MODAL_OPEN"])
        expect((http.to("/e")[0]?.body as { timestamp: number }).timestamp).toBe(1_000)
      }).pipe(Effect.provide(testLayer(decoded, { httpClient: http.layer })))
    })
  )

  it.effect("an event of an action that may end with the page (a swap started) is sent at once, the clock unmoved", () =>
    Effect.gen(function* () {
      const http = service(true)
      const decoded = decodeOptionsSync({ projectId: "p", networks: [localChainA], endpoints: { walletCatalog: "http://catalog.test" } })
      yield* Effect.gen(function* () {
        const analytics = yield* Analytics
        yield* analytics.record("OPEN_SWAP", { network: localChainA.caipNetworkId })
        yield* analytics.record("INITIATE_SWAP", { network: localChainA.caipNetworkId, from: "ETH", to: "WUSD" }, "now")
        yield* Effect.forEach(Array.from({ length: 30 }), () => Effect.yieldNow, { discard: true })
        expect(namesSent(http)).toEqual(["INITIATE_SWAP"])
        yield* TestClock.adjust(ANALYTICS_SEND_DELAY_MS)
        yield* Effect.forEach(Array.from({ length: 30 }), () => Effect.yieldNow, { discard: true })
        expect(namesSent(http)).toEqual(["INITIATE_SWAP", "OPEN_SWAP"])
      }).pipe(Effect.provide(testLayer(decoded, { httpClient: http.layer })))
    })
  )
})
