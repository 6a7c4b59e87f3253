/**
 * RpcTransport: JSON-RPC 2.0 over HTTP POST for every chain (spec 7.2, 7.7 and point 9). Each network has several
 * endpoints — the host's customRpcUrls (always honoured), the network's own RPC URLs, then the RPC proxy — ranked
 * by stability and latency (`ranking.ts`). A request goes to the best endpoint first and falls back in rank order as
 * the retry policy decides (`retryPolicy.ts`). Requests to one network made in the same tick travel as one JSON-RPC
 * batch. Once a network is first used, a fiber pings each of its endpoints every 4000 ms (1000 ms time-out) to keep
 * the ranking current; nothing is sent for a network before its first request. An attempt waiting on an endpoint
 * that fails a ping meanwhile moves on at once when another endpoint is left, instead of waiting 10 s for its time-out.
 */
import { Cause, Clock, Context, Deferred, Effect, Exit, Fiber, Layer, Result, Schema, Scope } from "effect"
import * as HttpClient from "effect/http/HttpClient"
import * as HttpClientError from "effect/http/HttpClientError"
import * as HttpClientRequest from "effect/http/HttpClientRequest"
import { JsonRpcResponse } from "../../domain/jsonRpc"
import type { ChainNamespace } from "../../domain/Caip"
import { RPC_ERROR_CODES, RPC_PING_TIMEOUT_MS, RPC_RANKING_INTERVAL_MS } from "../../domain/constants"
import { HttpStatusError, RequestAborted, SomethingWentWrong, UserRejected } from "../../domain/errors"
import { type CaipNetwork, isUnsupportedNetwork } from "../../domain/Network"
import type { HostOptions } from "../../domain/Options"
import { Config } from "../Config"
import {
  displayUrl,
  type RpcError,
  RpcInvalidResponse,
  RpcNetworkError,
  RpcNoEndpoint,
  RpcResponseError,
  RpcTimeout
} from "./errors"
import { bodyProblemText, isBodyProblem, readTextCapped } from "../httpBody"
import { addSample, answered, DEFAULT_RANKING, failed, type Ranked, rank, type RankingSettings, type Sample } from "./ranking"
import { decide, DEFAULT_RETRY, type Outcome, type RetrySettings } from "./retryPolicy"

/** Where an endpoint comes from. */
export type EndpointSource = "custom" | "network" | "proxy"

/** One HTTP endpoint of a network. */
export interface RpcEndpoint {
  readonly url: string
  readonly source: EndpointSource
}

/** An endpoint in the current ranking, with its samples and score. */
export type RankedEndpoint = Ranked<RpcEndpoint & { readonly samples: ReadonlyArray<Sample> }>

/** One JSON-RPC call. */
export interface RpcCall {
  readonly method: string
  readonly params?: unknown
}

/** Per-request options. */
export interface RpcRequestOptions {
  /** Aborting it fails the request with 'Request was aborted' (and cancels the HTTP request if no one else waits). */
  readonly signal?: AbortSignal | undefined
}

/** Timings and policies of the transport; the defaults follow the spec. */
export interface RpcTransportSettings {
  /** One attempt of a request gives up after this long (then the retry policy decides). */
  readonly requestTimeoutMs: number
  /** Endpoints of a network in use are pinged this often. */
  readonly pingIntervalMs: number
  /** A ping slower than this is a failed sample. */
  readonly pingTimeoutMs: number
  readonly ranking: RankingSettings
  readonly retry: RetrySettings
  /** Send the calls of one tick as one JSON-RPC batch. */
  readonly batch: boolean
}

/** Spec values: pings every 4000 ms with a 1000 ms time-out, 10 samples, 0.7/0.3 weights; 10 s per attempt. */
export const DEFAULT_RPC_TRANSPORT_SETTINGS: RpcTransportSettings = {
  requestTimeoutMs: 10_000,
  pingIntervalMs: RPC_RANKING_INTERVAL_MS,
  pingTimeoutMs: RPC_PING_TIMEOUT_MS,
  ranking: DEFAULT_RANKING,
  retry: DEFAULT_RETRY,
  batch: true
}

/** The cheap call that proves an endpoint of a family alive; a family without one is ranked by requests only. */
export const PING_METHODS: Partial<Record<ChainNamespace, string>> = {
  eip155: "eth_blockNumber",
  solana: "getHealth"
}

