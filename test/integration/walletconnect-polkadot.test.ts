/**
 * WalletConnect's polkadot namespace in a real wallet runtime, through the devstack relay to a real walletkit wallet
 * (test/integration/support/walletKit.ts) holding the Polkadot test wallet's //Alice (sr25519): the session covers
 * Westend and Polkadot with `polkadot_signMessage` and `polkadot_signTransaction`; a message signed through the
 * runtime verifies over `<Bytes>…</Bytes>`, a transaction payload's signature over its SCALE encoding; a refusal is the
 * visitor's; moving to Polkadot puts the session's Polkadot-format address in front. No chain is needed.
 */
import { hexToU8a, u8aWrapBytes } from "@polkadot/util"
import { signatureVerify, sr25519Verify } from "@polkadot/util-crypto"
import { Effect, Layer, Option, Stream, SubscriptionRef } from "effect"
import * as KeyValueStore from "effect/persistence/KeyValueStore"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Started } from "../../server/src/lib/Started"
import { type RelayInfo, startRelay } from "../../server/src/relay"
import { signingPayloadOf } from "../../devstack/wallet/polkadot/testWallet"
import type { Alert } from "../../src/domain/alerts"
import { polkadot, westend } from "../../src/domain/networks"
import type { HostOptions } from "../../src/domain/Options"
import { coreLayer } from "../../src/layers/Core"
import { makeWalletRuntime, type WalletRuntime } from "../../src/runtime"
import { ChainAdapters, lazyAdapter } from "../../src/services/ChainAdapter"
import { Config } from "../../src/services/Config"
import { ConnectFlow } from "../../src/services/ConnectFlow"
import { Connection } from "../../src/services/Connection"
import type { Connector } from "../../src/services/connectors/Connector"
import { Connectors } from "../../src/services/connectors/Connectors"
import { Networks } from "../../src/services/Networks"
import { Platform } from "../../src/services/Platform"
import { encodeSs58 } from "../../src/services/polkadot/ss58"
import { RpcTransport } from "../../src/services/RpcTransport/RpcTransport"
import { offlineHttpClientLayer } from "../../src/services/serviceHttp"
import { Storage } from "../../src/services/Storage/Storage"
import { WalletActions } from "../../src/services/WalletActions"
import { type PairingState, WalletConnect } from "../../src/services/walletconnect/WalletConnect"
import { until } from "./support/connectorContract"
import { dappSettings } from "./support/wcSettings"
import { makeMemoryWebStorage } from "../unit/support/memoryWebStorage"
import { type DevWalletKit, startDevWalletKit } from "./support/walletKit"

// Without it, WalletConnect's Verify waits forever for the hosted verify server (offline here).
process.env.IS_VITEST = "true"

let relay: Started<RelayInfo>
let wallet: DevWalletKit
let runtime: WalletRuntime

/** The runtime's layer as Live.ts builds it, for Node: WalletConnect its only connector, the polkadot adapter lazy. */
const runtimeLayer = (options: HostOptions, alerts: ReadonlyArray<Alert>) => {
  const config = Config.layer(options)
  const transport = RpcTransport.layer.pipe(Layer.provide(config), Layer.provide(offlineHttpClientLayer))
  const walletConnect = WalletConnect.layerWith(dappSettings()).pipe(Layer.provide(config))
  const connectors = Connectors.layerFrom([
    Effect.flatMap(WalletConnect, (service) => SubscriptionRef.make<ReadonlyArray<Connector>>(service.connector !== undefined ? [service.connector] : []))
  ]).pipe(Layer.provide(walletConnect))
  const adapters = ChainAdapters.layer([
    lazyAdapter("polkadot", () => import("../../src/services/polkadot/PolkadotAdapter").then((m) => m.makePolkadotAdapter()))
  ])
  const storage = Storage.layer.pipe(Layer.provide(KeyValueStore.layerStorage(() => makeMemoryWebStorage())))
  return coreLayer(
    Layer.mergeAll(storage, Platform.layerFixed({}), config, connectors, adapters, transport, offlineHttpClientLayer, walletConnect),
    alerts
  )
}

beforeAll(async () => {
  relay = await startRelay()
  wallet = await startDevWalletKit({ relayUrl: relay.info.url, polkadot: { chains: [westend.caipNetworkId, polkadot.caipNetworkId] } })
  runtime = makeWalletRuntime(
    {
      projectId: "devstack-project",
      networks: [westend, polkadot],
      metadata: { name: "Polkadot dapp", description: "A dapp under test", url: "http://127.0.0.1", icons: [] },
      endpoints: { relay: relay.info.url }
    },
    { layer: runtimeLayer }
  )
})

