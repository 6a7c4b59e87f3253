// @vitest-environment happy-dom
import { act, cleanup, fireEvent, within } from "@testing-library/react"
import { Effect } from "effect"
import { afterEach, describe, expect, it } from "vitest"
import type { WalletCatalogEntry } from "../../../../src/domain/Wallet"
import type { WalletRuntime } from "../../../../src/runtime"
import { Modal } from "../../../../src/services/Modal"
import { catalogueWalletsAtom } from "../../../../src/ui/views/AllWallets/catalogue"
import { fakeWallet, findView, renderHost, runtimeFor } from "./support"

let runtime: WalletRuntime | undefined

afterEach(async () => {
  cleanup()
  await runtime?.dispose()
  runtime = undefined
})

const catalogue = (count: number): ReadonlyArray<WalletCatalogEntry> =>
  Array.from({ length: count }, (_, i) => ({
    id: `wallet-${i}`,
    name: `Wallet ${String(i).padStart(4, "0")}`,
    image_id: "",
    chains: ["eip155:1"]
  }))

const openAllWallets = async (wallets: ReadonlyArray<WalletCatalogEntry>) => {
  const { adapter } = fakeWallet()
  const wallet = runtimeFor(adapter)
  runtime = wallet
  wallet.registry.set(catalogueWalletsAtom, wallets)
  renderHost(wallet)
  await act(() => wallet.run(Effect.flatMap(Modal, (m) => m.open({ view: "AllWallets" }))))
  const dialog = await findView("AllWallets")
  await within(dialog).findByRole("list", { name: "Wallets" })
  return dialog
}

const rowsOf = (dialog: HTMLElement) => within(dialog).getAllByRole("listitem")

describe("AllWallets", () => {
  it("keeps only a window of 1,000 wallets in the page, the browser's own first", async () => {
    const dialog = await openAllWallets(catalogue(1000))
    const rows = rowsOf(dialog)
    expect(rows.length).toBeGreaterThan(3)
    expect(rows.length).toBeLessThan(40)
    // Every row still tells its place in the whole list.
    expect(rows[0]?.getAttribute("aria-setsize")).toBe("1001")
    expect(rows[0]?.textContent).toContain("Test Wallet")
    expect(rows[0]?.textContent).toContain("Installed")
    expect(rows[1]?.textContent).toContain("Wallet 0000")
    expect(within(dialog).queryByText("Wallet 0999")).toBeNull()
    expect(within(dialog).getByText("1001 wallets").getAttribute("role")).toBe("status")
  })

  it("searches on the trimmed input, case-insensitively", async () => {
    const dialog = await openAllWallets(catalogue(1000))
    const search = within(dialog).getByRole("searchbox", { name: "Search wallets" })
    fireEvent.change(search, { target: { value: "  wallet 0999 " } })
    const rows = rowsOf(dialog)
    expect(rows).toHaveLength(1)
    expect(rows[0]?.textContent).toContain("Wallet 0999")

    fireEvent.change(search, { target: { value: "wallet 012" } })
    const matches = rowsOf(dialog)
    expect(matches).toHaveLength(10)
    matches.forEach((row, i) => expect(row.textContent).toContain(`Wallet 012${i}`))

    fireEvent.change(search, { target: { value: "nothing like it" } })
    expect(within(dialog).queryAllByRole("listitem")).toHaveLength(0)
    expect(within(dialog).getByText("No wallet matches “nothing like it”.")).toBeTruthy()
  })

  it("is one Tab stop; arrow keys, Home and End move through the rows, scrolling the window", async () => {
    const dialog = await openAllWallets(catalogue(200))
    const search = within(dialog).getByRole("searchbox", { name: "Search wallets" })
    const tabStops = () => rowsOf(dialog).filter((row) => row.querySelector("button")?.tabIndex === 0)
    expect(tabStops()).toHaveLength(1)

    search.focus()
    fireEvent.keyDown(search, { key: "ArrowDown" })
    expect(document.activeElement?.textContent).toContain("Test Wallet")
    fireEvent.keyDown(document.activeElement!, { key: "ArrowDown" })
    expect(document.activeElement?.textContent).toContain("Wallet 0000")

    // happy-dom has no layout: the scroller is given the sizes a browser would compute (201 rows of 56 px in a
    // 360 px window), and the scroll event a browser fires after the list scrolls itself.
    const list = within(dialog).getByRole("list", { name: "Wallets" })
    const scroller = list.parentElement!
    Object.defineProperty(scroller, "clientHeight", { value: 360 })
    Object.defineProperty(scroller, "scrollHeight", { get: () => Number.parseFloat(list.style.height) })
    fireEvent.keyDown(document.activeElement!, { key: "End" })
    fireEvent.scroll(scroller)
    const last = await within(dialog).findByText("Wallet 0199")
    expect(document.activeElement).toBe(last.closest("button"))
    expect(tabStops()).toHaveLength(1)

    fireEvent.keyDown(document.activeElement!, { key: "Home" })
    fireEvent.scroll(scroller)
    await within(dialog).findByText("Test Wallet")
    expect(document.activeElement?.textContent).toContain("Test Wallet")
  })

  it("a catalogue wallet leads to its connecting view", async () => {
    const dialog = await openAllWallets(catalogue(3))
    fireEvent.click(within(dialog).getByRole("button", { name: "Wallet 0001" }))
    const connecting = await findView("ConnectingExternal")
    expect(await within(connecting).findByRole("heading", { name: "Wallet 0001 is not installed" })).toBeTruthy()
    // Back returns to the list.
    expect(within(connecting).getByRole("button", { name: "Back" })).toBeTruthy()
  })
})
