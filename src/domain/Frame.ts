/**
 * The embedded-wallet frame protocol (spec 7.1): the messages the app posts to the hidden frame and the frame's
 * replies. Every request carries a random id and an `@wr-app/` type; the frame answers with the same id and
 * `@wr-frame/<NAME>_SUCCESS` or `_ERROR`, and also sends `@wr-frame/READY` and `@wr-frame/SESSION_UPDATE` on its
 * own. Messages arrive from another window, so both directions are decoded strictly: unknown types, missing ids
 * and unexpected keys (such as `__proto__`) are refused.
 */
import { Result, Schema } from "effect"
import { EmbeddedAccountType, EmbeddedWalletUser, SocialProvider, ThemeMode } from "./Account"
import { FrameErrorCode } from "./errors"
import { Metadata, ThemeVariables } from "./Options"
import { validateEmail, validateOtp } from "./validation"

/** Prefix of every message the app sends to the frame. */
export const FRAME_APP_PREFIX = "@wr-app/"
/** Prefix of every message the frame sends to the app. */
export const FRAME_PREFIX = "@wr-frame/"

/** Steps of an email login after the email was sent: verify the device, enter the code, connected. */
export const LoginStep = Schema.Literals(["VERIFY_DEVICE", "VERIFY_OTP", "CONNECT"])
/** A step of an email login. */
export type LoginStep = typeof LoginStep.Type

/** Steps of an email change: a code to the current address, then a code to the new one. */
export const EmailUpdateStep = Schema.Literals(["VERIFY_PRIMARY_OTP", "VERIFY_SECONDARY_OTP"])
/** A step of an email change. */
export type EmailUpdateStep = typeof EmailUpdateStep.Type

/** A message id: random letters, digits, `-` or `_`, at most 64 characters. */
export const FrameMessageId = Schema.String.pipe(
  Schema.check(Schema.isPattern(/^[-_A-Za-z0-9]{1,64}$/, { expected: "a message id" }))
)

const Email = Schema.String.pipe(
  Schema.check(
    Schema.makeFilter(
      (email: string) => {
        const result = validateEmail(email)
        return Result.isSuccess(result) && result.success === email
      },
      { expected: "an email address" }
    )
  )
)

const Otp = Schema.String.pipe(
  Schema.check(
    Schema.makeFilter(
      (otp: string) => {
        const result = validateOtp(otp)
        return Result.isSuccess(result) && result.success === otp
      },
      { expected: "a one-time code" }
    )
  )
)

const ChainId = Schema.Union([Schema.Number, Schema.String])

/**
 * The views the frame shows itself, visibly over the modal, on its own origin: protecting the wallet with a password or
 * passkey, recovering it on a new device, and showing its private key. What the visitor types or their passkey gives
 * stays in the frame: the messages carry only which view to show and how it ended.
 */
export const SecureViewKind = Schema.Literals(["protect", "recover", "export"])
/** A view the frame shows itself. */
export type SecureViewKind = typeof SecureViewKind.Type

/** How a secure view ended: its work done, or the visitor left it (Cancel, Escape) with nothing changed. */
export const SecureViewOutcome = Schema.Literals(["done", "cancelled"])
/** How a secure view ended. */
export type SecureViewOutcome = typeof SecureViewOutcome.Type

/**
 * Words no request or reply type may hold: the bridge has no message that carries a key, a share or a recovery secret,
 * and a test keeps it so as the protocol grows.
 */
export const SECRET_BEARING_TYPE = /(^|[/_])(PRIVATE|KEYS?|SHARES?|SECRETS?|SEED|MNEMONIC|PASSWORDS?|PRF)(_|$)/

const request = <const N extends string, P extends Schema.Top>(name: N, payload: P) =>
  Schema.Struct({ id: FrameMessageId, type: Schema.Literal(`${FRAME_APP_PREFIX}${name}` as const), payload })

const bareRequest = <const N extends string>(name: N) =>
  Schema.Struct({ id: FrameMessageId, type: Schema.Literal(`${FRAME_APP_PREFIX}${name}` as const) })

