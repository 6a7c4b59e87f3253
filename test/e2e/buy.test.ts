/**
 * Buy in Chromium against the built demo on the local stack: from the account view the visitor chooses WUSD, types an
 * amount (one outside the card limits is said at once), sees the quote, opens the local on-ramp's page (its own
 * origin) in a new window, pays by card there; the view says the purchase arrived, the chain agrees (read from anvil
 * before and after), and after a reload Activity shows it as a deposit with its plus sign. Axe and 390 px.
 */
import AxeBuilder from "@axe-core/playwright"
import type { Page } from "playwright-core"
import { type Address, createPublicClient, type Hex, http, parseAbi } from "viem"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { DevstackInfo } from "../../devstack/main"
import type { Started } from "../../server/src/lib/Started"
import { type Browser, launchBrowser } from "./support/browser"
import { type ServedDemo, serveDemoOnStack } from "./support/demo"
import { installInjectedWallet } from "./support/injectedWallet"

const ALICE: Address = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"
const ERC = parseAbi(["function balanceOf(address) view returns (uint256)"])

let stack: Started<DevstackInfo>
let served: ServedDemo | undefined
let browser: Browser
let page: Page

const chain = () => {
  const found = stack.info.config.evm?.chains.find((c) => c.chainId === 31337)
  if (found === undefined) throw new Error("no chain 31337")
  return found
}
const wusdBalance = () =>
  createPublicClient({ transport: http(chain().rpcUrl) }).readContract({
    address: chain().tokens.find((t) => t.symbol === "WUSD")?.address as Address,
    abi: ERC,
    functionName: "balanceOf",
    args: [ALICE]
  })
const dialog = () => page.getByRole("dialog")
const view = () => dialog().getAttribute("data-view")
const accountButton = () => page.getByRole("button", { name: /alice\.wallet\.test/ })
const features = () => dialog().getByRole("group", { name: "Wallet features" })
const axeViolations = async () => {
  const result = await new AxeBuilder({ page }).include("[role=dialog]").analyze()
  return result.violations.map((v) => `${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(" ")).join("; ")}`)
}

beforeAll(async () => {
  served = await serveDemoOnStack("buy")
  stack = served.stack
  const evm = stack.info.config.evm
  if (evm === null) throw new Error("the demo stack has no EVM part")
  browser = await launchBrowser()
  await installInjectedWallet(browser.context, {
    privateKeys: evm.accounts.slice(0, 1).map((account) => account.privateKey as Hex),
    chains: evm.chains.map((c) => ({ chainId: c.chainId, name: `Local ${c.chainId}`, rpcUrl: c.rpcUrl })),
    chainId: 31337
  })
  page = browser.page
  await page.goto(served.demo.info.url)
  await page.getByRole("button", { name: "Connect wallet" }).click()
  await dialog().getByRole("button", { name: /Wallet Runtime Test Wallet/ }).click()
  await accountButton().waitFor({ timeout: 20_000 })
}, 180_000)

afterAll(async () => {
  await browser?.close()
  await served?.stop()
})

