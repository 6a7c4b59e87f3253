import { describe, expect, it } from "@effect/vitest"
import { Effect, Fiber, Result } from "effect"
import * as HttpClient from "effect/http/HttpClient"
import { TestClock } from "effect/testing"
import { MAX_ANSWER_BYTES } from "../../../src/services/httpBody"
import { makeServiceCalls } from "../../../src/services/serviceCalls"
import { SERVICE_REQUEST_TIMEOUT_MS } from "../../../src/services/serviceHttp"
import { type FakeAnswer, makeFakeHttp, type RecordedRequest } from "../support/fakeHttpClient"

const BASE = "http://service.test/base"
const CONFIG_URL = `${BASE}/getAnalyticsConfig`

/**
 * Calls to a service whose every answer is `reply`, through the derived clients; `sent` resolves when the first
 * request reaches the service (the client's module is fetched first, in real time).
 */
const calls = (reply: (request: RecordedRequest) => FakeAnswer) =>
  Effect.gen(function* () {
    let markSent: () => void = () => undefined
    const sent = new Promise<void>((resolve) => (markSent = resolve))
    const http = makeFakeHttp((request) => {
      markSent()
      return reply(request)
    })
    const client = yield* Effect.provide(
      Effect.gen(function* () {
        return yield* HttpClient.HttpClient
      }),
      http.layer
    )
    const alerts: Array<string> = []
    const service = makeServiceCalls({
      baseUrl: BASE,
      client,
      raiseAlert: (alert) => Effect.sync(() => alerts.push(alert.shortMessage))
    })
    return { service, http, alerts, sent: Effect.promise(() => sent) }
  })

/** Asks the analytics config (`GET /getAnalyticsConfig`) of a service whose every answer is `reply`, in a fiber. */
const askConfig = (reply: FakeAnswer) =>
  Effect.gen(function* () {
    const { service, ...rest } = yield* calls(() => reply)
    const fiber = yield* Effect.forkChild(
      Effect.result(service.call("analytics", (analytics) => analytics.config({ query: { projectId: "p1", st: "wallet-runtime" } })))
    )
    return { fiber, ...rest }
  })

/** The error of a call that must have failed. */
const failureOf = <A, E>(result: Result.Result<A, E>): E => {
  if (Result.isSuccess(result)) throw new Error(`expected a failure, got ${JSON.stringify(result.success)}`)
  return result.failure
}

