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

/** The node could not be asked: no connection, a non-OK status, or an answer that is not JSON-RPC. */
export class NodeUnreachable extends Error {
  constructor(
    readonly url: string,
    /** Why, without the URL (an upstream URL may hold a key: this text may reach a client). */
    readonly reason: string
  ) {
    super(`${url} could not be read: ${reason}`)
  }
}

/** Whether `error` says the chain's node failed (unreachable, or an error answer), as opposed to a fault of ours. */
export const isNodeFailure = (error: unknown): error is NodeUnreachable | JsonRpcError =>
  error instanceof NodeUnreachable || error instanceof JsonRpcError

const post = async (url: string, body: unknown): Promise<unknown> => {
  let response: Response
  try {
    response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body)
    })
  } catch (error) {
    throw new NodeUnreachable(url, error instanceof Error ? error.message : String(error))
  }
  if (!response.ok) throw new NodeUnreachable(url, `HTTP ${response.status}`)
  return response.json().catch(() => {
    throw new NodeUnreachable(url, "the answer is not JSON")
  })
}

// The node's answer as JSON-RPC; anything else is the node's fault.
const asAnswer = <A>(url: string, decode: (input: unknown) => A, input: unknown): A => {
  try {
    return decode(input)
  } catch {
    throw new NodeUnreachable(url, "the answer is not JSON-RPC")
  }
}

const resultOf = (answer: JsonRpcResponse): unknown => {
  if (answer.error !== undefined) throw new JsonRpcError(answer.error.code, answer.error.message)
  return answer.result
}

/** One JSON-RPC call; the answer is checked with the shared Schema, the result is returned as is. */
export const rpcCall = async (url: string, method: string, params: ReadonlyArray<unknown> = []): Promise<unknown> =>
  resultOf(asAnswer(url, decodeOne, await post(url, { jsonrpc: "2.0", id: 1, method, params })))

// Sends the calls as one batch, ids being their positions; the answers by id.
const sendBatch = async (
  url: string,
  calls: ReadonlyArray<{ readonly method: string; readonly params: ReadonlyArray<unknown> }>
) =>
  calls.length === 0
    ? new Map<unknown, never>()
    : new Map(
        asAnswer(url, decodeBatch, await post(url, calls.map((call, id) => ({ jsonrpc: "2.0", id, ...call })))).map((answer) => [
          answer.id,
          answer
        ])
      )

/** Several calls in one JSON-RPC batch, results in the order of `calls`. */
export const rpcBatch = async (
  url: string,
  calls: ReadonlyArray<{ readonly method: string; readonly params: ReadonlyArray<unknown> }>
): Promise<ReadonlyArray<unknown>> => {
  const byId = await sendBatch(url, calls)
  return calls.map((call, id) => {
    const answer = byId.get(id)
    if (answer === undefined) throw new NodeUnreachable(url, `no answer to ${call.method} in the batch`)
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
