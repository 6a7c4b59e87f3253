/**
 * WalletConnect in a real wallet runtime (`makeWalletRuntime` over a layer built as `liveLayer` builds it, with
 * Node's storage and WalletConnect client settings): the visitor's connect flow and a host's programmatic connect,
 * through the devstack relay to the walletkit dev wallet serving eip155 and solana, with the services and chains of
 * the devstack behind. One session fills both families of the Connection; a reload restores both; disconnecting
 * either family ends both, on both sides.
 */
import type { AddressInfo } from "node:net"
import {
  address,
  createSolanaRpc,
  generateKeyPairSigner,
  getBase58Encoder,
  getPublicKeyFromAddress,
  type Rpc,
  type SignatureBytes,
  type SolanaRpcApi,
  verifySignature
} from "@solana/kit"
import { Effect, Layer, Option, Stream, SubscriptionRef } from "effect"
import * as FetchHttpClient from "effect/http/FetchHttpClient"
import * as KeyValueStore from "effect/persistence/KeyValueStore"
import { type Hex, verifyMessage } from "viem"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { WebSocketServer } from "ws"
import { type EvmInfo, startEvm } from "../../devstack/evm/index"
import type { Started } from "../../server/src/lib/Started"
import { type RelayInfo, startRelay } from "../../server/src/relay"
import { type ServicesInfo, startServices } from "../../devstack/services"
import { type SolanaInfo, startSolana } from "../../devstack/solana"
import { devSolanaKey } from "../../devstack/solana/keys"
import type { Alert } from "../../src/domain/alerts"
import { type CaipNetwork } from "../../src/domain/Network"
import { localChainA, localChainB, localSolana, withDefaultRpcUrls } from "../../src/domain/networks"
import type { HostOptions } from "../../src/domain/Options"
import type { WalletCatalogEntry } from "../../src/domain/Wallet"
import { coreLayer } from "../../src/layers/Core"
import { makeWalletRuntime, type WalletRuntime } from "../../src/runtime"
import { ChainAdapters, lazyAdapter, type ReadRpc } from "../../src/services/ChainAdapter"
import { Config } from "../../src/services/Config"
import { ConnectFlow } from "../../src/services/ConnectFlow"
import { Connection } from "../../src/services/Connection"
import type { Connector } from "../../src/services/connectors/Connector"
import { Connectors } from "../../src/services/connectors/Connectors"
import { Modal } from "../../src/services/Modal"
import { Notifications } from "../../src/services/Notifications"
import { Platform } from "../../src/services/Platform"
import { RpcTransport } from "../../src/services/RpcTransport/RpcTransport"
import { Storage } from "../../src/services/Storage/Storage"
import * as Keys from "../../src/services/Storage/keys"
import { WalletActions } from "../../src/services/WalletActions"
import { type PairingState, WalletConnect } from "../../src/services/walletconnect/WalletConnect"
import { walletConnectAlertsLayer } from "../../src/services/walletconnect/wiring"
import { until } from "./support/connectorContract"
import { dappSettings } from "./support/wcSettings"
import type { WalletConnectSettings } from "../../src/services/walletconnect/types"
import { type DevWalletKit, startDevWalletKit } from "./support/walletKit"

// Without it, WalletConnect's Verify waits forever for the hosted verify server (offline here).
process.env.IS_VITEST = "true"

let relay: Started<RelayInfo>
let evm: Started<EvmInfo>
let solana: Started<SolanaInfo>
let services: Started<ServicesInfo>
let rpc: Rpc<SolanaRpcApi>
let chainA: CaipNetwork
let chainB: CaipNetwork
let solanaNetwork: CaipNetwork
const cleanups: Array<() => Promise<void>> = []

beforeAll(async () => {
  ;[relay, evm, solana] = await Promise.all([startRelay(), startEvm(), startSolana()])
  services = await startServices({
    evm: evm.info,
    solana: { caipNetworkId: solana.info.caipNetworkId, rpcUrl: solana.info.rpcUrl, tokens: solana.info.tokens }
  })
  const [a, b] = evm.info.chains
  if (a === undefined || b === undefined) throw new Error("two chains expected")
  chainA = withDefaultRpcUrls(localChainA, { http: [a.rpcUrl] })
  chainB = withDefaultRpcUrls(localChainB, { http: [b.rpcUrl] })
  solanaNetwork = withDefaultRpcUrls(localSolana, { http: [solana.info.rpcUrl], webSocket: [solana.info.wsUrl] })
  rpc = createSolanaRpc(solana.info.rpcUrl)
})

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined)
  await services?.stop()
  await Promise.all([relay?.stop(), evm?.stop(), solana?.stop()])
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
type PageStorage = ReturnType<typeof pageStorage>
type DappStorage = WalletConnectSettings

