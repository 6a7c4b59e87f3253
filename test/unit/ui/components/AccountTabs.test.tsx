// @vitest-environment happy-dom
import { act, cleanup, fireEvent, waitFor, within } from "@testing-library/react"
import { Effect } from "effect"
import { afterEach, describe, expect, it } from "vitest"
import { localChainA, localChainB } from "../../../../src/domain/networks"
import type { WalletRuntime } from "../../../../src/runtime"
import { Connection } from "../../../../src/services/Connection"
import { Modal } from "../../../../src/services/Modal"
import { type FakeAnswer, makeFakeHttp } from "../../support/fakeHttpClient"
import { ALICE, findView, renderHost, runtimeFor, testWallet } from "./support"

let runtime: WalletRuntime | undefined

afterEach(async () => {
  cleanup()
  await runtime?.dispose()
  runtime = undefined
})

const balance = (name: string, symbol: string, numeric: string, value: number | undefined) => ({
  name,
  symbol,
  chainId: "eip155:31337",
  ...(value !== undefined ? { value } : {}),
  price: 1,
  quantity: { decimals: "18", numeric },
  iconUrl: `data:image/svg+xml,${symbol}`
})

const hash = (n: number) => `0x${n.toString(16).padStart(64, "0")}`
const mined = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString()
const transaction = (n: number, daysAgo: number, operationType: string, symbol: string, numeric: string, status = "confirmed") => ({
  id: hash(n),
  metadata: { minedAt: mined(daysAgo), chain: "eip155:31337", operationType, status, sentFrom: ALICE, sentTo: ALICE, hash: hash(n) },
  transfers: [{ fungible_info: { symbol, icon: { url: `data:image/svg+xml,${symbol}` } }, quantity: { numeric } }]
})

const CONTRACT = "0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0"
const nft = (id: number, spam = false) => ({
  chainId: "eip155:31337",
  contract: `eip155:31337:${CONTRACT}`,
  standard: "erc721",
  tokenId: String(id),
  name: spam ? `Claim Your Reward #${id}` : `Collectible #${id}`,
  collection: spam ? { name: "Claim Your Reward", symbol: "CLAIM" } : { name: "Collectibles", symbol: "WRC" },
  imageUrl: `data:image/svg+xml,${id}`,
  flags: { is_spam: spam }
})

interface Script {
  readonly balances?: "down" | "unsupported" | ReadonlyArray<ReturnType<typeof balance>>
  /** Pages of history by cursor ('' for the first); "down" fails every read until `history.up()` is called. */
  readonly history?: Record<string, { readonly data: ReadonlyArray<unknown>; readonly next: string | null }>
  /** Pages of NFTs by cursor; none means the NFT reads fail. */
  readonly nfts?: Record<string, { readonly data: ReadonlyArray<unknown>; readonly next: string | null }>
}

/** A blockchain service answering as the script says; it records the history cursors asked for. */
const service = (script: Script) => {
  const asked: Array<string> = []
  let historyDown = script.history === undefined
  const http = makeFakeHttp((request): FakeAnswer => {
    const path = request.url.pathname
    if (path.endsWith("/v1/supported-chains")) {
      return { status: 200, json: { http: script.balances === "unsupported" ? [] : ["eip155:31337"], ws: [] } }
    }
    if (path.endsWith(`/v1/account/${ALICE}/balance`)) {
      if (script.balances === "down") return { status: 503, json: {} }
      return { status: 200, json: { balances: Array.isArray(script.balances) ? script.balances : [] } }
    }
    if (path.endsWith(`/v1/account/${ALICE}/history`)) {
      const cursor = request.url.searchParams.get("cursor") ?? ""
      asked.push(cursor)
      if (historyDown) return { status: 500, json: {} }
      return { status: 200, json: script.history?.[cursor] ?? { data: [], next: null } }
    }
    if (path.endsWith(`/v1/account/${ALICE}/nfts`)) {
      const page = script.nfts?.[request.url.searchParams.get("cursor") ?? ""]
      return page === undefined ? { status: 500, json: {} } : { status: 200, json: page }
    }
    if (path.endsWith(`/v1/identity/${ALICE}`)) return { status: 200, json: { name: null, avatar: null } }
    return { status: 404, json: {} }
  })
  return { http, asked, up: () => (historyDown = false) }
}

const EXPLORER = "http://explorer.test"
// Local Chain A with an explorer, so activity rows link to it.
const chainA = { ...localChainA, blockExplorers: { default: { name: "Local explorer", url: EXPLORER } } }

const openAccount = async (script: Script, features: { readonly history?: boolean } = {}) => {
  const api = service(script)
  const wallet = runtimeFor(testWallet(), { http: api.http.layer, options: { networks: [chainA, localChainB], features } })
  runtime = wallet
  renderHost(wallet)
  await act(async () => {
    await wallet.run(Effect.flatMap(Connection, (c) => c.connect({ connectorId: "test-wallet", networks: [chainA] })))
    await wallet.run(Effect.flatMap(Modal, (m) => m.open()))
  })
  return { account: await findView("Account"), api }
}

const tab = (account: HTMLElement, name: string) => within(account).getByRole("tab", { name })

