/**
 * The embedded wallet's split keys, frame side (issue 30, item 1; groundwork, not yet wired into signing): a key per
 * family made from the browser's CSPRNG, split 2-of-3 with the audited `shamir-secret-sharing` into a device, a
 * server and a recovery share, each tagged with who and what it is for; any two put back together only when they
 * agree on their tags AND the key they make has the account's known address, so a wrong, another user's or another
 * split's share is refused by name, never turned into a silently different key.
 *
 * What JavaScript can promise about the key's bytes: the `Uint8Array`s this module makes and hands back are zeroed by
 * `withKey` once the operation is done, and the module's own intermediate buffers (the split's secret, a combine's
 * result that failed its check) are zeroed before they are dropped. It cannot promise more: a garbage-collected
 * engine may have copied a buffer while compacting its heap, the curve libraries compute with bigints that are
 * immutable and cannot be wiped, and a string (base64 of a share) stays until it is collected. The key is whole only
 * for the length of one operation, inside the frame's origin.
 */
import { secp256k1 } from "@noble/curves/secp256k1"
import { ed25519 } from "@noble/curves/ed25519"
import { keccak_256 } from "@noble/hashes/sha3"
import { Data, Effect, Schema } from "effect"
import { combine, split } from "shamir-secret-sharing"
import { fromBase64, toBase58, toBase64 } from "../../../../src/domain/encoding"
import { toChecksumAddress } from "../../../../src/domain/validation"
import { type KeyFamily, type KeyShare, KeyShareJson, SHARE_VERSION, type ShareRole } from "../sharesApi"

/** The bytes of a key: 32 for both families. */
export const KEY_BYTES = 32

/** The three shares of one split, the address they make, and the key's signature of {@link splitProofMessage}. */
export interface SplitShares {
  readonly address: string
  readonly splitId: string
  readonly device: KeyShare
  readonly server: KeyShare
  readonly recovery: KeyShare
  /** Base64: eip155 an EIP-191 signature (r, s, v), solana an ed25519 signature. */
  readonly proof: string
}

/** Whose key a share must be part of: the user, the family and the account's known address. */
export interface KeyOwner {
  readonly userId: string
  readonly family: KeyFamily
  readonly address: string
}

/** A share that does not decode as a share (malformed text, unknown version, wrong length). */
export class ShareUnreadable extends Data.TaggedError("ShareUnreadable")<{ readonly message: string }> {}

/**
 * Shares that cannot be combined for this owner: one is tagged for another user, family, address or split, two are
 * the same holder's, or fewer than two were given. Nothing was combined.
 */
export class SharesMismatch extends Data.TaggedError("SharesMismatch")<{ readonly message: string }> {}

/** Two shares combined into a key whose address is not the account's: a wrong or altered share. The key was wiped. */
export class KeyCheckFailed extends Data.TaggedError("KeyCheckFailed")<{ readonly message: string }> {}

/** The checksummed EVM address of a 32-byte secp256k1 private key. */
export const evmAddressOf = (secret: Uint8Array): string => {
  const publicKey = secp256k1.getPublicKey(secret, false)
  // The address is the last 20 bytes of the Keccak-256 of the uncompressed point without its 0x04 prefix.
  const hash = keccak_256(publicKey.subarray(1))
  let hex = ""
  for (const byte of hash.subarray(12)) hex += byte.toString(16).padStart(2, "0")
  return toChecksumAddress(hex)
}

/** The base58 Solana address (the ed25519 public key) of a 32-byte seed. */
export const solanaAddressOf = (seed: Uint8Array): string => toBase58(ed25519.getPublicKey(seed))

/** The address of a family's key. */
export const addressOf = (family: KeyFamily, secret: Uint8Array): string =>
  family === "eip155" ? evmAddressOf(secret) : solanaAddressOf(secret)

/** Whether 32 bytes are a usable key of `family`: secp256k1 wants 0 < key < n; any ed25519 seed is usable. */
const usableKey = (family: KeyFamily, secret: Uint8Array): boolean =>
  family === "solana" || secp256k1.utils.isValidSecretKey(secret)

/** `length` bytes from the platform's CSPRNG (`crypto.getRandomValues`: the browser's, and node's web crypto). */
export const randomBytes = (length: number): Uint8Array => crypto.getRandomValues(new Uint8Array(length))

