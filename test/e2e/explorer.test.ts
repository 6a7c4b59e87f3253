/**
 * Explorer links and pending transactions on the real local stack, in Chromium against the built demo: the demo
 * gives its local networks the stack's explorer (as a host gives its networks' explorers), so the Send result, the
 * Activity rows, the NFT detail and the account's address link to pages that say what the chain says. With anvil's
 * automine off, a send is seen pending — in the Send result, the Activity tab, the host page's own send card and the
 * explorer — and confirmed in all of them once a block is mined. A SOL send's link opens its signature's page.
 */
import { generateKeyPairSigner } from "@solana/kit"
import type { Locator, Page } from "playwright-core"
import { createPublicClient, formatEther, http } from "viem"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { truncateAddress } from "../../src/domain/format"
import { type Browser, launchBrowser } from "./support/browser"
import { type OpenDemo, openDemo } from "./support/demo"
import { installInjectedSolanaWallet } from "./support/injectedSolanaWallet"
import { installInjectedWallet } from "./support/injectedWallet"

const ALICE = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"
const BOB = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8"
const CHAIN = "eip155:31337"

let session: OpenDemo
let browser: Browser
let page: Page

const dialog = () => page.getByRole("dialog")
const view = () => dialog().getAttribute("data-view")
const accountButton = () => page.getByRole("button", { name: /alice\.wallet\.test/ })
const panel = () => dialog().getByRole("tabpanel")
const tab = (name: string) => dialog().getByRole("tab", { name })
const features = () => dialog().getByRole("group", { name: "Wallet features" })
const field = (label: string) => dialog().getByLabel(label, { exact: true })
const explorerLink = (within: Locator) => within.getByRole("link", { name: /^View on 127\.0\.0\.1:\d+/ })
const explorerUrl = () => `${session.stack.config.services?.url}/explorer/${CHAIN}`
const rpcUrl = () => session.stack.config.evm?.chains.find((chain) => chain.chainId === 31337)?.rpcUrl ?? ""
const client = () => createPublicClient({ transport: http(rpcUrl()) })
const anvil = async (method: string, params: ReadonlyArray<unknown> = []) => {
  const response = await fetch(rpcUrl(), {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params })
  })
  expect((await response.json()) as { error?: unknown }).not.toHaveProperty("error")
}

/** A link that opens the explorer as links leaving the page should: a new tab that cannot reach back. */
const expectNewTabLink = async (link: Locator) => {
  expect(await link.getAttribute("target")).toBe("_blank")
  expect(await link.getAttribute("rel")).toBe("noopener noreferrer")
}

/** Follows `href` in a page of its own, as the new tab would; its labelled values as text. */
const openExplorer = async (href: string, context = browser.context) => {
  const tabPage = await context.newPage()
  const response = await tabPage.goto(href)
  const fields = () =>
    tabPage.locator("dl").evaluate((list) =>
      Object.fromEntries([...list.querySelectorAll("dt")].map((dt) => [dt.textContent ?? "", dt.nextElementSibling?.textContent ?? ""]))
    )
  return { tabPage, status: response?.status(), fields }
}

/** From the account view: Send filled with `amount` ETH to BOB, reviewed and confirmed in the wallet. */
const sendFromModal = async (amount: string) => {
  await features().getByRole("button", { name: "Send" }).click()
  await field("Amount").fill(amount)
  await field("To").fill(BOB)
  await dialog().getByRole("button", { name: "Continue" }).click()
  await expect.poll(view).toBe("SendReview")
  await dialog().getByRole("button", { name: "Confirm" }).click()
}

beforeAll(async () => {
  session = await openDemo({ name: "explorer" })
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
  await accountButton().click()
  await features().waitFor()
}, 120_000)

afterAll(() => session?.stop())

