/**
 * The wallet server's HTTP API, declared once with `effect/http-api`: the server implements it (`./server/`), the
 * frame page derives its client from it (`./frame/apiClient.ts`), and the server serves its OpenAPI document at
 * `/openapi.json`. The request and answer Schemas, the failure body and the statuses are described in `./api.ts`.
 *
 * Each failure status is one error class whose body is the `ApiFailure` (`{ error, code, … }`): the class tells the
 * status when the server encodes it, the status tells the class when a client decodes it, and `code` says which
 * failure of that status it is. A 429 and a 503 also carry `Retry-After` (seconds).
 *
 * This module is loaded by the frame page in the browser too: it imports nothing from Node.
 */
import { Context, Schema } from "effect"
import {
  HttpApi,
  HttpApiEndpoint,
  HttpApiGroup,
  HttpApiMiddleware,
  HttpApiSchema,
  HttpApiSecurity,
  OpenApi
} from "effect/http-api"
import type { ApiProject } from "../../../src/domain/http/middleware"
import {
  ApiFailure,
  ChainsResponse,
  DoneResponse,
  PermissionRefundRequest,
  PermissionSpendRequest,
  PermissionSpendResponse,
  StoreCallsRequest,
  DeviceVerifyQuery,
  FarcasterAuthenticateRequest,
  FarcasterAuthenticateResponse,
  FarcasterChannelRequest,
  FarcasterChannelResponse,
  FarcasterStatusRequest,
  FarcasterStatusResponse,
  LoginDeviceRequest,
  LoginDeviceResponse,
  LoginEmailRequest,
  LoginEmailResponse,
  LoginOtpRequest,
  LoginOtpResponse,
  LogoutResponse,
  ProjectQuery,
  ProjectResponse,
  RpcRequest,
  RpcResponse,
  SocialFinishRequest,
  SocialFinishResponse,
  SocialStartRequest,
  SocialStartResponse,
  UpdateEmailOtpRequest,
  UpdateEmailPrimaryResponse,
  UpdateEmailRequest,
  UpdateEmailResponse,
  UpdateEmailSecondaryResponse,
  UserResponse
} from "./api"
import {
  ExportConfirmRequest,
  ExportConfirmResponse,
  ExportShareRequest,
  ExportStartRequest,
  ExportStartResponse,
  LegacyKeyRequest,
  LegacyKeyResponse,
  RecoveryRequest,
  RecoveryResponse,
  ServerShareRequest,
  ServerShareResponse,
  SplitKeysResponse,
  StoreSplitRequest,
  StoreSplitResponse
} from "./sharesApi"
import {
  PasskeyFinishRequest,
  PasskeyFinishResponse,
  PasskeyOptionsRequest,
  PasskeyOptionsResponse,
  PasskeyStartRequest,
  PasskeyStartResponse,
  PasskeyVerifyRequest,
  PasskeyVerifyResponse
} from "./passkeyApi"

/** 400: a malformed request (the field named), a wrong or expired code, a method the wallet does not run. */
export class WalletBadRequest extends Schema.Error<WalletBadRequest>("WalletBadRequest")(ApiFailure, { httpApiStatus: 400 }) {}

/** 401: an unknown projectId (`unknown_project`), or no session or one that is over (`unauthorized`). */
export class WalletUnauthorized extends Schema.Error<WalletUnauthorized>("WalletUnauthorized")(ApiFailure, { httpApiStatus: 401 }) {}

/** 403: a page of another origin (`origin_not_allowed`), or a code on a device not verified yet (`device_not_verified`). */
export class WalletForbidden extends Schema.Error<WalletForbidden>("WalletForbidden")(ApiFailure, { httpApiStatus: 403 }) {}

/** 404: the user has no split key of that family yet (`no_key_split`), or no sealed one left to split (`no_legacy_key`). */
export class WalletNotFound extends Schema.Error<WalletNotFound>("WalletNotFound")(ApiFailure, { httpApiStatus: 404 }) {}

/** 409: the email belongs to another wallet (`email_taken`). */
export class WalletConflict extends Schema.Error<WalletConflict>("WalletConflict")(ApiFailure, { httpApiStatus: 409 }) {}

