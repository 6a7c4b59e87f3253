/**
 * The embedded wallet's secure views take the host's accent (the demo's `?accent=`, the host's
 * `themeVariables["--wr-accent"]`, sent to the frame with SYNC_THEME), on the local stack: in Protect your wallet, the
 * filled button is the accent as given with its text black or white, whichever reads (4.5:1 or more), and the focus
 * ring is the accent made readable on the view's background in the accent's hue (4.5:1 or more, so above the 3:1 a
 * ring needs), in light and dark, for a deep pink and a pale yellow; axe finds nothing in the frame's view, at 390 px
 * too. The frame trusts nothing the host sends: a value its own check does not take for a colour (`notacolour`, which
 * the theme's grammar lets through) leaves the frame's own accent, and values that could end a declaration or run
 * something (`red;background:url(x)`, `expression(…)`) are dropped with their message. A theme the host changes while
 * the Export view shows (dark, another accent) applies to that view at once, under the same check.
 */
import type { Frame, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { contrast, linearHue, painted } from "./support/colours"
import { type OpenDemo, openDemo } from "./support/demo"
import { accountButton, connectedAddress, emailLogin } from "./support/embeddedLogin"
import { frameViolations, secureView, secureViewEnded } from "./support/secureViews"

let session: OpenDemo
let page: Page
let address = ""

const frameUrl = () => session.stack.config.embedded?.frameUrl ?? ""
const dialog = () => page.getByRole("dialog")

/** The demo with the host's accent `accent`, the email wallet logged in (the first time) or restored. */
const openWithAccent = async (accent: string) => {
  await page.goto(`${session.url}?accent=${encodeURIComponent(accent)}`)
  address = await connectedAddress(page)
}

/** Protect your wallet, opened from the Account view as a visitor does; the frame showing it. */
const openProtect = async (): Promise<Frame> => {
  await accountButton(page, address).click()
  await dialog().getByRole("button", { name: "Protect your wallet" }).click()
  return secureView(page, frameUrl(), "Protect your wallet")
}

/** Export private key, opened from the Account view; the frame showing it. */
const openExport = async (): Promise<Frame> => {
  await accountButton(page, address).click()
  await dialog().getByRole("button", { name: "Export private key" }).click()
  return secureView(page, frameUrl(), "Export private key")
}

/** Ends the frame's view shown now (Escape), then closes the modal. */
const closeView = async () => {
  await page.keyboard.press("Escape")
  await secureViewEnded(page)
  await page.keyboard.press("Escape")
  await dialog().waitFor({ state: "hidden", timeout: 10_000 })
}

/**
 * SYNC_THEME sent to the frame from the host page with `payload`: what the host's bridge sends when its theme changes,
 * or what a hostile or broken host could send.
 */
const syncTheme = (payload: { readonly themeMode?: "light" | "dark"; readonly themeVariables: Record<string, string> }) =>
  page.evaluate(
    ({ frameUrl, payload }) => {
      const frame = [...document.querySelectorAll("iframe")].find((f) => f.src.startsWith(`${frameUrl}/frame?`))
      if (frame === undefined || frame.contentWindow === null) throw new Error("the embedded wallet's frame is not in the page")
      const message = { id: `sync-${crypto.randomUUID()}`, type: "@wr-app/SYNC_THEME", payload }
      frame.contentWindow.postMessage(message, new URL(frameUrl).origin)
    },
    { frameUrl: frameUrl(), payload }
  )

/** What the view paints: its filled button and the button's text, the focused field's ring, and its background. */
const looks = async (frame: Frame) => {
  const computed = await frame.evaluate(() => {
    const primary = [...document.querySelectorAll("button")].find((button) => button.textContent === "Protect wallet")
    const focused = document.activeElement
    if (primary === undefined || !(focused instanceof HTMLInputElement)) throw new Error("no Protect wallet button, or no field focused")
    const ring = getComputedStyle(focused)
    return {
      colours: [getComputedStyle(primary).backgroundColor, getComputedStyle(primary).color, ring.outlineColor, getComputedStyle(document.body).backgroundColor],
      ring: `${ring.outlineStyle} ${ring.outlineWidth}`,
      backgroundImage: getComputedStyle(document.body).backgroundImage,
      hostAccent: document.documentElement.style.getPropertyValue("--host-accent")
    }
  })
  const [fill, onFill, ring, background] = await painted(frame, computed.colours)
  return { ...computed, fill: fill!, onFill: onFill!, ringColour: ring!, background: background! }
}

beforeAll(async () => {
  session = await openDemo({ name: "secure-frame-accent", parts: ["evm", "mail", "services", "embedded"] })
  page = session.browser.page
  const mail = session.stack.mail
  if (mail === undefined) throw new Error("the stack has no mail part")
  await page.goto(`${session.url}?accent=${encodeURIComponent("#e0005a")}`)
  await emailLogin(page, mail, "accent@example.com")
}, 180_000)

afterAll(() => session?.stop())

describe("the frame's secure views in the host's accent", () => {
  for (const accent of ["#e0005a", "#ffe066"]) {
    it(`${accent}: the filled button is the accent with readable text, the ring the accent made readable in its hue, in light and dark; axe finds nothing, at 390 px too`, async () => {
      await openWithAccent(accent)
      for (const theme of ["light", "dark"] as const) {
        await page.emulateMedia({ colorScheme: theme })
        const frame = await openProtect()
        const seen = await looks(frame)
        const [given] = await painted(frame, [accent])
        expect(seen.background).toEqual(theme === "dark" ? [20, 21, 25] : [255, 255, 255])
        expect(seen.hostAccent).toBe(accent)
        expect(seen.fill).toEqual(given)
        expect(contrast(seen.onFill, seen.fill)).toBeGreaterThanOrEqual(4.5)
        expect(seen.ring).toBe("solid 2px")
        expect(contrast(seen.ringColour, seen.background)).toBeGreaterThanOrEqual(4.5)
        expect(Math.abs(linearHue(seen.ringColour) - linearHue(given!))).toBeLessThan(3)
        expect(await frameViolations(page)).toEqual([])
        await closeView()
      }
      await page.emulateMedia({ colorScheme: "light" })
      await openProtect()
      await page.setViewportSize({ width: 390, height: 844 })
      await secureView(page, frameUrl(), "Protect your wallet")
      expect(await frameViolations(page)).toEqual([])
      await page.setViewportSize({ width: 1280, height: 800 })
      await closeView()
    }, 120_000)
  }

  it("a value the frame does not take for a colour leaves its own accent; one that could end a declaration or run something is dropped", async () => {
    await page.emulateMedia({ colorScheme: "light" })
    await openWithAccent("#e0005a")
    const syncAccent = (accent: string) => syncTheme({ themeVariables: { "--wr-accent": accent } })
    const ownAccent = async (frame: Frame) => {
      const seen = await looks(frame)
      expect(seen.hostAccent).toBe("")
      expect(seen.fill).toEqual((await painted(frame, ["#0a58ca"]))[0])
      expect(seen.backgroundImage).toBe("none")
    }
    // The host's own sync reached the frame first (it is sent again only when the host's theme changes).
    expect((await looks(await openProtect())).hostAccent).toBe("#e0005a")
    await closeView()
    // Of the theme's grammar (a word of letters), but no colour to the browser: the frame's own check refuses it.
    await syncAccent("notacolour")
    await ownAccent(await openProtect())
    await closeView()
    for (const hostile of ["red;background:url(x)", "expression(alert(1))"]) await syncAccent(hostile)
    await ownAccent(await openProtect())
    await closeView()
  }, 120_000)

  it("a theme the host changes while the Export view shows applies to it at once, mode and accent, checked as at its opening", async () => {
    await page.emulateMedia({ colorScheme: "light" })
    await openWithAccent("#e0005a")
    const frame = await openExport()
    // A control reached by the keyboard, so its ring shows.
    await page.keyboard.press("Tab")
    /** What the Export view paints now: its filled button (Done) and that button's text, the focused control's ring, the background. */
    const exportLooks = async () => {
      const computed = await frame.evaluate(() => {
        const done = [...document.querySelectorAll("button")].find((button) => button.textContent === "Done")
        const focused = document.activeElement
        if (done === undefined || !(focused instanceof HTMLButtonElement)) throw new Error("no Done button, or no button focused")
        return {
          colours: [getComputedStyle(done).backgroundColor, getComputedStyle(done).color, getComputedStyle(focused).outlineColor, getComputedStyle(document.body).backgroundColor],
          hostAccent: document.documentElement.style.getPropertyValue("--host-accent"),
          heading: document.querySelector("h1")?.textContent
        }
      })
      const [fill, onFill, ring, background] = await painted(frame, computed.colours)
      return { ...computed, fill: fill!, onFill: onFill!, ringColour: ring!, background: background! }
    }
    const hostAccentNow = () => frame.evaluate(() => document.documentElement.style.getPropertyValue("--host-accent"))
    const before = await exportLooks()
    expect(before.background).toEqual([255, 255, 255])
    expect(before.fill).toEqual((await painted(frame, ["#e0005a"]))[0])

    // The host goes dark with another accent while the view shows: the view follows without being opened again.
    await syncTheme({ themeMode: "dark", themeVariables: { "--wr-accent": "#ffe066" } })
    await expect.poll(hostAccentNow, { timeout: 10_000 }).toBe("#ffe066")
    const after = await exportLooks()
    const [given] = await painted(frame, ["#ffe066"])
    expect(after.heading).toBe("Export private key")
    expect(after.background).toEqual([20, 21, 25])
    expect(after.fill).toEqual(given)
    expect(contrast(after.onFill, after.fill)).toBeGreaterThanOrEqual(4.5)
    expect(contrast(after.ringColour, after.background)).toBeGreaterThanOrEqual(4.5)
    expect(Math.abs(linearHue(after.ringColour) - linearHue(given!))).toBeLessThan(3)
    expect(await frameViolations(page)).toEqual([])

    // Checked as at its opening: a value the frame does not take for a colour gives the showing view the frame's own
    // accent (its dark one here).
    await syncTheme({ themeMode: "dark", themeVariables: { "--wr-accent": "notacolour" } })
    await expect.poll(hostAccentNow, { timeout: 10_000 }).toBe("")
    const own = await exportLooks()
    expect(own.background).toEqual([20, 21, 25])
    expect(own.fill).toEqual((await painted(frame, ["#8ab4ff"]))[0])
    await closeView()
  }, 120_000)
})
