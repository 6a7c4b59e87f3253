import { describe, expect, it } from "@effect/vitest"
import { vi } from "vitest"
import { Effect, Layer, References, SubscriptionRef } from "effect"
import { SomethingWentWrong } from "../../src/domain/errors"
import { localChainA, localChainB, solana } from "../../src/domain/networks"
import type { HostOptions } from "../../src/domain/Options"
import { coreLayer } from "../../src/layers/Core"
import { testLayer } from "../../src/layers/Test"
import { defaultLogLevel, makeWalletRuntime } from "../../src/runtime"
import { ChainAdapters } from "../../src/services/ChainAdapter"
import { Config } from "../../src/services/Config"
import { Connection } from "../../src/services/Connection"
import type { Connector } from "../../src/services/connectors/Connector"
import { Connectors } from "../../src/services/connectors/Connectors"
import { type FakeWallet, makeFakeChainAdapter, makeFakeWallet } from "../../src/services/fakes/FakeWallet"
import { Modal } from "../../src/services/Modal"
import { Platform } from "../../src/services/Platform"
import { RpcTransport } from "../../src/services/RpcTransport/RpcTransport"
import { offlineHttpClientLayer } from "../../src/services/serviceHttp"
import { Storage } from "../../src/services/Storage/Storage"
import { activeAccountAtom, connectorsAtom } from "../../src/ui/atoms/connection"
import { modalAtom } from "../../src/ui/atoms/modal"
import { activeNetworkAtom } from "../../src/ui/atoms/networks"
import { notificationsAtom } from "../../src/ui/atoms/notifications"

const ALICE = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"
const SOL_ALICE = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM"

const fakeWallet = (): FakeWallet =>
  Effect.runSync(makeFakeWallet({ families: { eip155: { accounts: [{ address: ALICE, type: "eoa" }], chainId: 31337 } } }))

const runtimeWith = (wallet: FakeWallet, options: Record<string, unknown> = {}) =>
  makeWalletRuntime(
    { projectId: "test", networks: [localChainA, localChainB], ...options },
    { layer: (decoded) => testLayer(decoded, { wallets: [wallet] }) }
  )

/** Waits until the state the check reads has come (atoms follow the services a scheduler turn or more later). */
const eventually = (check: () => void) => vi.waitFor(check, { timeout: 5_000, interval: 5 })

/** Every service over wallets the test announces as it goes (a page where wallets announce themselves late). */
const layerOverSource = (options: HostOptions, source: SubscriptionRef.SubscriptionRef<ReadonlyArray<Connector>>) =>
  coreLayer(
    Layer.mergeAll(
      Storage.layerMemory,
      Platform.layerFixed({}),
      Config.layer(options),
      Connectors.layerFrom([Effect.succeed(source)]),
      ChainAdapters.layer([makeFakeChainAdapter("eip155"), makeFakeChainAdapter("solana")]),
      offlineHttpClientLayer,
      RpcTransport.layerTest(() => Effect.fail(new SomethingWentWrong({ reason: "no RPC here" })))
    )
  )

