/**
 * What the browser tests of the embedded wallet's logins (social providers, Farcaster, email) read off the demo page:
 * the connected address from the demo's "From 0x… on" line, the header's account button, and axe's findings in the
 * modal; and an email login through the mail sink.
 */
import { setTimeout as delay } from "node:timers/promises"
import AxeBuilder from "@axe-core/playwright"
import type { Page } from "playwright-core"
import { expect } from "vitest"
import type { MailInfo } from "../../../devstack/mail/index"
import type { InboxMessage } from "../../../devstack/mail/schema"
import { truncateAddress } from "../../../src/domain/format"
import { animationsSettled } from "./browser"
import { contrast, painted } from "./colours"

/** The connected address, from the demo's "From 0x… on" line (waited for, bounded). */
export const connectedAddress = async (page: Page): Promise<`0x${string}`> => {
  const hint = page.getByText(/^From 0x[0-9a-fA-F]{40} on /)
  await hint.waitFor({ timeout: 20_000 })
  return (/0x[0-9a-fA-F]{40}/.exec((await hint.textContent()) ?? "")?.[0] ?? "") as `0x${string}`
}

/** The header's account button of `address` (named by its short form). */
export const accountButton = (page: Page, address: string) =>
  page.getByRole("button", { name: new RegExp(truncateAddress(address).replace(/[.]/g, "\\.")) })

/** axe's violations inside the modal, one line each. */
export const axeViolations = async (page: Page): Promise<Array<string>> => {
  // Colours measured at rest: a theme switch or a sheet sliding in is checked once its animation is over (mid-switch
  // colours failed contrast on a loaded run).
  await animationsSettled(page)
  const result = await new AxeBuilder({ page }).include("[role=dialog]").analyze()
  return result.violations.map((v) => `${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(" ")).join("; ")}`)
}

/** axe finds nothing in the modal in each of `themes`, nor at 390 px, where nothing is wider than the page. */
export const expectAxeClean = async (page: Page, themes: ReadonlyArray<"light" | "dark">): Promise<void> => {
  for (const theme of themes) {
    await page.emulateMedia({ colorScheme: theme })
    expect(await axeViolations(page), theme).toEqual([])
  }
  await page.emulateMedia({ colorScheme: "light" })
  await page.setViewportSize({ width: 390, height: 844 })
  expect(await axeViolations(page), "390 px").toEqual([])
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
  await page.setViewportSize({ width: 1280, height: 800 })
}

/**
 * The contrast of the focused control's ring with the modal's background (WCAG 1.4.11 asks 3:1 of a focus indicator),
 * both colours as the page paints them; in words when no control of the modal is focused or it shows no ring.
 */
export const focusRingContrast = async (page: Page): Promise<number | string> => {
  const colours = await page.evaluate(() => {
    const focused = document.activeElement
    const dialog = focused?.closest("[role=dialog]")
    if (focused === null || focused === undefined || dialog === null || dialog === undefined) return "no control of the modal is focused"
    const ring = getComputedStyle(focused)
    if (ring.outlineStyle === "none" || ring.outlineWidth === "0px") return "the focused control shows no ring"
    return [ring.outlineColor, getComputedStyle(dialog).backgroundColor]
  })
  if (typeof colours === "string") return colours
  const [ring, background] = await painted(page, colours)
  return contrast(ring!, background!)
}

/** The first mail to `to` since `after` (epoch ms) that `pick` accepts; polled here, not with vitest's expect.poll: the bench uses it too. */
export const waitForMail = async (
  mail: Pick<MailInfo, "messages">,
  to: string,
  after: number,
  pick: (message: InboxMessage) => boolean
): Promise<InboxMessage> => {
  const deadline = Date.now() + 15_000
  for (;;) {
    const found = mail.messages(to).find((m) => m.receivedAt >= after && pick(m))
    if (found !== undefined) return found
    if (Date.now() > deadline) throw new Error(`No such mail came to ${to} within 15 s`)
    await delay(100)
  }
}

/**
 * Asks for a login code for `email` from the demo's Connect button, and gives the code mailed; on a device the wallet
 * server does not know yet, the mailed device link is opened first (in another tab of `page`'s context). Each wait bounded.
 */
export const requestLoginCode = async (page: Page, mail: Pick<MailInfo, "messages">, email: string): Promise<string> => {
  const dialog = page.getByRole("dialog")
  await page.getByRole("button", { name: "Connect wallet" }).click()
  const field = dialog.getByRole("textbox", { name: "Continue with email" })
  let since = Date.now()
  await field.fill(email)
  await field.press("Enter")
  const code = dialog.getByText(/Enter the 6-digit code we sent to/)
  const verify = dialog.getByRole("heading", { name: "Verify this device" })
  await code.or(verify).waitFor({ timeout: 20_000 })
  if (await verify.isVisible()) {
    const linkMail = await waitForMail(mail, email, since, (m) => m.subject.startsWith("Verify your device"))
    const link = /https?:\/\/\S+\/api\/device\/verify\S*/.exec(linkMail.text)?.[0] ?? ""
    since = Date.now()
    const tab = await page.context().newPage()
    await tab.goto(link)
    await tab.getByText("Your device is verified").waitFor()
    await tab.close()
    await code.waitFor({ timeout: 20_000 })
  }
  return (await waitForMail(mail, email, since, (m) => m.codes.length > 0)).codes[0]!
}

/** Types the code in the code view (six digits submit it). */
export const typeLoginCode = (page: Page, code: string) => page.getByRole("dialog").getByRole("textbox", { name: /code/i }).fill(code)

/**
 * Logs `email` in from the demo's Connect button with the code the mail sink received (each wait bounded), then the
 * modal closed (unless `staysOpen`: sign-in's view, or Recover on a new device, follows the login).
 */
export const emailLogin = async (page: Page, mail: Pick<MailInfo, "messages">, email: string, staysOpen = false): Promise<void> => {
  await typeLoginCode(page, await requestLoginCode(page, mail, email))
  if (!staysOpen) await page.getByRole("dialog").waitFor({ state: "hidden", timeout: 20_000 })
}
