/**
 * The demo in Chromium connecting over WalletConnect through the devstack relay to the devstack's test wallet page
 * (a real WalletKit wallet in a second page of the same browser): the QR code's URI opens the wallet, the wallet
 * approves, the demo shows the account; a signature round-trips, on EVM, Solana and Polkadot (Westend, the page's
 * //Alice), and a Polkadot message the page rejects is shown in the visitor's words; a Polkadot transfer payload sent
 * as `polkadot_signTransaction` from the demo's request card is signed by the page, its signature checked in Node
 * against the payload's bytes and //Alice's key; a reload keeps the session. Nothing stands in for any outside host: the browser resolves loopback only,
 * and the runtime asks nothing of a host the options do not name (WalletConnect's Verify included), so the QR code
 * comes without waiting for one.
 */
import type { Locator, Page } from "playwright-core"
import { getBase58Encoder, getPublicKeyFromAddress, type SignatureBytes, verifySignature } from "@solana/kit"
import { stringToU8a, u8aWrapBytes } from "@polkadot/util"
import { decodeAddress, signatureVerify, sr25519Verify } from "@polkadot/util-crypto"
import { verifyMessage } from "viem"
import { devSolanaKey } from "../../devstack/solana/keys"
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { truncateAddress } from "../../src/domain/format"
import { type Browser, isLoopback, launchBrowser } from "./support/browser"
import { type OpenDemo, openDemo } from "./support/demo"
import { signedBytesOfTransfer, transferCall, WESTEND_GENESIS, westendTransferPayload } from "./support/polkadotPayload"

const ALICE = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"
/** //Alice (sr25519) in Westend's format (the generic SS58 prefix, 42). */
const ALICE_WESTEND = "5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY"

let session: OpenDemo | undefined
let demoUrl: string
let testWalletUrl: string
let browser: Browser
let page: Page
let wallet: Page

const dialog = () => page.getByRole("dialog")
const accountButton = () =>
  page.getByRole("button", { name: new RegExp(`alice\\.wallet\\.test|${truncateAddress(ALICE).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`) })
const card = (title: string | RegExp): Locator => wallet.getByRole("article", { name: title })

beforeAll(async () => {
  session = await openDemo({ name: "wc", parts: ["evm", "solana", "relay", "services"] })
  demoUrl = session.url
  testWalletUrl = session.stack.config.services?.testWalletUrl ?? ""
  browser = session.browser
  page = browser.page
  wallet = await browser.context.newPage()
  await wallet.goto(testWalletUrl)
  await wallet.getByRole("status").filter({ hasText: "Ready" }).waitFor()
})

afterAll(() => session?.stop())

