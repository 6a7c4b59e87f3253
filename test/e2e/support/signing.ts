/**
 * Signing from the demo with the embedded wallet, in browser tests: asking for a signature (its ApproveTransaction
 * view), approving it, and checking the signature the demo shows against the address.
 */
import type { Page } from "playwright-core"
import { verifyMessage } from "viem"
import { expect } from "vitest"

/** Asks the wallet to sign `message` from the demo; the ApproveTransaction view it opens. */
export const askSignature = async (page: Page, message: string) => {
  await page.getByRole("textbox", { name: "Message" }).fill(message)
  await page.getByRole("button", { name: "Sign message" }).click()
  const dialog = page.getByRole("dialog")
  await dialog.getByRole("heading", { name: "Sign this message" }).waitFor({ timeout: 20_000 })
  return dialog
}

/** The signature the demo shows, checked against `address`. */
export const expectSignedBy = async (page: Page, address: string, message: string) => {
  await expect.poll(() => page.getByTestId("signature").textContent(), { timeout: 30_000 }).toMatch(/^0x[0-9a-f]+$/)
  const signature = (await page.getByTestId("signature").textContent()) as `0x${string}`
  expect(await verifyMessage({ address: address as `0x${string}`, message, signature })).toBe(true)
}

/** Signs `message` on `page` (approved at once) and checks the signature against `address`. */
export const sign = async (page: Page, address: string, message: string) => {
  const dialog = await askSignature(page, message)
  await dialog.getByRole("button", { name: "Approve" }).click()
  await expectSignedBy(page, address, message)
}
