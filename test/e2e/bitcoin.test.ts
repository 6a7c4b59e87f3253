/**
 * Bitcoin in the demo, in a real Chromium against the local stack's regtest node: the injected Bitcoin test wallet
 * (Wallet Standard `bitcoin:` features, keys in Node) connects — the bip122 code is fetched only then — signs a
 * message (BIP-322, verified in Node), sends on regtest and sees it confirmed in a block, and its Account view shows
 * the address, the network and Send, and says in words what is not available instead of a balance; Max in the Send
 * form sends every coin less the fee of spending them all with no change, leaving the account empty. One wallet
 * serving EVM, Solana and Bitcoin is one row that connects all three. A sats-connect-style provider (`request(method,
 * params)`, listed in `window.btc_providers`) is a row of its own that connects, signs (BIP-322) and sends on regtest.
 */
import { hex } from "@scure/base"
import { p2wpkh } from "@scure/btc-signer"
import type { Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { verifyBip322 } from "../../server/src/bitcoin/bip322"
import { devBitcoinKey, REGTEST } from "../../devstack/bitcoin/keys"
import type { Started } from "../../server/src/lib/Started"
import type { DevstackInfo } from "../../devstack/main"
import type { BitcoinTestWallet } from "../../devstack/wallet/bitcoin/testWallet"
import { truncateAddress } from "../../src/domain/format"
import { sendAllFee } from "../../src/services/bip122/coinSelection"
import { type Browser, isLoopback, launchBrowser } from "./support/browser"
import { type ServedDemo, serveDemoOnStack } from "./support/demo"
import { installInjectedBitcoinWallet } from "./support/injectedBitcoinWallet"
import { installInjectedSolanaWallet } from "./support/injectedSolanaWallet"
import { installInjectedWallet } from "./support/injectedWallet"
import { installSatsConnectWallet } from "./support/injectedSatsConnectWallet"

let stack: Started<DevstackInfo>
let demo: Started<{ readonly url: string }>
let served: ServedDemo | undefined

const dialog = (page: Page) => page.getByRole("dialog")
const networkButton = (page: Page) => page.getByRole("button", { name: /^Network: / })
const apiUrl = () => stack.info.config.bitcoin?.url ?? ""
const nodeBalance = async (address: string) => {
  const stats = (await (await fetch(`${apiUrl()}/address/${address}`)).json()) as {
    chain_stats: { funded_txo_sum: number; spent_txo_sum: number }
    mempool_stats: { funded_txo_sum: number; spent_txo_sum: number }
  }
  return stats.chain_stats.funded_txo_sum - stats.chain_stats.spent_txo_sum + stats.mempool_stats.funded_txo_sum - stats.mempool_stats.spent_txo_sum
}
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
const bitcoinChunks = (requests: ReadonlyArray<string>) => requests.filter((url) => /\/BitcoinAdapter[-.][^/]*\.js$/.test(url))

beforeAll(async () => {
  served = await serveDemoOnStack("btc", ["evm", "solana", "bitcoin", "services"])
  stack = served.stack
  demo = served.demo
})

afterAll(() => served?.stop())

describe("a Bitcoin wallet in the demo", () => {
  let browser: Browser
  let page: Page
  let wallet: BitcoinTestWallet

  beforeAll(async () => {
    browser = await launchBrowser()
    wallet = await installInjectedBitcoinWallet(browser.context, { apiUrl: apiUrl() })
    page = browser.page
    await page.goto(demo.info.url)
  })
  afterAll(async () => browser?.close())

  it("connects through the Wallet Standard's bitcoin: features; the bip122 code is fetched only then", async () => {
    await page.getByRole("button", { name: "Connect wallet" }).click()
    await dialog(page).getByRole("button", { name: /Bitcoin Test Wallet/ }).waitFor()
    expect(bitcoinChunks(browser.requests)).toEqual([])
    await dialog(page).getByRole("button", { name: /Bitcoin Test Wallet/ }).click()
    await expect.poll(() => dialog(page).count()).toBe(0)
    await page.getByRole("button", { name: new RegExp(escaped(truncateAddress(wallet.key.paymentAddress))) }).waitFor()
    await expect.poll(() => networkButton(page).getAttribute("aria-label")).toContain("Bitcoin Regtest")
    expect(wallet.requests).toContain("bitcoin:connect")
    await expect.poll(() => bitcoinChunks(browser.requests).length).toBe(1)
  })

  it("reads the payment address's BTC from the regtest node", async () => {
    const item = page.getByTestId("balances").locator('li[data-symbol="BTC"]')
    await expect.poll(() => item.textContent()).toBe(`${(await nodeBalance(wallet.key.paymentAddress)) / 1e8} BTC`)
  })

  it("signs a message with BIP-322: the base64 signature verifies for the payment address and this message only", async () => {
    const message = "Hello from the Wallet Runtime demo"
    await page.getByRole("button", { name: "Sign message" }).click()
    const output = page.getByTestId("signature")
    await expect.poll(() => output.textContent()).toMatch(/^[A-Za-z0-9+/]{80,}={0,2}$/)
    const signature = (await output.textContent()) ?? ""
    expect(verifyBip322(wallet.key.paymentAddress, REGTEST, message, signature)).toBe(true)
    expect(verifyBip322(wallet.key.paymentAddress, REGTEST, `${message}.`, signature)).toBe(false)
    expect(verifyBip322(wallet.key.ordinalsAddress, REGTEST, message, signature)).toBe(false)
  })

  it("sends 0.5 BTC on regtest: the wallet builds and signs it, the node accepts it, and it is confirmed in a block", async () => {
    const receiver = p2wpkh(hex.decode(devBitcoinKey(50).paymentPublicKey), REGTEST).address!
    await page.getByLabel("To", { exact: true }).fill(receiver)
    await page.getByLabel(/^Amount/).fill("0.5")
    await page.getByRole("button", { name: "Send", exact: true }).click()
    await expect.poll(() => page.getByTestId("transaction").textContent(), { timeout: 30_000 }).toMatch(/confirmed in block \d+/)
    const [txid] = wallet.sent
    expect(await page.getByTestId("transaction").textContent()).toContain(txid)
    expect(await nodeBalance(receiver)).toBe(50_000_000)
    const status = (await (await fetch(`${apiUrl()}/tx/${txid}/status`)).json()) as { confirmed: boolean }
    expect(status.confirmed).toBe(true)
  })

  it("the Account view shows the address, the network and Send, and says plainly that balances are not available — no '0.00'", async () => {
    await page.getByRole("button", { name: new RegExp(escaped(truncateAddress(wallet.key.paymentAddress))) }).click()
    const view = dialog(page)
    await view.getByText("Balances, tokens, NFTs, activity and names are not available for Bitcoin accounts.").waitFor()
    await view.getByRole("button", { name: /Bitcoin Regtest/ }).waitFor()
    await view.getByRole("button", { name: "Send" }).waitFor()
    expect(await view.getByRole("tab").count()).toBe(0)
    expect(await view.textContent()).not.toMatch(/0\.00\b/)
    await page.keyboard.press("Escape")
    await expect.poll(() => dialog(page).count()).toBe(0)
  })

  it("a reload restores the Bitcoin account without a prompt (the bip122 code fetched again for it)", async () => {
    const prompts = wallet.prompts.length
    const before = browser.requests.length
    await page.reload()
    await page.getByRole("button", { name: new RegExp(escaped(truncateAddress(wallet.key.paymentAddress))) }).waitFor()
    await expect.poll(() => networkButton(page).getAttribute("aria-label")).toContain("Bitcoin Regtest")
    const item = page.getByTestId("balances").locator('li[data-symbol="BTC"]')
    await expect.poll(() => item.textContent()).toMatch(/ BTC$/)
    expect(wallet.prompts.length).toBe(prompts)
    expect(bitcoinChunks(browser.requests.slice(before)).length).toBe(1)
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

describe("a sats-connect-style Bitcoin provider", () => {
  it("is a row of its own; it connects, signs a message with BIP-322 (verified in Node) and sends on regtest, confirmed", async () => {
    // A key of its own, given one coin here: no other test spends it.
    const key = devBitcoinKey(73)
    const funded = await fetch(`${apiUrl()}/regtest/faucet`, { method: "POST", body: JSON.stringify({ address: key.paymentAddress, amount: "100000000" }) })
    expect(funded.ok).toBe(true)
    const receiver = p2wpkh(hex.decode(devBitcoinKey(74).paymentPublicKey), REGTEST).address!
    const browser = await launchBrowser()
    try {
      const wallet = await installSatsConnectWallet(browser.context, { apiUrl: apiUrl(), keyIndex: key.index, name: "Sats Test Wallet" })
      const page = browser.page
      await page.goto(demo.info.url)
      await page.getByRole("button", { name: "Connect wallet" }).click()
      await expect.poll(() => dialog(page).getByRole("button", { name: /Sats Test Wallet/ }).count()).toBe(1)
      await dialog(page).getByRole("button", { name: /Sats Test Wallet/ }).click()
      await expect.poll(() => dialog(page).count()).toBe(0)
      await page.getByRole("button", { name: new RegExp(escaped(truncateAddress(key.paymentAddress))) }).waitFor()
      await expect.poll(() => networkButton(page).getAttribute("aria-label")).toContain("Bitcoin Regtest")
      expect(wallet.prompts).toEqual(["bitcoin:connect"])

      const message = "Hello from the Wallet Runtime demo"
      await page.getByRole("button", { name: "Sign message" }).click()
      const output = page.getByTestId("signature")
      await expect.poll(() => output.textContent()).toMatch(/^[A-Za-z0-9+/]{80,}={0,2}$/)
      const signature = (await output.textContent()) ?? ""
      expect(verifyBip322(key.paymentAddress, REGTEST, message, signature)).toBe(true)
      expect(verifyBip322(key.paymentAddress, REGTEST, `${message}.`, signature)).toBe(false)

      await page.getByLabel("To", { exact: true }).fill(receiver)
      await page.getByLabel(/^Amount/).fill("0.25")
      await page.getByRole("button", { name: "Send", exact: true }).click()
      await expect.poll(() => page.getByTestId("transaction").textContent(), { timeout: 30_000 }).toMatch(/confirmed in block \d+/)
      const [txid] = wallet.sent
      expect(await page.getByTestId("transaction").textContent()).toContain(txid)
      expect(await nodeBalance(receiver)).toBe(25_000_000)
      const status = (await (await fetch(`${apiUrl()}/tx/${txid}/status`)).json()) as { confirmed: boolean }
      expect(status.confirmed).toBe(true)
      expect(wallet.prompts).toEqual(["bitcoin:connect", "bitcoin:signMessage", "bitcoin:sendTransfer"])
      expect(browser.requests.filter((url) => !isLoopback(url))).toEqual([])
    } finally {
      await browser.close()
    }
  })
})

describe("Max on a Bitcoin account", () => {
  it("is the balance less the fee of spending every coin with no change; sending it is confirmed and leaves the account empty", async () => {
    // A key of its own, given three coins here: no other test spends it.
    const key = devBitcoinKey(71)
    const coins = [30_000_000, 12_345_678, 2_000_000]
    for (const amount of coins) {
      const funded = await fetch(`${apiUrl()}/regtest/faucet`, { method: "POST", body: JSON.stringify({ address: key.paymentAddress, amount: String(amount) }) })
      expect(funded.ok).toBe(true)
    }
    const held = coins.reduce((sum, amount) => sum + amount, 0)
    const rates = (await (await fetch(`${apiUrl()}/fee-estimates`)).json()) as Record<string, number>
    const fee = Number(sendAllFee(coins.length, rates["3"] ?? 1, "p2wpkh", "p2wpkh"))
    const receiver = p2wpkh(hex.decode(devBitcoinKey(72).paymentPublicKey), REGTEST).address!
    const browser = await launchBrowser()
    try {
      const wallet = await installInjectedBitcoinWallet(browser.context, { apiUrl: apiUrl(), keyIndex: key.index })
      const page = browser.page
      await page.goto(demo.info.url)
      await page.getByRole("button", { name: "Connect wallet" }).click()
      await dialog(page).getByRole("button", { name: /Bitcoin Test Wallet/ }).click()
      const account = page.getByRole("button", { name: new RegExp(escaped(truncateAddress(key.paymentAddress))) })
      await account.click()
      await dialog(page).getByRole("button", { name: "Send" }).click()
      const field = (label: string) => dialog(page).getByLabel(label, { exact: true })
      await field("To").fill(receiver)
      await dialog(page).getByRole("button", { name: "Max" }).click()
      // The field is filled again (a new one) for Max.
      await expect.poll(() => field("Amount").last().inputValue()).toBe(String((held - fee) / 1e8))
      await dialog(page).getByRole("button", { name: "Continue" }).click()
      await expect.poll(() => dialog(page).getAttribute("data-view")).toBe("SendReview")
      await dialog(page).getByRole("button", { name: "Confirm" }).click()
      await dialog(page).getByRole("heading", { name: "Transaction confirmed" }).waitFor({ timeout: 30_000 })
      expect(wallet.sent).toHaveLength(1)
      expect(await nodeBalance(key.paymentAddress)).toBe(0)
      expect(await nodeBalance(receiver)).toBe(held - fee)
      const utxos = (await (await fetch(`${apiUrl()}/address/${key.paymentAddress}/utxo`)).json()) as ReadonlyArray<unknown>
      expect(utxos).toEqual([])
    } finally {
      await browser.close()
    }
  })
})

describe("sign-in with a Bitcoin wallet", () => {
  it("the sign-in text is signed with BIP-322 and the service keeps the session of the payment address", async () => {
    const browser = await launchBrowser()
    try {
      const wallet = await installInjectedBitcoinWallet(browser.context, { apiUrl: apiUrl(), keyIndex: 2 })
      const page = browser.page
      await page.goto(`${demo.info.url}?signIn=on`)
      await page.getByRole("button", { name: "Connect wallet" }).click()
      await dialog(page).getByRole("button", { name: /Bitcoin Test Wallet/ }).click()
      await dialog(page).getByRole("heading", { name: "Sign in to Wallet Runtime demo" }).waitFor()
      await dialog(page).getByRole("button", { name: "Sign", exact: true }).click()
      await dialog(page).waitFor({ state: "detached" })
      await expect.poll(() => page.getByTestId("session").textContent()).toContain("Signed in.")
      expect(wallet.prompts).toEqual(["bitcoin:connect", "bitcoin:signMessage"])
      const services = stack.info.config.services!
      const caip = encodeURIComponent(`${stack.info.config.bitcoin!.caipNetworkId}:${wallet.key.paymentAddress}`)
      const response = await fetch(`${services.url}/v1/sessions/${caip}?projectId=${services.defaultProjectId}`, {
        headers: { origin: new URL(demo.info.url).origin }
      })
      const { sessions } = (await response.json()) as { sessions: ReadonlyArray<{ message: string; signature: string }> }
      expect(sessions).toHaveLength(1)
      expect(sessions[0]!.message).toContain("wants you to sign in with your Bitcoin account:")
      expect(verifyBip322(wallet.key.paymentAddress, REGTEST, sessions[0]!.message, sessions[0]!.signature)).toBe(true)
    } finally {
      await browser.close()
    }
  })
})

describe("one wallet for EVM, Solana and Bitcoin", () => {
  let browser: Browser
  let page: Page
  const NAME = "Three Chains Wallet"

  it("is one row in the wallet list, and connecting it once connects all three families", async () => {
    browser = await launchBrowser()
    try {
      const config = stack.info.config
      const rpcA = config.evm?.chains.find((chain) => chain.chainId === 31337)?.rpcUrl ?? ""
      const evm = await installInjectedWallet(browser.context, {
        privateKeys: (config.evm?.accounts ?? []).slice(0, 1).map((account) => account.privateKey as `0x${string}`),
        chains: [{ chainId: 31337, name: "Local Chain A", rpcUrl: rpcA }],
        chainId: 31337,
        identity: { name: NAME, rdns: "dev.wallet-runtime.three" }
      })
      const sol = await installInjectedSolanaWallet(browser.context, { rpcUrl: config.solana?.rpcUrl ?? "", name: NAME })
      const btc = await installInjectedBitcoinWallet(browser.context, { apiUrl: apiUrl(), name: NAME, keyIndex: 1 })
      page = browser.page
      await page.goto(demo.info.url)
      await page.getByRole("button", { name: "Connect wallet" }).click()
      await expect.poll(() => dialog(page).getByRole("button", { name: new RegExp(NAME) }).count()).toBe(1)
      await dialog(page).getByRole("button", { name: new RegExp(NAME) }).click()
      await expect.poll(() => dialog(page).count()).toBe(0)
      expect(evm.requests).toContain("eth_requestAccounts")
      expect(sol.requests).toContain("standard:connect")
      expect(btc.requests).toContain("bitcoin:connect")
      // The Bitcoin account is there to switch to: the regtest network puts it in front.
      await networkButton(page).click()
      await dialog(page).getByRole("button", { name: /Bitcoin Regtest/ }).click()
      await expect.poll(() => networkButton(page).getAttribute("aria-label")).toContain("Bitcoin Regtest")
      await page.getByRole("button", { name: new RegExp(escaped(truncateAddress(btc.key.paymentAddress))) }).waitFor()
    } finally {
      await browser.close()
    }
  })
})
