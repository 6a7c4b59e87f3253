/**
 * BIP-322 simple signatures as the Bitcoin test wallet makes them and the tests check them: the BIP's own vectors
 * (message hashes, to_spend / to_sign txids, and Bitcoin Core's signature of "Hello World" verifying), our
 * signatures for P2WPKH and P2TR verifying for their message and address only, and the test wallet's Wallet Standard
 * object answering `bitcoin:signMessage` with such a signature.
 */
import { NETWORK, OutScript, Address } from "@scure/btc-signer"
import { describe, expect, it } from "vitest"
import { bip322MessageHash, signBip322, toSign, toSpend, verifyBip322 } from "../../../../server/src/bitcoin/bip322"
import { devBitcoinKey, REGTEST } from "../../../../devstack/bitcoin/keys"
import { makeBitcoinTestWallet } from "../../../../devstack/wallet/bitcoin/testWallet"
import { toBase64 } from "../../../../src/domain/encoding"

const hexOf = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex")
const VECTOR_ADDRESS = "bc1q9vza2e8x573nczrlzms0wvx3gsqjx7vavgkx0l"
const HELLO_SIGNATURE =
  "AkcwRAIgZRfIY3p7/DoVTty6YZbWS71bc5Vct9p9Fia83eRmw2QCICK/ENGfwLtptFluMGs2KsqoNSk89pO7F29zJLUx9a/sASECx/EgAxlkQpQ9hYjgGu6EBCPMVPwVIVJqO4XCsMvViHI="

describe("BIP-322 simple", () => {
  it("follows the BIP's test vectors: message hashes, the virtual transactions, and Bitcoin Core's signature", () => {
    const text = (message: string) => new TextEncoder().encode(message)
    expect(hexOf(bip322MessageHash(text("")))).toBe("c90c269c4f8fcbe6880f72a721ddfbf1914268a794cbb21cfafee13770ae19f1")
    expect(hexOf(bip322MessageHash(text("Hello World")))).toBe("f0eb03b1a75ac6d9847f55c624a99169b5dccba2a31f5b23bea77ba270de0a7a")
    const script = OutScript.encode(Address(NETWORK).decode(VECTOR_ADDRESS))
    expect(toSpend(script, "").id).toBe("c5680aa69bb8d860bf82d4e9cd3504b55dde018de765a91bb566283c545a99a7")
    expect(toSpend(script, "Hello World").id).toBe("b79d196740ad5217771c1098fc4a4b51e0535c32236c71f1ea4d61a2d603352b")
    expect(toSign(script, "").id).toBe("1e9654e951a5ba44c8604c4de6c67fd78a27e81dcadcfe1edf638ba3aaebaed6")
    expect(toSign(script, "Hello World").id).toBe("88737ae86f2077145f93cc4b153ae9a1cb8d56afa511988c149c5c8c9d93bddf")
    expect(verifyBip322(VECTOR_ADDRESS, NETWORK, "Hello World", HELLO_SIGNATURE)).toBe(true)
    expect(verifyBip322(VECTOR_ADDRESS, NETWORK, "Hello World.", HELLO_SIGNATURE)).toBe(false)
    expect(verifyBip322(VECTOR_ADDRESS, NETWORK, "", HELLO_SIGNATURE)).toBe(false)
  })

  it("signs for P2WPKH and P2TR addresses: each verifies for its message and address only; garbage never verifies", () => {
    const key = devBitcoinKey(0)
    const payment = signBip322(key.paymentAddress, REGTEST, Buffer.from(key.paymentPrivateKey, "hex"), "pay me")
    const ordinals = signBip322(key.ordinalsAddress, REGTEST, Buffer.from(key.ordinalsPrivateKey, "hex"), "pay me")
    expect(verifyBip322(key.paymentAddress, REGTEST, "pay me", payment)).toBe(true)
    expect(verifyBip322(key.ordinalsAddress, REGTEST, "pay me", ordinals)).toBe(true)
    expect(verifyBip322(key.ordinalsAddress, REGTEST, "pay me", payment)).toBe(false)
    expect(verifyBip322(key.paymentAddress, REGTEST, "pay you", payment)).toBe(false)
    expect(verifyBip322(devBitcoinKey(1).paymentAddress, REGTEST, "pay me", payment)).toBe(false)
    expect(verifyBip322(key.paymentAddress, REGTEST, "pay me", "bm90IGEgd2l0bmVzcw==")).toBe(false)
    // A key-path signature is 64 bytes (SIGHASH_DEFAULT); the P2WPKH witness holds a DER signature and the key.
    expect(Buffer.from(ordinals, "base64")[1]).toBe(64)
  })

  it("the test wallet answers bitcoin:signMessage with a BIP-322 signature, once the site is connected", async () => {
    const wallet = makeBitcoinTestWallet({ apiUrl: "http://127.0.0.1:1" })
    const features = wallet.wallet.features as Record<string, Record<string, (...args: ReadonlyArray<unknown>) => Promise<unknown>>>
    const { accounts } = (await features["bitcoin:connect"]!["connect"]!({ purposes: ["payment", "ordinals"] })) as {
      accounts: ReadonlyArray<{ address: string }>
    }
    expect(accounts.map((account) => account.address)).toEqual([wallet.key.paymentAddress, wallet.key.ordinalsAddress])
    const [output] = (await features["bitcoin:signMessage"]!["signMessage"]!({ account: accounts[1], message: new TextEncoder().encode("gm") })) as ReadonlyArray<{
      signature: Uint8Array
    }>
    expect(verifyBip322(wallet.key.ordinalsAddress, REGTEST, "gm", toBase64(output!.signature))).toBe(true)
    expect(wallet.requests).toEqual(["bitcoin:connect", "bitcoin:signMessage"])
  })
})