/** Every request the app may send, by type. */
export const FrameRequest = Schema.Union([
  request("SWITCH_NETWORK", Schema.Struct({ chainId: ChainId })),
  request("CONNECT_EMAIL", Schema.Struct({ email: Email })),
  bareRequest("CONNECT_DEVICE"),
  request("CONNECT_OTP", Schema.Struct({ otp: Otp })),
  request("CONNECT_SOCIAL", Schema.Struct({ uri: Schema.String })),
  // `returnTo`: the host page the provider's callback sends the browser back to when the login ran without a popup.
  request("GET_SOCIAL_REDIRECT_URI", Schema.Struct({ provider: SocialProvider, returnTo: Schema.optionalKey(Schema.String) })),
  bareRequest("GET_FARCASTER_URI"),
  bareRequest("CONNECT_FARCASTER"),
  // A passkey ceremony on the frame's origin: `create` a new passkey (a new wallet) or `login` with one made before;
  // `themeMode`: the host's now (the passkey window shows in it even before SYNC_THEME reached the frame).
  request("GET_PASSKEY_URI", Schema.Struct({ mode: Schema.Literals(["create", "login"]), themeMode: Schema.optionalKey(ThemeMode) })),
  bareRequest("CONNECT_PASSKEY"),
  request(
    "GET_USER",
    Schema.Struct({
      chainId: Schema.optionalKey(ChainId),
      preferredAccountType: Schema.optionalKey(EmbeddedAccountType)
    })
  ),
  bareRequest("SIGN_OUT"),
  bareRequest("IS_CONNECTED"),
  bareRequest("GET_CHAIN_ID"),
  bareRequest("GET_SMART_ACCOUNT_ENABLED_NETWORKS"),
  bareRequest("INIT_SMART_ACCOUNT"),
  request("SET_PREFERRED_ACCOUNT", Schema.Struct({ type: EmbeddedAccountType })),
  request(
    "RPC_REQUEST",
    Schema.Struct({
      method: Schema.String.pipe(Schema.check(Schema.isNonEmpty())),
      params: Schema.optionalKey(Schema.Unknown)
    })
  ),
  request("UPDATE_EMAIL", Schema.Struct({ email: Email })),
  request("UPDATE_EMAIL_PRIMARY_OTP", Schema.Struct({ otp: Otp })),
  request("UPDATE_EMAIL_SECONDARY_OTP", Schema.Struct({ otp: Otp })),
  bareRequest("AWAIT_UPDATE_EMAIL"),
  request(
    "SYNC_THEME",
    Schema.Struct({
      themeMode: Schema.optionalKey(ThemeMode),
      themeVariables: Schema.optionalKey(ThemeVariables),
      w3mThemeVariables: Schema.optionalKey(Schema.Record(Schema.String, Schema.String))
    })
  ),
  request(
    "SYNC_DAPP_DATA",
    Schema.Struct({
      metadata: Schema.optionalKey(Metadata),
      sdkVersion: Schema.String,
      projectId: Schema.String,
      sdkType: Schema.String
    })
  ),
  bareRequest("RELOAD"),
  // The frame shows the view `kind` over the modal and answers once it ended (the host has placed and shown the frame).
  request("OPEN_SECURE_VIEW", Schema.Struct({ kind: SecureViewKind, themeMode: Schema.optionalKey(ThemeMode) })),
  // The host left the secure view (Escape, Back, the modal closed): the frame drops what the view held.
  bareRequest("CLOSE_SECURE_VIEW")
])
/** A request of the app to the frame. */
export type FrameRequest = typeof FrameRequest.Type
/** The type of a request, e.g. `@wr-app/CONNECT_EMAIL`. */
export type FrameRequestType = FrameRequest["type"]
/** The name of a request, e.g. `CONNECT_EMAIL`. */
export type FrameRequestName = FrameRequestType extends `${typeof FRAME_APP_PREFIX}${infer N}` ? N : never

/** Every request name, in protocol order. */
export const FRAME_REQUEST_NAMES: ReadonlyArray<FrameRequestName> = FrameRequest.members.map(
  (member) => member.fields.type.literal.slice(FRAME_APP_PREFIX.length) as FrameRequestName
)