/** A fresh key of `family` from the CSPRNG (drawn again in the ~2^-128 case secp256k1 refuses it), and its address. */
export const newKey = (family: KeyFamily): { readonly secret: Uint8Array; readonly address: string } => {
  for (;;) {
    const secret = randomBytes(KEY_BYTES)
    if (usableKey(family, secret)) return { secret, address: addressOf(family, secret) }
    secret.fill(0)
  }
}

const ROLES: ReadonlyArray<ShareRole> = ["device", "server", "recovery"]
const encoder = new TextEncoder()

/**
 * What a split's key signs so that the wallet server keeps the split only from whoever holds the key: a fresh
 * session alone cannot replace a user's shares with others.
 */
export const splitProofMessage = (owner: KeyOwner, splitId: string): string =>
  `Wallet Runtime split key\nuser: ${owner.userId}\nfamily: ${owner.family}\naddress: ${owner.address}\nsplit: ${splitId}`

// The key's signature of `message`: ed25519 on solana; on eip155 an EIP-191 personal message, r ‖ s ‖ v (27 + parity).
const signProof = (family: KeyFamily, secret: Uint8Array, message: string): string => {
  const bytes = encoder.encode(message)
  if (family === "solana") return toBase64(ed25519.sign(bytes, secret))
  const prefix = encoder.encode(`\x19Ethereum Signed Message:\n${bytes.length}`)
  const prefixed = new Uint8Array(prefix.length + bytes.length)
  prefixed.set(prefix)
  prefixed.set(bytes, prefix.length)
  const signature = secp256k1.sign(keccak_256(prefixed), secret)
  return toBase64(Uint8Array.from([...signature.toCompactRawBytes(), 27 + signature.recovery]))
}

/**
 * Splits `secret` 2-of-3 for `owner`: three shares under a new split id, any two of which make `secret` again. The
 * owner's address must be the key's (checked, so a split never records a wrong address). `secret` is left as it is:
 * its holder wipes it.
 */
export const splitKey = Effect.fn("KeyShares.splitKey")(function* (owner: KeyOwner, secret: Uint8Array) {
  if (secret.length !== KEY_BYTES) return yield* new SharesMismatch({ message: `A ${owner.family} key is ${KEY_BYTES} bytes, not ${secret.length}` })
  if (addressOf(owner.family, secret) !== owner.address) {
    return yield* new KeyCheckFailed({ message: `This key is not the ${owner.family} key of ${owner.address}: it was not split` })
  }
  // The library reads its argument only; a copy of ours is wiped below whatever happens.
  const copy = secret.slice()
  const parts = yield* Effect.promise(() => split(copy, 3, 2)).pipe(Effect.ensuring(Effect.sync(() => copy.fill(0))))
  const splitId = toBase64(randomBytes(16))
  const share = (index: number): KeyShare => {
    const bytes = parts[index] ?? new Uint8Array()
    const tagged: KeyShare = { version: SHARE_VERSION, role: ROLES[index] ?? "device", ...owner, splitId, share: toBase64(bytes) }
    bytes.fill(0)
    return tagged
  }
  const [device, server, recovery] = [share(0), share(1), share(2)]
  const proof = signProof(owner.family, secret, splitProofMessage(owner, splitId))
  return { address: owner.address, splitId, device, server, recovery, proof } satisfies SplitShares
})

/** Makes a key of `family` for `userId` in the frame and splits it: the key itself never leaves this call. */
export const createSplitKey = Effect.fn("KeyShares.createSplitKey")(function* (userId: string, family: KeyFamily) {
  const key = newKey(family)
  return yield* splitKey({ userId, family, address: key.address }, key.secret).pipe(Effect.ensuring(Effect.sync(() => key.secret.fill(0))))
})

/** Reads a share's text (JSON); a clear error when it is not a share this version knows. */
export const decodeShare = (text: string): Effect.Effect<KeyShare, ShareUnreadable> =>
  Schema.decodeUnknownEffect(KeyShareJson)(text).pipe(
    Effect.mapError((error) => new ShareUnreadable({ message: `This is not a key share this wallet can read: ${error.message}` }))
  )

