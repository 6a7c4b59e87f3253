/**
 * The recovery share's protection, in the frame (issue 30, item 1; groundwork): the share is sealed with
 * XChaCha20-Poly1305 (`@noble/ciphers`, a fresh 24-byte nonce) under a key only the user can make again, from
 * - a password, stretched by scrypt (`@noble/hashes`; N = 2^17, r = 8, p = 1: 128 MiB and about half a second in
 *   node here, measured in Chromium too, see the README's security section), or
 * - a passkey's PRF output (32 bytes; no stretching needed, it is a random secret), or
 * - until the visitor chooses one of those, a random 32-byte device secret the frame keeps beside the device share
 *   (`device`): it guards the envelope against the server alone, not against this device.
 * Both go through HKDF-SHA256 to two separate values: the AEAD key, and a verifier that the wallet server keeps only
 * as a hash and wants back before it hands the ciphertext out, so it can count wrong passwords (and slow them down)
 * without ever learning the password or the key.
 *
 * The associated data binds the user, the family and the address, so a ciphertext moved to another account does not
 * open. The envelope carries its version and the KDF's parameters and salt, so parameters can be raised later without
 * losing older envelopes. Nothing here is a primitive of our own.
 */
import { xchacha20poly1305 } from "@noble/ciphers/chacha.js"
import { hkdf } from "@noble/hashes/hkdf"
import { scrypt } from "@noble/hashes/scrypt"
import { sha256 } from "@noble/hashes/sha2"
import { Data, Effect } from "effect"
import { fromBase64, toBase64 } from "../../../../src/domain/encoding"
import { type KeyShare, RECOVERY_VERSION, type RecoveryEnvelope, type RecoveryKdf } from "../sharesApi"
import { decodeShare, encodeShare, type KeyOwner, randomBytes } from "./keyShares"

/**
 * The password KDF's parameters for new envelopes: scrypt at OWASP's recommended minimum (N = 2^17, r = 8, p = 1,
 * 128 MiB), within what a phone's browser takes in a second or two.
 */
export const SCRYPT_PARAMS = { N: 2 ** 17, r: 8, p: 1 } as const

/**
 * What one recovery or protection keeps between the accounts it opens or seals ({@link oneAttempt}): the password's
 * scrypt per KDF (parameters and salt), so each distinct salt is stretched once however many accounts use it, and the
 * KDF its new envelopes share (one salt for all of the user's accounts), so the next recovery stretches once.
 */
export interface RecoveryAttempt {
  readonly stretched: Map<string, Uint8Array>
  next: RecoveryKdf | undefined
}

/**
 * The user's recovery secret: a password, a passkey's 32-byte PRF output, or the frame's 32-byte device secret. A
 * password or passkey may carry the {@link RecoveryAttempt} it is used in.
 */
export type RecoverySecret =
  | { readonly _tag: "password"; readonly password: string; readonly attempt?: RecoveryAttempt }
  | { readonly _tag: "passkey"; readonly prf: Uint8Array; readonly attempt?: RecoveryAttempt }
  | { readonly _tag: "device"; readonly secret: Uint8Array }

// The words for what protects an envelope, by its KDF.
const protectedBy: Record<RecoveryKdf["name"], string> = { scrypt: "a password", "passkey-prf": "a passkey", device: "this device's secret" }

/** A recovery secret the frame refuses to seal under (an empty password, a PRF output that is not 32 bytes). */
export class RecoverySecretInvalid extends Data.TaggedError("RecoverySecretInvalid")<{ readonly message: string }> {}

/** An envelope that does not open: a wrong password or passkey, or an altered envelope (the AEAD cannot tell which). */
export class RecoveryUnreadable extends Data.TaggedError("RecoveryUnreadable")<{ readonly message: string }> {}

const encoder = new TextEncoder()
const aad = (owner: KeyOwner) => encoder.encode(`wr-recovery/v${RECOVERY_VERSION}|${owner.userId}|${owner.family}|${owner.address}`)

