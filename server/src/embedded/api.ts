/**
 * The Schemas of the wallet server's HTTP API: what each route takes and answers, and its failure body. The routes
 * themselves (paths, statuses, middlewares) are declared once in `./WalletServerApi.ts` with `effect/http-api`; the
 * server (`./server/`) implements that declaration and the frame page (`./frame/`) derives its client from it. The
 * frame site and the wallet server share one origin (the frame origin), so the API needs no CORS: the session token
 * lives in the frame origin's storage only, and no other origin can read it or call the API with it.
 *
 * Every route is under `/api/`. Requests carry `projectId` (the host's project, checked against the same projects as
 * the services) and `deviceId` (random, made once by the frame page and kept in its storage). Routes marked
 * "session" need `Authorization: Bearer <token>` (the token `POST /api/login/otp` gave).
 *
 * Failures are `{ error: string, code: ApiErrorCode, retryAfterSeconds?, attemptsLeft?, rpcCode? }` with a 4xx/5xx
 * status; the `error` text is in the visitor's words, e.g. 'Please try again after 23 seconds' for the 30 s cooldown.
 *
 * Where `projectId` goes: in the body of the login routes (their Schemas have it); for the others (GET routes and
 * the session routes, whose bodies have none) as the query parameter `projectId` or the header `x-project-id`.
 * A request whose `Origin` is not the server's own (the frame's) is 403 `origin_not_allowed` ('Unauthorized: origin
 * not allowed') before anything else is checked; then an unknown projectId is 401 `unknown_project` ('Unauthorized:
 * invalid key'), and a session route's missing or ended session 401 `unauthorized`. The host origins a
 * project allows are the frame page's to check, with `GET /api/project`.
 *
 * Statuses: 400 `bad_request` (a body, query or field that fails its Schema, or an email mail servers refuse, named in
 * `error`), `invalid_code` (with `attemptsLeft`), `code_expired`, `method_not_allowed` (an RPC method the wallet does
 * not run), `rpc_error` (502 when the chain's RPC cannot be reached); 404 `not_found` (no such route); 405
 * `method_not_allowed` (a route asked with another method, its methods in `Allow`);
 * 401 `unauthorized`, `unknown_project`; 403 `origin_not_allowed`, `device_not_verified` (a known email's code on a
 * device not verified yet); 409 `email_taken`; 413 `payload_too_large`; 429 `rate_limited` (a mail within 30 s of
 * the last, or a network address past its requests a minute on the passkey routes or Farcaster's channel relay; with
 * `retryAfterSeconds`, also as a `Retry-After` header) and `too_many_attempts` (the 5th wrong code, and any try after
 * it, `attemptsLeft: 0`; a new code asked while the email is locked out by used-up codes, with `retryAfterSeconds`); 400
 * `no_key` (`/api/rpc` for a user whose keys the frame has not made yet); 500 `internal`; 503 `unavailable` (the database cannot be reached or the route took too
 * long; with `retryAfterSeconds` and `Retry-After`: nothing was changed, send it again).
 *
 * The split-key routes (`./sharesApi.ts`) add: 400 `share_refused` (not a server share, or not signed by its key) and
 * `wrong_recovery_secret` (with `retryAfterSeconds`); 403 `fresh_login_required` and `share_refused` (a share tagged for
 * another user); 404 `no_key_split` and `no_legacy_key`; 409 `address_taken`, `share_refused` (a rotation to another address) and
 * `key_exists` (a new key of a family the user has one of: another device made it first); 429
 * `too_many_attempts` while a wrong recovery try's wait runs.
 */
import { Schema } from "effect"
import { SocialLogin, SocialProvider } from "../../../src/domain/Account"

/** A device id: random letters, digits, `-` or `_`, 16 to 64 characters. */
export const DeviceId = Schema.String.pipe(Schema.check(Schema.isPattern(/^[-_A-Za-z0-9]{16,64}$/, { expected: "a device id" })))

