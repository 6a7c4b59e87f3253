/**
 * The frame's split keys (server/src/embedded/frame/keyShares.ts): a key per family from the CSPRNG with the address
 * the wallet server's own derivation gives (keys.ts, on viem and node's crypto: an independent implementation), any
 * two of the three shares make it again, and every wrong, mixed or altered share is refused by name, never turned
 * into another key; a rotation keeps the key and address and retires the old shares.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit } from "effect"
import {
  combineShares,
  createSplitKey,
  decodeShare,
  encodeShare,
  newKey,
  rotateShares,
  splitKey,
  splitProofMessage,
  withKey
} from "../../../server/src/embedded/frame/keyShares"
import type { KeyFamily, KeyShare } from "../../../server/src/embedded/sharesApi"
import { evmAddressOf as serverEvmAddressOf, solanaAddressOf as serverSolanaAddressOf } from "../../../server/src/embedded/server/keys"
import { createPublicKey, verify } from "node:crypto"
import { bytesToHex, recoverMessageAddress } from "viem"
import { fromBase58, fromBase64, toBase64 } from "../../../src/domain/encoding"

const FAMILIES: ReadonlyArray<KeyFamily> = ["eip155", "solana"]
const serverAddressOf = (family: KeyFamily, secret: Uint8Array) => (family === "eip155" ? serverEvmAddressOf(secret) : serverSolanaAddressOf(secret))

// The failure's tag and words of an effect that must fail.
const failureOf = <A, E extends { readonly _tag: string; readonly message: string }>(effect: Effect.Effect<A, E>) =>
  Effect.map(Effect.flip(effect), (error) => ({ tag: error._tag, message: error.message }))

const pairs = (split: { readonly device: KeyShare; readonly server: KeyShare; readonly recovery: KeyShare }) => [
  [split.device, split.server],
  [split.server, split.recovery],
  [split.recovery, split.device]
]

describe.each(FAMILIES)("%s", (family) => {
  const owner = (address: string, userId = "user-1") => ({ userId, family, address })

  it("a new key's address is the one the wallet server's derivation gives", () => {
    const key = newKey(family)
    expect(key.secret).toHaveLength(32)
    expect(key.address).toBe(serverAddressOf(family, key.secret))
    expect(newKey(family).address).not.toBe(key.address)
  })

  it.effect("any two of the three shares make the key again, checked against its address", () =>
    Effect.gen(function* () {
      const key = newKey(family)
      const split = yield* splitKey(owner(key.address), key.secret)
      expect([split.device.role, split.server.role, split.recovery.role]).toEqual(["device", "server", "recovery"])
      for (const share of [split.device, split.server, split.recovery]) {
        expect(share).toMatchObject({ version: 1, userId: "user-1", family, address: key.address, splitId: split.splitId })
      }
      for (const pair of pairs(split)) {
        const secret = yield* combineShares(owner(key.address), pair)
        expect(secret).toEqual(key.secret)
      }
      // One share alone is not the key, nor any part of it in the clear.
      expect(fromBase64(split.device.share)?.subarray(0, 32)).not.toEqual(key.secret)
    })
  )

  it.effect("createSplitKey makes the key in the call and hands out only its shares", () =>
    Effect.gen(function* () {
      const split = yield* createSplitKey("user-2", family)
      const secret = yield* combineShares(owner(split.address, "user-2"), [split.server, split.recovery])
      expect(serverAddressOf(family, secret)).toBe(split.address)
    })
  )

  it.effect("withKey wipes the key once the operation is done, and when it fails", () =>
    Effect.gen(function* () {
      const split = yield* createSplitKey("user-3", family)
      let seen: Uint8Array | undefined
      const address = yield* withKey(owner(split.address, "user-3"), [split.device, split.server], (secret) => {
        seen = secret
        return Effect.succeed(serverAddressOf(family, secret))
      })
      expect(address).toBe(split.address)
      expect(seen).toEqual(new Uint8Array(32))
      const failed = yield* Effect.exit(
        withKey(owner(split.address, "user-3"), [split.device, split.server], (secret) => {
          seen = secret
          return Effect.fail("refused" as const)
        })
      )
      expect(Exit.isFailure(failed)).toBe(true)
      expect(seen).toEqual(new Uint8Array(32))
    })
  )

  it.effect("a rotation gives new shares of the same key and address; old and new shares do not mix", () =>
    Effect.gen(function* () {
      const key = newKey(family)
      const first = yield* splitKey(owner(key.address), key.secret)
      const second = yield* rotateShares(owner(key.address), [first.device, first.recovery])
      expect(second.address).toBe(key.address)
      expect(second.splitId).not.toBe(first.splitId)
      expect(second.server.share).not.toBe(first.server.share)
      expect(yield* combineShares(owner(key.address), [second.device, second.server])).toEqual(key.secret)
      expect(yield* failureOf(combineShares(owner(key.address), [first.device, second.server]))).toEqual({
        tag: "SharesMismatch",
        message: "The shares come from different splits of the key (one is from before a rotation): use shares of the same split"
      })
      // The same mix under a forged split id: the key it makes is not the account's, and is refused.
      expect(yield* failureOf(combineShares(owner(key.address), [{ ...first.device, splitId: second.splitId }, second.server]))).toMatchObject({
        tag: "KeyCheckFailed",
        message: expect.stringContaining("one of them is wrong or was altered")
      })
    })
  )

  it.effect("a wrong or altered share is refused with a clear error, never a different key", () =>
    Effect.gen(function* () {
      const key = newKey(family)
      const split = yield* splitKey(owner(key.address), key.secret)
      const bytes = fromBase64(split.server.share) ?? new Uint8Array()
      bytes[0] = (bytes[0] ?? 0) ^ 0x01
      const altered = { ...split.server, share: toBase64(bytes) }
      expect(yield* failureOf(combineShares(owner(key.address), [split.device, altered]))).toEqual({
        tag: "KeyCheckFailed",
        message: `These shares do not make the ${family} key of ${key.address}: one of them is wrong or was altered, so the key was not used`
      })
      const random = { ...split.server, share: toBase64(crypto.getRandomValues(new Uint8Array(33))) }
      expect((yield* failureOf(combineShares(owner(key.address), [split.device, random]))).tag).toMatch(/KeyCheckFailed|SharesMismatch/)
      expect(yield* failureOf(combineShares(owner(key.address), [split.device]))).toEqual({
        tag: "SharesMismatch",
        message: "Two shares are needed to put the key together, 1 given"
      })
      expect(yield* failureOf(combineShares(owner(key.address), [split.device, { ...split.server, role: "device" }]))).toEqual({
        tag: "SharesMismatch",
        message: "Two of the shares are the same holder's: two different shares are needed"
      })
    })
  )

  it.effect("another user's share, or one of another family or address, is refused by its tag", () =>
    Effect.gen(function* () {
      const mine = yield* createSplitKey("alice", family)
      const theirs = yield* createSplitKey("bob", family)
      const other = yield* createSplitKey("alice", family === "eip155" ? "solana" : "eip155")
      const alice = owner(mine.address, "alice")
      expect(yield* failureOf(combineShares(alice, [mine.device, theirs.server]))).toEqual({
        tag: "SharesMismatch",
        message: "The server share belongs to another user's key"
      })
      expect((yield* failureOf(combineShares(alice, [mine.device, other.server]))).message).toBe(
        `The server share is part of a ${other.server.family} key, not the ${family} key`
      )
      // Bob's share retagged as Alice's: the tags agree but the key is not Alice's.
      const forged = { ...theirs.server, userId: "alice", address: mine.address, splitId: mine.splitId }
      expect((yield* failureOf(combineShares(alice, [mine.device, forged]))).tag).toBe("KeyCheckFailed")
      // Alice's own shares asked for Bob's address.
      expect((yield* failureOf(combineShares(owner(theirs.address, "alice"), [mine.device, mine.server]))).message).toBe(
        `The device share is part of the key of ${mine.address}, not of ${theirs.address}`
      )
    })
  )

  it.effect("a split carries the key's signature of it, which another implementation checks (viem's EIP-191, node's ed25519)", () =>
    Effect.gen(function* () {
      const split = yield* createSplitKey("user-5", family)
      const message = splitProofMessage(owner(split.address, "user-5"), split.splitId)
      const signature = fromBase64(split.proof) ?? new Uint8Array()
      if (family === "eip155") {
        expect(yield* Effect.promise(() => recoverMessageAddress({ message, signature: bytesToHex(signature) }))).toBe(split.address)
      } else {
        // The raw public key as a SPKI DER: the 12-byte ed25519 prefix, then the 32 bytes.
        const spki = Buffer.concat([Buffer.from("302a300506032b6570032100", "hex"), fromBase58(split.address) ?? new Uint8Array()])
        const publicKey = createPublicKey({ key: spki, format: "der", type: "spki" })
        expect(verify(null, new TextEncoder().encode(message), publicKey, signature)).toBe(true)
        expect(verify(null, new TextEncoder().encode(message.replace("user-5", "user-6")), publicKey, signature)).toBe(false)
      }
    })
  )

  it.effect("splitting a key under another address is refused", () =>
    Effect.gen(function* () {
      const key = newKey(family)
      const other = newKey(family)
      expect(yield* failureOf(splitKey(owner(other.address), key.secret))).toEqual({
        tag: "KeyCheckFailed",
        message: `This key is not the ${family} key of ${other.address}: it was not split`
      })
    })
  )
})

describe("a share's text", () => {
  it.effect("reads back as the same share; anything else is a clear error", () =>
    Effect.gen(function* () {
      const split = yield* createSplitKey("user-4", "eip155")
      expect(yield* decodeShare(encodeShare(split.device))).toEqual(split.device)
      for (const text of ["", "{}", "not json", encodeShare({ ...split.device, version: 2 as 1 }), encodeShare({ ...split.device, share: "AAAA" })]) {
        const failure = yield* failureOf(decodeShare(text))
        expect(failure.tag).toBe("ShareUnreadable")
        expect(failure.message).toMatch(/^This is not a key share this wallet can read: /)
      }
    })
  )
})
