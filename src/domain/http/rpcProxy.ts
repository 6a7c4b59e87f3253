/**
 * The RPC proxy (spec 7.2) as an HTTP API group: JSON-RPC to the chain named by `chainId` (CAIP-2, or a bare EVM chain
 * id). The answer is the chain's own JSON-RPC body, errors included; a chain that cannot be reached is a 502.
 */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { JsonRpcRequestBody, JsonRpcResponseBody, RpcProxyQuery } from "../Api"
import { BadGateway, BadRequest } from "./errors"
import { ProjectAuth } from "./middleware"

/** `POST /v1/?chainId=…` (one call or a batch) and `GET /v1/?chainId=…&method=…&params=…` (one call). */
export const RpcProxyGroup = HttpApiGroup.make("rpcProxy")
  .add(
    HttpApiEndpoint.post("call", "/v1/", {
      query: RpcProxyQuery,
      payload: JsonRpcRequestBody,
      success: JsonRpcResponseBody,
      error: [BadRequest, BadGateway]
    }).annotate(OpenApi.Summary, "Forwards a JSON-RPC request or batch to the chain of `chainId`")
  )
  .add(
    HttpApiEndpoint.get("get", "/v1/", { query: RpcProxyQuery, success: JsonRpcResponseBody, error: [BadRequest, BadGateway] }).annotate(
      OpenApi.Summary,
      "One JSON-RPC call given as `method` and `params` (a JSON array), to the chain of `chainId`"
    )
  )
  .middleware(ProjectAuth)
