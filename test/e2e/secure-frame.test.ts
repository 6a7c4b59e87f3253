/**
 * The embedded wallet's secure views in the demo (issue 30, items 2 and 4), on the local stack: from the Account view
 * of an email wallet, "Export private key" opens a view the frame shows itself, on its own origin. The frame already in
 * the page (never moved: that would reload it) is shown exactly over the room the modal holds for it, above the modal
 * (z-index 999999), and takes focus; Escape inside the frame, the modal's Back and Close each hide it again and give
 * focus back to the modal, and the frame drops its view. axe finds nothing in the modal nor in the frame, in light
 * and dark, and at 390 px (the page narrowed while the view shows), where the frame still covers the room exactly and
 * nothing is wider than the page; a control reached by the keyboard shows a focus ring at 3:1 or more on the modal's
 * background in either theme. Export asks for one code, mailed for it, for both of the wallet's keys (read from the
 * devstack's mail sink; a wrong one says the tries left); the EVM key shown derives the connected address, the Solana
 * keypair's halves agree, and no message the host page receives carries either. Exported again at once, the code that showed the key was used: the view says so with the mail's wait and
 * offers no code field until a new code is mailed (the server's clock and the frame's moved past the 30 s).
 */
import { ed25519 } from "@noble/curves/ed25519"
import { privateKeyToAccount } from "viem/accounts"
import type { Frame, Page } from "playwright-core"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { FRAME_Z_INDEX } from "../../src/domain/constants"
import { fromBase58, toBase58 } from "../../src/domain/encoding"
import { SECURE_FRAME_ATTRIBUTE } from "../../src/services/FrameBridge/revealFrame"
import { animationsSettled } from "./support/browser"
import { type OpenDemo, openDemo } from "./support/demo"
import { accountButton, axeViolations, connectedAddress, emailLogin, focusRingContrast } from "./support/embeddedLogin"
import { frameViolations } from "./support/secureViews"

let session: OpenDemo
let page: Page
let address = ""
// The wallet server's clock: moved past the mail's 30 s between codes instead of waiting.
let clock: TestClock.TestClock
const moveServerClock = (ms: number) => Effect.runPromise(clock.adjust(ms))

const dialog = () => page.getByRole("dialog")
const shownFrame = () => page.locator(`iframe[${SECURE_FRAME_ATTRIBUTE}]`)
const walletFrame = (): Frame => {
  const frameUrl = session.stack.config.embedded?.frameUrl ?? ""
  const frame = page.frames().find((f) => f.url().startsWith(`${frameUrl}/frame?`))
  if (frame === undefined) throw new Error("the embedded wallet's frame is not in the page")
  return frame
}

/** The iframe's box and the room's, once the modal's animations are over (each wait bounded). */
const boxes = async () => {
  await animationsSettled(page)
  const frame = await shownFrame().boundingBox({ timeout: 10_000 })
  const room = await dialog().getByTestId("secure-frame-place").boundingBox({ timeout: 10_000 })
  return { frame, room }
}

const expectFrameOverRoom = async () => {
  await expect
    .poll(async () => {
      const { frame, room } = await boxes()
      if (frame === null || room === null) return "no box"
      const off = Math.max(Math.abs(frame.x - room.x), Math.abs(frame.y - room.y), Math.abs(frame.width - room.width), Math.abs(frame.height - room.height))
      return off <= 1 ? "over the room" : `off by ${off}px`
    }, { timeout: 10_000 })
    .toBe("over the room")
}

/** Whether the frame's view fits the room it is shown over: nothing in it scrolls, nothing is cut off. */
const fitsRoom = () => walletFrame().evaluate(() => document.documentElement.scrollHeight <= document.documentElement.clientHeight)

/** Whether the view's alert line is right under the field of `inputId`. */
const problemUnder = (inputId: string) =>
  walletFrame().evaluate((id) => document.getElementById("wr-secure-error")?.previousElementSibling?.contains(document.getElementById(id)) === true, inputId)

/** Opens the Account view; waits until it offers the export. */
const openAccount = async () => {
  await accountButton(page, address).click()
  await dialog().getByRole("button", { name: "Export private key" }).waitFor({ timeout: 15_000 })
}

