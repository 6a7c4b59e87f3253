// @vitest-environment happy-dom
/**
 * The ConnectingFarcaster view as the visitor sees it in each step of a Sign In With Farcaster: the code being
 * prepared, the channel's link as a QR code and as a link that opens the Farcaster app, the login once signed, and an
 * expired link or a refusal in words with Try again (which asks the embedded wallet for a new link).
 */
import { fireEvent, within } from "@testing-library/react"
import { describe, expect, it } from "vitest"
import { embeddedHostPerTest, embeddedState } from "./embeddedHost"

const host = embeddedHostPerTest()
const LINK = "farcaster://connect?channelToken=abc&nonce=n0nce1234&domain=wallet.example&siweUri=https%3A%2F%2Fwallet.example%2F"

describe("ConnectingFarcaster", () => {
  it("while the link is made: a placeholder where the code will be", async () => {
    const page = host([], embeddedState({ farcaster: { _tag: "Starting" } }))
    const dialog = await page.open({ view: "ConnectingFarcaster" })
    expect(await within(dialog).findByText("Preparing the sign-in code")).toBeTruthy()
    expect(within(dialog).queryByRole("img", { name: "QR code to sign in with Farcaster" })).toBeNull()
  })

  it("waiting: the link as a QR code and as a link that opens Farcaster, and Copy link", async () => {
    const page = host([], embeddedState({ farcaster: { _tag: "Waiting", url: LINK, expiresAt: undefined } }))
    const dialog = await page.open({ view: "ConnectingFarcaster" })
    const qr = await within(dialog).findByRole("img", { name: "QR code to sign in with Farcaster" })
    expect(qr.getAttribute("data-qr-value")).toBe(LINK)
    expect(within(dialog).getByRole("link", { name: "Open Farcaster" }).getAttribute("href")).toBe(LINK)
    expect(within(dialog).getByRole("heading", { name: "Scan with Farcaster" })).toBeTruthy()
    expect(within(dialog).getByRole("button", { name: "Copy link" })).toBeTruthy()
  })

  it("expired: says so, and Try again asks for a new link", async () => {
    const message = "The sign-in link expired before it was signed: try again for a new one."
    const page = host([], embeddedState({ farcaster: { _tag: "Failed", message, expired: true } }))
    const dialog = await page.open({ view: "ConnectingFarcaster" })
    expect(await within(dialog).findByRole("heading", { name: "The sign-in link expired" })).toBeTruthy()
    expect(within(dialog).getByText(message)).toBeTruthy()
    fireEvent.click(within(dialog).getByRole("button", { name: "Try again" }))
    expect(page.calls).toEqual([{ method: "connectFarcaster", argument: undefined }])
  })

  it("refused: the server's words; signed: the user it logs in", async () => {
    const page = host([], embeddedState({ farcaster: { _tag: "Failed", message: "The Farcaster id registry could not be read", expired: false } }))
    const dialog = await page.open({ view: "ConnectingFarcaster" })
    expect(await within(dialog).findByRole("heading", { name: "Farcaster sign-in failed" })).toBeTruthy()
    expect(within(dialog).getByText("The Farcaster id registry could not be read")).toBeTruthy()
    await page.setState((state) => ({ ...state, farcaster: { _tag: "Connecting", username: "alice" } }))
    expect(await within(dialog).findByRole("heading", { name: "Signed in as @alice" })).toBeTruthy()
  })
})
