/**
 * WalletConnect's bip122 namespace in a real wallet runtime, through the devstack relay to a real walletkit wallet
 * (test/integration/support/walletKit.ts) holding the Bitcoin test wallet's dev key set on the devstack's regtest
 * node: the session covers regtest with sendTransfer, signMessage, signPsbt and getAccountAddresses; a message signed
 * through the runtime verifies (BIP-322); a transfer is the wallet's, confirmed on the node; a PSBT comes back
 * checked and is accepted by the node; a refusal is the visitor's.
 */
import { hex } from "@scure/base"
import { p2wpkh, Transaction } from "@scure/btc-signer"
import { Effect, Exit, Layer, Option, Stream, SubscriptionRef } from "effect"
import * as FetchHttpClient from "effect/http/FetchHttpClient"
import * as HttpClient from "effect/http/HttpClient"
import * as KeyValueStore from "effect/persistence/KeyValueStore"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type BitcoinInfo, devBitcoinKey, REGTEST, startBitcoin } from "../../devstack/bitcoin"
import { verifyBip322 } from "../../server/src/bitcoin/bip322"
import type { Started } from "../../server/src/lib/Started"
import { type RelayInfo, startRelay } from "../../server/src/relay"
import type { Alert } from "../../src/domain/alerts"
import type { CaipNetwork } from "../../src/domain/Network"
import { bitcoinRegtest, withDefaultRpcUrls } from "../../src/domain/networks"
import type { HostOptions } from "../../src/domain/Options"
import { coreLayer } from "../../src/layers/Core"
import { makeWalletRuntime, type WalletRuntime } from "../../src/runtime"
import { ChainAdapters, lazyAdapter } from "../../src/services/ChainAdapter"
import { Config } from "../../src/services/Config"
import { ConnectFlow } from "../../src/services/ConnectFlow"
import type { Connector } from "../../src/services/connectors/Connector"
import { Connectors } from "../../src/services/connectors/Connectors"
import { Platform } from "../../src/services/Platform"
import { RpcTransport } from "../../src/services/RpcTransport/RpcTransport"
import { offlineHttpClientLayer } from "../../src/services/serviceHttp"
import { Storage } from "../../src/services/Storage/Storage"
import { WalletActions } from "../../src/services/WalletActions"
import { type PairingState, WalletConnect } from "../../src/services/walletconnect/WalletConnect"
import { makeMemoryWebStorage } from "../unit/support/memoryWebStorage"
import { type DevWalletKit, startDevWalletKit } from "./support/walletKit"
import { dappSettings } from "./support/wcSettings"

// Without it, WalletConnect's Verify waits forever for the hosted verify server (offline here).
process.env.IS_VITEST = "true"

let relay: Started<RelayInfo>
let node: Started<BitcoinInfo>
let wallet: DevWalletKit
let runtime: WalletRuntime
let network: CaipNetwork

/** The runtime's layer as Live.ts builds it, for Node: WalletConnect its only connector, the bip122 adapter lazy over fetch. */
const runtimeLayer = (http: HttpClient.HttpClient) => (options: HostOptions, alerts: ReadonlyArray<Alert>) => {
  const config = Config.layer(options)
  const transport = RpcTransport.layer.pipe(Layer.provide(config), Layer.provide(offlineHttpClientLayer))
  const walletConnect = WalletConnect.layerWith(dappSettings()).pipe(Layer.provide(config))
  const connectors = Connectors.layerFrom([
    Effect.flatMap(WalletConnect, (service) => SubscriptionRef.make<ReadonlyArray<Connector>>(service.connector !== undefined ? [service.connector] : []))
  ]).pipe(Layer.provide(walletConnect))
  const adapters = ChainAdapters.layer([
    lazyAdapter("bip122", () =>
      import("../../src/services/bip122/BitcoinAdapter").then((m) => m.makeBitcoinAdapter({ http, apiUrlsOf: (n) => n.rpcUrls.default.http }))
    )
  ])
  const storage = Storage.layer.pipe(Layer.provide(KeyValueStore.layerStorage(() => makeMemoryWebStorage())))
  return coreLayer(
    Layer.mergeAll(storage, Platform.layerFixed({}), config, connectors, adapters, transport, offlineHttpClientLayer, walletConnect),
    alerts
  )
}

beforeAll(async () => {
  ;[relay, node] = await Promise.all([startRelay(), startBitcoin({ blockIntervalMs: 300 })])
  network = withDefaultRpcUrls(bitcoinRegtest, { http: [node.info.url] })
  wallet = await startDevWalletKit({ relayUrl: relay.info.url, bitcoin: { apiUrl: node.info.url, caipNetworkId: bitcoinRegtest.caipNetworkId } })
  const http = await Effect.runPromise(Effect.provide(Effect.service(HttpClient.HttpClient), FetchHttpClient.layer))
  runtime = makeWalletRuntime(
    {
      projectId: "devstack-project",
      networks: [network],
      metadata: { name: "Bitcoin dapp", description: "A dapp under test", url: "http://127.0.0.1", icons: [] },
      endpoints: { relay: relay.info.url }
    },
    { layer: runtimeLayer(http) }
  )
})

