/**
 * Farcaster login in the demo (issue 27), on the local stack: the Farcaster button opens ConnectingFarcaster with a
 * Sign In With Farcaster channel's link as a QR code; the stack's test Farcaster client (another origin, as the app on
 * a phone would be) takes that link and signs the channel's message with a test user's custody key, which the wallet
 * server checks against the id registry stand-in on the local chain; the modal logs the visitor in with the embedded
 * wallet, whose Account view names Farcaster and the user. The visitor then signs a message, keeps the wallet across
 * a reload and signs out. An unsigned link shows its QR code and an "Open Farcaster" link with the same value.
 */
import type { Page } from "playwright-core"
import { verifyMessage } from "viem"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type OpenDemo, openDemo } from "./support/demo"
import { accountButton, axeViolations, connectedAddress } from "./support/embeddedLogin"

let session: OpenDemo
let page: Page

const dialog = () => page.getByRole("dialog")
const farcasterButton = () => dialog().getByRole("button", { name: "Continue with Farcaster", exact: true })

/** The link of the QR code the view shows. */
const shownLink = async (): Promise<string> => {
  const qr = dialog().getByRole("img", { name: "QR code to sign in with Farcaster" })
  await qr.waitFor({ timeout: 20_000 })
  return (await qr.getAttribute("data-qr-value")) ?? ""
}

beforeAll(async () => {
  session = await openDemo({ name: "farcaster", parts: ["evm", "mail", "services", "embedded"] })
  page = session.browser.page
}, 180_000)

afterAll(() => session?.stop())

describe("Farcaster login in the demo", () => {
  it("logs in through the QR channel with the test Farcaster client, signs a message, survives a reload, signs out", async () => {
    const client = session.stack.config.farcaster
    if (client === undefined || client === null) throw new Error("the stack runs no Farcaster client")
    await page.goto(session.url)
    await page.getByRole("button", { name: "Connect wallet" }).click()
    await farcasterButton().click()
    await dialog()
      .getByRole("heading", { name: "Scan with Farcaster" })
      // The first use builds the frame page (Vite) on a busy machine: a generous bound.
      .waitFor({ timeout: 60_000 })
      .catch(async (error: unknown) => {
        throw new Error(`ConnectingFarcaster shows: ${await dialog().innerText()}`, { cause: error })
      })
    const link = await shownLink()
    expect(link).toMatch(/^farcaster:\/\/connect\?channelToken=[\w-]+&nonce=[A-Za-z0-9]{24}&/)
    expect(await dialog().getByRole("link", { name: "Open Farcaster" }).getAttribute("href")).toBe(link)
    expect(await axeViolations(page)).toEqual([])

    // The Farcaster app: another page, another origin, given the scanned link.
    const app = await session.browser.context.newPage()
    try {
      await app.goto(`${client.clientUrl}?uri=${encodeURIComponent(link)}`)
      await app.getByRole("combobox", { name: "Sign in as" }).selectOption({ label: "@alice (fid 20001)" })
      await app.getByRole("button", { name: "Sign in with Farcaster" }).click()
      await app.getByText("You signed in as @alice (fid 20001).", { exact: false }).waitFor({ timeout: 20_000 })
    } finally {
      await app.close()
    }

    // The modal closes once the embedded wallet is connected.
    await dialog().waitFor({ state: "hidden", timeout: 40_000 })
    const address = await connectedAddress(page)
    await accountButton(page, address).click()
    await dialog().getByText("alice", { exact: true }).waitFor()
    await dialog().getByText("Farcaster:").waitFor({ state: "attached" })
    // The provider's mark is centred on the user name's line (it stood on the baseline, above the words' middle).
    const [mark, words] = await dialog()
      .getByText("alice", { exact: true })
      .evaluate((name) => {
        const middle = (box: DOMRect) => box.top + box.height / 2
        const tile = name.parentElement?.querySelector("svg")
        return [tile === null || tile === undefined ? Number.NaN : middle(tile.getBoundingClientRect()), middle(name.getBoundingClientRect())]
      })
    expect(Math.abs(mark! - words!)).toBeLessThanOrEqual(1)
    expect(await axeViolations(page)).toEqual([])
    await page.keyboard.press("Escape")
    await dialog().waitFor({ state: "hidden" })

    const message = "Hello from Farcaster"
    await page.getByRole("textbox", { name: "Message" }).fill(message)
    await page.getByRole("button", { name: "Sign message" }).click()
    await dialog().getByText(message).waitFor()
    await dialog().getByRole("button", { name: "Approve" }).click()
    await expect.poll(() => page.getByTestId("signature").textContent(), { timeout: 20_000 }).toMatch(/^0x[0-9a-f]+$/)
    const signature = (await page.getByTestId("signature").textContent()) as `0x${string}`
    expect(await verifyMessage({ address, message, signature })).toBe(true)
    await dialog().waitFor({ state: "hidden" })

    await page.reload()
    await page.getByText(`From ${address} on`).waitFor({ timeout: 20_000 })
    await accountButton(page, address).click()
    await dialog().getByText("alice", { exact: true }).waitFor()
    await dialog().getByRole("button", { name: "Disconnect" }).click()
    await page.getByRole("button", { name: "Connect wallet" }).waitFor()
  }, 150_000)

  it("a link signed by nobody waits; leaving the view and coming back shows a new link", async () => {
    await page.goto(session.url)
    await page.getByRole("button", { name: "Connect wallet" }).click()
    await farcasterButton().click()
    const first = await shownLink()
    await dialog().getByRole("button", { name: /back/i }).click()
    await farcasterButton().click()
    await expect.poll(shownLink, { timeout: 20_000 }).not.toBe(first)
    await page.keyboard.press("Escape")
    await dialog().waitFor({ state: "hidden" })
  }, 60_000)
})
