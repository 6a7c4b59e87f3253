/**
 * Solana in the demo, in a real Chromium against the local stack: an injected Wallet Standard wallet (keys in Node)
 * connects, shows its SOL and SPL balances, signs (verified with ed25519), sends SOL and an SPL token and sees them
 * confirmed with the balances refreshed; and one wallet serving EVM and Solana is one row that connects both
 * families at once, between which the visitor switches.
 */
import { verifySignature, getBase58Encoder, getPublicKeyFromAddress, address as solanaAddress, createSolanaRpc, generateKeyPairSigner } from "@solana/kit"
import type { Page } from "playwright-core"
import { verifyMessage } from "viem"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { DevstackInfo } from "../../devstack/main"
import type { Started } from "../../server/src/lib/Started"
import type { SolanaTestWallet } from "../../devstack/wallet/solana/testWallet"
import type { TestWallet } from "../../devstack/wallet/testWallet"
import { truncateAddress } from "../../src/domain/format"
import { type Browser, isLoopback, launchBrowser } from "./support/browser"
import { type ServedDemo, serveDemoOnStack } from "./support/demo"
import { installInjectedSolanaWallet } from "./support/injectedSolanaWallet"
import { installInjectedWallet } from "./support/injectedWallet"

let stack: Started<DevstackInfo>
let demo: Started<{ readonly url: string }>
let served: ServedDemo | undefined

const dialog = (page: Page) => page.getByRole("dialog")
const networkButton = (page: Page) => page.getByRole("button", { name: /^Network: / })
const balanceOf = async (page: Page, symbol: string) => {
  const item = page.getByTestId("balances").locator(`li[data-symbol="${symbol}"]`)
  return (await item.count()) === 0 ? undefined : Number((await item.textContent())?.split(" ")[0])
}

const solanaRpc = () => createSolanaRpc(stack.info.config.solana?.rpcUrl ?? "")
const solBalance = async (owner: string) => Number((await solanaRpc().getBalance(solanaAddress(owner)).send()).value) / 1e9
const wsusd = () => stack.info.config.solana?.tokens[0]?.address ?? ""

beforeAll(async () => {
  served = await serveDemoOnStack("sol")
  stack = served.stack
  demo = served.demo
})

afterAll(() => served?.stop())

describe("a Solana wallet in the demo", () => {
  let browser: Browser
  let page: Page
  let wallet: SolanaTestWallet

  beforeAll(async () => {
    browser = await launchBrowser()
    wallet = await installInjectedSolanaWallet(browser.context, { rpcUrl: stack.info.config.solana?.rpcUrl ?? "" })
    page = browser.page
    await page.goto(demo.info.url)
  })
  afterAll(async () => browser?.close())

  it("connects through the Wallet Standard: the modal closes, the account and the Solana network are in front", async () => {
    await page.getByRole("button", { name: "Connect wallet" }).click()
    await dialog(page).getByRole("button", { name: /Solana Test Wallet/ }).click()
    await expect.poll(() => dialog(page).count()).toBe(0)
    await page.getByRole("button", { name: new RegExp(truncateAddress(wallet.address()).replace(/[.]/g, "\\.")) }).waitFor()
    await expect.poll(() => networkButton(page).getAttribute("aria-label")).toContain("Local Solana")
    expect(wallet.requests).toContain("standard:connect")
  })

  it("shows its SOL and SPL balances, read from the local Solana RPC", async () => {
    await expect.poll(() => balanceOf(page, "WSUSD")).toBe(10_000)
    expect(await balanceOf(page, "SOL")).toBeCloseTo(await solBalance(wallet.address()), 6)
  })

  it("signs a message; the base58 ed25519 signature verifies", async () => {
    const message = "Hello from the Wallet Runtime demo"
    await page.getByRole("button", { name: "Sign message" }).click()
    const output = page.getByTestId("signature")
    await expect.poll(() => output.textContent()).toMatch(/^[1-9A-HJ-NP-Za-km-z]{80,90}$/)
    const signature = getBase58Encoder().encode((await output.textContent()) ?? "")
    const key = await getPublicKeyFromAddress(solanaAddress(wallet.address()))
    expect(await verifySignature(key, signature as never, new TextEncoder().encode(message))).toBe(true)
  })

  it("sends SOL: confirmed, the receiver has it, and the balances are read again", async () => {
    const receiver = (await generateKeyPairSigner()).address
    const before = await balanceOf(page, "SOL")
    await page.getByLabel("To", { exact: true }).fill(receiver)
    await page.getByLabel(/^Amount/).fill("0.5")
    await page.getByRole("button", { name: "Send", exact: true }).click()
    await expect.poll(() => page.getByTestId("transaction").textContent(), { timeout: 20_000 }).toMatch(/confirmed in slot \d+/)
    expect(await solBalance(receiver)).toBe(0.5)
    await expect.poll(() => balanceOf(page, "SOL")).toBeLessThan((before ?? 0) - 0.5)
  })

  it("sends WSUSD to an address that has no token account yet (it is created on the way)", async () => {
    const receiver = (await generateKeyPairSigner()).address
    await page.getByLabel("To", { exact: true }).fill(receiver)
    await page.getByLabel("Token").selectOption({ label: "WSUSD" })
    await page.getByLabel(/^Amount/).fill("25")
    await page.getByRole("button", { name: "Send", exact: true }).click()
    await expect.poll(() => page.getByTestId("transaction").textContent(), { timeout: 20_000 }).toMatch(/confirmed in slot \d+/)
    const accounts = await solanaRpc()
      .getTokenAccountsByOwner(solanaAddress(receiver), { mint: solanaAddress(wsusd()) }, { encoding: "jsonParsed" })
      .send()
    expect(accounts.value[0]?.account.data.parsed.info.tokenAmount.uiAmountString).toBe("25")
    await expect.poll(() => balanceOf(page, "WSUSD")).toBe(9_975)
  })

  it("a refused signature says so in the visitor's words", async () => {
    wallet.setApproval("reject")
    try {
      await page.getByRole("button", { name: "Sign message" }).click()
      await expect.poll(() => page.getByTestId("signature").textContent()).toBe("Error: User rejected the request.")
    } finally {
      wallet.setApproval("approve")
    }
  })

  it("never reached any address off this machine", () => {
    expect(browser.requests.filter((url) => !isLoopback(url))).toEqual([])
  })
})