/** Why a call failed, for the frame to map onto its replies. */
export const ApiErrorCode = Schema.Literals([
  "bad_request",
  "unknown_project",
  "origin_not_allowed",
  "rate_limited",
  "invalid_code",
  "code_expired",
  "too_many_attempts",
  "device_not_verified",
  "unauthorized",
  "method_not_allowed",
  "rpc_error",
  "email_taken",
  "payload_too_large",
  "not_found",
  "internal",
  "unavailable",
  "provider_not_configured",
  "invalid_state",
  "social_refused",
  "farcaster_not_configured",
  "channel_expired",
  "farcaster_refused",
  "share_refused",
  "fresh_login_required",
  "no_key_split",
  "no_legacy_key",
  "no_key",
  "key_exists",
  "address_taken",
  "wrong_recovery_secret",
  "passkey_refused",
  "passkey_unknown",
  "export_not_confirmed"
])
/** Why a call failed. */
export type ApiErrorCode = typeof ApiErrorCode.Type

/** A failed call's body. */
export const ApiFailure = Schema.Struct({
  error: Schema.String,
  code: ApiErrorCode,
  retryAfterSeconds: Schema.optionalKey(Schema.Finite),
  attemptsLeft: Schema.optionalKey(Schema.Finite),
  /** For `rpc_error`: the JSON-RPC error code (4001, -32602, -32000…). */
  rpcCode: Schema.optionalKey(Schema.Finite)
})
/** A failed call's body. */
export type ApiFailure = typeof ApiFailure.Type

/**
 * The query the routes without a `projectId` in their body take: `?projectId=` (or the header `x-project-id`
 * instead). Any other query parameter is refused.
 */
export const ProjectQuery = Schema.Struct({ projectId: Schema.optionalKey(Schema.String) })

// ---------------------------------------------------------------------------------------------------------------
// Login

/**
 * `POST /api/login/email` — starts a login. A new email, or a known one on a device it verified before, gets a
 * 6-digit code by mail: `VERIFY_OTP`. A known email on a device it never verified gets a link to verify the device:
 * `VERIFY_DEVICE` (then `POST /api/login/device`). A second code within 30 s of the last: 429 `rate_limited`.
 */
export const LoginEmailRequest = Schema.Struct({
  projectId: Schema.String,
  deviceId: DeviceId,
  email: Schema.String,
  /** The host's theme (SYNC_THEME): a mailed device link's page is shown in it. */
  themeMode: Schema.optionalKey(Schema.Literals(["light", "dark"]))
})
/** The answer of `POST /api/login/email`: the next step. */
export const LoginEmailResponse = Schema.Struct({ action: Schema.Literals(["VERIFY_DEVICE", "VERIFY_OTP"]) })

/**
 * `POST /api/login/device` — waits (at most `waitMs`, ≤ 25000, default 20000) for the device to be verified through
 * the mailed link (`GET /api/device/verify?projectId=…&token=…`, a page saying the device is verified; the link is
 * good for 10 minutes); once it is, a code is mailed and the answer is `{ verified: true }` (a repeated call within
 * 30 s of that code does not mail another); still waiting at the bound: `{ verified: false, waitedMs }` (call again),
 * `waitedMs` being how long the server waited by its own clock.
 */
export const LoginDeviceRequest = Schema.Struct({
  projectId: Schema.String,
  deviceId: DeviceId,
  email: Schema.String,
  waitMs: Schema.optionalKey(Schema.Finite)
})
/** The answer of `POST /api/login/device`: whether the device is verified now, and how long the server waited. */
export const LoginDeviceResponse = Schema.Struct({ verified: Schema.Boolean, waitedMs: Schema.optionalKey(Schema.Finite) })

/** The query of the mailed device link `GET /api/device/verify?projectId=…&token=…`. */
export const DeviceVerifyQuery = Schema.Struct({ projectId: Schema.String, token: Schema.String })

/**
 * `POST /api/login/otp` — checks the code (expires 10 minutes after it was sent; 5 wrong tries end it:
 * `too_many_attempts`, a new code is needed). Success makes the user (and their keys) if new and opens a session.
 */
