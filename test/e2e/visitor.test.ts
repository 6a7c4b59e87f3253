/**
 * What a visitor noticed when the demo was first tried, each fixed at the core and checked here in Chromium against
 * the local stack: balances follow the visitor's own transactions and the wallet's account; a burst of wallet events
 * stays cheap; the wallet's own words reach the visitor; the network picked before connecting is the one asked for;
 * the development wallet remembers the demo; a stored network the host dropped shows as unsupported; a wallet that
 * never answers can always be left.
 */
import type { Page } from "playwright-core"
import { createPublicClient, http } from "viem"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Approval, TestWallet } from "../../devstack/wallet/testWallet"
import { formatAmount, formatUnits } from "../../src/domain/format"
import { type Browser, launchBrowser } from "./support/browser"
import { type OpenDemo, openDemo } from "./support/demo"
import { installInjectedWallet } from "./support/injectedWallet"

const ALICE = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"

let session: OpenDemo | undefined
let demoUrl: string
let browser: Browser
let page: Page
let wallet: TestWallet
let rpcA: string
// How the wallet answers its next prompts: at once, or never (a visitor who walked away from the wallet).
let answer: "now" | "never" = "now"
let releaseHeld: Array<() => void> = []

const dialog = () => page.getByRole("dialog")
const networkButton = () => page.getByRole("button", { name: /^Network: / })
const accountButton = () => page.getByRole("button", { name: /alice\.wallet\.test/ })
const connectButton = () => page.getByRole("button", { name: "Connect wallet" })

const connect = async () => {
  await connectButton().click()
  await dialog().getByRole("button", { name: /Wallet Runtime Test Wallet/ }).click()
  await accountButton().waitFor()
}
const disconnect = async () => {
  await accountButton().click()
  await dialog().getByRole("button", { name: "Disconnect" }).click()
  await connectButton().waitFor()
}
const shownBalance = async () => (await accountButton().textContent())?.match(/[\d,]+\.\d{3} ETH/)?.[0]
const anvilBalance = async () => formatAmount(formatUnits(await createPublicClient({ transport: http(rpcA) }).getBalance({ address: ALICE }), 18))

beforeAll(async () => {
  session = await openDemo({ name: "visitor" })
  demoUrl = session.url
  browser = session.browser
  const evm = session.stack.config.evm
  if (evm === null) throw new Error("the demo stack has no EVM part")
  rpcA = evm.chains.find((chain) => chain.chainId === 31337)?.rpcUrl ?? ""
  const rpcB = evm.chains.find((chain) => chain.chainId === 31338)?.rpcUrl ?? ""
  wallet = await installInjectedWallet(browser.context, {
    privateKeys: evm.accounts.slice(0, 2).map((account) => account.privateKey as `0x${string}`),
    chains: [
      { chainId: 31337, name: "Local Chain A", rpcUrl: rpcA },
      { chainId: 31338, name: "Local Chain B", rpcUrl: rpcB }
    ],
    chainId: 31337,
    approve: () =>
      answer === "now" ? "approve" : new Promise<Approval>((resolve) => releaseHeld.push(() => resolve("approve")))
  })
  page = browser.page
  await page.goto(demoUrl)
})

afterAll(() => session?.stop())