afterAll(async () => {
  await runtime?.dispose()
  await wallet?.close()
  await Promise.all([relay?.stop(), node?.stop()])
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
const nodeJson = async <A>(path: string): Promise<A> => (await (await fetch(`${node.info.url}${path}`)).json()) as A

describe("WalletConnect's bip122 namespace", () => {
  it("a session covers regtest with the four Bitcoin methods; the account is the wallet's payment address", async () => {
    const connecting = runtime.run(Effect.flatMap(ConnectFlow, (flow) => flow.connect("walletConnect")))
    await wallet.pair(await shownUri())
    const connected = await connecting
    expect(connected.accounts.bip122).toEqual({ address: wallet.bitcoin!.key.paymentAddress, chainId: bitcoinRegtest.id })
    const proposed = wallet.proposals[0]?.optionalNamespaces["bip122"]
    expect(proposed?.chains).toEqual([bitcoinRegtest.caipNetworkId])
    expect(proposed?.methods).toEqual(["sendTransfer", "signMessage", "signPsbt", "getAccountAddresses"])
  })

  it("signs a message: signMessage, a BIP-322 signature that verifies for the payment address and this message only", async () => {
    const message = "hello from the runtime over WalletConnect"
    const signature = await actions((a) => a.signMessage(message, "bip122"))
    expect(verifyBip322(wallet.bitcoin!.key.paymentAddress, REGTEST, message, signature)).toBe(true)
    expect(verifyBip322(wallet.bitcoin!.key.paymentAddress, REGTEST, `${message}?`, signature)).toBe(false)
    expect(wallet.requests.at(-1)).toEqual({ method: "signMessage", chainId: bitcoinRegtest.caipNetworkId })
  })

  it("sends: sendTransfer in satoshis, the wallet's transaction confirmed on the node with the receiver paid", async () => {
    const receiver = p2wpkh(hex.decode(devBitcoinKey(60).paymentPublicKey), REGTEST).address!
    const txid = await actions((a) => a.send({ to: receiver, value: 30_000_000n }, "bip122"))
    expect(wallet.bitcoin!.sent).toContain(txid)
    const confirmation = await actions((a) => a.waitForTransaction(txid, "bip122"))
    expect(confirmation).toMatchObject({ namespace: "bip122", hash: txid, status: "success" })
    const utxos = await nodeJson<ReadonlyArray<{ value: number }>>(`/address/${receiver}/utxo`)
    expect(utxos.map((utxo) => utxo.value)).toEqual([30_000_000])
  })

  it("signs a PSBT: the wallet's input signed and checked, then finalised and accepted by the node", async () => {
    const key = wallet.bitcoin!.key
    const script = p2wpkh(hex.decode(key.paymentPublicKey), REGTEST).script
    const [utxo] = await nodeJson<ReadonlyArray<{ txid: string; vout: number; value: number }>>(`/address/${key.paymentAddress}/utxo`)
    const tx = new Transaction()
    tx.addInput({ txid: utxo!.txid, index: utxo!.vout, witnessUtxo: { script, amount: BigInt(utxo!.value) } })
    tx.addOutputAddress(key.ordinalsAddress, BigInt(utxo!.value) - 2_000n, REGTEST)
    const answer = (await actions((a) =>
      a.request(
        "signPsbt",
        {
          account: key.paymentAddress,
          psbt: Buffer.from(tx.toPSBT()).toString("base64"),
          signInputs: [{ address: key.paymentAddress, index: 0, sighashTypes: [] }],
          broadcast: true
        },
        "bip122"
      )
    )) as { psbt: string; txid: string }
    expect(answer.txid).toBe(Transaction.fromPSBT(Buffer.from(answer.psbt, "base64")).id)
    expect(wallet.requests.at(-1)).toEqual({ method: "signPsbt", chainId: bitcoinRegtest.caipNetworkId })
    await actions((a) => a.waitForTransaction(answer.txid, "bip122"))
  })

  it("a refusal in the wallet is the visitor's: UserRejected", async () => {
    wallet.setApproval("reject")
    try {
      const exit = await runtime.run(Effect.exit(Effect.flatMap(WalletActions, (a) => a.signMessage("no", "bip122"))))
      expect(Exit.isFailure(exit) && Option.getOrUndefined(Exit.findErrorOption(exit))).toMatchObject({ _tag: "UserRejected" })
    } finally {
      wallet.setApproval("approve")
    }
  })
})
