/**
 * WalletConnect's keys and envelopes (specs: core/crypto, crypto envelopes type 0 and 1): X25519 key agreement, a
 * symmetric key by HKDF-SHA256 of the shared secret, a topic as the SHA-256 of a key, and ChaCha20-Poly1305 sealed
 * boxes with a fresh 12-byte nonce. Primitives come from @noble; nothing here is a primitive of our own.
 */
import { chacha20poly1305 } from "@noble/ciphers/chacha.js"
import { x25519 } from "@noble/curves/ed25519"
import { hkdf } from "@noble/hashes/hkdf"
import { sha256 } from "@noble/hashes/sha2"
import { bytesToHex, hexToBytes, randomBytes } from "@noble/hashes/utils"
import { Data } from "effect"
import { fromBase64, toBase64 } from "../../../domain/encoding"

/** An envelope that cannot be read: not base64, an unknown type, too short, or a sealed box that fails to open. */
export class EnvelopeUnreadable extends Data.TaggedError("EnvelopeUnreadable")<{ readonly reason: string }> {}

/** An X25519 key pair, hex-encoded as WalletConnect writes keys. */
export interface KeyPair {
  readonly privateKey: string
  readonly publicKey: string
}

const KEY_BYTES = 32
const IV_BYTES = 12
const TAG_BYTES = 16

/** 32 random bytes as hex: a pairing's symmetric key, a relay session id. */
export const randomKey = (): string => bytesToHex(randomBytes(KEY_BYTES))

/** A fresh X25519 key pair. */
export const generateKeyPair = (): KeyPair => {
  const privateKey = x25519.utils.randomPrivateKey()
  return { privateKey: bytesToHex(privateKey), publicKey: bytesToHex(x25519.getPublicKey(privateKey)) }
}

/** The symmetric key two peers share: HKDF-SHA256 (no salt, no info) of their X25519 shared secret, 32 bytes. */
export const deriveSymKey = (privateKey: string, peerPublicKey: string): string =>
  bytesToHex(hkdf(sha256, x25519.getSharedSecret(hexToBytes(privateKey), hexToBytes(peerPublicKey)), undefined, undefined, KEY_BYTES))

/** The SHA-256 of a hex key, hex: the topic of a symmetric key, or the response topic of a public key. */
export const hashKey = (key: string): string => bytesToHex(sha256(hexToBytes(key)))

/** Whether `text` is a 32-byte key in hex. */
export const isKey = (text: unknown): text is string => typeof text === "string" && /^[0-9a-f]{64}$/i.test(text)

/** How a message is sealed: type 0 with the topic's key; type 1 also carries the sender's public key. */
export type Seal = { readonly type: 0 } | { readonly type: 1; readonly senderPublicKey: string }

/** Seals `message` with `symKey` into a base64 envelope of the given type. */
export const seal = (symKey: string, message: string, how: Seal = { type: 0 }, iv: Uint8Array = randomBytes(IV_BYTES)): string => {
  const sealed = chacha20poly1305(hexToBytes(symKey), iv).encrypt(new TextEncoder().encode(message))
  const head = how.type === 0 ? Uint8Array.of(0) : Uint8Array.of(1, ...hexToBytes(how.senderPublicKey))
  const envelope = new Uint8Array(head.length + IV_BYTES + sealed.length)
  envelope.set(head)
  envelope.set(iv, head.length)
  envelope.set(sealed, head.length + IV_BYTES)
  return toBase64(envelope)
}

/** An envelope's parts, before opening: its type, the sender's key (type 1), the nonce and the sealed box. */
export interface Envelope {
  readonly type: 0 | 1
  readonly senderPublicKey: string | undefined
  readonly iv: Uint8Array
  readonly sealed: Uint8Array
}

/** Reads an envelope's parts; fails on anything that is not a type 0 or 1 envelope. */
export const readEnvelope = (encoded: string): Envelope | EnvelopeUnreadable => {
  const bytes = typeof encoded === "string" ? fromBase64(encoded) : undefined
  if (bytes === undefined || bytes.length === 0) return new EnvelopeUnreadable({ reason: "not base64" })
  const type = bytes[0]
  if (type !== 0 && type !== 1) return new EnvelopeUnreadable({ reason: `envelope type ${String(type)} is not read here` })
  const start = type === 1 ? 1 + KEY_BYTES : 1
  if (bytes.length < start + IV_BYTES + TAG_BYTES) return new EnvelopeUnreadable({ reason: "envelope too short" })
  return {
    type,
    senderPublicKey: type === 1 ? bytesToHex(bytes.subarray(1, start)) : undefined,
    iv: bytes.subarray(start, start + IV_BYTES),
    sealed: bytes.subarray(start + IV_BYTES)
  }
}

/** Opens an envelope's sealed box with `symKey`: its text, or why not (a tampered byte fails the tag). */
export const open = (symKey: string, envelope: Envelope): string | EnvelopeUnreadable => {
  try {
    const plain = chacha20poly1305(hexToBytes(symKey), envelope.iv).decrypt(envelope.sealed)
    return new TextDecoder("utf-8", { fatal: true }).decode(plain)
  } catch {
    return new EnvelopeUnreadable({ reason: "the envelope does not open with this topic's key" })
  }
}

/** Reads and opens an envelope in one step (type 0, or type 1 whose key is already agreed). */
export const unseal = (symKey: string, encoded: string): string | EnvelopeUnreadable => {
  const envelope = readEnvelope(encoded)
  return envelope instanceof EnvelopeUnreadable ? envelope : open(symKey, envelope)
}
