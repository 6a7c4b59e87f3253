/**
 * EIP-5792 batches from the demo, on the local stack with the bundler part: after an email login (the smart account in
 * front), the host page sends a batch of ERC-20 approve + transfer (the demo's raw-request card, as any dApp would);
 * ApproveTransaction shows both calls (axe-clean, light and dark at 390 px); after Approve it is ONE transaction on
 * chain with both events, the allowance and balances as asked. A bad batch never opens the view. The demo's "Send a
 * batch" card (useSendCalls) follows its batch to final: one transaction. Balances are read from anvil.
 */
import type { Page } from "playwright-core"
import { type Address, type Hex, createPublicClient, createWalletClient, encodeFunctionData, http, parseAbi, parseEther, toHex } from "viem"
import { privateKeyToAccount } from "viem/accounts"
import { foundry } from "viem/chains"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { SIMPLE_7702_ACCOUNT, EIP7702_AUTHORIZATION } from "../../devstack/wallet/calls7702"
import type { TestWallet } from "../../devstack/wallet/testWallet"
import { accountButton, axeViolations, connectedAddress, emailLogin } from "./support/embeddedLogin"
import { installInjectedWallet } from "./support/injectedWallet"
import { type OpenDemo, openDemo } from "./support/demo"

const tokenAbi = parseAbi([
  "function approve(address spender, uint256 value) returns (bool)",
  "function transfer(address to, uint256 value) returns (bool)",
  "function allowance(address owner, address spender) view returns (uint256)",
  "function balanceOf(address) view returns (uint256)",
  "event Transfer(address indexed from, address indexed to, uint256 value)",
  "event Approval(address indexed owner, address indexed spender, uint256 value)"
])

let session: OpenDemo
let page: Page
let smart: Address
const EMAIL = "batch@example.com"
const SPENDER: Address = "0x000000000000000000000000000000000000a11c"
const RECIPIENT: Address = "0x000000000000000000000000000000000000b0b2"

const dialog = () => page.getByRole("dialog")
const chainA = () => session.stack.config.evm!.chains.find((chain) => chain.chainId === 31337)!
const token = () => chainA().tokens.find((t) => t.kind === "standard")!.address as Address
const reader = () => createPublicClient({ chain: foundry, transport: http(chainA().rpcUrl) })
const tokens = (owner: Address) => reader().readContract({ address: token(), abi: tokenAbi, functionName: "balanceOf", args: [owner] })

/** Sends a raw wallet request from the demo's request card (as a host page's code would). */
const request = async (method: string, params: unknown) => {
  await page.getByLabel("Method").fill(method)
  await page.getByLabel("Params (JSON)").fill(JSON.stringify(params))
  await page.getByRole("button", { name: "Send request" }).click()
}

const batch = (calls: ReadonlyArray<Record<string, unknown>>) => [{ version: "2.0.0", chainId: toHex(31337), from: smart, atomicRequired: true, calls }]

// The injected test wallet (EIP-7702), on a dev account of its own; its prompts are recorded in Node.
let injected: TestWallet
const prompts: Array<readonly [string, unknown]> = []

beforeAll(async () => {
  session = await openDemo({ name: "batch-calls", parts: ["evm", "bundler", "solana", "mail", "services", "embedded"] })
  page = session.browser.page
  const evm = session.stack.config.evm!
  injected = await installInjectedWallet(session.browser.context, {
    privateKeys: [evm.accounts[7]!.privateKey as Hex],
    chains: evm.chains.map((c) => ({ chainId: c.chainId, name: `Local ${c.chainId}`, rpcUrl: c.rpcUrl })),
    chainId: 31337,
    batchExecutor: SIMPLE_7702_ACCOUNT,
    approve: (method, params) => {
      prompts.push([method, params])
      return "approve"
    }
  })
}, 180_000)

afterAll(() => session?.stop())

