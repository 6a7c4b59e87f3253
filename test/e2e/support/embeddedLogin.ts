/**
 * What the browser tests of the embedded wallet's logins (social providers, Farcaster, email) read off the demo page:
 * the connected address from the demo's "From 0x… on" line, the header's account button, and axe's findings in the
 * modal; and an email login through the mail sink.
 */
import { setTimeout as delay } from "node:timers/promises"
import AxeBuilder from "@axe-core/playwright"
import type { Page } from "playwright-core"
import type { MailInfo } from "../../../devstack/mail/index"
import { truncateAddress } from "../../../src/domain/format"

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
  const result = await new AxeBuilder({ page }).include("[role=dialog]").analyze()
  return result.violations.map((v) => `${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(" ")).join("; ")}`)
}

/**
 * Logs `email` in from the demo's Connect button with the code the mail sink received (each wait bounded), then the
 * modal closed (unless `staysOpen`: sign-in's view follows the login).
 */
export const emailLogin = async (page: Page, mail: Pick<MailInfo, "messages">, email: string, staysOpen = false): Promise<void> => {
  const dialog = page.getByRole("dialog")
  await page.getByRole("button", { name: "Connect wallet" }).click()
  const field = dialog.getByRole("textbox", { name: "Continue with email" })
  const sent = Date.now()
  await field.fill(email)
  await field.press("Enter")
  await dialog.getByText(/Enter the 6-digit code we sent to/).waitFor()
  // Polled here rather than with vitest's expect.poll: the bench logs in outside vitest too.
  const deadline = Date.now() + 15_000
  let code: string | undefined
  while ((code = mail.messages(email).find((m) => m.receivedAt >= sent && m.codes.length > 0)?.codes[0]) === undefined) {
    if (Date.now() > deadline) throw new Error(`No login code was mailed to ${email} within 15 s`)
    await delay(100)
  }
  await dialog.getByRole("textbox", { name: /code/i }).fill(code)
  if (!staysOpen) await dialog.waitFor({ state: "hidden", timeout: 20_000 })
}
