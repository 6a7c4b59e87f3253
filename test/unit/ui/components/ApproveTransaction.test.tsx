// @vitest-environment happy-dom
/**
 * ApproveTransaction: each kind of unsafe request of the embedded wallet in plain words under a heading saying what
 * is asked, with its network; Reject and Approve answer it (Approve spins while the wallet works), and the view does
 * not put focus on Approve, so an Enter pressed by habit approves nothing.
 */
import { cleanup, fireEvent, within } from "@testing-library/react"
import { afterEach, describe, expect, it } from "vitest"
import type { WalletRuntime } from "../../../../src/runtime"
import type { ApprovalSummary, PendingApproval } from "../../../../src/services/Embedded/EmbeddedWallet"
import { embeddedState, renderEmbeddedHost } from "./embeddedHost"
import { ALICE } from "./support"

let runtime: WalletRuntime | undefined

afterEach(async () => {
  cleanup()
  await runtime?.dispose()
  runtime = undefined
})

const BOB = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8"
const SOL_RECEIVER = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM"
const DATA = `0xa9059cbb${"0".repeat(24)}${BOB.slice(2).toLowerCase()}${"0".repeat(60)}2710`

const approval = (summary: ApprovalSummary, over: Partial<PendingApproval> = {}): PendingApproval => ({
  id: 1,
  method: "eth_sendTransaction",
  chainId: "eip155:31337",
  networkName: "Local Chain A",
  summary,
  working: false,
  ...over
})

/** Opens the view on `pending` and waits for its heading. */
const openOn = async (pending: PendingApproval, heading: string) => {
  const page = renderEmbeddedHost([], embeddedState({ approval: pending }))
  runtime = page.runtime
  const dialog = await page.open({ view: "ApproveTransaction" })
  await within(dialog).findByRole("heading", { name: heading })
  return { page, dialog }
}

/** The summary's terms and values, as pairs of text. */
const pairs = (list: HTMLElement) => {
  const terms = [...list.querySelectorAll(":scope > dt")].map((dt) => dt.textContent)
  const values = [...list.querySelectorAll(":scope > dd")].map((dd) => dd.textContent)
  return terms.map((term, index) => [term, values[index]])
}

