// @vitest-environment happy-dom
import { act, cleanup, fireEvent, waitFor, within } from "@testing-library/react"
import { Effect } from "effect"
import { afterEach, describe, expect, it } from "vitest"
import type { WalletCatalogEntry } from "../../../../src/domain/Wallet"
import type { WalletRuntime } from "../../../../src/runtime"
import { Modal } from "../../../../src/services/Modal"
import { type FakeHttp, makeFakeHttp } from "../../support/fakeHttpClient"
import { findView, renderHost, runtimeFor, testWallet } from "./support"

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

/**
 * A catalogue service over `wallets`: `search` filters by name, pages hold `entries` wallets — or the whole list at
 * once with `onePage` (a service answering more than a page), so a test can have 1,000 wallets in the list.
 */
const catalogueService = (wallets: ReadonlyArray<WalletCatalogEntry>, onePage = false): FakeHttp =>
  makeFakeHttp((request) => {
    if (!request.url.pathname.endsWith("/getWallets")) return { status: 404, json: {} }
    const params = request.url.searchParams
    const search = (params.get("search") ?? "").toLowerCase()
    const matching = wallets.filter((wallet) => wallet.name.toLowerCase().includes(search))
    const entries = Number(params.get("entries") ?? "40")
    const start = (Number(params.get("page") ?? "1") - 1) * entries
    return { status: 200, json: { data: onePage ? matching : matching.slice(start, start + entries), count: matching.length } }
  })

let http: FakeHttp

const openAllWallets = async (wallets: ReadonlyArray<WalletCatalogEntry>, onePage = true) => {
  http = catalogueService(wallets, onePage)
  const wallet = runtimeFor(testWallet(), { http: http.layer })
  runtime = wallet
  renderHost(wallet)
  await act(() => wallet.run(Effect.flatMap(Modal, (m) => m.open({ view: "AllWallets" }))))
  const dialog = await findView("AllWallets")
  await within(dialog).findByText(wallets[0]!.name)
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
    expect(within(dialog).getByText("1,001 wallets").getAttribute("role")).toBe("status")
  })

  it("asks the catalogue for the trimmed search and lists its answer", async () => {
    const dialog = await openAllWallets(catalogue(1000))
    const search = within(dialog).getByRole("searchbox", { name: "Search wallets" })
    // What the empty field shows says what its name says ('Search wallet' read as a typo).
    expect(search.getAttribute("placeholder")).toBe("Search wallets")
    fireEvent.change(search, { target: { value: "  wallet 0999 " } })
    await within(dialog).findByText("Wallet 0999")
    const rows = rowsOf(dialog)
    expect(rows).toHaveLength(1)
    expect(http.requests.map((request) => request.url.searchParams.get("search"))).toContain("wallet 0999")

    fireEvent.change(search, { target: { value: "wallet 012" } })
    await within(dialog).findByText("Wallet 0129")
    const matches = rowsOf(dialog)
    expect(matches).toHaveLength(10)
    matches.forEach((row, i) => expect(row.textContent).toContain(`Wallet 012${i}`))

    // The browser's own wallets are searched too.
    fireEvent.change(search, { target: { value: "test wal" } })
    expect((await within(dialog).findByText("Test Wallet")).closest("[role=listitem]")).not.toBeNull()

    fireEvent.change(search, { target: { value: "nothing like it" } })
    expect(await within(dialog).findByText("No wallet matches “nothing like it”.")).toBeTruthy()
    expect(within(dialog).queryAllByRole("listitem")).toHaveLength(0)
  })

  it("asks for the next page of 40 as the list scrolls to its end", async () => {
    const dialog = await openAllWallets(catalogue(100), false)
    const pages = () => http.requests.filter((request) => request.url.pathname.endsWith("/getWallets") && !request.url.searchParams.has("search")).map((r) => r.url.searchParams.get("page"))
    expect(pages()).toEqual(["1"])
    // Every row tells its place in the whole catalogue, not only in the pages loaded.
    expect(rowsOf(dialog)[0]?.getAttribute("aria-setsize")).toBe("101")
    const list = within(dialog).getByRole("list", { name: "Wallets" })
    const scroller = list.parentElement!
    Object.defineProperty(scroller, "clientHeight", { value: 360 })
    Object.defineProperty(scroller, "scrollHeight", { get: () => Number.parseFloat(list.style.height) })
    scroller.focus()
    fireEvent.keyDown(within(dialog).getAllByRole("button", { name: /Wallet/ })[0]!, { key: "End" })
    fireEvent.scroll(scroller)
    await waitFor(() => expect(pages()).toEqual(["1", "2"]))
    // The second page joined the list: End now reaches its last wallet.
    await waitFor(() => expect(rowsOf(dialog).length).toBeGreaterThan(0))
    fireEvent.keyDown(document.activeElement!, { key: "End" })
    fireEvent.scroll(scroller)
    expect(await within(dialog).findByText("Wallet 0079")).toBeTruthy()
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
    fireEvent.click(await within(dialog).findByRole("button", { name: "Wallet 0001" }))
    const connecting = await findView("ConnectingExternal")
    expect(await within(connecting).findByRole("heading", { name: "Wallet 0001 is not installed" })).toBeTruthy()
    // Back returns to the list.
    expect(within(connecting).getByRole("button", { name: "Back" })).toBeTruthy()
  })

  it("the browser's wallet is one row even when the catalogue has it; a wallet with a web app opens its WalletConnect view", async () => {
    const dialog = await openAllWallets([
      { id: "webby", name: "Webby", image_id: "", webapp_link: "https://webby.example", chains: ["eip155:1"] },
      { id: "test-wallet-entry", name: "Test Wallet", rdns: "dev.wallet-runtime.test", image_id: "", chains: ["eip155:1"] },
      ...catalogue(2)
    ])
    const testWalletRows = within(dialog).getAllByRole("button", { name: /Test Wallet/ })
    expect(testWalletRows).toHaveLength(1)
    expect(testWalletRows[0]?.textContent).toContain("Installed")

    fireEvent.click(within(dialog).getByRole("button", { name: "Webby" }))
    const view = await findView("ConnectingWalletConnect")
    // This page has no WalletConnect (no projectId in the test runtime's services): the view says so.
    expect((await within(view).findByRole("alert")).textContent).toContain("set a projectId to enable WalletConnect")
  })

  it("counts wallets after removing duplicates: 50 installed wallets of one name are one row and count once", async () => {
    http = catalogueService(catalogue(3), true)
    const alike = Array.from({ length: 50 }, (_, i) => testWallet({ id: `alike-${i}`, name: "Alike Wallet", rdns: undefined }))
    const wallet = runtimeFor(alike, { http: http.layer })
    runtime = wallet
    renderHost(wallet)
    await act(() => wallet.run(Effect.flatMap(Modal, (m) => m.open({ view: "AllWallets" }))))
    const dialog = await findView("AllWallets")
    await within(dialog).findByText("Wallet 0002")
    expect(within(dialog).getAllByRole("button", { name: /Alike Wallet/ })).toHaveLength(1)
    expect(within(dialog).getByText("4 wallets")).toBeTruthy()
    expect(rowsOf(dialog)[0]?.getAttribute("aria-setsize")).toBe("4")
  })
})
