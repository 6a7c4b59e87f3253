import { describe, expect, it } from "@effect/vitest"
import { Effect, Fiber, Layer, Stream, SubscriptionRef } from "effect"
import * as KeyValueStore from "effect/persistence/KeyValueStore"
import { TestClock } from "effect/testing"
import { DisconnectFailed, UserRejected } from "../../../src/domain/errors"
import { localChainA, localChainB, solana } from "../../../src/domain/networks"
import { decodeOptionsSync } from "../../../src/domain/Options"
import type { WalletCatalogEntry } from "../../../src/domain/Wallet"
import { Config } from "../../../src/services/Config"
import { coalesceEvents, Connection, type ConnectionState } from "../../../src/services/Connection"
import type { Connector, WalletEvent } from "../../../src/services/connectors/Connector"
import { Connectors } from "../../../src/services/connectors/Connectors"
import { type FakeWallet, makeFakeWallet } from "../../../src/services/fakes/FakeWallet"
import { Storage } from "../../../src/services/Storage/Storage"
import * as Keys from "../../../src/services/Storage/keys"
import { makeMemoryWebStorage } from "../support/memoryWebStorage"

const ALICE = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"
const BOB = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8"
const SOL = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM"
const SOLANA_REF = "5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp"

const options = decodeOptionsSync({ projectId: "test", networks: [localChainA, localChainB, solana] })
const everywhere = [localChainA, solana]

const layerFor = (web: globalThis.Storage, connectors: ReadonlyArray<Connector>) =>
  Connection.layer.pipe(
    Layer.provideMerge(Storage.layer.pipe(Layer.provide(KeyValueStore.layerStorage(() => web)))),
    Layer.provide(Config.layer(options)),
    Layer.provide(Connectors.layer(connectors))
  )

const evm = (id = "io.metamask", extra: Partial<Parameters<typeof makeFakeWallet>[0]> = {}) =>
  makeFakeWallet({ id, families: { eip155: { accounts: [{ address: ALICE, type: "eoa" }], chainId: 31337 } }, ...extra })
const both = (id: string, type: "MULTI_CHAIN" | "WALLET_CONNECT") =>
  makeFakeWallet({
    id,
    type,
    families: {
      eip155: { accounts: [{ address: ALICE, type: "eoa" }], chainId: 31337 },
      solana: { accounts: [{ address: SOL, type: "eoa" }], chainId: SOLANA_REF }
    }
  })

const statusOf = (namespace: "eip155" | "solana") =>
  Effect.gen(function* () {
    const connection = yield* Connection
    return (yield* SubscriptionRef.get(connection.state)).namespaces[namespace]?.account.status
  })

/** Waits until the connection state satisfies `condition` (wallet events are handled once the wallet is quiet). */
const until = (condition: (state: ConnectionState) => boolean) =>
  Effect.flatMap(Connection, (connection) =>
    SubscriptionRef.changes(connection.state).pipe(Stream.filter(condition), Stream.runHead, Effect.timeout("1 second"), Effect.orDie)
  )

/** Wallet events are applied once the wallet has been quiet for 50 ms: the fibers take them, then the clock moves. */
const walletQuiet = Effect.gen(function* () {
  for (let turn = 0; turn < 5; turn++) yield* Effect.yieldNow
  yield* TestClock.adjust("50 millis")
})

const networkOf = (namespace: string) => Effect.succeed(namespace === "solana" ? solana : localChainA)

const catalogueWallet = (id: string): WalletCatalogEntry => ({ id, name: id, image_id: id, chains: [] })

const connectors = (...wallets: ReadonlyArray<FakeWallet>) => wallets.map((wallet) => wallet.connector)

