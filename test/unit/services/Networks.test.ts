import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Stream, SubscriptionRef } from "effect"
import * as KeyValueStore from "effect/persistence/KeyValueStore"
import { TestClock } from "effect/testing"
import { ChainNotSupported } from "../../../src/domain/errors"
import { ethereum, localChainA, localChainB, solana, solanaDevnet } from "../../../src/domain/networks"
import { decodeOptionsSync } from "../../../src/domain/Options"
import { ChainAdapters } from "../../../src/services/ChainAdapter"
import { Connectors } from "../../../src/services/connectors/Connectors"
import { type FakeWallet, makeFakeChainAdapter, makeFakeWallet } from "../../../src/services/fakes/FakeWallet"
import { Analytics } from "../../../src/services/Analytics"
import { Config } from "../../../src/services/Config"
import { Connection } from "../../../src/services/Connection"
import { currentRoute, Modal } from "../../../src/services/Modal"
import { initialActiveNetwork, Networks, type NetworksState } from "../../../src/services/Networks"
import { Notifications } from "../../../src/services/Notifications"
import { Platform } from "../../../src/services/Platform"
import { Storage } from "../../../src/services/Storage/Storage"
import { makeMemoryWebStorage } from "../support/memoryWebStorage"

const ALICE = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"

const SOL = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM"

const layerFor = (
  adapter: FakeWallet,
  hostOptions: Record<string, unknown> = {},
  web: globalThis.Storage = makeMemoryWebStorage()
) =>
  Networks.layer.pipe(
    Layer.provideMerge(Modal.layer),
    Layer.provideMerge(Analytics.layerNone),
    Layer.provideMerge(Connection.layer),
    Layer.provideMerge(Notifications.layer),
    Layer.provideMerge(Storage.layer.pipe(Layer.provide(KeyValueStore.layerStorage(() => web)))),
    Layer.provide(Config.layer(decodeOptionsSync({ projectId: "p", networks: [localChainA, localChainB, solana], ...hostOptions }))),
    Layer.provide(Connectors.layer([adapter.connector])),
    Layer.provide(ChainAdapters.layer([makeFakeChainAdapter("eip155"), makeFakeChainAdapter("solana")])),
    Layer.provide(Platform.layerFixed())
  )

const wallet = () =>
  makeFakeWallet({
    families: {
      eip155: { accounts: [{ address: ALICE, type: "eoa" }], chainId: 31337 },
      solana: { accounts: [{ address: SOL, type: "eoa" }], chainId: solana.id }
    }
  })

/** Wallet events are applied once the wallet has been quiet for 50 ms: the fibers take them, then the clock moves. */
const walletQuiet = Effect.gen(function* () {
  for (let turn = 0; turn < 5; turn++) yield* Effect.yieldNow
  yield* TestClock.adjust("50 millis")
})

/** Waits until the networks state satisfies `condition` (the wallet's events are followed a scheduler turn later). */
const until = (condition: (state: NetworksState) => boolean) =>
  Effect.flatMap(Networks, (networks) =>
    SubscriptionRef.changes(networks.state).pipe(Stream.filter(condition), Stream.runHead, Effect.timeout("1 second"), Effect.orDie)
  )

const active = (namespace: "eip155" | "solana") =>
  Effect.gen(function* () {
    const networks = yield* Networks
    return (yield* SubscriptionRef.get(networks.state)).active[namespace]?.caipNetworkId
  })

const connect = Effect.gen(function* () {
  const connection = yield* Connection
  yield* connection.connect({ connectorId: "injected", networks: [localChainA] })
  yield* until((state) => state.active.eip155?.caipNetworkId === "eip155:31337")
})

