/**
 * Byte encodings wallets speak: base58 (Solana addresses, signatures and WalletConnect's Solana payloads) and
 * base64 (wire transactions). Small and pure, so finding and connecting a Solana wallet loads no chain library.
 */

const ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
const INDEX = new Map([...ALPHABET].map((char, index) => [char, index] as const))

/** Bytes as base58 (Bitcoin's alphabet, as Solana uses it). */
export const toBase58 = (bytes: Uint8Array): string => {
  let zeros = 0
  while (zeros < bytes.length && bytes[zeros] === 0) zeros++
  let value = 0n
  for (const byte of bytes) value = value * 256n + BigInt(byte)
  let out = ""
  while (value > 0n) {
    out = ALPHABET[Number(value % 58n)] + out
    value /= 58n
  }
  return "1".repeat(zeros) + out
}

/** Base58 text as bytes; `undefined` when a character is not in the alphabet. */
export const fromBase58 = (text: string): Uint8Array | undefined => {
  let zeros = 0
  while (zeros < text.length && text[zeros] === "1") zeros++
  let value = 0n
  for (const char of text) {
    const digit = INDEX.get(char)
    if (digit === undefined) return undefined
    value = value * 58n + BigInt(digit)
  }
  const body: Array<number> = []
  while (value > 0n) {
    body.unshift(Number(value % 256n))
    value /= 256n
  }
  return new Uint8Array([...new Array<number>(zeros).fill(0), ...body])
}

/** Bytes as base64. */
export const toBase64 = (bytes: Uint8Array): string => {
  let binary = ""
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return btoa(binary)
}

/** Base64 text as bytes; `undefined` when it is not base64. */
export const fromBase64 = (text: string): Uint8Array | undefined => {
  try {
    return Uint8Array.from(atob(text), (char) => char.charCodeAt(0))
  } catch {
    return undefined
  }
}

/** Bytes as unpadded base64url (JWTs, WebAuthn's JSON). */
export const toBase64Url = (bytes: Uint8Array): string => toBase64(bytes).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")

/** Unpadded base64url as bytes; `undefined` when it is not base64url. */
export const fromBase64Url = (text: string): Uint8Array | undefined =>
  /^[A-Za-z0-9_-]*$/.test(text) ? fromBase64(text.replace(/-/g, "+").replace(/_/g, "/").padEnd(Math.ceil(text.length / 4) * 4, "=")) : undefined
