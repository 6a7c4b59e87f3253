import type { ApiErrorCode, ApiFailure } from "../api"

/**
 * A failure the wallet's RPC code (`./walletRpc.ts`, promise-based, run by the server or the frame) raises on purpose,
 * with the status and `ApiFailure` body it is answered with; the server's `POST /api/rpc` turns it into the declared
 * error of that status (`server/errors.ts`).
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
