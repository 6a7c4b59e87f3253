/**
 * Analytics' own requests (`GET /getAnalyticsConfig`, `POST /e`) against the services' declaration: they ask what
 * HttpApiClient derives for `analytics.config` and `analytics.event` (the URL, and for the event the same JSON body
 * and content type the derived client itself sends), refuse the answers the declaration refuses, and keep the rules
 * every service answer follows (they share the bounded client), made as Analytics makes them (`lazyCalls`).
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Fiber, Result } from "effect"
import { HttpApiClient } from "effect/http-api"
import { TestClock } from "effect/testing"
import type { AnalyticsEvent } from "../../../src/domain/ApiCatalogue"
import type { ProjectQuery } from "../../../src/domain/ApiShared"
import { ServicesApi } from "../../../src/domain/http/ServicesApi"
import { type AnalyticsCalls, type HappenedEvent, makeAnalyticsCalls } from "../../../src/services/analyticsCalls"
import { MAX_ANSWER_BYTES } from "../../../src/services/httpBody"
import { makeServiceCalls } from "../../../src/services/serviceCalls"
import { lazyCalls, SERVICE_REQUEST_TIMEOUT_MS } from "../../../src/services/serviceHttp"
import { type FakeAnswer, fakeService, type RecordedRequest } from "../support/fakeHttpClient"

const BASE = "http://catalog.test/cat"
const CONFIG_URL = `${BASE}/getAnalyticsConfig`
const EVENT_URL = `${BASE}/e`
const PAGE = "https://shop.example/checkout?step=2#pay"

/** Analytics' calls (as Analytics makes them) and the derived clients over one service whose every answer is `reply`. */
const service = (reply: FakeAnswer) =>
  Effect.map(fakeService(BASE, reply), ({ options, http, alerts }) => {
    const on = lazyCalls(BASE, () => Promise.resolve(makeAnalyticsCalls(options, PAGE)))
    return {
      config: (query: ProjectQuery) => on((calls: AnalyticsCalls, exchange) => calls.config(query, exchange)),
      event: (query: ProjectQuery, happened: HappenedEvent) => on((calls: AnalyticsCalls, exchange) => calls.event(query, happened, exchange)),
      derived: makeServiceCalls(options),
      http,
      alerts
    }
  })

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

/** The error of a call that must have failed. */
const failureOf = <A, E>(result: Result.Result<A, E>): E => {
  if (Result.isSuccess(result)) throw new Error(`expected a failure, got ${JSON.stringify(result.success)}`)
  return result.failure
}

/** What of a request the service receives. */
const sent = (request: RecordedRequest | undefined) =>
  request === undefined
    ? undefined
    : { line: `${request.method} ${request.url.toString()}`, headers: request.headers, contentType: request.contentType, body: request.body }

const QUERIES: ReadonlyArray<readonly [string, ProjectQuery]> = [
  ["no project", {}],
  ["the project", { projectId: "devstack-project" }],
  ["the project and the SDK, with signs to escape", { projectId: "my app&x=1/é", st: "wallet-runtime", sv: "0.1.0" }]
]

const EVENT: HappenedEvent = { timestamp: 1_764_460_800_123, props: { type: "track", event: "MODAL_OPEN" } }

const EVENTS: ReadonlyArray<readonly [string, HappenedEvent]> = [
  ["an event with no address or properties", EVENT],
  [
    "an event with the address and nested properties",
    {
      ...EVENT,
      props: {
        type: "track",
        event: "SELECT_WALLET",
        address: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
        properties: { name: "Amber \"Pouch\" & co", platform: "desktop", connected: false, depth: { list: [1, "two", null] } }
      }
    }
  ]
]

