/**
 * One-click sign-in over WalletConnect in Chromium (issue 13): the demo with `servicesSiwx()` (`?signIn=on`) and its
 * EVM networks only (`&families=eip155`: a stack of EVM chains, the relay and the services, so the WalletConnect
 * session is eip155 only and one-click applies), and the devstack's test wallet page (a real WalletKit wallet) in a second page of the same
 * browser. The QR code's URI pairs the wallet page, which shows one request — connect and sign in — and, approved,
 * the demo says "Signed in." without its sign view ever showing; the services keep the session. A wallet refusing
 * the request leaves the demo on "Connection declined" with nothing kept; a wallet without one-click support (the
 * page's switch off) gets the ordinary proposal and the sign-in is a second step.
 */
import AxeBuilder from "@axe-core/playwright"
import type { Locator, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { truncateAddress } from "../../src/domain/format"
import { isLoopback } from "./support/browser"
import { type OpenDemo, openDemo } from "./support/demo"
import { serviceSessions } from "./support/siwxSessions"

let session: OpenDemo
let page: Page
let wallet: Page
let walletUrl = ""

const dialog = () => page.getByRole("dialog")
const sessionText = () => page.getByTestId("session").textContent()
const card = (title: string | RegExp): Locator => wallet.getByRole("article", { name: title })
/** The wallet page's activity lines that are prompts: proposals, sign-in requests and requests waiting for Approve. */
const prompts = async () =>
  (await wallet.locator("#activity li").evaluateAll((items) => items.map((item) => item.lastChild?.textContent ?? "")))
    .filter((line) => /asks to connect|: sign a message|: send a transaction/.test(line))
    .reverse()

/** The sessions the services keep for an account (CAIP-10). */
const sessionsOf = (caipAddress: string) => serviceSessions(session.stack, session.url, caipAddress)

/** The demo's WalletConnect QR code's URI, after Connect wallet → WalletConnect. */
const qrUri = async () => {
  await page.getByRole("button", { name: "Connect wallet" }).click()
  await dialog().getByRole("button", { name: /WalletConnect/ }).click()
  const qr = dialog().getByRole("img", { name: "QR code to connect with WalletConnect" })
  await qr.waitFor()
  const uri = (await qr.getAttribute("data-qr-value")) ?? ""
  expect(uri).toMatch(/^wc:[0-9a-f]+@2\?/)
  return uri
}

/** Opens the wallet page on its account `index` with one-click on or off (a fresh page load, the state it keeps is WalletKit's). */
const openWallet = async (account: number, oneClick: boolean) => {
  await wallet.goto(walletUrl)
  await wallet.getByRole("status").filter({ hasText: "Ready" }).waitFor()
  await wallet.getByLabel("EVM account to share with the next dapp you connect").selectOption(String(account))
  const box = wallet.getByRole("checkbox", { name: "Answer one-click sign-in requests" })
  if ((await box.isChecked()) !== oneClick) await box.click()
}

const pairWallet = async (uri: string) => {
  await wallet.getByRole("textbox", { name: "Pairing URI" }).fill(uri)
  await wallet.getByRole("button", { name: "Connect", exact: true }).click()
}

beforeAll(async () => {
  session = await openDemo({ name: "siwx-wc", parts: ["evm", "relay", "services"] })
  page = session.browser.page
  wallet = await session.browser.context.newPage()
  walletUrl = session.stack.config.services?.testWalletUrl ?? ""
  // Whether the demo's sign view ever showed: recorded in the page from its first script on, whatever comes and goes.
  await page.addInitScript(() => {
    const seen = { signView: false }
    ;(window as unknown as { __signViewSeen: typeof seen }).__signViewSeen = seen
    new MutationObserver(() => {
      for (const heading of document.querySelectorAll("[role=dialog] h1, [role=dialog] h2, [role=dialog] h3")) {
        if (heading.textContent?.startsWith("Sign in to ")) seen.signView = true
      }
    }).observe(document, { childList: true, subtree: true, characterData: true })
  })
}, 180_000)

afterAll(() => session?.stop())

const signViewSeen = () => page.evaluate(() => (window as unknown as { __signViewSeen: { signView: boolean } }).__signViewSeen.signView)

describe("one-click sign-in over WalletConnect with the test wallet page", () => {
  it("one request in the wallet connects and signs in: the demo says 'Signed in.' and never shows its sign view; the services keep the session", async () => {
    const evm = session.stack.config.evm
    if (evm === null) throw new Error("the stack has no EVM part")
    const address = evm.accounts[7]?.address ?? ""
    await openWallet(7, true)
    await page.goto(`${session.url}?signIn=on&families=eip155`)
    const uri = await qrUri()

    const paired = performance.now()
    await pairWallet(uri)
    const request = card(/asks to connect and sign in/)
    await request.waitFor()
    const shown = performance.now()
    expect(await request.textContent()).toContain("Local Chain A")
    expect(await request.textContent()).toContain("personal_sign")
    // The wallet page's request card and its one-click switch pass axe.
    const axe = await new AxeBuilder({ page: wallet }).analyze()
    expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join("; ")}`)).toEqual([])
    await request.getByRole("button", { name: "Approve" }).click()
    const approved = performance.now()
    await expect.poll(sessionText, { timeout: 20_000 }).toContain("Signed in.")
    const signedIn = performance.now()
    await dialog().waitFor({ state: "detached" })
    console.info(
      `one-click in Chromium: pairing to the wallet's request ${(shown - paired).toFixed(0)} ms; Approve to "Signed in." ${(signedIn - approved).toFixed(0)} ms`
    )

    expect(await signViewSeen()).toBe(false)
    // Exactly one prompt in the wallet: the sign-in request; no proposal, no message to sign after it.
    expect(await prompts()).toEqual(["Wallet Runtime demo asks to connect and sign in."])
    await expect.poll(() => wallet.locator("#activity li").first().innerText()).toMatch(/signed in on Local Chain A, Local Chain B\./)
    // The services keep a session per chain the wallet signed for; the one in front is the demo's.
    const onA = await sessionsOf(`eip155:31337:${address}`)
    const onB = await sessionsOf(`eip155:31338:${address}`)
    expect([onA.length, onB.length]).toEqual([1, 1])
    expect(onA[0]?.message).toContain("I further authorize the stated URI to perform the following actions on my behalf")
    // A reload keeps it, asking nothing.
    await page.reload()
    await expect.poll(sessionText, { timeout: 10_000 }).toContain("Signed in.")
    expect(await prompts()).toHaveLength(1)
    expect(session.browser.requests.filter((url) => !isLoopback(url))).toEqual([])
    // Disconnect for the next test (the session is revoked on the way out).
    await page.getByRole("button", { name: new RegExp(truncateAddress(address).replace(/[.]/g, "\\.")) }).click()
    await dialog().getByRole("button", { name: "Disconnect" }).click()
    await page.getByRole("button", { name: "Connect wallet" }).waitFor()
  })

  it("a wallet that refuses the request: 'Connection declined' in the demo, nothing connected, nothing kept", async () => {
    const evm = session.stack.config.evm
    const address = evm?.accounts[8]?.address ?? ""
    await openWallet(8, true)
    await page.goto(`${session.url}?signIn=on&families=eip155`)
    await pairWallet(await qrUri())
    await card(/asks to connect and sign in/).getByRole("button", { name: "Reject" }).click()
    await dialog().getByRole("heading", { name: "Connection declined" }).waitFor({ timeout: 20_000 })
    expect(await signViewSeen()).toBe(false)
    expect(await sessionsOf(`eip155:31337:${address}`)).toEqual([])
    await page.keyboard.press("Escape")
    await page.getByRole("button", { name: "Connect wallet" }).waitFor()
    await expect.poll(sessionText).toContain("Connect a wallet to sign in.")
  })

  it("a wallet without one-click support gets the ordinary proposal; the sign-in is a second step and a second prompt", async () => {
    const evm = session.stack.config.evm
    const address = evm?.accounts[9]?.address ?? ""
    await openWallet(9, false)
    const before = (await prompts()).length
    await page.goto(`${session.url}?signIn=on&families=eip155`)
    await pairWallet(await qrUri())
    await card(/asks to connect$/).getByRole("button", { name: "Approve" }).click()
    await dialog().getByRole("heading", { name: "Sign in to Wallet Runtime demo" }).waitFor({ timeout: 20_000 })
    expect(await signViewSeen()).toBe(true)
    await dialog().getByRole("button", { name: "Sign", exact: true }).click()
    await card(/Sign a message/).getByRole("button", { name: "Approve" }).click()
    await expect.poll(sessionText, { timeout: 20_000 }).toContain("Signed in.")
    expect((await prompts()).slice(before)).toEqual(["Wallet Runtime demo asks to connect.", "Wallet Runtime demo: sign a message."])
    expect(await sessionsOf(`eip155:31337:${address}`)).toHaveLength(1)
  })
})