/** Opens the Account view, then the frame's export view; waits until the frame shows it. */
const openExport = async () => {
  await openAccount()
  await dialog().getByRole("button", { name: "Export private key" }).click()
  await shownFrame().waitFor({ state: "visible", timeout: 15_000 })
  await walletFrame().getByRole("heading", { name: "Export private key" }).waitFor({ timeout: 15_000 })
}

const expectHiddenAndFocusInModal = async () => {
  await shownFrame().waitFor({ state: "detached", timeout: 10_000 })
  await expect.poll(() => page.evaluate(() => document.activeElement?.closest("[role=dialog]") !== null), { timeout: 10_000 }).toBe(true)
  // The frame is back to hidden and dropped its view.
  const hidden = await page.evaluate((frameUrl) => {
    const iframe = [...document.querySelectorAll("iframe")].find((f) => f.src.startsWith(frameUrl))
    return iframe === undefined ? undefined : { visibility: iframe.style.visibility, width: iframe.style.width, ariaHidden: iframe.getAttribute("aria-hidden"), tabIndex: iframe.tabIndex }
  }, session.stack.config.embedded?.frameUrl ?? "")
  expect(hidden).toEqual({ visibility: "hidden", width: "0px", ariaHidden: "true", tabIndex: -1 })
  await expect.poll(() => walletFrame().getByRole("heading", { name: "Export private key" }).count(), { timeout: 10_000 }).toBe(0)
}

beforeAll(async () => {
  clock = await Effect.runPromise(Effect.scoped(TestClock.make({ warningDelay: "1 day" })))
  session = await openDemo({ name: "secure-frame", parts: ["evm", "mail", "services", "embedded"], stack: { embeddedClock: clock } })
  page = session.browser.page
  await page.goto(session.url)
  const mail = session.stack.mail
  if (mail === undefined) throw new Error("the stack has no mail part")
  await emailLogin(page, mail, "grace@example.com")
  address = await connectedAddress(page)
}, 180_000)

afterAll(() => session?.stop())

