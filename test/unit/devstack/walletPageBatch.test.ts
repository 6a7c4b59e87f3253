/**
 * The test wallet page's words for a batch (EIP-5792 over WalletConnect): it waits for the visitor, shows each call
 * (receiver, value in ETH, data) and asks plainly about the EIP-7702 delegation, naming the contract.
 */
import { describe, expect, it } from "vitest"
import { delegationQuestion, SIMPLE_7702_ACCOUNT } from "../../../devstack/wallet/calls7702"
import { describeRequest, promptedMethods, sessionMethods } from "../../../devstack/wallet/page/requests"

const TOKEN = "0x5FbDB2315678afecb367f032d93F642f64180aa3"
const BOB = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8"

describe("the wallet page's batch request", () => {
  it("is a session method that waits for the visitor; its status is answered at once", () => {
    expect(sessionMethods).toEqual(expect.arrayContaining(["wallet_sendCalls", "wallet_getCallsStatus", "wallet_getCapabilities"]))
    expect(promptedMethods.has("wallet_sendCalls")).toBe(true)
    expect(promptedMethods.has("wallet_getCallsStatus")).toBe(false)
  })

  it("lists each call and asks about the delegation, naming its contract and network", () => {
    const summary = describeRequest(
      "wallet_sendCalls",
      [{ version: "2.0.0", chainId: "0x7a69", from: BOB, atomicRequired: true, calls: [{ to: TOKEN, data: "0x095ea7b3" }, { to: BOB, value: "0x2386f26fc10000" }] }],
      (chainId) => (chainId === 31337 ? "Local Chain A" : `chain ${chainId}`)
    )
    expect(summary).toEqual({
      title: "Send 2 calls together",
      fields: [
        { label: "From", value: BOB, code: true },
        { label: "Network", value: "Local Chain A" },
        { label: "Call 1: to", value: TOKEN, code: true },
        { label: "Call 1: value", value: "0 ETH" },
        { label: "Call 1: data", value: "0x095ea7b3", code: true },
        { label: "Call 2: to", value: BOB, code: true },
        { label: "Call 2: value", value: "0.01 ETH" },
        { label: "The first batch on this network also asks", value: delegationQuestion(SIMPLE_7702_ACCOUNT, "Local Chain A") }
      ]
    })
    expect(delegationQuestion(SIMPLE_7702_ACCOUNT, "Local Chain A")).toBe(
      "Let your account use the contract 0xe6Cae83BdE06E4c305530e199D7217f42808555B on Local Chain A? It runs several calls together, in one transaction, for you. From now on that contract's code acts for your account on this network (an EIP-7702 delegation), until you change it. Approve only if you trust this contract."
    )
  })
})
