/** JSON-RPC 2.0 answers, as the RPC endpoints and the services' RPC proxy give them. */
import { Schema } from "effect"

/** A JSON-RPC 2.0 request id. */
export const JsonRpcId = Schema.Union([Schema.Finite, Schema.String, Schema.Null])

/** One JSON-RPC 2.0 answer: a result or an error. */
export const JsonRpcResponse = Schema.Struct({
  jsonrpc: Schema.Literal("2.0"),
  id: JsonRpcId,
  result: Schema.optionalKey(Schema.Unknown),
  error: Schema.optionalKey(
    Schema.Struct({ code: Schema.Finite, message: Schema.String, data: Schema.optionalKey(Schema.Unknown) })
  )
})
/** One JSON-RPC 2.0 answer. */
export type JsonRpcResponse = typeof JsonRpcResponse.Type
