/**
 * An ABI-encoded text as a token's `symbol()` answers it: shared by the EVM adapter (balances) and the embedded
 * wallet's permission words (the token a permission spends), each loaded lazily, so neither pulls in the other.
 */

/** An ABI-encoded `string` (or a `bytes32` symbol, as old tokens answer), as text. */
export const decodeAbiText = (data: string): string | undefined => {
  const body = data.replace(/^0x/, "")
  const bytes = (hexText: string) =>
    new TextDecoder().decode(new Uint8Array((hexText.match(/../g) ?? []).map((pair) => Number.parseInt(pair, 16))))
  if (body.length === 64) return bytes(body).replace(/\0+$/, "") || undefined
  if (body.length < 128) return undefined
  const offset = Number.parseInt(body.slice(0, 64), 16) * 2
  const length = Number.parseInt(body.slice(offset, offset + 64), 16) * 2
  if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(length) || offset + 64 + length > body.length) return undefined
  return bytes(body.slice(offset + 64, offset + 64 + length))
}
