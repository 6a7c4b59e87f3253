/**
 * One WalletConnect session covering all four families, in a real wallet runtime through the devstack relay to a
 * real walletkit wallet (test/integration/support/walletKit.ts) holding the EVM, Solana, Bitcoin and Polkadot test
 * wallets: the runtime connects once with networks of eip155, solana, bip122 and polkadot; the session gives an
 * account in each; a message signed in each family over that one session verifies in Node (EIP-191, ed25519,
 * BIP-322, sr25519 over <Bytes>…</Bytes>); one disconnect ends all four, on both sides.
 */
import { u8aWrapBytes } from "@polkadot/util"
import { sr25519Verify } from "@polkadot/util-crypto"
import { address, getBase58Encoder, getPublicKeyFromAddress, type SignatureBytes, verifySignature } from "@solana/kit"
import { Effect, Layer, Option, Stream, SubscriptionRef } from "effect"
import * as FetchHttpClient from "effect/http/FetchHttpClient"
import * as HttpClient from "effect/http/HttpClient"
import * as KeyValueStore from "effect/persistence/KeyValueStore"
import { type Hex, verifyMessage } from "viem"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type BitcoinInfo, REGTEST, startBitcoin } from "../../devstack/bitcoin"
import { verifyBip322 } from "../../server/src/bitcoin/bip322"
import { type EvmInfo, startEvm } from "../../devstack/evm/index"
import type { Started } from "../../server/src/lib/Started"
import { type RelayInfo, startRelay } from "../../server/src/relay"
import { type SolanaInfo, startSolana } from "../../devstack/solana"
import { devSolanaKey } from "../../devstack/solana/keys"
import type { Alert } from "../../src/domain/alerts"
import type { CaipNetwork } from "../../src/domain/Network"
import { bitcoinRegtest, localChainA, localSolana, westend, withDefaultRpcUrls } from "../../src/domain/networks"
import type { HostOptions } from "../../src/domain/Options"
import { coreLayer } from "../../src/layers/Core"
import { makeWalletRuntime, type WalletRuntime } from "../../src/runtime"
import { ChainAdapters, lazyAdapter, type ReadRpc } from "../../src/services/ChainAdapter"
import { Config } from "../../src/services/Config"
import { ConnectFlow } from "../../src/services/ConnectFlow"
import { Connection } from "../../src/services/Connection"
import type { Connector } from "../../src/services/connectors/Connector"
import { Connectors } from "../../src/services/connectors/Connectors"
import { Platform } from "../../src/services/Platform"
import { encodeSs58 } from "../../src/services/polkadot/ss58"
import { RpcTransport } from "../../src/services/RpcTransport/RpcTransport"
import { Storage } from "../../src/services/Storage/Storage"
import { WalletActions } from "../../src/services/WalletActions"
import { type PairingState, WalletConnect } from "../../src/services/walletconnect/WalletConnect"
import { until } from "./support/connectorContract"
import { dappSettings } from "./support/wcSettings"
import { makeMemoryWebStorage } from "../unit/support/memoryWebStorage"
import { type DevWalletKit, startDevWalletKit } from "./support/walletKit"

// Without it, WalletConnect's Verify waits forever for the hosted verify server (offline here).
process.env.IS_VITEST = "true"

const FAMILIES = ["bip122", "eip155", "polkadot", "solana"] as const

let relay: Started<RelayInfo>
let evm: Started<EvmInfo>
let solana: Started<SolanaInfo>
let bitcoin: Started<BitcoinInfo>
let wallet: DevWalletKit
let runtime: WalletRuntime
let chainA: CaipNetwork
let solanaNetwork: CaipNetwork
let regtest: CaipNetwork

