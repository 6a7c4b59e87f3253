// @vitest-environment happy-dom
/**
 * The Connect view does not jump: while the catalogue answers, its rows hold their place (skeletons, hidden from
 * assistive technology) between the installed wallets and the rest, and its wallets take that place when they come.
 */
import { act, cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react"
import { Effect } from "effect"
import { afterEach, describe, expect, it } from "vitest"
import { FEATURED_WALLETS_COUNT } from "../../../../src/domain/constants"
import type { WalletCatalogEntry } from "../../../../src/domain/Wallet"
import type { WalletRuntime } from "../../../../src/runtime"
import { Connection } from "../../../../src/services/Connection"
import { Modal } from "../../../../src/services/Modal"
import { type FakeAnswer, makeFakeHttp } from "../../support/fakeHttpClient"
import { findView, renderHost, runtimeFor, testWallet } from "./support"

let runtime: WalletRuntime | undefined

afterEach(async () => {
  cleanup()
  await runtime?.dispose()
  runtime = undefined
})

const wallets: ReadonlyArray<WalletCatalogEntry> = ["Alpha", "Beta", "Gamma", "Delta", "Epsilon"].map((name) => ({
  id: name.toLowerCase(),
  name: `${name} Wallet`,
  image_id: "",
  chains: ["eip155:1"]
}))

/** Opens Connect over a catalogue that answers `answer`. */
const openConnect = async (answer: FakeAnswer, options: Record<string, unknown> = {}) => {
  const http = makeFakeHttp((request) => (request.url.pathname.endsWith("/getWallets") ? answer : { status: 404, json: {} }))
  runtime = runtimeFor(testWallet(), { http: http.layer, options })
  renderHost(runtime)
  await act(() => runtime!.run(Effect.flatMap(Modal, (m) => m.open({ view: "Connect" }))))
  const dialog = await findView("Connect")
  await within(dialog).findByRole("button", { name: /Test Wallet/ })
  return { dialog, http }
}

const skeletons = (dialog: HTMLElement) => [...dialog.querySelectorAll("[data-wr-skeleton]")]

/** What assistive technology reads of a row: its text outside aria-hidden parts, word by word. */
const spokenText = (element: Element): string => {
  const words: Array<string> = []
  const walk = (node: Node) => {
    if (node instanceof Element && node.getAttribute("aria-hidden") === "true") return
    if (node.nodeType === Node.TEXT_NODE) words.push((node.textContent ?? "").trim())
    node.childNodes.forEach(walk)
  }
  walk(element)
  return words.filter((word) => word !== "").join(" ")
}

/** The list's children as a visitor meets them: a row's spoken text, or "skeleton" for a place held. */
const listOrder = (list: HTMLElement) =>
  [...list.children].map((child) => {
    if (child.hasAttribute("data-wr-skeleton")) return "skeleton"
    const button = child.querySelector("button")
    return button === null ? "?" : spokenText(button)
  })

describe("Connect: rows still coming hold their place", () => {
  it("while the catalogue answers: the installed wallet, then one placeholder per featured row, then All wallets", async () => {
    const { dialog, http } = await openConnect("hang")
    // The catalogue's client is fetched on this first call, so its request may leave just after the view shows.
    await waitFor(() => expect(http.to("/getWallets").length).toBeGreaterThan(0))
    const list = within(dialog).getByRole("list", { name: "Wallets" })
    expect(list.getAttribute("aria-busy")).toBe("true")
    expect(skeletons(dialog)).toHaveLength(FEATURED_WALLETS_COUNT)
    expect(skeletons(dialog).every((element) => element.getAttribute("aria-hidden") === "true")).toBe(true)
    // In the list's order: the installed wallet first, the placeholders, All wallets last.
    expect(listOrder(list)).toEqual(["Test Wallet Installed", ...Array<string>(FEATURED_WALLETS_COUNT).fill("skeleton"), "All wallets"])
    // Only real rows reach assistive technology.
    expect(within(list).getAllByRole("listitem")).toHaveLength(2)
    expect(screen.queryByText("No wallet was found in this browser.")).toBeNull()
  })

  it("once the catalogue answers, its wallets take the placeholders' place and the list is no longer busy", async () => {
    const { dialog } = await openConnect({ status: 200, json: { data: wallets, count: wallets.length } })
    await within(dialog).findByRole("button", { name: /Alpha Wallet/ })
    const list = within(dialog).getByRole("list", { name: "Wallets" })
    expect(skeletons(dialog)).toHaveLength(0)
    expect(list.getAttribute("aria-busy")).toBeNull()
    expect(listOrder(list)).toEqual(["Test Wallet Installed", "Alpha Wallet", "Beta Wallet", "Gamma Wallet", "Delta Wallet", "All wallets"])
  })
})

describe("Connect: help for a visitor without a wallet", () => {
  it("'What is a wallet?' explains, 'Get a wallet' leads to every wallet, and Back returns", async () => {
    const { dialog } = await openConnect({ status: 200, json: { data: wallets, count: wallets.length } })
    fireEvent.click(within(dialog).getByRole("button", { name: "What is a wallet?" }))
    const help = await findView("WhatIsAWallet")
    expect(within(help).getByRole("heading", { name: "What is a wallet?" })).toBeTruthy()
    expect(within(help).getAllByRole("listitem")).toHaveLength(3)
    fireEvent.click(within(help).getByRole("button", { name: "Get a wallet" }))
    const all = await findView("AllWallets")
    await within(all).findByText("Alpha Wallet")
    fireEvent.click(within(all).getByRole("button", { name: "Back" }))
    await findView("WhatIsAWallet")
  })
})

describe("Connect: the footer and the badges", () => {
  const catalogue: FakeAnswer = { status: 200, json: { data: wallets, count: wallets.length } }

  it("links the host's Terms and Privacy Policy, opening in a new tab; no legal line when the host names neither", async () => {
    const { dialog } = await openConnect(catalogue, {
      termsConditionsUrl: "https://host.example/terms",
      privacyPolicyUrl: "https://host.example/privacy"
    })
    const terms = within(dialog).getByRole("link", { name: "Terms" })
    const privacy = within(dialog).getByRole("link", { name: "Privacy Policy" })
    expect(terms.getAttribute("href")).toBe("https://host.example/terms")
    expect(privacy.getAttribute("href")).toBe("https://host.example/privacy")
    expect(terms.getAttribute("target")).toBe("_blank")
    expect(terms.getAttribute("rel")).toContain("noopener")
    expect(terms.closest("p")?.textContent).toBe("By connecting a wallet, you agree to this site's Terms and Privacy Policy.")

    cleanup()
    await runtime?.dispose()
    const { dialog: plain } = await openConnect(catalogue)
    expect(within(plain).queryByRole("link")).toBeNull()
    expect(within(plain).queryByText(/you agree/)).toBeNull()
  })

  it("a wallet used before comes before the others, marked Recent, and is not listed again among the catalogue's", async () => {
    const { dialog } = await openConnect(catalogue)
    await act(() => runtime!.run(Effect.flatMap(Connection, (connection) => connection.addRecentWallet(wallets[2]!))))
    const list = within(dialog).getByRole("list", { name: "Wallets" })
    await within(list).findByText("Recent")
    expect(listOrder(list)).toEqual(["Gamma Wallet Recent", "Test Wallet Installed", "Alpha Wallet", "Beta Wallet", "Delta Wallet", "All wallets"])
  })
})

describe("Connect: the order of its groups", () => {
  const catalogue: FakeAnswer = { status: 200, json: { data: wallets, count: wallets.length } }
  const hostWallets = { featuredWalletIds: ["delta"], customWallets: [{ id: "mine", name: "My Wallet" }] }

  it("follows spec 9 unless the host says otherwise: installed, the host's featured, its own, then recommended", async () => {
    const { dialog } = await openConnect(catalogue, hostWallets)
    const list = within(dialog).getByRole("list", { name: "Wallets" })
    await within(list).findByText("Delta Wallet")
    expect(listOrder(list)).toEqual(["Test Wallet Installed", "Delta Wallet", "My Wallet", "Alpha Wallet", "Beta Wallet", "Gamma Wallet", "All wallets"])
  })

  it("follows the host's connectorTypeOrder, the groups it leaves out after, in spec 9's order", async () => {
    const { dialog } = await openConnect(catalogue, { ...hostWallets, features: { connectorTypeOrder: ["recommended", "custom", "injected"] } })
    const list = within(dialog).getByRole("list", { name: "Wallets" })
    await within(list).findByText("Delta Wallet")
    expect(listOrder(list)).toEqual(["Alpha Wallet", "Beta Wallet", "Gamma Wallet", "My Wallet", "Test Wallet Installed", "Delta Wallet", "All wallets"])
  })

  it("while the catalogue answers, holds the places of the host's featured and of the recommended wallets where each will be", async () => {
    const { dialog } = await openConnect("hang", { ...hostWallets, features: { connectorTypeOrder: ["recommended", "injected"] } })
    const list = within(dialog).getByRole("list", { name: "Wallets" })
    // Recommended first (3 of the 4), the installed wallet, the host's one featured wallet, then its own.
    expect(listOrder(list)).toEqual(["skeleton", "skeleton", "skeleton", "Test Wallet Installed", "skeleton", "My Wallet", "All wallets"])
    expect(skeletons(dialog)).toHaveLength(FEATURED_WALLETS_COUNT)
  })
})

describe("Connect with a page that announces many wallets", () => {
  it("lists the first 8 installed wallets and leaves the rest to All wallets, which lists every one", async () => {
    const many = Array.from({ length: 30 }, (_, i) =>
      testWallet({ id: `wallet-${i}`, name: `Announced ${String(i).padStart(2, "0")}`, rdns: `example.announced${i}` })
    )
    const http = makeFakeHttp(() => ({ status: 200, json: { data: [], count: 0 } }))
    runtime = runtimeFor(many, { http: http.layer })
    renderHost(runtime)
    await act(() => runtime!.run(Effect.flatMap(Modal, (m) => m.open({ view: "Connect" }))))
    const dialog = await findView("Connect")
    await within(dialog).findByRole("button", { name: /Announced 00/ })
    expect(within(dialog).getAllByRole("button", { name: /^Announced/ })).toHaveLength(8)
    fireEvent.click(within(dialog).getByRole("button", { name: "All wallets" }))
    const all = await findView("AllWallets")
    expect(await within(all).findByText(/30 wallets|Announced 29/)).toBeTruthy()
  })
})
