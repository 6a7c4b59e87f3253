/**
 * One endpoint of a network: a JSON-RPC exchange over HTTP POST (one call, or a batch), the reading of its answer,
 * and the samples its ranking is made of. The fallback loop (`fallback.ts`) and the pinging (`pinging.ts`) use it.
 */
import { Cause, Clock, Effect, Result, Schema } from "effect"
import * as HttpClient from "effect/http/HttpClient"
import * as HttpClientError from "effect/http/HttpClientError"
import * as HttpClientRequest from "effect/http/HttpClientRequest"
import { RPC_ERROR_CODES } from "../../domain/constants"
import { HttpStatusError, SomethingWentWrong, UserRejected } from "../../domain/errors"
import { JsonRpcResponse } from "../../domain/jsonRpc"
import { bodyProblemText, isBodyProblem, readTextCapped } from "../httpBody"
import { displayUrl, type RpcError, RpcInvalidResponse, RpcNetworkError, RpcResponseError, RpcTimeout } from "./errors"
import { addSample, answered, failed, type Sample } from "./ranking"
import type { Outcome } from "./retryPolicy"

/** Where an endpoint comes from. */
export type EndpointSource = "custom" | "network" | "proxy"

/** One HTTP endpoint of a network. */
export interface RpcEndpoint {
  readonly url: string
  readonly source: EndpointSource
}

/** One JSON-RPC call. */
export interface RpcCall {
  readonly method: string
  readonly params?: unknown
}

/** An endpoint in use: its samples, what it refused, and the attempts waiting on it. */
export interface EndpointState {
  readonly endpoint: RpcEndpoint
  samples: ReadonlyArray<Sample>
  /** The endpoint answered a batch with a single error: its calls go one by one from then on. */
  batchRefused: boolean
  /** Attempts waiting on this endpoint, told when one of its pings fails. */
  readonly onPingFailure: Set<() => void>
}

/** A fresh state for `endpoint`: no samples yet. */
export const endpointState = (endpoint: RpcEndpoint): EndpointState => ({
  endpoint,
  samples: [],
  batchRefused: false,
  onPingFailure: new Set()
})

/** What one attempt of one call gave when it failed: the policy's view and the caller's error. */
export interface Failure {
  readonly outcome: Outcome
  readonly error: RpcError
}

/** An HTTP answer, read whole (capped), with the time it took. */
export interface HttpAnswer {
  readonly status: number
  readonly text: string
  readonly latencyMs: number
}

/** One call's result from an exchange, or why it failed. */
export type CallResult = Result.Result<unknown, Failure>

/** What an endpoint's exchanges need of the transport's settings. */
export interface EndpointSettings {
  readonly requestTimeoutMs: number
  readonly batch: boolean
  readonly sampleCount: number
}

const USER_REJECTED_CODES: ReadonlyArray<number> = [RPC_ERROR_CODES.userRejected, RPC_ERROR_CODES.walletConnectUserRejected]
const STATUS_BODY_KEPT = 200

const decodeJson = Schema.decodeUnknownResult(Schema.fromJsonString(Schema.Unknown))
const decodeResponse = Schema.decodeUnknownResult(JsonRpcResponse)

const snippet = (text: string): string => {
  const trimmed = text.trim()
  if (trimmed === "") return "an empty body"
  return JSON.stringify(trimmed.length > 40 ? `${trimmed.slice(0, 40)}…` : trimmed)
}

const invalid = (url: string, reason: string): Failure => ({
  outcome: { _tag: "InvalidResponse" },
  error: new RpcInvalidResponse({ url: displayUrl(url), reason })
})

const rpcFailure = (error: { readonly code: number; readonly message: string; readonly data?: unknown }): Failure => ({
  outcome: { _tag: "RpcError", code: error.code, message: error.message },
  error: USER_REJECTED_CODES.includes(error.code)
    ? new UserRejected({ code: error.code })
    : new RpcResponseError({
        code: error.code,
        message: error.message,
        ...(error.data !== undefined ? { data: error.data } : {})
      })
})

const isAbortError = (cause: unknown): boolean =>
  typeof cause === "object" && cause !== null && "name" in cause && cause.name === "AbortError"