export const LoginOtpRequest = Schema.Struct({
  projectId: Schema.String,
  deviceId: DeviceId,
  email: Schema.String,
  otp: Schema.String
})
/** The answer of `POST /api/login/otp`: the session token (for `Authorization: Bearer …`). */
export const LoginOtpResponse = Schema.Struct({ token: Schema.String })

/** An answer that says only that it was done. */
export const DoneResponse = Schema.Struct({ ok: Schema.Literal(true) })

/** `POST /api/logout` (session) — ends the session. */
export const LogoutResponse = DoneResponse

// ---------------------------------------------------------------------------------------------------------------
// Social login

/**
 * `POST /api/social/start` — starts a social login (authorization code with PKCE, `state` and `nonce`) with one of the
 * project's configured providers, for the host page at `hostOrigin` (one of the project's allowed origins). The
 * answer's `uri` is the provider's login page; it comes back to `GET /social/callback` on this origin, which hands
 * the callback's address to the host page (the popup's opener, at exactly `hostOrigin`) or, with `returnTo` (a page
 * of `hostOrigin`) and no opener, sends the browser back there with `?result_uri=…`. A provider the project does
 * not configure: 400 `provider_not_configured`. A login is good for 10 minutes.
 */
export const SocialStartRequest = Schema.Struct({
  projectId: Schema.String,
  deviceId: DeviceId,
  provider: SocialProvider,
  hostOrigin: Schema.String,
  returnTo: Schema.optionalKey(Schema.String),
  /** The host's theme (SYNC_THEME): the callback page is shown in it. */
  themeMode: Schema.optionalKey(Schema.Literals(["light", "dark"]))
})
/** The answer of `POST /api/social/start`: where to send the visitor. */
export const SocialStartResponse = Schema.Struct({ uri: Schema.String })

/**
 * `POST /api/social/finish` — finishes the login from the callback's address: the `state` must be one this device
 * started and not used (400 `invalid_state` otherwise: it is used up by this call either way), the code is
 * exchanged, the ID token verified (signature against the issuer's JWKS, `iss`, `aud`, `exp`, `nonce`) or the
 * profile read from userinfo; a refusal is 400 `social_refused`, a provider that cannot be reached 502. Success makes
 * the user (keyed by provider plus subject, with the same wallet as an email user) if new and opens a session.
 */
export const SocialFinishRequest = Schema.Struct({ projectId: Schema.String, deviceId: DeviceId, uri: Schema.String })
/** The answer of `POST /api/social/finish`: the session token, the provider and the user's name there. */
export const SocialFinishResponse = Schema.Struct({ token: Schema.String, provider: SocialProvider, username: Schema.String })

// ---------------------------------------------------------------------------------------------------------------
// Sign In With Farcaster

/**
 * `POST /api/farcaster/channel` — opens a Sign In With Farcaster channel for this device: its token, the deep link a
 * Farcaster client opens or scans (`farcaster://connect?channelToken=…&nonce=…&domain=…&siweUri=…&expirationTime=…`)
 * and when it expires (5 minutes; epoch ms). A server without Farcaster: 400 `farcaster_not_configured`.
 */
export const FarcasterChannelRequest = Schema.Struct({ projectId: Schema.String, deviceId: DeviceId })
/** The answer of `POST /api/farcaster/channel`. */
export const FarcasterChannelResponse = Schema.Struct({
  channelToken: Schema.String,
  url: Schema.String,
  nonce: Schema.String,
  expiresAt: Schema.Finite
})

/**
 * `POST /api/farcaster/status` — waits (at most `waitMs`, ≤ 25000, default 20000) for the channel to be signed:
 * `{ state: "pending" }` at the bound (call again), or `{ state: "completed", token, fid, username }` once it was
 * (the channel is then used up: it opens one session, made for the fid's user, with the same wallet as an email user,
 * at its first login). A channel of another device, or one used: 400 `invalid_state`; expired unsigned: 400
 * `channel_expired`.
 */