describe("ApproveTransaction: what is asked, in plain words", () => {
  it("a message: its text as written, its lines kept, in a box that scrolls rather than widening the modal", async () => {
    const text = `Sign in to Example\n\nNonce: 42\n${"x".repeat(500)}`
    const { dialog } = await openOn(approval({ _tag: "Message", text }, { method: "personal_sign" }), "Sign this message")
    expect(within(dialog).getByText("On Local Chain A")).toBeTruthy()
    const message = within(dialog).getByLabelText("Message")
    expect(message.tagName).toBe("PRE")
    expect(message.textContent).toBe(text)
    // Reachable by keyboard, to scroll it.
    expect(message.tabIndex).toBe(0)
  })

  it("typed data: who asks, the primary type and each field", async () => {
    const { dialog } = await openOn(
      approval(
        {
          _tag: "TypedData",
          domainName: "Example Market",
          primaryType: "Order",
          fields: [
            ["maker", ALICE],
            ["amount", "1000"]
          ]
        },
        { method: "eth_signTypedData_v4" }
      ),
      "Sign this data"
    )
    expect(pairs(within(dialog).getByLabelText("Data to sign"))).toEqual([
      ["From", "Example Market"],
      ["Type", "Order"],
      ["maker", ALICE],
      ["amount", "1000"]
    ])
  })

  it("a transaction: the receiver in full with Copy, the value, and the data shortened until asked whole", async () => {
    const { dialog } = await openOn(approval({ _tag: "Transaction", to: BOB, value: "0.01 ETH", data: DATA }), "Approve this transaction")
    const list = within(dialog).getByLabelText("Transaction")
    const [to, value, data] = pairs(list)
    expect(to).toEqual(["To", `${BOB}Copy`])
    expect(value).toEqual(["Value", "0.01 ETH"])
    expect(data?.[1]).toContain(`${DATA.slice(0, 10)}…${DATA.slice(-8)} (68 bytes)`)
    expect(list.textContent).not.toContain(DATA)
    expect(within(list).getByRole("button", { name: `Copy receiver address` })).toBeTruthy()

    const show = within(list).getByRole("button", { name: "Show all data" })
    expect(show.getAttribute("aria-expanded")).toBe("false")
    fireEvent.click(show)
    expect(within(list).getByLabelText("Data").textContent).toBe(DATA)
    expect(within(list).getByRole("button", { name: "Show less" }).getAttribute("aria-expanded")).toBe("true")
  })

  it("a contract creation says so instead of a receiver", async () => {
    const { dialog } = await openOn(approval({ _tag: "Transaction", to: undefined, value: "0 ETH", data: "0x6080" }), "Approve this transaction")
    expect(pairs(within(dialog).getByLabelText("Transaction"))).toEqual([
      ["To", "A new contract"],
      ["Value", "0 ETH"],
      ["Data", "0x6080"]
    ])
  })

  it("calls: each numbered, with its receiver and value", async () => {
    const { dialog } = await openOn(
      approval(
        {
          _tag: "Calls",
          calls: [
            { to: BOB, value: "0.5 ETH", data: undefined },
            { to: ALICE, value: "0 ETH", data: DATA }
          ]
        },
        { method: "wallet_sendCalls" }
      ),
      "Approve these calls"
    )
    const items = within(within(dialog).getByRole("list", { name: "Calls" })).getAllByRole("listitem")
    expect(items.map((item) => item.querySelector("p")?.textContent)).toEqual(["Call 1 of 2", "Call 2 of 2"])
    expect(pairs(items[0]!.querySelector("dl")!)).toEqual([
      ["To", `${BOB}Copy`],
      ["Value", "0.5 ETH"]
    ])
    expect(pairs(items[1]!.querySelector("dl")!).map(([term]) => term)).toEqual(["To", "Value", "Data"])
  })

  it("a Solana transfer: the receiver and the amount", async () => {
    const { dialog } = await openOn(
      approval(
        { _tag: "SolanaTransfer", to: SOL_RECEIVER, amount: "0.25 SOL" },
        { method: "solana_signAndSendTransaction", chainId: "solana:local", networkName: "Solana Local" }
      ),
      "Approve this Solana transfer"
    )
    expect(within(dialog).getByText("On Solana Local")).toBeTruthy()
    expect(pairs(within(dialog).getByLabelText("Transfer"))).toEqual([
      ["To", `${SOL_RECEIVER}Copy`],
      ["Amount", "0.25 SOL"]
    ])
  })

  it("other Solana transactions: how many and the programs they call", async () => {
    const { dialog } = await openOn(
      approval({ _tag: "SolanaTransactions", count: 2, programs: ["ComputeBudget111111111111111111111111111111", "Memo"] }),
      "Approve these 2 Solana transactions"
    )
    expect(pairs(within(dialog).getByLabelText("Transactions"))).toEqual([
      ["Transactions", "2"],
      ["Programs", "ComputeBudget111111111111111111111111111111Memo"]
    ])
  })

  it("a spending permission: the sentence, token, amount, expiry and the site's reason", async () => {
    const permission = {
      sentence: "This site may spend up to 0.01 ETH per day from your account, without asking again, until Dec 6, 2026, 1:00 PM.",
      token: "ETH",
      amount: "Up to 0.01 ETH per day",
      until: "Dec 6, 2026, 1:00 PM",
      reason: "Your weekly coffee"
    }
    const { dialog } = await openOn(
      approval({ _tag: "Permissions", grant: true, permissions: [permission] }, { method: "wallet_requestExecutionPermissions" }),
      "Grant this spending permission"
    )
    const list = within(dialog).getByRole("list", { name: "Permissions asked for" })
    expect(within(list).getByText(permission.sentence)).toBeTruthy()
    expect(pairs(list.querySelector("dl")!)).toEqual([
      ["Token", "ETH"],
      ["Amount", "Up to 0.01 ETH per day"],
      ["Until", "Dec 6, 2026, 1:00 PM"],
      ["The site's reason", "Your weekly coffee"]
    ])
  })

  it("a revoke: what ends, and that the site must ask again", async () => {
    const permission = { sentence: "This site may spend up to 5 USDC per week from your account.", token: "USDC", amount: "Up to 5 USDC per week", until: "Dec 6, 2026", reason: undefined }
    const { dialog } = await openOn(
      approval({ _tag: "Permissions", grant: false, permissions: [permission] }, { method: "wallet_revokeExecutionPermission" }),
      "Revoke this spending permission"
    )
    expect(within(dialog).getByText("Once revoked, the site can no longer spend with it and must ask you again.")).toBeTruthy()
    const list = within(dialog).getByRole("list", { name: "Permission to revoke" })
    expect(pairs(list.querySelector("dl")!).map(([term]) => term)).toEqual(["Token", "Amount", "Until"])
  })
})

