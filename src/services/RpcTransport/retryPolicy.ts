/**
 * The retry policy of the RPC transport, as one pure decision (CONVENTIONS rule 5): after an attempt failed, retry
 * the same endpoint after a back-off, move on to the next endpoint, or stop and give the caller the error.
 *
 * - Transient failures — a time-out, a network failure, HTTP 408, 429 or 5xx, JSON-RPC -32603 (internal error),
 *   -32005 (limit exceeded) or -1 (unknown) — move on to the next endpoint while one is left; on the last endpoint
 *   they retry it up to `maxRetriesOnEndpoint` times, waiting `baseDelayMs × 2^retry`.
 * - An answer that is not JSON-RPC (HTML, truncated JSON, wrong id) moves on too, but is not retried on the same
 *   endpoint: a server that answered garbage once most likely answers it again.
 * - Everything else stops: the visitor's refusal (4001, 5000), a rejected transaction (-32003), a revert (code 3, or
 *   a message saying the execution reverted, even under -32603), any other JSON-RPC error (the node answered; another
 *   node would say the same), any other 4xx, and an aborted request.
 */
import { RPC_ERROR_CODES } from "../../domain/constants"

/** What went wrong in one attempt. */
export type Outcome =
  | { readonly _tag: "HttpStatus"; readonly status: number }
  | { readonly _tag: "RpcError"; readonly code: number; readonly message: string }
  | { readonly _tag: "Timeout" }
  | { readonly _tag: "NetworkFailure" }
  | { readonly _tag: "InvalidResponse" }
  | { readonly _tag: "Aborted" }

/** Where the request stands when the attempt failed. */
export interface AttemptContext {
  /** Retries already made on this endpoint (0 after its first attempt). */
  readonly retriesOnEndpoint: number
  /** Endpoints ranked after this one, not tried yet. */
  readonly endpointsLeft: number
}

/** What to do next. */
export type Decision =
  | { readonly _tag: "retry-same"; readonly delayMs: number }
  | { readonly _tag: "next-endpoint" }
  | { readonly _tag: "stop" }

/** How hard to retry the last endpoint. */
export interface RetrySettings {
  /** Retries of the last endpoint after a transient failure. */
  readonly maxRetriesOnEndpoint: number
  /** First back-off; doubled on each further retry. */
  readonly baseDelayMs: number
}

/** Two retries of the last endpoint, after 150 ms and 300 ms. */
export const DEFAULT_RETRY: RetrySettings = { maxRetriesOnEndpoint: 2, baseDelayMs: 150 }

/** JSON-RPC codes of a node in trouble rather than of a refused call: worth another endpoint. */
export const TRANSIENT_RPC_CODES: ReadonlyArray<number> = [RPC_ERROR_CODES.internalError, RPC_ERROR_CODES.limitExceeded, -1]

/** JSON-RPC code of a revert (EIP-1474 / geth `execution reverted` with data). */
export const REVERT_CODE = 3

/** True when a JSON-RPC error reports a revert: code 3, or a message that says the execution reverted. */
export const isRevert = (code: number, message: string): boolean => code === REVERT_CODE || /revert/i.test(message)

/** True for a failure of the endpoint or the way to it (not of the call itself). */
export const isTransient = (outcome: Outcome): boolean => {
  switch (outcome._tag) {
    case "Timeout":
    case "NetworkFailure":
      return true
    case "HttpStatus":
      return outcome.status === 408 || outcome.status === 429 || (outcome.status >= 500 && outcome.status <= 599)
    case "RpcError":
      return TRANSIENT_RPC_CODES.includes(outcome.code) && !isRevert(outcome.code, outcome.message)
    case "InvalidResponse":
    case "Aborted":
      return false
  }
}

const stop: Decision = { _tag: "stop" }
const nextEndpoint: Decision = { _tag: "next-endpoint" }

/** Decides what follows a failed attempt (rules in the module comment). */
export const decide = (outcome: Outcome, context: AttemptContext, settings: RetrySettings = DEFAULT_RETRY): Decision => {
  if (outcome._tag === "InvalidResponse") return context.endpointsLeft > 0 ? nextEndpoint : stop
  if (!isTransient(outcome)) return stop
  if (context.endpointsLeft > 0) return nextEndpoint
  if (context.retriesOnEndpoint < settings.maxRetriesOnEndpoint) {
    return { _tag: "retry-same", delayMs: settings.baseDelayMs * 2 ** context.retriesOnEndpoint }
  }
  return stop
}