/** 413: the request body is larger than the server takes (`payload_too_large`). */
export class WalletPayloadTooLarge extends Schema.Error<WalletPayloadTooLarge>("WalletPayloadTooLarge")(ApiFailure, {
  httpApiStatus: 413
}) {}

/**
 * 429: a mail within 30 s of the last, or a network address past its requests per minute on the passkey routes, the
 * Farcaster relay or the starts of a social or Farcaster login (`rate_limited`); too many wrong codes
 * (`too_many_attempts`).
 */
export class WalletTooManyRequests extends Schema.Error<WalletTooManyRequests>("WalletTooManyRequests")(ApiFailure, {
  httpApiStatus: 429
}) {}

/** 500: the server failed (`internal`, or `rpc_error` for a signing failure it did not expect). */
export class WalletInternalError extends Schema.Error<WalletInternalError>("WalletInternalError")(ApiFailure, {
  httpApiStatus: 500
}) {}

/** 502: the chain's RPC cannot be reached (`rpc_error`). */
export class WalletBadGateway extends Schema.Error<WalletBadGateway>("WalletBadGateway")(ApiFailure, { httpApiStatus: 502 }) {}

/** 503: the database cannot be reached or the route took too long (`unavailable`); nothing was changed. */
export class WalletUnavailable extends Schema.Error<WalletUnavailable>("WalletUnavailable")(ApiFailure, { httpApiStatus: 503 }) {}

// A failure that asks the client to wait: its `retryAfterSeconds` is also sent as the `Retry-After` header.
const withRetryAfter = <Self extends ApiFailure>(
  error: Schema.Codec<Self, unknown> & (new (body: ApiFailure) => Self),
  status: 429 | 503
) =>
  error.pipe(
    HttpApiSchema.encodeToWithHeaders(
      { body: ApiFailure.pipe(HttpApiSchema.status(status)), headers: { "retry-after": Schema.optionalKey(Schema.String) } },
      {
        decode: ({ body }) => new error(body),
        encode: (failure) => {
          const { error: text, code, retryAfterSeconds, attemptsLeft, rpcCode } = failure
          return {
            body: {
              error: text,
              code,
              ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
              ...(attemptsLeft === undefined ? {} : { attemptsLeft }),
              ...(rpcCode === undefined ? {} : { rpcCode })
            },
            headers: retryAfterSeconds === undefined ? {} : { "retry-after": String(retryAfterSeconds) }
          }
        }
      }
    )
  )

/** {@link WalletTooManyRequests} on the wire: the body and `Retry-After`. */
export const TooManyRequestsResponse = withRetryAfter(WalletTooManyRequests, 429)

/** {@link WalletUnavailable} on the wire: the body and `Retry-After`. */
export const UnavailableResponse = withRetryAfter(WalletUnavailable, 503)

/** The project of the request, for the routes behind {@link ProjectCheck}. */
export class WalletProject extends Context.Service<WalletProject, ApiProject>()("wallet-runtime/embedded/WalletProject") {}

/** Whose session a bearer token opens: the user and the token's hash. */
export interface WalletSessionInfo {
  readonly userId: string
  /** Null for a user made by a social login or a passkey. */
  readonly email: string | null
  /** The SHA-256 of the bearer token, as the sessions table keys it. */
  readonly tokenHash: string
}

/** The session of the request, for the routes behind {@link SessionAuth}. */
export class WalletSession extends Context.Service<WalletSession, WalletSessionInfo>()("wallet-runtime/embedded/WalletSession") {}

/**
 * Every route: a browser request must come from the server's own origin (403 `origin_not_allowed`, before anything
 * else, the session included, is looked at), and the projectId (in a login route's body, else the query `projectId`
 * or the header `x-project-id`) must be a known project's (401 `unknown_project`); missing, it is a 400.
 */
export class ProjectCheck extends HttpApiMiddleware.Service<ProjectCheck, { provides: WalletProject }>()(
  "wallet-runtime/embedded/ProjectCheck",
  { error: [WalletBadRequest, WalletUnauthorized, WalletForbidden] }
) {}

/** The session token of a client call, read by the client side of {@link SessionAuth}. */
export const SessionToken = Context.Reference<string>("wallet-runtime/embedded/SessionToken", { defaultValue: () => "" })

