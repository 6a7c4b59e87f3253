/**
 * Bitcoin addresses (spec 5 for bip122), pure: whether text is an address of a network kind (mainnet, a test
 * network, regtest; `bitcoinNetwork.ts`) — bech32 (BIP-173) for witness v0 (P2WPKH 20 bytes, P2WSH 32),
 * bech32m (BIP-350) for witness v1 (P2TR, 32 bytes), with their checksums and the network's prefix (bc, tb, bcrt);
 * base58check for P2PKH and P2SH with the network's version bytes. No chain library: the send form and the bip122
 * adapter share it.
 */
import { sha256 } from "@noble/hashes/sha2"
import { Result } from "effect"
import { type BitcoinNetworkKind, bitcoinNetworkKindOf } from "./bitcoinNetwork"
import { fromBase58 } from "./encoding"

export { type BitcoinNetworkKind, bitcoinNetworkKindOf } from "./bitcoinNetwork"


/** The address kinds the product knows. */
export type BitcoinAddressType = "p2pkh" | "p2sh" | "p2wpkh" | "p2wsh" | "p2tr"

/** A decoded address: its kind and what it pays to (the key or script hash, or the taproot output key). */
export interface BitcoinAddress {
  readonly type: BitcoinAddressType
  readonly program: Uint8Array
}

const PARAMS: { readonly [K in BitcoinNetworkKind]: { readonly hrp: string; readonly pubKeyHash: number; readonly scriptHash: number } } = {
  mainnet: { hrp: "bc", pubKeyHash: 0x00, scriptHash: 0x05 },
  testnet: { hrp: "tb", pubKeyHash: 0x6f, scriptHash: 0xc4 },
  regtest: { hrp: "bcrt", pubKeyHash: 0x6f, scriptHash: 0xc4 }
}

const CHARSET = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
const BECH32_CONST = 1
const BECH32M_CONST = 0x2bc830a3
const GENERATOR = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3]

const polymod = (values: ReadonlyArray<number>): number => {
  let checksum = 1
  for (const value of values) {
    const top = checksum >>> 25
    checksum = ((checksum & 0x1ffffff) << 5) ^ value
    for (let i = 0; i < 5; i++) if ((top >>> i) & 1) checksum ^= GENERATOR[i]!
  }
  return checksum >>> 0
}

const expandHrp = (hrp: string): Array<number> => [
  ...[...hrp].map((c) => c.charCodeAt(0) >>> 5),
  0,
  ...[...hrp].map((c) => c.charCodeAt(0) & 31)
]

/** 5-bit groups to bytes; `undefined` when the padding is not zeros or longer than 4 bits. */
const fromWords = (words: ReadonlyArray<number>): Uint8Array | undefined => {
  let accumulator = 0
  let bits = 0
  const out: Array<number> = []
  for (const word of words) {
    accumulator = (accumulator << 5) | word
    bits += 5
    if (bits >= 8) {
      bits -= 8
      out.push((accumulator >>> bits) & 0xff)
    }
  }
  if (bits >= 5 || ((accumulator << (8 - bits)) & 0xff) !== 0) return undefined
  return Uint8Array.from(out)
}

const decodeSegwit = (address: string, hrp: string): Result.Result<BitcoinAddress, string> => {
  if (address !== address.toLowerCase() && address !== address.toUpperCase()) return Result.fail("mixes upper and lower case")
  const text = address.toLowerCase()
  if (text.length > 90) return Result.fail("is too long")
  const separator = text.lastIndexOf("1")
  if (text.slice(0, separator) !== hrp) return Result.fail(`is not a ${hrp}1… address`)
  const data: Array<number> = []
  for (const char of text.slice(separator + 1)) {
    const value = CHARSET.indexOf(char)
    if (value < 0) return Result.fail(`has a character bech32 does not use (${char})`)
    data.push(value)
  }
  if (data.length < 7) return Result.fail("is too short")
  const check = polymod([...expandHrp(hrp), ...data])
  const version = data[0]!
  if (check !== BECH32_CONST && check !== BECH32M_CONST) return Result.fail("has a wrong checksum")
  // BIP-350: witness v0 uses bech32, every later version bech32m.
  if ((version === 0) !== (check === BECH32_CONST)) return Result.fail("has the wrong checksum kind for its witness version")
  const program = fromWords(data.slice(1, -6))
  if (program === undefined || program.length < 2 || program.length > 40) return Result.fail("has an invalid witness program")
  if (version === 0 && program.length === 20) return Result.succeed({ type: "p2wpkh", program })
  if (version === 0 && program.length === 32) return Result.succeed({ type: "p2wsh", program })
  if (version === 1 && program.length === 32) return Result.succeed({ type: "p2tr", program })
  return Result.fail(`is a witness v${version} program of ${program.length} bytes, which the product does not send to`)
}

const equalBytes = (a: Uint8Array, b: Uint8Array): boolean => a.length === b.length && a.every((byte, i) => byte === b[i])

const decodeBase58 = (address: string, kind: BitcoinNetworkKind): Result.Result<BitcoinAddress, string> => {
  const bytes = fromBase58(address)
  if (bytes === undefined || bytes.length !== 25) return Result.fail("is not a base58 address of 25 bytes")
  const payload = bytes.subarray(0, 21)
  if (!equalBytes(sha256(sha256(payload)).subarray(0, 4), bytes.subarray(21))) return Result.fail("has a wrong checksum")
  const { pubKeyHash, scriptHash } = PARAMS[kind]
  const program = payload.slice(1)
  if (payload[0] === pubKeyHash) return Result.succeed({ type: "p2pkh", program })
  if (payload[0] === scriptHash) return Result.succeed({ type: "p2sh", program })
  return Result.fail(`is not a ${kind} address (version byte ${payload[0]})`)
}

/**
 * Decodes `address` as an address of a `kind` network, or says what is wrong with it.
 * @example parseBitcoinAddress("bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4", "mainnet") // Success { type: "p2wpkh", … }
 */
export const parseBitcoinAddress = (address: string, kind: BitcoinNetworkKind): Result.Result<BitcoinAddress, string> => {
  const text = address.trim()
  const { hrp } = PARAMS[kind]
  const looksSegwit = /^(bc|tb|bcrt)1/i.test(text)
  const result = looksSegwit ? decodeSegwit(text, hrp) : decodeBase58(text, kind)
  return Result.mapError(result, (why) => `${text.length > 16 ? `${text.slice(0, 12)}…` : text} ${why}`)
}

/** True when `address` is an address of a `kind` network. */
export const isBitcoinAddress = (address: string, kind: BitcoinNetworkKind): boolean => Result.isSuccess(parseBitcoinAddress(address, kind))

/**
 * The send form's receiver rule for bip122 (spec 5): an address of the network `caipNetworkId` (mainnet, a test
 * network or regtest; a test network's without one), or the words that say which address is wanted. The Send service
 * fetches it only for a bip122 account.
 * @example validateBitcoinReceiver("bc1q…", "bip122:0f9188f13cb7b2c71f2a335e3a4fc328") // Failure "Enter a Bitcoin regtest address"
 */
export const validateBitcoinReceiver = (value: string, caipNetworkId: string | undefined): Result.Result<string, string> => {
  const kind = bitcoinNetworkKindOf(caipNetworkId ?? "")
  return isBitcoinAddress(value, kind) ? Result.succeed(value) : Result.fail(kind === "mainnet" ? "Enter a Bitcoin address" : `Enter a Bitcoin ${kind} address`)
}
