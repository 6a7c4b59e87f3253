import type { ApiErrorCode, ApiFailure } from "../api"

/** A failure the wallet server answers on purpose, sent as an `ApiFailure` body (`../api.ts`) with `status`. */
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