/** The session routes: `Authorization: Bearer <token>` of a session that is not over (401 `unauthorized` otherwise). */
export class SessionAuth extends HttpApiMiddleware.Service<SessionAuth, { provides: WalletSession }>()(
  "wallet-runtime/embedded/SessionAuth",
  { error: WalletUnauthorized, security: { bearer: HttpApiSecurity.bearer }, requiredForClient: true }
) {}

/**
 * Every route: a request that fails its Schemas is a 400 `bad_request` naming the part and the field, a body over the
 * server's limit a 413, an unexpected failure a 500 `internal`, and a route that cannot answer now (database down,
 * over its time limit) a 503 `unavailable` with `Retry-After`.
 */
export class WalletRequestErrors extends HttpApiMiddleware.Service<WalletRequestErrors>()(
  "wallet-runtime/embedded/WalletRequestErrors",
  { error: [WalletBadRequest, WalletPayloadTooLarge, WalletInternalError, UnavailableResponse] }
) {}

/** The HTML page the mailed device link opens. */
export const HtmlPage = Schema.String.pipe(HttpApiSchema.asText({ contentType: "text/html; charset=utf-8" }))

/** The page of a device link that is used or expired (400). */
export const DeviceLinkRefused = Schema.String.pipe(
  HttpApiSchema.status(400),
  HttpApiSchema.asText({ contentType: "text/html; charset=utf-8" })
)

/** Logging in: the code by mail, the device link and its long-poll, the code's check. */
export const LoginGroup = HttpApiGroup.make("login")
  .add(
    HttpApiEndpoint.post("email", "/api/login/email", {
      payload: LoginEmailRequest,
      success: LoginEmailResponse,
      error: [WalletBadRequest, TooManyRequestsResponse]
    })
  )
  .add(
    HttpApiEndpoint.post("device", "/api/login/device", {
      payload: LoginDeviceRequest,
      success: LoginDeviceResponse,
      error: [WalletBadRequest, TooManyRequestsResponse]
    })
  )
  .add(
    HttpApiEndpoint.post("otp", "/api/login/otp", {
      payload: LoginOtpRequest,
      success: LoginOtpResponse,
      error: [WalletBadRequest, WalletForbidden, TooManyRequestsResponse]
    })
  )
  .add(HttpApiEndpoint.get("verifyDevice", "/api/device/verify", { query: DeviceVerifyQuery, success: HtmlPage, error: DeviceLinkRefused }))
  .middleware(ProjectCheck)

/** Logging in with a social provider: the provider's page, then the callback's address back to the server. */
export const SocialGroup = HttpApiGroup.make("social")
  .add(
    HttpApiEndpoint.post("start", "/api/social/start", {
      payload: SocialStartRequest,
      success: SocialStartResponse,
      error: [WalletBadRequest, WalletBadGateway, TooManyRequestsResponse]
    })
  )
  .add(
    HttpApiEndpoint.post("finish", "/api/social/finish", {
      payload: SocialFinishRequest,
      success: SocialFinishResponse,
      error: [WalletBadRequest, WalletBadGateway]
    })
  )
  .middleware(ProjectCheck)

/** Logging in with Farcaster: a channel for this device, and its status until a Farcaster client signed it. */
export const FarcasterGroup = HttpApiGroup.make("farcaster")
  .add(
    HttpApiEndpoint.post("channel", "/api/farcaster/channel", {
      payload: FarcasterChannelRequest,
      success: FarcasterChannelResponse,
      error: [WalletBadRequest, TooManyRequestsResponse]
    })
  )
  .add(
    HttpApiEndpoint.post("status", "/api/farcaster/status", {
      payload: FarcasterStatusRequest,
      success: FarcasterStatusResponse,
      error: [WalletBadRequest, TooManyRequestsResponse]
    })
  )
  .middleware(ProjectCheck)

/**
 * The Farcaster client's side of the channel (Sign In With Farcaster's relay): no project check, as the client is
 * another app, not a page of the frame's origin; the channel token is its credential.
 */
