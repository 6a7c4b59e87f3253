import { Cause, Effect, SubscriptionRef } from "effect"
import * as AsyncResult from "effect/reactivity/AsyncResult"
import { afterEach, describe, expect, it, vi } from "vitest"
import { NATIVE_TOKEN_ADDRESS } from "../../../src/domain/Api"
import { localChainA } from "../../../src/domain/networks"
import type { Transaction } from "../../../src/domain/Portfolio"
import type { WalletCatalogEntry } from "../../../src/domain/Wallet"
import { testLayer } from "../../../src/layers/Test"
import { makeWalletRuntime, type WalletRuntime } from "../../../src/runtime"
import { Connection } from "../../../src/services/Connection"
import { Notifications } from "../../../src/services/Notifications"
import { makeFakeWallet } from "../../../src/services/fakes/FakeWallet"
import {
  accountBalanceAtom,
  accountIdentityAtom,
  accountTokenBalancesAtom,
  activityAtom,
  loadMoreActivityAtom
} from "../../../src/ui/atoms/account"
import { featuredWalletsAtom, loadMoreWalletsFn, searchWalletsFn, walletListAtom, walletSearchAtom } from "../../../src/ui/atoms/wallets"
import { type FakeAnswer, type FakeHttp, makeFakeHttp, type RecordedRequest } from "../support/fakeHttpClient"

const ALICE = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"

const WALLETS: ReadonlyArray<WalletCatalogEntry> = Array.from({ length: 60 }, (_, i) => ({
  id: `w${i}`,
  name: `${i % 2 === 1 ? "Amber" : "Birch"} ${i}`,
  image_id: `img-${i}`,
  chains: ["eip155:31337"]
}))

const tx = (id: string): Transaction => ({
  id,
  metadata: {
    minedAt: "2025-01-01T00:00:00.000Z",
    chain: "eip155:31337",
    operationType: "send",
    status: "confirmed",
    sentFrom: ALICE,
    sentTo: ALICE
  },
  transfers: []
})

/** A catalogue and blockchain service in one fake; history is two pages unless `historyFails`. */
const services = (script: { historyFails?: boolean; balanceFails?: boolean } = {}) =>
  makeFakeHttp((request: RecordedRequest): FakeAnswer => {
    const path = request.url.pathname
    const params = request.url.searchParams
    if (path === "/getWallets") {
      const search = params.get("search")?.toLowerCase() ?? ""
      const matching = WALLETS.filter((w) => w.name.toLowerCase().includes(search))
      const entries = Number(params.get("entries"))
      const start = (Number(params.get("page")) - 1) * entries
      return { status: 200, json: { data: matching.slice(start, start + entries), count: matching.length } }
    }
    if (path.startsWith("/getWalletImage/")) return { status: 200, text: "<svg/>" }
    if (path === "/v1/supported-chains") return { status: 200, json: { http: ["eip155:31337"], ws: [] } }
    if (path.endsWith("/balance")) {
      if (script.balanceFails === true) return { status: 503, json: { error: "down" } }
      return {
        status: 200,
        json: {
          balances: [
            {
              name: "Ether",
              symbol: "ETH",
              chainId: "eip155:31337",
              address: `eip155:31337:${NATIVE_TOKEN_ADDRESS}`,
              price: 3000,
              quantity: { decimals: "18", numeric: "2.5" },
              iconUrl: "x"
            }
          ]
        }
      }
    }
    if (path.startsWith("/v1/identity/")) return { status: 200, json: { name: "alice.wallet.test", avatar: null } }
    if (path.endsWith("/history")) {
      if (script.historyFails === true) return { status: 500, json: { error: "down" } }
      return params.get("cursor") === "page2"
        ? { status: 200, json: { data: [tx("t3")], next: null } }
        : { status: 200, json: { data: [tx("t1"), tx("t2")], next: "page2" } }
    }
    return { status: 404, json: { error: "not found" } }
  })

let runtime: WalletRuntime | undefined
afterEach(async () => {
  await runtime?.dispose()
  runtime = undefined
})

const start = async (http: FakeHttp, connect: boolean) => {
  const fake = Effect.runSync(makeFakeWallet({ families: { eip155: { accounts: [{ address: ALICE, type: "eoa" }], chainId: 31337 } } }))
  const wallet = makeWalletRuntime(
    {
      projectId: "p",
      networks: [localChainA],
      endpoints: { walletCatalog: "http://services.test", blockchainApi: "http://services.test" }
    },
    { layer: (options, alerts) => testLayer(options, { wallets: [fake], alerts, httpClient: http.layer }) }
  )
  runtime = wallet
  if (connect) {
    await wallet.run(Effect.flatMap(Connection, (c) => c.connect({ connectorId: "injected", networks: [localChainA] })))
  }
  return wallet
}

const snackbarOf = (wallet: WalletRuntime) =>
  wallet.run(Effect.flatMap(Notifications, (n) => Effect.map(SubscriptionRef.get(n.state), (state) => state.snackbar)))

/** Waits until the state the check reads has come (atoms follow the services a scheduler turn or more later). */
const eventually = (check: () => void) => vi.waitFor(check, { timeout: 5_000, interval: 5 })