/**
 * The endpoints of a network in configured order, without duplicates: the host's `customRpcUrls` for it, the
 * network's default HTTP URLs, then the RPC proxy (only with a projectId, which the proxy requires). The
 * unsupported-network placeholder gets the host's custom URLs only.
 */
export const endpointsOf = (
  options: Pick<HostOptions, "customRpcUrls" | "endpoints" | "projectId">,
  network: CaipNetwork
): ReadonlyArray<RpcEndpoint> => {
  const id = network.caipNetworkId
  const custom = (options.customRpcUrls?.[id] ?? []).map((entry): RpcEndpoint => ({ url: entry.url, source: "custom" }))
  const placeholder = isUnsupportedNetwork(network)
  const own = placeholder ? [] : network.rpcUrls.default.http.map((url): RpcEndpoint => ({ url, source: "network" }))
  const projectId = options.projectId?.trim() ?? ""
  const proxy: Array<RpcEndpoint> =
    placeholder || projectId === ""
      ? []
      : [
          {
            url: `${options.endpoints.rpcProxy.replace(/\/+$/, "")}/v1/?chainId=${encodeURIComponent(id)}&projectId=${encodeURIComponent(projectId)}`,
            source: "proxy"
          }
        ]
  const unique: Array<RpcEndpoint> = []
  for (const endpoint of [...custom, ...own, ...proxy]) {
    if (!unique.some((kept) => kept.url === endpoint.url)) unique.push(endpoint)
  }
  return unique
}

interface EndpointState {
  readonly endpoint: RpcEndpoint
  samples: ReadonlyArray<Sample>
  /** The endpoint answered a batch with a single error: its calls go one by one from then on. */
  batchRefused: boolean
  /** Attempts waiting on this endpoint, told when one of its pings fails. */
  readonly onPingFailure: Set<() => void>
}

interface Waiter {
  readonly call: RpcCall
  readonly deferred: Deferred.Deferred<unknown, RpcError>
  /** The caller stopped waiting (aborted or interrupted). */
  gone: boolean
  settled: boolean
}

/** The calls of one tick: collected while open, then sent together by one fiber. */
interface Group {
  readonly waiters: Array<Waiter>
  sent: boolean
  fiber: Fiber.Fiber<void> | undefined
}

interface NetworkState {
  network: CaipNetwork
  endpoints: ReadonlyArray<EndpointState>
  open: Group | undefined
  pinging: boolean
}

/** What one attempt of one call gave when it failed: the policy's view and the caller's error. */
interface Failure {
  readonly outcome: Outcome
  readonly error: RpcError
}

