/**
 * Passkey login in the demo (issue 30, item 3), on the local stack: the click opens the passkey window on the frame's
 * origin, where Chromium's virtual authenticator (CTAP2, internal transport, resident keys, user verification, PRF,
 * presence simulated; attached over CDP to that window, a new tab each time) creates or uses the passkey. A new
 * visitor creates one and is connected with an address; after a disconnect the same passkey (the same authenticator's
 * credential, moved to the next window's authenticator) logs the same address in again; a refused ceremony (user
 * verification fails: the browser answers NotAllowedError, as when the visitor dismisses the prompt) says so in the
 * visitor's words and loses nothing. axe finds nothing on Connect with the passkey buttons, while waiting, nor with
 * the failure, in light and dark; a passkey window closed before the passkey was used says so too.
 */
import type { Page, Route } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type OpenDemo, openDemo } from "./support/demo"
import { accountButton, axeViolations, connectedAddress } from "./support/embeddedLogin"
import { type AuthenticatorOptions, PASSKEY_PAGE_ROUTE, pressPasskey, type VirtualCredential } from "./support/virtualAuthenticator"

let session: OpenDemo
let page: Page
// The visitor's passkey as their authenticator holds it now (made in the first window, its counter as last used).
let credential: VirtualCredential | undefined

const dialog = () => page.getByRole("dialog")

/** Presses one of the passkey buttons; the window it opened, with an authenticator keeping the passkey's last use. */
const clickPasskey = (
  name: "Continue with a passkey" | "Create a passkey",
  opts: Omit<AuthenticatorOptions, "onUsed"> = {},
  press?: Parameters<typeof pressPasskey>[3]
) =>
  pressPasskey(page, dialog().getByRole("button", { name, exact: true }), { ...opts, onUsed: (used) => (credential = used) }, press)

const openConnect = async () => {
  await page.getByRole("button", { name: "Connect wallet" }).click()
  await dialog().getByRole("button", { name: "Continue with a passkey" }).waitFor({ timeout: 15_000 })
}

const disconnect = async (address: string) => {
  await accountButton(page, address).click()
  await dialog().getByRole("button", { name: "Disconnect" }).click()
  await page.getByRole("button", { name: "Connect wallet" }).waitFor({ timeout: 15_000 })
}

beforeAll(async () => {
  session = await openDemo({ name: "passkeys", parts: ["evm", "mail", "services", "embedded"] })
  page = session.browser.page
}, 180_000)

afterAll(() => session?.stop())

describe("passkey login in the demo", () => {
  let address = ""

  it("axe finds nothing on Connect with the passkey buttons, in light and in dark", async () => {
    for (const theme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: theme })
      await page.goto(session.url)
      await openConnect()
      expect(await axeViolations(page)).toEqual([])
      await page.keyboard.press("Escape")
      await dialog().waitFor({ state: "hidden" })
    }
    await page.emulateMedia({ colorScheme: "light" })
  })

  it("a new visitor creates a passkey with the keyboard and is connected with an address", async () => {
    await page.goto(session.url)
    await openConnect()
    const clicked = Date.now()
    // Keyboard only: focus the link-looking button and press Enter.
    const { popup, made } = await clickPasskey("Create a passkey", {}, async (button) => {
      await button.focus()
      await page.keyboard.press("Enter")
    })
    await dialog().getByText("Create your passkey in the window that opened…").waitFor({ state: "attached", timeout: 10_000 })
    await dialog().waitFor({ state: "hidden", timeout: 30_000 })
    address = await connectedAddress(page)
    console.info(`passkey created → connected: ${Date.now() - clicked} ms`)
    expect(address).toMatch(/^0x[0-9a-fA-F]{40}$/)
    await expect.poll(() => popup.isClosed(), { timeout: 10_000 }).toBe(true)
    credential = await Promise.race([
      made,
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error("the authenticator made no credential within 10 s")), 10_000))
    ])
    // A discoverable passkey of the frame's relying party (its host name), not the host page's.
    expect(credential).toMatchObject({ isResidentCredential: true, rpId: new URL(session.stack.config.embedded?.frameUrl ?? "http://x").hostname })
  }, 90_000)

  it("after a disconnect, the same passkey logs the same address in again", async () => {
    expect(credential).toBeDefined()
    await disconnect(address)
    await openConnect()
    const clicked = Date.now()
    await clickPasskey("Continue with a passkey", { credentials: credential === undefined ? [] : [credential] })
    await dialog().waitFor({ state: "hidden", timeout: 30_000 })
    expect(await connectedAddress(page)).toBe(address)
    console.info(`passkey login click → connected: ${Date.now() - clicked} ms`)
  }, 90_000)

  it("a refused ceremony says so in the visitor's words, loses nothing, and the passkey still logs in after", async () => {
    await disconnect(address)
    await openConnect()
    const { popup } = await clickPasskey("Continue with a passkey", { credentials: credential === undefined ? [] : [credential], userVerified: false })
    const words = "The passkey request was cancelled. Nothing was changed: try again when you are ready."
    await dialog().getByText(words).waitFor({ timeout: 30_000 })
    await expect.poll(() => popup.isClosed(), { timeout: 10_000 }).toBe(true)
    expect(await page.getByText(/^From 0x/).count()).toBe(0)
    for (const theme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: theme })
      expect(await axeViolations(page)).toEqual([])
    }
    await page.emulateMedia({ colorScheme: "light" })
    // Try again from the same view: the same wallet.
    await clickPasskey("Continue with a passkey", { credentials: credential === undefined ? [] : [credential] })
    await dialog().waitFor({ state: "hidden", timeout: 30_000 })
    expect(await connectedAddress(page)).toBe(address)
  }, 90_000)

  it("a closed passkey window ends the wait in words; the wait itself is axe-clean", async () => {
    await disconnect(address)
    await openConnect()
    // The visitor closes the window before the passkey page is there (its load held back here until then).
    const held = (route: Route) => void route
    await page.context().route(PASSKEY_PAGE_ROUTE, held)
    const popupOpened = page.waitForEvent("popup", { timeout: 10_000 })
    await dialog().getByRole("button", { name: "Continue with a passkey", exact: true }).click()
    const popup = await popupOpened
    await dialog().getByText("Use your passkey in the window that opened…").waitFor({ timeout: 10_000 })
    expect(await axeViolations(page)).toEqual([])
    await popup.close()
    await page.context().unroute(PASSKEY_PAGE_ROUTE, held)
    await dialog().getByText("The passkey window was closed before you used your passkey. Nothing was changed: try again.").waitFor({ timeout: 10_000 })
    expect(await page.getByText(/^From 0x/).count()).toBe(0)
  }, 60_000)

  it("a passkey window closed while the browser asks for the passkey says it was closed, not that the browser cannot use passkeys", async () => {
    await page.goto(session.url)
    await openConnect()
    // No touch comes: the page stays on the browser's prompt until the visitor closes the window.
    const { popup } = await clickPasskey("Continue with a passkey", { credentials: credential === undefined ? [] : [credential], presence: false })
    await popup.getByText("Follow your browser to use your passkey.").waitFor({ timeout: 30_000 })
    await popup.close()
    const alert = dialog().getByRole("alert")
    await alert.waitFor({ timeout: 10_000 })
    expect(await alert.textContent()).toContain("The passkey window was closed before you used your passkey. Nothing was changed: try again.")
    expect(await page.getByText(/^From 0x/).count()).toBe(0)
  }, 60_000)
})