export const FarcasterRelayGroup = HttpApiGroup.make("farcasterRelay").add(
  HttpApiEndpoint.post("authenticate", "/v1/channel/authenticate", {
    payload: FarcasterAuthenticateRequest,
    success: FarcasterAuthenticateResponse,
    error: [WalletBadRequest, WalletBadGateway, TooManyRequestsResponse]
  })
)

/**
 * Logging in with a passkey: the frame starts a ceremony, the passkey page (a popup on this origin) reads its options
 * and answers its challenge, and the frame turns it into a session.
 */
export const PasskeyGroup = HttpApiGroup.make("passkey")
  .add(
    HttpApiEndpoint.post("start", "/api/passkey/start", {
      payload: PasskeyStartRequest,
      success: PasskeyStartResponse,
      error: [WalletBadRequest, TooManyRequestsResponse]
    })
  )
  .add(
    HttpApiEndpoint.post("options", "/api/passkey/options", {
      payload: PasskeyOptionsRequest,
      success: PasskeyOptionsResponse,
      error: [WalletBadRequest, TooManyRequestsResponse]
    })
  )
  .add(
    HttpApiEndpoint.post("verify", "/api/passkey/verify", {
      payload: PasskeyVerifyRequest,
      success: PasskeyVerifyResponse,
      error: [WalletBadRequest, TooManyRequestsResponse]
    })
  )
  .add(
    HttpApiEndpoint.post("finish", "/api/passkey/finish", {
      payload: PasskeyFinishRequest,
      success: PasskeyFinishResponse,
      error: [WalletBadRequest, TooManyRequestsResponse]
    })
  )
  .middleware(ProjectCheck)

/** The logged-in user: the session, the addresses, the email's change in two codes, signing. */
export const SessionGroup = HttpApiGroup.make("session")
  .add(HttpApiEndpoint.post("logout", "/api/logout", { query: ProjectQuery, success: LogoutResponse }))
  .add(HttpApiEndpoint.get("user", "/api/user", { query: ProjectQuery, success: UserResponse }))
  .add(
    HttpApiEndpoint.post("updateEmail", "/api/email/update", {
      query: ProjectQuery,
      payload: UpdateEmailRequest,
      success: UpdateEmailResponse,
      error: [WalletBadRequest, WalletConflict, TooManyRequestsResponse]
    })
  )
  .add(
    HttpApiEndpoint.post("updateEmailPrimary", "/api/email/update/primary", {
      query: ProjectQuery,
      payload: UpdateEmailOtpRequest,
      success: UpdateEmailPrimaryResponse,
      error: [WalletBadRequest, TooManyRequestsResponse]
    })
  )
  .add(
    HttpApiEndpoint.post("updateEmailSecondary", "/api/email/update/secondary", {
      query: ProjectQuery,
      payload: UpdateEmailOtpRequest,
      success: UpdateEmailSecondaryResponse,
      error: [WalletBadRequest, WalletConflict, TooManyRequestsResponse]
    })
  )
  .add(
    HttpApiEndpoint.post("rpc", "/api/rpc", {
      query: ProjectQuery,
      payload: RpcRequest,
      success: RpcResponse,
      error: [WalletBadRequest, WalletInternalError, WalletBadGateway]
    })
  )
  // What the frame's own signing keeps on the server: its batches, and the count of sends made with a grant.
  .add(HttpApiEndpoint.post("storeCalls", "/api/calls", { query: ProjectQuery, payload: StoreCallsRequest, success: DoneResponse }))
  .add(
    HttpApiEndpoint.post("spendPermission", "/api/permissions/spend", {
      query: ProjectQuery,
      payload: PermissionSpendRequest,
      success: PermissionSpendResponse
    })
  )
  .add(HttpApiEndpoint.post("refundPermission", "/api/permissions/refund", { query: ProjectQuery, payload: PermissionRefundRequest, success: DoneResponse }))
  .middleware(SessionAuth)
  .middleware(ProjectCheck)

/**
 * The user's split keys (issue 30; groundwork, `./sharesApi.ts`): the server share and the sealed recovery share,
 * kept and given out to a session of that user only, the shares themselves only to one that logged in recently
 * (403 `fresh_login_required` otherwise); a share tagged for another user is 403 `share_refused`.
 */