describe("the frame's secure views over the modal", () => {
  it("Export private key shows the frame exactly over the modal's room, above it, with focus inside; the key's warning is read there", async () => {
    await openExport()
    await expectFrameOverRoom()
    const shown = await shownFrame().evaluate((iframe) => ({
      zIndex: getComputedStyle(iframe).zIndex,
      inert: iframe.hasAttribute("inert"),
      ariaHidden: iframe.getAttribute("aria-hidden"),
      allow: iframe.getAttribute("allow"),
      focused: document.activeElement === iframe
    }))
    expect(shown).toEqual({
      zIndex: String(FRAME_Z_INDEX),
      inert: false,
      ariaHidden: null,
      allow: "publickey-credentials-get; publickey-credentials-create",
      focused: true
    })
    // Inside the frame: the view's heading has focus (no field on this view), and its warning is there.
    expect(await walletFrame().evaluate(() => document.activeElement?.textContent)).toBe("Export private key")
    await walletFrame().getByText(/Anyone who has these keys controls your wallet/).waitFor()
    // Nothing of the frame's view is in the host page.
    expect(await page.getByText(/Anyone who has these keys controls your wallet/).count()).toBe(0)
  }, 60_000)

  it("Escape inside the frame ends its view: the frame is hidden, focus is back in the modal, on the Account view", async () => {
    await page.keyboard.press("Escape")
    await expectHiddenAndFocusInModal()
    await dialog().getByRole("button", { name: "Export private key" }).waitFor({ timeout: 10_000 })
    await page.keyboard.press("Escape")
    await dialog().waitFor({ state: "hidden", timeout: 10_000 })
  }, 60_000)

  it("the modal's Back and Close hide the frame and end its view", async () => {
    await openExport()
    await dialog().getByRole("button", { name: "Back" }).click()
    await expectHiddenAndFocusInModal()
    await dialog().getByRole("button", { name: "Export private key" }).click()
    await shownFrame().waitFor({ state: "visible", timeout: 15_000 })
    await dialog().getByRole("button", { name: "Close" }).click()
    await dialog().waitFor({ state: "hidden", timeout: 10_000 })
    await shownFrame().waitFor({ state: "detached", timeout: 10_000 })
  }, 60_000)

  it("an email user sees both keys after entering the one code mailed for them: the EVM key derives the connected address, and no message the host page receives carries either", async () => {
    const mail = session.stack.mail
    if (mail === undefined) throw new Error("the stack has no mail part")
    // Every message the host page receives from here on, as it received it.
    await page.evaluate(() => {
      const received: Array<string> = []
      Object.assign(window, { hostReceived: received })
      window.addEventListener("message", (event) => received.push(JSON.stringify(event.data)))
    })
    await openExport()
    const sent = Date.now()
    await walletFrame().getByRole("button", { name: "Show EVM and Solana private keys" }).click()
    const codeField = walletFrame().getByRole("textbox", { name: "Code from your email" })
    await codeField.waitFor({ timeout: 15_000 })
    expect(await walletFrame().evaluate(() => document.activeElement?.getAttribute("autocomplete"))).toBe("one-time-code")
    expect(await walletFrame().getByRole("button", { name: /^Send a new code in \d+ s$/ }).isDisabled()).toBe(true)
    expect(await frameViolations(page)).toEqual([])
    const mailedCode = () => mail.messages("grace@example.com").find((m) => m.receivedAt >= sent && m.text.includes("private key"))?.codes[0]
    await expect.poll(mailedCode, { timeout: 15_000 }).toMatch(/^\d{6}$/)
    const code = mailedCode() ?? ""
    await codeField.fill(code === "000000" ? "111111" : "000000")
    await codeField.press("Enter")
    await walletFrame().getByText("The code is not right: 4 tries left").waitFor({ timeout: 10_000 })
    await codeField.fill(code)
    await codeField.press("Enter")
    // One code showed both keys.
    const keyField = walletFrame().getByRole("textbox", { name: "Your EVM private key" })
    const solanaField = walletFrame().getByRole("textbox", { name: "Your Solana private key" })
    await solanaField.waitFor({ timeout: 15_000 })
    const key = await keyField.inputValue()
    const solanaKey = await solanaField.inputValue()
    expect(mail.messages("grace@example.com").filter((m) => m.receivedAt >= sent && m.text.includes("private key"))).toHaveLength(1)
    // Each key in its compact block, its Copy beside its name: the view still fits the room.
    await walletFrame().getByRole("button", { name: "Copy your EVM private key" }).waitFor()
    await walletFrame().getByRole("button", { name: "Copy your Solana private key" }).waitFor()
    expect(await fitsRoom()).toBe(true)
    expect(await frameViolations(page)).toEqual([])
    // On a phone's 390 px too: the two keys fit the room, nothing wider than the page.
    await page.setViewportSize({ width: 390, height: 844 })
    await expectFrameOverRoom()
    expect(await fitsRoom()).toBe(true)
    expect(await walletFrame().evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true)
    await page.setViewportSize({ width: 1280, height: 800 })
    expect(privateKeyToAccount(key as `0x${string}`).address.toLowerCase()).toBe(address.toLowerCase())
    // Solana's keypair (seed, then public key): the public half is the seed's.
    const keypair = fromBase58(solanaKey) ?? new Uint8Array()
    expect(keypair).toHaveLength(64)
    expect(toBase58(ed25519.getPublicKey(keypair.slice(0, 32)))).toBe(toBase58(keypair.slice(32)))
    await page.keyboard.press("Escape")
    await expectHiddenAndFocusInModal()
    const received = await page.evaluate(() => (window as unknown as { readonly hostReceived: ReadonlyArray<string> }).hostReceived)
    // The view's end reached the host (so messages were recorded), and none carried a key (EVM's with or without its 0x).
    expect(received.some((message) => message.includes("CLOSE_SECURE_VIEW") || message.includes("OPEN_SECURE_VIEW"))).toBe(true)
    expect(received.filter((message) => message.toLowerCase().includes(key.slice(2).toLowerCase()) || message.includes(solanaKey))).toEqual([])
    await page.keyboard.press("Escape")
    await dialog().waitFor({ state: "hidden", timeout: 10_000 })
  }, 120_000)

  it("axe finds nothing in the Account view, the modal nor the frame's view, in light and dark, and at 390 px the frame still covers the room", async () => {
    for (const theme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: theme })
      // The Account view of an email wallet only its device protects: its link-looking buttons (Update email, Protect
      // your wallet, Export private key, Choose a name) and the explorer's link read on either theme's surfaces, in the
      // accent's hue rather than the text's.
      await openAccount()
      const protect = dialog().getByRole("button", { name: "Protect your wallet" })
      await protect.waitFor({ timeout: 15_000 })
      await dialog().getByRole("button", { name: "Choose a name" }).waitFor({ timeout: 15_000 })
      expect(await axeViolations(page)).toEqual([])
      expect(await protect.evaluate((button) => getComputedStyle(button).color)).not.toBe(await dialog().evaluate((modal) => getComputedStyle(modal).color))
      // A control reached by the keyboard: its focus ring reads at 3:1 or more on the modal's background (the plain
      // default accent was 2.9:1 on the dark one).
      await protect.focus()
      await page.keyboard.press("Tab")
      const contrast = await focusRingContrast(page)
      expect(typeof contrast === "number" && contrast >= 3 ? "3:1 or more" : contrast).toBe("3:1 or more")
      await dialog().getByRole("button", { name: "Export private key" }).click()
      await shownFrame().waitFor({ state: "visible", timeout: 15_000 })
      await walletFrame().getByRole("heading", { name: "Export private key" }).waitFor({ timeout: 15_000 })
      await expectFrameOverRoom()
      // The frame's view in the modal's theme (the demo's follows the system's).
      expect(await walletFrame().evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe(theme === "dark" ? "rgb(20, 21, 25)" : "rgb(255, 255, 255)")
      expect(await axeViolations(page)).toEqual([])
      expect(await frameViolations(page)).toEqual([])
      await page.keyboard.press("Escape")
      await expectHiddenAndFocusInModal()
      await page.keyboard.press("Escape")
      await dialog().waitFor({ state: "hidden", timeout: 10_000 })
    }
    await page.emulateMedia({ colorScheme: "light" })
    // Narrowed to a phone's 390 px while the view shows: the frame follows the room.
    await openExport()
    await page.setViewportSize({ width: 390, height: 844 })
    await expectFrameOverRoom()
    expect(await frameViolations(page)).toEqual([])
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
    expect(await walletFrame().evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true)
    await page.keyboard.press("Escape")
    await expectHiddenAndFocusInModal()
  }, 120_000)

  it("Protect and Export fit the modal's room without scrolling on a desktop and at 390 px, each problem under the field it concerns", async () => {
    for (const size of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
      await page.keyboard.press("Escape")
      await dialog().waitFor({ state: "hidden", timeout: 10_000 })
      // The header's account button is named by the address at desktop width: opened there, then the page sized.
      await page.setViewportSize({ width: 1280, height: 800 })
      await openAccount()
      await page.setViewportSize(size)
      await dialog().getByRole("button", { name: "Protect your wallet" }).click()
      await walletFrame().getByRole("heading", { name: "Protect your wallet" }).waitFor({ timeout: 15_000 })
      await expectFrameOverRoom()
      expect(await fitsRoom()).toBe(true)
      const password = walletFrame().getByLabel("New password")
      await password.fill("short")
      await walletFrame().getByRole("button", { name: "Protect wallet" }).click()
      await walletFrame().getByText("Use at least 10 characters.").waitFor({ timeout: 10_000 })
      expect(await problemUnder("wr-secure-password")).toBe(true)
      await password.fill("a long enough password")
      await walletFrame().getByLabel("Confirm the password").fill("another long password")
      await walletFrame().getByRole("button", { name: "Protect wallet" }).click()
      await walletFrame().getByText("The two passwords are not the same.").waitFor({ timeout: 10_000 })
      expect(await problemUnder("wr-secure-confirm")).toBe(true)
      expect(await fitsRoom()).toBe(true)
      expect(await frameViolations(page)).toEqual([])
      // Cancelled: nothing protected, the Account view again.
      await walletFrame().getByRole("button", { name: "Cancel" }).click()
      await shownFrame().waitFor({ state: "detached", timeout: 10_000 })
      // Export's code step (the key test used its code: the server's clock moves past the mail's 30 s, so a new one is
      // mailed): a code left empty is said under its field.
      await moveServerClock(31_000)
      await dialog().getByRole("button", { name: "Export private key" }).click()
      await walletFrame().getByRole("heading", { name: "Export private key" }).waitFor({ timeout: 15_000 })
      await walletFrame().getByRole("button", { name: "Show EVM and Solana private keys" }).click()
      const codeField = walletFrame().getByRole("textbox", { name: "Code from your email" })
      await codeField.waitFor({ timeout: 15_000 })
      await walletFrame().getByRole("button", { name: "Confirm" }).click()
      await walletFrame().getByText("Enter the code from your email.").waitFor({ timeout: 10_000 })
      expect(await problemUnder("wr-secure-code")).toBe(true)
      await expectFrameOverRoom()
      expect(await fitsRoom()).toBe(true)
      expect(await frameViolations(page)).toEqual([])
      await page.keyboard.press("Escape")
      await expectHiddenAndFocusInModal()
    }
    await page.setViewportSize({ width: 1280, height: 800 })
  }, 120_000)

  it("exported again at once: the code that showed the key was used, so the view says so with the wait and offers no code field; once the wait is over a new code shows the key again", async () => {
    const mail = session.stack.mail
    if (mail === undefined) throw new Error("the stack has no mail part")
    await page.keyboard.press("Escape")
    await dialog().waitFor({ state: "hidden", timeout: 10_000 })
    // The code mailed in the test before holds the mail's 30 s: the server's clock moves past it.
    await moveServerClock(31_000)
    // The view counts the wait down on the frame's timers: the browser's clock, moved below as the server's is.
    await page.clock.install()
    const codeField = walletFrame().getByRole("textbox", { name: "Code from your email" })
    const mailedAfter = (sent: number) => () =>
      mail.messages("grace@example.com").find((m) => m.receivedAt >= sent && m.text.includes("private key"))?.codes[0]
    /** Enters the code mailed since `sent`; answers the key shown. */
    const enterCode = async (sent: number) => {
      await codeField.waitFor({ timeout: 15_000 })
      await expect.poll(mailedAfter(sent), { timeout: 15_000 }).toMatch(/^\d{6}$/)
      await codeField.fill(mailedAfter(sent)() ?? "")
      await codeField.press("Enter")
      const keyField = walletFrame().getByRole("textbox", { name: "Your EVM private key" })
      await keyField.waitFor({ timeout: 15_000 })
      return keyField.inputValue()
    }

    await openExport()
    const firstSent = Date.now()
    await walletFrame().getByRole("button", { name: "Show EVM and Solana private keys" }).click()
    const key = await enterCode(firstSent)
    expect(privateKeyToAccount(key as `0x${string}`).address.toLowerCase()).toBe(address.toLowerCase())
    await page.keyboard.press("Escape")
    await expectHiddenAndFocusInModal()
    await page.keyboard.press("Escape")
    await dialog().waitFor({ state: "hidden", timeout: 10_000 })

    // Again at once: no mail goes, the view says why and when, and offers no field that cannot work.
    await openExport()
    const againSent = Date.now()
    await walletFrame().getByRole("button", { name: "Show EVM and Solana private keys" }).click()
    await walletFrame().getByText("The code we sent to grace@example.com a moment ago was used already.", { exact: false }).waitFor({ timeout: 15_000 })
    expect(await codeField.count()).toBe(0)
    expect(await walletFrame().getByRole("button", { name: "Confirm" }).count()).toBe(0)
    const resend = walletFrame().getByRole("button", { name: /^Send a new code/ })
    expect(await resend.textContent()).toMatch(/^Send a new code in \d+ s$/)
    expect(await resend.isDisabled()).toBe(true)
    expect(await fitsRoom()).toBe(true)
    expect(await frameViolations(page)).toEqual([])
    expect(mailedAfter(againSent)()).toBeUndefined()

    // The 30 s over, on the server's clock and the frame's: a new code is mailed on request and shows the key again.
    await moveServerClock(30_000)
    await page.clock.runFor(30_000)
    await expect.poll(() => resend.textContent(), { timeout: 10_000 }).toBe("Send a new code")
    await resend.click()
    await codeField.waitFor({ timeout: 15_000 })
    expect(await walletFrame().evaluate(() => document.activeElement?.getAttribute("autocomplete"))).toBe("one-time-code")
    expect(await enterCode(againSent)).toBe(key)
    await page.keyboard.press("Escape")
    await expectHiddenAndFocusInModal()
  }, 120_000)
})
