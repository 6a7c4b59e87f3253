import type { ApiErrorCode, ApiFailure } from "../api"
import { WalletBadGateway, WalletBadRequest, WalletInternalError } from "../WalletServerApi"

/**
 * A failure the signing code (`./rpc.ts`, promise-based) raises on purpose, with the status and `ApiFailure` body it
 * is answered with; `POST /api/rpc` turns it into the declared error of that status ({@link rpcFailure}).
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ApiErrorCode,
    message: string,
    readonly extra: Pick<ApiFailure, "retryAfterSeconds" | "attemptsLeft" | "rpcCode"> = {}
  ) {
    super(message)
  }

  /** The body the frame decodes with `ApiFailure`. */
  body(): ApiFailure {
    return { error: this.message, code: this.code, ...this.extra }
  }
}

/** How `POST /api/rpc` answers a signing failure: a 502 when the chain cannot be reached, a 400 for the request, else a 500. */
export const rpcFailure = (error: ApiError): WalletBadRequest | WalletBadGateway | WalletInternalError =>
  error.status === 400 ? new WalletBadRequest(error.body()) : error.status === 502 ? new WalletBadGateway(error.body()) : new WalletInternalError(error.body())
