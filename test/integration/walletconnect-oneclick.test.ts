/**
 * One-click sign-in over WalletConnect in a real wallet runtime (issue 13): the runtime (its layer built as
 * src/layers/Live.ts builds it, sign-in on our services) pairs through the devstack relay with the walletkit dev
 * wallet, and the services server keeps the sessions on anvil's chains. A wallet that answers
 * `wc_sessionAuthenticate` connects and signs in in one step (one prompt, no sign view, sessions for both chains);
 * one without it gets the session proposal and signs in in a second step; one that refuses fails the connect; and
 * without sign-in, or with Solana beside, nothing of this is asked.
 */
import { Effect, Layer, Option, Schema, Stream, SubscriptionRef } from "effect"
import * as FetchHttpClient from "effect/http/FetchHttpClient"
import * as KeyValueStore from "effect/persistence/KeyValueStore"
import { type Hex, verifyMessage } from "viem"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type EvmInfo, startEvm } from "../../devstack/evm/index"
import type { Started } from "../../server/src/lib/Started"
import { type RelayInfo, startRelay } from "../../server/src/relay"
import { type ServicesInfo, startServices } from "../../devstack/services"
import { SessionsResponse } from "../../src/domain/Api"
import type { Alert } from "../../src/domain/alerts"
import type { CaipNetwork } from "../../src/domain/Network"
import { localChainA, localChainB, localSolana, withDefaultRpcUrls } from "../../src/domain/networks"
import type { HostOptions } from "../../src/domain/Options"
import { servicesSiwx } from "../../src/domain/servicesSiwx"
import { coreLayer } from "../../src/layers/Core"
import { makeWalletRuntime, type WalletRuntime } from "../../src/runtime"
import { ChainAdapters, lazyAdapter, type ReadRpc } from "../../src/services/ChainAdapter"
import { Config } from "../../src/services/Config"
import { ConnectFlow } from "../../src/services/ConnectFlow"
import { Connection } from "../../src/services/Connection"
import type { Connector } from "../../src/services/connectors/Connector"
import { Connectors } from "../../src/services/connectors/Connectors"
import { Modal } from "../../src/services/Modal"
import { Networks } from "../../src/services/Networks"
import { Platform } from "../../src/services/Platform"
import { RpcTransport } from "../../src/services/RpcTransport/RpcTransport"
import { Siwx } from "../../src/services/Siwx/Siwx"
import * as Keys from "../../src/services/Storage/keys"
import { Storage } from "../../src/services/Storage/Storage"
import { WalletActions } from "../../src/services/WalletActions"
import { type PairingState, WalletConnect } from "../../src/services/walletconnect/WalletConnect"
import { walletConnectAlertsLayer, walletConnectSignInLayer } from "../../src/services/walletconnect/wiring"
import { until } from "./support/connectorContract"
import { dappSettings } from "./support/wcSettings"
import { startDevWalletKit } from "./support/walletKit"
import type { Approval } from "../../devstack/wallet/testWallet"

// Without it, WalletConnect's Verify waits forever for the hosted verify server (offline here).
process.env.IS_VITEST = "true"

const PROJECT = "devstack-project"

let relay: Started<RelayInfo>
let evm: Started<EvmInfo>
let services: Started<ServicesInfo>
let chainA: CaipNetwork
let chainB: CaipNetwork
const cleanups: Array<() => Promise<void>> = []

beforeAll(async () => {
  ;[relay, evm] = await Promise.all([startRelay(), startEvm()])
  services = await startServices({ evm: evm.info })
  const [a, b] = evm.info.chains
  if (a === undefined || b === undefined) throw new Error("two chains expected")
  chainA = withDefaultRpcUrls(localChainA, { http: [a.rpcUrl] })
  chainB = withDefaultRpcUrls(localChainB, { http: [b.rpcUrl] })
})

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined)
  await services?.stop()
  await Promise.all([relay?.stop(), evm?.stop()])
})