const success = <const N extends FrameRequestName, P extends Schema.Top>(name: N, payload: P) =>
  Schema.Struct({ id: FrameMessageId, type: Schema.Literal(`${FRAME_PREFIX}${name}_SUCCESS` as const), payload })

const bareSuccess = <const N extends FrameRequestName>(name: N) =>
  Schema.Struct({ id: FrameMessageId, type: Schema.Literal(`${FRAME_PREFIX}${name}_SUCCESS` as const) })

/** Every success reply, by type; the payload is what the matching request asked for. */
export const FrameSuccess = Schema.Union([
  success("SWITCH_NETWORK", Schema.Struct({ chainId: ChainId })),
  success("CONNECT_EMAIL", Schema.Struct({ action: Schema.Literals(["VERIFY_DEVICE", "VERIFY_OTP"]) })),
  bareSuccess("CONNECT_DEVICE"),
  bareSuccess("CONNECT_OTP"),
  success("CONNECT_SOCIAL", EmbeddedWalletUser),
  success("GET_SOCIAL_REDIRECT_URI", Schema.Struct({ uri: Schema.String })),
  // `expiresAt` (epoch ms): when the Sign In With Farcaster channel of `url` stops taking a signature.
  success("GET_FARCASTER_URI", Schema.Struct({ url: Schema.String, expiresAt: Schema.optionalKey(Schema.Finite) })),
  // Signed: the Farcaster user's name (the session is open); not yet within the frame's wait: `pending` (ask again).
  success("CONNECT_FARCASTER", Schema.Union([Schema.Struct({ userName: Schema.String }), Schema.Struct({ pending: Schema.Literal(true) })])),
  // The passkey page to open in the popup (on the frame's origin), and the user its answered ceremony logged in.
  success("GET_PASSKEY_URI", Schema.Struct({ uri: Schema.String })),
  success("CONNECT_PASSKEY", EmbeddedWalletUser),
  success("GET_USER", EmbeddedWalletUser),
  bareSuccess("SIGN_OUT"),
  success("IS_CONNECTED", Schema.Struct({ isConnected: Schema.Boolean })),
  success("GET_CHAIN_ID", Schema.Struct({ chainId: ChainId })),
  success(
    "GET_SMART_ACCOUNT_ENABLED_NETWORKS",
    Schema.Struct({ smartAccountEnabledNetworks: Schema.Array(Schema.Number) })
  ),
  bareSuccess("INIT_SMART_ACCOUNT"),
  success("SET_PREFERRED_ACCOUNT", Schema.Struct({ type: EmbeddedAccountType, address: Schema.String })),
  Schema.Struct({
    id: FrameMessageId,
    type: Schema.Literal(`${FRAME_PREFIX}RPC_REQUEST_SUCCESS`),
    payload: Schema.optionalKey(Schema.Unknown)
  }),
  success("UPDATE_EMAIL", Schema.Struct({ action: EmailUpdateStep })),
  bareSuccess("UPDATE_EMAIL_PRIMARY_OTP"),
  success("UPDATE_EMAIL_SECONDARY_OTP", Schema.Struct({ newEmail: Email })),
  success("AWAIT_UPDATE_EMAIL", Schema.Struct({ email: Email })),
  bareSuccess("SYNC_THEME"),
  bareSuccess("SYNC_DAPP_DATA"),
  bareSuccess("RELOAD"),
  success("OPEN_SECURE_VIEW", Schema.Struct({ outcome: SecureViewOutcome })),
  bareSuccess("CLOSE_SECURE_VIEW")
])
/** A success reply of the frame. */
export type FrameSuccess = typeof FrameSuccess.Type

/** Every error reply type: `@wr-frame/<NAME>_ERROR` for each request name. */
export const FRAME_ERROR_TYPES = FRAME_REQUEST_NAMES.map((name) => `${FRAME_PREFIX}${name}_ERROR` as const)

/**
 * An error reply of the frame: the failed request's id and the frame's message, when it gives one (without one the
 * visitor reads 'An error occurred'), and for a refusal for now its code and how many seconds to wait.
 */
