/**
 * The demo in a real Chromium against the local stack, with the injected test wallet announced through EIP-6963:
 * what a visitor does, by mouse and by keyboard, and what leaves the page.
 */
import AxeBuilder from "@axe-core/playwright"
import { join } from "node:path"
import type { Page } from "playwright-core"
import { createPublicClient, http, verifyMessage } from "viem"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { TestWallet } from "../../devstack/wallet/testWallet"
import { formatAmount, formatUnits, truncateAddress } from "../../src/domain/format"
import { animationsSettled, type Browser, isLoopback } from "./support/browser"
import { type OpenDemo, openDemo } from "./support/demo"
import { contrast, fillAndText } from "./support/colours"
import { installInjectedWallet } from "./support/injectedWallet"

const ALICE = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"
const BOB = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8"

let session: OpenDemo | undefined
let demoUrl: string
let browser: Browser
let wallet: TestWallet
let page: Page
let rpcA: string

const dialog = () => page.getByRole("dialog")
// The devstack's identity service names the first dev accounts; the button shows the name when there is one.
const NAMES: Record<string, string> = { [ALICE]: "alice.wallet.test", [BOB]: "bob.wallet.test" }
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
const accountButton = (address: string) =>
  page.getByRole("button", { name: new RegExp(`${escape(NAMES[address] ?? "")}|${escape(truncateAddress(address))}`) })
const networkButton = () => page.getByRole("button", { name: /^Network: / })

// Connecting closes the modal, as the peers do: the host's button then shows the account.
const openAndConnect = async () => {
  await page.getByRole("button", { name: "Connect wallet" }).click()
  await dialog().getByRole("button", { name: /Wallet Runtime Test Wallet/ }).click()
  await expect.poll(() => dialog().count()).toBe(0)
  await accountButton(wallet.address()).waitFor()
}

/** Saves a screenshot for a person to look at, when WR_SCREENSHOTS names a folder (the tests never compare them). */
const screenshot = async (name: string) => {
  const folder = process.env["WR_SCREENSHOTS"]
  if (folder === undefined || folder === "") return
  await animationsSettled(page)
  await page.screenshot({ path: join(folder, `${name}.png`) })
}

const closeModal = async () => {
  await page.keyboard.press("Escape")
  await expect.poll(() => dialog().count()).toBe(0)
}

/**
 * The page's own Swap and Buy buttons (the host's, not the modal's) read at 4.5:1 or more in light and dark, with no
 * modal over them; the contrasts, named, for the failure's message.
 */
const expectPageButtonsReadable = async () => {
  for (const theme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: theme })
    for (const name of ["Swap from the page", "Buy from the page"]) {
      const { fill, text } = await fillAndText(page.getByRole("button", { name }))
      expect(contrast(fill, text), `${name}, ${theme}`).toBeGreaterThanOrEqual(4.5)
    }
  }
  await page.emulateMedia({ colorScheme: "light" })
}

beforeAll(async () => {
  session = await openDemo({ name: "demo" })
  demoUrl = session.url
  browser = session.browser
  const evm = session.stack.config.evm
  if (evm === null) throw new Error("the demo stack has no EVM part")
  rpcA = evm.chains.find((chain) => chain.chainId === 31337)?.rpcUrl ?? ""
  // The wallet knows chain A only: switching to chain B makes it answer 4902, so the product must add the chain.
  wallet = await installInjectedWallet(browser.context, {
    privateKeys: evm.accounts.slice(0, 2).map((account) => account.privateKey as `0x${string}`),
    chains: [{ chainId: 31337, name: "Local Chain A", rpcUrl: rpcA }],
    chainId: 31337
  })
  page = browser.page
})

afterAll(() => session?.stop())