/** The runtime's layer as src/layers/Live.ts builds it (both WalletConnect wirings), made for Node. */
const runtimeLayer = (options: HostOptions, alerts: ReadonlyArray<Alert>) => {
  const config = Config.layer(options)
  const transport = RpcTransport.layer.pipe(Layer.provide(config), Layer.provide(FetchHttpClient.layer))
  const walletConnect = WalletConnect.layerWith(dappSettings()).pipe(Layer.provide(config))
  const connectors = Connectors.layerFrom([
    Effect.flatMap(WalletConnect, (service) => SubscriptionRef.make<ReadonlyArray<Connector>>(service.connector !== undefined ? [service.connector] : []))
  ]).pipe(Layer.provide(walletConnect))
  const adapters = ChainAdapters.layerFrom(
    Effect.gen(function* () {
      const transportService = yield* RpcTransport
      const reads: ReadRpc = (network, method, params) => transportService.request(network, { method, params })
      return [lazyAdapter("eip155", () => import("../../src/services/eip155/Eip155Adapter").then((m) => m.makeEip155Adapter({ reads, tokenOf: () => undefined })))]
    })
  ).pipe(Layer.provide(transport))
  const items = new Map<string, string>()
  const storage = Storage.layer.pipe(
    Layer.provide(
      KeyValueStore.layerStorage(() => ({
        get length() {
          return items.size
        },
        clear: () => items.clear(),
        getItem: (k: string) => items.get(k) ?? null,
        key: (i: number) => [...items.keys()][i] ?? null,
        removeItem: (k: string) => void items.delete(k),
        setItem: (k: string, v: string) => void items.set(k, v)
      }))
    )
  )
  return Layer.mergeAll(walletConnectAlertsLayer, walletConnectSignInLayer).pipe(
    Layer.provideMerge(
      coreLayer(
        Layer.mergeAll(storage, Platform.layerFixed({ href: "http://127.0.0.1:5173/" }), config, connectors, adapters, transport, FetchHttpClient.layer, walletConnect),
        alerts
      )
    )
  )
}

const makeRuntime = (options: { readonly signIn: boolean; readonly networks?: ReadonlyArray<CaipNetwork> }): WalletRuntime => {
  const runtime = makeWalletRuntime(
    {
      projectId: PROJECT,
      networks: options.networks ?? [chainA, chainB],
      metadata: { name: "Wallet Runtime demo", description: "Dapp under test", url: "http://127.0.0.1:5173", icons: [] },
      ...(options.signIn ? { siwx: servicesSiwx() } : {}),
      endpoints: { relay: relay.info.url, rpcProxy: services.info.url, blockchainApi: services.info.url, walletCatalog: services.info.url }
    },
    { layer: runtimeLayer }
  )
  cleanups.push(() => runtime.dispose())
  return runtime
}

/** A walletkit wallet over dev account `key` (each test its own, so the services' sessions of one do not meet another's). */
/**
 * The wallets on the other side: ours, and WalletConnect's walletkit 1.2.10 (the last Apache-2.0 release), which
 * checks each CACAO's signature against its own text of the message: our text must be WalletConnect's exactly.
 */
const WALLETS = ["ours", "walletkit"] as const
let peer: (typeof WALLETS)[number] = "ours"

const makeWallet = async (oneClick: Approval | undefined, account: number) => {
  // Each wallet of the list signs with dev accounts of its own: the services keep the sessions of the runs before.
  const key = account + WALLETS.indexOf(peer) * 4
  const wallet = await startDevWalletKit({
    relayUrl: relay.info.url,
    evm: {
      privateKeys: evm.info.accounts.slice(key, key + 1).map((account) => account.privateKey),
      chains: evm.info.chains.map((chain) => ({ chainId: chain.chainId, name: `Local ${chain.chainId}`, rpcUrl: chain.rpcUrl })),
      chainId: 31337
    },
    ...(oneClick === undefined ? {} : { oneClick }),
    implementation: peer
  })
  cleanups.push(() => wallet.close())
  return wallet
}

/** The pairing URI the runtime shows (its QR code). */
const shownUri = (runtime: WalletRuntime) =>
  runtime.run(
    Effect.flatMap(Effect.serviceOption(WalletConnect), (service) =>
      SubscriptionRef.changes(Option.getOrThrow(service).pairing).pipe(
        Stream.filter((s): s is Extract<PairingState, { _tag: "Ready" }> => s._tag === "Ready"),
        Stream.runHead,
        Effect.timeoutOption("20 seconds"),
        Effect.map((s) => Option.getOrThrow(Option.flatten(s)).uri)
      )
    )
  )

