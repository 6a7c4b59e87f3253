/**
 * The validation rules of spec point 5 as pure functions. Each returns a `Result`: the accepted (normalised)
 * value, or the words that tell the visitor or the host developer what is wrong.
 */
import { keccak_256 } from "@noble/hashes/sha3"
import { Result } from "effect"
import { NAME_COIN_TYPE_CHAIN_ID_LIMIT, NAME_COIN_TYPE_EVM_FLAG } from "./constants"
import { InvalidChainId, SendFormInvalid } from "./errors"

const HEX40 = /^(0x)?[0-9a-fA-F]{40}$/
const BASE58 = /^[1-9A-HJ-NP-Za-km-z]+$/
const TX_HASH = /^0x[0-9a-fA-F]{64}$/
const SIGNED_MESSAGE = /^0x[0-9a-fA-F]{62,}$/
// The local part is dot-separated words (no dot first, last or doubled); the domain is dot-separated labels of
// letters, digits and inner hyphens, ending in a top-level label of 2+ letters (or an `xn--` one), without a final dot.
const EMAIL_WORD = String.raw`[^\s@"(),:;<>[\\\].]+`
const DOMAIN_LABEL = String.raw`[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?`
const TOP_LEVEL_LABEL = String.raw`(?:\p{L}{2,63}|xn--[a-z0-9-]{1,59})`
const EMAIL = new RegExp(String.raw`^${EMAIL_WORD}(?:\.${EMAIL_WORD})*@(?:${DOMAIN_LABEL}\.)+${TOP_LEVEL_LABEL}$`, "u")
const EMAIL_LOCAL_MAX = 64

const textEncoder = new TextEncoder()

/** The EIP-55 checksummed form of a 40-hex-digit address (with or without 0x). */
export const toChecksumAddress = (address: string): string => {
  const lower = address.replace(/^0x/, "").toLowerCase()
  const hash = keccak_256(textEncoder.encode(lower))
  let out = "0x"
  for (let i = 0; i < lower.length; i++) {
    const char = lower.charAt(i)
    // Nibble i of the hash decides the case of character i.
    const byte = hash[i >> 1] ?? 0
    const nibble = i % 2 === 0 ? byte >> 4 : byte & 0x0f
    out += nibble >= 8 ? char.toUpperCase() : char
  }
  return out
}

/**
 * An EVM address: 40 hex characters, with or without 0x. An all-lower or all-upper address is accepted as is;
 * a mixed-case one must carry a correct EIP-55 checksum. The accepted value is the checksummed 0x form.
 */
export const validateEvmAddress = (input: string): Result.Result<string, string> => {
  const value = input.trim()
  if (!HEX40.test(value)) return Result.fail("An EVM address is 40 hexadecimal characters, optionally after 0x")
  const body = value.replace(/^0x/, "")
  const checksummed = toChecksumAddress(body)
  const mixedCase = body !== body.toLowerCase() && body !== body.toUpperCase()
  if (mixedCase && checksummed.slice(2) !== body) return Result.fail("The address checksum is wrong: check for a typo")
  return Result.succeed(checksummed)
}

/** True for an EVM address `validateEvmAddress` accepts. */
export const isEvmAddress = (input: string): boolean => Result.isSuccess(validateEvmAddress(input))

/** A Solana address: 32 to 44 base58 characters. */
export const validateSolanaAddress = (input: string): Result.Result<string, string> => {
  const value = input.trim()
  if (value.length < 32 || value.length > 44 || !BASE58.test(value)) {
    return Result.fail("A Solana address is 32 to 44 base58 characters")
  }
  return Result.succeed(value)
}

/** True for a Solana address `validateSolanaAddress` accepts. */
export const isSolanaAddress = (input: string): boolean => Result.isSuccess(validateSolanaAddress(input))

/** A transaction hash: 0x followed by exactly 64 hex characters. */
export const isTransactionHash = (input: string): boolean => TX_HASH.test(input)

/** A signed message (signature): 0x followed by at least 62 hex characters. */
export const isSignedMessage = (input: string): boolean => SIGNED_MESSAGE.test(input)

/** An email address for connecting or for updating (newEmail); the accepted value is trimmed. */
export const validateEmail = (input: string): Result.Result<string, string> => {
  const value = input.trim()
  if (value.length === 0) return Result.fail("Enter an email address")
  if (value.length > 254 || !EMAIL.test(value) || value.indexOf("@") > EMAIL_LOCAL_MAX) {
    return Result.fail("Enter a valid email address")
  }
  return Result.succeed(value)
}

/** A one-time code: a non-empty string of digits and letters as the visitor received it; spaces are removed. */
export const validateOtp = (input: unknown): Result.Result<string, string> => {
  if (typeof input !== "string") return Result.fail("The one-time code must be text")
  const value = input.replace(/\s+/g, "")
  if (value.length === 0) return Result.fail("Enter the one-time code")
  if (!/^[0-9A-Za-z]{4,12}$/.test(value)) return Result.fail("The one-time code has 4 to 12 letters or digits")
  return Result.succeed(value)
}

/**
 * The coin type of a name's EVM address (ENSIP-11): `0x80000000 | chainId`. The chain id must be a non-negative
 * integer below 2147483648, else 'Invalid chainId'.
 */
export const coinTypeForChainId = (chainId: number): Result.Result<number, InvalidChainId> => {
  if (!Number.isSafeInteger(chainId) || chainId < 0 || chainId >= NAME_COIN_TYPE_CHAIN_ID_LIMIT) {
    return Result.fail(new InvalidChainId())
  }
  return Result.succeed((NAME_COIN_TYPE_EVM_FLAG | chainId) >>> 0)
}