interface HttpAnswer {
  readonly status: number
  readonly text: string
  readonly latencyMs: number
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

// Node's fetch says only "fetch failed"; the system error (ECONNREFUSED, …) is its cause.
const describeCause = (cause: unknown): string => {
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

type CallResult = Result.Result<unknown, Failure>

/** A call's result, or its failure, from its decoded JSON-RPC answer. */
const resultOf = (url: string, answer: JsonRpcResponse): CallResult => {
  if (answer.error !== undefined) return Result.fail(rpcFailure(answer.error))
  if (!("result" in answer)) return Result.fail(invalid(url, `the answer to request ${answer.id} has neither result nor error`))
  return Result.succeed(answer.result)
}

/** How an HTTP answer to a JSON-RPC request reads: a result or failure per call, or a refused batch. */
type Reading =
  | {
      readonly _tag: "Results"
      readonly results: ReadonlyArray<CallResult>
      /** The endpoint answered JSON-RPC as it should (a JSON-RPC error is still a healthy answer). */
      readonly healthy: boolean
    }
  | { readonly _tag: "BatchRefused" }

/** Reads the answer to the requests `ids` (a batch when there are several): each call's result or failure. */
const readAnswer = (url: string, ids: ReadonlyArray<number>, answer: Pick<HttpAnswer, "status" | "text">): Reading => {
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

const makeRpcTransport = (settings: RpcTransportSettings) =>
  Effect.gen(function* () {
    const options = yield* Config
    const client = yield* HttpClient.HttpClient
    const scope = yield* Scope.Scope
    const networks = new Map<string, NetworkState>()
    let nextId = 1

    const stateOf = (network: CaipNetwork): NetworkState => {
      const configured = endpointsOf(options, network)
      const existing = networks.get(network.caipNetworkId)
      // The same network may come back with other URLs (local chains get theirs at start): samples follow the URL.
      const previous = new Map((existing?.endpoints ?? []).map((state) => [state.endpoint.url, state]))
      const endpoints = configured.map(
        (endpoint): EndpointState =>
          previous.get(endpoint.url) ?? { endpoint, samples: [], batchRefused: false, onPingFailure: new Set() }
      )
      if (existing !== undefined) {
        existing.network = network
        existing.endpoints = endpoints
        return existing
      }
      const created: NetworkState = { network, endpoints, open: undefined, pinging: false }
      networks.set(network.caipNetworkId, created)
      return created
    }

    const record = (endpoint: EndpointState, sample: Sample) => {
      endpoint.samples = addSample(endpoint.samples, sample, settings.ranking.sampleCount)
    }

    const ranked = (state: NetworkState) =>
      rank(
        state.endpoints.map((endpoint) => ({ ...endpoint.endpoint, samples: endpoint.samples, state: endpoint })),
        settings.ranking
      )

    // Trace headers (b3, traceparent) would make a browser preflight fail on public RPC endpoints: none are sent.
    const post = (url: string, body: string, timeoutMs: number): Effect.Effect<HttpAnswer, Failure> =>
      Effect.gen(function* () {
        const started = yield* Clock.currentTimeMillis
        const response = yield* client.execute(
          HttpClientRequest.post(url).pipe(
            HttpClientRequest.bodyText(body, "application/json"),
            HttpClientRequest.acceptJson
          )
        )
        const text = yield* readTextCapped(response)
        const ended = yield* Clock.currentTimeMillis
        return { status: response.status, text, latencyMs: ended - started }
      }).pipe(
        Effect.timeout(timeoutMs),
        Effect.mapError((error) => transportFailure(url, timeoutMs, error)),
        Effect.provideService(HttpClient.TracerPropagationEnabled, false)
      )

    /** One HTTP exchange of `calls` with an endpoint (a batch, or one call); records the sample. */
    const exchange = (endpoint: EndpointState, calls: ReadonlyArray<RpcCall>): Effect.Effect<ReadonlyArray<CallResult>> =>
      Effect.suspend(() => {
        const url = endpoint.endpoint.url
        if (calls.length > 1 && (!settings.batch || endpoint.batchRefused)) {
          return Effect.forEach(calls, (call) => exchange(endpoint, [call]), { concurrency: "unbounded" }).pipe(
            Effect.map((results) => results.flat())
          )
        }
        const ids = calls.map(() => nextId++)
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

    // An endpoint that fails its ping (1000 ms) while an attempt waits on it is in trouble: rather than waiting out the
    // request time-out, the attempt moves on to the next endpoint, as after a time-out. Only when another endpoint is
    // left: a lone slow endpoint may still answer.
    const abandonOnPingFailure = (endpoint: EndpointState, calls: ReadonlyArray<RpcCall>) =>
      Effect.callback<ReadonlyArray<CallResult>>((resume) => {
        const failure: Failure = {
          outcome: { _tag: "Timeout" },
          error: new RpcTimeout({ url: displayUrl(endpoint.endpoint.url), timeoutMs: settings.pingTimeoutMs })
        }
        const notify = () => resume(Effect.succeed(calls.map((): CallResult => Result.fail(failure))))
        endpoint.onPingFailure.add(notify)
        return Effect.sync(() => endpoint.onPingFailure.delete(notify))
      })

    const settle = (waiter: Waiter, exit: Exit.Exit<unknown, RpcError>) =>
      Effect.suspend(() => {
        waiter.settled = true
        return Deferred.done(waiter.deferred, exit)
      })

    /** Tries `waiters` on the endpoint at `index` of `ranking`, then follows the retry policy call by call. */
    const attempt = (
      ranking: ReadonlyArray<EndpointState>,
      waiters: ReadonlyArray<Waiter>,
      index: number,
      retries: number
    ): Effect.Effect<void> =>
      Effect.gen(function* () {
        const live = waiters.filter((waiter) => !waiter.gone && !waiter.settled)
        const endpoint = ranking[index]
        if (live.length === 0 || endpoint === undefined) return
        const calls = live.map((waiter) => waiter.call)
        const results = yield* index < ranking.length - 1
          ? Effect.raceFirst(exchange(endpoint, calls), abandonOnPingFailure(endpoint, calls))
          : exchange(endpoint, calls)
        const moveOn: Array<Waiter> = []
        const retryAfter = new Map<number, Array<Waiter>>()
        for (const [i, waiter] of live.entries()) {
          const result = results[i]
          if (result === undefined) continue
          if (Result.isSuccess(result)) {
            yield* settle(waiter, Exit.succeed(result.success))
            continue
          }
          const { outcome, error } = result.failure
          const decision = decide(outcome, { retriesOnEndpoint: retries, endpointsLeft: ranking.length - index - 1 }, settings.retry)
          yield* Effect.logDebug(`RPC ${waiter.call.method} on ${displayUrl(endpoint.endpoint.url)}: ${error.message} → ${decision._tag}`)
          if (decision._tag === "next-endpoint") moveOn.push(waiter)
          else if (decision._tag === "retry-same") retryAfter.set(decision.delayMs, [...(retryAfter.get(decision.delayMs) ?? []), waiter])
          else yield* settle(waiter, Exit.fail(error))
        }
        yield* Effect.all(
          [
            ...(moveOn.length > 0 ? [attempt(ranking, moveOn, index + 1, 0)] : []),
            ...[...retryAfter].map(([delayMs, group]) =>
              Effect.sleep(delayMs).pipe(Effect.andThen(attempt(ranking, group, index, retries + 1)))
            )
          ],
          { concurrency: "unbounded", discard: true }
        )
      })

    /** Sends a closed group once the tick is over; a caller still waiting when it fails gets 'Something went wrong'. */
    const flush = (state: NetworkState, group: Group): Effect.Effect<void> =>
      Effect.gen(function* () {
        yield* Effect.yieldNow
        if (state.open === group) state.open = undefined
        group.sent = true
        const waiters = group.waiters.filter((waiter) => !waiter.gone)
        if (waiters.length === 0) return
        const ranking = ranked(state).map((endpoint) => endpoint.state)
        yield* attempt(ranking, waiters, 0, 0)
      }).pipe(
        Effect.onExit((exit) =>
          Exit.isSuccess(exit)
            ? Effect.void
            : Effect.forEach(
                group.waiters.filter((waiter) => !waiter.settled),
                (waiter) => settle(waiter, Exit.fail(new SomethingWentWrong({ reason: Cause.pretty(exit.cause) }))),
                { discard: true }
              )
        )
      )

    // A caller that stops waiting leaves its group; the group's HTTP request is cancelled once no caller is left.
    const leave = (group: Group, waiter: Waiter) =>
      Effect.suspend(() => {
        waiter.gone = true
        const abandoned = group.waiters.every((other) => other.gone || other.settled)
        return group.sent && abandoned && group.fiber !== undefined ? Fiber.interrupt(group.fiber) : Effect.void
      })

    const enqueue = (state: NetworkState, call: RpcCall): Effect.Effect<unknown, RpcError> =>
      Effect.suspend(() => {
        const waiter: Waiter = { call, deferred: Deferred.makeUnsafe(), gone: false, settled: false }
        const open = state.open
        const group: Group = open ?? { waiters: [], sent: false, fiber: undefined }
        group.waiters.push(waiter)
        const start =
          open === undefined
            ? Effect.suspend(() => {
                state.open = group
                return Effect.forkIn(flush(state, group), scope).pipe(
                  Effect.tap((fiber) => Effect.sync(() => (group.fiber = fiber)))
                )
              })
            : Effect.void
        return start.pipe(
          Effect.andThen(Deferred.await(waiter.deferred)),
          Effect.onInterrupt(() => leave(group, waiter))
        )
      })

    const pingFailed = (endpoint: EndpointState) => {
      record(endpoint, failed)
      for (const notify of endpoint.onPingFailure) notify()
    }

    const ping = (endpoint: EndpointState, method: string) =>
      Effect.gen(function* () {
        const id = nextId++
        const body = JSON.stringify({ jsonrpc: "2.0", id, method, params: [] })
        const answer = yield* Effect.result(post(endpoint.endpoint.url, body, settings.pingTimeoutMs))
        if (Result.isFailure(answer)) {
          if (answer.failure.outcome._tag !== "Aborted") pingFailed(endpoint)
          return
        }
        // A ping answered with a JSON-RPC error (a Solana node behind, say) is a failed ping.
        const reading = readAnswer(endpoint.endpoint.url, [id], answer.success)
        const healthy = reading._tag === "Results" && reading.results.every(Result.isSuccess)
        if (healthy) record(endpoint, answered(answer.success.latencyMs))
        else pingFailed(endpoint)
      })

    const pingRound = (state: NetworkState, method: string) =>
      Effect.suspend(() => Effect.forEach(state.endpoints, (endpoint) => ping(endpoint, method), { concurrency: "unbounded", discard: true }))

    // Rounds start every interval whatever they take: a round ends within the ping time-out, shorter than the interval.
    const startPinging = (state: NetworkState) =>
      Effect.suspend(() => {
        const method = PING_METHODS[state.network.chainNamespace]
        if (state.pinging || method === undefined) return Effect.void
        state.pinging = true
        return Effect.forkIn(
          Effect.forever(
            Effect.all([pingRound(state, method), Effect.sleep(settings.pingIntervalMs)], {
              concurrency: "unbounded",
              discard: true
            })
          ),
          scope
        ).pipe(Effect.asVoid)
      })

    const abortedBy = (signal: AbortSignal) =>
      Effect.callback<never, RequestAborted>((resume) => {
        const onAbort = () => resume(Effect.fail(new RequestAborted()))
        if (signal.aborted) {
          onAbort()
          return
        }
        signal.addEventListener("abort", onAbort, { once: true })
        return Effect.sync(() => signal.removeEventListener("abort", onAbort))
      })

    const request = Effect.fn("RpcTransport.request")(function* (
      network: CaipNetwork,
      call: RpcCall,
      requestOptions?: RpcRequestOptions
    ) {
      const signal = requestOptions?.signal
      if (signal?.aborted === true) return yield* new RequestAborted()
      // Params that cannot become JSON (a bigint, a cycle) fail this call alone, not the batch it would travel in.
      yield* Effect.try({
        try: () => JSON.stringify(call.params ?? null),
        catch: (cause) =>
          new SomethingWentWrong({ reason: `The params of ${call.method} cannot be sent as JSON: ${describeCause(cause)}` })
      })
      const state = stateOf(network)
      if (state.endpoints.length === 0) return yield* new RpcNoEndpoint({ caipNetworkId: network.caipNetworkId })
      yield* startPinging(state)
      const sent = enqueue(state, call)
      return yield* signal === undefined ? sent : Effect.raceFirst(sent, abortedBy(signal))
    })

    const endpoints = Effect.fn("RpcTransport.endpoints")(function* (network: CaipNetwork) {
      return ranked(stateOf(network)).map(({ state: _state, ...endpoint }): RankedEndpoint => endpoint)
    })

    return { request, endpoints }
  })

/** JSON-RPC over HTTP with ranked fallback, retries and batching. */
export class RpcTransport extends Context.Service<
  RpcTransport,
  {
    /**
     * Sends one JSON-RPC call to `network` and gives its result, or a typed error: the node's JSON-RPC error
     * (`RpcResponseError`, or `UserRejected` for 4001/5000), 'HTTP status code: N', a time-out, an unreachable
     * endpoint, an invalid answer, 'Request was aborted' when `signal` aborts.
     */
    readonly request: (
      network: CaipNetwork,
      call: RpcCall,
      options?: RpcRequestOptions
    ) => Effect.Effect<unknown, RpcError>
    /** The network's endpoints best first, with scores; sends nothing. */
    readonly endpoints: (network: CaipNetwork) => Effect.Effect<ReadonlyArray<RankedEndpoint>>
  }
>()("wallet-runtime/RpcTransport") {
  /** The transport with the spec's settings over the `HttpClient` of the environment (fetch in a browser). */
  static readonly layer: Layer.Layer<RpcTransport, never, Config | HttpClient.HttpClient> = Layer.effect(RpcTransport)(
    makeRpcTransport(DEFAULT_RPC_TRANSPORT_SETTINGS)
  )

  /** The transport with some settings changed (shorter time-outs in tests, no batching, …). */
  static readonly layerWith = (
    settings: Partial<RpcTransportSettings>
  ): Layer.Layer<RpcTransport, never, Config | HttpClient.HttpClient> =>
    Layer.effect(RpcTransport)(makeRpcTransport({ ...DEFAULT_RPC_TRANSPORT_SETTINGS, ...settings }))

  /**
   * A transport that sends nothing: `answer` gives each call's result, for tests of services built on RPC.
   * @example RpcTransport.layerTest((_, call) => call.method === "eth_chainId" ? Effect.succeed("0x1") : Effect.die(call))
   */
  static readonly layerTest = (
    answer: (network: CaipNetwork, call: RpcCall) => Effect.Effect<unknown, RpcError>
  ): Layer.Layer<RpcTransport> =>
    Layer.succeed(RpcTransport)({
      request: (network, call, options) =>
        options?.signal?.aborted === true ? Effect.fail(new RequestAborted()) : answer(network, call),
      endpoints: () => Effect.succeed([])
    })
}