describe("wallet atoms", () => {
  it("nothing is fetched until a wallet view reads the list; then pages, featured and search follow the catalogue", async () => {
    const http = services()
    const wallet = await start(http, false)
    await wallet.run(Effect.void)
    expect(http.requests).toEqual([])

    const unmount = [wallet.registry.mount(walletListAtom), wallet.registry.mount(featuredWalletsAtom), wallet.registry.mount(walletSearchAtom)]
    await eventually(() => expect(wallet.registry.get(walletListAtom).wallets).toHaveLength(40))
    expect(wallet.registry.get(walletListAtom)).toMatchObject({ count: 60, hasMore: true, loading: false, offline: false })
    expect(wallet.registry.get(featuredWalletsAtom).map((item) => item.wallet.id)).toEqual(["w0", "w1", "w2", "w3"])

    wallet.registry.set(loadMoreWalletsFn, undefined)
    await eventually(() => expect(wallet.registry.get(walletListAtom).wallets).toHaveLength(60))
    expect(wallet.registry.get(walletListAtom).hasMore).toBe(false)

    wallet.registry.set(searchWalletsFn, " amber 5")
    expect(wallet.registry.get(walletSearchAtom)).toMatchObject({ input: " amber 5", query: "amber 5", loading: true })
    await eventually(() => expect(wallet.registry.get(walletSearchAtom).loading).toBe(false))
    expect(wallet.registry.get(walletSearchAtom).results.map((item) => item.wallet.name)).toEqual(["Amber 5", "Amber 51", "Amber 53", "Amber 55", "Amber 57", "Amber 59"])
    unmount.forEach((f) => f())
  })
})

describe("account atoms", () => {
  it("a disconnected visitor asks nothing and sees empty values", async () => {
    const http = services()
    const wallet = await start(http, false)
    const unmount = [wallet.registry.mount(accountBalanceAtom), wallet.registry.mount(activityAtom)]
    await eventually(() => expect(AsyncResult.isSuccess(wallet.registry.get(accountBalanceAtom))).toBe(true))
    expect(AsyncResult.getOrElse(wallet.registry.get(accountBalanceAtom), () => "none")).toBeUndefined()
    expect(AsyncResult.getOrElse(wallet.registry.get(activityAtom), () => undefined)).toMatchObject({ items: [], done: true })
    expect(http.requests).toEqual([])
    unmount.forEach((f) => f())
  })

  it("balance, token balances and identity of the connected account", async () => {
    const http = services()
    const wallet = await start(http, true)
    const unmount = [
      wallet.registry.mount(accountBalanceAtom),
      wallet.registry.mount(accountTokenBalancesAtom),
      wallet.registry.mount(accountIdentityAtom)
    ]
    await eventually(() =>
      expect(AsyncResult.getOrElse(wallet.registry.get(accountBalanceAtom), () => undefined)).toEqual({ balance: "2.5", symbol: "ETH" })
    )
    await eventually(() =>
      expect(AsyncResult.getOrElse(wallet.registry.get(accountIdentityAtom), () => undefined)).toEqual({
        profileName: "alice.wallet.test",
        profileImage: null
      })
    )
    expect(AsyncResult.getOrElse(wallet.registry.get(accountTokenBalancesAtom), () => []).map((t) => t.symbol)).toEqual(["ETH"])
    unmount.forEach((f) => f())
  })

  it("activity loads its first page when read and the next on request, until every page is in", async () => {
    const http = services()
    const wallet = await start(http, true)
    const unmount = wallet.registry.mount(activityAtom)
    const activity = () => AsyncResult.getOrElse(wallet.registry.get(activityAtom), () => undefined)
    await eventually(() => expect(activity()).toMatchObject({ loading: false, done: false }))
    expect(activity()?.items.map((t) => t.id)).toEqual(["t1", "t2"])

    wallet.registry.set(loadMoreActivityAtom, undefined)
    await eventually(() => expect(activity()?.done).toBe(true))
    expect(activity()?.items.map((t) => t.id)).toEqual(["t1", "t2", "t3"])
    const historyRequests = http.requests.filter((r) => r.url.pathname.endsWith("/history"))
    expect(historyRequests.map((r) => r.url.searchParams.get("cursor"))).toEqual([null, "page2"])

    wallet.registry.set(loadMoreActivityAtom, undefined)
    await wallet.run(Effect.void)
    expect(http.requests.filter((r) => r.url.pathname.endsWith("/history"))).toHaveLength(2)
    unmount()
  })

  it("a history failure empties the list and says 'Failed to fetch transactions'", async () => {
    const http = services({ historyFails: true })
    const wallet = await start(http, true)
    const unmount = wallet.registry.mount(activityAtom)
    await eventually(() =>
      expect(AsyncResult.getOrElse(wallet.registry.get(activityAtom), () => undefined)?.error?.message).toBe(
        "Failed to fetch transactions"
      )
    )
    expect(AsyncResult.getOrElse(wallet.registry.get(activityAtom), () => undefined)?.items).toEqual([])
    // The Activity tab says it in place, with its retry; no snackbar says it twice.
    expect(await snackbarOf(wallet)).toBeUndefined()
    unmount()
  })

  it("a balance the service cannot give says 'Token Balance Unavailable', in the atom and in a snackbar", async () => {
    const http = services({ balanceFails: true })
    const wallet = await start(http, true)
    const unmount = wallet.registry.mount(accountBalanceAtom)
    await eventually(() => expect(AsyncResult.isFailure(wallet.registry.get(accountBalanceAtom))).toBe(true))
    const result = wallet.registry.get(accountBalanceAtom)
    expect(AsyncResult.isFailure(result) ? Cause.squash(result.cause) : undefined).toHaveProperty("message", "Token Balance Unavailable")
    expect(await snackbarOf(wallet)).toMatchObject({ variant: "error", message: "Token Balance Unavailable" })
    unmount()
  })
})
