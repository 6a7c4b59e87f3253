/**
 * Errors of the RPC transport beyond the catalogue's ('HTTP status code: N', 'Request was aborted', 'Something went
 * wrong', the visitor's refusal): a node's JSON-RPC error, a time-out, an unreachable endpoint, an answer that is not
 * JSON-RPC, a network without any endpoint. Each names the endpoint (its projectId left out) so a log says where.
 */
import { Schema } from "effect"
import type { HttpStatusError, RequestAborted, SomethingWentWrong, UserRejected } from "../../domain/errors"
import { TaggedError } from "../../domain/taggedError"

/** A JSON-RPC error the node answered (a revert, invalid params, …): its code, message and data, as sent. */
export class RpcResponseError extends TaggedError<RpcResponseError>()("RpcResponseError", {
  code: Schema.Number,
  message: Schema.String,
  data: Schema.optionalKey(Schema.Unknown)
}) {}

/** No answer from the endpoint within the time-out. */
export class RpcTimeout extends TaggedError<RpcTimeout>()("RpcTimeout", {
  url: Schema.String,
  timeoutMs: Schema.Number
}) {
  override get message() {
    return `The RPC endpoint ${this.url} did not answer within ${this.timeoutMs} ms`
  }
}

/** The endpoint could not be reached (refused, reset, unknown host, offline). */
export class RpcNetworkError extends TaggedError<RpcNetworkError>()("RpcNetworkError", {
  url: Schema.String,
  reason: Schema.String
}) {
  override get message() {
    return `The RPC endpoint ${this.url} could not be reached: ${this.reason}`
  }
}

/** The endpoint answered something that is not a JSON-RPC answer to the request (HTML, truncated JSON, wrong id). */
export class RpcInvalidResponse extends TaggedError<RpcInvalidResponse>()("RpcInvalidResponse", {
  url: Schema.String,
  reason: Schema.String
}) {
  override get message() {
    return `The RPC endpoint ${this.url} gave an invalid JSON-RPC answer: ${this.reason}`
  }
}

/** The network has no RPC endpoint: none configured, no proxy (no projectId), or the unsupported-network placeholder. */
export class RpcNoEndpoint extends TaggedError<RpcNoEndpoint>()("RpcNoEndpoint", {
  caipNetworkId: Schema.String
}) {
  override get message() {
    return `No RPC endpoint for network ${this.caipNetworkId}`
  }
}

/** Every way an RPC request can fail. */
export type RpcError =
  | RpcResponseError
  | UserRejected
  | HttpStatusError
  | RequestAborted
  | SomethingWentWrong
  | RpcTimeout
  | RpcNetworkError
  | RpcInvalidResponse
  | RpcNoEndpoint

/** An endpoint's address as errors and logs show it: the projectId query parameter left out. */
export const displayUrl = (url: string): string => {
  // `URL` is the platform's parser: no I/O. A URL it refuses is shown as given.
  try {
    const parsed = new URL(url)
    parsed.searchParams.delete("projectId")
    return parsed.toString()
  } catch {
    return url
  }
}
