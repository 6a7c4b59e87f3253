/**
 * WalletConnect's keys and envelopes (specs: core/crypto, crypto envelopes type 0 and 1): X25519 key agreement, a
 * symmetric key by HKDF-SHA256 of the shared secret, a topic as the SHA-256 of a key, and ChaCha20-Poly1305 sealed
 * boxes with a fresh 12-byte nonce. The curve and hash primitives are the platform's WebCrypto where it has X25519 and
 * Ed25519 (`./primitives`), else @noble's, fetched only then; ChaCha20-Poly1305, which WebCrypto lacks, is @noble's.
 * Nothing here is a primitive of our own.
 */
import { chacha20poly1305 } from "@noble/ciphers/chacha.js"
import { Data, Effect } from "effect"
import { fromBase64, toBase64 } from "../../../domain/encoding"
import { primitives } from "./primitives"

/** An envelope that cannot be read: not base64, an unknown type, too short, or a sealed box that fails to open. */
export class EnvelopeUnreadable extends Data.TaggedError("EnvelopeUnreadable")<{ readonly reason: string }> {}

/** A peer's public key with which no key can be agreed (not 32 bytes, or a point of small order). */
export class KeyAgreementFailed extends Data.TaggedError("KeyAgreementFailed")<{ readonly reason: string }> {}

/** An X25519 key pair, hex-encoded as WalletConnect writes keys. */
export interface KeyPair {
  readonly privateKey: string
  readonly publicKey: string
}

const KEY_BYTES = 32
const IV_BYTES = 12
const TAG_BYTES = 16

/** Bytes as lower-case hex. */
export const toHex = (bytes: Uint8Array): string => {
  let hex = ""
  for (const byte of bytes) hex += byte.toString(16).padStart(2, "0")
  return hex
}

/** Hex (even length, any case) as bytes; `undefined` when it is not hex. */
export const fromHex = (hex: string): Uint8Array | undefined => {
  if (hex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(hex)) return undefined
  const bytes = new Uint8Array(hex.length / 2)
  for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16)
  return bytes
}

const hexBytes = (hex: string): Uint8Array => fromHex(hex) ?? new Uint8Array()

/** `length` bytes from the platform's random source. */
export const randomBytes = (length: number): Uint8Array => crypto.getRandomValues(new Uint8Array(length))

/** 32 random bytes as hex: a pairing's symmetric key, a relay session id. */
export const randomKey = (): string => toHex(randomBytes(KEY_BYTES))

/** A fresh X25519 key pair. */
export const generateKeyPair: Effect.Effect<KeyPair> = Effect.promise(async () => {
  const pair = await (await primitives()).x25519KeyPair()
  return { privateKey: toHex(pair.privateKey), publicKey: toHex(pair.publicKey) }
})

/** The symmetric key two peers share: HKDF-SHA256 (no salt, no info) of their X25519 shared secret, 32 bytes. */
export const deriveSymKey = (privateKey: string, peerPublicKey: string): Effect.Effect<string, KeyAgreementFailed> =>
  Effect.tryPromise({
    try: async () => {
      const peer = hexBytes(peerPublicKey)
      if (peer.length !== KEY_BYTES) throw new Error("the peer's key is not 32 bytes")
      const using = await primitives()
      return toHex(await using.hkdfSha256(await using.x25519SharedSecret(hexBytes(privateKey), peer), KEY_BYTES))
    },
    catch: (error) => new KeyAgreementFailed({ reason: error instanceof Error ? error.message : String(error) })
  })

/** The SHA-256 of a hex key, hex: the topic of a symmetric key, or the response topic of a public key. */
export const hashKey = (key: string): Effect.Effect<string> =>
  Effect.promise(async () => toHex(await (await primitives()).sha256(hexBytes(key))))

/** The SHA-256 of a text's UTF-8 bytes, hex: a Verify attestation id is that of the JSON-RPC message sent. */
export const hashText = (text: string): Effect.Effect<string> =>
  Effect.promise(async () => toHex(await (await primitives()).sha256(new TextEncoder().encode(text))))

/** Whether `text` is a 32-byte key in hex. */
export const isKey = (text: unknown): text is string => typeof text === "string" && /^[0-9a-f]{64}$/i.test(text)

/** How a message is sealed: type 0 with the topic's key; type 1 also carries the sender's public key. */
export type Seal = { readonly type: 0 } | { readonly type: 1; readonly senderPublicKey: string }

/** Seals `message` with `symKey` into a base64 envelope of the given type. */
export const seal = (symKey: string, message: string, how: Seal = { type: 0 }, iv: Uint8Array = randomBytes(IV_BYTES)): string => {
  const sealed = chacha20poly1305(hexBytes(symKey), iv).encrypt(new TextEncoder().encode(message))
  const head = how.type === 0 ? Uint8Array.of(0) : Uint8Array.of(1, ...hexBytes(how.senderPublicKey))
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
    senderPublicKey: type === 1 ? toHex(bytes.subarray(1, start)) : undefined,
    iv: bytes.subarray(start, start + IV_BYTES),
    sealed: bytes.subarray(start + IV_BYTES)
  }
}

/** Opens an envelope's sealed box with `symKey`: its text, or why not (a tampered byte fails the tag). */
export const open = (symKey: string, envelope: Envelope): string | EnvelopeUnreadable => {
  try {
    const plain = chacha20poly1305(hexBytes(symKey), envelope.iv).decrypt(envelope.sealed)
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