describe("WalletConnect in the demo", () => {
  it("shows a QR code, pairs with the wallet page by its URI, and connects", async () => {
    await page.goto(demoUrl)
    await page.getByRole("button", { name: "Connect wallet" }).click()
    await dialog().getByRole("button", { name: /WalletConnect/ }).click()
    const qr = dialog().getByRole("img", { name: "QR code to connect with WalletConnect" })
    await qr.waitFor()
    const uri = (await qr.getAttribute("data-qr-value")) ?? ""
    expect(uri).toMatch(/^wc:[0-9a-f]+@2\?/)

    await wallet.goto(`${testWalletUrl}wc?uri=${encodeURIComponent(uri)}`)
    const proposal = card(/asks to connect/)
    expect(await proposal.textContent()).toContain("Local Chain B")
    await proposal.getByRole("button", { name: "Approve" }).click()

    // Connecting closes the modal; the host's button shows the account.
    await expect.poll(() => dialog().count(), { timeout: 20_000 }).toBe(0)
    await expect.poll(() => accountButton().count(), { timeout: 20_000 }).toBeGreaterThan(0)
    // From the page's load to the session, nothing went beyond this machine (no Verify iframe, no analytics).
    expect(browser.requests.filter((url) => !isLoopback(url))).toEqual([])
  })

  it("signs a message through the session: the wallet page shows it and its signature verifies", async () => {
    await page.keyboard.press("Escape")
    await page.getByRole("textbox", { name: "Message" }).fill("over WalletConnect")
    await page.getByRole("button", { name: "Sign message" }).click()
    const request = card(/Sign a message/)
    expect(await request.textContent()).toContain("over WalletConnect")
    await request.getByRole("button", { name: "Approve" }).click()
    const output = page.getByTestId("signature").filter({ hasText: /0x[0-9a-f]{130}/ })
    await output.waitFor()
    const signature = /0x[0-9a-f]{130}/.exec((await output.textContent()) ?? "")?.[0] as `0x${string}`
    expect(await verifyMessage({ address: ALICE, message: "over WalletConnect", signature })).toBe(true)
  })

  it("one session serves Solana too: switching to Local Solana signs there, and the signature verifies", async () => {
    await page.getByRole("button", { name: /^Network: / }).click()
    await dialog().getByRole("button", { name: /Local Solana/ }).click()
    await expect.poll(() => page.getByRole("button", { name: /^Network: / }).getAttribute("aria-label")).toContain("Local Solana")
    if ((await dialog().count()) > 0) await page.keyboard.press("Escape")
    const solanaAddress = devSolanaKey(0).address
    await page.getByRole("button", { name: new RegExp(truncateAddress(solanaAddress).replace(/[.]/g, "\\.")) }).waitFor()
    await page.getByRole("textbox", { name: "Message" }).fill("Solana over WalletConnect")
    await page.getByRole("button", { name: "Sign message" }).click()
    await card(/Sign a message/).filter({ hasText: "Solana over WalletConnect" }).getByRole("button", { name: "Approve" }).click()
    const output = page.getByTestId("signature").filter({ hasText: /^[1-9A-HJ-NP-Za-km-z]{80,90}$/ })
    await output.waitFor()
    const signature = getBase58Encoder().encode((await output.textContent()) ?? "")
    const key = await getPublicKeyFromAddress(solanaAddress)
    expect(await verifySignature(key, signature as SignatureBytes, new TextEncoder().encode("Solana over WalletConnect"))).toBe(true)
    await page.getByRole("button", { name: /^Network: / }).click()
    await dialog().getByRole("button", { name: /Local Chain A/ }).click()
    if ((await dialog().count()) > 0) await page.keyboard.press("Escape")
  })

  it("one session serves Polkadot too: on Westend the page signs with //Alice, and the signature verifies in Node", async () => {
    await page.getByRole("button", { name: /^Network: / }).click()
    await dialog().getByRole("button", { name: /Westend/ }).click()
    await expect.poll(() => page.getByRole("button", { name: /^Network: / }).getAttribute("aria-label")).toContain("Westend")
    if ((await dialog().count()) > 0) await page.keyboard.press("Escape")
    await page.getByRole("button", { name: new RegExp(truncateAddress(ALICE_WESTEND).replace(/[.]/g, "\\.")) }).waitFor()
    await page.getByRole("textbox", { name: "Message" }).fill("Polkadot over WalletConnect")
    await page.getByRole("button", { name: "Sign message" }).click()
    const request = card(/Sign a message/).filter({ hasText: "Polkadot over WalletConnect" })
    expect(await request.textContent()).toContain(ALICE_WESTEND)
    await request.getByRole("button", { name: "Approve" }).click()
    const output = page.getByTestId("signature").filter({ hasText: /^0x[0-9a-f]{128}$/ })
    await output.waitFor()
    const signature = (await output.textContent()) ?? ""
    // Signed as polkadot-js signs bytes: wrapped in <Bytes>…</Bytes>, sr25519.
    const signed = signatureVerify(u8aWrapBytes(stringToU8a("Polkadot over WalletConnect")), signature, ALICE_WESTEND)
    expect(signed).toMatchObject({ isValid: true, crypto: "sr25519" })
    expect(signatureVerify(u8aWrapBytes(stringToU8a("Polkadot over WalletConnect.")), signature, ALICE_WESTEND).isValid).toBe(false)
    await page.getByRole("button", { name: /^Network: / }).click()
    await dialog().getByRole("button", { name: /Local Chain A/ }).click()
    if ((await dialog().count()) > 0) await page.keyboard.press("Escape")
  })

  it("a Polkadot message the wallet page rejects says so in the visitor's words", async () => {
    await page.getByRole("button", { name: /^Network: / }).click()
    await dialog().getByRole("button", { name: /Westend/ }).click()
    await expect.poll(() => page.getByRole("button", { name: /^Network: / }).getAttribute("aria-label")).toContain("Westend")
    if ((await dialog().count()) > 0) await page.keyboard.press("Escape")
    await page.getByRole("button", { name: new RegExp(truncateAddress(ALICE_WESTEND).replace(/[.]/g, "\\.")) }).waitFor()
    await page.getByRole("textbox", { name: "Message" }).fill("Polkadot, refused")
    await page.getByRole("button", { name: "Sign message" }).click()
    const request = card(/Sign a message/).filter({ hasText: "Polkadot, refused" })
    expect(await request.textContent()).toContain(ALICE_WESTEND)
    await request.getByRole("button", { name: "Reject" }).click()
    await expect.poll(() => page.getByTestId("signature").textContent()).toBe("Error: User rejected the request.")
    await page.getByRole("button", { name: /^Network: / }).click()
    await dialog().getByRole("button", { name: /Local Chain A/ }).click()
    if ((await dialog().count()) > 0) await page.keyboard.press("Escape")
  })

  it("a polkadot_signTransaction sent from the request card on Westend: the page signs the payload, and the signature verifies", async () => {
    await page.getByRole("button", { name: /^Network: / }).click()
    await dialog().getByRole("button", { name: /Westend/ }).click()
    await expect.poll(() => page.getByRole("button", { name: /^Network: / }).getAttribute("aria-label")).toContain("Westend")
    if ((await dialog().count()) > 0) await page.keyboard.press("Escape")
    await page.getByRole("button", { name: new RegExp(truncateAddress(ALICE_WESTEND).replace(/[.]/g, "\\.")) }).waitFor()
    const payload = westendTransferPayload(ALICE_WESTEND)
    await page.getByRole("textbox", { name: "Method" }).fill("polkadot_signTransaction")
    await page.getByRole("textbox", { name: "Params (JSON)" }).fill(JSON.stringify({ address: ALICE_WESTEND, transactionPayload: payload }))
    await page.getByRole("button", { name: "Send request" }).click()
    // The page shows what it is asked to sign: the account, Westend's genesis hash and the call.
    const request = card(/Sign a transaction/).filter({ hasText: transferCall() })
    for (const shown of [ALICE_WESTEND, WESTEND_GENESIS]) expect(await request.textContent()).toContain(shown)
    await request.getByRole("button", { name: "Approve" }).click()
    const output = page.getByTestId("request").filter({ hasText: /"signature"/ })
    await output.waitFor()
    const answer = JSON.parse((await output.textContent()) ?? "") as { signature: string }
    // A MultiSignature: sr25519's byte (01), then the 64 bytes over the payload's encoding, which this test builds.
    expect(answer.signature).toMatch(/^0x01[0-9a-f]{128}$/)
    const signature = `0x${answer.signature.slice(4)}`
    const alice = decodeAddress(ALICE_WESTEND)
    expect(sr25519Verify(signedBytesOfTransfer(), signature, alice)).toBe(true)
    expect(sr25519Verify(signedBytesOfTransfer(2), signature, alice)).toBe(false)
    await page.getByRole("button", { name: /^Network: / }).click()
    await dialog().getByRole("button", { name: /Local Chain A/ }).click()
    if ((await dialog().count()) > 0) await page.keyboard.press("Escape")
  })

  it("keeps the session across a reload, without asking the wallet again", async () => {
    await page.reload()
    await expect.poll(() => accountButton().count(), { timeout: 20_000 }).toBeGreaterThan(0)
    expect(await card(/asks to connect/).count()).toBe(0)
  })
})

