/**
 * The frame page's client of the wallet server, derived with `HttpApiClient` from the API's declaration
 * (`../WalletServerApi.ts`) over `fetch` on the frame's own origin. Every answer enters through the declaration's
 * Schemas; a failure becomes a `WalletApiError` carrying the server's `error` text (in the visitor's words), its code,
 * status and, for a refusal that asks the frame to wait, its `Retry-After`.
 */
import { Cause, Effect, Exit, Layer, Schema } from "effect"
import { FetchHttpClient, HttpClient, HttpClientError, HttpClientRequest } from "effect/http"
import { HttpApiClient, HttpApiMiddleware } from "effect/http-api"
import type {
  ApiErrorCode,
  ChainsResponse,
  FarcasterChannelRequest,
  FarcasterChannelResponse,
  FarcasterStatusRequest,
  FarcasterStatusResponse,
  LoginDeviceResponse,
  LoginEmailResponse,
  LoginOtpResponse,
  PermissionRefundRequest,
  PermissionSpendRequest,
  PermissionSpendResponse,
  ProjectResponse,
  SocialFinishRequest,
  SocialFinishResponse,
  SocialStartRequest,
  SocialStartResponse,
  RpcResponse,
  StoreCallsRequest,
  UpdateEmailPrimaryResponse,
  UpdateEmailResponse,
  UpdateEmailSecondaryResponse,
  UserResponse
} from "../api"
import type {
  ExportConfirmResponse,
  ExportFamilies,
  ExportProof,
  ExportStartResponse,
  KeyFamily,
  LegacyKeyResponse, RecoveryResponse, ServerShareResponse, SplitKeysResponse, StoreSplitRequest, StoreSplitResponse } from "../sharesApi"
import type {
  PasskeyFinishRequest,
  PasskeyFinishResponse,
  PasskeyOptionsRequest,
  PasskeyOptionsResponse,
  PasskeyStartRequest,
  PasskeyStartResponse,
  PasskeyVerifyRequest,
  PasskeyVerifyResponse
} from "../passkeyApi"
import {
  SessionAuth,
  SessionToken,
  WalletBadGateway,
  WalletBadRequest,
  WalletConflict,
  WalletForbidden,
  WalletInternalError,
  WalletNotFound,
  WalletPayloadTooLarge,
  WalletServerApi,
  WalletTooManyRequests,
  WalletUnauthorized,
  WalletUnavailable
} from "../WalletServerApi"

/** A failed call: the server's own words when it answered with the contract's failure body. */
export class WalletApiError extends Error {
  constructor(
    message: string,
    /** The contract's code, or undefined when the server did not answer with a failure body. */
    readonly code: ApiErrorCode | undefined,
    /** The HTTP status; 0 when no answer came. */
    readonly status: number,
    /** For `rpc_error`: the JSON-RPC error code the chain, bundler or wallet answered. */
    readonly rpcCode?: number,
    /** For a 429 or 503: how many seconds the server asked to wait before the same request (its `Retry-After`). */
    readonly retryAfterSeconds?: number
  ) {
    super(message)
    this.name = "WalletApiError"
  }
}

