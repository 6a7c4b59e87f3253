/**
 * The frame page's client of the wallet server (devstack/embedded/api.ts), over `fetch` on the frame's own origin.
 * Every answer enters through the contract's Schemas; a failure becomes a `WalletApiError` carrying the server's
 * `error` text (in the visitor's words), its code and status.
 */
import { Result, Schema } from "effect"
import {
  ApiFailure,
  type ApiErrorCode,
  ChainsResponse,
  LoginDeviceResponse,
  LoginEmailResponse,
  LoginOtpResponse,
  LogoutResponse,
  ProjectResponse,
  RpcResponse,
  UpdateEmailPrimaryResponse,
  UpdateEmailResponse,
  UpdateEmailSecondaryResponse,
  UserResponse
} from "../api"

/** A failed call: the server's own words when it answered with the contract's failure body. */
export class WalletApiError extends Error {
  constructor(
    message: string,
    /** The contract's code, or undefined when the server did not answer with a failure body. */
    readonly code: ApiErrorCode | undefined,
    /** The HTTP status; 0 when no answer came. */
    readonly status: number
  ) {
    super(message)
    this.name = "WalletApiError"
  }
}

/** What the frame asks the wallet server; every call rejects with a `WalletApiError`. */
export interface WalletApi {
  readonly project: (projectId: string) => Promise<typeof ProjectResponse.Type>
  readonly chains: () => Promise<typeof ChainsResponse.Type>
  readonly loginEmail: (body: { readonly projectId: string; readonly deviceId: string; readonly email: string }) => Promise<
    typeof LoginEmailResponse.Type
  >
  readonly loginDevice: (body: {
    readonly projectId: string
    readonly deviceId: string
    readonly email: string
    readonly waitMs: number
  }) => Promise<typeof LoginDeviceResponse.Type>
  readonly loginOtp: (body: {
    readonly projectId: string
    readonly deviceId: string
    readonly email: string
    readonly otp: string
  }) => Promise<typeof LoginOtpResponse.Type>
  readonly logout: (token: string) => Promise<void>
  readonly user: (token: string) => Promise<typeof UserResponse.Type>
  readonly updateEmail: (token: string, newEmail: string) => Promise<typeof UpdateEmailResponse.Type>
  readonly updateEmailPrimary: (token: string, otp: string) => Promise<typeof UpdateEmailPrimaryResponse.Type>
  readonly updateEmailSecondary: (token: string, otp: string) => Promise<typeof UpdateEmailSecondaryResponse.Type>
  readonly rpc: (
    token: string,
    body: { readonly chainId: string; readonly method: string; readonly params?: unknown }
  ) => Promise<typeof RpcResponse.Type>
}

const decodeFailure = Schema.decodeUnknownResult(ApiFailure)

/**
 * A `WalletApi` over `fetchFn` at `baseUrl` (the frame's origin; "" for same-origin relative paths). `projectId` is
 * sent with every call as `x-project-id`, so session routes know the project too.
 */
export const makeWalletApi = (opts: {
  readonly fetch: typeof fetch
  readonly baseUrl: string
  readonly projectId: string
}): WalletApi => {
  const call = async <A>(
    schema: Schema.Codec<A, unknown>,
    method: "GET" | "POST",
    path: string,
    init: { readonly token?: string; readonly body?: unknown } = {}
  ): Promise<A> => {
    const headers: Record<string, string> = { "x-project-id": opts.projectId }
    if (init.body !== undefined) headers["content-type"] = "application/json"
    if (init.token !== undefined) headers["authorization"] = `Bearer ${init.token}`
    let response: Response
    try {
      response = await opts.fetch(`${opts.baseUrl}${path}`, {
        method,
        headers,
        ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
        // The token travels only in the header; no cookies are used.
        credentials: "omit",
        cache: "no-store"
      })
    } catch (error) {
      throw new WalletApiError(`The wallet server could not be reached: ${error instanceof Error ? error.message : String(error)}`, undefined, 0)
    }
    const text = await response.text()
    let json: unknown
    try {
      json = text === "" ? undefined : JSON.parse(text)
    } catch {
      json = undefined
    }
    if (!response.ok) {
      const failure = decodeFailure(json)
      if (Result.isSuccess(failure)) throw new WalletApiError(failure.success.error, failure.success.code, response.status)
      throw new WalletApiError(`HTTP status code: ${response.status}`, undefined, response.status)
    }
    const decoded = Schema.decodeUnknownResult(schema)(json)
    if (Result.isFailure(decoded)) {
      throw new WalletApiError(`The wallet server answered ${method} ${path} with an unexpected body`, undefined, response.status)
    }
    return decoded.success
  }
  return {
    project: (projectId) => call(ProjectResponse, "GET", `/api/project?projectId=${encodeURIComponent(projectId)}`),
    chains: () => call(ChainsResponse, "GET", "/api/chains"),
    loginEmail: (body) => call(LoginEmailResponse, "POST", "/api/login/email", { body }),
    loginDevice: (body) => call(LoginDeviceResponse, "POST", "/api/login/device", { body }),
    loginOtp: (body) => call(LoginOtpResponse, "POST", "/api/login/otp", { body }),
    logout: async (token) => {
      await call(LogoutResponse, "POST", "/api/logout", { token })
    },
    user: (token) => call(UserResponse, "GET", "/api/user", { token }),
    updateEmail: (token, newEmail) => call(UpdateEmailResponse, "POST", "/api/email/update", { token, body: { newEmail } }),
    updateEmailPrimary: (token, otp) =>
      call(UpdateEmailPrimaryResponse, "POST", "/api/email/update/primary", { token, body: { otp } }),
    updateEmailSecondary: (token, otp) =>
      call(UpdateEmailSecondaryResponse, "POST", "/api/email/update/secondary", { token, body: { otp } }),
    rpc: (token, body) => call(RpcResponse, "POST", "/api/rpc", { token, body })
  }
}
