import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, SubscriptionRef } from "effect"
import { TestClock } from "effect/testing"
import { Alerts } from "../../../src/domain/alerts"
import { localChainA } from "../../../src/domain/networks"
import { decodeOptionsSync } from "../../../src/domain/Options"
import { Analytics } from "../../../src/services/Analytics"
import { Config } from "../../../src/services/Config"
import { Connection } from "../../../src/services/Connection"
import { Connectors } from "../../../src/services/connectors/Connectors"
import { type FakeWallet, makeFakeWallet } from "../../../src/services/fakes/FakeWallet"
import { Notifications } from "../../../src/services/Notifications"
import { Platform } from "../../../src/services/Platform"
import { Storage } from "../../../src/services/Storage/Storage"
import { type FakeAnswer, type FakeHttp, makeFakeHttp } from "../support/fakeHttpClient"

const ALICE = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"

const optionsWith = (extra: Record<string, unknown>, projectId: string | null = "test-project") =>
  decodeOptionsSync({
    ...(projectId === null ? {} : { projectId }),
    networks: [localChainA],
    endpoints: { walletCatalog: "http://catalog.test" },
    ...extra
  })

const analyticsService = (config: FakeAnswer) =>
  makeFakeHttp((request) => {
    if (request.url.pathname === "/getAnalyticsConfig") return config
    if (request.url.pathname === "/e") return { status: 200, json: { accepted: true } }
    return { status: 404, json: { error: "not found" } }
  })

const layerFor = (options: ReturnType<typeof optionsWith>, http: FakeHttp, wallet?: FakeWallet) =>
  Analytics.layer.pipe(
    Layer.provideMerge(Connection.layer),
    Layer.provideMerge(Notifications.layer),
    Layer.provide(Storage.layerMemory),
    Layer.provide(Connectors.layer(wallet === undefined ? [] : [wallet.connector])),
    Layer.provide(Platform.layerFixed({ href: "https://shop.example/checkout?step=2" })),
    Layer.provide(Config.layer(options)),
    Layer.provide(http.layer)
  )

const trackTwice = Effect.gen(function* () {
  const analytics = yield* Analytics
  yield* analytics.track("MODAL_OPEN")
  yield* analytics.track("SELECT_WALLET", { name: "Amber Pouch" })
})

describe("Analytics", () => {
  it.effect("sends nothing at all, not even the config request, when the host turns analytics off or has no projectId", () =>
    Effect.gen(function* () {
      for (const options of [
        optionsWith({ enableAnalytics: false }),
        optionsWith({ features: { analytics: false } }),
        optionsWith({}, null)
      ]) {
        const http = analyticsService({ status: 200, json: { isAnalyticsEnabled: true } })
        yield* trackTwice.pipe(Effect.provide(layerFor(options, http)))
        expect(http.requests).toEqual([])
      }
    })
  )

  it.effect("asks the config once, on the first event, and sends no event when it says disabled", () =>
    Effect.gen(function* () {
      const http = analyticsService({ status: 200, json: { isAnalyticsEnabled: false } })
      yield* Effect.gen(function* () {
        const analytics = yield* Analytics
        expect(http.requests).toEqual([])
        yield* trackTwice
        expect(yield* analytics.enabled).toBe(false)
      }).pipe(Effect.provide(layerFor(optionsWith({}), http)))
      expect(http.requests.map((r) => r.url.pathname)).toEqual(["/getAnalyticsConfig"])
      expect(http.requests[0]?.url.searchParams.get("projectId")).toBe("test-project")
    })
  )

  it.effect("when allowed, each event is a POST /e with id, page, time, event data and the connected address", () =>
    Effect.gen(function* () {
      const http = analyticsService({ status: 200, json: { isAnalyticsEnabled: true } })
      const wallet = yield* makeFakeWallet({ families: { eip155: { accounts: [{ address: ALICE, type: "eoa" }], chainId: 31337 } } })
      yield* TestClock.adjust("1234 millis")
      yield* Effect.gen(function* () {
        const connection = yield* Connection
        yield* connection.connect({ connectorId: "injected", networks: [localChainA] })
        yield* trackTwice
      }).pipe(Effect.provide(layerFor(optionsWith({}), http, wallet)))
      const events = http.to("/e")
      expect(http.to("/getAnalyticsConfig")).toHaveLength(1)
      expect(events).toHaveLength(2)
      const [first, second] = events.map((r) => r.body as Record<string, unknown>)
      expect(first).toMatchObject({
        url: "https://shop.example/checkout?step=2",
        domain: "shop.example",
        timestamp: 1234,
        props: { type: "track", event: "MODAL_OPEN", address: ALICE }
      })
      expect(second?.["props"]).toEqual({ type: "track", event: "SELECT_WALLET", address: ALICE, properties: { name: "Amber Pouch" } })
      expect(first?.["eventId"]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
      expect(first?.["eventId"]).not.toBe(second?.["eventId"])
      expect(events[0]?.url.searchParams.get("projectId")).toBe("test-project")
    })
  )

  it.effect("a 403 from the config raises 'Invalid App Configuration' once and sends no event", () =>
    Effect.gen(function* () {
      // The services' own words for an origin not allowed raise the alert too (the bounded client's): still once.
      for (const body of ["Forbidden", "Unauthorized: origin not allowed"]) {
        const http = analyticsService({ status: 403, text: body })
        yield* Effect.gen(function* () {
          yield* trackTwice
          yield* trackTwice
          const notifications = yield* Notifications
          expect((yield* SubscriptionRef.get(notifications.state)).alerts, body).toEqual([Alerts.INVALID_APP_CONFIGURATION])
        }).pipe(Effect.provide(layerFor(optionsWith({}), http)))
        expect(http.requests.map((r) => r.url.pathname), body).toEqual(["/getAnalyticsConfig"])
      }
    })
  )

  it.effect("a lost event is not an error for the caller", () =>
    Effect.gen(function* () {
      const http = makeFakeHttp((request) =>
        request.url.pathname === "/getAnalyticsConfig" ? { status: 200, json: { isAnalyticsEnabled: true } } : "unreachable"
      )
      yield* trackTwice.pipe(Effect.provide(layerFor(optionsWith({}), http)))
      expect(http.to("/e")).toHaveLength(2)
    })
  )
})
