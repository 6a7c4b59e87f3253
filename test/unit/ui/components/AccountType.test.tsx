// @vitest-environment happy-dom
/**
 * The Account view of the embedded wallet's two EVM accounts: the account in front is named by its type in plain words
 * ("Smart account", "EOA"), a button switches to the other (the service's setPreferredAccount), shows it is switching
 * and says why a switch failed. A wallet with one account shows none of it.
 */
import { act, fireEvent, within } from "@testing-library/react"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { localChainA } from "../../../../src/domain/networks"
import { Connection } from "../../../../src/services/Connection"
import { embeddedHostPerTest, embeddedState } from "./embeddedHost"
import { ALICE, testWallet } from "./support"

const host = embeddedHostPerTest()
const OWNER = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8"
const smartFirst = [
  { address: ALICE, type: "smartAccount" as const },
  { address: OWNER, type: "eoa" as const }
]

/** The Account view of the page's wallet holding `accounts`, the first in front. */
const openAccount = async (accounts: ReadonlyArray<{ readonly address: string; readonly type: "eoa" | "smartAccount" }>) => {
  const page = host([testWallet({ families: { eip155: { accounts, chainId: 31337 } } })], embeddedState({ email: "visitor@example.com" }))
  await act(() => page.runtime.run(Effect.flatMap(Connection, (c) => c.connect({ connectorId: "test-wallet", networks: [localChainA] }))))
  const dialog = await page.open({ view: "Account" })
  await within(dialog).findByRole("button", { name: "Disconnect" })
  return { page, dialog }
}

describe("Account: the embedded wallet's smart account and EOA", () => {
  it("names the account in front and switches to the other through the service", async () => {
    const { page, dialog } = await openAccount(smartFirst)
    expect(within(dialog).getByTestId("account-type").textContent).toBe("Account type: Smart account")
    fireEvent.click(within(dialog).getByRole("button", { name: "Switch to EOA" }))
    expect(page.calls).toEqual([{ method: "setPreferredAccount", argument: "eoa" }])

    await page.setState((s) => ({ ...s, accountSwitch: { switching: "eoa", error: undefined } }))
    const busy = within(dialog).getByRole("button", { name: "Switching…" })
    expect(busy.hasAttribute("disabled")).toBe(true)

    await page.setState((s) => ({ ...s, accountSwitch: { switching: undefined, error: "The wallet server is away." } }))
    expect(within(dialog).getByText("The wallet server is away.")).toBeTruthy()
  })

  it("with the EOA in front, offers the smart account", async () => {
    const { page, dialog } = await openAccount([...smartFirst].reverse())
    expect(within(dialog).getByTestId("account-type").textContent).toBe("Account type: EOA")
    fireEvent.click(within(dialog).getByRole("button", { name: "Switch to smart account" }))
    expect(page.calls).toEqual([{ method: "setPreferredAccount", argument: "smartAccount" }])
  })

  it("a wallet with one account shows no account type and no switch", async () => {
    const { dialog } = await openAccount([{ address: ALICE, type: "eoa" }])
    expect(within(dialog).queryByTestId("account-type")).toBeNull()
    expect(within(dialog).queryByRole("button", { name: /^Switch to/ })).toBeNull()
  })
})
