/**
 * The account's tabs with real data: Chromium against the built demo on the local stack (anvil with the dev tokens
 * and collectibles, the services indexing them). Tokens lists what the chain holds with USD values, NFTs shows the
 * collectibles without the spam airdrop, Activity shows the visitor's own transaction; the tabs work by keyboard
 * and pass axe.
 */
import AxeBuilder from "@axe-core/playwright"
import type { Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Browser } from "./support/browser"
import { type OpenDemo, openDemo, serveDemo } from "./support/demo"
import { installInjectedWallet } from "./support/injectedWallet"

let session: OpenDemo
let browser: Browser
let page: Page

const dialog = () => page.getByRole("dialog")
const accountButton = () => page.getByRole("button", { name: /alice\.wallet\.test/ })
const panel = () => dialog().getByRole("tabpanel")
const tab = (name: string) => dialog().getByRole("tab", { name })

const axeViolations = async () => {
  const result = await new AxeBuilder({ page }).include("[role=dialog]").analyze()
  return result.violations.map((v) => `${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(" ")).join("; ")}`)
}

beforeAll(async () => {
  session = await openDemo({ name: "account" })
  const evm = session.stack.config.evm
  if (evm === null) throw new Error("the demo stack has no EVM part")
  browser = session.browser
  await installInjectedWallet(browser.context, {
    privateKeys: evm.accounts.slice(0, 1).map((account) => account.privateKey as `0x${string}`),
    chains: evm.chains.map((chain) => ({ chainId: chain.chainId, name: `Local ${chain.chainId}`, rpcUrl: chain.rpcUrl })),
    chainId: 31337,
    approve: () => "approve"
  })
  page = browser.page
  await page.goto(session.url)
  await page.getByRole("button", { name: "Connect wallet" }).click()
  await dialog().getByRole("button", { name: /Wallet Runtime Test Wallet/ }).click()
  await accountButton().waitFor()
}, 120_000)

afterAll(() => session?.stop())

describe("the account's tabs on the local stack", () => {
  it("Tokens: the dev account's ETH, WUSD and WUSDT with quantities and USD values, highest value first, and the total", async () => {
    await accountButton().click()
    const list = panel().getByRole("list", { name: "Tokens" })
    await list.waitFor()
    const rows = await list.getByRole("listitem").allTextContents()
    const symbols = rows.map((row) => row.match(/ (ETH|WUSD|WUSDT)\$/)?.[1])
    expect(symbols).toEqual(expect.arrayContaining(["ETH", "WUSD", "WUSDT"]))
    const values = rows.map((row) => Number((row.match(/\$([\d,]+\.\d{2})$/)?.[1] ?? "NaN").replace(/,/g, "")))
    expect(values.every(Number.isFinite)).toBe(true)
    expect([...values].sort((a, b) => b - a)).toEqual(values)
    expect(rows.find((row) => row.includes("WUSD$"))).toMatch(/10,000 WUSD\$10,000\.00$/)
    const total = (await panel().getByText(/^\$[\d,]+\.\d{2}$/).first().textContent()) ?? ""
    expect(Number(total.replace(/[$,]/g, ""))).toBeCloseTo(values.reduce((a, b) => a + b, 0), 1)
    expect(await axeViolations()).toEqual([])
  })

  it("NFTs: the three collectibles with pictures, no spam airdrop; one's details by keyboard, and back", async () => {
    // The tab list moves with the arrow keys, as WAI-ARIA tabs do.
    await tab("Tokens").focus()
    await page.keyboard.press("ArrowRight")
    await expect.poll(() => tab("NFTs").getAttribute("aria-selected")).toBe("true")
    const grid = panel().getByRole("list", { name: "NFTs" })
    await grid.waitFor()
    const names = await grid.getByRole("button").allTextContents()
    expect(names).toHaveLength(3)
    expect(names.every((name) => name.startsWith("Wallet Runtime Collectibles #"))).toBe(true)
    expect(names.join()).not.toContain("Claim Your Reward")
    await expect.poll(() => grid.locator("img").evaluateAll((images) => images.every((img) => (img as HTMLImageElement).naturalWidth > 0))).toBe(true)
    expect(await axeViolations()).toEqual([])
    await grid.getByRole("button").first().focus()
    await page.keyboard.press("Enter")
    const heading = panel().getByRole("heading")
    await expect.poll(() => heading.evaluate((element) => element === document.activeElement)).toBe(true)
    expect(await panel().getByText("Token ID").count()).toBe(1)
    expect(await axeViolations()).toEqual([])
    await panel().getByRole("button", { name: "All NFTs" }).click()
    await grid.waitFor()
  })

  it("Activity: the visitor's own transaction from the page is listed, signed, after it is sent", async () => {
    await page.keyboard.press("Escape")
    await dialog().waitFor({ state: "detached" })
    await page.locator("main").getByRole("button", { name: "Send", exact: true }).click()
    await expect.poll(() => page.getByTestId("transaction").textContent(), { timeout: 20_000 }).toMatch(/confirmed in block/)
    // The host's own send, with the modal closed: its result reaches the visitor in the page's polite region.
    const region = page.locator('[data-wallet-runtime="notifications"]')
    expect(await region.getAttribute("aria-live")).toBe("polite")
    await expect.poll(() => region.textContent()).toMatch(/Transaction (started|confirmed)/)
    await accountButton().click()
    await tab("Activity").click()
    const today = panel().getByRole("region", { name: "Today" })
    await today.waitFor()
    await expect.poll(() => today.getByRole("listitem").first().textContent()).toMatch(/^Sent.*ETH/)
    expect(await axeViolations()).toEqual([])
  })
})