/** Every view the modal shows from now on (a fiber in the runtime records them). */
const recordViews = (runtime: WalletRuntime) => {
  const seen: Array<string> = []
  void runtime.run(
    Effect.flatMap(Modal, (modal) =>
      SubscriptionRef.changes(modal.state).pipe(
        Stream.runForEach((state) =>
          Effect.sync(() => {
            const view = state.open ? state.history[state.history.length - 1]?.route.view : undefined
            if (view !== undefined && seen.at(-1) !== view) seen.push(view)
          })
        )
      )
    )
  ).catch(() => undefined)
  return seen
}

const sessionsOn = async (chainId: number, address: string) => {
  const response = await fetch(`${services.info.url}/v1/sessions/eip155:${chainId}:${address}?projectId=${PROJECT}`)
  return Schema.decodeUnknownSync(SessionsResponse)(await response.json()).sessions
}

const siwxStep = (runtime: WalletRuntime) => runtime.run(Effect.flatMap(Siwx, (siwx) => Effect.map(SubscriptionRef.get(siwx.state), (s) => s.step._tag)))
/** The chain of the account signed in, if one is. */
const signedInOn = (runtime: WalletRuntime) =>
  runtime.run(Effect.flatMap(Siwx, (siwx) => Effect.map(SubscriptionRef.get(siwx.state), (s) => (s.step._tag === "SignedIn" ? s.step.account.chainId : undefined))))