describe("analytics' requests, without the derived client", () => {
  it.effect("GET /getAnalyticsConfig asks the URL HttpApiClient derives from the declaration, for every query, and decodes the answer", () =>
    Effect.gen(function* () {
      const derivedUrl = HttpApiClient.urlBuilder(ServicesApi, { baseUrl: BASE })
      for (const [name, query] of QUERIES) {
        for (const enabled of [true, false]) {
          const { config, derived, http } = yield* service({ status: 200, json: { isAnalyticsEnabled: enabled } })
          expect(yield* config(query), name).toEqual({ isAnalyticsEnabled: enabled })
          yield* derived.call("analytics", (analytics) => analytics.config({ query }))
          const [ours, theirs] = http.requests.map(sent)
          expect(ours?.line, name).toBe(`GET ${derivedUrl.analytics.config({ query })}`)
          expect(ours, name).toEqual(theirs)
          // Optional keys left out are not sent empty.
          expect([...(http.requests[0]?.url.searchParams.keys() ?? [])].sort(), name).toEqual(Object.keys(query).sort())
        }
      }
    })
  )

  it.effect("POST /e sends the event with its id and page, as the derived client sends it (URL, JSON body, content type), and decodes the answer", () =>
    Effect.gen(function* () {
      const derivedUrl = HttpApiClient.urlBuilder(ServicesApi, { baseUrl: BASE })
      for (const [name, happened] of EVENTS) {
        const query = { projectId: "devstack-project" }
        const { event, derived, http } = yield* service({ status: 200, json: { accepted: true } })
        expect(yield* event(query, happened), name).toEqual({ accepted: true })
        const body = http.requests[0]?.body
        expect(body, name).toEqual({ eventId: expect.stringMatching(UUID_V4), url: PAGE, domain: "shop.example", ...happened })
        yield* derived.call("analytics", (analytics) => analytics.event({ query, payload: body as AnalyticsEvent }))
        const [ours, theirs] = http.requests.map(sent)
        expect(ours?.line, name).toBe(`POST ${derivedUrl.analytics.event({ query })}`)
        expect(ours?.contentType, name).toBe("application/json")
        expect(ours, name).toEqual(theirs)
      }
    })
  )

  it.effect("an answer the declaration refuses is an invalid answer naming the address", () =>
    Effect.gen(function* () {
      const refusedConfigs: ReadonlyArray<readonly [string, FakeAnswer]> = [
        ["a flag that is not a boolean", { status: 200, json: { isAnalyticsEnabled: "yes" } }],
        ["no flag", { status: 200, json: {} }],
        ["text that is not JSON", { status: 200, text: "<html>proxy error</html>" }],
        ["a 2xx the declaration does not name", { status: 201, json: { isAnalyticsEnabled: true } }],
        ["an answer over the size cap", { status: 200, bytes: MAX_ANSWER_BYTES + 1 }]
      ]
      for (const [name, reply] of refusedConfigs) {
        const { config } = yield* service(reply)
        expect(failureOf(yield* Effect.result(config({ projectId: "p1" }))), name).toMatchObject({
          _tag: "ServiceAnswerInvalid",
          url: CONFIG_URL
        })
      }
      const refusedEvents: ReadonlyArray<readonly [string, FakeAnswer]> = [
        ["an answer that is not the declared one", { status: 200, json: { accepted: 1 } }],
        ["a 202 the declaration does not name", { status: 202, json: { accepted: true } }]
      ]
      for (const [name, reply] of refusedEvents) {
        const { event } = yield* service(reply)
        expect(failureOf(yield* Effect.result(event({ projectId: "p1" }, EVENT))), name).toMatchObject({
          _tag: "ServiceAnswerInvalid",
          url: EVENT_URL
        })
      }
    })
  )

  it.effect("an event the declaration or JSON refuses is not sent", () =>
    Effect.gen(function* () {
      const refused: ReadonlyArray<readonly [string, HappenedEvent]> = [
        ["a time that is not a number", { ...EVENT, timestamp: Number.NaN }],
        ["a property JSON cannot carry", { ...EVENT, props: { event: "MODAL_OPEN", properties: { amount: 1n } } }]
      ]
      for (const [name, body] of refused) {
        const { event, http } = yield* service({ status: 200, json: { accepted: true } })
        const error = failureOf(yield* Effect.result(event({ projectId: "p1" }, body)))
        expect(error, name).toMatchObject({ _tag: "ServiceUnreachable", url: BASE })
        expect(error.message, name).toContain("request not sent")
        expect(http.requests, name).toEqual([])
      }
    })
  )

  it.effect("the services' rules hold: no header of ours, 'HTTP status code: N' with its alert, unreachable", () =>
    Effect.gen(function* () {
      const ok = yield* service({ status: 200, json: { isAnalyticsEnabled: true } })
      yield* ok.config({ projectId: "p1" })
      expect(ok.http.requests[0]?.headers).toEqual({})

      const origin = yield* service({ status: 403, text: "Unauthorized: origin not allowed" })
      expect(failureOf(yield* Effect.result(origin.config({ projectId: "p1" })))).toMatchObject({
        _tag: "HttpStatusError",
        status: 403,
        message: "HTTP status code: 403",
        body: "Unauthorized: origin not allowed"
      })
      expect(failureOf(yield* Effect.result(origin.event({ projectId: "p1" }, EVENT)))).toMatchObject({ status: 403 })
      expect(origin.alerts).toEqual(["Invalid App Configuration", "Invalid App Configuration"])

      const key = yield* service({ status: 401, text: "Unauthorized: invalid key" })
      expect(failureOf(yield* Effect.result(key.config({ projectId: "p1" })))).toMatchObject({ message: "HTTP status code: 401" })
      expect(key.alerts).toEqual(["Invalid Project ID"])

      const down = yield* service("unreachable")
      expect(failureOf(yield* Effect.result(down.event({ projectId: "p1" }, EVENT)))).toMatchObject({
        _tag: "ServiceUnreachable",
        url: EVENT_URL
      })
    })
  )

  it.effect("a service that never answers fails the call at the time bound, naming the address", () =>
    Effect.gen(function* () {
      const { config } = yield* service("hang")
      const call = yield* Effect.forkChild(Effect.result(config({ projectId: "p1" })))
      yield* TestClock.adjust(SERVICE_REQUEST_TIMEOUT_MS - 1)
      expect(call.pollUnsafe()).toBeUndefined()
      yield* TestClock.adjust(1)
      expect(failureOf(yield* Fiber.join(call))).toMatchObject({
        _tag: "ServiceUnreachable",
        url: CONFIG_URL,
        reason: `no answer in ${SERVICE_REQUEST_TIMEOUT_MS} ms`
      })
    })
  )
})
