// @vitest-environment happy-dom
/**
 * The Connect view under the host's `features.legalCheckbox`, `features.collapseWallets` and
 * `features.emailShowWallets`: a visitor asked to agree to the terms can use no way to connect before ticking the box;
 * wallets folded beside email are one row that unfolds them in place.
 */
import { fireEvent, waitFor, within } from "@testing-library/react"
import { describe, expect, it } from "vitest"
import { embeddedHostPerTest, embeddedState } from "./embeddedHost"
import { dialogClosed, findView, testWallet } from "./support"

const host = embeddedHostPerTest()
const legal = { termsConditionsUrl: "https://host.example/terms", privacyPolicyUrl: "https://host.example/privacy" }

describe("Connect: the host's legal checkbox", () => {
  it("no way to connect can be used before the visitor agrees; ticking the box opens them all", async () => {
    const wallet = testWallet()
    const page = host([wallet], embeddedState(), { ...legal, features: { legalCheckbox: true } })
    const dialog = await page.open({ view: "Connect" })
    const row = await within(dialog).findByRole("button", { name: /Test Wallet/ })
    const agree = within(dialog).getByRole("checkbox", { name: /^I agree to this site's Terms and Privacy Policy/ })
    expect((agree as HTMLInputElement).checked).toBe(false)
    expect(within(agree.closest("label")!).getByRole("link", { name: "Terms" }).getAttribute("href")).toBe(legal.termsConditionsUrl)
    // The agreement replaces the footnote that says connecting is agreeing.
    expect(within(dialog).queryByText(/By connecting a wallet/)).toBeNull()

    expect(row.hasAttribute("disabled")).toBe(true)
    expect(within(dialog).getByRole("button", { name: "All wallets" }).hasAttribute("disabled")).toBe(true)
    expect(within(dialog).getByRole("textbox", { name: "Continue with email" }).hasAttribute("disabled")).toBe(true)
    fireEvent.click(row)
    fireEvent.submit(within(dialog).getByRole("form", { name: "Continue with email" }))
    expect(wallet.calls).toEqual([])
    expect(page.calls).toEqual([])
    // Help stays at hand.
    expect(within(dialog).getByRole("button", { name: "What is a wallet?" }).hasAttribute("disabled")).toBe(false)

    fireEvent.click(agree)
    await waitFor(() => expect((agree as HTMLInputElement).checked).toBe(true))
    expect(within(dialog).getByRole("textbox", { name: "Continue with email" }).hasAttribute("disabled")).toBe(false)
    fireEvent.click(within(dialog).getByRole("button", { name: /Test Wallet/ }))
    await dialogClosed()
    expect(wallet.calls.some((call) => call.startsWith("connect:"))).toBe(true)
  })

  it("the agreement holds while the modal goes to All wallets and back", async () => {
    const page = host([testWallet()], embeddedState(), { ...legal, features: { legalCheckbox: true } })
    const dialog = await page.open({ view: "Connect" })
    fireEvent.click(within(dialog).getByRole("checkbox", { name: /I agree/ }))
    fireEvent.click(within(dialog).getByRole("button", { name: "All wallets" }))
    const all = await within(document.body).findByRole("searchbox")
    expect(all).toBeTruthy()
    fireEvent.click(within(document.body).getByRole("button", { name: "Back" }))
    const again = await within(document.body).findByRole("checkbox", { name: /I agree/ })
    expect((again as HTMLInputElement).checked).toBe(true)
    expect(within(document.body).getByRole("button", { name: /Test Wallet/ }).hasAttribute("disabled")).toBe(false)
  })

  it("asks nothing when the host names no Terms or Privacy Policy, or does not ask for the checkbox", async () => {
    const page = host([testWallet()], embeddedState(), { features: { legalCheckbox: true } })
    const dialog = await page.open({ view: "Connect" })
    const row = await within(dialog).findByRole("button", { name: /Test Wallet/ })
    expect(within(dialog).queryByRole("checkbox")).toBeNull()
    expect(row.hasAttribute("disabled")).toBe(false)
  })
})

describe("Connect: wallets folded beside email", () => {
  for (const features of [{ collapseWallets: true }, { emailShowWallets: false }]) {
    it(`${JSON.stringify(features)}: one "Continue with a wallet" row, which opens the wallets with the first one focused; Back folds them`, async () => {
      const page = host([testWallet()], embeddedState(), { features })
      const dialog = await page.open({ view: "Connect" })
      const unfold = await within(dialog).findByRole("button", { name: "Continue with a wallet" })
      expect(within(dialog).getByRole("textbox", { name: "Continue with email" })).toBeTruthy()
      expect(within(dialog).queryByRole("button", { name: /Test Wallet/ })).toBeNull()
      expect(within(dialog).queryByRole("list", { name: "Wallets" })).toBeNull()

      fireEvent.click(unfold)
      const unfoldedView = await findView("Connect")
      const row = await within(unfoldedView).findByRole("button", { name: /Test Wallet/ })
      expect(within(unfoldedView).queryByRole("button", { name: "Continue with a wallet" })).toBeNull()
      // The wallets alone: email is one Back away.
      expect(within(unfoldedView).queryByRole("textbox", { name: "Continue with email" })).toBeNull()
      await waitFor(() => expect(document.activeElement).toBe(row))

      fireEvent.click(within(document.body).getByRole("button", { name: "Back" }))
      expect(await within(document.body).findByRole("button", { name: "Continue with a wallet" })).toBeTruthy()
      expect(within(document.body).queryByRole("button", { name: /Test Wallet/ })).toBeNull()
    })
  }

  it("does not fold the wallets when they are the only way to connect", async () => {
    const page = host([testWallet()], embeddedState({ enabled: false }), { features: { collapseWallets: true } })
    const dialog = await page.open({ view: "Connect" })
    expect(await within(dialog).findByRole("button", { name: /Test Wallet/ })).toBeTruthy()
    expect(within(dialog).queryByRole("button", { name: "Continue with a wallet" })).toBeNull()
  })

  it("folded and asked to agree: the fold row waits for the agreement too", async () => {
    const page = host([testWallet()], embeddedState(), { ...legal, features: { collapseWallets: true, legalCheckbox: true } })
    const dialog = await page.open({ view: "Connect" })
    const unfold = await within(dialog).findByRole("button", { name: "Continue with a wallet" })
    expect(unfold.hasAttribute("disabled")).toBe(true)
    fireEvent.click(within(dialog).getByRole("checkbox", { name: /I agree/ }))
    await waitFor(() => expect(unfold.hasAttribute("disabled")).toBe(false))
  })
})