describe("Buy through the local on-ramp", () => {
  it("buys WUSD: paid on the provider's page, the arrival is shown, the chain agrees, and Activity lists a deposit after a reload", async () => {
    await page.reload()
    await accountButton().click({ timeout: 20_000 })
    // Buy shows once the services said their on-ramp delivers on this network (/v1/supported-chains), then first.
    await expect.poll(() => features().getByRole("button").first().textContent()).toBe("Buy")
    await features().getByRole("button", { name: "Buy" }).click()
    await expect.poll(view).toBe("Buy")
    await expect.poll(() => dialog().getByLabel("Buy", { exact: true }).inputValue()).toBe("WUSD")
    const amount = dialog().getByLabel("Amount", { exact: true })
    await amount.fill("5")
    const words = async () => dialog().locator(`[id="${await amount.getAttribute("aria-describedby")}"]`).textContent()
    await expect.poll(words).toBe("Enter an amount between 10 and 7,500 USD")
    expect(await axeViolations()).toEqual([])
    await amount.fill("50")
    const quote = dialog().getByRole("definition").nth(1)
    await expect.poll(() => quote.textContent(), { timeout: 10_000 }).toBe("49.15 WUSD")
    expect(await axeViolations()).toEqual([])

    const before = await wusdBalance()
    const [provider] = await Promise.all([browser.context.waitForEvent("page"), dialog().getByRole("link", { name: /Buy with Local On-ramp/ }).click()])
    await provider.waitForLoadState()
    expect(new URL(provider.url()).origin).not.toBe(new URL(served?.demo.info.url ?? "").origin)
    await dialog().getByRole("heading", { name: "Waiting for your WUSD" }).waitFor()
    await provider.getByLabel("Name on card").fill("Alice Visitor")
    await provider.getByLabel("Card number").fill("4242 4242 4242 4242")
    await provider.getByLabel("Expiry (MM/YY)").fill("12/30")
    await provider.getByLabel("CVC").fill("123")
    await provider.getByRole("button", { name: /Pay and receive WUSD/ }).click()
    await provider.getByRole("heading", { name: "Payment complete" }).waitFor({ timeout: 20_000 })
    await provider.close()

    await dialog().getByRole("heading", { name: "Purchase received" }).waitFor({ timeout: 20_000 })
    expect(await dialog().getByText("+49.15 WUSD arrived in your wallet.").count()).toBe(1)
    expect((await wusdBalance()) - before).toBe(49_150_000n)

    await page.reload()
    await accountButton().click({ timeout: 20_000 })
    await dialog().getByRole("tab", { name: "Activity" }).click()
    const row = dialog().getByRole("region", { name: "Today" }).getByRole("listitem").first()
    await expect.poll(() => row.textContent(), { timeout: 20_000 }).toMatch(/^Deposited.*\+49\.15 WUSD \(opens the explorer\)$/)
  })

  it("the page's own Buy button (useOnramp().open()) opens the closed modal on Buy; it fits a 390 px phone and passes axe with a quote shown", async () => {
    await page.reload()
    await accountButton().waitFor({ timeout: 20_000 })
    expect(await dialog().count()).toBe(0)
    await page.getByRole("button", { name: "Buy from the page" }).click()
    await expect.poll(view, { timeout: 20_000 }).toBe("Buy")
    await page.setViewportSize({ width: 390, height: 844 })
    await dialog().getByLabel("Amount", { exact: true }).fill("20")
    await expect.poll(() => dialog().getByRole("definition").nth(1).textContent(), { timeout: 10_000 }).toMatch(/WUSD$/)
    const misfits = await dialog().evaluate((element) => {
      const box = element.getBoundingClientRect()
      const outside = box.left < 0 || box.right > window.innerWidth ? ["the dialog"] : []
      const wide = [element, ...element.querySelectorAll("*")]
        .filter((child) => child.tagName !== "INPUT" && child.scrollWidth > child.clientWidth + 1 && getComputedStyle(child).overflowX !== "hidden")
        .map((child) => `${child.tagName.toLowerCase()}.${child.className} ${child.scrollWidth}>${child.clientWidth}`)
      return [...outside, ...wide]
    })
    expect(misfits).toEqual([])
    expect(await axeViolations()).toEqual([])
  })

  it("the demo's project allows analytics: opening Buy and the provider's page were recorded", async () => {
    const services = stack.info.config.services
    const answer = (await (await fetch(`${services?.url}/__events?projectId=${services?.defaultProjectId}`)).json()) as {
      events: ReadonlyArray<{ event: { props: { event: string } } }>
    }
    expect(answer.events.map((recorded) => recorded.event.props.event)).toEqual(expect.arrayContaining(["SELECT_BUY_CRYPTO", "SELECT_BUY_PROVIDER"]))
  })
})
