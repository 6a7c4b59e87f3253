// @vitest-environment happy-dom
/**
 * The embedded wallet's own views offered on the Account view: "Export private key" for an embedded wallet only,
 * "Protect your wallet" only while its recovery share is sealed under a secret kept on the device; each opens the
 * frame's view through the service, and the view asks the frame what protects the wallet when it shows.
 */
import { act, fireEvent, within } from "@testing-library/react"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { localChainA } from "../../../../src/domain/networks"
import { Connection } from "../../../../src/services/Connection"
import { embeddedHostPerTest, embeddedState } from "./embeddedHost"
import { testWallet } from "./support"

const host = embeddedHostPerTest()

/** The Account view of a connected wallet (an embedded one: its login's user known) over `state`. */
const openAccount = async (state: ReturnType<typeof embeddedState>, embedded: boolean) => {
  const page = host([testWallet()], state)
  await act(() =>
    page.runtime.run(
      Effect.gen(function* () {
        const connection = yield* Connection
        yield* connection.connect({ connectorId: "test-wallet", networks: [localChainA] })
        if (embedded) yield* connection.updateAccount("eip155", (account) => ({ ...account, user: { email: "visitor@example.com", username: null } }))
      })
    )
  )
  const dialog = await page.open({ view: "Account" })
  await within(dialog).findByRole("button", { name: "Disconnect" })
  return { page, dialog }
}

describe("Account: the embedded wallet's own views", () => {
  it("offers neither to a wallet that is not the embedded one, and asks the frame nothing", async () => {
    const { page, dialog } = await openAccount(embeddedState({ recovery: "device" }), false)
    expect(within(dialog).queryByRole("button", { name: "Export private key" })).toBeNull()
    expect(within(dialog).queryByRole("button", { name: "Protect your wallet" })).toBeNull()
    expect(page.calls.map((call) => call.method)).not.toContain("refreshRecovery")
  })

  it("offers Export to an embedded wallet already protected, asks the frame what protects it, and opens the frame's export view", async () => {
    const { page, dialog } = await openAccount(embeddedState({ recovery: "password" }), true)
    expect(within(dialog).queryByRole("button", { name: "Protect your wallet" })).toBeNull()
    fireEvent.click(await within(dialog).findByRole("button", { name: "Export private key" }))
    expect(page.calls).toEqual([{ method: "refreshRecovery", argument: undefined }, { method: "openSecureView", argument: "export" }])
  })

  it("offers Protect your wallet while the recovery share is sealed under a secret kept on the device", async () => {
    const { page, dialog } = await openAccount(embeddedState({ recovery: "device" }), true)
    fireEvent.click(await within(dialog).findByRole("button", { name: "Protect your wallet" }))
    expect(page.calls.at(-1)).toEqual({ method: "openSecureView", argument: "protect" })
  })

  it("on a device without the key's share: says so and offers Recover your wallet on this device, not Protect", async () => {
    const { page, dialog } = await openAccount(embeddedState({ recovery: "password", needsRecovery: true }), true)
    expect(within(dialog).getByText(/This device has no key of your wallet yet/)).toBeTruthy()
    fireEvent.click(await within(dialog).findByRole("button", { name: "Recover your wallet on this device" }))
    expect(page.calls.at(-1)).toEqual({ method: "openSecureView", argument: "recover" })
  })

  it("a wallet only the first device protects cannot be recovered here: the words say to protect it there, then log in here again (this view has no Check again), no Recover nor Protect", async () => {
    const { dialog } = await openAccount(embeddedState({ recovery: "device", needsRecovery: true }), true)
    expect(within(dialog).getByText(/only be used on the device where you first logged in: open it there, choose Protect your wallet, then log in here again\.$/)).toBeTruthy()
    expect(within(dialog).queryByRole("button", { name: "Check again" })).toBeNull()
    expect(within(dialog).queryByRole("button", { name: "Recover your wallet on this device" })).toBeNull()
    expect(within(dialog).queryByRole("button", { name: "Protect your wallet" })).toBeNull()
  })
})