/** The fields of a send form as the visitor typed them. */
export interface SendForm {
  readonly token: string | undefined
  readonly amount: string | undefined
  readonly receiverAddress: string | undefined
}

/** A send form that passed validation: amount is a positive decimal string. */
export interface ValidSendForm {
  readonly token: string
  readonly amount: string
  readonly receiverAddress: string
}

const isPositiveDecimal = (value: string): boolean => /^\d*\.?\d+$|^\d+\.$/.test(value) && Number(value) > 0

/**
 * Sending requires a token, a positive amount and a receiver address; a missing or invalid one fails with
 * 'Please enter a valid amount and receiver address'. The receiver is checked for the chain family given.
 */
export const validateSendForm = (
  form: SendForm,
  namespace: "eip155" | "solana" | "bip122" | "polkadot"
): Result.Result<ValidSendForm, SendFormInvalid> => {
  const token = form.token?.trim() ?? ""
  const amount = form.amount?.trim() ?? ""
  const receiver = form.receiverAddress?.trim() ?? ""
  if (token.length === 0 || !isPositiveDecimal(amount) || receiver.length === 0) {
    return Result.fail(new SendFormInvalid())
  }
  const receiverOk =
    namespace === "eip155"
      ? isEvmAddress(receiver)
      : namespace === "solana"
        ? isSolanaAddress(receiver)
        : receiver.length >= 26
  if (!receiverOk) return Result.fail(new SendFormInvalid())
  return Result.succeed({ token, amount, receiverAddress: receiver })
}

/** A call of a send-calls request: `to` and, when present, `data` start with 0x. */
export const isValidSendCall = (call: { readonly to: string; readonly data?: string | undefined }): boolean =>
  call.to.startsWith("0x") && (call.data === undefined || call.data.startsWith("0x"))

/** Social login providers (spec point 5). */
export const SOCIAL_PROVIDERS = ["google", "github", "apple", "facebook", "x", "discord"] as const
/** A social login provider. */
export type SocialProviderName = (typeof SOCIAL_PROVIDERS)[number]

/** True for a known social login provider. */
export const isSocialProvider = (value: unknown): value is SocialProviderName =>
  typeof value === "string" && (SOCIAL_PROVIDERS as ReadonlyArray<string>).includes(value)

/** The operating system a messenger mini-app runs on, as far as it matters for social logins. */
export type MiniAppPlatform = "ios" | "mac" | "android" | "other"

/**
 * Social logins offered inside a messenger mini-app: on iOS google is removed, on Mac x is removed, on Android
 * facebook and x are removed (their login pages do not work inside the mini-app's web view).
 */
export const filterSocialsForMiniApp = <S extends string>(
  socials: ReadonlyArray<S>,
  platform: MiniAppPlatform
): ReadonlyArray<S> => {
  const removed: ReadonlyArray<string> =
    platform === "ios" ? ["google"] : platform === "mac" ? ["x"] : platform === "android" ? ["facebook", "x"] : []
  return socials.filter((social) => !removed.includes(social))
}

/** A social login the Connect view offers: a provider of the wallet server's social login, or farcaster. */
export type SocialLoginName = SocialProviderName | "farcaster"

/**
 * The social logins the Connect view offers, in the host's `features.socials` order: the providers of the wallet
 * server's social login and farcaster (Sign In With Farcaster), filtered by the mini-app's OS.
 */
export const offeredSocials = (
  socials: ReadonlyArray<string> | false,
  miniApp: MiniAppPlatform | undefined
): ReadonlyArray<SocialLoginName> => {
  const providers = socials === false ? [] : socials.filter((social): social is SocialLoginName => social === "farcaster" || isSocialProvider(social))
  return miniApp === undefined ? providers : filterSocialsForMiniApp(providers, miniApp)
}

/** True for a theme mode: light or dark. */
export const isThemeMode = (value: unknown): value is "light" | "dark" => value === "light" || value === "dark"

/** True for a preferred account type: eoa or smartAccount. */
export const isPreferredAccountType = (value: unknown): value is "eoa" | "smartAccount" =>
  value === "eoa" || value === "smartAccount"

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/** A Solana sign-message request needs a message and a pubkey. */
export const isSolanaSignMessageRequest = (params: unknown): boolean =>
  isObject(params) &&
  typeof params["message"] === "string" &&
  params["message"].length > 0 &&
  typeof params["pubkey"] === "string" &&
  isSolanaAddress(params["pubkey"])

/** A Solana sign-transaction request needs a transaction. */
export const isSolanaSignTransactionRequest = (params: unknown): boolean =>
  isObject(params) && typeof params["transaction"] === "string" && params["transaction"].length > 0

/** A Solana sign-all request needs an array of transactions. */
export const isSolanaSignAllTransactionsRequest = (params: unknown): boolean =>
  isObject(params) &&
  Array.isArray(params["transactions"]) &&
  params["transactions"].every((tx) => typeof tx === "string" && tx.length > 0)

/** What the gas check needs to know. */
export interface GasCheckInput {
  readonly nativeBalanceUsd: number
  readonly gasPriceUsd: number
  readonly accountType: "eoa" | "smartAccount" | "payment" | "ordinals" | undefined
}

/**
 * True when the account cannot pay for gas: the native balance in USD is 0 or below the gas price in USD.
 * A smart account is never insufficient (a paymaster may sponsor it).
 */
export const hasInsufficientGas = (input: GasCheckInput): boolean => {
  if (input.accountType === "smartAccount") return false
  return input.nativeBalanceUsd <= 0 || input.nativeBalanceUsd < input.gasPriceUsd
}
