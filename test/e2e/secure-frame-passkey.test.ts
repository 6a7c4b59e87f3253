/**
 * Exporting both keys of a passkey wallet (issue 30, item 4), in Chromium on the local stack: a visitor who made their
 * wallet with a passkey (Chromium's virtual authenticator over CDP, on the passkey window) opens Export from the
 * Account view; the frame's view offers one button for both keys and asks for the passkey once, in the frame itself
 * (the same passkey, on the top page's authenticator, which serves the cross-site frame). One assertion shows both
 * keys: the EVM key derives the connected address, the Solana keypair's halves agree, and no message the host page
 * receives carries either.
 */
import { ed25519 } from "@noble/curves/ed25519"
import type { Frame, Page } from "playwright-core"
import { privateKeyToAccount } from "viem/accounts"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { fromBase58, toBase58 } from "../../src/domain/encoding"
import { SECURE_FRAME_ATTRIBUTE } from "../../src/services/FrameBridge/revealFrame"
import { type OpenDemo, openDemo } from "./support/demo"
import { accountButton, connectedAddress } from "./support/embeddedLogin"
import { frameViolations } from "./support/secureViews"
import { authenticatorOn, pressPasskey, type VirtualCredential } from "./support/virtualAuthenticator"

let session: OpenDemo
let page: Page

const dialog = () => page.getByRole("dialog")
const walletFrame = (): Frame => {
  const frameUrl = session.stack.config.embedded?.frameUrl ?? ""
  const frame = page.frames().find((f) => f.url().startsWith(`${frameUrl}/frame?`))
  if (frame === undefined) throw new Error("the embedded wallet's frame is not in the page")
  return frame
}

beforeAll(async () => {
  session = await openDemo({ name: "secure-frame-passkey", parts: ["evm", "mail", "services", "embedded"] })
  page = session.browser.page
}, 180_000)

afterAll(() => session?.stop())

describe("exporting the keys of a passkey wallet", () => {
  it("one passkey assertion in the frame shows both keys: the EVM key derives the connected address, the Solana keypair's halves agree, and the host page receives neither", async () => {
    await page.goto(session.url)
    await page.getByRole("button", { name: "Connect wallet" }).click()
    // The passkey as the visitor's authenticator holds it now: made in the passkey window, its counter as last used.
    let credential: VirtualCredential | undefined
    const { made } = await pressPasskey(page, dialog().getByRole("button", { name: "Create a passkey", exact: true }), { onUsed: (used) => (credential = used) })
    await dialog().waitFor({ state: "hidden", timeout: 30_000 })
    const address = await connectedAddress(page)
    credential ??= await Promise.race([
      made,
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error("the authenticator made no credential within 10 s")), 10_000))
    ])
    // The same passkey on the top page's authenticator, which the frame's view asks.
    const asserted: Array<VirtualCredential> = []
    await authenticatorOn(session.browser.context, page, { credentials: [credential], onUsed: (used) => asserted.push(used) })
    // Every message the host page receives from here on, as it received it.
    await page.evaluate(() => {
      const received: Array<string> = []
      Object.assign(window, { hostReceived: received })
      window.addEventListener("message", (event) => received.push(JSON.stringify(event.data)))
    })

    await accountButton(page, address).click()
    await dialog().getByRole("button", { name: "Export private key" }).click()
    await page.locator(`iframe[${SECURE_FRAME_ATTRIBUTE}]`).waitFor({ state: "visible", timeout: 15_000 })
    await walletFrame().getByRole("button", { name: "Show EVM and Solana private keys" }).click()
    const usePasskey = walletFrame().getByRole("button", { name: "Use your passkey" })
    await usePasskey.waitFor({ timeout: 15_000 })
    expect(await walletFrame().getByRole("group", { name: "Confirm showing your EVM and Solana private keys" }).count()).toBe(1)
    expect(await walletFrame().evaluate(() => document.activeElement?.textContent)).toBe("Use your passkey")
    await usePasskey.click()
    const evmField = walletFrame().getByRole("textbox", { name: "Your EVM private key" })
    const solanaField = walletFrame().getByRole("textbox", { name: "Your Solana private key" })
    await solanaField.waitFor({ timeout: 15_000 })
    // One assertion for both.
    expect(asserted).toHaveLength(1)
    const key = await evmField.inputValue()
    const solanaKey = await solanaField.inputValue()
    expect(privateKeyToAccount(key as `0x${string}`).address.toLowerCase()).toBe(address.toLowerCase())
    const keypair = fromBase58(solanaKey) ?? new Uint8Array()
    expect(keypair).toHaveLength(64)
    expect(toBase58(ed25519.getPublicKey(keypair.slice(0, 32)))).toBe(toBase58(keypair.slice(32)))
    expect(await frameViolations(page)).toEqual([])

    await page.keyboard.press("Escape")
    await page.locator(`iframe[${SECURE_FRAME_ATTRIBUTE}]`).waitFor({ state: "detached", timeout: 10_000 })
    const received = await page.evaluate(() => (window as unknown as { readonly hostReceived: ReadonlyArray<string> }).hostReceived)
    expect(received.some((message) => message.includes("OPEN_SECURE_VIEW"))).toBe(true)
    expect(received.filter((message) => message.toLowerCase().includes(key.slice(2).toLowerCase()) || message.includes(solanaKey))).toEqual([])
  }, 150_000)
})