/** A thrown value in words. Node's fetch says only "fetch failed": the system error (ECONNREFUSED, …) is its cause. */
export const describeCause = (cause: unknown): string => {
  if (!(cause instanceof Error)) return String(cause)
  const inner: unknown = cause.cause
  const code =
    typeof inner === "object" && inner !== null && "code" in inner && typeof inner.code === "string" ? inner.code : undefined
  return code === undefined ? cause.message : `${cause.message} (${code})`
}

const transportFailure = (url: string, timeoutMs: number, error: unknown): Failure => {
  // An endpoint that floods its answer is as broken as one that cannot be reached: the next one is tried.
  if (isBodyProblem(error)) {
    return { outcome: { _tag: "NetworkFailure" }, error: new RpcNetworkError({ url: displayUrl(url), reason: bodyProblemText(error) }) }
  }
  if (Cause.isTimeoutError(error)) {
    return { outcome: { _tag: "Timeout" }, error: new RpcTimeout({ url: displayUrl(url), timeoutMs }) }
  }
  if (HttpClientError.isHttpClientError(error)) {
    const reason = error.reason
    if (reason._tag === "TransportError" && isAbortError(reason.cause)) {
      return { outcome: { _tag: "Aborted" }, error: new SomethingWentWrong({ reason: describeCause(reason.cause) }) }
    }
    const detail = "cause" in reason && reason.cause !== undefined ? describeCause(reason.cause) : reason.message
    return { outcome: { _tag: "NetworkFailure" }, error: new RpcNetworkError({ url: displayUrl(url), reason: detail }) }
  }
  return { outcome: { _tag: "NetworkFailure" }, error: new RpcNetworkError({ url: displayUrl(url), reason: String(error) }) }
}

/** A call's result, or its failure, from its decoded JSON-RPC answer. */
const resultOf = (url: string, answer: JsonRpcResponse): CallResult => {
  if (answer.error !== undefined) return Result.fail(rpcFailure(answer.error))
  if (!("result" in answer)) return Result.fail(invalid(url, `the answer to request ${answer.id} has neither result nor error`))
  return Result.succeed(answer.result)
}

/** How an HTTP answer to a JSON-RPC request reads: a result or failure per call, or a refused batch. */
export type Reading =
  | {
      readonly _tag: "Results"
      readonly results: ReadonlyArray<CallResult>
      /** The endpoint answered JSON-RPC as it should (a JSON-RPC error is still a healthy answer). */
      readonly healthy: boolean
    }
  | { readonly _tag: "BatchRefused" }

/** Reads the answer to the requests `ids` (a batch when there are several): each call's result or failure. */
export const readAnswer = (url: string, ids: ReadonlyArray<number>, answer: Pick<HttpAnswer, "status" | "text">): Reading => {
  const all = (failure: Failure): Reading => ({
    _tag: "Results",
    results: ids.map((): CallResult => Result.fail(failure)),
    healthy: false
  })
  if (answer.status < 200 || answer.status > 299) {
    const body = answer.text.slice(0, STATUS_BODY_KEPT)
    return all({
      outcome: { _tag: "HttpStatus", status: answer.status },
      error: new HttpStatusError({ status: answer.status, ...(body !== "" ? { body } : {}) })
    })
  }
  const json = decodeJson(answer.text)
  if (Result.isFailure(json)) return all(invalid(url, `the body is not JSON: ${snippet(answer.text)}`))
  const [firstId] = ids
  if (ids.length === 1) {
    const single = decodeResponse(json.success)
    if (Result.isFailure(single)) return all(invalid(url, `the body is not a JSON-RPC 2.0 answer: ${snippet(answer.text)}`))
    if (single.success.id !== firstId) {
      return all(invalid(url, `the answer's id ${JSON.stringify(single.success.id)} is not the request's id ${firstId}`))
    }
    return { _tag: "Results", results: [resultOf(url, single.success)], healthy: true }
  }
  if (!Array.isArray(json.success)) {
    const refusal = decodeResponse(json.success)
    if (Result.isSuccess(refusal) && refusal.success.error !== undefined) return { _tag: "BatchRefused" }
    return all(invalid(url, `the answer to a batch is not an array: ${snippet(answer.text)}`))
  }
  const byId = new Map<unknown, JsonRpcResponse>()
  for (const item of json.success) {
    const decoded = decodeResponse(item)
    if (Result.isSuccess(decoded)) byId.set(decoded.success.id, decoded.success)
  }
  const results = ids.map((id): CallResult => {
    const found = byId.get(id)
    return found === undefined
      ? Result.fail(invalid(url, `the batch answer has no answer for request id ${id}`))
      : resultOf(url, found)
  })
  const healthy = results.every((result) => Result.isSuccess(result) || result.failure.outcome._tag !== "InvalidResponse")
  return { _tag: "Results", results, healthy }
}

