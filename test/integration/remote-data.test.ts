import { Effect, Layer, Option, Schema, Stream, SubscriptionRef } from "effect"
import * as FetchHttpClient from "effect/http/FetchHttpClient"
import * as HttpClient from "effect/http/HttpClient"
import { createPublicClient, createWalletClient, formatEther, http, parseEther, type PublicClient } from "viem"
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { testWalletIds } from "../../devstack/catalogue"
import { devChain } from "../../devstack/evm/chains"
import { type EvmInfo, startEvm } from "../../devstack/evm/index"
import type { Started } from "../../server/src/lib/Started"
import { type ServicesInfo, startServices } from "../../devstack/services"
import { RecordedEvents } from "../../server/src/services/api"
import { Alerts } from "../../src/domain/alerts"
import type { CaipAddress } from "../../src/domain/Caip"
import { localChainA } from "../../src/domain/networks"
import { decodeOptionsSync } from "../../src/domain/Options"
import { Analytics } from "../../src/services/Analytics"
import { BlockchainApi } from "../../src/services/BlockchainApi"
import { ChainAdapters } from "../../src/services/ChainAdapter"
import { Config } from "../../src/services/Config"
import { Connection } from "../../src/services/Connection"
import { Connectors } from "../../src/services/connectors/Connectors"
import { Notifications } from "../../src/services/Notifications"
import { Platform } from "../../src/services/Platform"
import { Storage } from "../../src/services/Storage/Storage"
import { WalletCatalog, type WalletCatalogState } from "../../src/services/WalletCatalog"

let evm: Started<EvmInfo>
let services: Started<ServicesInfo>
let rpcUrl: string

beforeAll(async () => {
  evm = await startEvm({ chainIds: [31337] })
  services = await startServices({ evm: evm.info })
  rpcUrl = evm.info.chains[0]?.rpcUrl ?? ""
})

afterAll(async () => {
  await services?.stop()
  await evm?.stop()
})

const optionsWith = (extra: Record<string, unknown> = {}) =>
  decodeOptionsSync({
    projectId: "devstack-project",
    networks: [{ ...localChainA, rpcUrls: { default: { http: [rpcUrl] } } }],
    endpoints: { blockchainApi: services.info.url, walletCatalog: services.info.url },
    ...extra
  })

type Remote = BlockchainApi | WalletCatalog | Analytics | Notifications

/** Runs `effect` against the real services server, counting every request that leaves. */
const run = <A, E>(options: ReturnType<typeof optionsWith>, effect: Effect.Effect<A, E, Remote>, sent: Array<string> = []) => {
  const counted = Layer.effect(HttpClient.HttpClient)(
    Effect.map(HttpClient.HttpClient, (client) => HttpClient.tapRequest(client, (request) => Effect.sync(() => sent.push(request.url))))
  ).pipe(Layer.provide(FetchHttpClient.layer))
  const layer = Layer.mergeAll(BlockchainApi.layer, WalletCatalog.layer, Analytics.layer).pipe(
    Layer.provideMerge(Connection.layer),
    Layer.provideMerge(Notifications.layer),
    Layer.provide(Storage.layerMemory),
    Layer.provide(ChainAdapters.layer([])),
    Layer.provide(Connectors.layer([])),
    Layer.provide(Platform.layerFixed({ href: "http://127.0.0.1:5173/shop" })),
    Layer.provide(Config.layer(options)),
    Layer.provide(counted)
  )
  return Effect.runPromise(Effect.provide(effect, layer))
}

const whenCatalog = (check: (state: WalletCatalogState) => boolean) =>
  Effect.flatMap(WalletCatalog, (catalog) =>
    SubscriptionRef.changes(catalog.state).pipe(Stream.filter(check), Stream.runHead, Effect.map(Option.getOrThrow))
  )

const reader = () => createPublicClient({ chain: devChain(31337, rpcUrl), transport: http(rpcUrl) }) as PublicClient

