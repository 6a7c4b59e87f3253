// @vitest-environment happy-dom
/**
 * The passkey login on the Connect view as the visitor sees it: offered only when the host turns `features.passkey`
 * on, in email's place of the connect-method order (under the email field), each choice handed to the embedded wallet
 * within the click itself (so the passkey window it opens is let through), the wait with its Cancel, a failure in
 * words, and the host's agreement box holding both buttons until ticked.
 */
import { fireEvent, within } from "@testing-library/react"
import { describe, expect, it } from "vitest"
import { embeddedHostPerTest, embeddedState } from "./embeddedHost"
import { testWallet } from "./support"

const host = embeddedHostPerTest()

const before = (first: Element, second: Element) => (first.compareDocumentPosition(second) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0

describe("Connect: passkey login", () => {
  it("is not offered unless the host turns it on", async () => {
    const page = host([], embeddedState(), { features: { socials: false } })
    const dialog = await page.open({ view: "Connect" })
    // The first render of the file loads the views' code: a wider bound than the default second.
    await within(dialog).findByRole("textbox", { name: "Continue with email" }, { timeout: 10_000 })
    expect(within(dialog).queryByRole("group", { name: "Log in with a passkey" })).toBeNull()
  })

  it("sits under the email field, before the social logins and the wallets (wallets first when one is installed)", async () => {
    const page = host([], embeddedState(), { features: { passkey: true, socials: ["google"] } })
    const dialog = await page.open({ view: "Connect" })
    const passkey = await within(dialog).findByRole("group", { name: "Log in with a passkey" })
    expect(before(within(dialog).getByRole("form", { name: "Continue with email" }), passkey)).toBe(true)
    expect(before(passkey, await within(dialog).findByRole("group", { name: "Log in with a social account" }))).toBe(true)

    const installed = host([testWallet()], embeddedState(), { features: { passkey: true, socials: false } })
    const second = await installed.open({ view: "Connect" })
    const wallet = await within(second).findByRole("button", { name: /Test Wallet/ })
    expect(before(wallet, await within(second).findByRole("group", { name: "Log in with a passkey" }))).toBe(true)
  })

  it("without email, takes email's place alone", async () => {
    const page = host([], embeddedState(), { features: { passkey: true, email: false, socials: false } })
    const dialog = await page.open({ view: "Connect" })
    await within(dialog).findByRole("group", { name: "Log in with a passkey" })
    expect(within(dialog).queryByRole("textbox", { name: "Continue with email" })).toBeNull()
  })

  it("each choice is handed to the embedded wallet before the click returns (the passkey window opens in the click)", async () => {
    const page = host([], embeddedState(), { features: { passkey: true } })
    const dialog = await page.open({ view: "Connect" })
    fireEvent.click(await within(dialog).findByRole("button", { name: "Continue with a passkey" }))
    // No await between the click and this line: the call was made synchronously.
    expect(page.calls).toEqual([{ method: "connectPasskey", argument: "login" }])
    fireEvent.click(within(dialog).getByRole("button", { name: "Create a passkey" }))
    expect(page.calls[1]).toEqual({ method: "connectPasskey", argument: "create" })
  })

  it("while the passkey window is open: says what to do there, and Cancel stops it", async () => {
    const page = host([], embeddedState({ passkey: { _tag: "Waiting", mode: "create" } }), { features: { passkey: true } })
    const dialog = await page.open({ view: "Connect" })
    const words = await within(dialog).findByText("Create your passkey in the window that opened…")
    expect(words.closest("[role=status]")).not.toBeNull()
    fireEvent.click(within(dialog).getByRole("button", { name: "Cancel" }))
    expect(page.calls).toEqual([{ method: "cancelPasskey", argument: undefined }])
  })

  it("a failure is said under the buttons, as an alert", async () => {
    const words = "The passkey request was cancelled. Nothing was changed: try again when you are ready."
    const page = host([], embeddedState({ passkeyError: words }), { features: { passkey: true } })
    const dialog = await page.open({ view: "Connect" })
    expect((await within(dialog).findByText(words)).closest("[role=alert]")).not.toBeNull()
    expect(within(dialog).getByRole("button", { name: "Continue with a passkey" })).toBeTruthy()
  })

  it("waits for the host's agreement like every way to connect", async () => {
    const page = host([], embeddedState(), { features: { passkey: true, legalCheckbox: true }, termsConditionsUrl: "https://host.example/terms" })
    const dialog = await page.open({ view: "Connect" })
    const button = await within(dialog).findByRole("button", { name: "Continue with a passkey" })
    expect((button as HTMLButtonElement).disabled).toBe(true)
    expect((within(dialog).getByRole("button", { name: "Create a passkey" }) as HTMLButtonElement).disabled).toBe(true)
    fireEvent.click(within(dialog).getByRole("checkbox"))
    expect((button as HTMLButtonElement).disabled).toBe(false)
  })
})
