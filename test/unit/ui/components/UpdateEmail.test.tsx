// @vitest-environment happy-dom
/**
 * The email of an embedded wallet on the Account view, and its change: "Update email" opens the form, which refuses
 * a malformed or unchanged address before asking the service; the two codes (current address, then new address)
 * use the code form and can be cancelled.
 */
import { act, fireEvent, within } from "@testing-library/react"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { localChainA } from "../../../../src/domain/networks"
import { Connection } from "../../../../src/services/Connection"
import { embeddedHostPerTest, embeddedState } from "./embeddedHost"
import { findView, testWallet } from "./support"

const host = embeddedHostPerTest()

/** The Account view of a connected wallet whose embedded state is `state`. */
const openAccount = async (state: ReturnType<typeof embeddedState>) => {
  const page = host([testWallet()], state)
  await act(() => page.runtime.run(Effect.flatMap(Connection, (c) => c.connect({ connectorId: "test-wallet", networks: [localChainA] }))))
  const dialog = await page.open({ view: "Account" })
  await within(dialog).findByRole("button", { name: "Disconnect" })
  return { page, dialog }
}

describe("Account: the embedded wallet's email", () => {
  it("is not shown for a wallet that is not the email wallet", async () => {
    const { dialog } = await openAccount(embeddedState())
    expect(within(dialog).queryByRole("button", { name: "Update email" })).toBeNull()
    expect(dialog.textContent).not.toContain("@")
  })

  it("is shown under the address, and Update email opens the form", async () => {
    const { dialog } = await openAccount(embeddedState({ email: "visitor@example.com" }))
    expect(within(dialog).getByText("visitor@example.com")).toBeTruthy()
    fireEvent.click(within(dialog).getByRole("button", { name: "Update email" }))
    const form = await findView("UpdateEmail")
    expect(await within(form).findByRole("textbox", { name: "New email" })).toBeTruthy()
  })
})

describe("UpdateEmail", () => {
  const current = embeddedState({ email: "visitor@example.com" })

  it("refuses a malformed address and the current one, and asks nothing", async () => {
    const page = host([], current)
    const dialog = await page.open({ view: "UpdateEmail" })
    const input = await within(dialog).findByRole("textbox", { name: "New email" })
    expect(dialog.textContent).toContain("Your wallet's email is visitor@example.com")
    const form = within(dialog).getByRole("form", { name: "New email" })
    fireEvent.change(input, { target: { value: "user@example..com" } })
    fireEvent.submit(form)
    expect(await within(dialog).findByText("Enter a valid email address")).toBeTruthy()
    fireEvent.change(input, { target: { value: "Visitor@Example.com" } })
    fireEvent.submit(form)
    expect(await within(dialog).findByText("This is already your wallet's email")).toBeTruthy()
    expect(input.getAttribute("aria-invalid")).toBe("true")
    expect(page.calls).toEqual([])
  })

  it("hands the new address to the service; spins while it is sent and shows its failure", async () => {
    const page = host([], current)
    const dialog = await page.open({ view: "UpdateEmail" })
    fireEvent.change(await within(dialog).findByRole("textbox", { name: "New email" }), { target: { value: "new@example.com" } })
    fireEvent.click(within(dialog).getByRole("button", { name: "Continue" }))
    await expect.poll(() => page.calls).toEqual([{ method: "startEmailUpdate", argument: "new@example.com" }])
    await page.setState((state) => ({ ...state, update: { _tag: "Sending", newEmail: "new@example.com" } }))
    expect((within(dialog).getByRole("button", { name: "Continue" }) as HTMLButtonElement).disabled).toBe(true)
    await page.setState((state) => ({ ...state, update: { _tag: "Idle" }, error: "This email is already in use" }))
    expect(await within(dialog).findByText("This email is already in use")).toBeTruthy()
  })
})

describe("UpdateEmailPrimaryOtp and UpdateEmailSecondaryOtp", () => {
  it("the first code goes to the current address; 6 digits send it", async () => {
    const page = host([], embeddedState({ email: "visitor@example.com", update: { _tag: "PrimaryOtp", newEmail: "new@example.com", submitting: false } }))
    const dialog = await page.open({ view: "UpdateEmailPrimaryOtp" })
    const input = await within(dialog).findByLabelText("Code")
    expect(dialog.textContent).toContain("Enter the 6-digit code we sent to visitor@example.com")
    fireEvent.change(input, { target: { value: "654321" } })
    await expect.poll(() => page.calls).toEqual([{ method: "submitEmailUpdateOtp", argument: "654321" }])
  })

  it("the second code goes to the new address; Cancel gives the change up", async () => {
    const page = host([], embeddedState({ email: "visitor@example.com", update: { _tag: "SecondaryOtp", newEmail: "new@example.com", submitting: false } }))
    const dialog = await page.open({ view: "UpdateEmailSecondaryOtp" })
    await within(dialog).findByLabelText("Code")
    expect(dialog.textContent).toContain("Enter the 6-digit code we sent to new@example.com")
    fireEvent.click(within(dialog).getByRole("button", { name: "Cancel" }))
    await expect.poll(() => page.calls).toEqual([{ method: "cancelEmailUpdate", argument: undefined }])
  })

  it("a view whose step is not the service's says nothing waits", async () => {
    const page = host([], embeddedState({ email: "visitor@example.com", update: { _tag: "PrimaryOtp", newEmail: "new@example.com", submitting: false } }))
    const dialog = await page.open({ view: "UpdateEmailSecondaryOtp" })
    expect(await within(dialog).findByText("There is no email change waiting for this code.")).toBeTruthy()
  })
})
