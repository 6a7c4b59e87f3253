/**
 * The recovery share's protection (server/src/embedded/frame/recoveryShare.ts): sealed under a password (scrypt) or a
 * passkey's PRF output, it opens with that secret only, for that account only; a wrong secret, an altered envelope or
 * one moved to another account is refused with a clear error.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { combineShares, createSplitKey } from "../../../server/src/embedded/frame/keyShares"
import {
  deriveRecoveryKeys,
  openRecoveryShare,
  type RecoverySecret,
  SCRYPT_PARAMS,
  sealRecoveryShare
} from "../../../server/src/embedded/frame/recoveryShare"
import type { RecoveryEnvelope } from "../../../server/src/embedded/sharesApi"
import { fromBase64, toBase64 } from "../../../src/domain/encoding"

const password = (text: string): RecoverySecret => ({ _tag: "password", password: text })
const passkey = (prf: Uint8Array): RecoverySecret => ({ _tag: "passkey", prf })
const UNREADABLE =
  "The recovery share could not be opened: the password or passkey is not the one it was protected with, or the stored copy was altered"

// Each password derivation is scrypt at its real cost (~0.5 s here); a test running several needs more than 5 s.
const SCRYPT_TEST_TIMEOUT = 60_000

const failureOf = <A, E extends { readonly _tag: string; readonly message: string }>(effect: Effect.Effect<A, E>) =>
  Effect.map(Effect.flip(effect), (error) => ({ tag: error._tag, message: error.message }))

const flipped = (base64: string, at: number) => {
  const bytes = fromBase64(base64) ?? new Uint8Array()
  bytes[at] = (bytes[at] ?? 0) ^ 0x80
  return toBase64(bytes)
}

describe("a recovery share under a password", () => {
  it.effect("opens with the password and puts the key together with the server share", () =>
    Effect.gen(function* () {
      const split = yield* createSplitKey("user-1", "eip155")
      const owner = { userId: "user-1", family: "eip155" as const, address: split.address }
      const sealed = yield* sealRecoveryShare(owner, split.recovery, password("correct horse battery staple"))
      expect(sealed.envelope.kdf).toMatchObject({ name: "scrypt", ...SCRYPT_PARAMS })
      expect(sealed.envelope.version).toBe(1)
      // The envelope holds no share in the clear.
      expect(JSON.stringify(sealed.envelope)).not.toContain(split.recovery.share)
      const share = yield* openRecoveryShare(owner, sealed.envelope, password("correct horse battery staple"))
      expect(share).toEqual(split.recovery)
      const key = yield* combineShares(owner, [share, split.server])
      expect(key).toHaveLength(32)
      // The verifier the server keeps is the one the same password gives again, and not the AEAD key.
      const again = yield* deriveRecoveryKeys(owner, password("correct horse battery staple"), sealed.envelope.kdf)
      expect(toBase64(again.verifier)).toBe(sealed.verifier)
      expect(toBase64(again.key)).not.toBe(sealed.verifier)
    }),
    SCRYPT_TEST_TIMEOUT
  )

  it.effect("a wrong password, an altered envelope or another account's binding is refused with a clear error", () =>
    Effect.gen(function* () {
      const split = yield* createSplitKey("user-2", "solana")
      const owner = { userId: "user-2", family: "solana" as const, address: split.address }
      const { envelope } = yield* sealRecoveryShare(owner, split.recovery, password("hunter2hunter2"))
      expect(yield* failureOf(openRecoveryShare(owner, envelope, password("hunter2hunter3")))).toEqual({ tag: "RecoveryUnreadable", message: UNREADABLE })
      const altered: ReadonlyArray<RecoveryEnvelope> = [
        { ...envelope, ciphertext: flipped(envelope.ciphertext, 5) },
        { ...envelope, nonce: flipped(envelope.nonce, 0) },
        { ...envelope, kdf: { ...envelope.kdf, salt: flipped(envelope.kdf.salt, 0) } },
        { ...envelope, ciphertext: envelope.ciphertext.slice(0, 20) }
      ]
      for (const tampered of altered) {
        expect(yield* failureOf(openRecoveryShare(owner, tampered, password("hunter2hunter2")))).toEqual({ tag: "RecoveryUnreadable", message: UNREADABLE })
      }
      // Moved to another user, family or address: the associated data no longer matches.
      for (const other of [{ ...owner, userId: "user-3" }, { ...owner, family: "eip155" as const }, { ...owner, address: "11111111111111111111111111111111" }]) {
        expect((yield* failureOf(openRecoveryShare(other, envelope, password("hunter2hunter2")))).tag).toBe("RecoveryUnreadable")
      }
      expect(yield* failureOf(openRecoveryShare(owner, envelope, passkey(new Uint8Array(32))))).toEqual({
        tag: "RecoverySecretInvalid",
        message: "This recovery share is protected by a password, not a passkey"
      })
    }),
    SCRYPT_TEST_TIMEOUT
  )

  it.effect("only the account's own recovery share is sealed, and never under an empty password", () =>
    Effect.gen(function* () {
      const split = yield* createSplitKey("user-4", "eip155")
      const owner = { userId: "user-4", family: "eip155" as const, address: split.address }
      expect((yield* failureOf(sealRecoveryShare(owner, split.server, password("long enough")))).message).toBe(
        "Only the account's own recovery share is sealed for recovery"
      )
      expect(yield* failureOf(sealRecoveryShare(owner, split.recovery, password("")))).toEqual({ tag: "RecoverySecretInvalid", message: "The password is empty" })
    }),
    SCRYPT_TEST_TIMEOUT
  )
})

describe("a recovery share under a passkey's PRF output", () => {
  it.effect("opens with the same 32 bytes only", () =>
    Effect.gen(function* () {
      const split = yield* createSplitKey("user-5", "eip155")
      const owner = { userId: "user-5", family: "eip155" as const, address: split.address }
      const prf = crypto.getRandomValues(new Uint8Array(32))
      const sealed = yield* sealRecoveryShare(owner, split.recovery, passkey(prf))
      expect(sealed.envelope.kdf.name).toBe("passkey-prf")
      expect(yield* openRecoveryShare(owner, sealed.envelope, passkey(prf.slice()))).toEqual(split.recovery)
      const other = prf.slice()
      other[31] = (other[31] ?? 0) ^ 1
      expect(yield* failureOf(openRecoveryShare(owner, sealed.envelope, passkey(other)))).toEqual({ tag: "RecoveryUnreadable", message: UNREADABLE })
      expect(yield* failureOf(openRecoveryShare(owner, sealed.envelope, password("a password")))).toEqual({
        tag: "RecoverySecretInvalid",
        message: "This recovery share is protected by a passkey, not a password"
      })
      expect((yield* failureOf(sealRecoveryShare(owner, split.recovery, passkey(new Uint8Array(16))))).message).toBe("A passkey's PRF output is 32 bytes, not 16")
    }),
    SCRYPT_TEST_TIMEOUT
  )
})

describe("a recovery share under the frame's device secret (before a password or passkey protects it)", () => {
  const device = (secret: Uint8Array): RecoverySecret => ({ _tag: "device", secret })

  it.effect("opens with that secret only; a password, a passkey or a secret of another length is refused by name", () =>
    Effect.gen(function* () {
      const split = yield* createSplitKey("user-d", "eip155")
      const owner = { userId: "user-d", family: "eip155" as const, address: split.address }
      const secret = crypto.getRandomValues(new Uint8Array(32))
      const sealed = yield* sealRecoveryShare(owner, split.recovery, device(secret))
      expect(sealed.envelope.kdf).toEqual({ name: "device", salt: expect.any(String) })
      expect(yield* openRecoveryShare(owner, sealed.envelope, device(secret))).toEqual(split.recovery)
      expect(yield* failureOf(openRecoveryShare(owner, sealed.envelope, device(crypto.getRandomValues(new Uint8Array(32)))))).toEqual({
        tag: "RecoveryUnreadable",
        message: UNREADABLE
      })
      expect(yield* failureOf(openRecoveryShare(owner, sealed.envelope, password("a password")))).toEqual({
        tag: "RecoverySecretInvalid",
        message: "This recovery share is protected by this device's secret, not a password"
      })
      expect(yield* failureOf(openRecoveryShare(owner, sealed.envelope, passkey(new Uint8Array(32))))).toEqual({
        tag: "RecoverySecretInvalid",
        message: "This recovery share is protected by this device's secret, not a passkey"
      })
      expect(yield* failureOf(sealRecoveryShare(owner, split.recovery, device(new Uint8Array(16))))).toEqual({
        tag: "RecoverySecretInvalid",
        message: "A device secret is 32 bytes, not 16"
      })
    })
  )
})
