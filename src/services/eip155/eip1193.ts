/**
 * EIP-1193 providers and EIP-6963 announcements as the eip155 adapter sees them, and how a provider's errors map to
 * the catalogue. Only types and small pure helpers: nothing here loads a chain library.
 */
import { RPC_ERROR_CODES } from "../../domain/constants"
import { SomethingWentWrong, UserRejected } from "../../domain/errors"

/** An EIP-1193 provider (a wallet extension, an announced wallet, a test wallet). */
export interface Eip1193Provider {
  readonly request: (args: { readonly method: string; readonly params?: unknown }) => Promise<unknown>
  readonly on?: (event: string, listener: (...args: Array<any>) => void) => unknown
  readonly removeListener?: (event: string, listener: (...args: Array<any>) => void) => unknown
}

/** The identity a wallet announces through EIP-6963. */
export interface Eip6963Info {
  readonly uuid: string
  readonly name: string
  readonly icon: string
  readonly rdns: string
}

/** A provider error's code and message, whatever shape it came in (Error with code, plain object, nested). */
export const providerErrorOf = (error: unknown): { readonly code: number | undefined; readonly message: string } => {
  const record = typeof error === "object" && error !== null ? (error as Record<string, unknown>) : {}
  const nested = typeof record["data"] === "object" && record["data"] !== null ? (record["data"] as Record<string, unknown>) : {}
  const originalError =
    typeof nested["originalError"] === "object" && nested["originalError"] !== null
      ? (nested["originalError"] as Record<string, unknown>)
      : {}
  const code = [record["code"], originalError["code"]].find((c): c is number => typeof c === "number")
  const message =
    typeof record["message"] === "string" ? record["message"] : error instanceof Error ? error.message : String(error)
  return { code, message }
}

/** True when the wallet says the visitor refused (4001, or WalletConnect's 5000). */
export const isUserRejection = (code: number | undefined): boolean =>
  code === RPC_ERROR_CODES.userRejected || code === RPC_ERROR_CODES.walletConnectUserRejected

/** A provider error as a catalogue error: a refusal is UserRejected, anything else 'Something went wrong'. */
export const fromProviderError = (error: unknown): UserRejected | SomethingWentWrong => {
  const { code, message } = providerErrorOf(error)
  return isUserRejection(code) && code !== undefined ? new UserRejected({ code }) : new SomethingWentWrong({ reason: message })
}

/** A chain id as wallets send it (hex string, decimal string or number), or undefined. */
export const parseChainId = (value: unknown): number | undefined => {
  if (typeof value === "number" && Number.isSafeInteger(value) && value > 0) return value
  if (typeof value === "string" && /^0x[0-9a-fA-F]+$/.test(value)) return Number.parseInt(value, 16)
  if (typeof value === "string" && /^\d+$/.test(value)) return Number(value)
  return undefined
}

/** UTF-8 text as 0x-hex, for personal_sign. */
export const toHexUtf8 = (text: string): string =>
  `0x${[...new TextEncoder().encode(text)].map((byte) => byte.toString(16).padStart(2, "0")).join("")}`