describe("a hosted wallet from the catalogue, over WalletConnect", () => {
  let visitor: Browser
  beforeEach(async () => {
    visitor = await launchBrowser()
  })
  afterEach(async () => {
    await visitor?.close()
  })
  /**
   * The demo in a browser of its own (no session yet); `phone` makes it a phone's (its user agent), where the modal
   * opens on All wallets and links open the wallet app instead of showing a QR code.
   */
  const freshDemo = async (phone: boolean) => {
    const demo = visitor.page
    if (phone) {
      const cdp = await visitor.context.newCDPSession(demo)
      await cdp.send("Emulation.setUserAgentOverride", {
        userAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1"
      })
    }
    await demo.goto(demoUrl)
    await demo.getByRole("button", { name: "Connect wallet" }).click()
    const modal = demo.getByRole("dialog")
    await modal.waitFor()
    if ((await modal.getAttribute("data-view")) !== "AllWallets") await modal.getByRole("button", { name: "All wallets" }).click()
    return { demo, modal }
  }
  /** Picks `name` in All wallets: ConnectingWalletConnect opens with the pairing for that wallet. */
  const choose = async (modal: Locator, name: string) => {
    await modal.getByRole("searchbox", { name: "Search wallets" }).fill(name)
    await modal.getByRole("button", { name: new RegExp(`^${name}$`) }).click()
    await expect.poll(() => modal.getAttribute("data-view")).toBe("ConnectingWalletConnect")
  }
  /** The wallet page approves the proposal the link carried; the demo then shows the account. */
  const approvedIn = async (walletPage: Page, demo: Page) => {
    await walletPage.getByRole("status").filter({ hasText: "Ready" }).waitFor()
    await walletPage.getByRole("article", { name: /asks to connect/ }).getByRole("button", { name: "Approve" }).click()
    await demo.getByRole("button", { name: new RegExp(`alice\\.wallet\\.test|${truncateAddress(ALICE).replace(/[.]/g, "\\.")}`) }).waitFor({ timeout: 20_000 })
  }
  const pairingOf = (href: string | null) => new URL(href ?? "").searchParams.get("uri") ?? ""

  it("web app: ConnectingWalletConnect shows the QR code and 'Open web app', which opens the test wallet page in a new tab with that pairing", async () => {
    const { demo, modal } = await freshDemo(false)
    await choose(modal, "Devstack Test Wallet")
    const qr = modal.getByRole("img", { name: "QR code to connect with Devstack Test Wallet" })
    const link = modal.getByRole("link", { name: "Open web app" })
    expect(await link.getAttribute("target")).toBe("_blank")
    expect(pairingOf(await link.getAttribute("href"))).toBe(await qr.getAttribute("data-qr-value"))
    expect(await modal.getByRole("link", { name: "Open desktop app" }).count()).toBe(0)
    expect((await link.getAttribute("href"))?.startsWith(`${testWalletUrl}wc?uri=`)).toBe(true)
    const [tab] = await Promise.all([visitor.context.waitForEvent("page"), link.click()])
    await tab.waitForURL((url) => url.href.startsWith(testWalletUrl))
    await approvedIn(tab, demo)
    await tab.close()
  })

  it("desktop app: 'Open desktop app' is the catalogue's desktop link with the pairing; the app it opens connects", async () => {
    const { demo, modal } = await freshDemo(false)
    await choose(modal, "Devstack Test Wallet Desktop")
    const link = modal.getByRole("link", { name: "Open desktop app" })
    const href = (await link.getAttribute("href")) ?? ""
    expect(href.startsWith(`${testWalletUrl}wc?uri=`)).toBe(true)
    expect(await link.getAttribute("target")).toBeNull()
    expect(pairingOf(href)).toBe(await modal.getByRole("img", { name: /^QR code to connect with/ }).getAttribute("data-qr-value"))
    // The desktop app is another program: the link is opened there, and the demo stays where it is.
    const app = await visitor.context.newPage()
    await app.goto(href)
    await approvedIn(app, demo)
    await app.close()
  })

  it("on a phone: no QR code, 'Open Devstack Test Wallet Mobile' carries the pairing to the wallet app, which connects", async () => {
    const { demo, modal } = await freshDemo(true)
    await choose(modal, "Devstack Test Wallet Mobile")
    const link = modal.getByRole("link", { name: "Open Devstack Test Wallet Mobile" })
    const href = (await link.getAttribute("href")) ?? ""
    expect(href.startsWith(`${testWalletUrl}wc?uri=`)).toBe(true)
    expect(pairingOf(href)).toMatch(/^wc:[0-9a-f]+@2\?/)
    expect(await modal.getByRole("img", { name: /^QR code/ }).count()).toBe(0)
    const app = await visitor.context.newPage()
    await app.goto(href)
    await approvedIn(app, demo)
    await app.close()
  })
})
