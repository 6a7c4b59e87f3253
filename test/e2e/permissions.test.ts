/**
 * ERC-7715 spending permissions in the demo, on the local stack with the bundler part: after an email login (the smart
 * account in front), the page asks for 0.01 ETH a day; the approval view says it in words (amount, how often, until
 * when), passes axe and is answered by keyboard; the page spends 0.006 ETH with it without any approval view and the
 * ETH moves on chain; another 0.006 ETH the same day is refused with the wallet's words and nothing moves; the revoke's
 * approval view (dark theme, 390 px) names the grant it ends; after it, a spend is refused. Balances are read from anvil.
 */
import { randomBytes } from "node:crypto"
import type { Page } from "playwright-core"
import { type Address, createPublicClient, createWalletClient, http, parseEther } from "viem"
import { privateKeyToAccount } from "viem/accounts"
import { foundry } from "viem/chains"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { animationsSettled } from "./support/browser"
import { type OpenDemo, openDemo } from "./support/demo"
import { axeViolations, connectedAddress, emailLogin } from "./support/embeddedLogin"

let session: OpenDemo
let page: Page
let smart: Address
const recipient = privateKeyToAccount(`0x${randomBytes(32).toString("hex")}`).address

const dialog = () => page.getByRole("dialog")
const chainA = () => session.stack.config.evm!.chains.find((chain) => chain.chainId === 31337)!
const reader = () => createPublicClient({ chain: foundry, transport: http(chainA().rpcUrl) })
const output = (testId: string) => page.getByTestId(testId)

/** Spends `amount` ETH with the granted permission and waits (bounded) for the page's answer to change. */
const spend = async (amount: string) => {
  const before = await output("permission-use").textContent()
  await page.getByLabel("Spend with the permission (ETH)", { exact: true }).fill(amount)
  await page.getByRole("button", { name: "Spend with the permission" }).click()
  await expect.poll(() => output("permission-use").textContent(), { timeout: 60_000 }).not.toBe(before)
  await page.getByRole("button", { name: "Spend with the permission" }).and(page.locator(":enabled")).waitFor({ timeout: 60_000 })
  return (await output("permission-use").textContent()) ?? ""
}

beforeAll(async () => {
  session = await openDemo({ name: "permissions", parts: ["evm", "bundler", "solana", "mail", "services", "embedded"] })
  page = session.browser.page
}, 180_000)

afterAll(() => session?.stop())

describe("ERC-7715 spending permissions in the demo", () => {
  it("an email login lands on the smart account, which is given 1 ETH", async () => {
    await page.goto(session.url)
    await emailLogin(page, session.stack.mail!, "permissions@example.com")
    smart = await connectedAddress(page)
    const evm = session.stack.config.evm!
    const funder = createWalletClient({ account: privateKeyToAccount(evm.accounts[0]!.privateKey as `0x${string}`), chain: foundry, transport: http(chainA().rpcUrl) })
    await reader().waitForTransactionReceipt({ hash: await funder.sendTransaction({ to: smart, value: parseEther("1") }), timeout: 20_000 })
    await page.getByLabel("Receiver of the spend").fill(recipient)
  })

  it("the page asks for 0.01 ETH a day: the approval view says so in words, passes axe, and Approve is reached by keyboard", async () => {
    await page.getByRole("button", { name: "Grant a spending permission" }).click()
    const heading = dialog().getByRole("heading", { name: "Grant this spending permission" })
    await heading.waitFor({ timeout: 20_000 })
    const list = dialog().getByRole("list", { name: "Permissions asked for" })
    await expect.poll(() => list.textContent(), { timeout: 10_000 }).toMatch(
      /^This site may spend up to 0\.01 ETH per day from your account, without asking again, until .+\.TokenETHAmountUp to 0\.01 ETH per dayUntil.+The site's reasonDemo: a small daily allowance$/
    )
    expect(await axeViolations(page)).toEqual([])
    // The heading has focus (a stray Enter approves nothing); Reject, then Approve, by Tab.
    expect(await heading.evaluate((element) => element === document.activeElement)).toBe(true)
    const approve = dialog().getByRole("button", { name: "Approve" })
    for (let tabs = 0; tabs < 10 && !(await approve.evaluate((element) => element === document.activeElement)); tabs++) await page.keyboard.press("Tab")
    await page.keyboard.press("Enter")
    await expect.poll(() => output("permission").textContent(), { timeout: 30_000 }).toMatch(/^Granted: 0x[0-9a-f]{64}$/)
    await dialog().waitFor({ state: "detached", timeout: 10_000 })
  })

  it("spending 0.006 ETH with it opens no approval view and moves the ETH on chain; another 0.006 ETH the same day is refused and nothing moves", async () => {
    const before = await reader().getBalance({ address: smart })
    const spent = await spend("0.006")
    expect(spent).toMatch(/^Spent: 0x[0-9a-f]{64}$/)
    expect(await dialog().count()).toBe(0)
    const receipt = await reader().waitForTransactionReceipt({ hash: spent.slice("Spent: ".length) as `0x${string}`, timeout: 20_000 })
    expect(receipt.status).toBe("success")
    expect(await reader().getBalance({ address: recipient })).toBe(parseEther("0.006"))
    // The paymaster sponsors the operation: the smart account is short by the amount alone.
    expect(before - (await reader().getBalance({ address: smart }))).toBe(parseEther("0.006"))

    expect(await spend("0.006")).toBe("Error: This exceeds what the permission allows in this period")
    expect(await dialog().count()).toBe(0)
    expect(await reader().getBalance({ address: recipient })).toBe(parseEther("0.006"))
  })

  it("the revoke's approval view names the grant it ends (dark theme, 390 px, axe); after it a spend is refused", async () => {
    await page.getByRole("button", { name: "Dark theme" }).click()
    await page.setViewportSize({ width: 390, height: 844 })
    await page.getByRole("button", { name: "Revoke the permission" }).click()
    await dialog().getByRole("heading", { name: "Revoke this spending permission" }).waitFor({ timeout: 20_000 })
    await dialog().getByText("Once revoked, the site can no longer spend with it and must ask you again.").waitFor()
    expect(await dialog().getByRole("list", { name: "Permission to revoke" }).textContent()).toContain("Up to 0.01 ETH per day")
    // The sheet slides in and the theme's colours change over: both checked once the animations are over.
    await animationsSettled(page)
    expect(await axeViolations(page)).toEqual([])
    const box = await dialog().boundingBox()
    expect(box !== null && box.x >= 0 && box.x + box.width <= 390).toBe(true)
    // Nothing of the sheet is wider than its box.
    expect(await dialog().evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true)
    await dialog().getByRole("button", { name: "Approve" }).click()
    await expect.poll(() => output("permission-revoke").textContent(), { timeout: 30_000 }).toBe("Revoked")

    expect(await spend("0.001")).toBe("Error: This permission was revoked")
    expect(await reader().getBalance({ address: recipient })).toBe(parseEther("0.006"))
  })
})