describe("one wallet for EVM and Solana", () => {
  let browser: Browser
  let page: Page
  let evm: TestWallet
  let sol: SolanaTestWallet
  const NAME = "Both Chains Wallet"

  beforeAll(async () => {
    browser = await launchBrowser()
    const config = stack.info.config
    const rpcA = config.evm?.chains.find((chain) => chain.chainId === 31337)?.rpcUrl ?? ""
    const rpcB = config.evm?.chains.find((chain) => chain.chainId === 31338)?.rpcUrl ?? ""
    evm = await installInjectedWallet(browser.context, {
      privateKeys: (config.evm?.accounts ?? []).slice(0, 1).map((account) => account.privateKey as `0x${string}`),
      chains: [
        { chainId: 31337, name: "Local Chain A", rpcUrl: rpcA },
        { chainId: 31338, name: "Local Chain B", rpcUrl: rpcB }
      ],
      chainId: 31337,
      identity: { name: NAME, rdns: "dev.wallet-runtime.both" }
    })
    sol = await installInjectedSolanaWallet(browser.context, { rpcUrl: config.solana?.rpcUrl ?? "", name: NAME })
    page = browser.page
    await page.goto(demo.info.url)
  })
  afterAll(async () => browser?.close())

  it("is one row in the wallet list, and connecting it once connects both families", async () => {
    await page.getByRole("button", { name: "Connect wallet" }).click()
    await expect.poll(() => dialog(page).getByRole("button", { name: new RegExp(NAME) }).count()).toBe(1)
    await dialog(page).getByRole("button", { name: new RegExp(NAME) }).click()
    await expect.poll(() => dialog(page).count()).toBe(0)
    expect(evm.requests).toContain("eth_requestAccounts")
    expect(sol.requests).toContain("standard:connect")
    await expect.poll(() => networkButton(page).getAttribute("aria-label")).toContain("Local Chain A")
  })

  it("the Networks view groups the networks by family; switching family puts that family's account in front", async () => {
    await networkButton(page).click()
    await dialog(page).getByRole("heading", { name: "EVM" }).waitFor()
    await dialog(page).getByRole("heading", { name: "Solana" }).waitFor()
    await dialog(page).getByRole("button", { name: /Local Solana/ }).click()
    await expect.poll(() => networkButton(page).getAttribute("aria-label")).toContain("Local Solana")
    await page.getByRole("button", { name: new RegExp(truncateAddress(sol.address()).replace(/[.]/g, "\\.")) }).waitFor()
    if ((await dialog(page).count()) > 0) await page.keyboard.press("Escape")

    const message = "Hello from the Wallet Runtime demo"
    await page.getByRole("button", { name: "Sign message" }).click()
    await expect.poll(() => page.getByTestId("signature").textContent()).toMatch(/^[1-9A-HJ-NP-Za-km-z]{80,90}$/)

    await networkButton(page).click()
    await dialog(page).getByRole("button", { name: /Local Chain B/ }).click()
    await expect.poll(() => networkButton(page).getAttribute("aria-label")).toContain("Local Chain B")
    await expect.poll(() => evm.chainId()).toBe(31338)
    if ((await dialog(page).count()) > 0) await page.keyboard.press("Escape")
    await page.getByRole("button", { name: "Sign message" }).click()
    await expect.poll(() => page.getByTestId("signature").textContent()).toMatch(/^0x[0-9a-f]{130}$/)
    const signature = (await page.getByTestId("signature").textContent()) as `0x${string}`
    expect(await verifyMessage({ address: evm.address(), message, signature })).toBe(true)
  })

  it("disconnecting the wallet ends it in both families", async () => {
    await page.getByRole("button", { name: /alice\.wallet\.test|0x/ }).first().click()
    await dialog(page).getByRole("button", { name: "Disconnect" }).click()
    await page.getByRole("button", { name: "Connect wallet" }).waitFor()
    await networkButton(page).click()
    await dialog(page).getByRole("button", { name: /Local Solana/ }).click()
    await page.keyboard.press("Escape").catch(() => undefined)
    await page.getByRole("button", { name: "Connect wallet" }).waitFor()
  })
})
