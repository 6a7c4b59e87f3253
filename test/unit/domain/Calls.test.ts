/**
 * EIP-5792's rules as every wallet of ours reads them: what `readBatch` refuses and in which words (before anyone is
 * asked), what the chain refuses (`batchChainProblem`), a batch's status from its receipts and a status's outcome.
 */
import { describe, expect, it } from "vitest"
import { batchChainProblem, batchStatus, readBatch } from "../../../src/domain/Calls"
import { CALLS_STATUS, callsOutcome } from "../../../src/domain/callsWire"

const TO = "0x5FbDB2315678afecb367f032d93F642f64180aa3"
const good = { version: "2.0.0", chainId: "0x7a69", atomicRequired: true, calls: [{ to: TO, data: "0x095ea7b3", value: "0x10" }, { to: TO }] }
const ETH = { symbol: "ETH", decimals: 18 }

describe("readBatch", () => {
  it("reads a good batch: values in wei, empty data as none, no sender when none was given", () => {
    expect(readBatch([good], 31337)).toEqual({
      ok: true,
      batch: { from: undefined, chainId: 31337, atomicRequired: true, capabilities: {}, calls: [{ to: TO, data: "0x095ea7b3", value: 16n }, { to: TO, data: undefined, value: 0n }] }
    })
    expect(readBatch([{ ...good, calls: [{ to: TO, data: "0x" }] }], 31337)).toMatchObject({ ok: true, batch: { calls: [{ data: undefined }] } })
  })

  it.each([
    ["no request", [], -32602, "The batch must be one object with its calls"],
    ["an old version", [{ ...good, version: "1.0" }], -32602, "This wallet takes batches of version 2.0.0, not 1.0"],
    ["no version", [{ ...good, version: undefined }], -32602, "This wallet takes batches of version 2.0.0, not none"],
    ["a decimal chain id", [{ ...good, chainId: "31337" }], -32602, "The batch's chainId must be a hex number starting with 0x"],
    ["another chain", [{ ...good, chainId: "0x1" }], 5710, "This batch is for chain 1, but the wallet is on chain 31337"],
    ["a sender without 0x", [{ ...good, from: TO.slice(2) }], -32602, "The batch's sender (from) must be an address starting with 0x"],
    ["no atomicRequired", [{ ...good, atomicRequired: "yes" }], -32602, "The batch must say whether its calls must run together (atomicRequired)"],
    ["no calls", [{ ...good, calls: [] }], -32602, "The batch has no calls"],
    ["21 calls", [{ ...good, calls: Array.from({ length: 21 }, () => ({ to: TO })) }], 5740, "A batch may hold 20 calls at most; this one has 21"],
    ["a receiver without 0x", [{ ...good, calls: [{ to: TO }, { to: TO.slice(2) }] }], -32602, "Call 2: the receiver must be an address starting with 0x"],
    ["a short receiver", [{ ...good, calls: [{ to: "0x1234" }] }], -32602, "Call 1: the receiver must be an address starting with 0x"],
    ["data without 0x", [{ ...good, calls: [{ to: TO, data: "095ea7b3" }] }], -32602, "Call 1: the data must be hex bytes starting with 0x"],
    ["a decimal value", [{ ...good, calls: [{ to: TO, value: "100" }] }], -32602, "Call 1: the value must be a hex amount starting with 0x"],
    ["a capability it lacks", [{ ...good, capabilities: { auxiliaryFunds: { supported: true } } }], 5700, "This wallet does not support the capability auxiliaryFunds"]
  ])("refuses %s", (_name, params, code, message) => {
    expect(readBatch(params, 31337)).toEqual({ ok: false, problem: { code, message } })
  })

  it("takes a capability it lacks when the batch marks it optional, and one it has", () => {
    expect(readBatch([{ ...good, capabilities: { auxiliaryFunds: { optional: true } } }], 31337).ok).toBe(true)
    expect(readBatch([{ ...good, capabilities: { paymasterService: { url: "https://pm.test" } } }], 31337, ["paymasterService"]).ok).toBe(true)
    expect(readBatch([{ ...good, capabilities: { paymasterService: { url: "https://pm.test" } } }], 31337).ok).toBe(false)
  })
})

describe("batchChainProblem", () => {
  const batch = () => {
    const read = readBatch([good], 31337)
    if (!read.ok) throw new Error("the good batch was refused")
    return read.batch
  }
  it("refuses data sent to an address without code; a plain transfer there is fine", () => {
    expect(batchChainProblem(batch(), { hasCode: [false, false], balance: 100n, currency: ETH })).toEqual({
      code: -32602,
      message: `Call 1 sends data to ${TO}, which is not a contract`
    })
    expect(batchChainProblem(batch(), { hasCode: [true, false], balance: 100n, currency: ETH })).toBeUndefined()
  })
  it("refuses values past the balance, both amounts in the network's currency", () => {
    expect(batchChainProblem(batch(), { hasCode: [true, true], balance: 15n, currency: ETH })).toEqual({
      code: -32602,
      message: "The calls send 0.000000000000000016 ETH in all, more than the account holds (0.000000000000000015 ETH)"
    })
    expect(batchChainProblem(batch(), { hasCode: [true, true], balance: 16n, currency: ETH })).toBeUndefined()
  })
})

describe("a batch's status", () => {
  it.each([
    [[], CALLS_STATUS.pending],
    [["success", undefined], CALLS_STATUS.pending],
    [["success", "success"], CALLS_STATUS.confirmed],
    [["reverted", "reverted"], CALLS_STATUS.reverted],
    [["success", "reverted"], CALLS_STATUS.partiallyReverted]
  ] as const)("from receipts %j: %i", (receipts, code) => {
    expect(batchStatus(receipts)).toBe(code)
  })
  it.each([
    [100, "pending"],
    [199, "pending"],
    [200, "success"],
    [400, "failure"],
    [500, "failure"],
    [600, "failure"]
  ] as const)("status %i means %s", (code, outcome) => {
    expect(callsOutcome(code)).toBe(outcome)
  })
})