/** The exchanges of a transport with its endpoints, over one `HttpClient`, numbering requests across them. */
export interface EndpointClient {
  /** The next JSON-RPC request id. */
  readonly nextId: () => number
  /** POSTs `body` to `url` and reads the answer whole, within `timeoutMs`. */
  readonly post: (url: string, body: string, timeoutMs: number) => Effect.Effect<HttpAnswer, Failure>
  /** One HTTP exchange of `calls` with an endpoint (a batch, or one call each); records the sample. */
  readonly exchange: (endpoint: EndpointState, calls: ReadonlyArray<RpcCall>) => Effect.Effect<ReadonlyArray<CallResult>>
  /** Adds `sample` to the endpoint's ranking samples. */
  readonly record: (endpoint: EndpointState, sample: Sample) => void
}

/** The endpoint client over `client` with `settings`. */
export const makeEndpointClient = (client: HttpClient.HttpClient, settings: EndpointSettings): EndpointClient => {
  let lastId = 0
  const nextId = () => ++lastId

  const record = (endpoint: EndpointState, sample: Sample) => {
    endpoint.samples = addSample(endpoint.samples, sample, settings.sampleCount)
  }

  // Trace headers (b3, traceparent) would make a browser preflight fail on public RPC endpoints: none are sent.
  const post = (url: string, body: string, timeoutMs: number): Effect.Effect<HttpAnswer, Failure> =>
    Effect.gen(function* () {
      const started = yield* Clock.currentTimeMillis
      const response = yield* client.execute(
        HttpClientRequest.post(url).pipe(HttpClientRequest.bodyText(body, "application/json"), HttpClientRequest.acceptJson)
      )
      const text = yield* readTextCapped(response)
      const ended = yield* Clock.currentTimeMillis
      return { status: response.status, text, latencyMs: ended - started }
    }).pipe(
      Effect.timeout(timeoutMs),
      Effect.mapError((error) => transportFailure(url, timeoutMs, error)),
      Effect.provideService(HttpClient.TracerPropagationEnabled, false)
    )

  const exchange = (endpoint: EndpointState, calls: ReadonlyArray<RpcCall>): Effect.Effect<ReadonlyArray<CallResult>> =>
    Effect.suspend(() => {
      const url = endpoint.endpoint.url
      if (calls.length > 1 && (!settings.batch || endpoint.batchRefused)) {
        return Effect.forEach(calls, (call) => exchange(endpoint, [call]), { concurrency: "unbounded" }).pipe(
          Effect.map((results) => results.flat())
        )
      }
      const ids = calls.map(() => nextId())
      const requests = calls.map((call, i) => ({
        jsonrpc: "2.0",
        id: ids[i],
        method: call.method,
        ...(call.params !== undefined ? { params: call.params } : {})
      }))
      return post(url, JSON.stringify(requests.length > 1 ? requests : requests[0]), settings.requestTimeoutMs).pipe(
        Effect.matchEffect({
          onFailure: (failure) =>
            Effect.sync(() => {
              if (failure.outcome._tag !== "Aborted") record(endpoint, failed)
              return calls.map((): CallResult => Result.fail(failure))
            }),
          onSuccess: (answer): Effect.Effect<ReadonlyArray<CallResult>> => {
            const reading = readAnswer(url, ids, answer)
            if (reading._tag === "BatchRefused") {
              // A server without batch support answers the whole batch with one error: send the calls singly.
              record(endpoint, answered(answer.latencyMs))
              endpoint.batchRefused = true
              return exchange(endpoint, calls)
            }
            record(endpoint, reading.healthy ? answered(answer.latencyMs) : failed)
            return Effect.succeed(reading.results)
          }
        })
      )
    })

  return { nextId, post, exchange, record }
}
