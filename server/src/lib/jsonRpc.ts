import { Schema } from "effect"
import { JsonRpcResponse } from "../../../src/domain/Api"

const decodeBatch = Schema.decodeUnknownSync(Schema.Array(JsonRpcResponse))
const decodeOne = Schema.decodeUnknownSync(JsonRpcResponse)

/** An error answer of a JSON-RPC node. */
export class JsonRpcError extends Error {
  constructor(
    readonly code: number,
    message: string
  ) {
    super(message)
  }
}

const post = async (url: string, body: unknown): Promise<unknown> => {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body)
  })
  if (!response.ok) throw new Error(`${url} answered HTTP ${response.status}`)
  return response.json()
}

const resultOf = (answer: JsonRpcResponse): unknown => {
  if (answer.error !== undefined) throw new JsonRpcError(answer.error.code, answer.error.message)
  return answer.result
}

/** One JSON-RPC call; the answer is checked with the shared Schema, the result is returned as is. */
export const rpcCall = async (url: string, method: string, params: ReadonlyArray<unknown> = []): Promise<unknown> =>
  resultOf(decodeOne(await post(url, { jsonrpc: "2.0", id: 1, method, params })))

// Sends the calls as one batch, ids being their positions; the answers by id.
const sendBatch = async (
  url: string,
  calls: ReadonlyArray<{ readonly method: string; readonly params: ReadonlyArray<unknown> }>
) =>
  calls.length === 0
    ? new Map<unknown, never>()
    : new Map(
        decodeBatch(await post(url, calls.map((call, id) => ({ jsonrpc: "2.0", id, ...call })))).map((answer) => [answer.id, answer])
      )

/** Several calls in one JSON-RPC batch, results in the order of `calls`. */
export const rpcBatch = async (
  url: string,
  calls: ReadonlyArray<{ readonly method: string; readonly params: ReadonlyArray<unknown> }>
): Promise<ReadonlyArray<unknown>> => {
  const byId = await sendBatch(url, calls)
  return calls.map((call, id) => {
    const answer = byId.get(id)
    if (answer === undefined) throw new Error(`no answer to ${call.method} in the batch`)
    return resultOf(answer)
  })
}

/** Like {@link rpcBatch}, but an error answer gives `undefined` for that call instead of failing the batch. */
export const rpcBatchSettled = async (
  url: string,
  calls: ReadonlyArray<{ readonly method: string; readonly params: ReadonlyArray<unknown> }>
): Promise<ReadonlyArray<unknown>> => {
  const byId = await sendBatch(url, calls)
  return calls.map((_, id) => {
    const answer = byId.get(id)
    return answer === undefined || answer.error !== undefined ? undefined : answer.result
  })
}