/** The runtime's layer as Live.ts builds it, for Node: WalletConnect its only connector, each family's adapter lazy. */
const runtimeLayer = (http: HttpClient.HttpClient) => (options: HostOptions, alerts: ReadonlyArray<Alert>) => {
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
      const tokenOf = (network: CaipNetwork) => options.tokens?.[network.caipNetworkId]
      return [
        lazyAdapter("eip155", () => import("../../src/services/eip155/Eip155Adapter").then((m) => m.makeEip155Adapter({ reads, tokenOf }))),
        lazyAdapter("solana", () => import("../../src/services/solana/SolanaAdapter").then((m) => m.makeSolanaAdapter({ reads, tokenOf }))),
        lazyAdapter("bip122", () =>
          import("../../src/services/bip122/BitcoinAdapter").then((m) => m.makeBitcoinAdapter({ http, apiUrlsOf: (n) => n.rpcUrls.default.http }))
        ),
        lazyAdapter("polkadot", () => import("../../src/services/polkadot/PolkadotAdapter").then((m) => m.makePolkadotAdapter()))
      ]
    })
  ).pipe(Layer.provide(transport))
  const storage = Storage.layer.pipe(Layer.provide(KeyValueStore.layerStorage(() => makeMemoryWebStorage())))
  return coreLayer(
    Layer.mergeAll(storage, Platform.layerFixed({}), config, connectors, adapters, transport, FetchHttpClient.layer, walletConnect),
    alerts
  )
}

beforeAll(async () => {
  ;[relay, evm, solana, bitcoin] = await Promise.all([startRelay(), startEvm(), startSolana(), startBitcoin({ blockIntervalMs: 300 })])
  const [a] = evm.info.chains
  if (a === undefined) throw new Error("a local EVM chain expected")
  chainA = withDefaultRpcUrls(localChainA, { http: [a.rpcUrl] })
  solanaNetwork = withDefaultRpcUrls(localSolana, { http: [solana.info.rpcUrl], webSocket: [solana.info.wsUrl] })
  regtest = withDefaultRpcUrls(bitcoinRegtest, { http: [bitcoin.info.url] })
  wallet = await startDevWalletKit({
    relayUrl: relay.info.url,
    evm: {
      privateKeys: evm.info.accounts.slice(0, 1).map((account) => account.privateKey),
      chains: [{ chainId: a.chainId, name: `Local ${a.chainId}`, rpcUrl: a.rpcUrl }],
      chainId: a.chainId
    },
    solana: { rpcUrl: solana.info.rpcUrl, caipNetworkId: solana.info.caipNetworkId },
    bitcoin: { apiUrl: bitcoin.info.url, caipNetworkId: bitcoinRegtest.caipNetworkId },
    polkadot: { chains: [westend.caipNetworkId] }
  })
  const http = await Effect.runPromise(Effect.provide(Effect.service(HttpClient.HttpClient), FetchHttpClient.layer))
  runtime = makeWalletRuntime(
    {
      projectId: "devstack-project",
      networks: [chainA, solanaNetwork, regtest, westend],
      metadata: { name: "Four-family dapp", description: "A dapp under test", url: "http://127.0.0.1", icons: [] },
      endpoints: { relay: relay.info.url }
    },
    { layer: runtimeLayer(http) }
  )
}, 120_000)

afterAll(async () => {
  await runtime?.dispose()
  await wallet?.close()
  await Promise.all([relay?.stop(), evm?.stop(), solana?.stop(), bitcoin?.stop()])
})

const shownUri = () =>
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

const actions = <A, E>(use: (actions: WalletActions["Service"]) => Effect.Effect<A, E>) => runtime.run(Effect.flatMap(WalletActions, use))

const statuses = () =>
  runtime.run(
    Effect.flatMap(Connection, (c) =>
      Effect.map(SubscriptionRef.get(c.state), (s) => FAMILIES.map((family) => [family, s.namespaces[family]?.account.status ?? "absent"] as const))
    )
  )