describe("explorer links on the local stack", () => {
  let sent = ""

  it("a confirmed send's link opens the explorer's page of that hash: confirmed, from ALICE, to BOB, the value sent", async () => {
    await sendFromModal("0.123")
    await dialog().getByRole("heading", { name: "Transaction confirmed" }).waitFor({ timeout: 20_000 })
    const link = explorerLink(dialog())
    await expectNewTabLink(link)
    const href = (await link.getAttribute("href")) ?? ""
    expect(href).toMatch(new RegExp(`^${explorerUrl()}/tx/0x[0-9a-f]{64}$`))
    sent = href.slice(href.lastIndexOf("/") + 1)
    const onChain = await client().getTransaction({ hash: sent as `0x${string}` })
    expect([onChain.from.toLowerCase(), onChain.to?.toLowerCase(), formatEther(onChain.value)]).toEqual([ALICE.toLowerCase(), BOB.toLowerCase(), "0.123"])

    const explorer = await openExplorer(href)
    try {
      expect(explorer.status).toBe(200)
      expect(await explorer.fields()).toMatchObject({ "Transaction hash": sent, Status: "Confirmed", From: ALICE, To: BOB, Value: "0.123 ETH" })
      // Readable on a phone: nothing wider than its 390 px.
      await explorer.tabPage.setViewportSize({ width: 390, height: 844 })
      expect(await explorer.tabPage.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
    } finally {
      await explorer.tabPage.close()
    }
    await dialog().getByRole("button", { name: "Done" }).click()
    await expect.poll(view).toBe("Account")
  })

  it("the Activity row of that send and the account's address link to their explorer pages", async () => {
    await tab("Activity").click()
    const row = panel().locator(`a[href="${explorerUrl()}/tx/${sent}"]`)
    await row.waitFor()
    await expectNewTabLink(row)
    expect(await row.textContent()).toMatch(/^Sent/)

    const address = explorerLink(dialog()).first()
    expect(await address.getAttribute("href")).toBe(`${explorerUrl()}/address/${ALICE}`)
    await expectNewTabLink(address)
    const explorer = await openExplorer(`${explorerUrl()}/address/${ALICE}`)
    try {
      expect(await explorer.fields()).toMatchObject({ Address: ALICE, Balance: `${formatEther(await client().getBalance({ address: ALICE }))} ETH` })
      expect(await explorer.tabPage.locator(`a[href="/explorer/${CHAIN}/tx/${sent}"]`).count()).toBe(1)
    } finally {
      await explorer.tabPage.close()
    }
  })

  it("the NFT detail's link opens the NFT's page: its collection, id, picture and ALICE as its holder", async () => {
    await tab("NFTs").click()
    const grid = panel().getByRole("list", { name: "NFTs" })
    await grid.getByRole("button").first().click()
    const tokenId = (await panel().locator("dd").nth(1).textContent()) ?? ""
    const link = explorerLink(panel())
    await expectNewTabLink(link)
    const collectible = session.stack.config.evm?.chains.find((chain) => chain.chainId === 31337)?.collectible.address ?? ""
    const href = (await link.getAttribute("href")) ?? ""
    expect(href.toLowerCase()).toBe(`${explorerUrl()}/nft/${collectible}/${tokenId}`.toLowerCase())
    const explorer = await openExplorer(href)
    try {
      expect(explorer.status).toBe(200)
      expect(await explorer.tabPage.getByRole("heading", { level: 1 }).textContent()).toBe(`Wallet Runtime Collectibles #${tokenId}`)
      expect(await explorer.fields()).toMatchObject({ "Token ID": tokenId, Owner: ALICE })
      const picture = explorer.tabPage.getByRole("img", { name: `Wallet Runtime Collectibles #${tokenId}` })
      await expect.poll(() => picture.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(0)
    } finally {
      await explorer.tabPage.close()
    }
    await panel().getByRole("button", { name: "All NFTs" }).click()
  })
})

describe("a pending transaction on the local stack (anvil's automine off)", () => {
  it("is pending in the Activity tab, the host's send card, the Send result and the explorer, and confirmed in all of them once mined", async () => {
    await anvil("evm_setAutomine", [false])
    try {
      // The host page's own send, with the modal closed.
      await page.keyboard.press("Escape")
      await dialog().waitFor({ state: "detached" })
      const card = page.getByTestId("transaction")
      await page.locator("main").getByRole("button", { name: "Send", exact: true }).click()
      await expect.poll(() => card.textContent()).toMatch(/^Hash: 0x[0-9a-f]{64}$/)
      const hostHash = ((await card.textContent()) ?? "").replace("Hash: ", "")
      expect(await page.locator("main").getByRole("button", { name: "Waiting to be confirmed…" }).isDisabled()).toBe(true)

      // Listed at once in Activity, pending, before any block has it.
      await accountButton().click()
      await tab("Activity").click()
      const hostRow = panel().locator(`a[href="${explorerUrl()}/tx/${hostHash}"]`)
      await hostRow.waitFor()
      expect(await hostRow.textContent()).toMatch(/Sent.*Pending/)
      expect(await client().getTransactionReceipt({ hash: hostHash as `0x${string}` }).catch(() => null)).toBeNull()

      // A send from the modal waits for the network, its explorer page says pending.
      await sendFromModal("0.2")
      await dialog().getByRole("heading", { name: "Waiting for the network" }).waitFor({ timeout: 10_000 })
      const href = (await explorerLink(dialog()).getAttribute("href")) ?? ""
      const modalHash = href.slice(href.lastIndexOf("/") + 1)
      expect(modalHash).toMatch(/^0x[0-9a-f]{64}$/)
      const explorer = await openExplorer(href)
      try {
        expect(await explorer.fields()).toMatchObject({ Status: "Pending waiting to be included in a block", Block: "Not yet", Value: "0.2 ETH" })

        await anvil("evm_mine")

        await dialog().getByRole("heading", { name: "Transaction confirmed" }).waitFor({ timeout: 10_000 })
        await expect.poll(() => card.textContent()).toMatch(/confirmed in block \d+$/)
        await explorer.tabPage.reload()
        expect(await explorer.fields()).toMatchObject({ Status: "Confirmed", From: ALICE, To: BOB, Value: "0.2 ETH" })
        expect((await explorer.fields())["Block"]).toMatch(/^\d+ /)
      } finally {
        await explorer.tabPage.close()
      }

      // Both rows are the service's confirmed ones now, with the time they were mined.
      await dialog().getByRole("button", { name: "Done" }).click()
      await tab("Activity").click()
      for (const hash of [hostHash, modalHash]) {
        const row = panel().locator(`a[href="${explorerUrl()}/tx/${hash}"]`)
        await expect.poll(() => row.textContent(), { timeout: 10_000 }).toMatch(/Sent.*\d{1,2}:\d{2}\s?[AP]M/)
        expect(await row.textContent()).not.toContain("Pending")
      }
    } finally {
      await anvil("evm_setAutomine", [true])
    }
  })
})

describe("a SOL send's explorer link", () => {
  it("opens the page of its signature on the local Solana: confirmed, the SOL moved from the wallet to the receiver", async () => {
    const solana = await launchBrowser()
    try {
      const wallet = await installInjectedSolanaWallet(solana.context, { rpcUrl: session.stack.config.solana?.rpcUrl ?? "" })
      // The helpers above read `page`: from here on, this browser's (the last test of the file).
      page = solana.page
      await page.goto(session.url)
      await page.getByRole("button", { name: "Connect wallet" }).click()
      await dialog().getByRole("button", { name: /Solana Test Wallet/ }).click()
      const account = page.getByRole("button", { name: new RegExp(truncateAddress(wallet.address()).replace(/[.]/g, "\\.")) })
      await account.waitFor()
      if ((await dialog().count()) > 0) await page.keyboard.press("Escape")
      await account.click()
      const receiver = (await generateKeyPairSigner()).address
      await features().getByRole("button", { name: "Send" }).click()
      await field("Amount").fill("0.25")
      await field("To").fill(receiver)
      await dialog().getByRole("button", { name: "Continue" }).click()
      await expect.poll(view).toBe("SendReview")
      await dialog().getByRole("button", { name: "Confirm" }).click()
      await dialog().getByRole("heading", { name: "Transaction confirmed" }).waitFor({ timeout: 20_000 })
      const link = explorerLink(dialog())
      await expectNewTabLink(link)
      const href = (await link.getAttribute("href")) ?? ""
      const network = session.stack.config.solana?.caipNetworkId ?? ""
      expect(href).toMatch(new RegExp(`/explorer/${network}/tx/[1-9A-HJ-NP-Za-km-z]{64,88}$`))
      const explorer = await openExplorer(href, solana.context)
      expect(await explorer.fields()).toMatchObject({ Status: "Confirmed finalized", "Fee payer": wallet.address() })
      expect(await explorer.tabPage.getByRole("list", { name: "SOL transfers" }).textContent()).toBe(`0.25 SOL from ${wallet.address()} to ${receiver}`)
    } finally {
      await solana.close()
    }
  })
})
