/**
 * RpcTransport: JSON-RPC 2.0 over HTTP POST for every chain (spec 7.2, 7.7 and point 9). Each network has several
 * endpoints — the host's customRpcUrls (always honoured), the network's own RPC URLs, then the RPC proxy — ranked
 * by stability and latency (`ranking.ts`). A request goes to the best endpoint first and falls back in rank order as
 * the retry policy decides (`retryPolicy.ts`). Requests to one network made in the same tick travel as one JSON-RPC
 * batch. Once a network is first used, a fiber pings each of its endpoints every 4000 ms (1000 ms time-out) to keep
 * the ranking current; nothing is sent for a network before its first request. An attempt waiting on an endpoint
 * that fails a ping meanwhile moves on at once when another endpoint is left, instead of waiting 10 s for its time-out.
 *
 * The parts, as viem's transports are split: one endpoint's exchange (`endpoint.ts`), the fallback loop
 * (`fallback.ts`) and the pinging (`pinging.ts`); this file composes them per network.
 */
import { Context, Effect, Layer, Scope } from "effect"
import * as HttpClient from "effect/http/HttpClient"
import { RPC_PING_TIMEOUT_MS, RPC_RANKING_INTERVAL_MS } from "../../domain/constants"
import { RequestAborted, SomethingWentWrong } from "../../domain/errors"
import { type CaipNetwork, isUnsupportedNetwork } from "../../domain/Network"
import type { HostOptions } from "../../domain/Options"
import { Config } from "../Config"
import { describeCause, endpointState, type EndpointState, makeEndpointClient, type RpcCall, type RpcEndpoint } from "./endpoint"
import { type RpcError, RpcNoEndpoint } from "./errors"
import { callQueue, type CallQueue, makeFallback } from "./fallback"
import { makePinging } from "./pinging"
import { DEFAULT_RANKING, type Ranked, rank, type RankingSettings, type Sample } from "./ranking"
import { DEFAULT_RETRY, type RetrySettings } from "./retryPolicy"

export type { EndpointSource, RpcCall, RpcEndpoint } from "./endpoint"

/** An endpoint in the current ranking, with its samples and score. */
export type RankedEndpoint = Ranked<RpcEndpoint & { readonly samples: ReadonlyArray<Sample> }>

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

/** A network in use: its endpoints with their samples, the calls gathering this tick, and whether it is pinged. */
interface NetworkState extends CallQueue {
  network: CaipNetwork
  endpoints: ReadonlyArray<EndpointState>
  pinging: boolean
}

const makeRpcTransport = (settings: RpcTransportSettings) =>
  Effect.gen(function* () {
    const options = yield* Config
    const client = yield* HttpClient.HttpClient
    const scope = yield* Scope.Scope
    const endpoints = makeEndpointClient(client, {
      requestTimeoutMs: settings.requestTimeoutMs,
      batch: settings.batch,
      sampleCount: settings.ranking.sampleCount
    })
    const fallback = makeFallback({ endpoints, scope, retry: settings.retry, pingTimeoutMs: settings.pingTimeoutMs })
    const pinging = makePinging({
      endpoints,
      scope,
      pingIntervalMs: settings.pingIntervalMs,
      pingTimeoutMs: settings.pingTimeoutMs
    })
    const networks = new Map<string, NetworkState>()

    const stateOf = (network: CaipNetwork): NetworkState => {
      const configured = endpointsOf(options, network)
      const existing = networks.get(network.caipNetworkId)
      // The same network may come back with other URLs (local chains get theirs at start): samples follow the URL.
      const previous = new Map((existing?.endpoints ?? []).map((state) => [state.endpoint.url, state]))
      const states = configured.map((endpoint): EndpointState => previous.get(endpoint.url) ?? endpointState(endpoint))
      if (existing !== undefined) {
        existing.network = network
        existing.endpoints = states
        return existing
      }
      const created: NetworkState = { ...callQueue(), network, endpoints: states, pinging: false }
      networks.set(network.caipNetworkId, created)
      return created
    }

    const ranked = (state: NetworkState) =>
      rank(
        state.endpoints.map((endpoint) => ({ ...endpoint.endpoint, samples: endpoint.samples, state: endpoint })),
        settings.ranking
      )

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
      yield* pinging.startPinging(state)
      const sent = fallback.enqueue(state, () => ranked(state).map((endpoint) => endpoint.state), call)
      return yield* signal === undefined ? sent : Effect.raceFirst(sent, abortedBy(signal))
    })

    const endpointsRanked = Effect.fn("RpcTransport.endpoints")(function* (network: CaipNetwork) {
      return ranked(stateOf(network)).map(({ state: _state, ...endpoint }): RankedEndpoint => endpoint)
    })

    return { request, endpoints: endpointsRanked }
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