/**
 * The runtime's layer as src/layers/Live.ts builds it, made for Node: the page's storage above instead of the
 * browser's, WalletConnect with its own storage prefix and database, its connector the only one (a Node page has
 * no injected or Wallet Standard wallets), and each family's adapter loaded on first use, reading through the
 * RPC transport.
 */
const runtimeLayer = (local: PageStorage, wc: DappStorage) => (options: HostOptions, alerts: ReadonlyArray<Alert>) => {
  const config = Config.layer(options)
  const transport = RpcTransport.layer.pipe(Layer.provide(config), Layer.provide(FetchHttpClient.layer))
  const walletConnect = WalletConnect.layerWith(wc).pipe(
    Layer.provide(config)
  )
  const connectors = Connectors.layerFrom([
    Effect.flatMap(WalletConnect, (service) => SubscriptionRef.make<ReadonlyArray<Connector>>(service.connector !== undefined ? [service.connector] : []))
  ]).pipe(Layer.provide(walletConnect))
  const adapters = ChainAdapters.layerFrom(
    Effect.gen(function* () {
      const transportService = yield* RpcTransport
      const reads: ReadRpc = (network, method, params) => transportService.request(network, { method, params })
      const tokenOf = (network: CaipNetwork) => options.tokens?.[network.caipNetworkId]
      return [
        lazyAdapter("eip155", () => import("../../src/services/eip155/Eip155Adapter").then((m) => m.makeEip155Adapter({ reads, tokenOf }))),
        lazyAdapter("solana", () => import("../../src/services/solana/SolanaAdapter").then((m) => m.makeSolanaAdapter({ reads, tokenOf })))
      ]
    })
  ).pipe(Layer.provide(transport))
  const storage = Storage.layer.pipe(Layer.provide(KeyValueStore.layerStorage(() => local)))
  return walletConnectAlertsLayer.pipe(
    Layer.provideMerge(
      coreLayer(Layer.mergeAll(storage, Platform.layerFixed({}), config, connectors, adapters, transport, FetchHttpClient.layer, walletConnect), alerts)
    )
  )
}

const catalogueWallet: WalletCatalogEntry = {
  id: "devstack-test-wallet",
  name: "Devstack Test Wallet",
  image_id: "x",
  mobile_link: "devstack-wallet://",
  chains: ["eip155:31337"]
}

const makeRuntime = (local: PageStorage, wc: DappStorage, relayUrl = relay.info.url): WalletRuntime => {
  const runtime = makeWalletRuntime(
    {
      projectId: "devstack-project",
      networks: [chainA, chainB, solanaNetwork],
      metadata: { name: "Dapp", description: "Dapp under test", url: "http://127.0.0.1", icons: [] },
      endpoints: { relay: relayUrl, rpcProxy: services.info.url, blockchainApi: services.info.url, walletCatalog: services.info.url }
    },
    { layer: runtimeLayer(local, wc) }
  )
  cleanups.push(() => runtime.dispose())
  return runtime
}

// The same settings (store and prefix) again are the same browser after a reload.
const diskStorage = (): DappStorage => dappSettings()

const makeWallet = async () => {
  const wallet = await startDevWalletKit({
    relayUrl: relay.info.url,
    evm: {
      privateKeys: evm.info.accounts.slice(0, 2).map((account) => account.privateKey),
      chains: evm.info.chains.map((chain) => ({ chainId: chain.chainId, name: `Local ${chain.chainId}`, rpcUrl: chain.rpcUrl })),
      chainId: 31337
    },
    solana: { rpcUrl: solana.info.rpcUrl, caipNetworkId: solana.info.caipNetworkId }
  })
  cleanups.push(() => wallet.close())
  return wallet
}