export const FarcasterStatusRequest = Schema.Struct({
  projectId: Schema.String,
  deviceId: DeviceId,
  channelToken: Schema.String,
  waitMs: Schema.optionalKey(Schema.Finite)
})
/** The answer of `POST /api/farcaster/status`. */
export const FarcasterStatusResponse = Schema.Union([
  Schema.Struct({ state: Schema.Literal("pending") }),
  Schema.Struct({ state: Schema.Literal("completed"), token: Schema.String, fid: Schema.String, username: Schema.String })
])

/**
 * `POST /v1/channel/authenticate` — the Farcaster client's side of the channel (no project: the client is another
 * app): the signed Sign In With Farcaster message (EIP-4361, statement 'Farcaster Auth', chain id 10, resource
 * `farcaster://fid/N`) and the profile. The message must carry the channel's nonce, domain and URI, be signed by its
 * address, and that address must hold the fid in the id registry; the first good message signs the channel and no
 * other is taken (a replay is refused). A refusal: 400 `farcaster_refused`; an expired channel: 400 `channel_expired`;
 * an unknown one: 400 `invalid_state`; the registry cannot be read: 502.
 */
export const FarcasterAuthenticateRequest = Schema.Struct({
  channelToken: Schema.String,
  message: Schema.String.pipe(Schema.check(Schema.isMaxLength(4_096))),
  signature: Schema.String.pipe(Schema.check(Schema.isMaxLength(4_096))),
  fid: Schema.Finite,
  username: Schema.optionalKey(Schema.String.pipe(Schema.check(Schema.isMaxLength(64)))),
  displayName: Schema.optionalKey(Schema.String.pipe(Schema.check(Schema.isMaxLength(128)))),
  bio: Schema.optionalKey(Schema.String.pipe(Schema.check(Schema.isMaxLength(1_024)))),
  pfpUrl: Schema.optionalKey(Schema.String.pipe(Schema.check(Schema.isMaxLength(2_048))))
})
/** The answer of `POST /v1/channel/authenticate`. */
export const FarcasterAuthenticateResponse = Schema.Struct({ state: Schema.Literal("completed"), fid: Schema.String, username: Schema.String })

// ---------------------------------------------------------------------------------------------------------------
// The user

/**
 * The user's wallet: one EVM (secp256k1) and one Solana (ed25519) account, whose keys the frame makes after the first
 * login (frameKeys.ts). An address is missing only between that login and the frame's making of its key.
 */
export const WalletUser = Schema.Struct({
  /** Null for a user made by a social login or a passkey. */
  email: Schema.NullOr(Schema.String),
  /** The provider (or `farcaster`) and name of a user made by a social login. */
  social: Schema.optionalKey(Schema.Struct({ provider: SocialLogin, username: Schema.String })),
  /** Checksummed EVM address. */
  evmAddress: Schema.optionalKey(Schema.String),
  /** Base58 Solana address. */
  solanaAddress: Schema.optionalKey(Schema.String)
})
/** The user's wallet. */
export type WalletUser = typeof WalletUser.Type

/** `GET /api/user` (session) — who is logged in; 401 `unauthorized` when the session is over. */
export const UserResponse = WalletUser

// ---------------------------------------------------------------------------------------------------------------
// Updating the email

/** `POST /api/email/update` (session) — mails a code to the current email: `VERIFY_PRIMARY_OTP`. */
export const UpdateEmailRequest = Schema.Struct({ newEmail: Schema.String })
/** The answer of `POST /api/email/update`: the next step. */
export const UpdateEmailResponse = Schema.Struct({ action: Schema.Literal("VERIFY_PRIMARY_OTP") })
/**
 * The body of `POST /api/email/update/primary` (session: the current email's code; mails a code to the new email)
 * and of `POST /api/email/update/secondary` (the new email's code).
 */
export const UpdateEmailOtpRequest = Schema.Struct({ otp: Schema.String })
/** The answer of `POST /api/email/update/primary`: the next step. */
export const UpdateEmailPrimaryResponse = Schema.Struct({ action: Schema.Literal("VERIFY_SECONDARY_OTP") })
/** The answer of `POST /api/email/update/secondary`: the email has changed to this one. */
export const UpdateEmailSecondaryResponse = Schema.Struct({ email: Schema.String })