describe("Connection", () => {
  it.effect("connects: connecting while the wallet is asked, then connected with the CAIP address, remembered", () =>
    Effect.gen(function* () {
      const web = makeMemoryWebStorage()
      const wallet = yield* evm()
      yield* Effect.gen(function* () {
        const connection = yield* Connection
        const statuses: Array<string> = []
        const watcher = yield* SubscriptionRef.changes(connection.state).pipe(
          Stream.map((s) => s.namespaces.eip155?.account.status ?? "none"),
          Stream.changes,
          Stream.runForEach((s) => Effect.sync(() => statuses.push(s))),
          Effect.forkChild
        )
        yield* Effect.yieldNow
        const connected = yield* connection.connect({ connectorId: "io.metamask", networks: everywhere })
        yield* Effect.yieldNow
        yield* Fiber.interrupt(watcher)
        expect(connected.accounts.eip155?.address).toBe(ALICE)
        expect(connected.accounts.solana).toBeUndefined()
        expect(statuses).toEqual(["disconnected", "connecting", "connected"])
        const state = yield* SubscriptionRef.get(connection.state)
        expect(state.namespaces.eip155?.account.caipAddress).toBe(`eip155:31337:${ALICE}`)
        expect(state.namespaces.solana?.account.status).toBe("disconnected")
        expect(state.activeNamespace).toBe("eip155")
        const storage = yield* Storage
        expect(yield* storage.get(Keys.connectionStatus("eip155"))).toBe("connected")
        expect(yield* storage.get(Keys.connectedConnector("eip155"))).toEqual({ id: "io.metamask", type: "INJECTED" })
      }).pipe(Effect.provide(layerFor(web, connectors(wallet))))
    })
  )

  it.effect("one multi-chain wallet connects every family it serves; the family asked first is in front", () =>
    Effect.gen(function* () {
      const wallet = yield* both("dev.wallet", "MULTI_CHAIN")
      yield* Effect.gen(function* () {
        const connection = yield* Connection
        const connected = yield* connection.connect({ connectorId: "dev.wallet", networks: [solana, localChainA] })
        expect(connected.accounts.solana?.address).toBe(SOL)
        expect(connected.accounts.eip155?.address).toBe(ALICE)
        const state = yield* SubscriptionRef.get(connection.state)
        expect(state.activeNamespace).toBe("solana")
        expect(state.namespaces.solana?.account.caipAddress).toBe(`solana:${SOLANA_REF}:${SOL}`)
        expect(state.namespaces.eip155?.account.status).toBe("connected")
        expect(wallet.calls).toEqual(["connect:dev.wallet"])
      }).pipe(Effect.provide(layerFor(makeMemoryWebStorage(), connectors(wallet))))
    })
  )

  it.effect("a refused connect leaves every family as it was and says so", () =>
    Effect.gen(function* () {
      const wallet = yield* evm("io.metamask", { connectError: new UserRejected({ code: 4001 }) })
      yield* Effect.gen(function* () {
        const connection = yield* Connection
        const error = yield* Effect.flip(connection.connect({ connectorId: "io.metamask", networks: everywhere }))
        expect(error._tag).toBe("UserRejected")
        expect(yield* statusOf("eip155")).toBe("disconnected")
      }).pipe(Effect.provide(layerFor(makeMemoryWebStorage(), connectors(wallet))))
    })
  )

  it.effect("a wallet no longer on the page is 'Provider not found.'", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(
        Effect.flatMap(Connection, (connection) => connection.connect({ connectorId: "gone", networks: everywhere }))
      ).pipe(Effect.provide(layerFor(makeMemoryWebStorage(), [])))
      expect(error.message).toBe("Provider not found.")
    })
  )

  it.effect("an abandoned connect leaves the family connected to the previous wallet, and a late answer takes nothing over", () =>
    Effect.gen(function* () {
      const first = yield* evm("io.metamask")
      let answer!: () => void
      const slow = yield* makeFakeWallet({
        id: "slow",
        families: { eip155: { accounts: [{ address: BOB, type: "eoa" }], chainId: 31337 } },
        connectGate: new Promise<void>((resolve) => (answer = resolve))
      })
      yield* Effect.gen(function* () {
        const connection = yield* Connection
        yield* connection.connect({ connectorId: "io.metamask", networks: everywhere })
        const pending = yield* Effect.forkChild(connection.connect({ connectorId: "slow", networks: everywhere }))
        yield* Effect.yieldNow
        expect(yield* statusOf("eip155")).toBe("connecting")
        yield* Fiber.interrupt(pending)
        const state = yield* SubscriptionRef.get(connection.state)
        expect(state.namespaces.eip155?.account.status).toBe("connected")
        expect(state.namespaces.eip155?.account.address).toBe(ALICE)
        answer()
        yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 0)))
        expect((yield* SubscriptionRef.get(connection.state)).namespaces.eip155?.account.address).toBe(ALICE)
      }).pipe(Effect.provide(layerFor(makeMemoryWebStorage(), connectors(first, slow))))
    })
  )

  it.effect("after a reload a stored session shows reconnecting at once, then connected without a prompt", () =>
    Effect.gen(function* () {
      const web = makeMemoryWebStorage()
      yield* Effect.flatMap(Connection, (connection) => connection.connect({ connectorId: "io.metamask", networks: everywhere })).pipe(
        Effect.provide(layerFor(web, connectors(yield* evm())))
      )
      const reloaded = yield* evm()
      yield* Effect.gen(function* () {
        const connection = yield* Connection
        expect(yield* statusOf("eip155")).toBe("reconnecting")
        expect(yield* statusOf("solana")).toBe("disconnected")
        yield* connection.restore(networkOf)
        expect(yield* statusOf("eip155")).toBe("connected")
        expect(reloaded.calls).toEqual(["reconnect:io.metamask"])
      }).pipe(Effect.provide(layerFor(web, connectors(reloaded))))
    })
  )

  it.effect("a multi-chain session is restored with one reconnect for both families", () =>
    Effect.gen(function* () {
      const web = makeMemoryWebStorage()
      yield* Effect.flatMap(Connection, (connection) => connection.connect({ connectorId: "dev.wallet", networks: everywhere })).pipe(
        Effect.provide(layerFor(web, connectors(yield* both("dev.wallet", "MULTI_CHAIN"))))
      )
      const reloaded = yield* both("dev.wallet", "MULTI_CHAIN")
      yield* Effect.gen(function* () {
        const connection = yield* Connection
        expect(yield* statusOf("solana")).toBe("reconnecting")
        yield* connection.restore(networkOf)
        expect(yield* statusOf("eip155")).toBe("connected")
        expect(yield* statusOf("solana")).toBe("connected")
        expect(reloaded.calls).toEqual(["reconnect:dev.wallet"])
      }).pipe(Effect.provide(layerFor(web, connectors(reloaded))))
    })
  )

  it.effect("a wallet that no longer authorises the site restores as disconnected and is forgotten", () =>
    Effect.gen(function* () {
      const web = makeMemoryWebStorage()
      yield* Effect.flatMap(Connection, (connection) => connection.connect({ connectorId: "io.metamask", networks: everywhere })).pipe(
        Effect.provide(layerFor(web, connectors(yield* evm())))
      )
      const revoked = yield* evm("io.metamask", { authorised: false })
      yield* Effect.gen(function* () {
        yield* (yield* Connection).restore(networkOf)
        expect(yield* statusOf("eip155")).toBe("disconnected")
        const storage = yield* Storage
        expect(yield* storage.get(Keys.connectionStatus("eip155"))).toBe("disconnected")
        expect(yield* storage.get(Keys.connectedConnector("eip155"))).toBeNull()
      }).pipe(Effect.provide(layerFor(web, connectors(revoked))))
    })
  )

  it.effect("a restore the wallet never answers ends disconnected after 10 s (spec 4: a failed sync gives disconnected)", () =>
    Effect.gen(function* () {
      const web = makeMemoryWebStorage()
      yield* Effect.flatMap(Connection, (connection) => connection.connect({ connectorId: "io.metamask", networks: everywhere })).pipe(
        Effect.provide(layerFor(web, connectors(yield* evm())))
      )
      const silent = yield* evm("io.metamask", { reconnectGate: new Promise<void>(() => undefined) })
      yield* Effect.gen(function* () {
        const connection = yield* Connection
        const restoring = yield* Effect.forkChild(connection.restore(networkOf))
        yield* TestClock.adjust("9 seconds")
        expect(yield* statusOf("eip155")).toBe("reconnecting")
        yield* TestClock.adjust("1 second")
        yield* Fiber.join(restoring)
        expect(yield* statusOf("eip155")).toBe("disconnected")
      }).pipe(Effect.provide(layerFor(web, connectors(silent))))
    })
  )

  it.effect("a restore that gives up forgets only what is still restoring: a wallet connected meanwhile keeps its session", () =>
    Effect.gen(function* () {
      const web = makeMemoryWebStorage()
      yield* Effect.flatMap(Connection, (connection) => connection.connect({ connectorId: "io.metamask", networks: everywhere })).pipe(
        Effect.provide(layerFor(web, connectors(yield* evm())))
      )
      const silent = yield* evm("io.metamask", { reconnectGate: new Promise<void>(() => undefined) })
      const other = yield* makeFakeWallet({ id: "com.other", families: { eip155: { accounts: [{ address: BOB, type: "eoa" }], chainId: 31337 } } })
      yield* Effect.gen(function* () {
        const connection = yield* Connection
        const restoring = yield* Effect.forkChild(connection.restore(networkOf))
        yield* TestClock.adjust("2 seconds")
        yield* connection.connect({ connectorId: "com.other", networks: everywhere })
        expect(yield* statusOf("eip155")).toBe("connected")
        yield* TestClock.adjust("10 seconds")
        yield* Fiber.join(restoring)
        const state = yield* SubscriptionRef.get(connection.state)
        expect(state.namespaces.eip155?.account.status).toBe("connected")
        expect(state.namespaces.eip155?.account.address).toBe(BOB)
        const storage = yield* Storage
        expect(yield* storage.get(Keys.connectedConnector("eip155"))).toMatchObject({ id: "com.other" })
        expect(other.calls).not.toContain("disconnect:com.other")
      }).pipe(Effect.provide(layerFor(web, connectors(silent, other))))
    })
  )

  it.effect("the restore bound counts from the restore's start: a wallet that announces itself late gets the rest of the 10 s", () =>
    Effect.gen(function* () {
      const web = makeMemoryWebStorage()
      yield* Effect.flatMap(Connection, (connection) => connection.connect({ connectorId: "io.metamask", networks: everywhere })).pipe(
        Effect.provide(layerFor(web, connectors(yield* evm())))
      )
      const silent = yield* evm("io.metamask", { reconnectGate: new Promise<void>(() => undefined) })
      const announced = yield* SubscriptionRef.make<ReadonlyArray<Connector>>([])
      const lateLayer = Connection.layer.pipe(
        Layer.provideMerge(Storage.layer.pipe(Layer.provide(KeyValueStore.layerStorage(() => web)))),
        Layer.provide(Config.layer(options)),
        Layer.provideMerge(Connectors.layerFrom([Effect.succeed(announced)]))
      )
      yield* Effect.gen(function* () {
        const restoring = yield* Effect.forkChild((yield* Connection).restore(networkOf))
        yield* TestClock.adjust("900 millis")
        yield* SubscriptionRef.set(announced, connectors(silent))
        for (let turn = 0; turn < 10; turn++) yield* Effect.yieldNow
        expect((yield* (yield* Connectors).find("io.metamask"))._tag).toBe("Some")
        yield* TestClock.adjust("9099 millis")
        expect(yield* statusOf("eip155")).toBe("reconnecting")
        yield* TestClock.adjust("1 millis")
        yield* Fiber.join(restoring)
        expect(yield* statusOf("eip155")).toBe("disconnected")
      }).pipe(Effect.provide(lateLayer))
    })
  )

  it.effect("a stored wallet that does not announce itself within a second restores as disconnected", () =>
    Effect.gen(function* () {
      const web = makeMemoryWebStorage()
      yield* Effect.flatMap(Connection, (connection) => connection.connect({ connectorId: "io.metamask", networks: everywhere })).pipe(
        Effect.provide(layerFor(web, connectors(yield* evm())))
      )
      yield* Effect.gen(function* () {
        const restoring = yield* Effect.forkChild((yield* Connection).restore(networkOf))
        yield* TestClock.adjust("1 second")
        yield* Fiber.join(restoring)
        expect(yield* statusOf("eip155")).toBe("disconnected")
      }).pipe(Effect.provide(layerFor(web, [])))
    })
  )

  it.effect("follows the wallet: account changes, chain changes, and an emptied account list disconnects", () =>
    Effect.gen(function* () {
      const wallet = yield* evm()
      yield* Effect.gen(function* () {
        const connection = yield* Connection
        const chains = yield* connection.walletChainChanges.pipe(Stream.take(2), Stream.runCollect, Effect.forkChild)
        yield* Effect.yieldNow
        yield* connection.connect({ connectorId: "io.metamask", networks: everywhere })
        yield* Effect.yieldNow
        yield* wallet.emit({ _tag: "AccountsChanged", namespace: "eip155", accounts: [{ address: BOB, type: "eoa" }] })
        yield* walletQuiet
        yield* until((s) => s.namespaces.eip155?.account.address === BOB)
        let account = (yield* SubscriptionRef.get(connection.state)).namespaces.eip155?.account
        expect(account?.address).toBe(BOB)
        expect(account?.caipAddress).toBe(`eip155:31337:${BOB}`)

        yield* wallet.emit({ _tag: "ChainChanged", namespace: "eip155", chainId: 31338 })
        yield* walletQuiet
        yield* until((s) => s.namespaces.eip155?.chainId === 31338)
        account = (yield* SubscriptionRef.get(connection.state)).namespaces.eip155?.account
        expect(account?.caipAddress).toBe(`eip155:31338:${BOB}`)
        expect([...(yield* Fiber.join(chains))].map((c) => c.chainId)).toEqual([31337, 31338])

        yield* wallet.emit({ _tag: "AccountsChanged", namespace: "eip155", accounts: [] })
        yield* walletQuiet
        yield* until((s) => s.namespaces.eip155?.account.status === "disconnected")
      }).pipe(Effect.provide(layerFor(makeMemoryWebStorage(), connectors(wallet))))
    })
  )

  it.effect("a burst of 1,000 account changes costs one update, ending on the last account", () =>
    Effect.gen(function* () {
      const wallet = yield* evm()
      yield* Effect.gen(function* () {
        const connection = yield* Connection
        yield* connection.connect({ connectorId: "io.metamask", networks: everywhere })
        yield* Effect.yieldNow
        const addresses: Array<string> = []
        const watcher = yield* SubscriptionRef.changes(connection.state).pipe(
          Stream.drop(1),
          Stream.runForEach((s) => Effect.sync(() => addresses.push(s.namespaces.eip155?.account.address ?? ""))),
          Effect.forkChild
        )
        yield* Effect.yieldNow
        const last = `0x${"9".repeat(40)}`
        yield* wallet.emitBurst(
          Array.from({ length: 1000 }, (_, i): WalletEvent => ({
            _tag: "AccountsChanged",
            namespace: "eip155",
            accounts: [{ address: i === 999 ? last : `0x${i.toString(16).padStart(40, "0")}`, type: "eoa" }]
          }))
        )
        yield* walletQuiet
        yield* until((s) => s.namespaces.eip155?.account.address === last)
        yield* Fiber.interrupt(watcher)
        expect(addresses).toEqual([last])
      }).pipe(Effect.provide(layerFor(makeMemoryWebStorage(), connectors(wallet))))
    })
  )

  it("coalescing keeps each family's last account and chain change, and its disconnect", () => {
    const accounts = (address: string): WalletEvent => ({ _tag: "AccountsChanged", namespace: "eip155", accounts: [{ address, type: "eoa" }] })
    const events: ReadonlyArray<WalletEvent> = [
      accounts("a"),
      { _tag: "ChainChanged", namespace: "eip155", chainId: 1 },
      { _tag: "AccountsChanged", namespace: "solana", accounts: [] },
      accounts("b"),
      { _tag: "ChainChanged", namespace: "eip155", chainId: 2 },
      { _tag: "Disconnected", namespace: "solana" }
    ]
    expect(coalesceEvents(events)).toEqual([events[2], events[3], events[4], events[5]])
  })

  it.effect("disconnecting one family of a shared session ends every family of it and clears the deep link", () =>
    Effect.gen(function* () {
      const session = yield* both("walletConnect", "WALLET_CONNECT")
      yield* Effect.gen(function* () {
        const connection = yield* Connection
        const storage = yield* Storage
        yield* connection.connect({ connectorId: "walletConnect", networks: everywhere })
        yield* storage.set(Keys.walletConnectDeepLink, { href: "wallet://", name: "Test Wallet" })
        const ended = yield* connection.disconnect("eip155")
        expect([...ended].sort()).toEqual(["eip155", "solana"])
        expect(yield* statusOf("eip155")).toBe("disconnected")
        expect(yield* statusOf("solana")).toBe("disconnected")
        expect(yield* storage.get(Keys.walletConnectDeepLink)).toBeNull()
        expect(session.calls.filter((call) => call === "disconnect")).toHaveLength(1)
      }).pipe(Effect.provide(layerFor(makeMemoryWebStorage(), connectors(session))))
    })
  )

  it.effect("disconnecting a multi-chain wallet never puts one of its families in front on the way (sign-in would check it)", () =>
    Effect.gen(function* () {
      const wallet = yield* both("io.metamask", "MULTI_CHAIN")
      yield* Effect.gen(function* () {
        const connection = yield* Connection
        yield* connection.connect({ connectorId: "io.metamask", networks: everywhere })
        expect((yield* SubscriptionRef.get(connection.state)).activeNamespace).toBe("eip155")
        // Every state published from here until both families are gone: which connected family each put in front.
        const fronts = yield* SubscriptionRef.changes(connection.state).pipe(
          Stream.takeUntil((s) => s.activeNamespace === undefined && s.namespaces.solana?.account.status === "disconnected"),
          Stream.map((s) => (s.activeNamespace !== undefined && s.namespaces[s.activeNamespace]?.account.status === "connected" ? s.activeNamespace : undefined)),
          Stream.runCollect,
          Effect.forkChild({ startImmediately: true })
        )
        expect([...(yield* connection.disconnect("eip155"))].sort()).toEqual(["eip155", "solana"])
        expect(new Set(yield* Fiber.join(fronts))).toEqual(new Set(["eip155", undefined]))
      }).pipe(Effect.provide(layerFor(makeMemoryWebStorage(), connectors(wallet))))
    })
  )

  it.effect("a multi-chain wallet that disconnects by itself never puts one of its families in front on the way", () =>
    Effect.gen(function* () {
      const wallet = yield* both("io.metamask", "MULTI_CHAIN")
      yield* Effect.gen(function* () {
        const connection = yield* Connection
        yield* connection.connect({ connectorId: "io.metamask", networks: everywhere })
        const fronts = yield* SubscriptionRef.changes(connection.state).pipe(
          Stream.takeUntil((s) => s.activeNamespace === undefined && s.namespaces.solana?.account.status === "disconnected"),
          Stream.map((s) => (s.activeNamespace !== undefined && s.namespaces[s.activeNamespace]?.account.status === "connected" ? s.activeNamespace : undefined)),
          Stream.runCollect,
          Effect.forkChild({ startImmediately: true })
        )
        yield* wallet.emit({ _tag: "Disconnected", namespace: undefined })
        yield* walletQuiet
        expect(new Set(yield* Fiber.join(fronts))).toEqual(new Set(["eip155", undefined]))
      }).pipe(Effect.provide(layerFor(makeMemoryWebStorage(), connectors(wallet))))
    })
  )

  it.effect("disconnecting a family of one wallet leaves another wallet's family alone, which goes in front", () =>
    Effect.gen(function* () {
      const injected = yield* evm()
      const phantom = yield* makeFakeWallet({ id: "phantom", families: { solana: { accounts: [{ address: SOL, type: "eoa" }], chainId: SOLANA_REF } } })
      yield* Effect.gen(function* () {
        const connection = yield* Connection
        yield* connection.connect({ connectorId: "phantom", networks: [solana] })
        yield* connection.connect({ connectorId: "io.metamask", networks: everywhere })
        expect((yield* SubscriptionRef.get(connection.state)).activeNamespace).toBe("eip155")
        expect(yield* connection.disconnect("eip155")).toEqual(["eip155"])
        expect(yield* statusOf("solana")).toBe("connected")
        expect((yield* SubscriptionRef.get(connection.state)).activeNamespace).toBe("solana")
        expect(phantom.calls).not.toContain("disconnect")
      }).pipe(Effect.provide(layerFor(makeMemoryWebStorage(), connectors(injected, phantom))))
    })
  )

  it.effect("events of a wallet that was replaced in a family are ignored", () =>
    Effect.gen(function* () {
      const first = yield* evm("first")
      const second = yield* makeFakeWallet({ id: "second", families: { eip155: { accounts: [{ address: BOB, type: "eoa" }], chainId: 31337 } } })
      yield* Effect.gen(function* () {
        const connection = yield* Connection
        yield* connection.connect({ connectorId: "first", networks: everywhere })
        yield* connection.connect({ connectorId: "second", networks: everywhere })
        yield* first.emit({ _tag: "AccountsChanged", namespace: "eip155", accounts: [] })
        yield* walletQuiet
        const account = (yield* SubscriptionRef.get(connection.state)).namespaces.eip155?.account
        expect(account?.status).toBe("connected")
        expect(account?.address).toBe(BOB)
      }).pipe(Effect.provide(layerFor(makeMemoryWebStorage(), connectors(first, second))))
    })
  )

  it.effect("a wallet that fails to disconnect gives 'Failed to disconnect', and the session is forgotten anyway", () =>
    Effect.gen(function* () {
      const wallet = yield* evm("io.metamask", { disconnectError: new DisconnectFailed({ reason: "provider gone" }) })
      yield* Effect.gen(function* () {
        const connection = yield* Connection
        yield* connection.connect({ connectorId: "io.metamask", networks: everywhere })
        const error = yield* Effect.flip(connection.disconnect())
        expect(error.message).toBe("Failed to disconnect")
        expect(yield* statusOf("eip155")).toBe("disconnected")
      }).pipe(Effect.provide(layerFor(makeMemoryWebStorage(), connectors(wallet))))
    })
  )

  it.effect("keeps the two most recent wallets, newest first, across reloads", () =>
    Effect.gen(function* () {
      const web = makeMemoryWebStorage()
      yield* Effect.gen(function* () {
        const connection = yield* Connection
        for (const id of ["one", "two", "three"]) yield* connection.addRecentWallet(catalogueWallet(id))
      }).pipe(Effect.provide(layerFor(web, [])))
      yield* Effect.gen(function* () {
        const connection = yield* Connection
        expect((yield* SubscriptionRef.get(connection.state)).recentWallets.map((w) => w.id)).toEqual(["three", "two"])
      }).pipe(Effect.provide(layerFor(web, [])))
    })
  )

  it.effect("the live session of a family gives what an action needs; none when not connected", () =>
    Effect.gen(function* () {
      const wallet = yield* evm()
      yield* Effect.gen(function* () {
        const connection = yield* Connection
        expect((yield* connection.session("eip155"))._tag).toBe("None")
        yield* connection.connect({ connectorId: "io.metamask", networks: everywhere })
        const session = yield* connection.session("eip155")
        expect(session._tag === "Some" && session.value.address).toBe(ALICE)
        expect(session._tag === "Some" && session.value.provider.namespace).toBe("eip155")
        expect((yield* connection.session("solana"))._tag).toBe("None")
      }).pipe(Effect.provide(layerFor(makeMemoryWebStorage(), connectors(wallet))))
    })
  )
})
