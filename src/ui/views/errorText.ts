/**
 * The one place that turns a failure into the words a visitor sees: a heading per kind of failure, and the error's
 * own message — the catalogue's exact text, or the wallet's own words ("insufficient funds for gas * price + value").
 * A heading is never repeated as the message. Anything that is not ours (a defect) shows 'Something went wrong',
 * never a stack or a tag.
 */
import { Cause, Option } from "effect"
import type { DisconnectFailed, FrameLoadTimedOut, FrameStepTimedOut, NetworkNotFound } from "../../domain/errors"
import type { RequestError, SendError, SignError, SwitchError, WaitError } from "../../services/ChainAdapter"
import type { ConnectFlowError } from "../../services/ConnectFlow"
import type { RegisterFailure } from "../../services/namesState"
import type { SwapFailure } from "../../services/swapState"
import type { OnrampUnavailable } from "../../domain/swapErrors"
import type { NoAccount } from "../../services/WalletActions"

/** Every error a view or hook can end with. */
type VisibleError =
  | ConnectFlowError
  | SwitchError
  | SignError
  | SendError
  | WaitError
  | RequestError
  | NoAccount
  | DisconnectFailed
  | NetworkNotFound
  | RegisterFailure
  | FrameStepTimedOut
  | FrameLoadTimedOut
  | SwapFailure
  | OnrampUnavailable

/** Headings shown above an error's message, by error tag: every visible error has one. */
const HEADINGS = {
  UserRejected: "Request declined",
  ProviderNotFound: "Wallet not found",
  ChainNotSupported: "Network not supported",
  ProgrammaticSwitchUnsupported: "Switch in your wallet",
  NetworkNotFound: "Network not found",
  DisconnectFailed: "Disconnect failed",
  AdapterForNamespaceMissing: "Wallet family not available",
  ConnectCancelled: "Connection cancelled",
  WalletConnectConnectorMissing: "WalletConnect is not available",
  InsufficientFunds: "Not enough funds",
  RequestAlreadyPending: "Check your wallet",
  InvalidWalletParams: "The wallet refused the request",
  WalletUnauthorized: "Not authorised",
  WalletMethodUnsupported: "Not supported by this wallet",
  WalletDisconnected: "Wallet disconnected",
  TransactionRejected: "Transaction rejected",
  WalletError: "The wallet could not do it",
  WalletNoAnswer: "No answer from your wallet",
  SignMessageFailed: "Signature failed",
  SendFormInvalid: "Check the amount and address",
  GasEstimationFailed: "Transaction would fail",
  TransactionReverted: "Transaction failed",
  WalletCapabilitiesInvalid: "Wallet answer not understood",
  CaipNetworkOrAddressUndefined: "No wallet connected",
  SomethingWentWrong: "Something went wrong",
  FeatureUnavailable: "Not available",
  NameError: "Name not registered",
  NamesNeedEvmAccount: "Names are for EVM accounts",
  NameChainIdTooLarge: "Network not supported for names",
  FrameStepTimedOut: "No answer from the embedded wallet",
  FrameLoadTimedOut: "Embedded wallet did not load",
  SwapUnavailable: "Swap not available",
  SwapNoLiquidity: "No liquidity",
  SwapQuoteExpired: "Quote expired",
  ApprovalDeclined: "Approval declined",
  SwapAmountInvalid: "Check the amount",
  OnrampUnavailable: "Buying not available"
} satisfies Record<VisibleError["_tag"], string>

const GENERIC = "Something went wrong"
const TRY_AGAIN = "Please try again."

const tagOf = (error: unknown): string | undefined =>
  typeof error === "object" && error !== null && "_tag" in error && typeof error._tag === "string" ? error._tag : undefined

/** What a failure says to the visitor: a heading and a message that is not the heading again. */
export interface VisitorError {
  readonly tag: string | undefined
  readonly heading: string
  readonly message: string
}

/** The visitor's words for a typed error. */
export const visitorErrorOf = (error: unknown): VisitorError => {
  const tag = tagOf(error)
  const heading = (tag !== undefined ? (HEADINGS as Readonly<Record<string, string>>)[tag] : undefined) ?? GENERIC
  const reason = tag === "SomethingWentWrong" ? (error as { readonly reason?: string }).reason : undefined
  const own = error instanceof Error && error.message !== "" ? error.message : undefined
  const message = reason ?? own ?? TRY_AGAIN
  return { tag, heading, message: message === heading ? TRY_AGAIN : message }
}

/** The visitor's words for a failure: a typed error shows its message; a defect shows 'Something went wrong'. */
export const visitorError = (cause: Cause.Cause<unknown>): VisitorError => {
  const typed = Cause.findErrorOption(cause)
  return Option.isSome(typed) ? visitorErrorOf(typed.value) : { tag: undefined, heading: GENERIC, message: TRY_AGAIN }
}
