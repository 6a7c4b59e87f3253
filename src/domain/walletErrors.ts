/**
 * What a wallet said when it refused or failed, as named errors (EIP-1193 and JSON-RPC codes, viem's list): the
 * visitor reads the wallet's own words ("insufficient funds for gas * price + value"), never a bare "Something went
 * wrong". `walletErrorOf` is the one decision from a code and a message to an error; every family uses it.
 */
import { Schema } from "effect"
import { RPC_ERROR_CODES } from "./constants"
import { UserRejected } from "./errors"
import { TaggedError } from "./taggedError"

/** The wallet's own message, shown as it is (trimmed); its words when it gave any, else ours. */
const wordsOf = (details: string, fallback: string): string => (details.trim() === "" ? fallback : details.trim())

/** The account cannot pay the amount and its fee; `details` is the wallet's or node's sentence. */
export class InsufficientFunds extends TaggedError<InsufficientFunds>()("InsufficientFunds", {
  details: Schema.String
}) {
  override get message() {
    return wordsOf(this.details, "The account does not have enough funds for this transaction and its fee.")
  }
}

/** -32002: the wallet already shows a request from this site; the visitor must answer it in the wallet first. */
export class RequestAlreadyPending extends TaggedError<RequestAlreadyPending>()("RequestAlreadyPending", {
  details: Schema.String
}) {
  override get message() {
    return "A request is already waiting in your wallet. Open your wallet to answer it."
  }
}

/** -32602: the wallet found the request's parameters invalid; `details` says which. */
export class InvalidWalletParams extends TaggedError<InvalidWalletParams>()("InvalidWalletParams", {
  details: Schema.String
}) {
  override get message() {
    return wordsOf(this.details, "The wallet found the request invalid.")
  }
}

/** 4100: the site or the account is not authorised by the wallet. */
export class WalletUnauthorized extends TaggedError<WalletUnauthorized>()("WalletUnauthorized", {
  details: Schema.String
}) {
  override get message() {
    return wordsOf(this.details, "The wallet has not authorised this site or account.")
  }
}

/** 4200: the wallet does not support the method. */
export class WalletMethodUnsupported extends TaggedError<WalletMethodUnsupported>()("WalletMethodUnsupported", {
  details: Schema.String
}) {
  override get message() {
    return wordsOf(this.details, "The wallet does not support this request.")
  }
}

/** 4900 / 4901: the wallet is not connected to the chain (or to any). */
export class WalletDisconnected extends TaggedError<WalletDisconnected>()("WalletDisconnected", {
  details: Schema.String
}) {
  override get message() {
    return wordsOf(this.details, "The wallet is not connected to this network.")
  }
}

/** -32003: the node or wallet refused the transaction; `details` says why. */
export class TransactionRejected extends TaggedError<TransactionRejected>()("TransactionRejected", {
  details: Schema.String
}) {
  override get message() {
    return wordsOf(this.details, "The transaction was rejected.")
  }
}

/** Any other failure the wallet reported, with its code when it gave one and its own words. */
export class WalletError extends TaggedError<WalletError>()("WalletError", {
  code: Schema.optionalKey(Schema.Number),
  details: Schema.String
}) {
  override get message() {
    return wordsOf(this.details, "The wallet could not complete the request.")
  }
}

/** The wallet gave no answer in the time a visitor could take to answer it (a wallet that hangs, or was left open). */
export class WalletNoAnswer extends TaggedError<WalletNoAnswer>()("WalletNoAnswer", {
  waitedMs: Schema.Number
}) {
  override get message() {
    const waited = this.waitedMs < 60_000 ? `${Math.round(this.waitedMs / 1000)} seconds` : `${Math.round(this.waitedMs / 60_000)} minutes`
    return `Your wallet did not answer in ${waited}. Check that it is open and unlocked, then try again.`
  }
}

/** Every way a wallet request can fail. */
export type WalletRequestError =
  | UserRejected
  | InsufficientFunds
  | RequestAlreadyPending
  | InvalidWalletParams
  | WalletUnauthorized
  | WalletMethodUnsupported
  | WalletDisconnected
  | TransactionRejected
  | WalletError
  | WalletNoAnswer

// Some wallets refuse with the wrong code (-32603, -32000) or none at all: their words still say the visitor refused.
const USER_REFUSED = /\buser (rejected|denied|cancell?ed|refused|declined)\b|\b(rejected|denied|cancell?ed|declined) by (the )?user\b/i

// Wallets and nodes word an unaffordable transaction many ways, under many codes (-32000, -32603, -32003…).
const INSUFFICIENT_FUNDS = /insufficient (funds|balance|lamports)|exceeds (the )?balance|not enough (funds|balance|sol)/i

/** The named error for what a wallet answered: a code (when it gave one) and its message. */
export const walletErrorOf = (code: number | undefined, message: string): WalletRequestError => {
  if (code === RPC_ERROR_CODES.userRejected || code === RPC_ERROR_CODES.walletConnectUserRejected) {
    return new UserRejected({ code })
  }
  if (USER_REFUSED.test(message)) return new UserRejected({ code: RPC_ERROR_CODES.userRejected })
  if (INSUFFICIENT_FUNDS.test(message)) return new InsufficientFunds({ details: message })
  switch (code) {
    case RPC_ERROR_CODES.requestPending:
      return new RequestAlreadyPending({ details: message })
    case RPC_ERROR_CODES.invalidParams:
      return new InvalidWalletParams({ details: message })
    case RPC_ERROR_CODES.unauthorized:
      return new WalletUnauthorized({ details: message })
    case RPC_ERROR_CODES.unsupportedMethod:
      return new WalletMethodUnsupported({ details: message })
    case RPC_ERROR_CODES.disconnected:
    case RPC_ERROR_CODES.chainDisconnected:
      return new WalletDisconnected({ details: message })
    case RPC_ERROR_CODES.transactionRejected:
      return new TransactionRejected({ details: message })
    default:
      return new WalletError({ ...(code !== undefined ? { code } : {}), details: message })
  }
}

// One property of what a wallet threw, or `undefined` when reading it throws (a Proxy, a getter): decoding a wallet's
// error must never fail in its turn, or the failure it reports is lost.
const read = (value: unknown, key: string): unknown => {
  if (typeof value !== "object" || value === null) return undefined
  try {
    return (value as Record<string, unknown>)[key]
  } catch {
    return undefined
  }
}

/**
 * A thrown wallet error's code and message, whatever shape it came in (Error with code, plain object, nested). Total:
 * a value whose reads throw gives no code and no message.
 */
export const walletErrorPartsOf = (error: unknown): { readonly code: number | undefined; readonly message: string } => {
  const original = read(read(error, "data"), "originalError")
  const code = [read(error, "code"), read(original, "code")].find((c): c is number => typeof c === "number")
  const message = [read(error, "message"), read(original, "message"), error].find((m): m is string => typeof m === "string") ?? ""
  return { code, message }
}

/** Whatever a wallet threw, as the named error; never throws. */
export const fromWalletError = (error: unknown): WalletRequestError => {
  // ethers-based wallets refuse with a string code instead of 4001.
  if (read(error, "code") === "ACTION_REJECTED") return new UserRejected({ code: RPC_ERROR_CODES.userRejected })
  const { code, message } = walletErrorPartsOf(error)
  return walletErrorOf(code, message)
}
