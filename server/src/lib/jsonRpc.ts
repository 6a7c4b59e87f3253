import { Schema } from "effect"
import { custom, RpcRequestError } from "viem"
import { JsonRpcResponse } from "../../../src/domain/Api"
import { type RpcUpstream, UpstreamUnreachable } from "./rpcUpstream"

const decodeBatch = Schema.decodeUnknownSync(Schema.Array(JsonRpcResponse))
const decodeOne = Schema.decodeUnknownSync(JsonRpcResponse)

/** An error answer of a JSON-RPC node. */
export class JsonRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    /** The error's `data` (a revert's return data…), when the node gave one. */
    readonly data?: unknown
  ) {
    super(message)
  }
}

/** The node could not be asked: no URL of the chain answered, a non-OK status, or an answer that is not JSON-RPC. */
export class NodeUnreachable extends Error {
  constructor(
    /** Why, without the URL (an upstream URL may hold a key: this text may reach a client). */
    readonly reason: string
  ) {
    super(`the chain's node could not be read: ${reason}`)
  }
}

/** Whether `error` says the chain's node failed (unreachable, or an error answer), as opposed to a fault of ours. */
export const isNodeFailure = (error: unknown): error is NodeUnreachable | JsonRpcError =>
  error instanceof NodeUnreachable || error instanceof JsonRpcError

const post = async (upstream: RpcUpstream, body: unknown): Promise<unknown> => {
  const answer = await upstream.post(JSON.stringify(body)).catch((error: unknown) => {
    throw new NodeUnreachable(error instanceof UpstreamUnreachable ? error.reason : String(error))
  })
  if (answer.status < 200 || answer.status >= 300) throw new NodeUnreachable(`HTTP ${answer.status}`)
  try {
    return JSON.parse(answer.text) as unknown
  } catch {
    throw new NodeUnreachable("the answer is not JSON")
  }
}

// The node's answer as JSON-RPC; anything else is the node's fault.
const asAnswer = <A>(decode: (input: unknown) => A, input: unknown): A => {
  try {
    return decode(input)
  } catch {
    throw new NodeUnreachable("the answer is not JSON-RPC")
  }
}

const resultOf = (answer: JsonRpcResponse): unknown => {
  if (answer.error !== undefined) throw new JsonRpcError(answer.error.code, answer.error.message, answer.error.data)
  return answer.result
}

/** One JSON-RPC call; the answer is checked with the shared Schema, the result is returned as is. */
export const rpcCall = async (upstream: RpcUpstream, method: string, params: ReadonlyArray<unknown> = []): Promise<unknown> =>
  resultOf(asAnswer(decodeOne, await post(upstream, { jsonrpc: "2.0", id: 1, method, params })))

// Sends the calls as one batch, ids being their positions; the answers by id.
const sendBatch = async (
  upstream: RpcUpstream,
  calls: ReadonlyArray<{ readonly method: string; readonly params: ReadonlyArray<unknown> }>
) =>
  calls.length === 0
    ? new Map<unknown, never>()
    : new Map(
        asAnswer(decodeBatch, await post(upstream, calls.map((call, id) => ({ jsonrpc: "2.0", id, ...call })))).map((answer) => [
          answer.id,
          answer
        ])
      )

/** Several calls in one JSON-RPC batch, results in the order of `calls`. */
export const rpcBatch = async (
  upstream: RpcUpstream,
  calls: ReadonlyArray<{ readonly method: string; readonly params: ReadonlyArray<unknown> }>
): Promise<ReadonlyArray<unknown>> => {
  const byId = await sendBatch(upstream, calls)
  return calls.map((call, id) => {
    const answer = byId.get(id)
    if (answer === undefined) throw new NodeUnreachable(`no answer to ${call.method} in the batch`)
    return resultOf(answer)
  })
}

/** Like {@link rpcBatch}, but an error answer gives `undefined` for that call instead of failing the batch. */
export const rpcBatchSettled = async (
  upstream: RpcUpstream,
  calls: ReadonlyArray<{ readonly method: string; readonly params: ReadonlyArray<unknown> }>
): Promise<ReadonlyArray<unknown>> => {
  const byId = await sendBatch(upstream, calls)
  return calls.map((_, id) => {
    const answer = byId.get(id)
    return answer === undefined || answer.error !== undefined ? undefined : answer.result
  })
}

/**
 * A viem transport over `upstream` (its failover included), viem's own retries off. A node's JSON-RPC error reaches
 * viem as viem's `http()` transport hands it on (an `RpcRequestError` with the code and data), so viem reads reverts and
 * node errors the same way; the URL is not named in it.
 */
export const upstreamTransport = (upstream: RpcUpstream) =>
  custom(
    {
      // viem's actions send their params as a list.
      request: ({ method, params }: { readonly method: string; readonly params?: unknown }) => {
        const list = Array.isArray(params) ? params : []
        return rpcCall(upstream, method, list).catch((error: unknown) => {
          if (!(error instanceof JsonRpcError)) throw error
          throw new RpcRequestError({
            body: { jsonrpc: "2.0", id: 1, method, params: list },
            error: { code: error.code, message: error.message, data: error.data },
            url: "the chain's RPC"
          })
        })
      }
    },
    { retryCount: 0 }
  )