describe("makeWalletRuntime", () => {
  it("the Effect API and the atoms share one set of services", async () => {
    const wallet = runtimeWith(fakeWallet())
    const unmount = wallet.registry.mount(activeAccountAtom)
    await wallet.run(Effect.flatMap(Connection, (c) => c.connect({ connectorId: "injected", networks: [localChainA] })))
    await eventually(() => expect(wallet.registry.get(activeAccountAtom).address).toBe(ALICE))
    expect(wallet.registry.get(activeAccountAtom).status).toBe("connected")
    unmount()
    await wallet.dispose()
  })

  it("atoms follow the modal and the active network", async () => {
    const wallet = runtimeWith(fakeWallet(), { defaultNetwork: localChainB })
    const unmountModal = wallet.registry.mount(modalAtom)
    const unmountNetwork = wallet.registry.mount(activeNetworkAtom)
    await wallet.run(Effect.flatMap(Modal, (m) => m.open({ view: "Networks" })))
    await eventually(() => expect(wallet.registry.get(modalAtom)?.open).toBe(true))
    expect(wallet.registry.get(activeNetworkAtom)?.caipNetworkId).toBe("eip155:31338")
    unmountModal()
    unmountNetwork()
    await wallet.dispose()
  })

  it("builds the services once, whichever side asks first", async () => {
    let builds = 0
    const fake = fakeWallet()
    const wallet = makeWalletRuntime(
      { projectId: "test", networks: [localChainA] },
      { layer: (decoded) => Layer.tap(testLayer(decoded, { wallets: [fake] }), () => Effect.sync(() => builds++)) }
    )
    const unmount = wallet.registry.mount(modalAtom)
    await wallet.run(Effect.flatMap(Modal, (m) => m.open()))
    await eventually(() => expect(wallet.registry.get(modalAtom)?.open).toBe(true))
    expect(builds).toBe(1)
    unmount()
    await wallet.dispose()
  })

  it("a missing projectId raises its alert and the runtime still works", async () => {
    const wallet = makeWalletRuntime(
      { networks: [localChainA] },
      { layer: (decoded, alerts) => testLayer(decoded, { wallets: [fakeWallet()], alerts }) }
    )
    expect(wallet.alerts.map((a) => a.shortMessage)).toEqual(["Project ID Not Configured"])
    const unmount = wallet.registry.mount(notificationsAtom)
    await eventually(() => expect(wallet.registry.get(notificationsAtom).alerts.map((a) => a.id)).toEqual(["PROJECT_ID_NOT_CONFIGURED"]))
    unmount()
    await wallet.dispose()
  })

  it("malformed options fail at start with words naming the option", () => {
    expect(() => makeWalletRuntime({ projectId: "p", networks: [] })).toThrow(/networks/)
    expect(() => makeWalletRuntime({ projectId: "p", networks: [localChainA], themeMode: "blue" })).toThrow(/themeMode/)
    expect(() => makeWalletRuntime("not options")).toThrow(/Invalid wallet-runtime options/)
    expect(() => makeWalletRuntime({ projectId: "p", networks: [localChainA], siweConfig: {}, siwx: {} })).toThrow(
      "Cannot set both `siweConfig` and `siwx` options"
    )
  })

  it("lists every family's wallets, one row per wallet, and follows new announcements", async () => {
    const metaMask = Effect.runSync(
      makeFakeWallet({ id: "io.metamask", name: "MetaMask", type: "ANNOUNCED", rdns: "io.metamask", families: { eip155: { accounts: [], chainId: 1 } } })
    )
    // The same wallet announced through EIP-6963 and registered through the Wallet Standard (which has no rdns).
    const phantomEvm = Effect.runSync(
      makeFakeWallet({ id: "app.phantom", name: "Phantom", type: "ANNOUNCED", rdns: "app.phantom", families: { eip155: { accounts: [], chainId: 1 } } })
    )
    const phantomSolana = Effect.runSync(
      makeFakeWallet({ id: "phantom-solana", name: "Phantom", type: "INJECTED", families: { solana: { accounts: [], chainId: solana.id } } })
    )
    const source = Effect.runSync(SubscriptionRef.make<ReadonlyArray<Connector>>([metaMask.connector, phantomEvm.connector]))
    const wallet = makeWalletRuntime({ projectId: "test", networks: [localChainA, solana] }, { layer: (decoded) => layerOverSource(decoded, source) })
    const rows = () => wallet.registry.get(connectorsAtom).map((c) => `${c.type}:${c.id}:${c.namespaces.join("+")}`)
    const unmount = wallet.registry.mount(connectorsAtom)
    await eventually(() => expect(rows()).toEqual(["ANNOUNCED:io.metamask:eip155", "ANNOUNCED:app.phantom:eip155"]))

    await wallet.run(SubscriptionRef.update(source, (list) => [...list, phantomSolana.connector]))
    await eventually(() => expect(rows()).toEqual(["ANNOUNCED:io.metamask:eip155", "MULTI_CHAIN:app.phantom:eip155+solana"]))
    unmount()
    await wallet.dispose()
  })

  it("connecting a wallet announced in two families connects both, the family asked first in front", async () => {
    const evm = Effect.runSync(
      makeFakeWallet({ id: "app.phantom", name: "Phantom", type: "ANNOUNCED", rdns: "app.phantom", families: { eip155: { accounts: [{ address: ALICE, type: "eoa" }], chainId: 31337 } } })
    )
    const sol = Effect.runSync(
      makeFakeWallet({ id: "phantom-solana", name: "Phantom", families: { solana: { accounts: [{ address: SOL_ALICE, type: "eoa" }], chainId: solana.id } } })
    )
    const wallet = makeWalletRuntime(
      { projectId: "test", networks: [localChainA, solana] },
      { layer: (decoded) => testLayer(decoded, { wallets: [evm, sol] }) }
    )
    const connected = await wallet.run(
      Effect.flatMap(Connection, (c) => c.connect({ connectorId: "app.phantom", networks: [solana, localChainA] }))
    )
    expect(connected.connector.type).toBe("MULTI_CHAIN")
    expect(connected.accounts).toEqual({
      eip155: { address: ALICE, chainId: 31337 },
      solana: { address: SOL_ALICE, chainId: solana.id }
    })
    expect([evm.calls, sol.calls]).toEqual([["connect:app.phantom"], ["connect:phantom-solana"]])
    const unmount = wallet.registry.mount(activeAccountAtom)
    await eventually(() => expect(wallet.registry.get(activeAccountAtom)).toMatchObject({ namespace: "solana", address: SOL_ALICE }))
    unmount()
    await wallet.dispose()
  })

  it("dispose can be called twice", async () => {
    const wallet = runtimeWith(fakeWallet())
    await wallet.run(Effect.flatMap(Modal, (m) => m.open()))
    await Promise.all([wallet.dispose(), wallet.dispose()])
    await expect(wallet.run(Effect.flatMap(Modal, (m) => m.open()))).rejects.toThrow()
  })
})

describe("the log level (spec 9: error by default)", () => {
  const levelOf = async (options: Record<string, unknown>) => {
    const wallet = makeWalletRuntime(
      { projectId: "p", networks: [localChainA], ...options },
      { layer: (decoded) => testLayer(decoded) }
    )
    try {
      return await wallet.run(Effect.gen(function* () {
        return yield* References.MinimumLogLevel
      }))
    } finally {
      await wallet.dispose()
    }
  }

  it("is Error unless the host sets `logLevel`; `none` silences it; a level the logger lacks is refused", async () => {
    expect(await levelOf({})).toBe("Error")
    expect(await levelOf({ logLevel: "debug" })).toBe("Debug")
    expect(await levelOf({ logLevel: "none" })).toBe("None")
    expect(() => makeWalletRuntime({ projectId: "p", networks: [localChainA], logLevel: "loud" })).toThrow(/logLevel/)
  })

  it("a production build logs nothing unless the host asks", () => {
    expect(defaultLogLevel(true)).toBe("None")
    expect(defaultLogLevel(false)).toBe("Error")
  })
})
