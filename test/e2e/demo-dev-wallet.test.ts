/**
 * The demo's development wallet, switched on by a visitor with no extension, in a real Chromium against the local
 * stack's regtest node: nothing of it loads before the switch; then its one row connects its Bitcoin side (dev key 0's
 * payment address), which signs with BIP-322 (verified in Node) and sends on regtest, and its Polkadot side (//Alice
 * on Westend), whose sr25519 signature verifies with signatureVerify. Every connect, signature and send is asked first
 * with the browser's confirm.
 */
import { signatureVerify } from "@polkadot/util-crypto"
import type { Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { verifyBip322 } from "../../server/src/bitcoin/bip322"
import { devBitcoinKey, REGTEST } from "../../devstack/bitcoin/keys"
import type { DevstackInfo } from "../../devstack/main"
import { truncateAddress } from "../../src/domain/format"
import type { Browser } from "./support/browser"
import { type OpenDemo, openDemo } from "./support/demo"

let session: OpenDemo | undefined
let stack: DevstackInfo
let browser: Browser
let page: Page
const prompts: Array<string> = []

const MESSAGE = "Hello from the Wallet Runtime demo"
// //Alice's generic address, the one Westend (SS58 prefix 42) shows.
const ALICE = "5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY"
const dialog = () => page.getByRole("dialog")
const networkButton = () => page.getByRole("button", { name: /^Network: / })
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
const accountButton = (address: string) => page.getByRole("button", { name: new RegExp(escaped(truncateAddress(address))) })
const devWalletChunks = () => browser.requests.filter((url) => /\/(devWallet|testWallet)-[^/]*\.js$/.test(url))
const apiUrl = () => stack.config.bitcoin?.url ?? ""
const switchTo = async (network: RegExp) => {
  await networkButton().click()
  await dialog().getByRole("button", { name: network }).click()
  await expect.poll(() => networkButton().getAttribute("aria-label")).toMatch(network)
  if ((await dialog().count()) > 0) await page.keyboard.press("Escape")
}
const signed = async () => {
  const output = page.getByTestId("signature")
  const before = await output.textContent().catch(() => null)
  await page.getByRole("button", { name: "Sign message" }).click()
  await expect.poll(async () => ((await output.textContent()) ?? "") !== "" && (await output.textContent()) !== before).toBe(true)
  return (await output.textContent()) ?? ""
}

beforeAll(async () => {
  session = await openDemo({ name: "devwallet", parts: ["evm", "bitcoin", "services"] })
  stack = session.stack
  browser = session.browser
  page = browser.page
  page.on("dialog", (box) => {
    prompts.push(box.message())
    void box.accept()
  })
  await page.goto(session.url)
})

afterAll(() => session?.stop())

describe("the development wallet's Bitcoin and Polkadot sides", () => {
  it("loads nothing of the wallet until the visitor switches it on; then one row connects every family, each asked first", async () => {
    await page.getByRole("button", { name: "Connect wallet" }).click()
    await dialog().getByRole("list").first().waitFor()
    await page.keyboard.press("Escape")
    expect(devWalletChunks()).toEqual([])
    await page.getByLabel("Use the development wallet").check()
    await page.waitForLoadState("load")
    await page.getByRole("button", { name: "Connect wallet" }).click()
    await expect.poll(() => dialog().getByRole("button", { name: /Dev Test Wallet/ }).count()).toBe(1)
    expect(devWalletChunks().some((url) => /\/devWallet-/.test(url))).toBe(true)
    await dialog().getByRole("button", { name: /Dev Test Wallet/ }).click()
    await expect.poll(() => dialog().count()).toBe(0)
    expect(prompts).toEqual(
      expect.arrayContaining([
        "Connect the development wallet's Bitcoin addresses to this site?",
        expect.stringMatching(/^Let .+ see the development wallet's Polkadot account \(\/\/Alice\)\?$/)
      ])
    )
  })

  it("Bitcoin: dev key 0's payment address signs with BIP-322 after a prompt, and the signature verifies in Node", async () => {
    const key = stack.config.bitcoin?.funded[0]
    if (key === undefined) throw new Error("the stack funded no Bitcoin key")
    await switchTo(/Bitcoin Regtest/)
    await accountButton(key.paymentAddress).waitFor()
    const signature = await signed()
    expect(prompts.at(-1)).toBe(`Sign this message with ${key.paymentAddress}?\n\n${MESSAGE}`)
    expect(verifyBip322(key.paymentAddress, REGTEST, MESSAGE, signature)).toBe(true)
    expect(verifyBip322(key.paymentAddress, REGTEST, `${MESSAGE}.`, signature)).toBe(false)
  })

  it("Bitcoin: sends 0.25 BTC on regtest after a prompt; the node confirms it and the receiver is paid", async () => {
    const receiver = devBitcoinKey(60).paymentAddress
    await page.getByLabel("To", { exact: true }).fill(receiver)
    await page.getByLabel(/^Amount/).fill("0.25")
    await page.getByRole("button", { name: "Send", exact: true }).click()
    await expect.poll(() => page.getByTestId("transaction").textContent(), { timeout: 30_000 }).toMatch(/confirmed in block \d+/)
    expect(prompts.at(-1)).toMatch(new RegExp(`^Send this transaction\\?\\n\\nTo: ${receiver}\\nAmount: 0\\.25 BTC`))
    const stats = (await (await fetch(`${apiUrl()}/address/${receiver}`)).json()) as { chain_stats: { funded_txo_sum: number } }
    expect(stats.chain_stats.funded_txo_sum).toBe(25_000_000)
  })

  it("Polkadot: //Alice signs on Westend after a prompt, and the sr25519 signature verifies with signatureVerify", async () => {
    await switchTo(/Westend/)
    await accountButton(ALICE).waitFor()
    const signature = await signed()
    expect(prompts.at(-1)).toBe(`Sign this message with ${ALICE}?\n\n${MESSAGE}`)
    const checked = signatureVerify(MESSAGE, signature, ALICE)
    expect([checked.isValid, checked.crypto]).toEqual([true, "sr25519"])
    expect(signatureVerify(`${MESSAGE}.`, signature, ALICE).isValid).toBe(false)
  })
})