describe("analytics on the local stack", () => {
  const eventsOf = async (projectId: string): Promise<ReadonlyArray<string>> => {
    const services = session.stack.config.services?.url ?? ""
    const answer = (await (await fetch(`${services}/__events?projectId=${projectId}`)).json()) as {
      events: ReadonlyArray<{ event: { props: { event: string } } }>
    }
    return answer.events.map((recorded) => recorded.event.props.event)
  }

  it("the demo's project allows analytics: what the visitor did above was recorded, after the fact", async () => {
    const projectId = session.stack.config.services?.defaultProjectId ?? ""
    await expect.poll(() => eventsOf(projectId)).toEqual(
      expect.arrayContaining(["MODAL_OPEN", "SELECT_WALLET", "CONNECT_SUCCESS", "VIEW_TAB", "MODAL_CLOSE"])
    )
  })

  it("a project whose service says analytics is off: the visitor's actions send no event at all", async () => {
    const quiet = await serveDemo(session.outDir, session.stack, {}, { projectId: "devstack-no-analytics" })
    const before = browser.requests.length
    try {
      // Another origin: the visitor connects afresh there.
      await page.goto(quiet.info.url)
      await page.getByRole("button", { name: "Connect wallet" }).click()
      await dialog().getByRole("button", { name: /Wallet Runtime Test Wallet/ }).click()
      await accountButton().click()
      await tab("Activity").click()
      await panel().getByRole("region", { name: "Today" }).waitFor()
      await page.keyboard.press("Escape")
      await dialog().waitFor({ state: "detached" })
      // The first event asks the service's config (a moment after the action); an event would be posted right after.
      const paths = () => browser.requests.slice(before).map((url) => new URL(url).pathname)
      await expect.poll(() => paths().filter((path) => path === "/getAnalyticsConfig").length).toBe(1)
      await page.waitForLoadState("networkidle")
      expect(paths().filter((path) => path === "/e")).toEqual([])
      expect(paths().filter((path) => path === "/getAnalyticsConfig")).toHaveLength(1)
      expect(await eventsOf("devstack-no-analytics")).toEqual([])
    } finally {
      await quiet.stop()
    }
  })

  it("a project that does not allow this page: its services answer 403, and 'Invalid App Configuration' is shown once", async () => {
    const locked = await serveDemo(session.outDir, session.stack, {}, { projectId: "devstack-origin-locked" })
    const before = browser.requests.length
    try {
      await page.goto(locked.info.url)
      await page.getByRole("button", { name: "Connect wallet" }).click()
      const alerts = () => page.getByRole("alert").filter({ hasText: "Invalid App Configuration" })
      await alerts().first().waitFor({ timeout: 15_000 })
      expect(await alerts().count()).toBe(1)
      // Shown once per runtime: dismissed, it stays away while the modal opens again (more events, more 403s). The
      // modal's alert list may be mounted anew on reopening, so the alert itself is what is checked, not the DOM's
      // insertions.
      await dialog().getByRole("button", { name: "Dismiss: Invalid App Configuration" }).click()
      await expect.poll(() => alerts().count()).toBe(0)
      await page.keyboard.press("Escape")
      await dialog().waitFor({ state: "detached" })
      await page.getByRole("button", { name: "Connect wallet" }).click()
      await dialog().waitFor()
      await page.waitForLoadState("networkidle")
      await page.keyboard.press("Escape")
      await dialog().waitFor({ state: "detached" })
      const configAsked = () =>
        browser.requests.slice(before).filter((url) => new URL(url).pathname === "/getAnalyticsConfig").length
      await expect.poll(configAsked).toBeGreaterThan(0)
      await page.waitForLoadState("networkidle")
      await page.getByRole("button", { name: "Connect wallet" }).click()
      await dialog().waitFor()
      expect(await alerts().count()).toBe(0)
      await page.keyboard.press("Escape")
      expect(await eventsOf("devstack-origin-locked")).toEqual([])
    } finally {
      await locked.stop()
    }
  })
})
