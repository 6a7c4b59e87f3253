/**
 * Text on the host's accent reads whatever the accent (the demo's `?accent=`, a host's `themeVariables["--wr-accent"]`),
 * in Chromium on the local stack: the page's Connect wallet button and the Connect view's Continue (email), both
 * filled with the accent as given, carry black or white text (no grey between), whichever reads on it (4.5:1 or more),
 * in light and dark, at 1280 and 390 px; axe finds nothing in the modal. A pale yellow and a mint got white text before
 * (1.3:1 each); the default accent keeps white, as does a deep blue. Hovered, each fill changes and its text reads at
 * least as well as at rest (4.5:1 or more): the fill moves away from the text's colour (hover dimmed the whole button
 * before, text and all); deep and pale accents (black, white, a pale yellow), where that step barely showed or not at
 * all, step towards their text.
 */
import type { Locator, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { contrast, fillAndText, luminance, painted, type Rgb } from "./support/colours"
import { type OpenDemo, openDemo } from "./support/demo"
import { axeViolations } from "./support/embeddedLogin"

let session: OpenDemo
let page: Page

const WHITE: Rgb = [255, 255, 255]
const BLACK: Rgb = [0, 0, 0]
const dialog = () => page.getByRole("dialog")
const connectWallet = () => page.getByRole("button", { name: "Connect wallet" })

/**
 * The fill and text of `control` once the pointer is on it, its hover's transition over; the pointer is then moved
 * off it, to a corner of the page.
 */
const hovered = async (control: Locator): Promise<{ readonly fill: Rgb; readonly text: Rgb }> => {
  await control.hover()
  await control.evaluate((element) => Promise.allSettled(element.getAnimations().map((animation) => animation.finished)))
  const colours = await fillAndText(control)
  await page.mouse.move(0, 0)
  return colours
}

beforeAll(async () => {
  session = await openDemo({ name: "accent-text", parts: ["evm", "mail", "services", "embedded"] })
  page = session.browser.page
}, 180_000)

afterAll(() => session?.stop())

describe("text on the host's accent", () => {
  // undefined: the theme's own accent, no `?accent=`. Each with the text that reads better on it.
  for (const [accent, onAccent] of [[undefined, WHITE], ["#ffe066", BLACK], ["#a0f0c0", BLACK], ["#0a58ca", WHITE], ["#000000", WHITE], ["#ffffff", BLACK]] as const) {
    it(`${accent ?? "the default accent"}: the filled controls' text is ${onAccent === WHITE ? "white" : "black"}, 4.5:1 or more on it, at rest and hovered, in light and dark, at 1280 and 390 px; axe finds nothing`, async () => {
      await page.goto(accent === undefined ? session.url : `${session.url}?accent=${encodeURIComponent(accent)}`)
      const [given] = accent === undefined ? [undefined] : await painted(page, [accent])
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: 844 })
        for (const theme of ["light", "dark"] as const) {
          await page.emulateMedia({ colorScheme: theme })
          const onPage = await fillAndText(connectWallet())
          const onPageHovered = await hovered(connectWallet())
          await connectWallet().click()
          const continueButton = dialog().getByRole("button", { name: "Continue", exact: true })
          const inModal = await fillAndText(continueButton)
          const inModalHovered = await hovered(continueButton)
          for (const [name, control, hover] of [["Connect wallet", onPage, onPageHovered], ["Continue", inModal, inModalHovered]] as const) {
            const where = `${name}, ${theme}, ${width} px`
            if (given !== undefined) expect(control.fill, where).toEqual(given)
            expect(control.text, where).toEqual(onAccent)
            expect(contrast(control.text, control.fill), where).toBeGreaterThanOrEqual(4.5)
            // Hovered: the fill visibly changes (by a fifth or more in luminance), away from the text, so the text
            // reads as well or better; deep and pale fills (black, white, the yellow and the mint), where that would
            // barely show, step towards their text, which still reads at 5:1 or more.
            expect(hover.text, `${where}, hovered`).toEqual(onAccent)
            expect(contrast(hover.fill, control.fill), `${where}, hovered fill against the fill at rest`).toBeGreaterThanOrEqual(1.2)
            const mid = luminance(control.fill) > 0.06 && luminance(control.fill) < 0.3
            expect(contrast(hover.text, hover.fill), `${where}, hovered`).toBeGreaterThanOrEqual(mid ? Math.max(4.5, contrast(control.text, control.fill)) : 5)
          }
          expect(await axeViolations(page)).toEqual([])
          await page.keyboard.press("Escape")
          await dialog().waitFor({ state: "hidden", timeout: 10_000 })
        }
      }
      await page.setViewportSize({ width: 1280, height: 800 })
      await page.emulateMedia({ colorScheme: "light" })
    })
  }
})