describe("ApproveTransaction: the answers", () => {
  const transfer = approval({ _tag: "Transaction", to: BOB, value: "0.01 ETH", data: undefined })

  it("focus is not on Approve, and Enter on what has focus approves nothing", async () => {
    const { page, dialog } = await openOn(transfer, "Approve this transaction")
    const approve = within(dialog).getByRole("button", { name: "Approve" })
    expect(document.activeElement).toBe(within(dialog).getByRole("heading", { name: "Approve this transaction" }))
    expect(document.activeElement).not.toBe(approve)
    fireEvent.keyDown(document.activeElement!, { key: "Enter" })
    expect(page.calls).toEqual([])
  })

  it("Approve and Reject answer the request", async () => {
    const { page, dialog } = await openOn(transfer, "Approve this transaction")
    fireEvent.click(within(dialog).getByRole("button", { name: "Reject" }))
    await expect.poll(() => page.calls.map((call) => call.method)).toEqual(["reject"])
    fireEvent.click(within(dialog).getByRole("button", { name: "Approve" }))
    await expect.poll(() => page.calls.map((call) => call.method)).toEqual(["reject", "approve"])
  })

  it("while the wallet works, Approve spins and neither button can be pressed", async () => {
    const { page, dialog } = await openOn(transfer, "Approve this transaction")
    await page.setState((state) => ({ ...state, approval: { ...transfer, working: true } }))
    const approve = within(dialog).getByRole("button", { name: "Approve" }) as HTMLButtonElement
    expect(approve.disabled).toBe(true)
    expect(approve.getAttribute("aria-busy")).toBe("true")
    expect((within(dialog).getByRole("button", { name: "Reject" }) as HTMLButtonElement).disabled).toBe(true)
  })

  it("says so when nothing waits", async () => {
    const page = renderEmbeddedHost([], embeddedState())
    runtime = page.runtime
    const dialog = await page.open({ view: "ApproveTransaction" })
    expect(await within(dialog).findByText("Nothing is waiting for your approval.")).toBeTruthy()
  })

  it("on a device without the key's share: says why it cannot sign and offers Recover instead of Approve", async () => {
    const page = renderEmbeddedHost([], embeddedState({ approval: approval({ _tag: "Message", text: "hi" }, { method: "personal_sign" }), recovery: "passkey", needsRecovery: true }))
    runtime = page.runtime
    const dialog = await page.open({ view: "ApproveTransaction" })
    await within(dialog).findByRole("heading", { name: "Sign this message" })
    expect(within(dialog).getByText(/This device has no key of your wallet yet/)).toBeTruthy()
    expect(within(dialog).queryByRole("button", { name: "Approve" })).toBeNull()
    fireEvent.click(within(dialog).getByRole("button", { name: "Recover wallet" }))
    expect(page.calls.at(-1)).toEqual({ method: "openSecureView", argument: "recover" })
  })
})
