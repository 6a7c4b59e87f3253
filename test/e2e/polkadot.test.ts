/**
 * Polkadot in the demo, in a real Chromium: the injected Polkadot test wallet (a `window.injectedWeb3` extension,
 * @polkadot/keyring dev accounts in Node) is listed, connects on the demo's Westend entry (no Polkadot node runs
 * locally, and nothing reads one), the Account view says what is not available instead of a balance, a message is
 * signed and verified in Node for sr25519 and, after the visitor picks that account in the wallet, ed25519; a refusal
 * is said in the visitor's words; a transfer payload sent as `polkadot_signTransaction` from the demo's request card
 * reaches the extension's `signPayload` and its signature verifies against the payload's bytes; the Networks view lists the Polkadot family with its mark; nothing leaves the
 * machine. Sign-in (`?signIn=on`) signs the CAIP-122 text wrapped in <Bytes>…</Bytes>, and the services keep it.
 */
import { u8aWrapBytes } from "@polkadot/util"
import { ed25519Verify, signatureVerify, sr25519Verify } from "@polkadot/util-crypto"
import type { Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { DevstackInfo } from "../../devstack/main"
import type { Started } from "../../server/src/lib/Started"
import type { PolkadotTestWallet } from "../../devstack/wallet/polkadot/testWallet"
import { truncateAddress } from "../../src/domain/format"
import { type Browser, isLoopback, launchBrowser } from "./support/browser"
import { type ServedDemo, serveDemoOnStack } from "./support/demo"
import { installInjectedPolkadotWallet } from "./support/injectedPolkadotWallet"
import { signedBytesOfTransfer, westendTransferPayload } from "./support/polkadotPayload"

let stack: Started<DevstackInfo>
let demo: Started<{ readonly url: string }>
let served: ServedDemo | undefined

const dialog = (page: Page) => page.getByRole("dialog")
const networkButton = (page: Page) => page.getByRole("button", { name: /^Network: / })
const accountButton = (page: Page, address: string) => page.getByRole("button", { name: new RegExp(truncateAddress(address).replace(/[.]/g, "\\.")) })
const MESSAGE = "Hello from the Wallet Runtime demo"
const WESTEND = "polkadot:e143f23803ac50e8f6f8e62695d1ce9e"
const UNAVAILABLE = "Balances, tokens, NFTs, activity, names and sending are not available for Polkadot accounts."

beforeAll(async () => {
  served = await serveDemoOnStack("dot")
  stack = served.stack
  demo = served.demo
})

afterAll(() => served?.stop())

describe("a Polkadot wallet in the demo", () => {
  let browser: Browser
  let page: Page
  let wallet: PolkadotTestWallet

  beforeAll(async () => {
    browser = await launchBrowser()
    wallet = await installInjectedPolkadotWallet(browser.context)
    page = browser.page
    await page.goto(demo.info.url)
  })
  afterAll(async () => browser?.close())

  it("is listed by its name and connects on Westend: the extension is asked with the host's name", async () => {
    await page.getByRole("button", { name: "Connect wallet" }).click()
    await dialog(page).getByRole("button", { name: /Polkadot Test Wallet/ }).click()
    await expect.poll(() => dialog(page).count()).toBe(0)
    await accountButton(page, wallet.address()).waitFor()
    await expect.poll(() => networkButton(page).getAttribute("aria-label")).toContain("Westend")
    expect(wallet.requests.slice(0, 2)).toEqual(["enable", "accounts"])
    expect(wallet.appNames[0]).toBe("Wallet Runtime demo")
  })

  it("the Account view shows the address and the network, and says what is not available instead of a balance", async () => {
    await accountButton(page, wallet.address()).click()
    const account = dialog(page)
    await account.getByText(UNAVAILABLE).waitFor()
    expect(await account.getByRole("heading", { name: truncateAddress(wallet.address()) }).count()).toBe(1)
    expect(await account.getByRole("button", { name: /Westend/ }).count()).toBe(1)
    expect(await account.getByText(/0\.00|WND/).count()).toBe(0)
    expect(await account.getByRole("tablist").count()).toBe(0)
    await page.keyboard.press("Escape")
    await expect.poll(() => dialog(page).count()).toBe(0)
    // The page's own balances card says it too, without calling it an error.
    await expect.poll(() => page.getByTestId("balances").textContent()).toBe(
      "Balances are not available for Polkadot accounts: this site does not read the Polkadot chain."
    )
  })

  it("signs a message with the sr25519 account: the signature verifies over <Bytes>message</Bytes>", async () => {
    await page.getByRole("button", { name: "Sign message" }).click()
    const output = page.getByTestId("signature")
    await expect.poll(() => output.textContent()).toMatch(/^0x[0-9a-f]{128}$/)
    const signature = (await output.textContent()) ?? ""
    const alice = wallet.pairs[0]!
    expect(sr25519Verify(u8aWrapBytes(MESSAGE), signature, alice.publicKey)).toBe(true)
    expect(sr25519Verify(MESSAGE, signature, alice.publicKey)).toBe(false)
    const checked = signatureVerify(MESSAGE, signature, alice.address)
    expect([checked.isValid, checked.crypto]).toEqual([true, "sr25519"])
  })

  it("the visitor picks the ed25519 account in the wallet: the page follows, and its signature verifies", async () => {
    const charlie = wallet.pairs[2]!
    wallet.selectAccount(2)
    await accountButton(page, charlie.address).waitFor()
    await page.getByRole("button", { name: "Sign message" }).click()
    const output = page.getByTestId("signature")
    await expect.poll(async () => {
      const text = (await output.textContent()) ?? ""
      return /^0x[0-9a-f]{128}$/.test(text) && ed25519Verify(u8aWrapBytes(MESSAGE), text, charlie.publicKey)
    }).toBe(true)
    const checked = signatureVerify(MESSAGE, (await output.textContent()) ?? "", charlie.address)
    expect([checked.isValid, checked.crypto]).toEqual([true, "ed25519"])
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

  it("a polkadot_signTransaction from the request card goes to the extension's signPayload: the ed25519 signature verifies", async () => {
    const charlie = wallet.pairs[2]!
    const signed = wallet.requests.filter((request) => request === "signPayload").length
    await page.getByRole("textbox", { name: "Method" }).fill("polkadot_signTransaction")
    await page
      .getByRole("textbox", { name: "Params (JSON)" })
      .fill(JSON.stringify({ address: charlie.address, transactionPayload: westendTransferPayload(charlie.address) }))
    await page.getByRole("button", { name: "Send request" }).click()
    const output = page.getByTestId("request").filter({ hasText: /"signature"/ })
    await output.waitFor()
    const answer = JSON.parse((await output.textContent()) ?? "") as { signature: string }
    // A MultiSignature: ed25519's byte (00), then the 64 bytes over the payload's encoding, which this test builds.
    expect(answer.signature).toMatch(/^0x00[0-9a-f]{128}$/)
    const signature = `0x${answer.signature.slice(4)}`
    expect(ed25519Verify(signedBytesOfTransfer(), signature, charlie.publicKey)).toBe(true)
    expect(ed25519Verify(signedBytesOfTransfer(2), signature, charlie.publicKey)).toBe(false)
    expect(wallet.requests.filter((request) => request === "signPayload")).toHaveLength(signed + 1)
  })

  it("the Networks view lists the Polkadot family beside the others, Westend drawn with the family's mark", async () => {
    await networkButton(page).click()
    await dialog(page).getByRole("heading", { name: "Polkadot" }).waitFor()
    await dialog(page).getByRole("heading", { name: "EVM" }).waitFor()
    const westend = dialog(page).getByRole("button", { name: /Westend/ })
    expect(await westend.locator('svg[data-family="polkadot"]').count()).toBe(1)
    await page.keyboard.press("Escape")
  })

  it("never reached any address off this machine", () => {
    expect(browser.requests.filter((url) => !isLoopback(url))).toEqual([])
  })
})

describe("sign-in with a Polkadot wallet", () => {
  it("the sign-in text is signed wrapped in <Bytes>…</Bytes> and the services keep the session of the Westend account", async () => {
    const browser = await launchBrowser()
    try {
      const wallet = await installInjectedPolkadotWallet(browser.context)
      const page = browser.page
      await page.goto(`${demo.info.url}?signIn=on`)
      await page.getByRole("button", { name: "Connect wallet" }).click()
      await dialog(page).getByRole("button", { name: /Polkadot Test Wallet/ }).click()
      await dialog(page).getByRole("heading", { name: "Sign in to Wallet Runtime demo" }).waitFor()
      await dialog(page).getByRole("button", { name: "Sign", exact: true }).click()
      await dialog(page).waitFor({ state: "detached" })
      await expect.poll(() => page.getByTestId("session").textContent()).toContain("Signed in.")
      expect(wallet.requests.filter((request) => request === "signRaw")).toHaveLength(1)
      const services = stack.info.config.services!
      const caip = encodeURIComponent(`${WESTEND}:${wallet.address()}`)
      const response = await fetch(`${services.url}/v1/sessions/${caip}?projectId=${services.defaultProjectId}`, {
        headers: { origin: new URL(demo.info.url).origin }
      })
      const { sessions } = (await response.json()) as { sessions: ReadonlyArray<{ message: string; signature: string }> }
      expect(sessions).toHaveLength(1)
      const { message, signature } = sessions[0]!
      expect(message).toContain("wants you to sign in with your Polkadot account:")
      expect(sr25519Verify(u8aWrapBytes(message), signature, wallet.pairs[0]!.publicKey)).toBe(true)
      expect(sr25519Verify(message, signature, wallet.pairs[0]!.publicKey)).toBe(false)
    } finally {
      await browser.close()
    }
  })
})
