// @vitest-environment happy-dom
/**
 * The social logins on the Connect view as the visitor sees them: in the host's `features.socials` order (the first
 * wide with its name, three icons, the rest behind "More"), farcaster among them (opening ConnectingFarcaster), placed by the
 * connect-method order, handed to the embedded wallet within the click itself (so the popup it opens is let through),
 * the wait with its Cancel, and a failure in words; the Account view names the provider and the user.
 */
import { fireEvent, within } from "@testing-library/react"
import { describe, expect, it } from "vitest"
import { embeddedHostPerTest, embeddedState } from "./embeddedHost"
import { testWallet } from "./support"

const host = embeddedHostPerTest()

const before = (first: Element, second: Element) => (first.compareDocumentPosition(second) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0

describe("Connect: social logins", () => {
  it("in features.socials order: the first wide with its name, three icons by name, the rest behind More; farcaster among them", async () => {
    const page = host([], embeddedState(), { features: { socials: ["github", "farcaster", "google", "x", "discord", "apple", "facebook"] } })
    const dialog = await page.open({ view: "Connect" })
    const group = await within(dialog).findByRole("group", { name: "Log in with a social account" })
    // Each button in the group, in the page's order, found by its accessible name.
    const all = ["GitHub", "Farcaster", "Google", "X", "Discord", "Apple", "Facebook"].map((name) => `Continue with ${name}`).concat("More social logins")
    const names = () =>
      within(group)
        .getAllByRole("button")
        .map((button) => all.find((name) => within(group).queryByRole("button", { name }) === button))
    expect(names()).toEqual(["Continue with GitHub", "Continue with Farcaster", "Continue with Google", "Continue with X", "More social logins"])
    fireEvent.click(within(group).getByRole("button", { name: "More social logins" }))
    expect(names()).toEqual([
      "Continue with GitHub",
      "Continue with Farcaster",
      "Continue with Google",
      "Continue with X",
      "Continue with Discord",
      "Continue with Apple",
      "Continue with Facebook"
    ])
  })

  it("the Farcaster button asks the embedded wallet for Sign In With Farcaster (no popup)", async () => {
    const page = host([], embeddedState(), {})
    const dialog = await page.open({ view: "Connect" })
    const group = await within(dialog).findByRole("group", { name: "Log in with a social account" })
    fireEvent.click(within(group).getByRole("button", { name: "Continue with Farcaster" }))
    expect(page.calls).toEqual([{ method: "connectFarcaster", argument: undefined }])
  })

  it("with four or fewer after the first, no More", async () => {
    const page = host([], embeddedState(), { features: { socials: ["google", "x"] } })
    const group = await within(await page.open({ view: "Connect" })).findByRole("group", { name: "Log in with a social account" })
    expect(within(group).getAllByRole("button")).toHaveLength(2)
  })

  it("the click hands the provider to the embedded wallet before the click returns (the popup opens in the click)", async () => {
    const page = host([], embeddedState(), { features: { socials: ["google", "x"] } })
    const dialog = await page.open({ view: "Connect" })
    const button = await within(dialog).findByRole("button", { name: "Continue with X" })
    fireEvent.click(button)
    // No await between the click and this line: the call was made synchronously.
    expect(page.calls).toEqual([{ method: "connectSocial", argument: "x" }])
  })

  it("follows the connect-method order: social between email and wallets by default, wallets first when installed", async () => {
    const page = host([testWallet()], embeddedState(), { features: { socials: ["google"], connectMethodsOrder: ["email", "social", "wallet"] } })
    const dialog = await page.open({ view: "Connect" })
    const social = await within(dialog).findByRole("group", { name: "Log in with a social account" })
    expect(before(within(dialog).getByRole("form", { name: "Continue with email" }), social)).toBe(true)
    expect(before(social, within(dialog).getByRole("button", { name: /Test Wallet/ }))).toBe(true)
  })

  it("is not there with socials off", async () => {
    const off = host([], embeddedState(), { features: { socials: false } })
    const dialog = await off.open({ view: "Connect" })
    await within(dialog).findByRole("textbox", { name: "Continue with email" })
    expect(within(dialog).queryByRole("group", { name: "Log in with a social account" })).toBeNull()
  })

  it("while the provider's window is open: says so, and Cancel stops it", async () => {
    const page = host([], embeddedState({ social: { _tag: "Waiting", provider: "discord" } }), { features: { socials: ["google", "discord"] } })
    const dialog = await page.open({ view: "Connect" })
    await within(dialog).findByText("Continue in the Discord window…")
    fireEvent.click(within(dialog).getByRole("button", { name: "Cancel" }))
    expect(page.calls).toEqual([{ method: "cancelSocial", argument: undefined }])
  })

  it("a failure is said under the buttons", async () => {
    const page = host([], embeddedState({ socialError: "The login was cancelled: the window was closed." }), { features: { socials: ["google"] } })
    const dialog = await page.open({ view: "Connect" })
    expect((await within(dialog).findByText("The login was cancelled: the window was closed.")).closest("[role=alert]")).not.toBeNull()
  })
})
