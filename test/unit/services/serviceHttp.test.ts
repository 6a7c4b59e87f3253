import { describe, expect, it } from "@effect/vitest"
import { Effect, Fiber, Result, Schema } from "effect"
import * as HttpClient from "effect/http/HttpClient"
import { TestClock } from "effect/testing"
import { MAX_ANSWER_BYTES } from "../../../src/services/httpBody"
import { makeServiceClient, SERVICE_REQUEST_TIMEOUT_MS } from "../../../src/services/serviceHttp"
import { type FakeAnswer, makeFakeHttp } from "../support/fakeHttpClient"

const Answer = Schema.Struct({ ok: Schema.Boolean })

/** Calls GET /x of a service whose every answer is `reply`; gives the exit and the fake. */
const call = (reply: FakeAnswer) =>
  Effect.gen(function* () {
    const http = makeFakeHttp(() => reply)
    const client = yield* Effect.provide(
      Effect.gen(function* () {
        return yield* HttpClient.HttpClient
      }),
      http.layer
    )
    const alerts: Array<string> = []
    const service = makeServiceClient({ baseUrl: "http://service.test", client, raiseAlert: (alert) => Effect.sync(() => alerts.push(alert.shortMessage)) })
    const fiber = yield* Effect.forkChild(Effect.result(service.json({ method: "GET", path: "/x" }, Answer)))
    return { fiber, http, alerts }
  })

/** The error of a call that must have failed. */
const failureOf = <A, E>(result: Result.Result<A, E>): E => {
  if (Result.isSuccess(result)) throw new Error(`expected a failure, got ${JSON.stringify(result.success)}`)
  return result.failure
}

describe("service calls: the whole exchange is bounded", () => {
  it.effect("a good answer is decoded", () =>
    Effect.gen(function* () {
      const { fiber } = yield* call({ status: 200, json: { ok: true } })
      expect(yield* Fiber.join(fiber)).toEqual(Result.succeed({ ok: true }))
    })
  )

  it.effect("headers then a body that never ends: unreachable after the time-out, not waiting forever", () =>
    Effect.gen(function* () {
      const { fiber } = yield* call({ status: 200, stallBody: true })
      yield* TestClock.adjust(SERVICE_REQUEST_TIMEOUT_MS - 1)
      expect(fiber.pollUnsafe()).toBeUndefined()
      yield* TestClock.adjust(1)
      const error = failureOf(yield* Fiber.join(fiber))
      expect(error).toMatchObject({ _tag: "ServiceUnreachable", url: "http://service.test/x", reason: `no answer in ${SERVICE_REQUEST_TIMEOUT_MS} ms` })
    })
  )

  it.effect("an error status whose body stalls is bounded too", () =>
    Effect.gen(function* () {
      const { fiber } = yield* call({ status: 500, stallBody: true })
      yield* TestClock.adjust(SERVICE_REQUEST_TIMEOUT_MS)
      expect(failureOf(yield* Fiber.join(fiber))).toMatchObject({ _tag: "ServiceUnreachable" })
    })
  )

  it.effect("a body larger than the cap is refused, and reading stops at the cap", () =>
    Effect.gen(function* () {
      const { fiber, http } = yield* call({ status: 200, bytes: 64 * 1024 * 1024 })
      const error = failureOf(yield* Fiber.join(fiber))
      expect(error).toMatchObject({ _tag: "ServiceAnswerInvalid", issue: `the answer is larger than ${MAX_ANSWER_BYTES} bytes` })
      // 64 KiB chunks: the cap is reached after 4 MiB, far from the 64 MiB offered.
      expect(http.pulled.count).toBeLessThanOrEqual(MAX_ANSWER_BYTES / (64 * 1024) + 2)
    })
  )

  it.effect("a declared length over the cap is refused before the body is read", () =>
    Effect.gen(function* () {
      const { fiber, http } = yield* call({ status: 200, bytes: 64 * 1024, declared: MAX_ANSWER_BYTES + 1 })
      expect(failureOf(yield* Fiber.join(fiber))).toMatchObject({ _tag: "ServiceAnswerInvalid" })
      expect(http.pulled.count).toBe(0)
    })
  )

  it.effect("a body just under the cap is read (and here is not JSON of the expected shape)", () =>
    Effect.gen(function* () {
      const { fiber } = yield* call({ status: 200, bytes: MAX_ANSWER_BYTES })
      const error = failureOf(yield* Fiber.join(fiber))
      expect(error._tag).toBe("ServiceAnswerInvalid")
      expect(error.message).not.toContain("larger than")
    })
  )

  it.effect("text that is not JSON is an invalid answer", () =>
    Effect.gen(function* () {
      const { fiber } = yield* call({ status: 200, text: "<html>proxy error</html>" })
      expect(failureOf(yield* Fiber.join(fiber))).toMatchObject({ _tag: "ServiceAnswerInvalid", url: "http://service.test/x" })
    })
  )

  it.effect("a non-OK answer keeps its status and raises the authorisation alert it names", () =>
    Effect.gen(function* () {
      const { fiber, alerts } = yield* call({ status: 403, text: "Unauthorized: origin not allowed" })
      expect(failureOf(yield* Fiber.join(fiber))).toMatchObject({ _tag: "HttpStatusError", status: 403 })
      expect(alerts).toEqual(["Invalid App Configuration"])
    })
  )
})
