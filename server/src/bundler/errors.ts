/**
 * The bundler's JSON-RPC errors: one class with the code and words a client gets, and the codes of ERC-7769 (the
 * bundler RPC) next to JSON-RPC's own. An EntryPoint refusal (`FailedOp`, "AA24 signature error"…) keeps its
 * reason in the message, so a wallet can say what went wrong.
 */

/** JSON-RPC and ERC-7769 error codes. */
export const RpcErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  Internal: -32603,
  /** The account (or its factory) refused the operation in validation. */
  RejectedByAccount: -32500,
  /** The paymaster refused it in validation, or the sponsoring policy refused it. */
  RejectedByPaymaster: -32501,
  /** Valid only in a time window that has passed or not begun. */
  OutOfTimeRange: -32503,
  /** The account's signature check failed. */
  InvalidSignature: -32507,
  /** The operation's calls revert (an estimate). */
  ExecutionReverted: -32521
} as const

/** A JSON-RPC error answer of the bundler. */
export class BundlerRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown
  ) {
    super(message)
  }
}

/** The code of an EntryPoint `FailedOp` reason ("AA24 signature error", "AA33 reverted"…). */
export const codeOfFailedOp = (reason: string): number => {
  const aa = /^AA(\d\d)/.exec(reason)?.[1]
  if (aa === "24") return RpcErrorCode.InvalidSignature
  if (aa === "22" || aa === "32") return RpcErrorCode.OutOfTimeRange
  if (aa?.startsWith("3") === true) return RpcErrorCode.RejectedByPaymaster
  return RpcErrorCode.RejectedByAccount
}