describe("remote data against the devstack services", () => {
  it("a dev account's native balance read through BlockchainApi is the chain's", async () => {
    const account = evm.info.accounts[3]?.address ?? "0x"
    const onChain = await reader().getBalance({ address: account })
    const balance = await run(
      optionsWith(),
      Effect.flatMap(BlockchainApi, (api) => api.nativeBalance(`eip155:31337:${account}` as CaipAddress))
    )
    expect(balance).toEqual({ balance: formatEther(onChain), symbol: "ETH" })
  })

  it("a transfer appears in the receiver's history and balance", async () => {
    const receiver = privateKeyToAccount(generatePrivateKey()).address
    const sender = privateKeyToAccount(evm.info.accounts[5]?.privateKey ?? "0x")
    const wallet = createWalletClient({ account: sender, chain: devChain(31337, rpcUrl), transport: http(rpcUrl) })
    const hash = await wallet.sendTransaction({ to: receiver, value: parseEther("0.25") })
    await reader().waitForTransactionReceipt({ hash, pollingInterval: 20 })

    const { history, balance } = await run(
      optionsWith(),
      Effect.gen(function* () {
        const api = yield* BlockchainApi
        return {
          history: yield* api.transactions(receiver, { chainId: localChainA.caipNetworkId }),
          balance: yield* api.nativeBalance(`eip155:31337:${receiver}` as CaipAddress)
        }
      })
    )
    expect(history.data.map((tx) => [tx.id, tx.metadata.operationType, tx.metadata.sentFrom])).toEqual([[hash, "receive", sender.address]])
    expect(balance.balance).toBe("0.25")
  })

  it("the catalogue pages, searches and honours include/exclude through WalletCatalog", async () => {
    const { pages, search, image } = await run(
      optionsWith(),
      Effect.gen(function* () {
        const catalog = yield* WalletCatalog
        yield* catalog.load
        yield* catalog.loadNextPage
        const pages = yield* SubscriptionRef.get(catalog.state)
        yield* catalog.search("  amber ")
        const search = (yield* whenCatalog((s) => s.search.query === "amber" && !s.search.loading)).search
        const image = yield* catalog.preloadImage(pages.wallets[0]?.imageUrl ?? "")
        return { pages, search, image }
      })
    )
    expect(pages).toMatchObject({ source: "api", pagesLoaded: 2 })
    expect(new Set(pages.wallets.map((item) => item.wallet.id)).size).toBe(80)
    expect(pages.count).toBeGreaterThan(80)
    expect(pages.wallets.every((item) => item.wallet.chains.includes("eip155:31337"))).toBe(true)
    expect(search.results.length).toBeGreaterThan(0)
    expect(search.results.every((item) => item.wallet.name.toLowerCase().includes("amber"))).toBe(true)
    expect(image).toBe(true)

    const filtered = await run(
      optionsWith({ includeWalletIds: [testWalletIds.web, testWalletIds.desktop, testWalletIds.mobile], excludeWalletIds: [testWalletIds.desktop] }),
      Effect.flatMap(WalletCatalog, (catalog) => Effect.andThen(catalog.load, SubscriptionRef.get(catalog.state)))
    )
    expect(filtered.wallets.map((item) => item.wallet.id)).toEqual([testWalletIds.web, testWalletIds.mobile])
    expect(filtered.count).toBe(2)
  })

  it("an unknown projectId raises the Invalid Project ID alert, and the bundled wallets still show", async () => {
    const { alerts, catalog, identity } = await run(
      optionsWith({ projectId: "not-a-project" }),
      Effect.gen(function* () {
        const catalog = yield* WalletCatalog
        yield* catalog.load
        const identity = yield* Effect.flip(
          Effect.flatMap(BlockchainApi, (api) => api.identity(evm.info.accounts[0]?.address ?? ""))
        )
        const notifications = yield* Notifications
        return {
          alerts: (yield* SubscriptionRef.get(notifications.state)).alerts,
          catalog: yield* SubscriptionRef.get(catalog.state),
          identity
        }
      })
    )
    expect(alerts).toEqual([Alerts.INVALID_PROJECT_ID])
    expect(identity.message).toBe("HTTP status code: 401")
    expect(catalog.source).toBe("fallback")
    expect(catalog.wallets.length).toBeGreaterThan(10)
  })

  it("analytics off, by the host or by the project's config, sends no event; on, it does", async () => {
    const eventsOf = async (projectId: string) => {
      const answer = await fetch(`${services.info.url}/__events?projectId=${projectId}`)
      return Schema.decodeUnknownSync(RecordedEvents)(await answer.json()).events
    }
    const track = Effect.flatMap(Analytics, (analytics) =>
      Effect.andThen(analytics.track("MODAL_OPEN"), analytics.track("SELECT_WALLET", { name: "Amber Pouch" }))
    )

    const hostOff: Array<string> = []
    await run(optionsWith({ features: { analytics: false } }), track, hostOff)
    expect(hostOff).toEqual([])

    const projectOff: Array<string> = []
    await run(optionsWith({ projectId: "devstack-no-analytics" }), track, projectOff)
    expect(projectOff.map((url) => new URL(url).pathname)).toEqual(["/getAnalyticsConfig"])
    expect(await eventsOf("devstack-no-analytics")).toEqual([])

    const before = (await eventsOf("devstack-project")).length
    await run(optionsWith(), track)
    const recorded = (await eventsOf("devstack-project")).slice(before)
    expect(recorded.map((e) => [e.event.props.event, e.event.domain])).toEqual([
      ["MODAL_OPEN", "127.0.0.1"],
      ["SELECT_WALLET", "127.0.0.1"]
    ])
  })
})
