/**
 * The RPC proxy of spec 7.2 (`src/domain/http/rpcProxy.ts`): `POST /v1/?chainId=…` forwards a JSON-RPC body (one
 * call or a batch) to the node of that network, `GET` carries one call as `method` and `params`. The node's answer is
 * passed back as it is, JSON-RPC errors included; a node that cannot be reached, or answers something that is not
 * JSON-RPC, is a 502.
 */
import { Effect, Schema } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { JsonRpcRequestBody, JsonRpcResponseBody } from "../../../src/domain/Api"
import { BadGateway, BadRequest } from "../../../src/domain/http/errors"
import { ServicesApi } from "../../../src/domain/http/ServicesApi"
import { type RpcUpstream, UpstreamUnreachable } from "../lib/rpcUpstream"
import { servedNetworks } from "./blockchain"
import { ServicesContext, type ServicesState } from "./state"

const upstreamOf = (state: ServicesState, chainId: string): Effect.Effect<RpcUpstream, BadRequest> => {
  const evm = state.evm.find((chain) => chain.caipNetworkId === chainId)
  if (evm !== undefined) return Effect.succeed(evm.rpc)
  if (state.solana !== undefined && state.solana.caipNetworkId === chainId) return Effect.succeed(state.solana.rpc)
  const served = servedNetworks(state)
  return Effect.fail(new BadRequest({ error: `Unsupported chainId ${chainId}: this stack serves ${served.join(", ") || "no chain"}` }))
}

const encodeRequest = Schema.encodeSync(JsonRpcRequestBody)
const decodeAnswer = Schema.decodeUnknownEffect(Schema.fromJsonString(JsonRpcResponseBody))

// The upstream's fetch is aborted when the request is (the client went away, or the route's time limit passed).
const forward = (upstream: RpcUpstream, body: JsonRpcRequestBody): Effect.Effect<JsonRpcResponseBody, BadGateway> =>
  Effect.gen(function* () {
    const answer = yield* Effect.tryPromise({
      try: (signal) => upstream.post(JSON.stringify(encodeRequest(body)), signal),
      catch: (error) =>
        new BadGateway({ error: `The chain's node did not answer: ${error instanceof UpstreamUnreachable ? error.reason : String(error)}` })
    })
    return yield* decodeAnswer(answer.text).pipe(
      Effect.mapError(() => new BadGateway({ error: `The chain's node gave an answer that is not JSON-RPC (HTTP ${answer.status})` }))
    )
  })

/** The RPC proxy's group, forwarding to the services' chains. */
export const RpcProxyGroupLive = HttpApiBuilder.group(ServicesApi, "rpcProxy", (handlers) =>
  Effect.map(Effect.service(ServicesContext), (state) =>
    handlers
      .handle("call", ({ query, payload }) => Effect.flatMap(upstreamOf(state, query.chainId), (upstream) => forward(upstream, payload)))
      .handle("get", ({ query }) =>
        Effect.gen(function* () {
          const upstream = yield* upstreamOf(state, query.chainId)
          if (query.method === undefined) {
            return yield* new BadRequest({
              error: "Missing method: POST a JSON-RPC body, or GET with the query parameters method and params (a JSON array)"
            })
          }
          return yield* forward(upstream, { jsonrpc: "2.0", id: 1, method: query.method, params: query.params ?? [] })
        })
      )
  )
)
