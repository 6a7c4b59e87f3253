/**
 * The wallet server's secrets: the EVM and Solana private keys it made before keys were split (issue 30), kept as
 * AES-256-GCM ciphertext under the server's 32-byte master key (a fresh 12-byte IV per key, the auth tag kept, the
 * user and family bound in as associated data so a row cannot be moved to another user) until the frame splits them
 * (`/api/keys/legacy`, opened only for that); server shares sealed the same way; one-time codes kept as an HMAC
 * under the same key; device links and session tokens kept as their SHA-256 (they are random, 32 bytes).
 */
import { createCipheriv, createDecipheriv, createHash, createHmac, createPrivateKey, createPublicKey, randomBytes, randomInt, timingSafeEqual } from "node:crypto"
import { getBase58Decoder } from "@solana/kit"
import { bytesToHex } from "viem"
import { privateKeyToAccount } from "viem/accounts"

/** A key family of the user's keys. */
export type KeyFamily = "eip155" | "solana"

/** A private key sealed under the master key, as the `wallet_keys` table keeps it. */
export interface SealedKey {
  readonly ciphertext: Uint8Array
  readonly iv: Uint8Array
  readonly authTag: Uint8Array
}

/** The master key was not the one a key was sealed with (or the row was altered). */
export class MasterKeyMismatch extends Error {
  constructor(family: KeyFamily) {
    super(
      `The ${family} key cannot be decrypted: the wallet server's master key is not the one it was encrypted with (or the stored key was altered)`
    )
  }
}

/** Checks the master key is 32 bytes; throws a clear error otherwise. */
export const checkMasterKey = (masterKey: Uint8Array): Uint8Array => {
  if (masterKey.length !== 32) throw new Error(`The wallet server's master key must be 32 bytes, got ${masterKey.length}`)
  return masterKey
}

const aad = (userId: string, family: KeyFamily) => `wallet-key:${userId}:${family}`

/** Seals `secret` under the master key with `associatedData` bound in (a fresh 12-byte IV, AES-256-GCM). */
export const sealBytes = (masterKey: Uint8Array, associatedData: string, secret: Uint8Array): SealedKey => {
  const iv = randomBytes(12)
  const cipher = createCipheriv("aes-256-gcm", masterKey, iv)
  cipher.setAAD(Buffer.from(associatedData, "utf8"))
  const ciphertext = Buffer.concat([cipher.update(secret), cipher.final()])
  return { ciphertext, iv, authTag: cipher.getAuthTag() }
}

/** Opens what {@link sealBytes} sealed with the same associated data; `undefined` when the key or the row differs. */
export const openBytes = (masterKey: Uint8Array, associatedData: string, sealed: SealedKey): Uint8Array | undefined => {
  try {
    const decipher = createDecipheriv("aes-256-gcm", masterKey, sealed.iv)
    decipher.setAAD(Buffer.from(associatedData, "utf8"))
    decipher.setAuthTag(sealed.authTag)
    return new Uint8Array(Buffer.concat([decipher.update(sealed.ciphertext), decipher.final()]))
  } catch {
    return undefined
  }
}

/**
 * Seals `secret` (a 32-byte private key or seed) for `userId`'s `family` key, as the server did for the keys it made
 * before keys were split (issue 30): the migration's tests make such users with it.
 */
export const sealKey = (masterKey: Uint8Array, userId: string, family: KeyFamily, secret: Uint8Array): SealedKey =>
  sealBytes(masterKey, aad(userId, family), secret)

/** Opens a sealed key; throws {@link MasterKeyMismatch} when the master key (or the row) is not the one sealed. */
export const openKey = (masterKey: Uint8Array, userId: string, family: KeyFamily, sealed: SealedKey): Uint8Array => {
  const opened = openBytes(masterKey, aad(userId, family), sealed)
  if (opened === undefined) throw new MasterKeyMismatch(family)
  return opened
}

/** The checksummed address of an EVM private key. */
export const evmAddressOf = (secret: Uint8Array): string => privateKeyToAccount(bytesToHex(secret)).address

// PKCS#8 DER prefix of an ed25519 private key; the 32-byte seed follows it.
const ED25519_PKCS8_PREFIX = Buffer.from("302e020100300506032b657004220420", "hex")

const ed25519PrivateKey = (seed: Uint8Array) =>
  createPrivateKey({ key: Buffer.concat([ED25519_PKCS8_PREFIX, seed]), format: "der", type: "pkcs8" })

/** The base58 Solana address (the ed25519 public key) of a 32-byte seed. */
export const solanaAddressOf = (seed: Uint8Array): string => {
  const publicKey = Buffer.from(createPublicKey(ed25519PrivateKey(seed)).export({ format: "jwk" }).x ?? "", "base64url")
  return getBase58Decoder().decode(publicKey)
}

/** A 6-digit one-time code, uniformly drawn. */
export const newCode = (): string => randomInt(0, 1_000_000).toString().padStart(6, "0")

/** What the `wallet_codes` table keeps of a code: an HMAC under the master key, bound to the email and purpose. */
export const codeHash = (masterKey: Uint8Array, email: string, purpose: string, code: string): string =>
  createHmac("sha256", masterKey).update(`wallet-code:${purpose}:${email}:${code}`).digest("hex")

/** Compares two hex hashes in constant time. */
export const sameHash = (a: string, b: string): boolean => {
  const x = Buffer.from(a, "hex")
  const y = Buffer.from(b, "hex")
  return x.length === y.length && timingSafeEqual(x, y)
}

/** A random token (device links, sessions): 32 bytes, base64url. */
export const newToken = (): string => randomBytes(32).toString("base64url")

/** What the tables keep of a token: its SHA-256, hex. */
export const tokenHash = (token: string): string => createHash("sha256").update(token, "utf8").digest("hex")
