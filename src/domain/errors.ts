/**
 * The error catalogue of the product (spec point 8). Every error that can cross a boundary is a tagged error class
 * that is also its Schema (`./taggedError`: built when first used as one), so it can be encoded, sent across the
 * embedded frame or stored, and decoded again; its `message` is the spec's exact text, built from its fields.
 */
import { Schema } from "effect"
import { TaggedError } from "./taggedError"

/** 'Invalid CAIP-10 address: {value}' — a string that is not `namespace:reference:address`. */
export class InvalidCaip10Address extends TaggedError<InvalidCaip10Address>()("InvalidCaip10Address", {
  value: Schema.String
}) {
  override get message() {
    return `Invalid CAIP-10 address: ${this.value}`
  }
}

/** 'Invalid CAIP-2 network id: {value}' — a string that is not `namespace:reference`. */
export class InvalidCaip2NetworkId extends TaggedError<InvalidCaip2NetworkId>()("InvalidCaip2NetworkId", {
  value: Schema.String
}) {
  override get message() {
    return `Invalid CAIP-2 network id: ${this.value}`
  }
}

/** 'Invalid CAIP Address' — a CAIP address was needed and none usable was given. */
export class InvalidCaipAddress extends TaggedError<InvalidCaipAddress>()("InvalidCaipAddress", {}) {
  override get message() {
    return "Invalid CAIP Address"
  }
}

/** 'Invalid chainId' — a chain id that is neither a positive integer nor a known reference. */
export class InvalidChainId extends TaggedError<InvalidChainId>()("InvalidChainId", {}) {
  override get message() {
    return "Invalid chainId"
  }
}

/** Host options that do not decode; `issues` names each bad path. */
export class InvalidOptions extends TaggedError<InvalidOptions>()("InvalidOptions", {
  issues: Schema.String
}) {
  override get message() {
    return `Invalid wallet-runtime options: ${this.issues}`
  }
}

/** Both sign-in configurations were given; only one may be. */
export class SiweSiwxConflict extends TaggedError<SiweSiwxConflict>()("SiweSiwxConflict", {}) {
  override get message() {
    return "Cannot set both `siweConfig` and `siwx` options"
  }
}

/** 'Failed to disconnect', with the underlying reason kept for logs. */
export class DisconnectFailed extends TaggedError<DisconnectFailed>()("DisconnectFailed", {
  reason: Schema.optionalKey(Schema.String)
}) {
  override get message() {
    return "Failed to disconnect"
  }
}

/** 'Network not supported for Gas Price'. */
export class GasPriceNetworkNotSupported extends TaggedError<GasPriceNetworkNotSupported>()(
  "GasPriceNetworkNotSupported",
  {}
) {
  override get message() {
    return "Network not supported for Gas Price"
  }
}

/** 'Network not supported for Swaps'. */
export class SwapsNetworkNotSupported extends TaggedError<SwapsNetworkNotSupported>()(
  "SwapsNetworkNotSupported",
  {}
) {
  override get message() {
    return "Network not supported for Swaps"
  }
}

/** 'Sign message failed'. */
export class SignMessageFailed extends TaggedError<SignMessageFailed>()("SignMessageFailed", {
  reason: Schema.optionalKey(Schema.String)
}) {
  override get message() {
    return "Sign message failed"
  }
}

/** 'error estimating gas'. */
export class GasEstimationFailed extends TaggedError<GasEstimationFailed>()("GasEstimationFailed", {
  reason: Schema.optionalKey(Schema.String)
}) {
  override get message() {
    return "error estimating gas"
  }
}

/** 'Error parsing wallet capabilities'. */
export class WalletCapabilitiesInvalid extends TaggedError<WalletCapabilitiesInvalid>()(
  "WalletCapabilitiesInvalid",
  {}
) {
  override get message() {
    return "Error parsing wallet capabilities"
  }
}