describe("service calls derived from the services' API", () => {
  it.effect("a GET is the declared route with its encoded query and no header of ours; the answer is decoded", () =>
    Effect.gen(function* () {
      const { fiber, http } = yield* askConfig({ status: 200, json: { isAnalyticsEnabled: true } })
      expect(yield* Fiber.join(fiber)).toEqual(Result.succeed({ isAnalyticsEnabled: true }))
      const [request] = http.requests
      expect(request?.method).toBe("GET")
      expect(`${request?.url.origin}${request?.url.pathname}`).toBe(CONFIG_URL)
      expect(Object.fromEntries(request?.url.searchParams ?? [])).toEqual({ projectId: "p1", st: "wallet-runtime" })
      // No custom header (trace headers included): the browser sends it without a CORS preflight.
      expect(request?.headers).toEqual({})
    })
  )

  it.effect("the HttpClient given sees whole addresses in its own request steps (a host's logging, say)", () =>
    Effect.gen(function* () {
      const http = makeFakeHttp(() => ({ status: 200, json: { isAnalyticsEnabled: false } }))
      const seen: Array<string> = []
      const client = yield* Effect.provide(
        Effect.gen(function* () {
          return HttpClient.tapRequest(yield* HttpClient.HttpClient, (request) => Effect.sync(() => seen.push(request.url)))
        }),
        http.layer
      )
      const service = makeServiceCalls({ baseUrl: BASE, client, raiseAlert: () => Effect.void })
      yield* service.call("analytics", (analytics) => analytics.config({ query: {} }))
      expect(seen).toEqual([CONFIG_URL])
    })
  )

  it.effect("a POST carries its payload encoded by the declaration, as JSON", () =>
    Effect.gen(function* () {
      const { service, http } = yield* calls(() => ({ status: 200, json: { accepted: true } }))
      const payload = {
        eventId: "e1",
        url: "https://shop.example/",
        domain: "shop.example",
        timestamp: 1,
        props: { type: "track", event: "MODAL_OPEN" }
      }
      const answer = yield* service.call("analytics", (analytics) => analytics.event({ query: { projectId: "p1" }, payload }))
      expect(answer).toEqual({ accepted: true })
      expect(http.requests.map((r) => ({ method: r.method, path: r.url.pathname, body: r.body }))).toEqual([
        { method: "POST", path: "/base/e", body: payload }
      ])
      expect(http.requests[0]?.headers["content-type"]).toBe("application/json")
    })
  )

  it.effect("headers then a body that never ends: unreachable after the time-out, not waiting forever", () =>
    Effect.gen(function* () {
      const { fiber, sent } = yield* askConfig({ status: 200, stallBody: true })
      yield* sent
      yield* TestClock.adjust(SERVICE_REQUEST_TIMEOUT_MS - 1)
      expect(fiber.pollUnsafe()).toBeUndefined()
      yield* TestClock.adjust(1)
      expect(failureOf(yield* Fiber.join(fiber))).toMatchObject({
        _tag: "ServiceUnreachable",
        url: CONFIG_URL,
        reason: `no answer in ${SERVICE_REQUEST_TIMEOUT_MS} ms`
      })
    })
  )

  it.effect("an error status whose body stalls is bounded too", () =>
    Effect.gen(function* () {
      const { fiber, sent } = yield* askConfig({ status: 500, stallBody: true })
      yield* sent
      yield* TestClock.adjust(SERVICE_REQUEST_TIMEOUT_MS)
      expect(failureOf(yield* Fiber.join(fiber))).toMatchObject({ _tag: "ServiceUnreachable", url: CONFIG_URL })
    })
  )

  it.effect("a body larger than the cap is refused, and reading stops at the cap", () =>
    Effect.gen(function* () {
      const { fiber, http } = yield* askConfig({ status: 200, bytes: 64 * 1024 * 1024 })
      const error = failureOf(yield* Fiber.join(fiber))
      expect(error).toMatchObject({ _tag: "ServiceAnswerInvalid", issue: `the answer is larger than ${MAX_ANSWER_BYTES} bytes` })
      // 64 KiB chunks: the cap is reached after 4 MiB, far from the 64 MiB offered.
      expect(http.pulled.count).toBeLessThanOrEqual(MAX_ANSWER_BYTES / (64 * 1024) + 2)
    })
  )

  it.effect("a declared length over the cap is refused before the body is read", () =>
    Effect.gen(function* () {
      const { fiber, http } = yield* askConfig({ status: 200, bytes: 64 * 1024, declared: MAX_ANSWER_BYTES + 1 })
      expect(failureOf(yield* Fiber.join(fiber))).toMatchObject({ _tag: "ServiceAnswerInvalid" })
      expect(http.pulled.count).toBe(0)
    })
  )

  it.effect("a body just under the cap is read (and here is not an answer of the declared shape)", () =>
    Effect.gen(function* () {
      const { fiber } = yield* askConfig({ status: 200, bytes: MAX_ANSWER_BYTES })
      const error = failureOf(yield* Fiber.join(fiber))
      expect(error._tag).toBe("ServiceAnswerInvalid")
      expect(error.message).not.toContain("larger than")
    })
  )

  it.effect("text that is not JSON, or JSON the declaration refuses, is an invalid answer naming the address", () =>
    Effect.gen(function* () {
      for (const reply of [
        { status: 200, text: "<html>proxy error</html>" },
        { status: 200, json: { isAnalyticsEnabled: "yes" } }
      ]) {
        const { fiber } = yield* askConfig(reply)
        expect(failureOf(yield* Fiber.join(fiber))).toMatchObject({ _tag: "ServiceAnswerInvalid", url: CONFIG_URL })
      }
    })
  )

  it.effect("a service that cannot be reached is unreachable, naming the address", () =>
    Effect.gen(function* () {
      const { fiber } = yield* askConfig("unreachable")
      expect(failureOf(yield* Fiber.join(fiber))).toMatchObject({ _tag: "ServiceUnreachable", url: CONFIG_URL })
    })
  )

  it.effect("a non-OK answer keeps its status and the start of its body, and raises the authorisation alert it names", () =>
    Effect.gen(function* () {
      const origin = yield* askConfig({ status: 403, text: "Unauthorized: origin not allowed" })
      expect(failureOf(yield* Fiber.join(origin.fiber))).toMatchObject({
        _tag: "HttpStatusError",
        status: 403,
        body: "Unauthorized: origin not allowed",
        message: "HTTP status code: 403"
      })
      expect(origin.alerts).toEqual(["Invalid App Configuration"])

      const key = yield* askConfig({ status: 401, text: "Unauthorized: invalid key" })
      expect(failureOf(yield* Fiber.join(key.fiber))).toMatchObject({ _tag: "HttpStatusError", status: 401 })
      expect(key.alerts).toEqual(["Invalid Project ID"])

      const long = yield* askConfig({ status: 500, text: "x".repeat(10_000) })
      expect(failureOf(yield* Fiber.join(long.fiber))).toMatchObject({ _tag: "HttpStatusError", status: 500, body: "x".repeat(300) })
      expect(long.alerts).toEqual([])
    })
  )

  it.effect("a failure the declaration names (a 400 with its JSON) is still 'HTTP status code: N' with its body", () =>
    Effect.gen(function* () {
      const { fiber } = yield* askConfig({ status: 400, json: { error: "Invalid query: … at [\"projectId\"]" } })
      const error = failureOf(yield* Fiber.join(fiber))
      expect(error).toMatchObject({ _tag: "HttpStatusError", status: 400 })
      expect(error.message).toBe("HTTP status code: 400")
    })
  )

  it.effect("a request the declaration refuses is not sent", () =>
    Effect.gen(function* () {
      const { service, http } = yield* calls(() => ({ status: 200, json: { data: [], count: 0 } }))
      const result = yield* Effect.result(
        service.call("catalogue", (catalogue) => catalogue.getWallets({ query: { page: 1, entries: 1_000 } }))
      )
      expect(failureOf(result)).toMatchObject({ _tag: "ServiceUnreachable", url: BASE })
      expect(failureOf(result).message).toContain("request not sent")
      expect(http.requests).toEqual([])
    })
  )
})