describe.each(WALLETS)("one-click sign-in over WalletConnect (sign-in on the services) (wallet: %s)", (implementation) => {
  beforeAll(() => {
    peer = implementation
  })

  it("a wallet with one-click: connect and sign-in are one step — one request to the wallet, no sign view, sessions on both chains", async () => {
    const peer = await makeWallet("approve", 0)
    const runtime = makeRuntime({ signIn: true })
    const views = recordViews(runtime)
    const connecting = runtime.run(Effect.flatMap(ConnectFlow, (flow) => flow.connect("walletConnect")))
    const uri = await shownUri(runtime)
    const paired = performance.now()
    await peer.pair(uri)
    const result = await connecting
    const elapsed = performance.now() - paired
    console.info(`one-click sign-in: pairing to signed in ${elapsed.toFixed(0)} ms`)

    const address = peer.evm!.address()
    expect(result.accounts.eip155).toEqual({ address, chainId: 31337 })
    // The session the connect gives is the wallet's own signature of the text it was shown, for the chain in front.
    expect(result.session?.data).toMatchObject({ chainId: chainA.caipNetworkId, accountAddress: address, domain: "127.0.0.1:5173", uri: "http://127.0.0.1:5173" })
    expect(result.session?.message).toContain("I further authorize the stated URI to perform the following actions on my behalf")
    expect(await verifyMessage({ address, message: result.session!.message, signature: result.session!.signature as Hex })).toBe(true)
    // One request reached the wallet: the sign-in, not a proposal, and no personal_sign after it.
    expect(peer.authRequests.map((r) => r.chains)).toEqual([[chainA.caipNetworkId, chainB.caipNetworkId]])
    expect(peer.proposals).toEqual([])
    expect(peer.requests.filter((r) => r.method === "personal_sign")).toEqual([])
    expect(views).toEqual(["WalletConnectBasic"])
    expect(await siwxStep(runtime)).toBe("SignedIn")
    // The services keep a session on each chain the wallet signed for; this browser keeps both pcis.
    const onA = await sessionsOn(31337, address)
    const onB = await sessionsOn(31338, address)
    expect([onA.length, onB.length]).toEqual([1, 1])
    expect(onA[0]?.signature).toBe(result.session?.signature)
    const kept = await runtime.run(Effect.flatMap(Storage, (s) => s.get(Keys.siwxSessions)))
    expect(kept.map((s) => s.pci).sort()).toEqual([onA[0]?.pci, onB[0]?.pci].sort())
    // The session is a real WalletConnect session: the wallet signs through it.
    const signature = await runtime.run(Effect.flatMap(WalletActions, (a) => a.signMessage("after one click", "eip155")))
    expect(await verifyMessage({ address, message: "after one click", signature: signature as Hex })).toBe(true)
    // Switching to the other chain asks nothing: its session was signed in the same step.
    await runtime.run(Effect.flatMap(Networks, (n) => n.switchNetwork(chainB.caipNetworkId)))
    await until(async () => (await signedInOn(runtime)) === chainB.caipNetworkId, "signed in on chain B")
    expect(views).not.toContain("SIWXSignMessage")
    await runtime.run(Effect.flatMap(Connection, (c) => c.disconnect()))
  })

  it("a wallet without one-click gets the session proposal beside it, and signs in in a second step", async () => {
    const peer = await makeWallet(undefined, 1)
    const runtime = makeRuntime({ signIn: true })
    const views = recordViews(runtime)
    const connecting = runtime.run(Effect.flatMap(ConnectFlow, (flow) => flow.connect("walletConnect")))
    const uri = await shownUri(runtime)
    const paired = performance.now()
    await peer.pair(uri)
    await until(async () => (await siwxStep(runtime)) === "Needed", "the sign view asking")
    expect(views).toContain("SIWXSignMessage")
    expect(peer.proposals).toHaveLength(1)
    await runtime.run(Effect.flatMap(Siwx, (siwx) => siwx.signIn))
    const result = await connecting
    console.info(`two-step sign-in (the visitor's click on Sign taken as instant): pairing to signed in ${(performance.now() - paired).toFixed(0)} ms`)
    expect(peer.requests.filter((r) => r.method === "personal_sign")).toHaveLength(1)
    expect(result.session?.data.chainId).toBe(chainA.caipNetworkId)
    expect(await sessionsOn(31337, peer.evm!.address())).toHaveLength(1)
    await runtime.run(Effect.flatMap(Connection, (c) => c.disconnect()))
  })

  it("a wallet that refuses the one-click request: the connect fails as a refusal, nothing is kept, nothing connected", async () => {
    const peer = await makeWallet("reject", 2)
    const runtime = makeRuntime({ signIn: true })
    const connecting = runtime.run(Effect.flip(Effect.flatMap(ConnectFlow, (flow) => flow.connect("walletConnect"))))
    await peer.pair(await shownUri(runtime))
    expect(await connecting).toMatchObject({ _tag: "UserRejected" })
    expect(peer.authRequests).toHaveLength(1)
    const status = await runtime.run(Effect.flatMap(Connection, (c) => Effect.map(SubscriptionRef.get(c.state), (s) => s.namespaces.eip155?.account.status)))
    expect(status).toBe("disconnected")
    expect(await sessionsOn(31337, peer.evm!.address())).toEqual([])
  })

  it("without sign-in, or with Solana beside eip155, the wallet is sent the usual proposal even though it has one-click", async () => {
    for (const [signIn, runtime] of [
      [false, makeRuntime({ signIn: false })],
      [true, makeRuntime({ signIn: true, networks: [chainA, chainB, withDefaultRpcUrls(localSolana, { http: ["http://127.0.0.1:9/"] })] })]
    ] as const) {
      const peer = await makeWallet("approve", 3)
      const connecting = runtime.run(Effect.flatMap(ConnectFlow, (flow) => flow.connect("walletConnect")))
      await peer.pair(await shownUri(runtime))
      await until(async () => peer.proposals.length === 1, "the proposal")
      expect(peer.authRequests).toEqual([])
      // Without sign-in the connect ends by itself; with it, the sign view asks (a second step) and closing it goes
      // on without a session. Waiting for that view first, so the close cannot come before the wallet connected.
      if (signIn) {
        await until(async () => (await siwxStep(runtime)) === "Needed", "the sign view")
        await runtime.run(Effect.flatMap(Modal, (modal) => modal.close))
      }
      const connected = await connecting
      expect(connected.session).toBeUndefined()
      await runtime.run(Effect.flatMap(Connection, (c) => c.disconnect()))
    }
  })
})