/** 'Request was aborted' — the caller aborted an RPC request. */
export class RequestAborted extends TaggedError<RequestAborted>()("RequestAborted", {}) {
  override get message() {
    return "Request was aborted"
  }
}

/** 'Something went wrong' — any other abort or an unexpected failure shown to the visitor. */
export class SomethingWentWrong extends TaggedError<SomethingWentWrong>()("SomethingWentWrong", {
  reason: Schema.optionalKey(Schema.String)
}) {
  override get message() {
    return "Something went wrong"
  }
}

/** 'HTTP status code: N' — a non-OK HTTP answer. */
export class HttpStatusError extends TaggedError<HttpStatusError>()("HttpStatusError", {
  status: Schema.Number,
  body: Schema.optionalKey(Schema.String)
}) {
  override get message() {
    return `HTTP status code: ${this.status}`
  }
}

/**
 * Why a frame step was refused for now, when the frame can say: `email_rate_limited` (the mail's own limit, spec 8's
 * 'Please try again after N seconds': a code asked within 30 s of the last to that address, no mail sent),
 * `rate_limited` (too many tries from the visitor's network) and `busy` (the wallet server refused for now and the
 * frame could not wait it out within its step). Each comes with `retryAfterSeconds`; only the first is the email's
 * resend cool-down.
 */
export const FrameErrorCode = Schema.Literals(["email_rate_limited", "rate_limited", "busy"])
/** Why a frame step was refused for now. */
export type FrameErrorCode = typeof FrameErrorCode.Type

/**
 * An error reply of the embedded frame; 'An error occurred' when the frame gave no text. A refusal for now carries
 * the frame's `code` and `retryAfterSeconds` (only `email_rate_limited` is the email's resend cool-down).
 */
export class FrameError extends TaggedError<FrameError>()("FrameError", {
  reason: Schema.optionalKey(Schema.String),
  code: Schema.optionalKey(FrameErrorCode),
  retryAfterSeconds: Schema.optionalKey(Schema.Int)
}) {
  override get message() {
    return this.reason !== undefined && this.reason.length > 0 ? this.reason : "An error occurred"
  }
}

/** 'W3mFrame: iframe is not set' — a frame request before the frame element exists. */
export class FrameNotSet extends TaggedError<FrameNotSet>()("FrameNotSet", {}) {
  override get message() {
    return "W3mFrame: iframe is not set"
  }
}

/**
 * The embedded-wallet frame did not answer a request within its bound (30000 ms for a login step); `request` names
 * the request (e.g. `CONNECT_OTP`). Its message is in the visitor's words.
 */
export class FrameStepTimedOut extends TaggedError<FrameStepTimedOut>()("FrameStepTimedOut", {
  request: Schema.String,
  timeoutMs: Schema.Number
}) {
  override get message() {
    return "The embedded wallet did not answer in time. Please try again."
  }
}

/** The embedded-wallet frame did not signal READY within its load bound (the EMBEDDED_WALLET_LOAD_TIMEOUT alert). */
export class FrameLoadTimedOut extends TaggedError<FrameLoadTimedOut>()("FrameLoadTimedOut", {
  timeoutMs: Schema.Number
}) {
  override get message() {
    return "The embedded wallet did not load in time. Please try again."
  }
}

/**
 * 'A problem occurred while trying initialize authentication' — the embedded wallet's frame could not be used (it did
 * not load, or there is no page to put it in): the embedded session is disconnected and the modal returns to Connect.
 */
export class AuthInitFailed extends TaggedError<AuthInitFailed>()("AuthInitFailed", {}) {
  override get message() {
    return "A problem occurred while trying initialize authentication"
  }
}

/** 'Unable to load email login dependency' — the embedded-wallet chunk failed to load. */
export class EmailLoginDependencyFailed extends TaggedError<EmailLoginDependencyFailed>()(
  "EmailLoginDependencyFailed",
  {}
) {
  override get message() {
    return "Unable to load email login dependency"
  }
}

