import { Address, NETWORK, TEST_NETWORK } from "@scure/btc-signer"
import { Result } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { bitcoinNetworkKindOf, isBitcoinAddress, parseBitcoinAddress } from "../../../src/domain/bitcoinAddress"
import { bitcoin, bitcoinRegtest, bitcoinTestnet } from "../../../src/domain/networks"

const REGTEST = { bech32: "bcrt", pubKeyHash: 0x6f, scriptHash: 0xc4, wif: 0xef }
const typeOf = (address: string, kind: "mainnet" | "testnet" | "regtest") => {
  const parsed = parseBitcoinAddress(address, kind)
  return Result.isSuccess(parsed) ? parsed.success.type : undefined
}

describe("Bitcoin networks", () => {
  it("mainnet and regtest by their genesis hashes, every other bip122 network a test network", () => {
    expect([bitcoin, bitcoinTestnet, bitcoinRegtest].map((network) => bitcoinNetworkKindOf(network.caipNetworkId))).toEqual([
      "mainnet",
      "testnet",
      "regtest"
    ])
    // signet
    expect(bitcoinNetworkKindOf("bip122:00000008819873e925422c1ff0f99f7c")).toBe("testnet")
  })
})

describe("Bitcoin addresses", () => {
  it("reads the BIP-173 and BIP-350 examples of each kind", () => {
    expect(typeOf("BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4", "mainnet")).toBe("p2wpkh")
    expect(typeOf("bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4", "mainnet")).toBe("p2wpkh")
    expect(typeOf("bc1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3qccfmv3", "mainnet")).toBe("p2wsh")
    expect(typeOf("tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7", "testnet")).toBe("p2wsh")
    expect(typeOf("bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0", "mainnet")).toBe("p2tr")
    expect(typeOf("1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2", "mainnet")).toBe("p2pkh")
    expect(typeOf("3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy", "mainnet")).toBe("p2sh")
  })

  it("refuses a wrong checksum, the wrong checksum kind for the witness version, mixed case and the wrong network", () => {
    const failing = (address: string, kind: "mainnet" | "testnet" | "regtest") => {
      const parsed = parseBitcoinAddress(address, kind)
      return Result.isFailure(parsed) ? parsed.failure : "accepted"
    }
    expect(failing("bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5", "mainnet")).toContain("wrong checksum")
    // BIP-350: a v1 program with a bech32 (not bech32m) checksum.
    expect(failing("bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqh2y7hd", "mainnet")).toMatch(/checksum/)
    expect(failing("bc1qW508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4", "mainnet")).toContain("mixes upper and lower case")
    expect(failing("bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4", "testnet")).toContain("is not a tb1")
    expect(failing("bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4", "regtest")).toContain("is not a bcrt1")
    expect(failing("1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2", "testnet")).toContain("not a testnet address")
    expect(failing("1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN3", "mainnet")).toContain("wrong checksum")
    expect(failing("0x70997970C51812dc3A010C7d01b50e0d17dc79C8", "mainnet")).not.toBe("accepted")
    expect(isBitcoinAddress("", "mainnet")).toBe(false)
  })

  it("agrees with btc-signer on every address kind of every network, and a changed character is refused", () => {
    const networks = [
      ["mainnet", NETWORK],
      ["testnet", TEST_NETWORK],
      ["regtest", REGTEST]
    ] as const
    const scripts = fc.oneof(
      fc.uint8Array({ minLength: 20, maxLength: 20 }).map((hash) => ({ type: "wpkh" as const, hash, expected: "p2wpkh" })),
      fc.uint8Array({ minLength: 32, maxLength: 32 }).map((hash) => ({ type: "wsh" as const, hash, expected: "p2wsh" })),
      fc.uint8Array({ minLength: 20, maxLength: 20 }).map((hash) => ({ type: "pkh" as const, hash, expected: "p2pkh" })),
      fc.uint8Array({ minLength: 20, maxLength: 20 }).map((hash) => ({ type: "sh" as const, hash, expected: "p2sh" })),
      // A taproot output key must be a valid x coordinate for btc-signer: take one from a real key's output.
      fc.constant({
        type: "tr" as const,
        pubkey: (Address(NETWORK).decode("bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0") as { readonly pubkey: Uint8Array }).pubkey,
        expected: "p2tr"
      })
    )
    fc.assert(
      fc.property(scripts, fc.constantFrom(...networks), fc.nat(), (script, [kind, network], position) => {
        const { expected, ...out } = script
        const address = Address(network).encode(out as Parameters<ReturnType<typeof Address>["encode"]>[0])
        expect(typeOf(address, kind)).toBe(expected)
        // Base58 addresses of testnet and regtest share their version bytes; every other pair differs.
        const base58 = expected === "p2pkh" || expected === "p2sh"
        const others = networks.filter(([other]) => other !== kind && !(base58 && other !== "mainnet" && kind !== "mainnet"))
        for (const [other] of others) expect(typeOf(address, other)).toBeUndefined()
        // Change one character of the data part to another of its alphabet: the checksum catches it.
        const start = address.startsWith("bc") || address.startsWith("tb") ? address.lastIndexOf("1") + 1 : 1
        const index = start + (position % (address.length - start))
        const alphabet = start > 1 ? "qpzry9x8gf2tvdw0s3jn54khce6mua7l" : "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
        const replaced = alphabet[(alphabet.indexOf(address[index]!) + 1) % alphabet.length]!
        expect(typeOf(`${address.slice(0, index)}${replaced}${address.slice(index + 1)}`, kind)).toBeUndefined()
      }),
      { numRuns: 300 }
    )
  })
})