describe("the Tokens tab", () => {
  it("lists the tokens by USD value with quantity (3 decimals) and value, and their total on top", async () => {
    const { account } = await openAccount({
      balances: [
        balance("Wrapped USD", "WUSD", "10.5", 10.5),
        balance("Ether", "ETH", "1.23456789", 3086.42),
        balance("Test Token", "TST", "7", undefined)
      ]
    })
    const list = await within(account).findByRole("list", { name: "Tokens" })
    const rows = within(list).getAllByRole("listitem").map((row) => row.textContent)
    expect(rows).toEqual(["Ether1.234 ETH$3,086.42", "Wrapped USD10.5 WUSD$10.50", "Test Token7 TST$0.00"])
    expect(within(account).getByText("$3,096.92")).toBeTruthy()
  })

  it("a network the service does not serve for balances shows $0.00 and says so; a failure says 'Token Balance Unavailable'", async () => {
    const { account } = await openAccount({ balances: "unsupported" })
    expect(await within(account).findByText("Token balances are not available on this network.")).toBeTruthy()
    expect(within(account).getByText("$0.00")).toBeTruthy()
    cleanup()
    await runtime?.dispose()
    const down = await openAccount({ balances: "down" })
    await waitFor(() => expect(within(down.account).getAllByText("Token Balance Unavailable").length).toBeGreaterThan(0))
  })
})

describe("the Activity tab", () => {
  it("groups the activity by day with signed amounts, statuses and explorer links, and loads the next page on request", async () => {
    const { account, api } = await openAccount({
      balances: [],
      history: {
        "": { data: [transaction(1, 0, "receive", "WUSD", "5"), transaction(2, 0, "send", "ETH", "0.25", "failed")], next: "page2" },
        page2: { data: [transaction(3, 1, "withdraw", "WUSD", "1234.5678")], next: null }
      }
    })
    fireEvent.click(tab(account, "Activity"))
    const today = await within(account).findByRole("region", { name: "Today" })
    const links = within(today).getAllByRole("link")
    expect(links.map((link) => link.textContent)).toEqual([
      expect.stringMatching(/^Received.*\+5 WUSD \(opens the explorer\)$/),
      expect.stringMatching(/^SentFailed0\.25 ETH \(opens the explorer\)$/)
    ])
    expect(links[0]?.getAttribute("href")).toBe(`${EXPLORER}/tx/${hash(1)}`)
    expect(links[0]?.getAttribute("rel")).toBe("noopener noreferrer")
    fireEvent.click(within(account).getByRole("button", { name: "Load more" }))
    const yesterday = await within(account).findByRole("region", { name: "Yesterday" })
    expect(within(yesterday).getByRole("link").textContent).toMatch(/^Withdrew.*−1,234.567 WUSD/)
    expect(within(account).queryByRole("button", { name: "Load more" })).toBeNull()
    expect(api.asked).toEqual(["", "page2"])
  })

  it("says 'Failed to fetch transactions' with a retry that starts again from the first page", async () => {
    const { account, api } = await openAccount({ balances: [] })
    fireEvent.click(tab(account, "Activity"))
    const panel = within(account).getByRole("tabpanel")
    expect(await within(panel).findByText("Failed to fetch transactions")).toBeTruthy()
    api.up()
    fireEvent.click(within(account).getByRole("button", { name: "Try again" }))
    expect(await within(account).findByText("No activity yet.")).toBeTruthy()
    expect(api.asked).toEqual(["", ""])
  })
})

describe("the NFTs tab", () => {
  it("shows the account's NFTs two by two without spam, loads more, and a chosen one's details with its explorer link", async () => {
    const { account } = await openAccount({
      balances: [],
      nfts: { "": { data: [nft(5), nft(1, true), nft(4)], next: "more" }, more: { data: [nft(2)], next: null } }
    })
    fireEvent.click(tab(account, "NFTs"))
    const grid = await within(account).findByRole("list", { name: "NFTs" })
    expect(within(grid).getAllByRole("button").map((b) => b.textContent)).toEqual(["Collectible #5Collectibles", "Collectible #4Collectibles"])
    fireEvent.click(within(account).getByRole("button", { name: "Load more" }))
    await waitFor(() => expect(within(grid).getAllByRole("button")).toHaveLength(3))
    fireEvent.click(within(grid).getByRole("button", { name: /Collectible #4/ }))
    const heading = await within(account).findByRole("heading", { name: "Collectible #4" })
    expect(document.activeElement).toBe(heading)
    const detail = within(account).getByRole("region", { name: "Collectible #4" })
    expect(within(detail).getByText("Collectibles (WRC)")).toBeTruthy()
    expect(within(detail).getByText("4")).toBeTruthy()
    expect(within(detail).getByRole("link").getAttribute("href")).toBe(`${EXPLORER}/nft/${CONTRACT}/4`)
    fireEvent.click(within(detail).getByRole("button", { name: "All NFTs" }))
    expect(await within(account).findByRole("list", { name: "NFTs" })).toBeTruthy()
  })

  it("says 'Failed to fetch NFTs' in place with a retry", async () => {
    const { account } = await openAccount({ balances: [] })
    fireEvent.click(tab(account, "NFTs"))
    const panel = within(account).getByRole("tabpanel")
    expect(await within(panel).findByText("Failed to fetch NFTs")).toBeTruthy()
    expect(within(panel).getByRole("button", { name: "Try again" })).toBeTruthy()
  })
})

describe("features.history", () => {
  it("off: no Activity tab and no history asked; on (the default): the tab is there", async () => {
    const { account, api } = await openAccount({ balances: [], history: { "": { data: [], next: null } } }, { history: false })
    await within(account).findByRole("tab", { name: "Tokens" })
    expect(within(account).getAllByRole("tab").map((t) => t.textContent)).toEqual(["Tokens", "NFTs"])
    expect(api.asked).toEqual([])
    cleanup()
    await runtime?.dispose()
    const shown = await openAccount({ balances: [], history: { "": { data: [], next: null } } })
    await within(shown.account).findByRole("tab", { name: "Activity" })
    expect(within(shown.account).getAllByRole("tab").map((t) => t.textContent)).toEqual(["Tokens", "NFTs", "Activity"])
  })
})
