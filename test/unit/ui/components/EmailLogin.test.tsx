// @vitest-environment happy-dom
/**
 * The email login as the visitor sees it: "Continue with email" on the Connect view (only when the host offers it,
 * placed by the connect-method order, a malformed address refused before the service is asked), the code view (it
 * sends the code by itself at 6 digits, counts down to Resend, shows the service's failure with focus kept in the
 * field) and the device view (Wait again).
 */
import { fireEvent, screen, within } from "@testing-library/react"
import { describe, expect, it } from "vitest"
import { initialEmbeddedState } from "../../../../src/services/Embedded/EmbeddedWallet"
import { embeddedHostPerTest, embeddedState } from "./embeddedHost"
import { testWallet } from "./support"

const host = embeddedHostPerTest()

/** Whether `first` comes before `second` in the page. */
const before = (first: Element, second: Element) => (first.compareDocumentPosition(second) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0

describe("Connect: Continue with email", () => {
  it("is not there when the host offers no email login", async () => {
    const page = host([testWallet()], initialEmbeddedState(false))
    const dialog = await page.open({ view: "Connect" })
    await within(dialog).findByRole("button", { name: /Test Wallet/ })
    expect(within(dialog).queryByRole("textbox", { name: "Continue with email" })).toBeNull()
  })

  it("comes first without an installed wallet: a labelled email input with its button", async () => {
    const page = host([], embeddedState())
    const dialog = await page.open({ view: "Connect" })
    const input = await within(dialog).findByRole("textbox", { name: "Continue with email" })
    expect(input.getAttribute("type")).toBe("email")
    expect(input.getAttribute("autocomplete")).toBe("email")
    const form = within(dialog).getByRole("form", { name: "Continue with email" })
    expect(within(form).getByRole("button", { name: "Continue" }).getAttribute("type")).toBe("submit")
    expect(before(form, within(dialog).getByRole("list", { name: "Wallets" }))).toBe(true)
  })

  it("comes after the wallets when one is installed", async () => {
    const page = host([testWallet()], embeddedState())
    const dialog = await page.open({ view: "Connect" })
    const wallet = await within(dialog).findByRole("button", { name: /Test Wallet/ })
    expect(before(wallet, within(dialog).getByRole("form", { name: "Continue with email" }))).toBe(true)
  })

  it("follows the host's connectMethodsOrder over the installed wallet", async () => {
    const page = host([testWallet()], embeddedState(), { features: { connectMethodsOrder: ["email", "wallet"] } })
    const dialog = await page.open({ view: "Connect" })
    const wallet = await within(dialog).findByRole("button", { name: /Test Wallet/ })
    expect(before(within(dialog).getByRole("form", { name: "Continue with email" }), wallet)).toBe(true)
  })

  it("is the only way to the embedded wallet: its AUTH connector is no row of the list", async () => {
    const page = host([testWallet({ id: "embedded", name: "Email", type: "AUTH", rdns: undefined })], embeddedState())
    const dialog = await page.open({ view: "Connect" })
    await within(dialog).findByRole("textbox", { name: "Continue with email" })
    expect(within(within(dialog).getByRole("list", { name: "Wallets" })).queryByRole("button", { name: /Email/ })).toBeNull()
  })

  it("refuses user@example..com in words under the field and asks nothing", async () => {
    const page = host([], embeddedState())
    const dialog = await page.open({ view: "Connect" })
    const input = await within(dialog).findByRole("textbox", { name: "Continue with email" })
    fireEvent.change(input, { target: { value: "user@example..com" } })
    fireEvent.submit(within(dialog).getByRole("form", { name: "Continue with email" }))
    const words = await within(dialog).findByText("Enter a valid email address")
    expect(words.getAttribute("role")).toBe("status")
    expect(input.getAttribute("aria-invalid")).toBe("true")
    expect(input.getAttribute("aria-describedby")).toBe(words.id)
    expect(page.calls).toEqual([])
    // Typing again takes the complaint away.
    fireEvent.change(input, { target: { value: "user@example.com" } })
    expect(input.getAttribute("aria-invalid")).toBe("false")
    expect(within(dialog).queryByText("Enter a valid email address")).toBeNull()
  })

  it("hands a good address, trimmed, to the embedded wallet", async () => {
    const page = host([], embeddedState())
    const dialog = await page.open({ view: "Connect" })
    fireEvent.change(await within(dialog).findByRole("textbox", { name: "Continue with email" }), { target: { value: "  visitor@example.com " } })
    fireEvent.click(within(dialog).getByRole("button", { name: "Continue" }))
    await expect.poll(() => page.calls).toEqual([{ method: "submitEmail", argument: "visitor@example.com" }])
  })

  it("spins and cannot be pressed while the email is sent, and shows the service's failure under the field", async () => {
    const page = host([], embeddedState({ login: { _tag: "SendingEmail", email: "visitor@example.com" } }))
    const dialog = await page.open({ view: "Connect" })
    const input = await within(dialog).findByRole("textbox", { name: "Continue with email" })
    const button = within(dialog).getByRole("button", { name: "Continue" }) as HTMLButtonElement
    expect(button.disabled).toBe(true)
    expect(button.getAttribute("aria-busy")).toBe("true")
    fireEvent.change(input, { target: { value: "visitor@example.com" } })
    fireEvent.submit(within(dialog).getByRole("form", { name: "Continue with email" }))
    expect(page.calls).toEqual([])

    await page.setState((state) => ({ ...state, login: { _tag: "Idle" }, error: "Please try again after 23 seconds" }))
    const words = await within(dialog).findByText("Please try again after 23 seconds")
    expect(input.getAttribute("aria-describedby")).toBe(words.id)
    expect(button.disabled).toBe(false)
  })
})

const otpState = (over: Partial<Parameters<typeof embeddedState>[0]> = {}) =>
  embeddedState({ login: { _tag: "VerifyOtp", email: "visitor@example.com", submitting: false }, ...over })

describe("EmailVerifyOtp", () => {
  it("says where the code went and sends it by itself at the 6th digit", async () => {
    const page = host([], otpState())
    const dialog = await page.open({ view: "EmailVerifyOtp" })
    const input = await within(dialog).findByLabelText("Code")
    expect(dialog.textContent).toContain("Enter the 6-digit code we sent to visitor@example.com")
    expect(input.getAttribute("inputmode")).toBe("numeric")
    expect(input.getAttribute("autocomplete")).toBe("one-time-code")
    expect(input.getAttribute("maxlength")).toBe("6")
    fireEvent.change(input, { target: { value: "12345" } })
    expect(page.calls).toEqual([])
    fireEvent.change(input, { target: { value: "123456" } })
    await expect.poll(() => page.calls).toEqual([{ method: "submitOtp", argument: "123456" }])
  })

  it("takes a pasted code with spaces", async () => {
    const page = host([], otpState())
    const dialog = await page.open({ view: "EmailVerifyOtp" })
    const input = (await within(dialog).findByLabelText("Code")) as HTMLInputElement
    fireEvent.paste(input, { clipboardData: { getData: () => " 123 456\n" } })
    expect(input.value).toBe("123456")
    await expect.poll(() => page.calls).toEqual([{ method: "submitOtp", argument: "123456" }])
  })

  it("Continue with fewer than 6 digits says so and sends nothing", async () => {
    const page = host([], otpState())
    const dialog = await page.open({ view: "EmailVerifyOtp" })
    fireEvent.change(await within(dialog).findByLabelText("Code"), { target: { value: "12a3" } })
    expect((within(dialog).getByLabelText("Code") as HTMLInputElement).value).toBe("123")
    fireEvent.click(within(dialog).getByRole("button", { name: "Continue" }))
    expect(await within(dialog).findByText("Enter the 6 digits of the code")).toBeTruthy()
    expect(page.calls).toEqual([])
  })

  it("spins while the code is checked, then shows the failure with the field focused and its code selected", async () => {
    const page = host([], otpState())
    const dialog = await page.open({ view: "EmailVerifyOtp" })
    const input = (await within(dialog).findByLabelText("Code")) as HTMLInputElement
    fireEvent.change(input, { target: { value: "111111" } })
    await page.setState((state) => ({ ...state, login: { _tag: "VerifyOtp", email: "visitor@example.com", submitting: true } }))
    const button = within(dialog).getByRole("button", { name: "Continue" }) as HTMLButtonElement
    expect(button.disabled).toBe(true)
    expect(button.getAttribute("aria-busy")).toBe("true")

    screen.getByTestId("host").querySelector("button")?.focus()
    await page.setState((state) => ({
      ...state,
      login: { _tag: "VerifyOtp", email: "visitor@example.com", submitting: false },
      error: "The code is not right"
    }))
    const words = await within(dialog).findByText("The code is not right")
    expect(input.getAttribute("aria-describedby")).toContain(words.id)
    expect(input.getAttribute("aria-invalid")).toBe("true")
    expect(document.activeElement).toBe(input)
    expect([input.selectionStart, input.selectionEnd]).toEqual([0, 6])
    expect(button.disabled).toBe(false)
  })

  it("Resend code waits for the countdown, then mails another code", async () => {
    const page = host([], otpState({ resendInSeconds: 23 }))
    const dialog = await page.open({ view: "EmailVerifyOtp" })
    const resend = (await within(dialog).findByRole("button", { name: "Resend in 23 s" })) as HTMLButtonElement
    expect(resend.disabled).toBe(true)
    await page.setState((state) => ({ ...state, resendInSeconds: 22 }))
    expect(resend.textContent).toBe("Resend in 22 s")
    await page.setState((state) => ({ ...state, resendInSeconds: 0 }))
    expect(resend.textContent).toBe("Resend code")
    expect(resend.disabled).toBe(false)
    fireEvent.click(resend)
    await expect.poll(() => page.calls).toEqual([{ method: "resend", argument: undefined }])
  })

  it("says it connects once the code was right", async () => {
    const page = host([], embeddedState({ login: { _tag: "Connecting", email: "visitor@example.com" } }))
    const dialog = await page.open({ view: "EmailVerifyOtp" })
    const words = await within(dialog).findByText("Connecting your wallet…")
    expect(words.closest("[role=status]")).not.toBeNull()
  })

  it("Use another email goes back to the field", async () => {
    const page = host([], otpState())
    const dialog = await page.open({ view: "EmailVerifyOtp" })
    fireEvent.click(await within(dialog).findByRole("button", { name: "Use another email" }))
    await expect.poll(() => page.calls).toEqual([{ method: "cancelLogin", argument: undefined }])
  })
})

describe("EmailVerifyDevice", () => {
  const deviceState = (waiting: boolean) =>
    embeddedState({ login: { _tag: "VerifyDevice", email: "visitor@example.com", waiting }, resendInSeconds: 12 })

  it("waits for the link with a spinner, without Wait again", async () => {
    const page = host([], deviceState(true))
    const dialog = await page.open({ view: "EmailVerifyDevice" })
    const waiting = await within(dialog).findByText("Waiting for the link to be opened…")
    const status = waiting.closest("[role=status]")
    expect(status?.querySelector("[class*=spinner]")).not.toBeNull()
    expect(dialog.textContent).toContain("We sent a link to visitor@example.com. Open it on any device to approve this browser.")
    expect(within(dialog).queryByRole("button", { name: "Wait again" })).toBeNull()
    expect((within(dialog).getByRole("button", { name: "Resend in 12 s" }) as HTMLButtonElement).disabled).toBe(true)
    // The words take focus, not "Use another email": a habitual Enter cancels nothing.
    await expect.poll(() => document.activeElement?.textContent).toContain("We sent a link to")
  })

  it("offers Wait again once a step ended without the link", async () => {
    const page = host([], deviceState(false))
    const dialog = await page.open({ view: "EmailVerifyDevice" })
    const words = await within(dialog).findByText("The link was not opened in time. Open it, then wait again.")
    expect(words.closest("[role=status]")).not.toBeNull()
    fireEvent.click(within(dialog).getByRole("button", { name: "Wait again" }))
    await expect.poll(() => page.calls).toEqual([{ method: "waitForDevice", argument: undefined }])
    await page.setState((state) => ({ ...state, login: { _tag: "VerifyDevice", email: "visitor@example.com", waiting: true } }))
    expect(within(dialog).queryByRole("button", { name: "Wait again" })).toBeNull()
  })
})