const secretFits = (secret: RecoverySecret, kdf: RecoveryKdf): string | undefined => {
  if (secret._tag === "password") {
    if (kdf.name !== "scrypt") return `This recovery share is protected by ${protectedBy[kdf.name]}, not a password`
    return secret.password.length === 0 ? "The password is empty" : undefined
  }
  if (secret._tag === "passkey") {
    if (kdf.name !== "passkey-prf") return `This recovery share is protected by ${protectedBy[kdf.name]}, not a passkey`
    return secret.prf.length === 32 ? undefined : `A passkey's PRF output is 32 bytes, not ${secret.prf.length}`
  }
  if (kdf.name !== "device") return `This recovery share is protected by ${protectedBy[kdf.name]}, not this device's secret`
  return secret.secret.length === 32 ? undefined : `A device secret is 32 bytes, not ${secret.secret.length}`
}

// The password's scrypt under `kdf` (a copy the caller wipes): kept in its attempt, so each KDF is stretched once per
// attempt. Synchronous: noble's scryptAsync yields to microtasks only, so it would hold the thread as long. In the
// frame the stretch (about a second) holds the frame's own thread, not the host page's.
const stretch = (secret: Extract<RecoverySecret, { _tag: "password" }>, kdf: Extract<RecoveryKdf, { name: "scrypt" }>, salt: Uint8Array): Uint8Array => {
  const id = `${kdf.N}/${kdf.r}/${kdf.p}/${kdf.salt}`
  const kept = secret.attempt?.stretched.get(id)
  if (kept !== undefined) return kept.slice()
  const made = scrypt(secret.password.normalize("NFKC"), salt, { N: kdf.N, r: kdf.r, p: kdf.p, dkLen: 32 })
  if (secret.attempt === undefined) return made
  secret.attempt.stretched.set(id, made)
  return made.slice()
}

/**
 * `secret` for one recovery or protection of all of the user's accounts: each distinct salt is stretched once, and
 * the new envelopes share one KDF (a recovery's, the first current one it opened; else a fresh salt). End it with
 * {@link endAttempt}. A device secret needs no stretching and is given back as it is.
 */
export const oneAttempt = (secret: RecoverySecret): RecoverySecret =>
  secret._tag === "device" ? secret : { ...secret, attempt: { stretched: new Map(), next: undefined } }

/** Wipes what an attempt kept of the password. */
export const endAttempt = (secret: RecoverySecret): void => {
  if (secret._tag === "device" || secret.attempt === undefined) return
  for (const stretched of secret.attempt.stretched.values()) stretched.fill(0)
  secret.attempt.stretched.clear()
}

// Whether envelopes sealed now may reuse `kdf`: this version's parameters (an older, weaker scrypt is sealed anew).
const isCurrent = (kdf: RecoveryKdf): boolean =>
  kdf.name !== "scrypt" || (kdf.N === SCRYPT_PARAMS.N && kdf.r === SCRYPT_PARAMS.r && kdf.p === SCRYPT_PARAMS.p)

/**
 * The AEAD key and the server's verifier of a secret under `kdf`, for `owner`: HKDF-SHA256 of the stretched password
 * (or the PRF output) with the KDF's salt, two different `info`s, so the verifier says nothing of the key.
 */
export const deriveRecoveryKeys = Effect.fn("RecoveryShare.deriveRecoveryKeys")(function* (owner: KeyOwner, secret: RecoverySecret, kdf: RecoveryKdf) {
  const unfit = secretFits(secret, kdf)
  if (unfit !== undefined) return yield* new RecoverySecretInvalid({ message: unfit })
  const salt = fromBase64(kdf.salt) ?? new Uint8Array()
  const ikm =
    secret._tag === "password" && kdf.name === "scrypt"
      ? stretch(secret, kdf, salt)
      : secret._tag === "passkey"
        ? secret.prf.slice()
        : secret._tag === "device"
          ? secret.secret.slice()
          : new Uint8Array()
  const binding = `|${owner.userId}|${owner.family}|${owner.address}`
  const key = hkdf(sha256, ikm, salt, `wr-recovery/v${RECOVERY_VERSION}/aead${binding}`, 32)
  const verifier = hkdf(sha256, ikm, salt, `wr-recovery/v${RECOVERY_VERSION}/verifier${binding}`, 32)
  ikm.fill(0)
  return { key, verifier }
})

