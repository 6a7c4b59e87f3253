/**
 * The pinging: once a network is first used, a fiber pings each of its endpoints with its family's cheap call every
 * interval, so the ranking stays current. A failed ping also tells the attempts waiting on that endpoint.
 */
import { Effect, Result, type Scope } from "effect"
import type { ChainNamespace } from "../../domain/Caip"
import type { CaipNetwork } from "../../domain/Network"
import { type EndpointClient, type EndpointState, readAnswer } from "./endpoint"
import { answered, failed } from "./ranking"

/** The cheap call that proves an endpoint of a family alive; a family without one is ranked by requests only. */
export const PING_METHODS: Partial<Record<ChainNamespace, string>> = {
  eip155: "eth_blockNumber",
  solana: "getHealth"
}

/** A network whose endpoints may be pinged, and whether they are. */
export interface PingedNetwork {
  readonly network: CaipNetwork
  readonly endpoints: ReadonlyArray<EndpointState>
  pinging: boolean
}

/** What the pinging needs: the endpoints' exchanges, where its fiber lives, and its timings. */
export interface PingSettings {
  readonly endpoints: Pick<EndpointClient, "nextId" | "post" | "record">
  readonly scope: Scope.Scope
  readonly pingIntervalMs: number
  readonly pingTimeoutMs: number
}

/** The pinging over some endpoints; `startPinging` starts a network's rounds once. */
export const makePinging = ({ endpoints, scope, pingIntervalMs, pingTimeoutMs }: PingSettings) => {
  const pingFailed = (endpoint: EndpointState) => {
    endpoints.record(endpoint, failed)
    for (const notify of endpoint.onPingFailure) notify()
  }

  const ping = (endpoint: EndpointState, method: string) =>
    Effect.gen(function* () {
      const id = endpoints.nextId()
      const body = JSON.stringify({ jsonrpc: "2.0", id, method, params: [] })
      const answer = yield* Effect.result(endpoints.post(endpoint.endpoint.url, body, pingTimeoutMs))
      if (Result.isFailure(answer)) {
        if (answer.failure.outcome._tag !== "Aborted") pingFailed(endpoint)
        return
      }
      // A ping answered with a JSON-RPC error (a Solana node behind, say) is a failed ping.
      const reading = readAnswer(endpoint.endpoint.url, [id], answer.success)
      const healthy = reading._tag === "Results" && reading.results.every(Result.isSuccess)
      if (healthy) endpoints.record(endpoint, answered(answer.success.latencyMs))
      else pingFailed(endpoint)
    })

  // The network's endpoints are read at each round: a network given other URLs is pinged at its new ones.
  const pingRound = (state: PingedNetwork, method: string) =>
    Effect.suspend(() => Effect.forEach(state.endpoints, (endpoint) => ping(endpoint, method), { concurrency: "unbounded", discard: true }))

  // Rounds start every interval whatever they take: a round ends within the ping time-out, shorter than the interval.
  const startPinging = (state: PingedNetwork) =>
    Effect.suspend(() => {
      const method = PING_METHODS[state.network.chainNamespace]
      if (state.pinging || method === undefined) return Effect.void
      state.pinging = true
      return Effect.forkIn(
        Effect.forever(
          Effect.all([pingRound(state, method), Effect.sleep(pingIntervalMs)], { concurrency: "unbounded", discard: true })
        ),
        scope
      ).pipe(Effect.asVoid)
    })

  return { startPinging }
}