export const KeySharesGroup = HttpApiGroup.make("keyShares")
  .add(HttpApiEndpoint.get("list", "/api/keys", { query: ProjectQuery, success: SplitKeysResponse }))
  .add(
    HttpApiEndpoint.post("storeSplit", "/api/keys/split", {
      query: ProjectQuery,
      payload: StoreSplitRequest,
      success: StoreSplitResponse,
      error: [WalletBadRequest, WalletForbidden, WalletConflict]
    })
  )
  .add(
    HttpApiEndpoint.post("serverShare", "/api/keys/server-share", {
      query: ProjectQuery,
      payload: ServerShareRequest,
      success: ServerShareResponse,
      error: [WalletForbidden, WalletNotFound]
    })
  )
  .add(
    HttpApiEndpoint.post("recovery", "/api/keys/recovery", {
      query: ProjectQuery,
      payload: RecoveryRequest,
      success: RecoveryResponse,
      error: [WalletBadRequest, WalletForbidden, WalletNotFound, TooManyRequestsResponse]
    })
  )
  .add(
    HttpApiEndpoint.post("legacyKey", "/api/keys/legacy", {
      query: ProjectQuery,
      payload: LegacyKeyRequest,
      success: LegacyKeyResponse,
      error: [WalletForbidden, WalletNotFound]
    })
  )
  .middleware(SessionAuth)
  .middleware(ProjectCheck)

/**
 * Showing a private key (issue 30, item 4; `./sharesApi.ts`, served by `./server/exportGrants.ts`): the frame's export
 * view asks for one fresh confirmation for the families whose keys it shows (`start`: a mailed code, a passkey's
 * assertion, or for an account with neither a login of the last minutes), which `confirm` turns into a grant per family
 * of a few minutes, each for one export of that family's key by this session; `share` gives a family's server share for
 * that export only with its grant (403 `export_not_confirmed` otherwise).
 */
export const KeyExportGroup = HttpApiGroup.make("keyExport")
  .add(
    HttpApiEndpoint.post("start", "/api/keys/export/start", {
      query: ProjectQuery,
      payload: ExportStartRequest,
      success: ExportStartResponse,
      error: [WalletBadRequest, WalletNotFound, TooManyRequestsResponse]
    })
  )
  .add(
    HttpApiEndpoint.post("confirm", "/api/keys/export/confirm", {
      query: ProjectQuery,
      payload: ExportConfirmRequest,
      success: ExportConfirmResponse,
      error: [WalletBadRequest, WalletForbidden, TooManyRequestsResponse]
    })
  )
  .add(
    HttpApiEndpoint.post("share", "/api/keys/export/share", {
      query: ProjectQuery,
      payload: ExportShareRequest,
      success: ServerShareResponse,
      error: [WalletForbidden, WalletNotFound, TooManyRequestsResponse]
    })
  )
  .middleware(SessionAuth)
  .middleware(ProjectCheck)

/** What the frame page asks before answering its host: the project's allowed origins and the chains served. */
export const ProjectGroup = HttpApiGroup.make("project")
  .add(HttpApiEndpoint.get("project", "/api/project", { query: ProjectQuery, success: ProjectResponse }))
  .add(HttpApiEndpoint.get("chains", "/api/chains", { query: ProjectQuery, success: ChainsResponse }))
  .middleware(ProjectCheck)

/** The wallet server's API. */
export const WalletServerApi = HttpApi.make("walletServer")
  .add(LoginGroup, SocialGroup, FarcasterGroup, FarcasterRelayGroup, PasskeyGroup, SessionGroup, ProjectGroup, KeySharesGroup, KeyExportGroup)
  .middleware(WalletRequestErrors)
  .annotate(HttpApi.PayloadParseOptions, { onExcessProperty: "error", errors: "all" })
  .annotate(HttpApi.QueryParseOptions, { onExcessProperty: "error", errors: "all" })
  .annotate(OpenApi.Title, "Wallet Runtime embedded wallet server")
  .annotate(
    OpenApi.Description,
    "The embedded (email) wallet's server, on the frame site's origin: login by a mailed code (and a mailed link for a " +
      "new device), sessions by bearer token, the email's change, passkeys (WebAuthn), and signing with keys the server holds. Every failure " +
      "is { error, code, retryAfterSeconds?, attemptsLeft?, rpcCode? }."
  )
