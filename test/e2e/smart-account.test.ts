/**
 * The embedded wallet's smart account in the demo, on the local stack with the bundler part (EntryPoint v0.8, the
 * WalletAccountFactory, a paymaster that sponsors every operation): an email login lands on the smart account (spec
 * 4's switch to EVM's default type), a send of 0.01 ETH from it after approval costs the visitor exactly 0.01 ETH (the
 * paymaster paid the gas, its first operation deployed it), and the Account view switches to the EOA and back, the
 * address following. Balances are read from anvil.
 */
import type { Page } from "playwright-core"
import { type Address, createPublicClient, createWalletClient, http, parseEther } from "viem"
import { entryPoint08Abi } from "viem/account-abstraction"
import { privateKeyToAccount } from "viem/accounts"
import { foundry } from "viem/chains"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { walletAccountFactoryAbi } from "../../server/src/bundler/walletAccount"
import { truncateAddress } from "../../src/domain/format"
import { type OpenDemo, openDemo } from "./support/demo"
import { emailLogin } from "./support/embeddedLogin"

let session: OpenDemo
let page: Page
const EMAIL = "smart@example.com"
let smartAddress: Address | undefined

const dialog = () => page.getByRole("dialog")
const chainA = () => session.stack.config.evm!.chains.find((chain) => chain.chainId === 31337)!
const reader = () => createPublicClient({ chain: foundry, transport: http(chainA().rpcUrl) })
const aa = () => {
  const contracts = chainA().accountAbstraction
  if (contracts?.walletAccountFactory === undefined) throw new Error("the stack has no WalletAccountFactory")
  return { entryPoint: contracts.entryPoint as Address, paymaster: contracts.paymaster as Address, factory: contracts.walletAccountFactory as Address }
}

/** The address the demo shows for the account in front ("From 0x… on …"). */
const shownAddress = async (): Promise<Address> => {
  const hint = page.getByText(/^From 0x[0-9a-fA-F]{40} on /)
  await hint.waitFor({ timeout: 20_000 })
  return /0x[0-9a-fA-F]{40}/.exec((await hint.textContent()) ?? "")![0] as Address
}

const openAccount = async (address: string) => {
  await page.getByRole("button", { name: new RegExp(truncateAddress(address).replace(/[.]/g, "\\.")) }).click()
  await dialog().getByRole("button", { name: "Disconnect" }).waitFor()
}

beforeAll(async () => {
  session = await openDemo({ name: "smart-account", parts: ["evm", "bundler", "solana", "mail", "services", "embedded"] })
  page = session.browser.page
}, 180_000)

afterAll(() => session?.stop())

describe("the embedded wallet's smart account in the demo", () => {
  it("an email login lands on the smart account: EVM's default type, on a network the frame runs smart accounts on", async () => {
    await page.goto(session.url)
    await emailLogin(page, session.stack.mail!, EMAIL)
    smartAddress = await shownAddress()
    // Not deployed yet: its first user operation deploys it.
    expect(await reader().getCode({ address: smartAddress })).toBeUndefined()
    await openAccount(smartAddress)
    expect(await dialog().getByTestId("account-type").textContent()).toBe("Account type: Smart account")
    await page.keyboard.press("Escape")
    await dialog().waitFor({ state: "hidden" })
  })

  it("a sponsored send of 0.01 ETH after approval: the visitor's ETH is short by exactly 0.01, the paymaster paid the gas", async () => {
    const account = smartAddress!
    const evm = session.stack.config.evm!
    const funder = createWalletClient({ account: privateKeyToAccount(evm.accounts[0]!.privateKey as `0x${string}`), chain: foundry, transport: http(chainA().rpcUrl) })
    await reader().waitForTransactionReceipt({ hash: await funder.sendTransaction({ to: account, value: parseEther("1") }) })
    const { entryPoint, paymaster } = aa()
    const balanceBefore = await reader().getBalance({ address: account })
    const depositBefore = await reader().readContract({ address: entryPoint, abi: entryPoint08Abi, functionName: "balanceOf", args: [paymaster] })

    await page.getByRole("button", { name: "Send", exact: true }).click()
    await dialog().getByRole("heading", { name: "Approve this transaction" }).waitFor()
    await dialog().getByText("0.01 ETH").waitFor()
    await dialog().getByRole("button", { name: "Approve" }).click()
    await expect.poll(() => page.getByTestId("transaction").textContent(), { timeout: 60_000 }).toContain("confirmed in block")

    expect(balanceBefore - (await reader().getBalance({ address: account }))).toBe(parseEther("0.01"))
    expect(await reader().readContract({ address: entryPoint, abi: entryPoint08Abi, functionName: "balanceOf", args: [paymaster] })).toBeLessThan(depositBefore)
    expect(await reader().getCode({ address: account })).toMatch(/^0x[0-9a-f]{2,}/)
  })

  it("the Account view switches to the EOA (the smart account's owner) and back; the address follows", async () => {
    const smart = smartAddress!
    await openAccount(smart)
    // The balance is the account's in front: the smart account's 0.99 ETH, then the EOA's nothing.
    const balance = () => dialog().locator("p", { hasText: / ETH$/ }).first().textContent()
    await expect.poll(balance, { timeout: 20_000 }).toMatch(/^0\.990* ETH$/)
    await dialog().getByRole("button", { name: "Switch to EOA" }).click()
    await expect.poll(() => dialog().getByTestId("account-type").textContent(), { timeout: 20_000 }).toBe("Account type: EOA")
    await expect.poll(balance, { timeout: 20_000 }).toMatch(/^0(\.0+)? ETH$/)
    await page.keyboard.press("Escape")
    const eoa = await expect.poll(shownAddress, { timeout: 20_000 }).not.toBe(smart).then(shownAddress)
    // The smart account is the WalletAccount of this EOA (salt 0), as the factory computes it.
    expect(await reader().readContract({ address: aa().factory, abi: walletAccountFactoryAbi, functionName: "getAddress", args: [eoa, 0n] })).toBe(smart)

    await openAccount(eoa)
    await dialog().getByRole("button", { name: "Switch to smart account" }).click()
    await expect.poll(() => dialog().getByTestId("account-type").textContent(), { timeout: 20_000 }).toBe("Account type: Smart account")
    await page.keyboard.press("Escape")
    await expect.poll(shownAddress, { timeout: 20_000 }).toBe(smart)
  })
})
