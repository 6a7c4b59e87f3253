/**
 * EIP-1193 providers and EIP-6963 announcements as the eip155 family sees them, and small pure helpers. Nothing
 * here loads a chain library.
 */
import { Exit, Schema } from "effect"

/** An EIP-1193 provider (a wallet extension, an announced wallet, a test wallet, WalletConnect's facade). */
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

// Read through a Schema: an error whose `code` cannot be read (a throwing getter, a Proxy) has no code.
const WithCode = Schema.Struct({ code: Schema.Number })

/** A provider error's code, whatever shape the error came in (undefined when it has none that can be read). */
export const providerCodeOf = (error: unknown): number | undefined => {
  const decoded = Schema.decodeUnknownExit(WithCode)(error)
  return Exit.isSuccess(decoded) ? decoded.value.code : undefined
}

// No chain id needs more characters than this (a safe integer is 16 hex digits at most, with room for leading
// zeros): a longer text is refused before it is read.
const MAX_CHAIN_ID_TEXT = 32

/**
 * A chain id as wallets send it (hex string, decimal string or number), or undefined unless it is a positive safe
 * integer: a 300-digit hex id is not Infinity, it is no chain id.
 */
export const parseChainId = (value: unknown): number | undefined => {
  const text = typeof value === "string" && value.length <= MAX_CHAIN_ID_TEXT ? value : undefined
  const parsed =
    typeof value === "number"
      ? value
      : text !== undefined && /^0x[0-9a-fA-F]+$/.test(text)
        ? Number.parseInt(text, 16)
        : text !== undefined && /^\d+$/.test(text)
          ? Number(text)
          : undefined
  return parsed !== undefined && Number.isSafeInteger(parsed) && parsed > 0 ? parsed : undefined
}

/** UTF-8 text as 0x-hex, for personal_sign. */
export const toHexUtf8 = (text: string): string =>
  `0x${[...new TextEncoder().encode(text)].map((byte) => byte.toString(16).padStart(2, "0")).join("")}`
