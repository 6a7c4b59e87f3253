import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, SubscriptionRef } from "effect"
import { localChainA, localChainB, solana } from "../../src/domain/Network"
import { testLayer } from "../../src/layers/Test"
import { makeWalletRuntime } from "../../src/runtime"
import { type FakeChainAdapter, makeFakeChainAdapter } from "../../src/services/ChainAdapter"
import { Connection } from "../../src/services/Connection"
import { Modal } from "../../src/services/Modal"
import { activeAccountAtom, connectorsAtom } from "../../src/ui/atoms/connection"
import { modalAtom } from "../../src/ui/atoms/modal"
import { activeNetworkAtom } from "../../src/ui/atoms/networks"
import { notificationsAtom } from "../../src/ui/atoms/notifications"

const ALICE = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"

const fakeWallet = (): FakeChainAdapter =>
  Effect.runSync(makeFakeChainAdapter("eip155", { accounts: [{ address: ALICE, type: "eoa" }], chainId: 31337 }))

const runtimeWith = (adapter: FakeChainAdapter, options: Record<string, unknown> = {}) =>
  makeWalletRuntime(
    { projectId: "test", networks: [localChainA, localChainB], ...options },
    { layer: (decoded) => testLayer(decoded, [adapter]) }
  )

const eventually = async (check: () => void) => {
  for (let i = 0; i < 50; i++) {
    try {
      return check()
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 2))
    }
  }
  check()
}

describe("makeWalletRuntime", () => {
  it("the Effect API and the atoms share one set of services", async () => {
    const wallet = runtimeWith(fakeWallet())
    const unmount = wallet.registry.mount(activeAccountAtom)
    await wallet.run(Effect.flatMap(Connection, (c) => c.connect({ namespace: "eip155", connectorId: "injected", network: localChainA })))
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
    const adapter = fakeWallet()
    const wallet = makeWalletRuntime(
      { projectId: "test", networks: [localChainA] },
      { layer: (decoded) => Layer.tap(testLayer(decoded, [adapter]), () => Effect.sync(() => builds++)) }
    )
    const unmount = wallet.registry.mount(modalAtom)
    await wallet.run(Effect.flatMap(Modal, (m) => m.open()))
    await eventually(() => expect(wallet.registry.get(modalAtom)?.open).toBe(true))
    expect(builds).toBe(1)
    unmount()
    await wallet.dispose()
  })

  it("a missing projectId raises its alert and the runtime still works", async () => {
    const wallet = makeWalletRuntime({ networks: [localChainA] }, { layer: (decoded, alerts) => testLayer(decoded, [fakeWallet()], {}, alerts) })
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

  it("lists every family's connectors and follows new announcements", async () => {
    const evm = Effect.runSync(
      makeFakeChainAdapter("eip155", {
        accounts: [{ address: ALICE, type: "eoa" }],
        chainId: 31337,
        connectors: [{ id: "io.metamask", name: "MetaMask", type: "ANNOUNCED", chain: "eip155", chains: [] }]
      })
    )
    const sol = Effect.runSync(
      makeFakeChainAdapter("solana", {
        accounts: [],
        chainId: "5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp",
        connectors: [{ id: "phantom", name: "Phantom", type: "INJECTED", chain: "solana", chains: [] }]
      })
    )
    const wallet = makeWalletRuntime(
      { projectId: "test", networks: [localChainA, solana] },
      { layer: (decoded) => testLayer(decoded, [evm, sol]) }
    )
    const unmount = wallet.registry.mount(connectorsAtom)
    await eventually(() => expect(wallet.registry.get(connectorsAtom).map((c) => c.id).sort()).toEqual(["io.metamask", "phantom"]))
    await wallet.run(
      SubscriptionRef.update(evm.connectors, (list) => [...list, { id: "io.rabby", name: "Rabby", type: "ANNOUNCED" as const, chain: "eip155" as const, chains: [] }])
    )
    await eventually(() => expect(wallet.registry.get(connectorsAtom).map((c) => c.id).sort()).toEqual(["io.metamask", "io.rabby", "phantom"]))
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