/** "Adapter for namespace {namespace} doesn't exist". */
export class AdapterForNamespaceMissing extends TaggedError<AdapterForNamespaceMissing>()(
  "AdapterForNamespaceMissing",
  { namespace: Schema.String }
) {
  override get message() {
    return `Adapter for namespace ${this.namespace} doesn't exist`
  }
}

/** 'CaipNetwork or CaipAddress is undefined'. */
export class CaipNetworkOrAddressUndefined extends TaggedError<CaipNetworkOrAddressUndefined>()(
  "CaipNetworkOrAddressUndefined",
  {}
) {
  override get message() {
    return "CaipNetwork or CaipAddress is undefined"
  }
}

/** 'ConnectionControllerClient and NetworkControllerClient must be set' — the runtime was used before it was wired. */
export class ClientsNotSet extends TaggedError<ClientsNotSet>()("ClientsNotSet", {}) {
  override get message() {
    return "ConnectionControllerClient and NetworkControllerClient must be set"
  }
}

/** 'Network with ID {id} not found'. */
export class NetworkNotFound extends TaggedError<NetworkNotFound>()("NetworkNotFound", {
  id: Schema.String
}) {
  override get message() {
    return `Network with ID ${this.id} not found`
  }
}

/** 'Cannot remove last network for a namespace'. */
export class CannotRemoveLastNetwork extends TaggedError<CannotRemoveLastNetwork>()(
  "CannotRemoveLastNetwork",
  {}
) {
  override get message() {
    return "Cannot remove last network for a namespace"
  }
}

/** A network cannot be removed while a wallet is connected on it. */
export class CannotRemoveConnectedNetwork extends TaggedError<CannotRemoveConnectedNetwork>()(
  "CannotRemoveConnectedNetwork",
  { id: Schema.String }
) {
  override get message() {
    return `Cannot remove network ${this.id} while connected`
  }
}

/** 'Chain is not supported' — the wallet refused both to switch to and to add the chain. */
export class ChainNotSupported extends TaggedError<ChainNotSupported>()("ChainNotSupported", {}) {
  override get message() {
    return "Chain is not supported"
  }
}

/** 'Provider not found.'. */
export class ProviderNotFound extends TaggedError<ProviderNotFound>()("ProviderNotFound", {}) {
  override get message() {
    return "Provider not found."
  }
}

/** '"{connector}" does not support programmatic chain switching.'. */
export class ProgrammaticSwitchUnsupported extends TaggedError<ProgrammaticSwitchUnsupported>()(
  "ProgrammaticSwitchUnsupported",
  { connector: Schema.String }
) {
  override get message() {
    return `"${this.connector}" does not support programmatic chain switching.`
  }
}

/** The WalletConnect connector was needed but is not configured (no projectId or relay). */
export class WalletConnectConnectorMissing extends TaggedError<WalletConnectConnectorMissing>()(
  "WalletConnectConnectorMissing",
  {}
) {
  override get message() {
    return "WalletConnect connector not found: set a projectId to enable WalletConnect"
  }
}

/** A mined transaction that reverted: the decoded reason, or 'unknown reason'. */
export class TransactionReverted extends TaggedError<TransactionReverted>()("TransactionReverted", {
  hash: Schema.String,
  reason: Schema.optionalKey(Schema.String)
}) {
  override get message() {
    return this.reason !== undefined && this.reason.length > 0 ? this.reason : "unknown reason"
  }
}

/** The visitor refused in the wallet (EIP-1193 4001, WalletConnect 5000). */
export class UserRejected extends TaggedError<UserRejected>()("UserRejected", {
  code: Schema.Number
}) {
  override get message() {
    return "User rejected the request."
  }
}

/** 'Requested RPC call is not allowed' — a method outside the embedded wallet's lists. */
export class RpcMethodNotAllowed extends TaggedError<RpcMethodNotAllowed>()("RpcMethodNotAllowed", {
  method: Schema.String
}) {
  override get message() {
    return "Requested RPC call is not allowed"
  }
}

