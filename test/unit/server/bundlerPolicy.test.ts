/**
 * The bundler's pure rules: the host's sponsoring policy, and which ERC-7769 code an EntryPoint refusal gets.
 */
import { describe, expect, it } from "@effect/vitest"
import { codeOfFailedOp, RpcErrorCode } from "../../../server/src/bundler/errors"
import { type SponsorPolicy, sponsorDecision } from "../../../server/src/bundler/policy"
import { decodeUserOperation } from "../../../server/src/bundler/userOperation"

const listed = "0x1111111111111111111111111111111111111111"
const other = "0x2222222222222222222222222222222222222222"
const policy = (sponsor: SponsorPolicy["sponsor"]): SponsorPolicy => ({ sponsor, senders: [listed], maxGasPerOp: 1_000_000n })

describe("sponsoring policy", () => {
  it.each([
    ["none", listed, 1n, "This app does not pay for transactions"],
    ["all", other, 1_000_000n, undefined],
    ["all", other, 1_000_001n, "This transaction needs more gas (1000001) than this app pays for (1000000)"],
    ["allowlist", listed.toUpperCase().replace("0X", "0x"), 10n, undefined],
    ["allowlist", other, 10n, "This app does not pay for this account's transactions"],
    ["allowlist", listed, 2_000_000n, "This transaction needs more gas (2000000) than this app pays for (1000000)"]
  ] as const)("%s, sender %s, gas %s → %s", (sponsor, sender, gas, reason) => {
    const decision = sponsorDecision(policy(sponsor), { sender: sender as `0x${string}`, gas })
    expect(decision).toEqual(reason === undefined ? { sponsored: true } : { sponsored: false, reason })
  })
})

describe("EntryPoint refusals", () => {
  it.each([
    ["AA24 signature error", RpcErrorCode.InvalidSignature],
    ["AA34 signature error", RpcErrorCode.RejectedByPaymaster],
    ["AA33 reverted", RpcErrorCode.RejectedByPaymaster],
    ["AA22 expired or not due", RpcErrorCode.OutOfTimeRange],
    ["AA32 paymaster expired or not due", RpcErrorCode.OutOfTimeRange],
    ["AA25 invalid account nonce", RpcErrorCode.RejectedByAccount],
    ["AA10 sender already constructed", RpcErrorCode.RejectedByAccount],
    ["something else", RpcErrorCode.RejectedByAccount]
  ] as const)("%s → %i", (reason, code) => {
    expect(codeOfFailedOp(reason)).toBe(code)
  })
})

describe("user operations at the door", () => {
  const good = {
    sender: listed,
    nonce: "0x0",
    callData: "0x",
    callGasLimit: "0x1",
    verificationGasLimit: "0x1",
    preVerificationGas: "0x1",
    maxFeePerGas: "0x1",
    maxPriorityFeePerGas: "0x1",
    signature: "0x12"
  }
  it("decodes a well-formed operation", () => {
    expect(decodeUserOperation(good)).toMatchObject({ sender: listed, nonce: 0n, callGasLimit: 1n })
  })
  it.each([
    [{ ...good, sender: "nope" }, "sender"],
    [{ ...good, nonce: "12" }, "nonce"],
    [{ ...good, callData: "0x123" }, "callData"],
    [{ ...good, callGasLimit: `0x1${"0".repeat(32)}` }, "callGasLimit"],
    [{ ...good, signature: undefined }, "signature"],
    ["not an object", ""]
  ])("refuses %j, naming %s", (input, field) => {
    expect(() => decodeUserOperation(input)).toThrow(expect.objectContaining({ code: -32602, message: expect.stringContaining(field) }))
  })
})