describe("one WalletConnect session covering eip155, solana, bip122 and polkadot", () => {
  it("connects once: one proposal asks for the four namespaces, and the session gives an account in each", async () => {
    const connecting = runtime.run(Effect.flatMap(ConnectFlow, (flow) => flow.connect("walletConnect")))
    await wallet.pair(await shownUri())
    const connected = await connecting
    expect(connected.connector.type).toBe("WALLET_CONNECT")
    expect(wallet.proposals).toHaveLength(1)
    const proposed = wallet.proposals[0]!.optionalNamespaces
    expect(Object.keys(proposed).sort()).toEqual([...FAMILIES])
    expect(proposed["eip155"]?.chains).toEqual([chainA.caipNetworkId])
    expect(proposed["solana"]?.chains).toEqual([solanaNetwork.caipNetworkId])
    expect(proposed["bip122"]?.chains).toEqual([bitcoinRegtest.caipNetworkId])
    expect(proposed["polkadot"]?.chains).toEqual([westend.caipNetworkId])
    expect(connected.accounts).toEqual({
      eip155: { address: wallet.evm!.address(), chainId: chainA.id },
      solana: { address: devSolanaKey(0).address, chainId: solanaNetwork.id },
      bip122: { address: wallet.bitcoin!.key.paymentAddress, chainId: bitcoinRegtest.id },
      polkadot: { address: encodeSs58(wallet.polkadot!.pairs[0]!.publicKey, 42), chainId: westend.id }
    })
    expect(await statuses()).toEqual(FAMILIES.map((family) => [family, "connected"]))
  })

  it("signs a message in each family over that one session; each signature verifies for its signer and message only", async () => {
    const message = "one session, four families"
    const other = `${message}?`

    const evmSignature = (await actions((a) => a.signMessage(message, "eip155"))) as Hex
    expect(await verifyMessage({ address: wallet.evm!.address(), message, signature: evmSignature })).toBe(true)
    expect(await verifyMessage({ address: wallet.evm!.address(), message: other, signature: evmSignature })).toBe(false)

    const solanaSignature = getBase58Encoder().encode(await actions((a) => a.signMessage(message, "solana"))) as SignatureBytes
    const solanaKey = await getPublicKeyFromAddress(address(devSolanaKey(0).address))
    expect(await verifySignature(solanaKey, solanaSignature, new TextEncoder().encode(message))).toBe(true)
    expect(await verifySignature(solanaKey, solanaSignature, new TextEncoder().encode(other))).toBe(false)

    const bitcoinSignature = await actions((a) => a.signMessage(message, "bip122"))
    expect(verifyBip322(wallet.bitcoin!.key.paymentAddress, REGTEST, message, bitcoinSignature)).toBe(true)
    expect(verifyBip322(wallet.bitcoin!.key.paymentAddress, REGTEST, other, bitcoinSignature)).toBe(false)

    const alice = wallet.polkadot!.pairs[0]!
    const polkadotSignature = await actions((a) => a.signMessage(message, "polkadot"))
    expect(sr25519Verify(u8aWrapBytes(message), polkadotSignature, alice.publicKey)).toBe(true)
    expect(sr25519Verify(u8aWrapBytes(other), polkadotSignature, alice.publicKey)).toBe(false)

    // Every request went over the one session, each on its family's network.
    expect(wallet.proposals).toHaveLength(1)
    expect(wallet.requests.slice(-4).map((r) => r.chainId)).toEqual([
      chainA.caipNetworkId,
      solanaNetwork.caipNetworkId,
      bitcoinRegtest.caipNetworkId,
      westend.caipNetworkId
    ])
  })

  it("one disconnect ends all four families, and the wallet hears the session end", async () => {
    const ended = await runtime.run(Effect.flatMap(Connection, (c) => c.disconnect()))
    expect([...ended].sort()).toEqual([...FAMILIES])
    expect(await statuses()).toEqual(FAMILIES.map((family) => [family, "disconnected"]))
    await until(() => wallet.deleted() === 1, "the wallet hearing the disconnect")
  })
})