/** A share as text (JSON). */
export const encodeShare = (share: KeyShare): string => JSON.stringify(share)

/** Refuses shares that are not two (or three) different holders' shares of one split of this owner's key. */
const checkTags = (owner: KeyOwner, shares: ReadonlyArray<KeyShare>): Effect.Effect<void, SharesMismatch> =>
  Effect.gen(function* () {
    if (shares.length < 2) return yield* new SharesMismatch({ message: `Two shares are needed to put the key together, ${shares.length} given` })
    for (const share of shares) {
      if (share.userId !== owner.userId) return yield* new SharesMismatch({ message: `The ${share.role} share belongs to another user's key` })
      if (share.family !== owner.family) {
        return yield* new SharesMismatch({ message: `The ${share.role} share is part of a ${share.family} key, not the ${owner.family} key` })
      }
      if (share.address !== owner.address) {
        return yield* new SharesMismatch({ message: `The ${share.role} share is part of the key of ${share.address}, not of ${owner.address}` })
      }
    }
    if (new Set(shares.map((share) => share.splitId)).size > 1) {
      return yield* new SharesMismatch({ message: "The shares come from different splits of the key (one is from before a rotation): use shares of the same split" })
    }
    if (new Set(shares.map((share) => share.role)).size < shares.length) {
      return yield* new SharesMismatch({ message: "Two of the shares are the same holder's: two different shares are needed" })
    }
  })

/**
 * Puts `owner`'s key together from two (or three) shares and checks it derives to the owner's address before handing
 * it out: a share that is wrong (altered, or another split's under a forged tag) is a {@link KeyCheckFailed}, and the
 * bytes it made are wiped. The caller owns the key it gets and must wipe it; prefer {@link withKey}.
 */
export const combineShares = Effect.fn("KeyShares.combineShares")(function* (owner: KeyOwner, shares: ReadonlyArray<KeyShare>) {
  yield* checkTags(owner, shares)
  const parts = shares.map((share) => fromBase64(share.share) ?? new Uint8Array())
  const secret = yield* Effect.tryPromise({
    try: () => combine(parts),
    catch: (cause) => new SharesMismatch({ message: `The shares cannot be combined: ${cause instanceof Error ? cause.message : String(cause)}` })
  }).pipe(Effect.ensuring(Effect.sync(() => parts.forEach((part) => part.fill(0)))))
  if (secret.length !== KEY_BYTES || !usableKey(owner.family, secret) || addressOf(owner.family, secret) !== owner.address) {
    secret.fill(0)
    return yield* new KeyCheckFailed({
      message: `These shares do not make the ${owner.family} key of ${owner.address}: one of them is wrong or was altered, so the key was not used`
    })
  }
  return secret
})

/**
 * Runs `use` with `owner`'s key put together from `shares`, and wipes the key when `use` ends, however it ends: the
 * shape signing in the frame takes (the key exists for one operation).
 */
export const withKey = <A, E, R>(owner: KeyOwner, shares: ReadonlyArray<KeyShare>, use: (secret: Uint8Array) => Effect.Effect<A, E, R>) =>
  Effect.acquireUseRelease(combineShares(owner, shares), use, (secret) => Effect.sync(() => secret.fill(0)))

/**
 * The key as its family's wallets import it: eip155 a 0x-prefixed hex private key; solana the base58 of the 64-byte
 * keypair (seed then public key), as Solana's wallets and CLI read it.
 */
export const exportedKey = (family: KeyFamily, secret: Uint8Array): string => {
  if (family === "eip155") return `0x${Array.from(secret, (byte) => byte.toString(16).padStart(2, "0")).join("")}`
  const keypair = new Uint8Array(64)
  keypair.set(secret, 0)
  keypair.set(ed25519.getPublicKey(secret), 32)
  const text = toBase58(keypair)
  keypair.fill(0)
  return text
}

/**
 * A rotation: two shares of the current split put the key together (checked against the address) and it is split
 * again under a new split id. The key and its address stay; every share of the old split stops combining with the
 * new ones.
 */
export const rotateShares = Effect.fn("KeyShares.rotateShares")(function* (owner: KeyOwner, shares: ReadonlyArray<KeyShare>) {
  return yield* withKey(owner, shares, (secret) => splitKey(owner, secret))
})
