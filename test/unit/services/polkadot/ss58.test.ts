/**
 * SS58 at its boundaries, checked against @polkadot/util-crypto (the reference implementation, a dev dependency):
 * the one-byte and two-byte prefixes (63, 64, 16383), the reserved 46 and 47, a mistyped character (bad checksum),
 * a short account index, characters outside base58, and 33-byte ecdsa keys; each well-known network's prefix.
 */
import { blake2b } from "@noble/hashes/blake2"
import { decodeAddress, encodeAddress } from "@polkadot/util-crypto"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { toBase58 } from "../../../../src/domain/encoding"
import { kusama, polkadot, solana, westend } from "../../../../src/domain/networks"
import { decodeSs58, encodeSs58, isSs58Address, reencodeSs58, ss58PrefixOf } from "../../../../src/services/polkadot/ss58"

// //Alice's sr25519 account, as every Substrate tool prints it.
const ALICE_GENERIC = "5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY"
const ALICE_POLKADOT = "15oF4uVJwmo4TdGW7VfQxNLavjCXviqxT9S1MgbjMNHr6Sp5"
const ALICE_KUSAMA = "HNZata7iMYWmk5RvZRTiAsSDhV8366zq2YGb3tLH5Upf74F"
const aliceId = decodeAddress(ALICE_GENERIC)

/** SS58 bytes with their checksum, whatever their prefix byte (to build addresses no encoder would write). */
const withChecksum = (body: ReadonlyArray<number>) => {
  const bytes = Uint8Array.from(body)
  const sum = blake2b(Uint8Array.from([...new TextEncoder().encode("SS58PRE"), ...bytes]), { dkLen: 64 })
  return toBase58(Uint8Array.from([...bytes, sum[0]!, sum[1]!]))
}

const BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"

/** The address with its last character replaced by another base58 one: same length, checksum broken. */
const mistyped = (address: string) => {
  const last = address.at(-1)!
  const other = BASE58[(BASE58.indexOf(last) + 1) % 58]!
  return address.slice(0, -1) + other
}

describe("SS58", () => {
  it("gives each relay chain its prefix: Polkadot 0, Kusama 2, Westend 42, any other network 42", () => {
    expect([polkadot, kusama, westend, solana].map(ss58PrefixOf)).toEqual([0, 2, 42, 42])
  })

  it("encodes one account as every network writes it", () => {
    expect(encodeSs58(aliceId, 0)).toBe(ALICE_POLKADOT)
    expect(encodeSs58(aliceId, 2)).toBe(ALICE_KUSAMA)
    expect(encodeSs58(aliceId, 42)).toBe(ALICE_GENERIC)
    expect(reencodeSs58(ALICE_GENERIC, 0)).toBe(ALICE_POLKADOT)
    expect(reencodeSs58(ALICE_POLKADOT, 42)).toBe(ALICE_GENERIC)
  })

  it("decodes the prefix and the account id", () => {
    for (const [address, prefix] of [[ALICE_POLKADOT, 0], [ALICE_KUSAMA, 2], [ALICE_GENERIC, 42]] as const) {
      const decoded = decodeSs58(address)
      expect(decoded).toEqual({ prefix, accountId: aliceId })
    }
  })

  it("agrees with @polkadot/util-crypto on the prefixes around the one-byte/two-byte edge and at the top", () => {
    for (const prefix of [0, 1, 2, 42, 63, 64, 65, 255, 256, 1000, 16_382, 16_383]) {
      const address = encodeAddress(aliceId, prefix)
      expect(encodeSs58(aliceId, prefix)).toBe(address)
      expect(decodeSs58(address)).toEqual({ prefix, accountId: aliceId })
    }
  })

  it("agrees with @polkadot/util-crypto on any account id and prefix", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.integer({ min: 0, max: 16_383 }).filter((prefix) => prefix !== 46 && prefix !== 47),
        (id, prefix) => {
          const address = encodeAddress(id, prefix)
          expect(encodeSs58(id, prefix)).toBe(address)
          expect(decodeSs58(address)).toEqual({ prefix, accountId: id })
        }
      ),
      { numRuns: 200 }
    )
  })

  it("takes a 33-byte compressed ecdsa key", () => {
    const key = new Uint8Array(33).fill(7)
    key[0] = 2
    const address = encodeAddress(key, 0)
    expect(encodeSs58(key, 0)).toBe(address)
    expect(decodeSs58(address)).toEqual({ prefix: 0, accountId: key })
  })

  it("refuses a mistyped address (bad checksum), whichever character is wrong", () => {
    expect(decodeSs58(mistyped(ALICE_GENERIC))).toBe("bad checksum")
    const middle = ALICE_GENERIC.slice(0, 20) + (ALICE_GENERIC[20] === "a" ? "b" : "a") + ALICE_GENERIC.slice(21)
    expect(decodeSs58(middle)).toBe("bad checksum")
    expect(decodeSs58(mistyped(ALICE_POLKADOT))).toBe("bad checksum")
    expect(() => decodeAddress(mistyped(ALICE_GENERIC))).toThrow()
    expect(isSs58Address(mistyped(ALICE_KUSAMA))).toBe(false)
    expect(reencodeSs58(mistyped(ALICE_KUSAMA), 0)).toBeUndefined()
  })

  it("refuses what is not an account: another alphabet, a short account index, the wrong length, a reserved prefix", () => {
    expect(decodeSs58("0" + ALICE_GENERIC.slice(1))).toBe("not base58")
    expect(decodeSs58("")).toBe("wrong length")
    expect(decodeSs58("F7NZ")).toBe("wrong length")
    expect(decodeSs58(ALICE_GENERIC.slice(0, -4))).toBe("wrong length")
    expect(decodeSs58(ALICE_GENERIC + ALICE_GENERIC)).toBe("wrong length")
    // An EVM address is not an SS58 one.
    expect(isSs58Address("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266")).toBe(false)
    expect(decodeSs58(withChecksum([46, ...aliceId]))).toBe("reserved prefix")
    expect(decodeSs58(withChecksum([47, ...aliceId]))).toBe("reserved prefix")
    expect(decodeSs58(withChecksum([0x80, ...aliceId]))).toBe("reserved prefix")
    expect(decodeSs58(withChecksum([42, ...aliceId]))).toEqual({ prefix: 42, accountId: aliceId })
    expect(() => encodeSs58(aliceId, 46)).toThrow("not an SS58 network prefix")
    expect(() => encodeSs58(aliceId, 47)).toThrow("not an SS58 network prefix")
    expect(() => encodeSs58(aliceId, 16_384)).toThrow("not an SS58 network prefix")
    expect(() => encodeSs58(aliceId.slice(1), 0)).toThrow("32 or 33 bytes")
  })
})