// ---------------------------------------------------------------------------------------------------------------
// Signing and the chains

/**
 * `POST /api/rpc` (session) — one JSON-RPC request of the embedded wallet on `chainId` (CAIP-2: `eip155:31337`,
 * `solana:<genesis hash>`). The server signs nothing (issue 30: the frame signs with the user's split key,
 * frameRpc.ts): it answers the accounts (eth_accounts, eth_requestAccounts, solana_getAccounts), eth_chainId, the
 * smart account's address, a batch's status and the grants, and passes the frame's safe list, the bundler's and
 * paymaster's methods and Solana's sendTransaction on to the chain. A signing method: 400 `method_not_allowed`; a
 * user whose keys the frame has not made yet: 400 `no_key`; a chain the server does not run: 400 `bad_request`.
 */
export const RpcRequest = Schema.Struct({
  chainId: Schema.String,
  method: Schema.String,
  params: Schema.optionalKey(Schema.Unknown)
})
/** The answer of `POST /api/rpc`: the JSON-RPC result. */
export const RpcResponse = Schema.Struct({ result: Schema.Unknown })

const Decimal = Schema.String.pipe(Schema.check(Schema.isPattern(/^\d{1,78}$/, { expected: "a whole number in decimal" })))
const Hash32 = Schema.String.pipe(Schema.check(Schema.isPattern(/^0x[0-9a-fA-F]{64}$/, { expected: "32 bytes in hex" })))

/** `POST /api/calls` — an EIP-5792 batch the frame sent for the session's user, kept for its status. */
export const StoreCallsRequest = Schema.Struct({
  id: Hash32,
  chainId: Schema.String,
  sender: Schema.String,
  kind: Schema.Literals(["userOperation", "transactions"]),
  hashes: Schema.Array(Hash32),
  atomic: Schema.Boolean
})

/** `POST /api/permissions/spend` — a send the frame is about to sign with an ERC-7715 grant, counted first. */
export const PermissionSpendRequest = Schema.Struct({
  chainId: Schema.Int,
  account: Schema.String,
  context: Hash32,
  use: Schema.Struct({ to: Schema.String, amount: Decimal, token: Schema.optionalKey(Schema.String) })
})

/** The answer of `POST /api/permissions/spend`: the grant's coverage (the spend counted when covered), null when there is no such grant. */
export const PermissionSpendResponse = Schema.Struct({
  coverage: Schema.NullOr(
    Schema.Union([
      Schema.Struct({ covered: Schema.Literal(true), spent: Decimal, periodStart: Schema.Int }),
      Schema.Struct({ covered: Schema.Literal(false), message: Schema.String })
    ])
  )
})

/** `POST /api/permissions/refund` — gives back a counted spend whose send failed. */
export const PermissionRefundRequest = Schema.Struct({ context: Hash32, periodStart: Schema.Int, amount: Decimal })

/** `GET /api/project?projectId=` (no session) — the origins allowed to use the project's frame. */
export const ProjectResponse = Schema.Struct({
  projectId: Schema.String,
  /** `loopback` (any http(s) origin on 127.0.0.1, localhost or [::1]) or the exact origins. */
  allowedOrigins: Schema.Union([Schema.Literal("loopback"), Schema.Array(Schema.String)])
})

const HexAddress = Schema.String.pipe(Schema.check(Schema.isPattern(/^0x[0-9a-fA-F]{40}$/, { expected: "an address" })))

/** `GET /api/chains` (no session) — the chains the server serves the frame on. */
export const ChainsResponse = Schema.Struct({
  chains: Schema.Array(Schema.String),
  /** The eip155 chains where a bundler serves the users' smart accounts. */
  smartAccountChains: Schema.optionalKey(Schema.Array(Schema.String)),
  /** Each of those chains' EntryPoint and WalletAccount factory: what the frame builds the user's smart account with. */
  smartAccounts: Schema.optionalKey(
    Schema.Array(Schema.Struct({ chainId: Schema.String, entryPoint: HexAddress, factory: HexAddress }))
  )
})
