/**
 * EIP-1193 providers and EIP-6963 announcements as the eip155 family sees them, and small pure helpers. Nothing
 * here loads a chain library.
 */

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

/** A provider error's code, whatever shape the error came in. */
export const providerCodeOf = (error: unknown): number | undefined => {
  const record = typeof error === "object" && error !== null ? (error as Record<string, unknown>) : {}
  return typeof record["code"] === "number" ? record["code"] : undefined
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
