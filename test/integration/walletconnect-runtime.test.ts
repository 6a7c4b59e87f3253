import { randomUUID } from "node:crypto"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { buildApprovedNamespaces } from "@walletconnect/utils"
import { Effect, Layer, Option, Stream, SubscriptionRef } from "effect"
import * as FetchHttpClient from "effect/http/FetchHttpClient"
import * as KeyValueStore from "effect/persistence/KeyValueStore"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startEvm } from "../../devstack/evm/index"
import type { Started } from "../../devstack/lib/Started"
import { type RelayInfo, startRelay } from "../../devstack/relay"
import type { Alert } from "../../src/domain/alerts"
import { type CaipNetwork, localChainA, localChainB, withDefaultRpcUrls } from "../../src/domain/Network"
import type { HostOptions } from "../../src/domain/Options"
import type { WalletCatalogEntry } from "../../src/domain/Wallet"
import { coreLayer } from "../../src/layers/Core"
import { makeWalletRuntime, type WalletRuntime } from "../../src/runtime"
import { ChainAdapters } from "../../src/services/ChainAdapter"
import { Config } from "../../src/services/Config"
import { Connection } from "../../src/services/Connection"
import { makeStaticDirectory } from "../../src/services/eip155/ProviderDirectory"
import { Platform } from "../../src/services/Platform"
import { RpcTransport } from "../../src/services/RpcTransport/RpcTransport"
import { Storage } from "../../src/services/Storage/Storage"
import * as Keys from "../../src/services/Storage/keys"
import { makeEip155AdapterWithWalletConnect } from "../../src/services/walletconnect/eip155"
import { EIP155_METHODS, SESSION_EVENTS } from "../../src/services/walletconnect/namespaces"
import { WalletConnect, WALLET_CONNECT_CONNECTOR_ID } from "../../src/services/walletconnect/WalletConnect"
import { walletConnectAlertsLayer } from "../../src/services/walletconnect/wiring"
import { privateKeyToAccount } from "viem/accounts"
import { initTestWalletKit } from "./support/walletKit"

// Without it, WalletConnect's Verify waits forever for the hosted verify server (offline here).
process.env.IS_VITEST = "true"

let relay: Started<RelayInfo>
let stopEvm: () => Promise<void> = async () => {}
let chainA: CaipNetwork
let chainB: CaipNetwork
let key: `0x${string}`
const cleanups: Array<() => Promise<void>> = []

beforeAll(async () => {
  const [evm, started] = await Promise.all([startEvm(), startRelay()])
  relay = started
  stopEvm = evm.stop
  const [a, b] = evm.info.chains
  if (a === undefined || b === undefined) throw new Error("two chains expected")
  chainA = withDefaultRpcUrls(localChainA, { http: [a.rpcUrl] })
  chainB = withDefaultRpcUrls(localChainB, { http: [b.rpcUrl] })
  key = evm.info.accounts[0]?.privateKey ?? "0x"
})

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined)
  await relay.stop()
  await stopEvm()
})

/** The page's localStorage, kept across "reloads" (runtimes made one after the other). */
const pageStorage = () => {
  const items = new Map<string, string>()
  return {
    get length() {
      return items.size
    },
    clear: () => items.clear(),
    getItem: (k: string) => items.get(k) ?? null,
    key: (i: number) => [...items.keys()][i] ?? null,
    removeItem: (k: string) => void items.delete(k),
    setItem: (k: string, v: string) => void items.set(k, v)
  }
}

/**
 * The runtime as src/layers/Live.ts builds it once WalletConnect is wired: WalletConnect provided to the eip155
 * adapter and merged into the environment, its alerts forwarded over the core.
 */
const runtimeLayer =
  (local: ReturnType<typeof pageStorage>, wc: { readonly prefix: string; readonly database: string }) =>
  (options: HostOptions, alerts: ReadonlyArray<Alert>) => {
    const config = Config.layer(options)
    const transport = RpcTransport.layer.pipe(Layer.provide(config), Layer.provide(FetchHttpClient.layer))
    const walletConnect = WalletConnect.layerWith({
      customStoragePrefix: wc.prefix,
      storageOptions: { database: wc.database }
    }).pipe(Layer.provide(config))
    const eip155 = Effect.gen(function* () {
      const rpc = yield* RpcTransport
      return yield* makeEip155AdapterWithWalletConnect({
        directory: yield* makeStaticDirectory([]),
        reads: (network, method, params) => rpc.request(network, { method, params })
      })
    })
    const chainAdapters = ChainAdapters.layerFrom([eip155]).pipe(Layer.provide(Layer.mergeAll(transport, walletConnect)))
    const storage = Storage.layer.pipe(Layer.provide(KeyValueStore.layerStorage(() => local)))
    return walletConnectAlertsLayer.pipe(
      Layer.provideMerge(
        coreLayer(
          Layer.mergeAll(storage, Platform.layerFixed({}), config, chainAdapters, transport, FetchHttpClient.layer, walletConnect),
          alerts
        )
      )
    )
  }