/** The pairing URI the runtime's WalletConnect shows (the QR code of the views). */
const shownUri = (runtime: WalletRuntime) =>
  runtime.run(
    // WalletConnect is outside WalletServices: the runtime has it because the layer wires it in.
    Effect.flatMap(Effect.serviceOption(WalletConnect), (service) =>
      SubscriptionRef.changes(Option.getOrThrow(service).pairing).pipe(
        Stream.filter((s): s is Extract<PairingState, { _tag: "Ready" }> => s._tag === "Ready"),
        Stream.runHead,
        Effect.timeoutOption("20 seconds"),
        Effect.map((s) => Option.getOrThrow(Option.flatten(s)).uri)
      )
    )
  )

const familiesOf = (runtime: WalletRuntime) =>
  runtime.run(
    Effect.flatMap(Connection, (c) =>
      Effect.map(SubscriptionRef.get(c.state), (s) => ({
        eip155: { status: s.namespaces.eip155?.account.status, address: s.namespaces.eip155?.account.address },
        solana: { status: s.namespaces.solana?.account.status, address: s.namespaces.solana?.account.address }
      }))
    )
  )

const statusesOf = async (runtime: WalletRuntime) => {
  const families = await familiesOf(runtime)
  return [families.eip155.status, families.solana.status]
}

const bothConnected = (runtime: WalletRuntime, wallet: DevWalletKit) => async () =>
  JSON.stringify(await familiesOf(runtime)) ===
  JSON.stringify({
    eip155: { status: "connected", address: wallet.evm!.address() },
    solana: { status: "connected", address: devSolanaKey(0).address }
  })

const verifiesSolana = async (message: string, signature: string, signer: string) =>
  verifySignature(await getPublicKeyFromAddress(address(signer)), getBase58Encoder().encode(signature) as SignatureBytes, new TextEncoder().encode(message))