describe("the demo in Chromium with an injected wallet", () => {
  it("sends nothing before the visitor acts, and only the page's own files", async () => {
    const before = browser.requests.length
    await page.goto(demoUrl)
    await page.getByRole("button", { name: "Connect wallet" }).waitFor()
    // Once idle, the runtime's code arrives and the modal's first view is laid out ahead, hidden and out of reach.
    const laidOut = page.locator("[data-wallet-runtime=modal][aria-hidden=true][inert]")
    await laidOut.locator("[role=dialog][data-view=Connect] [role=list] button").first().waitFor({ state: "attached" })
    expect(await laidOut.isVisible()).toBe(false)
    expect(await page.getByRole("dialog").count()).toBe(0)
    await page.waitForLoadState("networkidle")
    const made = browser.requests.slice(before)
    const origin = new URL(demoUrl).origin
    expect(made.filter((url) => !url.startsWith(origin))).toEqual([])
  })

  it("the catalogue's rows hold their place while it answers: the dialog keeps its size and position when they arrive", async () => {
    let release = () => {}
    const answered = new Promise<void>((resolve) => {
      release = resolve
    })
    // The real catalogue's answer, held back until the test has looked at the placeholders.
    await page.route("**/getWallets?**", async (route) => {
      await answered
      await route.continue()
    })
    try {
      await page.reload()
      await page.getByRole("button", { name: "Connect wallet" }).click()
      await dialog().getByRole("button", { name: /Wallet Runtime Test Wallet/ }).waitFor()
      await animationsSettled(page)
      expect(await dialog().locator("[data-wr-skeleton]").count()).toBe(4)
      const before = await dialog().boundingBox()
      release()
      await dialog().getByRole("button", { name: /Devstack Test Wallet$/ }).waitFor()
      expect(await dialog().locator("[data-wr-skeleton]").count()).toBe(0)
      const after = await dialog().boundingBox()
      expect(before).not.toBeNull()
      expect(Math.abs(after!.y - before!.y)).toBeLessThan(1)
      expect(Math.abs(after!.height - before!.height)).toBeLessThan(1)
    } finally {
      release()
      await page.unroute("**/getWallets?**")
    }
    await closeModal()
  })

  it("the page's own Swap and Buy, before a wallet is connected: disabled, saying why, and readable (4.5:1 or more) in light and dark", async () => {
    const card = page.getByRole("region", { name: "Swap and buy" })
    expect(await card.getByRole("button", { name: "Swap from the page" }).isDisabled()).toBe(true)
    expect(await card.getByText("Connect a wallet first.").count()).toBe(1)
    await expectPageButtonsReadable()
  })

  it("connects: the modal closes, and the account view shows the address and the anvil balance", async () => {
    await openAndConnect()
    await accountButton(ALICE).click()
    await expect.poll(() => dialog().getByText(truncateAddress(ALICE)).count()).toBeGreaterThan(0)
    const wei = await createPublicClient({ transport: http(rpcA) }).getBalance({ address: ALICE })
    const shown = formatAmount(formatUnits(wei, 18))
    await expect.poll(() => dialog().getByText(new RegExp(shown.replace(/[.,]/g, "\\$&"))).count()).toBeGreaterThan(0)
    await closeModal()
  })

  it("the page's own Swap and Buy, once connected: enabled and readable (4.5:1 or more) in light and dark", async () => {
    expect(await page.getByRole("button", { name: "Swap from the page" }).isEnabled()).toBe(true)
    await expectPageButtonsReadable()
  })

  it("restores the session after a reload without asking the wallet again", async () => {
    const prompts = wallet.requests.filter((method) => method === "eth_requestAccounts").length
    await page.reload()
    await accountButton(ALICE).waitFor()
    expect(wallet.requests.filter((method) => method === "eth_requestAccounts").length).toBe(prompts)
  })

  it("switches to a chain the wallet does not know by adding it, and back to a known one", async () => {
    await networkButton().click()
    await dialog().getByRole("button", { name: /Local Chain B/ }).click()
    await expect.poll(() => wallet.chainId()).toBe(31338)
    expect(wallet.requests).toContain("wallet_addEthereumChain")
    await expect.poll(() => networkButton().getAttribute("aria-label")).toContain("Local Chain B")
    if ((await dialog().count()) > 0) await closeModal()
    await networkButton().click()
    await dialog().getByRole("button", { name: /Local Chain A/ }).click()
    await expect.poll(() => wallet.chainId()).toBe(31337)
    await expect.poll(() => networkButton().getAttribute("aria-label")).toContain("Local Chain A")
    if ((await dialog().count()) > 0) await closeModal()
  })

  it("follows the wallet when it changes account or chain on its own", async () => {
    wallet.selectAccount(1)
    try {
      await accountButton(BOB).waitFor()
    } finally {
      wallet.selectAccount(0)
    }
    await accountButton(ALICE).waitFor()
    wallet.moveToChain(31338)
    await expect.poll(() => networkButton().getAttribute("aria-label")).toContain("Local Chain B")
    wallet.moveToChain(31337)
    await expect.poll(() => networkButton().getAttribute("aria-label")).toContain("Local Chain A")
  })

  it("shows UnsupportedChain when the wallet moves outside the networks, and switches back from there", async () => {
    wallet.moveToChain(10)
    await dialog().getByRole("heading", { name: "Switch network" }).waitFor()
    await dialog().getByRole("button", { name: /Local Chain A/ }).click()
    await expect.poll(() => wallet.chainId()).toBe(31337)
    await expect.poll(() => networkButton().getAttribute("aria-label")).toContain("Local Chain A")
    if ((await dialog().count()) > 0) await closeModal()
  })

  it("signs a message the visitor approves, and the signature verifies", async () => {
    const message = "Hello from the Wallet Runtime demo"
    await page.getByRole("button", { name: "Sign message" }).click()
    const output = page.getByTestId("signature")
    await expect.poll(() => output.textContent()).toMatch(/^0x[0-9a-f]{130}$/)
    const signature = (await output.textContent()) as `0x${string}`
    expect(await verifyMessage({ address: ALICE, message, signature })).toBe(true)
  })

  it("sends a transaction and shows it mined", async () => {
    const client = createPublicClient({ transport: http(rpcA) })
    const before = await client.getBalance({ address: BOB })
    await page.getByRole("button", { name: "Send", exact: true }).click()
    await expect.poll(() => page.getByTestId("transaction").textContent(), { timeout: 20_000 }).toMatch(/confirmed in block \d+/)
    expect((await client.getBalance({ address: BOB })) - before).toBe(10_000_000_000_000_000n)
  })

  it("disconnects", async () => {
    await accountButton(ALICE).click()
    await dialog().getByRole("button", { name: "Disconnect" }).click()
    await page.getByRole("button", { name: "Connect wallet" }).waitFor()
  })

  it("a refused connection shows the refusal, and Try again connects", async () => {
    wallet.setApproval("reject")
    try {
      await page.getByRole("button", { name: "Connect wallet" }).click()
      await dialog().getByRole("button", { name: /Wallet Runtime Test Wallet/ }).click()
      await dialog().getByText("Connection declined").waitFor()
    } finally {
      wallet.setApproval("approve")
    }
    await dialog().getByRole("button", { name: "Try again" }).click()
    await expect.poll(() => dialog().count()).toBe(0)
    await accountButton(ALICE).click()
    await dialog().getByRole("button", { name: "Disconnect" }).click()
    await page.getByRole("button", { name: "Connect wallet" }).waitFor()
    await closeModal().catch(() => undefined)
  })

  it("the open modal passes an axe-core check, and so does the page with the modal laid out ahead", async () => {
    await page.locator("[data-wallet-runtime=modal][aria-hidden=true] [role=dialog]").waitFor({ state: "attached" })
    // Hidden from assistive technology, and nothing in it can take focus (axe's aria-hidden-focus rule ran and passed).
    const ahead = await new AxeBuilder({ page }).include("[data-wallet-runtime=modal]").analyze()
    expect(ahead.violations.map((v) => v.id)).toEqual([])
    expect(ahead.passes.map((rule) => rule.id)).toContain("aria-hidden-focus")
    await page.getByRole("button", { name: "Connect wallet" }).click()
    await dialog().getByRole("button", { name: /Wallet Runtime Test Wallet/ }).waitFor()
    // Colours are judged as the visitor sees them once the modal has finished fading in.
    await animationsSettled(page)
    await screenshot("desktop-light-connect")
    const result = await new AxeBuilder({ page }).include("[role=dialog]").analyze()
    expect(
      result.violations.map((v) => `${v.id}: ${v.help} — ${v.nodes.map((n) => `${n.target.join(" ")} ${n.failureSummary ?? ""}`).join("; ")}`)
    ).toEqual([])
    await dialog().getByRole("button", { name: "What is a wallet?" }).click()
    await dialog().getByRole("button", { name: "Get a wallet" }).waitFor()
    await screenshot("desktop-light-help")
    const help = await new AxeBuilder({ page }).include("[role=dialog]").analyze()
    expect(help.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([])
    await closeModal()
  })

  it("works by keyboard alone: open, connect, close with focus back on the trigger", async () => {
    await page.reload()
    const trigger = page.getByRole("button", { name: "Connect wallet" })
    await trigger.focus()
    await page.keyboard.press("Enter")
    await dialog().waitFor()
    const focusedInDialog = () => page.evaluate(() => document.querySelector("[role=dialog]")?.contains(document.activeElement) ?? false)
    expect(await focusedInDialog()).toBe(true)
    // A visitor tabs once the wallets are on screen (the view loads on first open).
    await dialog().getByRole("button", { name: /Wallet Runtime Test Wallet/ }).waitFor()
    for (let i = 0; i < 12; i++) {
      const label = await page.evaluate(() =>
        document.activeElement?.tagName === "BUTTON" ? (document.activeElement.textContent ?? "") : ""
      )
      if (label.includes("Wallet Runtime Test Wallet")) break
      await page.keyboard.press("Tab")
      expect(await focusedInDialog()).toBe(true)
    }
    await page.keyboard.press("Enter")
    // Connecting closes the modal; the Connect button became the account button, and focus is on it.
    await expect.poll(() => dialog().count()).toBe(0)
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent ?? "")).toContain("alice.wallet.test")
    await page.keyboard.press("Enter")
    await dialog().getByRole("button", { name: "Disconnect" }).waitFor()
    await page.keyboard.press("Escape")
    await expect.poll(() => dialog().count()).toBe(0)
    expect(await page.evaluate(() => document.activeElement?.textContent ?? "")).toContain("alice.wallet.test")
  })

  it("on a phone (390 px): the account button shows the avatar and short address only, the network button its icon, nothing is wider than the screen, the sheet is on screen", async () => {
    await page.setViewportSize({ width: 390, height: 844 })
    try {
      const button = page.getByRole("button", { name: truncateAddress(ALICE, 4, 4), exact: true })
      await button.waitFor()
      const seen = await button.innerText()
      expect(seen).not.toContain("alice.wallet.test")
      expect(seen).not.toMatch(/ETH/)
      const box = await button.boundingBox()
      expect(box !== null && box.x >= 0 && box.x + box.width <= 390).toBe(true)
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
      // The network button shows its icon alone; its name still says the network.
      expect(await networkButton().innerText()).not.toContain("Local Chain A")
      expect(await networkButton().getAttribute("aria-label")).toContain("Local Chain A")
      await screenshot("phone-page")

      await button.click()
      await dialog().getByRole("button", { name: "Disconnect" }).waitFor()
      await animationsSettled(page)
      const sheet = await dialog().boundingBox()
      expect(sheet).not.toBeNull()
      expect(sheet!.x).toBeGreaterThanOrEqual(0)
      expect(sheet!.y).toBeGreaterThanOrEqual(0)
      expect(sheet!.x + sheet!.width).toBeLessThanOrEqual(390)
      expect(sheet!.y + sheet!.height).toBeLessThanOrEqual(844)
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
      await screenshot("phone-account")
      await closeModal()
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 })
    }
  })

  it("the theme toggle themes the page and the modal together, and is kept across a reload", async () => {
    const toggle = page.getByRole("button", { name: "Dark theme" })
    const pageBackground = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor)
    const light = await pageBackground()
    await toggle.click()
    await expect.poll(() => toggle.getAttribute("aria-pressed")).toBe("true")
    expect(await pageBackground()).not.toBe(light)
    await accountButton(ALICE).click()
    await dialog().getByRole("button", { name: "Disconnect" }).waitFor()
    expect(await page.locator("[data-wallet-runtime=modal]").getAttribute("data-wr-theme")).toBe("dark")
    await screenshot("desktop-dark-account")
    await closeModal()
    await page.setViewportSize({ width: 390, height: 844 })
    try {
      await page.getByRole("button", { name: truncateAddress(ALICE, 4, 4), exact: true }).click()
      await dialog().getByRole("button", { name: "Disconnect" }).waitFor()
      expect(await page.locator("[data-wallet-runtime=modal]").getAttribute("data-wr-theme")).toBe("dark")
      await screenshot("phone-dark-account")
      await closeModal()
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 })
    }

    await page.reload()
    await accountButton(ALICE).waitFor()
    expect(await page.getByRole("button", { name: "Dark theme" }).getAttribute("aria-pressed")).toBe("true")
    expect(await pageBackground()).not.toBe(light)
    await page.getByRole("button", { name: "Dark theme" }).click()
    await expect.poll(pageBackground).toBe(light)
  })

  it("never reached any address off this machine", () => {
    expect(browser.requests.filter((url) => !isLoopback(url))).toEqual([])
  })
})