const wallet: WalletCatalogEntry = {
  id: "devstack-test-wallet",
  name: "Devstack Test Wallet",
  image_id: "x",
  mobile_link: "devstack-wallet://",
  chains: ["eip155:31337"]
}

const makeRuntime = (local: ReturnType<typeof pageStorage>, wc: { readonly prefix: string; readonly database: string }): WalletRuntime => {
  const runtime = makeWalletRuntime(
    {
      projectId: "devstack",
      networks: [chainA, chainB],
      metadata: { name: "Dapp", description: "Dapp under test", url: "http://127.0.0.1", icons: [] },
      endpoints: { relay: relay.info.url }
    },
    { layer: runtimeLayer(local, wc) }
  )
  cleanups.push(() => runtime.dispose())
  return runtime
}

const makeWallet = async () => {
  const account = privateKeyToAccount(key)
  const kit = await initTestWalletKit(relay.info.url)
  const state = { proposals: 0, deleted: 0 }
  kit.on("session_proposal", ({ id, params }) => {
    state.proposals++
    const namespaces = buildApprovedNamespaces({
      proposal: params,
      supportedNamespaces: {
        eip155: {
          chains: ["eip155:31337", "eip155:31338"],
          methods: [...EIP155_METHODS],
          events: [...SESSION_EVENTS],
          accounts: [`eip155:31337:${account.address}`, `eip155:31338:${account.address}`]
        }
      }
    })
    void kit.approveSession({ id, namespaces })
  })
  kit.on("session_delete", () => {
    state.deleted++
  })
  cleanups.push(async () => {
    await kit.core.relayer.transportClose().catch(() => undefined)
    kit.core.heartbeat.stop()
  })
  return { kit, state, address: account.address }
}

const until = async (check: () => boolean | Promise<boolean>) => {
  for (let i = 0; i < 400 && !(await check()); i++) await new Promise((resolve) => setTimeout(resolve, 25))
  expect(await check()).toBe(true)
}

const statusOf = (runtime: WalletRuntime) =>
  runtime.run(Effect.flatMap(Connection, (c) => Effect.map(SubscriptionRef.get(c.state), (s) => s.namespaces.eip155?.account)))

describe("WalletConnect in a wallet runtime (Connection, storage, reload)", () => {
  it("connects, remembers the wallet, survives a reload (reconnecting → connected) and disconnects both sides", async () => {
    const local = pageStorage()
    const wc = { prefix: `dapp-${randomUUID()}`, database: join(mkdtempSync(join(tmpdir(), "wc-")), "wc.db") }
    const peer = await makeWallet()
    const first = makeRuntime(local, wc)

    const connecting = first.run(
      Effect.flatMap(Connection, (c) =>
        c.connect({ namespace: "eip155", connectorId: WALLET_CONNECT_CONNECTOR_ID, network: chainA, wallet })
      )
    )
    const uri = await first.run(
      // WalletConnect is outside WalletServices: the runtime has it when the layers wire it in.
      Effect.flatMap(Effect.serviceOption(WalletConnect), (service) =>
        SubscriptionRef.changes(Option.getOrThrow(service).pairing).pipe(
          Stream.filter((s) => s._tag === "Ready"),
          Stream.runHead,
          Effect.map((s) => (Option.isSome(s) && s.value._tag === "Ready" ? s.value.uri : ""))
        )
      )
    )
    await peer.kit.pair({ uri })
    const session = await connecting
    expect(session.address).toBe(peer.address)
    expect((await statusOf(first))?.status).toBe("connected")
    expect(await first.run(Effect.flatMap(Storage, (s) => s.get(Keys.recentWallets)))).toEqual([wallet])
    await first.dispose()

    const second = makeRuntime(local, wc)
    expect((await statusOf(second))?.status).toBe("reconnecting")
    await until(async () => (await statusOf(second))?.status === "connected")
    expect((await statusOf(second))?.address).toBe(peer.address)
    expect(peer.state.proposals).toBe(1)

    await second.run(Effect.flatMap(Storage, (s) => s.set(Keys.walletConnectDeepLink, { href: "devstack-wallet://", name: wallet.name })))
    await second.run(Effect.flatMap(Connection, (c) => c.disconnect()))
    expect((await statusOf(second))?.status).toBe("disconnected")
    expect(await second.run(Effect.flatMap(Storage, (s) => s.get(Keys.walletConnectDeepLink)))).toBeNull()
    await until(() => peer.state.deleted === 1)
    expect(Object.keys(peer.kit.getActiveSessions())).toEqual([])
  })
})