afterAll(async () => {
  await runtime?.dispose()
  await wallet?.close()
  await relay?.stop()
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

const polkadotAccount = () =>
  runtime.run(Effect.flatMap(Connection, (c) => Effect.map(SubscriptionRef.get(c.state), (s) => s.namespaces.polkadot?.account)))

describe("WalletConnect's polkadot namespace", () => {
  it("a session covers the Polkadot networks with the two Polkadot methods; the account is the wallet's, on Westend", async () => {
    const connecting = runtime.run(Effect.flatMap(ConnectFlow, (flow) => flow.connect("walletConnect")))
    await wallet.pair(await shownUri())
    const connected = await connecting
    const alice = wallet.polkadot!.pairs[0]!
    expect(connected.accounts.polkadot).toEqual({ address: encodeSs58(alice.publicKey, 42), chainId: westend.id })
    const proposed = wallet.proposals[0]?.optionalNamespaces["polkadot"]
    expect(proposed?.chains).toEqual([westend.caipNetworkId, polkadot.caipNetworkId])
    expect(proposed?.methods).toEqual(["polkadot_signMessage", "polkadot_signTransaction"])
  })

  it("signs a message: polkadot_signMessage, the signature verifying over <Bytes>message</Bytes>", async () => {
    const message = "hello from the runtime over WalletConnect"
    const signature = await actions((a) => a.signMessage(message, "polkadot"))
    const alice = wallet.polkadot!.pairs[0]!
    expect(sr25519Verify(u8aWrapBytes(message), signature, alice.publicKey)).toBe(true)
    expect(signatureVerify(message, signature, alice.address).crypto).toBe("sr25519")
    expect(wallet.requests.at(-1)).toEqual({ method: "polkadot_signMessage", chainId: westend.caipNetworkId })
  })

  it("signs a transaction payload: polkadot_signTransaction, the signature led by sr25519's byte over the payload's encoding", async () => {
    const alice = wallet.polkadot!.pairs[0]!
    const payload = {
      address: alice.address,
      blockHash: `0x${"11".repeat(32)}`,
      blockNumber: "0x00000010",
      era: "0x0500",
      genesisHash: "0xe143f23803ac50e8f6f8e62695d1ce9e4e1d68aa36c1cd2cfd15340213f3423e",
      method: "0x0403",
      nonce: "0x00000001",
      specVersion: "0x000f4240",
      tip: "0x00000000000000000000000000000000",
      transactionVersion: "0x0000001a",
      signedExtensions: ["CheckSpecVersion", "CheckTxVersion", "CheckGenesis", "CheckMortality", "CheckNonce", "CheckWeight", "ChargeTransactionPayment"],
      version: 4
    }
    const answer = (await actions((a) => a.request("polkadot_signTransaction", { address: alice.address, transactionPayload: payload }, "polkadot"))) as {
      signature: string
    }
    expect(answer.signature.slice(0, 4)).toBe("0x01")
    expect(sr25519Verify(signingPayloadOf(payload), hexToU8a(answer.signature).slice(1), alice.publicKey)).toBe(true)
  })

  it("a refusal in the wallet is the visitor's", async () => {
    wallet.setApproval("reject")
    try {
      const error = await actions((a) => Effect.flip(a.signMessage("no", "polkadot")))
      expect([error._tag, error.message]).toEqual(["UserRejected", "User rejected the request."])
    } finally {
      wallet.setApproval("approve")
    }
  })

  it("moving to Polkadot puts the session's Polkadot-format address in front, and signing asks on Polkadot", async () => {
    const alice = wallet.polkadot!.pairs[0]!
    await runtime.run(Effect.flatMap(Networks, (n) => n.switchNetwork(polkadot.caipNetworkId)))
    await until(async () => (await polkadotAccount())?.address === encodeSs58(alice.publicKey, 0), "the Polkadot address in front")
    expect((await polkadotAccount())?.caipAddress).toBe(`${polkadot.caipNetworkId}:${encodeSs58(alice.publicKey, 0)}`)
    const signature = await actions((a) => a.signMessage("on Polkadot", "polkadot"))
    expect(sr25519Verify(u8aWrapBytes("on Polkadot"), signature, alice.publicKey)).toBe(true)
    expect(wallet.requests.at(-1)).toEqual({ method: "polkadot_signMessage", chainId: polkadot.caipNetworkId })
  })
})