describe("WalletConnect in a wallet runtime (ConnectFlow, Connection, storage, reload)", () => {
  it("the visitor connects through the flow; both families connect, the wallet and its link are remembered, a reload restores both, and disconnecting one family ends both on both sides", async () => {
    const local = pageStorage()
    const wc = diskStorage()
    const peer = await makeWallet()
    const first = makeRuntime(local, wc)

    // The visitor opens the modal and picks a phone wallet from the catalogue: its WalletConnect view connects.
    await first.run(Effect.flatMap(Modal, (modal) => modal.open()))
    await first.run(Effect.flatMap(ConnectFlow, (flow) => flow.choose({ wallet: catalogueWallet })))
    const uri = await shownUri(first)
    await first.run(Effect.flatMap(ConnectFlow, (flow) => flow.followedLink(`devstack-wallet://wc?uri=${encodeURIComponent(uri)}`)))
    await peer.pair(uri)
    await until(bothConnected(first, peer), "both families connected")
    const progress = await first.run(Effect.flatMap(ConnectFlow, (flow) => SubscriptionRef.get(flow.progress)))
    expect(progress._tag).toBe("Connected")
    expect(await first.run(Effect.flatMap(Modal, (modal) => Effect.map(SubscriptionRef.get(modal.state), (s) => s.open)))).toBe(false)
    expect(await first.run(Effect.flatMap(Storage, (s) => s.get(Keys.recentWallets)))).toEqual([catalogueWallet])
    expect(await first.run(Effect.flatMap(Storage, (s) => s.get(Keys.walletConnectDeepLink)))).toEqual({
      href: `devstack-wallet://wc?uri=${encodeURIComponent(uri)}`,
      name: catalogueWallet.name
    })
    await first.dispose()

    const second = makeRuntime(local, wc)
    expect(await statusesOf(second)).toEqual(["reconnecting", "reconnecting"])
    await until(bothConnected(second, peer), "both families restored")
    expect(peer.proposals).toHaveLength(1)

    const ended = await second.run(Effect.flatMap(Connection, (c) => c.disconnect("solana")))
    expect([...ended].sort()).toEqual(["eip155", "solana"])
    expect(await statusesOf(second)).toEqual(["disconnected", "disconnected"])
    expect(await second.run(Effect.flatMap(Storage, (s) => s.get(Keys.walletConnectDeepLink)))).toBeNull()
    await until(() => peer.deleted() === 1, "the wallet hearing the disconnect")
    expect(Object.keys(peer.kit.getActiveSessions())).toEqual([])

    // Nothing is left to restore.
    const third = makeRuntime(local, wc)
    expect(await statusesOf(third)).toEqual(["disconnected", "disconnected"])
  })

  it("a host connects WalletConnect programmatically and acts in both families through WalletActions", async () => {
    const peer = await makeWallet()
    const runtime = makeRuntime(pageStorage(), diskStorage())
    const connecting = runtime.run(Effect.flatMap(ConnectFlow, (flow) => flow.connect("walletConnect")))
    await peer.pair(await shownUri(runtime))
    const wallet = await connecting
    expect(wallet.connector.type).toBe("WALLET_CONNECT")
    expect(wallet.accounts).toEqual({
      eip155: { address: peer.evm!.address(), chainId: 31337 },
      solana: { address: devSolanaKey(0).address, chainId: solanaNetwork.id }
    })

    const actions = <A, E>(use: (actions: WalletActions["Service"]) => Effect.Effect<A, E>) => runtime.run(Effect.flatMap(WalletActions, use))
    const evmSignature = await actions((a) => a.signMessage("hello from the runtime", "eip155"))
    expect(await verifyMessage({ address: peer.evm!.address(), message: "hello from the runtime", signature: evmSignature as Hex })).toBe(true)
    const solanaSignature = await actions((a) => a.signMessage("hello from the runtime", "solana"))
    expect(await verifiesSolana("hello from the runtime", solanaSignature, devSolanaKey(0).address)).toBe(true)

    const receiver = (await generateKeyPairSigner()).address
    const signature = await actions((a) => a.send({ to: receiver, value: 30_000_000n }, "solana"))
    expect(await actions((a) => a.waitForTransaction(signature, "solana"))).toMatchObject({ namespace: "solana", hash: signature })
    expect((await rpc.getBalance(receiver).send()).value).toBe(30_000_000n)

    const ended = await runtime.run(Effect.flatMap(Connection, (c) => c.disconnect()))
    expect([...ended].sort()).toEqual(["eip155", "solana"])
    expect(await statusesOf(runtime)).toEqual(["disconnected", "disconnected"])
    await until(() => peer.deleted() === 1, "the wallet hearing the disconnect")
  })

  it("a refused proposal fails the flow with UserRejected and leaves both families disconnected", async () => {
    const peer = await makeWallet()
    peer.setProposalApproval("reject")
    const runtime = makeRuntime(pageStorage(), diskStorage())
    const connecting = runtime.run(Effect.flip(Effect.flatMap(ConnectFlow, (flow) => flow.connect("walletConnect"))))
    await peer.pair(await shownUri(runtime))
    expect(await connecting).toMatchObject({ _tag: "UserRejected", code: 5000 })
    expect(await statusesOf(runtime)).toEqual(["disconnected", "disconnected"])
  })

  it("a relay refusing the project fails the connect and raises its alert in Notifications once", async () => {
    const refusing = new WebSocketServer({ host: "127.0.0.1", port: 0 })
    refusing.on("connection", (socket) => socket.close(3000, "Unauthorized: invalid key"))
    await new Promise((resolve) => refusing.once("listening", resolve))
    cleanups.push(() => new Promise((resolve) => refusing.close(() => resolve())))
    const runtime = makeRuntime(pageStorage(), diskStorage(), `ws://127.0.0.1:${(refusing.address() as AddressInfo).port}`)
    const failed = await runtime.run(Effect.flip(Effect.flatMap(ConnectFlow, (flow) => flow.connect("walletConnect"))))
    expect(failed.message).toContain("Unauthorized: invalid key")
    const alertIds = () =>
      runtime.run(Effect.flatMap(Notifications, (n) => Effect.map(SubscriptionRef.get(n.state), (s) => s.alerts.map((alert) => alert.id))))
    await until(async () => (await alertIds()).includes("INVALID_PROJECT_ID"), "the alert")
    expect((await alertIds()).filter((id) => id === "INVALID_PROJECT_ID")).toEqual(["INVALID_PROJECT_ID"])
    expect(await statusesOf(runtime)).toEqual(["disconnected", "disconnected"])
  })
})