describe("EIP-5792 batches in the demo", () => {
  it("an email login lands on the smart account, which holds 100 tokens", async () => {
    await page.goto(session.url)
    await emailLogin(page, session.stack.mail!, EMAIL)
    smart = await connectedAddress(page)
    const evm = session.stack.config.evm!
    const funder = createWalletClient({ account: privateKeyToAccount(evm.accounts[0]!.privateKey as `0x${string}`), chain: foundry, transport: http(chainA().rpcUrl) })
    await reader().waitForTransactionReceipt({ hash: await funder.writeContract({ address: token(), abi: tokenAbi, functionName: "transfer", args: [smart, 100n] }) })
    await reader().waitForTransactionReceipt({ hash: await funder.sendTransaction({ to: smart, value: parseEther("0.1") }) })
    expect(await tokens(smart)).toBe(100n)
  })

  it("bad batches are refused with words; ApproveTransaction never opens", async () => {
    // The host's EVM adapter checks spec 5's rule first, for every wallet.
    await request("wallet_sendCalls", batch([{ to: RECIPIENT.slice(2), value: "0x1" }]))
    await expect.poll(() => page.getByTestId("request").textContent(), { timeout: 20_000 }).toBe("Error: Every call needs a 'to' (and 'data') starting with 0x")
    expect(await dialog().count()).toBe(0)
    // The embedded wallet's own checks: what the chain says.
    await request("wallet_sendCalls", batch([{ to: RECIPIENT, value: toHex(parseEther("5")) }]))
    await expect.poll(() => page.getByTestId("request").textContent(), { timeout: 20_000 }).toBe(
      "Error: The calls send 5 ETH in all, more than the account holds (0.1 ETH)"
    )
    await request("wallet_sendCalls", batch([{ to: RECIPIENT, data: "0x1234" }]))
    await expect.poll(() => page.getByTestId("request").textContent(), { timeout: 20_000 }).toBe(
      `Error: Call 1 sends data to ${RECIPIENT}, which is not a contract`
    )
    await request("wallet_sendCalls", [{ ...batch([{ to: RECIPIENT }])[0], version: "1.0" }])
    await expect.poll(() => page.getByTestId("request").textContent(), { timeout: 20_000 }).toBe("Error: This wallet takes batches of version 2.0.0, not 1.0")
    expect(await dialog().count()).toBe(0)
  })

  it("approve + transfer: both calls shown in ApproveTransaction, then ONE transaction with both events", async () => {
    const start = await reader().getBlockNumber()
    const approve = encodeFunctionData({ abi: tokenAbi, functionName: "approve", args: [SPENDER, 60n] })
    const transfer = encodeFunctionData({ abi: tokenAbi, functionName: "transfer", args: [RECIPIENT, 25n] })
    await request("wallet_sendCalls", batch([{ to: token(), data: approve }, { to: token(), data: transfer }]))
    await dialog().getByRole("heading", { name: "Approve these calls" }).waitFor({ timeout: 20_000 })
    const calls = dialog().getByRole("list", { name: "Calls" }).getByRole("listitem")
    await expect.poll(() => calls.count()).toBe(2)
    await calls.nth(0).getByText("Call 1 of 2").waitFor()
    await calls.nth(1).getByText("Call 2 of 2").waitFor()
    expect(await calls.nth(0).getByText(token(), { exact: true }).count()).toBe(1)
    expect(await calls.nth(1).getByText("0 ETH").count()).toBe(1)
    expect(await axeViolations(page)).toEqual([])
    await page.emulateMedia({ colorScheme: "dark" })
    await page.setViewportSize({ width: 390, height: 844 })
    expect(await axeViolations(page)).toEqual([])
    await page.emulateMedia({ colorScheme: "light" })
    await page.setViewportSize({ width: 1280, height: 800 })

    const approved = Date.now()
    await dialog().getByRole("button", { name: "Approve" }).click()
    await expect.poll(() => page.getByTestId("request").textContent(), { timeout: 30_000 }).toMatch(/^\{"id":"0x[0-9a-f]{64}"\}$/)
    await expect.poll(() => tokens(RECIPIENT), { timeout: 60_000 }).toBe(25n)
    console.info(`batch: Approve → tokens moved in ${Date.now() - approved} ms`)
    const logs = await reader().getLogs({ address: token(), events: tokenAbi.filter((item) => item.type === "event"), fromBlock: start + 1n })
    const ours = logs.filter((log) => (log.args as { from?: string; owner?: string }).from === smart || (log.args as { owner?: string }).owner === smart)
    expect(ours.map((log) => log.eventName).sort()).toEqual(["Approval", "Transfer"])
    expect(new Set(ours.map((log) => log.transactionHash)).size).toBe(1)
    expect(await reader().readContract({ address: token(), abi: tokenAbi, functionName: "allowance", args: [smart, SPENDER] })).toBe(60n)
    expect(await tokens(smart)).toBe(75n)
  })

  it("the demo's Send a batch card (useSendCalls) follows its batch to final: one transaction", async () => {
    const before = await reader().getBalance({ address: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8" })
    await page.getByRole("button", { name: "Send 0.001 and 0.002 ETH together" }).click()
    await dialog().getByRole("heading", { name: "Approve these calls" }).waitFor({ timeout: 20_000 })
    const approved = Date.now()
    await dialog().getByRole("button", { name: "Approve" }).click()
    await expect.poll(() => page.getByTestId("batch").textContent(), { timeout: 60_000 }).toMatch(/^Done in 1 transaction\(s\): 0x[0-9a-f]{64}$/)
    console.info(`useSendCalls: Approve → final status in ${Date.now() - approved} ms`)
    expect((await reader().getBalance({ address: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8" })) - before).toBe(parseEther("0.003"))
  })

  it("through the injected test wallet: the delegation asked with its contract, then ONE type-4 transaction", async () => {
    await accountButton(page, smart).click()
    await dialog().getByRole("button", { name: "Disconnect" }).click()
    await dialog().waitFor({ state: "hidden", timeout: 20_000 }).catch(() => page.keyboard.press("Escape"))
    await page.getByRole("button", { name: "Connect wallet" }).click()
    await dialog().getByRole("button", { name: /Wallet Runtime Test Wallet/ }).click()
    await expect.poll(() => connectedAddress(page), { timeout: 20_000 }).toBe(injected.address())
    const evm = session.stack.config.evm!
    const funder = createWalletClient({ account: privateKeyToAccount(evm.accounts[0]!.privateKey as `0x${string}`), chain: foundry, transport: http(chainA().rpcUrl) })
    await reader().waitForTransactionReceipt({ hash: await funder.writeContract({ address: token(), abi: tokenAbi, functionName: "transfer", args: [injected.address(), 50n] }) })
    const recipient: Address = "0x000000000000000000000000000000000000c0de"
    prompts.length = 0
    await request("wallet_sendCalls", [
      {
        version: "2.0.0",
        chainId: toHex(31337),
        from: injected.address(),
        atomicRequired: true,
        calls: [
          { to: token(), data: encodeFunctionData({ abi: tokenAbi, functionName: "approve", args: [SPENDER, 9n] }) },
          { to: token(), data: encodeFunctionData({ abi: tokenAbi, functionName: "transfer", args: [recipient, 4n] }) }
        ]
      }
    ])
    await expect.poll(() => page.getByTestId("request").textContent(), { timeout: 30_000 }).toMatch(/^\{"id":"0x[0-9a-f]{64}"\}$/)
    expect(prompts.map(([method]) => method)).toEqual(["wallet_sendCalls", EIP7702_AUTHORIZATION])
    expect(prompts[1]![1]).toEqual({ address: SIMPLE_7702_ACCOUNT, chainId: 31337 })
    await expect.poll(() => tokens(recipient), { timeout: 30_000 }).toBe(4n)
    expect(await reader().readContract({ address: token(), abi: tokenAbi, functionName: "allowance", args: [injected.address(), SPENDER] })).toBe(9n)
    const id = (JSON.parse((await page.getByTestId("request").textContent()) ?? "{}") as { id: string }).id
    await request("wallet_getCallsStatus", [id])
    await expect.poll(() => page.getByTestId("request").textContent(), { timeout: 20_000 }).toContain('"status":200')
    const status = JSON.parse((await page.getByTestId("request").textContent()) ?? "{}") as { receipts: ReadonlyArray<{ transactionHash: Hex }> }
    expect(status.receipts).toHaveLength(1)
    expect((await reader().getTransaction({ hash: status.receipts[0]!.transactionHash })).type).toBe("eip7702")
  })
})