describe("what a visitor noticed, fixed", () => {
  it("the network picked before connecting is the one the wallet is asked for", async () => {
    await networkButton().click()
    await dialog().getByRole("button", { name: /Local Chain B/ }).click()
    await expect.poll(() => networkButton().getAttribute("aria-label")).toContain("Local Chain B")
    if ((await dialog().count()) > 0) await page.keyboard.press("Escape")
    expect(wallet.chainId()).toBe(31337)
    await connect()
    await expect.poll(() => wallet.chainId()).toBe(31338)
    expect(wallet.requests).toContain("wallet_switchEthereumChain")
    await expect.poll(() => networkButton().getAttribute("aria-label")).toContain("Local Chain B")
    await networkButton().click()
    await dialog().getByRole("button", { name: /Local Chain A/ }).click()
    await expect.poll(() => wallet.chainId()).toBe(31337)
    if ((await dialog().count()) > 0) await page.keyboard.press("Escape")
  })

  it("after the visitor's own transaction is mined, the header shows the new balance without a reload", async () => {
    await expect.poll(shownBalance).toBe(`${await anvilBalance()} ETH`)
    const before = await shownBalance()
    await page.getByRole("button", { name: "Send", exact: true }).click()
    await expect.poll(() => page.getByTestId("transaction").textContent(), { timeout: 20_000 }).toMatch(/confirmed in block/)
    await expect.poll(shownBalance).toBe(`${await anvilBalance()} ETH`)
    expect(await shownBalance()).not.toBe(before)
  })

  // The longest task during such a burst is a figure of `npm run bench` (a timing, not a test's assertion).
  it("a burst of 1,000 accountsChanged costs at most a couple of balance reads and ends on the last account", async () => {
    const balanceReads = () => browser.requests.filter((url) => /\/v1\/account\/[^/]+\/balance/.test(url)).length
    const readsBefore = balanceReads()
    await page.evaluate(() => {
      const emit = (window as unknown as { __wrTestWalletEmit: (event: string, args: ReadonlyArray<unknown>) => void }).__wrTestWalletEmit
      for (let i = 0; i < 1000; i++) {
        const address = i === 999 ? "0x70997970C51812dc3A010C7d01b50e0d17dc79C8" : `0x${(i + 1).toString(16).padStart(40, "0")}`
        emit("accountsChanged", [[address]])
      }
    })
    await page.getByRole("button", { name: /bob\.wallet\.test/ }).waitFor()
    await page.waitForLoadState("networkidle")
    expect(balanceReads() - readsBefore).toBeLessThanOrEqual(2)
    wallet.selectAccount(0)
    await accountButton().waitFor()
  })

  it("the wallet's own words reach the visitor: insufficient funds, not 'Something went wrong'", async () => {
    await page.getByLabel(/^Amount/).fill("1000000000")
    await page.getByRole("button", { name: "Send", exact: true }).click()
    await expect.poll(() => page.getByTestId("transaction").textContent()).toMatch(/^Error: .*insufficient funds/i)
    await page.getByRole("status").filter({ hasText: /insufficient funds/i }).first().waitFor()
    await page.getByLabel(/^Amount/).fill("0.01")
  })

  it("a stored network the host no longer lists shows as unsupported, not silently as the first network", async () => {
    await disconnect()
    await page.evaluate(() => localStorage.setItem("wr:v1:activeNetwork:eip155", JSON.stringify("eip155:5")))
    await page.reload()
    await expect.poll(() => networkButton().getAttribute("aria-label")).toContain("Unsupported Network")
  })

  it("a wallet that never answers: the visitor leaves the connecting view, the button says Connect again, a late answer takes nothing over", async () => {
    await page.reload()
    answer = "never"
    try {
      await connectButton().click()
      await dialog().getByRole("button", { name: /Wallet Runtime Test Wallet/ }).click()
      await dialog().getByText("Continue in Wallet Runtime Test Wallet").waitFor()
      await expect.poll(() => connectButton().count()).toBe(0)
      await dialog().getByRole("button", { name: "Back" }).click()
      await dialog().getByRole("button", { name: /Wallet Runtime Test Wallet/ }).waitFor()
      await page.keyboard.press("Escape")
      await connectButton().waitFor()
    } finally {
      answer = "now"
      for (const release of releaseHeld) release()
      releaseHeld = []
    }
    // The wallet answered after all: the page stays as the visitor left it.
    await page.waitForTimeout(300)
    expect(await connectButton().count()).toBe(1)
    expect(await accountButton().count()).toBe(0)
  })
})