describe("initial active network", () => {
  const requested = [localChainA, localChainB]
  it.each([
    ["the stored one when requested", { stored: "eip155:31338" }, "eip155:31338"],
    ["the default when nothing is stored", { defaultNetwork: localChainB }, "eip155:31338"],
    ["the first requested otherwise", {}, "eip155:31337"],
    ["the unsupported-network placeholder when the stored one is no longer requested", { stored: "eip155:5" }, "eip155:5"],
    ["the first requested when the stored one is of another family", { stored: "solana:abc" }, "eip155:31337"],
    ["not a default network of another family", { defaultNetwork: solana }, "eip155:31337"]
  ] as const)("%s", (_, context, expected) => {
    const network = initialActiveNetwork({ requested, stored: null, defaultNetwork: undefined, ...context })
    expect(network?.caipNetworkId).toBe(expected)
  })
})

describe("Networks", () => {
  it.effect("starts on the default network and restores the stored one after a reload", () =>
    Effect.gen(function* () {
      const web = makeMemoryWebStorage()
      yield* Effect.gen(function* () {
        expect(yield* active("eip155")).toBe("eip155:31338")
        expect(yield* active("solana")).toBe(solana.caipNetworkId)
        yield* (yield* Networks).switchNetwork("eip155:31337")
      }).pipe(Effect.provide(layerFor(yield* wallet(), { defaultNetwork: localChainB }, web)))
      yield* Effect.gen(function* () {
        expect(yield* active("eip155")).toBe("eip155:31337")
      }).pipe(Effect.provide(layerFor(yield* wallet(), { defaultNetwork: localChainB }, web)))
    })
  )

  it.effect("without a wallet a switch just changes the active network", () =>
    Effect.gen(function* () {
      const adapter = yield* wallet()
      yield* Effect.gen(function* () {
        yield* (yield* Networks).switchNetwork("eip155:31338")
        expect(yield* active("eip155")).toBe("eip155:31338")
        expect(adapter.calls).toEqual([])
      }).pipe(Effect.provide(layerFor(adapter)))
    })
  )

  it.effect("with a connected wallet a switch asks the wallet, then follows it", () =>
    Effect.gen(function* () {
      const adapter = yield* wallet()
      yield* Effect.gen(function* () {
        yield* connect
        yield* (yield* Networks).switchNetwork("eip155:31338")
        expect(adapter.calls).toContain("switch:eip155:31338")
        expect(yield* active("eip155")).toBe("eip155:31338")
        const connection = yield* Connection
        expect((yield* SubscriptionRef.get(connection.state)).namespaces.eip155?.account.caipAddress).toBe(`eip155:31338:${ALICE}`)
      }).pipe(Effect.provide(layerFor(adapter)))
    })
  )

  it.effect("a wallet that refuses the chain keeps the network as it was and reports 'Chain is not supported'", () =>
    Effect.gen(function* () {
      const adapter = yield* wallet()
      adapter.script.switchError = new ChainNotSupported()
      yield* Effect.gen(function* () {
        yield* connect
        const error = yield* Effect.flip((yield* Networks).switchNetwork("eip155:31338"))
        expect(error.message).toBe("Chain is not supported")
        expect(yield* active("eip155")).toBe("eip155:31337")
      }).pipe(Effect.provide(layerFor(adapter)))
    })
  )

  it.effect("an unknown network fails with its id and raises the alert once", () =>
    Effect.gen(function* () {
      yield* Effect.gen(function* () {
        const networks = yield* Networks
        const error = yield* Effect.flip(networks.switchNetwork("eip155:999"))
        expect(error.message).toBe("Network with ID eip155:999 not found")
        yield* Effect.flip(networks.switchNetwork("eip155:998"))
        const alerts = (yield* SubscriptionRef.get((yield* Notifications).state)).alerts
        expect(alerts.map((a) => a.id)).toEqual(["SWITCH_NETWORK_NOT_FOUND"])
      }).pipe(Effect.provide(layerFor(yield* wallet())))
    })
  )

  it.effect("a default network outside the list raises Network Not Found", () =>
    Effect.gen(function* () {
      yield* Effect.gen(function* () {
        const alerts = (yield* SubscriptionRef.get((yield* Notifications).state)).alerts
        expect(alerts.map((a) => a.shortMessage)).toEqual(["Network Not Found"])
        expect(yield* active("eip155")).toBe("eip155:31337")
      }).pipe(Effect.provide(layerFor(yield* wallet(), { defaultNetwork: ethereum })))
    })
  )

  it.effect("the wallet moving to a requested chain is followed silently", () =>
    Effect.gen(function* () {
      const adapter = yield* wallet()
      yield* Effect.gen(function* () {
        yield* connect
        yield* adapter.emit({ _tag: "ChainChanged", namespace: "eip155", chainId: 31338 })
        yield* walletQuiet
        yield* until((state) => state.active.eip155?.caipNetworkId === "eip155:31338")
        for (let turn = 0; turn < 5; turn++) yield* Effect.yieldNow
        expect((yield* SubscriptionRef.get((yield* Modal).state)).open).toBe(false)
      }).pipe(Effect.provide(layerFor(adapter)))
    })
  )

  it.effect("the wallet moving outside the networks shows UnsupportedChain on the placeholder", () =>
    Effect.gen(function* () {
      const adapter = yield* wallet()
      yield* Effect.gen(function* () {
        yield* connect
        yield* adapter.emit({ _tag: "ChainChanged", namespace: "eip155", chainId: 10 })
        yield* walletQuiet
        yield* until((state) => state.active.eip155?.caipNetworkId === "eip155:10")
        const networks = yield* Networks
        expect((yield* SubscriptionRef.get(networks.state)).active.eip155?.name).toBe("Unsupported Network")
        const modal = yield* SubscriptionRef.changes((yield* Modal).state).pipe(
          Stream.filter((state) => state.open),
          Stream.runHead,
          Effect.timeout("1 second"),
          Effect.orDie
        )
        expect(modal._tag === "Some" && currentRoute(modal.value).view).toBe("UnsupportedChain")
        yield* (yield* Connection).disconnect("eip155")
        yield* until((state) => state.active.eip155?.caipNetworkId === "eip155:31337")
      }).pipe(Effect.provide(layerFor(adapter)))
    })
  )

  it.effect("no UnsupportedChain view when unsupported chains are allowed, switching is off, or in basic mode", () =>
    Effect.gen(function* () {
      for (const hostOptions of [{ allowUnsupportedChain: true }, { enableNetworkSwitch: false }, { basic: true }]) {
        const adapter = yield* wallet()
        yield* Effect.gen(function* () {
          yield* connect
          yield* adapter.emit({ _tag: "ChainChanged", namespace: "eip155", chainId: 10 })
          yield* walletQuiet
          yield* until((state) => state.active.eip155?.caipNetworkId === "eip155:10")
          // The view would open right after the placeholder is set: give it the turns it would take.
          for (let turn = 0; turn < 5; turn++) yield* Effect.yieldNow
          expect((yield* SubscriptionRef.get((yield* Modal).state)).open).toBe(false)
        }).pipe(Effect.provide(layerFor(adapter, hostOptions)))
      }
    })
  )

  it.effect("removing: not the last network of a family, not the chain a wallet is on", () =>
    Effect.gen(function* () {
      yield* Effect.gen(function* () {
        const networks = yield* Networks
        const last = yield* Effect.flip(networks.removeNetwork(solana.caipNetworkId))
        expect(last.message).toBe("Cannot remove last network for a namespace")
        yield* connect
        const busy = yield* Effect.flip(networks.removeNetwork("eip155:31337"))
        expect(busy._tag).toBe("CannotRemoveConnectedNetwork")
        const unknown = yield* Effect.flip(networks.removeNetwork("eip155:12345"))
        expect(unknown.message).toBe("Network with ID eip155:12345 not found")
        yield* networks.removeNetwork("eip155:31338")
        expect((yield* SubscriptionRef.get(networks.state)).requested.map((n) => n.caipNetworkId)).toEqual([
          "eip155:31337",
          solana.caipNetworkId
        ])
        yield* networks.addNetwork(solanaDevnet)
        yield* networks.removeNetwork(solana.caipNetworkId)
        expect(yield* active("solana")).toBe(solanaDevnet.caipNetworkId)
      }).pipe(Effect.provide(layerFor(yield* wallet())))
    })
  )

  it.effect("adding decodes the network: an id like \"abc\" or absurd decimals fail typed, naming the field, and nothing is added", () =>
    Effect.gen(function* () {
      yield* Effect.gen(function* () {
        const networks = yield* Networks
        const before = (yield* SubscriptionRef.get(networks.state)).requested
        const bad = [
          { ...localChainB, id: "abc", caipNetworkId: "eip155:abc" },
          { ...localChainB, id: 99, caipNetworkId: "eip155:99", nativeCurrency: { ...localChainB.nativeCurrency, decimals: 1e9 } },
          { ...localChainB, id: 98, caipNetworkId: "eip155:98", rpcUrls: { default: { http: ["javascript:alert(1)"] } } },
          null
        ]
        for (const network of bad) {
          const error = yield* Effect.flip(networks.addNetwork(network as never))
          expect(error._tag).toBe("InvalidOptions")
          expect(error.message).toMatch(/^Invalid wallet-runtime options: addNetwork: /)
        }
        expect((yield* SubscriptionRef.get(networks.state)).requested).toEqual(before)
      }).pipe(Effect.provide(layerFor(yield* wallet())))
    })
  )

  it.effect("switching to a network of another family puts that family's account in front", () =>
    Effect.gen(function* () {
      const adapter = yield* wallet()
      yield* Effect.gen(function* () {
        const connection = yield* Connection
        yield* connection.connect({ connectorId: "injected", networks: [localChainA, solana] })
        yield* until((state) => state.activeNamespace === "eip155")
        yield* (yield* Networks).switchNetwork(solana.caipNetworkId)
        expect((yield* SubscriptionRef.get(connection.state)).activeNamespace).toBe("solana")
        expect((yield* SubscriptionRef.get((yield* Networks).state)).activeNamespace).toBe("solana")
        yield* (yield* Networks).switchNetwork("eip155:31338")
        expect((yield* SubscriptionRef.get(connection.state)).activeNamespace).toBe("eip155")
        expect(adapter.calls).toContain("switch:eip155:31338")
      }).pipe(Effect.provide(layerFor(adapter)))
    })
  )

  it.effect("a chain change of the family not in front moves its network, not the family in front", () =>
    Effect.gen(function* () {
      const adapter = yield* wallet()
      yield* Effect.gen(function* () {
        const connection = yield* Connection
        yield* connection.connect({ connectorId: "injected", networks: [solana, localChainA] })
        yield* until((state) => state.activeNamespace === "solana")
        yield* adapter.emit({ _tag: "ChainChanged", namespace: "eip155", chainId: 31338 })
        yield* walletQuiet
        yield* until((state) => state.active.eip155?.caipNetworkId === "eip155:31338")
        expect((yield* SubscriptionRef.get((yield* Networks).state)).activeNamespace).toBe("solana")
        expect((yield* SubscriptionRef.get(connection.state)).activeNamespace).toBe("solana")
      }).pipe(Effect.provide(layerFor(adapter)))
    })
  )

  it.effect("a stored network the host no longer lists starts as the unsupported-network placeholder", () =>
    Effect.gen(function* () {
      const web = makeMemoryWebStorage()
      web.setItem("wr:v1:activeNetwork:eip155", JSON.stringify("eip155:5"))
      yield* Effect.gen(function* () {
        const state = yield* SubscriptionRef.get((yield* Networks).state)
        expect(state.active.eip155?.caipNetworkId).toBe("eip155:5")
        expect(state.active.eip155?.name).toBe("Unsupported Network")
      }).pipe(Effect.provide(layerFor(yield* wallet(), {}, web)))
    })
  )
})
