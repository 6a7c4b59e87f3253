import { Schema } from "effect"
import { JsonRpcRequestBody, JsonRpcResponseBody, RpcProxyQuery } from "../../../src/domain/Api"
import { HttpError, route } from "../lib/router"
import type { ServicesState } from "./state"

const upstreamOf = (state: ServicesState, chainId: string): string => {
  const evm = state.evm.find((chain) => chain.caipNetworkId === chainId)
  if (evm !== undefined) return evm.rpcUrl
  if (state.solana !== undefined && state.solana.caipNetworkId === chainId) return state.solana.rpcUrl
  const served = [...state.evm.map((c) => c.caipNetworkId), ...(state.solana ? [state.solana.caipNetworkId] : [])]
  throw new HttpError(400, `Unsupported chainId ${chainId}: this stack serves ${served.join(", ") || "no chain"}`)
}

const forward = async (upstream: string, body: JsonRpcRequestBody): Promise<JsonRpcResponseBody> => {
  let response: Response
  try {
    response = await fetch(upstream, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(Schema.encodeSync(JsonRpcRequestBody)(body))
    })
  } catch (error) {
    throw new HttpError(502, `The chain's node did not answer: ${error instanceof Error ? error.message : String(error)}`)
  }
  const text = await response.text()
  try {
    return Schema.decodeUnknownSync(JsonRpcResponseBody)(JSON.parse(text))
  } catch {
    throw new HttpError(502, `The chain's node gave an answer that is not JSON-RPC (HTTP ${response.status})`)
  }
}

/** The RPC proxy of spec 7.2: `POST /v1/?chainId=…` forwards a JSON-RPC body; `GET` carries one call as `method` and `params`. */
export const rpcProxyRoutes = (state: ServicesState) =>
  ["/v1/", "/v1"].flatMap((path) => [
  route({
    method: "POST",
    path,
    auth: "project",
    query: RpcProxyQuery,
    body: JsonRpcRequestBody,
    response: JsonRpcResponseBody,
    handler: async ({ query, body }) => forward(upstreamOf(state, query.chainId), body)
  }),
  route({
    method: "GET",
    path,
    auth: "project",
    query: RpcProxyQuery,
    response: JsonRpcResponseBody,
    handler: async ({ query }) => {
      const upstream = upstreamOf(state, query.chainId)
      if (query.method === undefined) {
        throw new HttpError(400, "Missing method: POST a JSON-RPC body, or GET with the query parameters method and params (a JSON array)")
      }
      return forward(upstream, { jsonrpc: "2.0", id: 1, method: query.method, params: query.params ?? [] })
    }
  })
])
