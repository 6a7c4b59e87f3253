/**
 * EIP-5792 over WalletConnect in Chromium: the demo connects to the devstack's test wallet page through the relay,
 * sends a batch of ERC-20 approve + transfer from its request card; the wallet page shows each call and asks about the
 * EIP-7702 delegation naming its contract; after Approve the chain has ONE type-4 transaction with both effects, and
 * wallet_getCallsStatus through the session gives its one receipt.
 */
import type { Locator, Page } from "playwright-core"
import { type Address, createPublicClient, encodeFunctionData, type Hex, http, parseAbi, toHex } from "viem"
import { foundry } from "viem/chains"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { SIMPLE_7702_ACCOUNT } from "../../devstack/wallet/calls7702"
import { type OpenDemo, openDemo } from "./support/demo"

const ALICE: Address = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"
const SPENDER: Address = "0x000000000000000000000000000000000000a11c"
const RECIPIENT: Address = "0x000000000000000000000000000000000000b0b2"
const tokenAbi = parseAbi([
  "function approve(address spender, uint256 value) returns (bool)",
  "function transfer(address to, uint256 value) returns (bool)",
  "function allowance(address owner, address spender) view returns (uint256)",
  "function balanceOf(address) view returns (uint256)"
])

let session: OpenDemo
let page: Page
let wallet: Page

const dialog = () => page.getByRole("dialog")
const card = (title: string | RegExp): Locator => wallet.getByRole("article", { name: title })
const chainA = () => session.stack.config.evm!.chains.find((chain) => chain.chainId === 31337)!
const token = () => chainA().tokens.find((t) => t.kind === "standard")!.address as Address
const reader = () => createPublicClient({ chain: foundry, transport: http(chainA().rpcUrl) })

const request = async (method: string, params: unknown) => {
  await page.getByLabel("Method").fill(method)
  await page.getByLabel("Params (JSON)").fill(JSON.stringify(params))
  await page.getByRole("button", { name: "Send request" }).click()
}

beforeAll(async () => {
  session = await openDemo({ name: "wc-calls", parts: ["evm", "solana", "relay", "services"] })
  page = session.browser.page
  const testWalletUrl = session.stack.config.services?.testWalletUrl ?? ""
  wallet = await session.browser.context.newPage()
  await wallet.goto(testWalletUrl)
  await wallet.getByRole("status").filter({ hasText: "Ready" }).waitFor()
  await page.goto(session.url)
  await page.getByRole("button", { name: "Connect wallet" }).click()
  await dialog().getByRole("button", { name: /WalletConnect/ }).click()
  const qr = dialog().getByRole("img", { name: "QR code to connect with WalletConnect" })
  await qr.waitFor()
  await wallet.goto(`${testWalletUrl}wc?uri=${encodeURIComponent((await qr.getAttribute("data-qr-value")) ?? "")}`)
  await card(/asks to connect/).getByRole("button", { name: "Approve" }).click()
  await dialog().waitFor({ state: "hidden", timeout: 20_000 })
}, 180_000)

afterAll(() => session?.stop())

describe("EIP-5792 over WalletConnect in the demo", () => {
  it("the wallet page shows both calls and the delegation's contract; ONE type-4 transaction; its status through the session", async () => {
    await page.bringToFront()
    await request("wallet_sendCalls", [
      {
        version: "2.0.0",
        chainId: toHex(31337),
        from: ALICE,
        atomicRequired: true,
        calls: [
          { to: token(), data: encodeFunctionData({ abi: tokenAbi, functionName: "approve", args: [SPENDER, 21n] }) },
          { to: token(), data: encodeFunctionData({ abi: tokenAbi, functionName: "transfer", args: [RECIPIENT, 8n] }) }
        ]
      }
    ])
    const prompt = card(/Send 2 calls together/)
    await prompt.waitFor({ timeout: 20_000 })
    const words = (await prompt.textContent()) ?? ""
    expect(words).toContain("Call 1: to")
    expect(words).toContain("Call 2: data")
    expect(words).toContain(`Let your account use the contract ${SIMPLE_7702_ACCOUNT} on Local Chain A?`)
    await prompt.getByRole("button", { name: "Approve" }).click()
    await expect.poll(() => page.getByTestId("request").textContent(), { timeout: 30_000 }).toMatch(/^\{"id":"0x[0-9a-f]{64}"\}$/)
    const id = (JSON.parse((await page.getByTestId("request").textContent()) ?? "{}") as { id: string }).id
    await expect.poll(() => reader().readContract({ address: token(), abi: tokenAbi, functionName: "balanceOf", args: [RECIPIENT] }), { timeout: 30_000 }).toBe(8n)
    expect(await reader().readContract({ address: token(), abi: tokenAbi, functionName: "allowance", args: [ALICE, SPENDER] })).toBe(21n)
    await request("wallet_getCallsStatus", [id])
    await expect.poll(() => page.getByTestId("request").textContent(), { timeout: 20_000 }).toContain('"status":200')
    const status = JSON.parse((await page.getByTestId("request").textContent()) ?? "{}") as { receipts: ReadonlyArray<{ transactionHash: Hex }> }
    expect(status.receipts).toHaveLength(1)
    expect((await reader().getTransaction({ hash: status.receipts[0]!.transactionHash })).type).toBe("eip7702")
  })
})