/** What the frame asks the wallet server; every call rejects with a `WalletApiError`. */
export interface WalletApi {
  readonly project: (projectId: string) => Promise<typeof ProjectResponse.Type>
  readonly chains: () => Promise<typeof ChainsResponse.Type>
  readonly loginEmail: (body: {
    readonly projectId: string
    readonly deviceId: string
    readonly email: string
    readonly themeMode?: "light" | "dark"
  }) => Promise<
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
  readonly socialStart: (body: typeof SocialStartRequest.Type) => Promise<typeof SocialStartResponse.Type>
  readonly socialFinish: (body: typeof SocialFinishRequest.Type) => Promise<typeof SocialFinishResponse.Type>
  readonly farcasterChannel: (body: typeof FarcasterChannelRequest.Type) => Promise<typeof FarcasterChannelResponse.Type>
  readonly farcasterStatus: (body: typeof FarcasterStatusRequest.Type) => Promise<typeof FarcasterStatusResponse.Type>
  readonly passkeyStart: (body: typeof PasskeyStartRequest.Type) => Promise<typeof PasskeyStartResponse.Type>
  readonly passkeyFinish: (body: typeof PasskeyFinishRequest.Type) => Promise<typeof PasskeyFinishResponse.Type>
  readonly passkeyOptions: (body: typeof PasskeyOptionsRequest.Type) => Promise<typeof PasskeyOptionsResponse.Type>
  readonly passkeyVerify: (body: typeof PasskeyVerifyRequest.Type) => Promise<typeof PasskeyVerifyResponse.Type>
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

/** The split-key routes (`../sharesApi.ts`) the frame asks; every call rejects with a `WalletApiError`. */
export interface SplitKeysApi {
  readonly splitKeys: (token: string) => Promise<typeof SplitKeysResponse.Type>
  readonly storeSplit: (token: string, body: typeof StoreSplitRequest.Type) => Promise<typeof StoreSplitResponse.Type>
  readonly serverShare: (token: string, family: KeyFamily) => Promise<typeof ServerShareResponse.Type>
  readonly recovery: (token: string, family: KeyFamily, verifier: string) => Promise<typeof RecoveryResponse.Type>
  readonly legacyKey: (token: string, family: KeyFamily) => Promise<typeof LegacyKeyResponse.Type>
  /** Asks how the visitor confirms showing the keys of `families`, once for all (a code is mailed now, or a passkey's request made). */
  readonly exportStart: (token: string, families: ExportFamilies) => Promise<typeof ExportStartResponse.Type>
  /** Checks the confirmation: a grant per family of `families`, each for one export of that family's key by this session. */
  readonly exportConfirm: (token: string, families: ExportFamilies, proof: typeof ExportProof.Type) => Promise<typeof ExportConfirmResponse.Type>
  /** The server share of `family` for the export view, with the confirmation's grant. */
  readonly exportShare: (token: string, family: KeyFamily, grant: string) => Promise<typeof ServerShareResponse.Type>
}

/** What the frame's own signing keeps on the wallet server (frameRpc.ts); every call rejects with a `WalletApiError`. */
export interface FrameSigningApi {
  readonly storeCalls: (token: string, calls: typeof StoreCallsRequest.Type) => Promise<void>
  readonly spendPermission: (token: string, spend: typeof PermissionSpendRequest.Type) => Promise<typeof PermissionSpendResponse.Type>
  readonly refundPermission: (token: string, refund: typeof PermissionRefundRequest.Type) => Promise<void>
}

// The status each declared failure is answered with (the class is the status).
const statuses = [
  [WalletBadRequest, 400],
  [WalletUnauthorized, 401],
  [WalletForbidden, 403],
  [WalletNotFound, 404],
  [WalletConflict, 409],
  [WalletPayloadTooLarge, 413],
  [WalletTooManyRequests, 429],
  [WalletInternalError, 500],
  [WalletBadGateway, 502],
  [WalletUnavailable, 503]
] as const

// A call's failure in the frame's terms: the server's words when it answered with a declared failure.
const walletApiError = (cause: Cause.Cause<unknown>, what: string): WalletApiError => {
  const error = Cause.squash(cause)
  for (const [failure, status] of statuses) {
    if (error instanceof failure) return new WalletApiError(error.error, error.code, status, error.rpcCode, error.retryAfterSeconds)
  }
  if (HttpClientError.isHttpClientError(error)) {
    const response = error.response
    return response === undefined
      ? new WalletApiError(`The wallet server could not be reached: ${error.message}`, undefined, 0)
      : new WalletApiError(`HTTP status code: ${response.status}`, undefined, response.status)
  }
  if (Schema.isSchemaError(error)) return new WalletApiError(`The wallet server answered ${what} with an unexpected body`, undefined, 200)
  return new WalletApiError(`The wallet server could not answer ${what}: ${error instanceof Error ? error.message : String(error)}`, undefined, 0)
}

// The client side of the bearer session: the token of the call (`SessionToken`) goes in `Authorization`.
const sessionAuthClient = HttpApiMiddleware.layerClient(SessionAuth, ({ request, next }) =>
  Effect.flatMap(Effect.service(SessionToken), (token) => next(HttpClientRequest.bearerToken(request, token)))
)

/**
 * A `WalletApi` over `fetch` at `baseUrl` (the frame's origin; "" for same-origin relative paths). `projectId` is
 * sent with every call as `x-project-id`, so session routes know the project too.
 */
export const makeWalletApi = (opts: {
  readonly fetch: typeof fetch
  readonly baseUrl: string
  readonly projectId: string
}): WalletApi & SplitKeysApi & FrameSigningApi => {
  const services = Layer.mergeAll(FetchHttpClient.layer, sessionAuthClient).pipe(
    // The token travels only in the header; no cookies are used.
    Layer.provideMerge(Layer.succeed(FetchHttpClient.RequestInit)({ credentials: "omit", cache: "no-store" })),
    Layer.provideMerge(Layer.succeed(FetchHttpClient.Fetch)(opts.fetch))
  )
  const client = HttpApiClient.make(WalletServerApi, {
    baseUrl: opts.baseUrl,
    transformClient: HttpClient.mapRequest(HttpClientRequest.setHeader("x-project-id", opts.projectId))
  })
  type Client = Effect.Success<typeof client>
  const call = <A, E>(
    what: string,
    use: (api: Client) => Effect.Effect<A, E>,
    token = ""
  ): Promise<A> =>
    Effect.runPromiseExit(
      client.pipe(Effect.flatMap(use), Effect.provideService(SessionToken, token), Effect.provide(services))
    ).then((exit) => {
      if (Exit.isSuccess(exit)) return exit.value
      throw walletApiError(exit.cause, what)
    })
  return {
    project: (projectId) => call("GET /api/project", (api) => api.project.project({ query: { projectId } })),
    chains: () => call("GET /api/chains", (api) => api.project.chains({ query: {} })),
    loginEmail: (payload) => call("POST /api/login/email", (api) => api.login.email({ payload })),
    loginDevice: (payload) => call("POST /api/login/device", (api) => api.login.device({ payload })),
    loginOtp: (payload) => call("POST /api/login/otp", (api) => api.login.otp({ payload })),
    socialStart: (payload) => call("POST /api/social/start", (api) => api.social.start({ payload })),
    socialFinish: (payload) => call("POST /api/social/finish", (api) => api.social.finish({ payload })),
    farcasterChannel: (payload) => call("POST /api/farcaster/channel", (api) => api.farcaster.channel({ payload })),
    farcasterStatus: (payload) => call("POST /api/farcaster/status", (api) => api.farcaster.status({ payload })),
    passkeyStart: (payload) => call("POST /api/passkey/start", (api) => api.passkey.start({ payload })),
    passkeyFinish: (payload) => call("POST /api/passkey/finish", (api) => api.passkey.finish({ payload })),
    passkeyOptions: (payload) => call("POST /api/passkey/options", (api) => api.passkey.options({ payload })),
    passkeyVerify: (payload) => call("POST /api/passkey/verify", (api) => api.passkey.verify({ payload })),
    logout: async (token) => {
      await call("POST /api/logout", (api) => api.session.logout({ query: {} }), token)
    },
    user: (token) => call("GET /api/user", (api) => api.session.user({ query: {} }), token),
    updateEmail: (token, newEmail) =>
      call("POST /api/email/update", (api) => api.session.updateEmail({ query: {}, payload: { newEmail } }), token),
    updateEmailPrimary: (token, otp) =>
      call("POST /api/email/update/primary", (api) => api.session.updateEmailPrimary({ query: {}, payload: { otp } }), token),
    updateEmailSecondary: (token, otp) =>
      call("POST /api/email/update/secondary", (api) => api.session.updateEmailSecondary({ query: {}, payload: { otp } }), token),
    rpc: (token, payload) => call("POST /api/rpc", (api) => api.session.rpc({ query: {}, payload }), token),
    splitKeys: (token) => call("GET /api/keys", (api) => api.keyShares.list({ query: {} }), token),
    storeSplit: (token, payload) => call("POST /api/keys/split", (api) => api.keyShares.storeSplit({ query: {}, payload }), token),
    serverShare: (token, family) => call("POST /api/keys/server-share", (api) => api.keyShares.serverShare({ query: {}, payload: { family } }), token),
    recovery: (token, family, verifier) =>
      call("POST /api/keys/recovery", (api) => api.keyShares.recovery({ query: {}, payload: { family, verifier } }), token),
    legacyKey: (token, family) => call("POST /api/keys/legacy", (api) => api.keyShares.legacyKey({ query: {}, payload: { family } }), token),
    exportStart: (token, families) => call("POST /api/keys/export/start", (api) => api.keyExport.start({ query: {}, payload: { families } }), token),
    exportConfirm: (token, families, proof) =>
      call("POST /api/keys/export/confirm", (api) => api.keyExport.confirm({ query: {}, payload: { families, proof } }), token),
    exportShare: (token, family, grant) =>
      call("POST /api/keys/export/share", (api) => api.keyExport.share({ query: {}, payload: { family, grant } }), token),
    storeCalls: (token, payload) => call("POST /api/calls", (api) => api.session.storeCalls({ query: {}, payload }), token).then(() => undefined),
    spendPermission: (token, payload) => call("POST /api/permissions/spend", (api) => api.session.spendPermission({ query: {}, payload }), token),
    refundPermission: (token, payload) =>
      call("POST /api/permissions/refund", (api) => api.session.refundPermission({ query: {}, payload }), token).then(() => undefined)
  }
}
