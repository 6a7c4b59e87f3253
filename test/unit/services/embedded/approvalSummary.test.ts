import {
  address,
  appendTransactionMessageInstructions,
  type Blockhash,
  compileTransaction,
  createTransactionMessage,
  getBase58Encoder,
  getTransactionEncoder,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash
} from "@solana/kit"
import { describe, expect, it } from "vitest"
import { toHexUtf8 } from "../../../../src/services/eip155/eip1193"
import { eip155ApprovalSummary, messageText, nativeValue } from "../../../../src/services/Embedded/approvalSummary"
import { solanaApprovalSummary } from "../../../../src/services/Embedded/solanaSummary"
import { transferSolInstruction } from "../../../../src/services/solana/SolanaAdapter"

const ETH = { symbol: "ETH", decimals: 18 }
const BOB = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8"

describe("eip155 approval summaries", () => {
  it("shows personal_sign's hex message as its text, and bytes that are not text as hex", () => {
    expect(eip155ApprovalSummary("personal_sign", [toHexUtf8("Hello\nworld ✓"), BOB], ETH)).toEqual({ _tag: "Message", text: "Hello\nworld ✓" })
    expect(messageText("0x00ff10")).toBe("0x00ff10")
    expect(messageText("plain text a dApp sent")).toBe("plain text a dApp sent")
  })

  it("cuts a huge message rather than showing megabytes", () => {
    const text = messageText(toHexUtf8("a".repeat(10_000)))
    expect(text.length).toBeLessThanOrEqual(2_001)
    expect(text.endsWith("…")).toBe(true)
  })

  it("lists typed data's domain, primary type and nested fields", () => {
    const typed = {
      domain: { name: "Ether Mail", chainId: 31337 },
      primaryType: "Mail",
      types: {},
      message: { from: { name: "Cow", wallet: BOB }, contents: "Hello, Bob!", tags: ["a", "b"] }
    }
    expect(eip155ApprovalSummary("eth_signTypedData_v4", [BOB, JSON.stringify(typed)], ETH)).toEqual({
      _tag: "TypedData",
      domainName: "Ether Mail",
      primaryType: "Mail",
      fields: [
        ["from.name", "Cow"],
        ["from.wallet", BOB],
        ["contents", "Hello, Bob!"],
        ["tags[0]", "a"],
        ["tags[1]", "b"]
      ]
    })
  })

  it("reads typed data that is not JSON, or not an object, without throwing", () => {
    expect(eip155ApprovalSummary("eth_signTypedData_v4", [BOB, "{not json"], ETH)).toEqual({ _tag: "Message", text: "{not json" })
    expect(eip155ApprovalSummary("eth_signTypedData_v4", [BOB, 42], ETH)).toEqual({ _tag: "Message", text: "42" })
    const circular: Record<string, unknown> = { primaryType: "Loop" }
    circular["message"] = { self: circular }
    const summary = eip155ApprovalSummary("eth_signTypedData_v4", [BOB, circular], ETH)
    expect(summary._tag).toBe("TypedData")
  })

  it("shows a transaction's receiver, value in the native currency and data", () => {
    expect(eip155ApprovalSummary("eth_sendTransaction", [{ to: BOB, value: "0x2386f26fc10000", data: "0xdeadbeef" }], ETH)).toEqual({
      _tag: "Transaction",
      to: BOB,
      value: "0.01 ETH",
      data: "0xdeadbeef"
    })
    expect(eip155ApprovalSummary("eth_sendTransaction", [{ to: BOB }], ETH)).toEqual({ _tag: "Transaction", to: BOB, value: "0 ETH", data: undefined })
    expect(nativeValue("not a number", ETH)).toBe("not a number")
    expect(nativeValue(-5, ETH)).toBe("-5")
  })

  it("lists wallet_sendCalls' calls", () => {
    const summary = eip155ApprovalSummary("wallet_sendCalls", [{ calls: [{ to: BOB, value: "1000000000000000000" }, { to: BOB, data: "0x01" }] }], ETH)
    expect(summary).toEqual({
      _tag: "Calls",
      calls: [
        { to: BOB, value: "1 ETH", data: undefined },
        { to: BOB, value: "0 ETH", data: "0x01" }
      ]
    })
  })
})

describe("solana approval summaries", () => {
  const FROM = address("9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM")
  const TO = address("4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T")
  const wire = (instructions: Parameters<typeof appendTransactionMessageInstructions>[0]) =>
    new Uint8Array(
      getTransactionEncoder().encode(
        compileTransaction(
          pipe(
            createTransactionMessage({ version: 0 }),
            (m) => setTransactionMessageFeePayer(FROM, m),
            (m) =>
              setTransactionMessageLifetimeUsingBlockhash(
                { blockhash: "EkSnNWid2cvwEVnVx9aBqawnmiCNiDgp3gUdkDPTKN1N" as Blockhash, lastValidBlockHeight: 100n },
                m
              ),
            (m) => appendTransactionMessageInstructions(instructions, m)
          )
        )
      )
    )

  it("reads a SOL transfer compiled by @solana/kit as its receiver and amount", () => {
    expect(solanaApprovalSummary([wire([transferSolInstruction(FROM, TO, 1_500_000_000n)])])).toEqual({
      _tag: "SolanaTransfer",
      to: TO,
      amount: "1.5 SOL"
    })
  })

  it("names the programs of any other transaction, and of several", () => {
    const memo = { programAddress: address("MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr"), data: new Uint8Array([104, 105]) }
    expect(solanaApprovalSummary([wire([memo])])).toEqual({
      _tag: "SolanaTransactions",
      count: 1,
      programs: ["MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr"]
    })
    const two = solanaApprovalSummary([wire([transferSolInstruction(FROM, TO, 1n)]), wire([memo])])
    expect(two).toEqual({ _tag: "SolanaTransactions", count: 2, programs: ["11111111111111111111111111111111", "MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr"] })
  })

  it("describes bytes that are no transaction without throwing", () => {
    expect(solanaApprovalSummary([new Uint8Array([1, 2, 3])])).toEqual({ _tag: "SolanaTransactions", count: 1, programs: [] })
    expect(solanaApprovalSummary([getBase58Encoder().encode("3") as Uint8Array])._tag).toBe("SolanaTransactions")
    for (let length = 0; length < 300; length += 7) {
      const bytes = new Uint8Array(length).map((_, index) => (index * 37 + length) % 256)
      expect(() => solanaApprovalSummary([bytes])).not.toThrow()
    }
  })
})