describe("a wallet on a network the host did not ask for (the default, 'Switch network', is in demo.test.ts)", () => {
  const label = () => networkButton().getAttribute("aria-label")

  for (const [option, query] of [
    ["allowUnsupportedChain", "?unsupportedChain=allow"],
    ["enableNetworkSwitch: false", "?networkSwitch=off"],
    ["basic mode", "?basic=on"]
  ] as const) {
    it(`with ${option}, no 'Switch network' opens: the header says the network is unsupported and the page stays usable`, async () => {
      try {
        await page.goto(`${demoUrl}${query}`)
        await accountButton().or(connectButton()).waitFor()
        if ((await connectButton().count()) > 0) await connect()
        await expect.poll(label, { timeout: 10_000 }).toContain("Local Chain A")
        if (option === "enableNetworkSwitch: false") {
          // The Networks view says why its networks cannot be chosen here.
          await networkButton().click()
          await expect.poll(() => dialog().getAttribute("data-view")).toBe("Networks")
          await dialog().getByText("This site does not let you switch networks here.").waitFor()
          expect(await dialog().getByRole("button", { name: /Local Chain B/ }).isDisabled()).toBe(true)
          await page.keyboard.press("Escape")
          await dialog().waitFor({ state: "detached" })
        }
        wallet.moveToChain(1234)
        await expect.poll(label, { timeout: 10_000 }).toContain("Unsupported Network")
        // Two frames later the page is as the visitor sees it: nothing opened on its own.
        await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))))
        expect(await dialog().count()).toBe(0)
        // The page stays usable: the account is still there, and the visitor's own click opens the modal.
        await accountButton().click()
        await expect.poll(() => dialog().getAttribute("data-view")).not.toBeNull()
        await page.keyboard.press("Escape")
        await dialog().waitFor({ state: "detached" })
      } finally {
        wallet.moveToChain(31337)
        await expect.poll(label, { timeout: 10_000 }).toContain("Local Chain A")
      }
    })
  }
})

describe("a wallet that refuses to add a network", () => {
  it("says 'Chain is not supported' and stays where it was", async () => {
    const other = await launchBrowser()
    try {
      const evm = session!.stack.config.evm!
      const refusing = await installInjectedWallet(other.context, {
        privateKeys: [evm.accounts[0]!.privateKey as `0x${string}`],
        // It knows Local Chain A only, and the visitor refuses to add Local Chain B.
        chains: [{ chainId: 31337, name: "Local Chain A", rpcUrl: rpcA }],
        chainId: 31337,
        approve: (method) => (method === "wallet_addEthereumChain" ? "reject" : "approve")
      })
      const p = other.page
      await p.goto(demoUrl)
      await p.getByRole("button", { name: "Connect wallet" }).click()
      await p.getByRole("dialog").getByRole("button", { name: /Wallet Runtime Test Wallet/ }).click()
      await p.getByRole("button", { name: /alice\.wallet\.test/ }).waitFor()
      await p.getByRole("button", { name: /^Network: / }).click()
      await p.getByRole("dialog").getByRole("button", { name: /Local Chain B/ }).click()
      await p.getByRole("dialog").getByText("Chain is not supported").waitFor()
      expect(refusing.requests).toEqual(expect.arrayContaining(["wallet_switchEthereumChain", "wallet_addEthereumChain"]))
      expect(refusing.chainId()).toBe(31337)
      await p.keyboard.press("Escape")
      await p.getByRole("dialog").waitFor({ state: "detached" })
      expect(await p.getByRole("button", { name: /^Network: / }).getAttribute("aria-label")).toContain("Local Chain A")
    } finally {
      await other.close()
    }
  })
})

describe("the development wallet", () => {
  it("remembers that it authorised the demo across reloads, as an extension does", async () => {
    const context = await launchBrowser()
    try {
      const devPage = context.page
      const prompts: Array<string> = []
      devPage.on("dialog", (box) => {
        prompts.push(box.message())
        void box.accept()
      })
      await devPage.goto(demoUrl)
      await devPage.getByLabel("Use the development wallet").check()
      await devPage.waitForLoadState("load")
      await devPage.getByRole("button", { name: "Connect wallet" }).click()
      await devPage.getByRole("dialog").getByRole("button", { name: /Dev Test Wallet/ }).click()
      await devPage.getByRole("button", { name: /alice\.wallet\.test/ }).waitFor()
      const asked = prompts.length
      expect(asked).toBeGreaterThan(0)
      await devPage.reload()
      await devPage.getByRole("button", { name: /alice\.wallet\.test/ }).waitFor()
      expect(prompts.length).toBe(asked)
    } finally {
      await context.close()
    }
  })
})