export const FrameErrorReply = Schema.Struct({
  id: FrameMessageId,
  type: Schema.Literals(FRAME_ERROR_TYPES),
  payload: Schema.optionalKey(
    Schema.Struct({
      message: Schema.optionalKey(Schema.String),
      code: Schema.optionalKey(FrameErrorCode),
      retryAfterSeconds: Schema.optionalKey(Schema.Int.pipe(Schema.check(Schema.isGreaterThan(0))))
    })
  )
})
/** An error reply of the frame. */
export type FrameErrorReply = typeof FrameErrorReply.Type

/** The frame is loaded and answers requests; nothing may be sent before it. */
export const FrameReady = Schema.Struct({
  type: Schema.Literal(`${FRAME_PREFIX}READY`),
  payload: Schema.optionalKey(Schema.Struct({ version: Schema.optionalKey(Schema.String) }))
})
/** The frame is loaded and answers requests. */
export type FrameReady = typeof FrameReady.Type

/** The frame's login session token changed. */
export const FrameSessionUpdate = Schema.Struct({
  type: Schema.Literal(`${FRAME_PREFIX}SESSION_UPDATE`),
  payload: Schema.Struct({ token: Schema.String })
})
/** The frame's login session token changed. */
export type FrameSessionUpdate = typeof FrameSessionUpdate.Type

/** Every message the frame may send: replies, READY and SESSION_UPDATE. */
export const FrameResponse = Schema.Union([FrameSuccess, FrameErrorReply, FrameReady, FrameSessionUpdate])
/** A message of the frame to the app. */
export type FrameResponse = typeof FrameResponse.Type

/** The success payload the frame answers to the request `N` with (`undefined` when it carries none). */
export type FrameSuccessPayload<N extends FrameRequestName> =
  Extract<FrameSuccess, { readonly type: `${typeof FRAME_PREFIX}${N}_SUCCESS` }> extends infer S
    ? S extends { readonly payload?: infer P } ? P : undefined
    : never

/** The request payload of `N` (`undefined` when it carries none). */
export type FrameRequestPayload<N extends FrameRequestName> =
  Extract<FrameRequest, { readonly type: `${typeof FRAME_APP_PREFIX}${N}` }> extends infer R
    ? R extends { readonly payload: infer P } ? P : undefined
    : never

// Strict parsing: a message with any key the protocol does not define is hostile or broken, never trimmed.
const strict = { onExcessProperty: "error", errors: "first" } as const

/** Decodes a message posted to the frame; anything but a well-formed request fails. */
export const decodeFrameRequest = (input: unknown): Result.Result<FrameRequest, Schema.SchemaError> =>
  Schema.decodeUnknownResult(FrameRequest)(input, strict)

/** Decodes a message posted by the frame; anything but a well-formed reply, READY or SESSION_UPDATE fails. */
export const decodeFrameResponse = (input: unknown): Result.Result<FrameResponse, Schema.SchemaError> =>
  Schema.decodeUnknownResult(FrameResponse)(input, strict)

/** The message type of the request `name`. */
export const frameRequestType = <N extends FrameRequestName>(name: N): `${typeof FRAME_APP_PREFIX}${N}` =>
  `${FRAME_APP_PREFIX}${name}`

/** The name of a request type: `@wr-app/CONNECT_EMAIL` → `CONNECT_EMAIL`. */
export const frameRequestNameOf = <N extends FrameRequestName>(type: `${typeof FRAME_APP_PREFIX}${N}`): N =>
  type.slice(FRAME_APP_PREFIX.length) as N

/** The two reply types that answer the request `name`. */
export const frameReplyTypes = <N extends FrameRequestName>(
  name: N
): { readonly success: `${typeof FRAME_PREFIX}${N}_SUCCESS`; readonly error: `${typeof FRAME_PREFIX}${N}_ERROR` } => ({
  success: `${FRAME_PREFIX}${name}_SUCCESS`,
  error: `${FRAME_PREFIX}${name}_ERROR`
})

/** How a frame message relates to a request: its success, its error, or not a reply to it at all. */
export type FrameReplyKind = "success" | "error" | "unrelated"

