/**
 * The Polkadot test wallet itself (devstack/wallet/polkadot): it signs bytes as the polkadot-js extension does
 * (wrapped once), signs a transaction payload's SCALE encoding with the key type's byte in front (hashed past 256
 * bytes), refuses a signed extension it does not know, an account it did not show, and a site it was not let into,
 * and refuses in polkadot-js's words ('Rejected', 'Cancelled').
 */
import { hexToU8a, u8aConcat, u8aToHex, u8aWrapBytes } from "@polkadot/util"
import { blake2AsU8a, ed25519Verify, sr25519Verify } from "@polkadot/util-crypto"
import { describe, expect, it } from "vitest"
import { createPolkadotTestWallet, signingPayloadOf } from "../../../../devstack/wallet/polkadot/testWallet"

const payload = (overrides: Record<string, unknown> = {}) => ({
  address: "",
  blockHash: `0x${"11".repeat(32)}`,
  blockNumber: "0x00000010",
  era: "0x0500",
  genesisHash: `0x${"22".repeat(32)}`,
  method: "0x0403",
  nonce: "0x00000002",
  specVersion: "0x000f4240",
  tip: "0x00000000000000000000000000000000",
  transactionVersion: "0x0000001a",
  signedExtensions: ["CheckNonZeroSender", "CheckSpecVersion", "CheckTxVersion", "CheckGenesis", "CheckMortality", "CheckNonce", "CheckWeight", "ChargeTransactionPayment"],
  version: 4,
  ...overrides
})

describe("the Polkadot test wallet", () => {
  it("encodes a payload as call, extras, then additional data (v4 ExtrinsicPayload), hashing it past 256 bytes", () => {
    const bytes = signingPayloadOf(payload())
    expect(u8aToHex(bytes)).toBe(
      u8aToHex(
        u8aConcat(
          "0x0403", // the call
          "0x0500", // era
          "0x08", // compact nonce 2
          "0x00", // compact tip 0
          "0x40420f00", // spec version 1000000, u32 LE
          "0x1a000000", // transaction version 26
          `0x${"22".repeat(32)}`, // genesis
          `0x${"11".repeat(32)}` // block hash (mortal era)
        )
      )
    )
    const long = payload({ method: `0x${"ab".repeat(300)}` })
    expect(signingPayloadOf(long)).toEqual(blake2AsU8a(u8aConcat(hexToU8a(long.method), signingPayloadOf(payload()).slice(2)), 256))
    expect(() => signingPayloadOf(payload({ signedExtensions: ["CheckSomethingNew"] }))).toThrow("does not know the signed extension CheckSomethingNew")
  })

  it("signs bytes wrapped once, and payloads with the key type's byte in front", async () => {
    const wallet = await createPolkadotTestWallet()
    const [alice, , charlie] = wallet.pairs
    await wallet.backend.enable("Test")
    const data = u8aToHex(new TextEncoder().encode("hi"))
    const raw = await wallet.backend.signRaw({ address: alice!.address, data, type: "bytes" })
    expect(sr25519Verify(u8aWrapBytes("hi"), raw.signature, alice!.publicKey)).toBe(true)
    const already = await wallet.backend.signRaw({ address: alice!.address, data: u8aToHex(u8aWrapBytes("hi")), type: "bytes" })
    expect(sr25519Verify(u8aWrapBytes("hi"), already.signature, alice!.publicKey)).toBe(true)
    const signed = await wallet.backend.signPayload(payload({ address: charlie!.address }))
    expect(signed.signature.slice(0, 4)).toBe("0x00")
    expect(ed25519Verify(signingPayloadOf(payload()), hexToU8a(signed.signature).slice(1), charlie!.publicKey)).toBe(true)
  })

  it("refuses a site it was not let into, an account it did not show, and in polkadot-js's words", async () => {
    const wallet = await createPolkadotTestWallet()
    const alice = wallet.pairs[0]!
    await expect(wallet.backend.signRaw({ address: alice.address, data: "0x00", type: "bytes" })).rejects.toThrow("Unable to find account")
    wallet.setApproval("reject")
    await expect(wallet.backend.enable("Test")).rejects.toThrow(/^Rejected$/)
    wallet.setApproval("approve")
    await wallet.backend.enable("Test")
    expect(await wallet.backend.accounts()).toHaveLength(3)
    await expect(wallet.backend.signRaw({ address: "5FA9nQDVg267DEd8m1ZypXLBnvN7SFxYwV7ndqSYGiN9TTpu", data: "0x00", type: "bytes" })).rejects.toThrow(
      "Unable to find account"
    )
    wallet.setApproval("reject")
    await expect(wallet.backend.signRaw({ address: alice.address, data: "0x00", type: "bytes" })).rejects.toThrow(/^Cancelled$/)
    wallet.revoke()
    expect(await wallet.backend.accounts()).toEqual([])
  })
})
