/**
 * The embedded wallet's own views in the demo (the frame shown over the modal, on its origin): waiting for one by its
 * heading, for its end, and protecting the wallet from the Account view. Without vitest's expect: the bench uses them.
 */
import AxeBuilder from "@axe-core/playwright"
import type { Frame, Page } from "playwright-core"
import { SECURE_FRAME_ATTRIBUTE } from "../../../src/services/FrameBridge/revealFrame"
import { accountButton } from "./embeddedLogin"

const shownFrame = (page: Page) => page.locator(`iframe[${SECURE_FRAME_ATTRIBUTE}]`)

/** The wallet's frame (served from `frameUrl`) once it shows its own view under `heading` over the modal (bounded). */
export const secureView = async (page: Page, frameUrl: string, heading: string): Promise<Frame> => {
  await shownFrame(page).waitFor({ state: "visible", timeout: 20_000 })
  const frame = page.frames().find((f) => f.url().startsWith(`${frameUrl}/frame?`))
  if (frame === undefined) throw new Error("the embedded wallet's frame is not in the page")
  await frame.getByRole("heading", { name: heading }).waitFor({ timeout: 20_000 })
  return frame
}

/** The frame's view ended: the frame is hidden again (scrypt runs about a second per account under load, hence 60 s). */
export const secureViewEnded = (page: Page) => shownFrame(page).waitFor({ state: "detached", timeout: 60_000 })

/**
 * From the Account view of `address`: Protect your wallet, with `how` done in the frame's view (typing a password,
 * using a passkey); then the Account view back without the offer, and the modal closed.
 */
export const protectWallet = async (page: Page, frameUrl: string, address: string, how: (frame: Frame) => Promise<void>): Promise<void> => {
  const dialog = page.getByRole("dialog")
  await accountButton(page, address).click()
  await dialog.getByRole("button", { name: "Protect your wallet" }).click()
  await how(await secureView(page, frameUrl, "Protect your wallet"))
  await secureViewEnded(page)
  await dialog.getByRole("button", { name: "Export private key" }).waitFor({ timeout: 10_000 })
  if ((await dialog.getByRole("button", { name: "Protect your wallet" }).count()) > 0) throw new Error("Protect your wallet is still offered after protecting")
  await page.keyboard.press("Escape")
  await dialog.waitFor({ state: "hidden", timeout: 10_000 })
}

/** The password form of Protect your wallet, filled with `password` and sent. */
export const protectWithPassword = (password: string) => async (frame: Frame): Promise<void> => {
  await frame.getByLabel("New password").fill(password)
  await frame.getByLabel("Confirm the password").fill(password)
  await frame.getByRole("button", { name: "Protect wallet" }).click()
}

/** The password form of Recover your wallet, filled with `password` and sent. */
export const recoverWithPassword = (password: string) => async (frame: Frame): Promise<void> => {
  await frame.getByLabel("Password").fill(password)
  await frame.getByRole("button", { name: "Recover wallet" }).click()
}

/** axe's findings in the frame's own document (its origin, its view) while it shows over the modal in `page`. */
export const frameViolations = async (page: Page): Promise<Array<string>> => {
  const result = await new AxeBuilder({ page }).include(`iframe[${SECURE_FRAME_ATTRIBUTE}]`).analyze()
  return result.violations.map((v) => `${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(" ")).join("; ")}`)
}