/** Whether `response` answers `request`: same id and the request's own success or error type. */
export const replyKind = (request: FrameRequest, response: FrameResponse): FrameReplyKind => {
  if (!("id" in response) || response.id !== request.id) return "unrelated"
  const types = frameReplyTypes(frameRequestNameOf(request.type))
  if (response.type === types.success) return "success"
  if (response.type === types.error) return "error"
  return "unrelated"
}

/** Builds a request message from its name, payload and a fresh random id (the caller draws the id). */
export const makeFrameRequest = <N extends FrameRequestName>(
  name: N,
  id: string,
  ...payload: FrameRequestPayload<N> extends undefined ? [] : [FrameRequestPayload<N>]
): Extract<FrameRequest, { readonly type: `${typeof FRAME_APP_PREFIX}${N}` }> =>
  (payload.length === 0
    ? { id, type: frameRequestType(name) }
    : { id, type: frameRequestType(name), payload: payload[0] }) as Extract<
    FrameRequest,
    { readonly type: `${typeof FRAME_APP_PREFIX}${N}` }
  >

/** Embedded-wallet RPC methods the frame answers without asking the visitor. */
export const EMBEDDED_SAFE_RPC_METHODS = [
  "eth_accounts",
  "eth_blockNumber",
  "eth_call",
  "eth_chainId",
  "eth_estimateGas",
  "eth_feeHistory",
  "eth_gasPrice",
  "eth_getAccount",
  "eth_getBalance",
  "eth_getBlockByHash",
  "eth_getBlockByNumber",
  "eth_getBlockReceipts",
  "eth_getBlockTransactionCountByHash",
  "eth_getBlockTransactionCountByNumber",
  "eth_getCode",
  "eth_getFilterChanges",
  "eth_getFilterLogs",
  "eth_getLogs",
  "eth_getProof",
  "eth_getStorageAt",
  "eth_getTransactionByBlockHashAndIndex",
  "eth_getTransactionByBlockNumberAndIndex",
  "eth_getTransactionByHash",
  "eth_getTransactionCount",
  "eth_getTransactionReceipt",
  "eth_getUncleCountByBlockHash",
  "eth_getUncleCountByBlockNumber",
  "eth_maxPriorityFeePerGas",
  "eth_newBlockFilter",
  "eth_newFilter",
  "eth_newPendingTransactionFilter",
  "eth_sendRawTransaction",
  "eth_syncing",
  "eth_uninstallFilter",
  "wallet_getCapabilities",
  "wallet_getCallsStatus",
  "eth_getUserOperationReceipt",
  "eth_estimateUserOperationGas",
  "eth_getUserOperationByHash",
  "eth_supportedEntryPoints",
  "wallet_getAssets",
  "wallet_getSupportedExecutionPermissions",
  "wallet_getGrantedExecutionPermissions"
] as const

/** Embedded-wallet RPC methods that need the visitor's approval (the ApproveTransaction view). */
export const EMBEDDED_UNSAFE_RPC_METHODS = [
  "personal_sign",
  "eth_signTypedData_v4",
  "eth_sendTransaction",
  "solana_signMessage",
  "solana_signTransaction",
  "solana_signAllTransactions",
  "solana_signAndSendTransaction",
  "wallet_sendCalls",
  "wallet_grantPermissions",
  "wallet_revokePermissions",
  "wallet_requestExecutionPermissions",
  "wallet_revokeExecutionPermission",
  "eth_sendUserOperation"
] as const

/** How the embedded wallet treats an RPC method: answered silently, approved by the visitor, or refused. */
export type EmbeddedRpcClass = "safe" | "unsafe" | "rejected"

/** Classifies an embedded-wallet RPC method (spec point 6); any method not listed is rejected. */
export const classifyEmbeddedRpcMethod = (method: string): EmbeddedRpcClass =>
  (EMBEDDED_SAFE_RPC_METHODS as ReadonlyArray<string>).includes(method)
    ? "safe"
    : (EMBEDDED_UNSAFE_RPC_METHODS as ReadonlyArray<string>).includes(method)
      ? "unsafe"
      : "rejected"