/**
 * The KDF a new envelope under `secret` is sealed with: its attempt's shared one, or (the first time) a fresh 16-byte
 * salt with this version's parameters. A salt shared by one user's accounts is safe: the HKDF binds each key and
 * verifier to its family and address, and every envelope has a fresh nonce.
 */
export const newRecoveryKdf = (secret: RecoverySecret): RecoveryKdf => {
  const fresh: RecoveryKdf =
    secret._tag === "password"
      ? { name: "scrypt", ...SCRYPT_PARAMS, salt: toBase64(randomBytes(16)) }
      : { name: secret._tag === "passkey" ? "passkey-prf" : "device", salt: toBase64(randomBytes(16)) }
  if (secret._tag === "device" || secret.attempt === undefined) return fresh
  secret.attempt.next ??= fresh
  return secret.attempt.next
}

/**
 * Seals the recovery share under `secret`: the envelope for the wallet server, and the verifier (base64) it keeps a
 * hash of. The share must be the owner's recovery share.
 */
export const sealRecoveryShare = Effect.fn("RecoveryShare.sealRecoveryShare")(function* (owner: KeyOwner, share: KeyShare, secret: RecoverySecret) {
  if (share.role !== "recovery" || share.userId !== owner.userId || share.family !== owner.family || share.address !== owner.address) {
    return yield* new RecoverySecretInvalid({ message: "Only the account's own recovery share is sealed for recovery" })
  }
  const kdf = newRecoveryKdf(secret)
  const { key, verifier } = yield* deriveRecoveryKeys(owner, secret, kdf)
  const nonce = randomBytes(24)
  const plaintext = encoder.encode(encodeShare(share))
  const ciphertext = xchacha20poly1305(key, nonce, aad(owner)).encrypt(plaintext)
  key.fill(0)
  plaintext.fill(0)
  const envelope: RecoveryEnvelope = { version: RECOVERY_VERSION, kdf, nonce: toBase64(nonce), ciphertext: toBase64(ciphertext) }
  return { envelope, verifier: toBase64(verifier) }
})

const unreadable = new RecoveryUnreadable({
  message: "The recovery share could not be opened: the password or passkey is not the one it was protected with, or the stored copy was altered"
})

/**
 * Opens an envelope with `secret` for `owner`: the recovery share, checked to be the owner's. A wrong secret, an
 * altered envelope or one sealed for another account is a {@link RecoveryUnreadable}.
 */
export const openRecoveryShare = Effect.fn("RecoveryShare.openRecoveryShare")(function* (owner: KeyOwner, envelope: RecoveryEnvelope, secret: RecoverySecret) {
  const { key } = yield* deriveRecoveryKeys(owner, secret, envelope.kdf)
  const nonce = fromBase64(envelope.nonce)
  const ciphertext = fromBase64(envelope.ciphertext)
  if (nonce?.length !== 24 || ciphertext === undefined) return yield* unreadable
  const plaintext = yield* Effect.try({
    try: () => xchacha20poly1305(key, nonce, aad(owner)).decrypt(ciphertext),
    catch: () => unreadable
  }).pipe(Effect.ensuring(Effect.sync(() => key.fill(0))))
  const text = new TextDecoder().decode(plaintext)
  plaintext.fill(0)
  const share = yield* decodeShare(text).pipe(Effect.mapError(() => unreadable))
  if (share.role !== "recovery" || share.userId !== owner.userId || share.family !== owner.family || share.address !== owner.address) {
    return yield* unreadable
  }
  // A recovery seals the new envelopes under the KDF it just opened (its stretch is kept): no stretch of a new salt.
  if (secret._tag !== "device" && secret.attempt !== undefined && secret.attempt.next === undefined && isCurrent(envelope.kdf)) {
    secret.attempt.next = envelope.kdf
  }
  return share
})