/** A request still open when the modal closed or a disallowed method arrived. */
export class RequestRejectedByModal extends TaggedError<RequestRejectedByModal>()("RequestRejectedByModal", {}) {
  override get message() {
    return "Action not allowed"
  }
}

/** 'Please enter a valid amount and receiver address' — a send form missing its amount or receiver. */
export class SendFormInvalid extends TaggedError<SendFormInvalid>()("SendFormInvalid", {}) {
  override get message() {
    return "Please enter a valid amount and receiver address"
  }
}

/** 'Please try again after N seconds' — the email login cool-down is running. */
export class EmailRateLimited extends TaggedError<EmailRateLimited>()("EmailRateLimited", {
  seconds: Schema.Number
}) {
  override get message() {
    return `Please try again after ${this.seconds} seconds`
  }
}

/** 'Signature declined' — the visitor refused to sign the sign-in message. */
export class SignatureDeclined extends TaggedError<SignatureDeclined>()("SignatureDeclined", {}) {
  override get message() {
    return "Signature declined"
  }
}

/** Sign-in did not complete: the message could not be made, the wallet failed, or the backend refused the session. */
export class SignInFailed extends TaggedError<SignInFailed>()("SignInFailed", {
  reason: Schema.String
}) {
  override get message() {
    return this.reason
  }
}

/** What failed in a name operation; selects the fallback text when the API gives no description. */
export const NameOperation = Schema.Literals(["resolve", "suggestions", "reverse", "register"])
/** What failed in a name operation. */
export type NameOperation = typeof NameOperation.Type

/** A name-service failure: the API's description, else the spec's fallback for the operation. */
export class NameError extends TaggedError<NameError>()("NameError", {
  operation: NameOperation,
  // Not `name`: that is every Error's own class name.
  accountName: Schema.optionalKey(Schema.String),
  description: Schema.optionalKey(Schema.String)
}) {
  override get message() {
    if (this.description !== undefined && this.description.length > 0) return this.description
    switch (this.operation) {
      case "resolve":
        return "Error resolving name"
      case "suggestions":
        return "Error fetching name suggestions"
      case "reverse":
        return "Error fetching names for address"
      case "register":
        return `Error registering name ${this.accountName ?? ""}`.trimEnd()
    }
  }
}

/**
 * Every error of the catalogue, as one Schema union (e.g. to decode an error that crossed the frame). Suspended: a
 * union reads its members' Schemas when made, and the errors build theirs only when one is needed.
 */
export const CatalogueError = Schema.suspend(() =>
  Schema.Union([
    InvalidCaip10Address,
    InvalidCaip2NetworkId,
    InvalidCaipAddress,
    InvalidChainId,
    InvalidOptions,
    SiweSiwxConflict,
    SignatureDeclined,
    SignInFailed,
    DisconnectFailed,
    GasPriceNetworkNotSupported,
    SwapsNetworkNotSupported,
    SignMessageFailed,
    GasEstimationFailed,
    WalletCapabilitiesInvalid,
    RequestAborted,
    SomethingWentWrong,
    HttpStatusError,
    FrameError,
    FrameNotSet,
    FrameStepTimedOut,
    FrameLoadTimedOut,
    AuthInitFailed,
    EmailLoginDependencyFailed,
    AdapterForNamespaceMissing,
    CaipNetworkOrAddressUndefined,
    ClientsNotSet,
    NetworkNotFound,
    CannotRemoveLastNetwork,
    CannotRemoveConnectedNetwork,
    ChainNotSupported,
    ProviderNotFound,
    ProgrammaticSwitchUnsupported,
    WalletConnectConnectorMissing,
    TransactionReverted,
    UserRejected,
    RpcMethodNotAllowed,
    RequestRejectedByModal,
    SendFormInvalid,
    EmailRateLimited,
    NameError
  ])
)
/** Any error of the catalogue. */
export type CatalogueError = typeof CatalogueError.Type
