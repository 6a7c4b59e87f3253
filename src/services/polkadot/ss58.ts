/**
 * SS58, the address format of Polkadot and every Substrate chain: base58 of a network prefix, the 32-byte account id
 * (33 for a compressed ecdsa key) and a checksum, the first two bytes of blake2b-512 over "SS58PRE" and the rest.
 * The same account has one address per network (Polkadot 0, Kusama 2, Westend and generic Substrate 42). Pure and
 * small (blake2b from @noble/hashes), so discovery and the adapter decode addresses without the polkadot-js bundle.
 */
import { blake2b } from "@noble/hashes/blake2"
import { fromBase58, toBase58 } from "../../domain/encoding"
import type { CaipNetwork } from "../../domain/Network"

/** The generic Substrate prefix, used by Westend and by networks without one of their own. */
export const GENERIC_SS58_PREFIX = 42

/** The SS58 prefix of each well-known relay chain, by its genesis-hash reference. */
const PREFIXES: Readonly<Record<string, number>> = {
  "91b171bb158e2d3848fa23a9f1c25182": 0,
  b0a8d493285c2df73290dfb7e61f870f: 2,
  e143f23803ac50e8f6f8e62695d1ce9e: 42
}

/** The SS58 prefix addresses on `network` are shown with: Polkadot 0, Kusama 2, Westend and any other 42. */
export const ss58PrefixOf = (network: Pick<CaipNetwork, "id">): number => PREFIXES[String(network.id)] ?? GENERIC_SS58_PREFIX

/** An SS58 address taken apart. */
export interface Ss58Address {
  readonly prefix: number
  /** The account id: 32 bytes (33 for a compressed ecdsa public key). */
  readonly accountId: Uint8Array
}

/** Why a text is not an account's SS58 address. */
export type Ss58Problem = "not base58" | "wrong length" | "reserved prefix" | "bad checksum"

const SS58_PRE = new TextEncoder().encode("SS58PRE")
// The longest prefix SS58 defines is 14 bits; 46 and 47 are reserved, never a network.
const MAX_PREFIX = 16_383
const RESERVED = [46, 47]

const checksum = (body: Uint8Array): Uint8Array => {
  const input = new Uint8Array(SS58_PRE.length + body.length)
  input.set(SS58_PRE)
  input.set(body, SS58_PRE.length)
  return blake2b(input, { dkLen: 64 }).subarray(0, 2)
}

const prefixBytes = (prefix: number): Uint8Array =>
  prefix < 64
    ? new Uint8Array([prefix])
    : new Uint8Array([((prefix & 0b1111_1100) >> 2) | 0b0100_0000, (prefix >> 8) | ((prefix & 0b11) << 6)])

/**
 * The prefix and account id of an SS58 address, or why it is none: not base58, not an account's length (short
 * account indices are not accounts), a reserved prefix, or a checksum that does not match (a mistyped address).
 * @example decodeSs58("15oF4uVJwmo4TdGW7VfQxNLavjCXviqxT9S1MgbjMNHr6Sp5") // { prefix: 0, accountId: Uint8Array(32) }
 */
export const decodeSs58 = (address: string): Ss58Address | Ss58Problem => {
  if (address.length === 0 || address.length > 64) return "wrong length"
  const bytes = fromBase58(address)
  if (bytes === undefined) return "not base58"
  if (bytes.length === 0) return "wrong length"
  const first = bytes[0]!
  if (first & 0b1000_0000) return "reserved prefix"
  const prefixLength = first & 0b0100_0000 ? 2 : 1
  const second = bytes[1] ?? 0
  const prefix = prefixLength === 1 ? first : ((first & 0b0011_1111) << 2) | (second >> 6) | ((second & 0b0011_1111) << 8)
  const keyLength = bytes.length - prefixLength - 2
  if (keyLength !== 32 && keyLength !== 33) return "wrong length"
  if (RESERVED.includes(prefix)) return "reserved prefix"
  const sum = checksum(bytes.subarray(0, bytes.length - 2))
  if (sum[0] !== bytes[bytes.length - 2] || sum[1] !== bytes[bytes.length - 1]) return "bad checksum"
  return { prefix, accountId: bytes.slice(prefixLength, prefixLength + keyLength) }
}

/**
 * The SS58 address of an account id (32 or 33 bytes) under `prefix` (0 to 16383, not 46 or 47).
 * @example encodeSs58(accountId, 0) // "15oF4uVJ…" on Polkadot
 */
export const encodeSs58 = (accountId: Uint8Array, prefix: number): string => {
  if (accountId.length !== 32 && accountId.length !== 33) throw new RangeError(`An account id is 32 or 33 bytes, not ${accountId.length}`)
  if (!Number.isInteger(prefix) || prefix < 0 || prefix > MAX_PREFIX || RESERVED.includes(prefix)) {
    throw new RangeError(`${prefix} is not an SS58 network prefix`)
  }
  const head = prefixBytes(prefix)
  const body = new Uint8Array(head.length + accountId.length)
  body.set(head)
  body.set(accountId, head.length)
  const sum = checksum(body)
  const out = new Uint8Array(body.length + 2)
  out.set(body)
  out.set(sum, body.length)
  return toBase58(out)
}

/** True when `address` is an account's SS58 address with a valid checksum (any network). */
export const isSs58Address = (address: string): boolean => typeof decodeSs58(address) !== "string"

/**
 * The same account's address under `prefix`, or `undefined` when `address` is not a valid SS58 address.
 * @example reencodeSs58("5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY", 0) // Alice on Polkadot
 */
export const reencodeSs58 = (address: string, prefix: number): string | undefined => {
  const decoded = decodeSs58(address)
  return typeof decoded === "string" ? undefined : encodeSs58(decoded.accountId, prefix)
}
