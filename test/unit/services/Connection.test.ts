import { describe, expect, it } from "@effect/vitest"
import { Effect, Fiber, Layer, Stream, SubscriptionRef } from "effect"
import * as KeyValueStore from "effect/persistence/KeyValueStore"
import { ethereum, localChainA, localChainB, solana } from "../../../src/domain/Network"
import { decodeOptionsSync } from "../../../src/domain/Options"
import type { CaipNetwork } from "../../../src/domain/Network"
import { DisconnectFailed, UserRejected } from "../../../src/domain/errors"
import type { WalletCatalogEntry } from "../../../src/domain/Wallet"
import { ChainAdapters, type FakeChainAdapter, makeFakeChainAdapter } from "../../../src/services/ChainAdapter"
import { Config } from "../../../src/services/Config"
import { Connection } from "../../../src/services/Connection"
import { Storage } from "../../../src/services/Storage/Storage"
import * as Keys from "../../../src/services/Storage/keys"
import { makeMemoryWebStorage } from "../support/memoryWebStorage"

const ALICE = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"
const BOB = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8"
const SOL = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM"

const options = decodeOptionsSync({ projectId: "test", networks: [localChainA, localChainB, solana] })

const layerFor = (web: globalThis.Storage, adapters: ReadonlyArray<FakeChainAdapter>) =>
  Connection.layer.pipe(
    Layer.provideMerge(Storage.layer.pipe(Layer.provide(KeyValueStore.layerStorage(() => web)))),
    Layer.provide(Config.layer(options)),
    Layer.provide(ChainAdapters.layer(adapters))
  )

const evm = (connectorType: "INJECTED" | "WALLET_CONNECT" = "INJECTED") =>
  makeFakeChainAdapter("eip155", { accounts: [{ address: ALICE, type: "eoa" }], chainId: 31337 }, connectorType)
const sol = (connectorType: "INJECTED" | "WALLET_CONNECT" = "INJECTED") =>
  makeFakeChainAdapter("solana", { accounts: [{ address: SOL, type: "eoa" }], chainId: "5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp" }, connectorType)

const statusOf = (namespace: "eip155" | "solana") =>
  Effect.gen(function* () {
    const connection = yield* Connection
    return (yield* SubscriptionRef.get(connection.state)).namespaces[namespace]?.account.status
  })

const networkOf = (network: CaipNetwork) => () => Effect.succeed(network)

const wallet = (id: string): WalletCatalogEntry => ({ id, name: id, image_id: id, chains: [] })

describe("Connection", () => {
  it.effect("connects: connecting while the wallet is asked, then connected with the CAIP address, remembered", () =>
    Effect.gen(function* () {
      const web = makeMemoryWebStorage()
      const adapter = yield* evm()
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
        const session = yield* connection.connect({ namespace: "eip155", connectorId: "io.metamask", network: localChainA })
        yield* Effect.yieldNow
        yield* Fiber.interrupt(watcher)
        expect(session.address).toBe(ALICE)
        expect(statuses).toEqual(["disconnected", "connecting", "connected"])
        const state = yield* SubscriptionRef.get(connection.state)
        expect(state.namespaces.eip155?.account.caipAddress).toBe(`eip155:31337:${ALICE}`)
        expect(state.activeNamespace).toBe("eip155")
        const storage = yield* Storage
        expect(yield* storage.get(Keys.connectionStatus("eip155"))).toBe("connected")
        expect(yield* storage.get(Keys.connectedConnector("eip155"))).toEqual({ id: "io.metamask", type: "INJECTED" })
      }).pipe(Effect.provide(layerFor(web, [adapter])))
    })
  )

  it.effect("a refused connect leaves the family disconnected and says so", () =>
    Effect.gen(function* () {
      const adapter = yield* evm()
      adapter.script.connectError = new UserRejected({ code: 4001 })
      yield* Effect.gen(function* () {
        const connection = yield* Connection
        const error = yield* Effect.flip(connection.connect({ namespace: "eip155", connectorId: "x", network: localChainA }))
        expect(error._tag).toBe("UserRejected")
        expect(yield* statusOf("eip155")).toBe("disconnected")
      }).pipe(Effect.provide(layerFor(makeMemoryWebStorage(), [adapter])))
    })
  )

  it.effect("an abandoned connect (interrupted while the wallet is asked) leaves the family as it was", () =>
    Effect.gen(function* () {
      const adapter = yield* evm()
      const waiting = { ...adapter, connect: () => Effect.never }
      yield* Effect.gen(function* () {
        const connection = yield* Connection
        const pending = yield* Effect.forkChild(connection.connect({ namespace: "eip155", connectorId: "slow", network: localChainA }))
        yield* Effect.yieldNow
        expect(yield* statusOf("eip155")).toBe("connecting")
        yield* Fiber.interrupt(pending)
        expect(yield* statusOf("eip155")).toBe("disconnected")
      }).pipe(Effect.provide(layerFor(makeMemoryWebStorage(), [waiting])))
    })
  )

  it.effect("after a reload a stored session shows reconnecting at once, then connected without a prompt", () =>
    Effect.gen(function* () {
      const web = makeMemoryWebStorage()
      const adapter = yield* evm()
      yield* Effect.gen(function* () {
        const connection = yield* Connection
        yield* connection.connect({ namespace: "eip155", connectorId: "io.metamask", network: localChainA })
      }).pipe(Effect.provide(layerFor(web, [adapter])))

      const reloaded = yield* evm()
      yield* Effect.gen(function* () {
        const connection = yield* Connection
        expect(yield* statusOf("eip155")).toBe("reconnecting")
        expect(yield* statusOf("solana")).toBe("disconnected")
        yield* connection.restore(networkOf(localChainA))
        expect(yield* statusOf("eip155")).toBe("connected")
        expect(reloaded.calls).toEqual(["reconnect:io.metamask"])
      }).pipe(Effect.provide(layerFor(web, [reloaded])))
    })
  )

  it.effect("a wallet that no longer authorises the site restores as disconnected and is forgotten", () =>
    Effect.gen(function* () {
      const web = makeMemoryWebStorage()
      const adapter = yield* evm()
      yield* Effect.gen(function* () {
        yield* (yield* Connection).connect({ namespace: "eip155", connectorId: "io.metamask", network: localChainA })
      }).pipe(Effect.provide(layerFor(web, [adapter])))

      const revoked = yield* evm()
      revoked.script.authorised = false
      yield* Effect.gen(function* () {
        const connection = yield* Connection
        yield* connection.restore(networkOf(localChainA))
        expect(yield* statusOf("eip155")).toBe("disconnected")
        const storage = yield* Storage
        expect(yield* storage.get(Keys.connectionStatus("eip155"))).toBe("disconnected")
        expect(yield* storage.get(Keys.connectedConnector("eip155"))).toBeNull()
      }).pipe(Effect.provide(layerFor(web, [revoked])))
    })
  )

  it.effect("follows the wallet: account changes, chain changes, and an emptied account list disconnects", () =>
    Effect.gen(function* () {
      const adapter = yield* evm()
      yield* Effect.gen(function* () {
        const connection = yield* Connection
        const chains = yield* connection.walletChainChanges.pipe(Stream.take(2), Stream.runCollect, Effect.forkChild)
        yield* Effect.yieldNow
        yield* connection.connect({ namespace: "eip155", connectorId: "io.metamask", network: localChainA })
        yield* Effect.yieldNow
        yield* adapter.emit({ _tag: "AccountsChanged", accounts: [{ address: BOB, type: "eoa" }] })
        yield* Effect.yieldNow
        let account = (yield* SubscriptionRef.get(connection.state)).namespaces.eip155?.account
        expect(account?.address).toBe(BOB)
        expect(account?.caipAddress).toBe(`eip155:31337:${BOB}`)

        yield* adapter.emit({ _tag: "ChainChanged", chainId: 31338 })
        yield* Effect.yieldNow
        account = (yield* SubscriptionRef.get(connection.state)).namespaces.eip155?.account
        expect(account?.caipAddress).toBe(`eip155:31338:${BOB}`)
        expect([...(yield* Fiber.join(chains))].map((c) => c.chainId)).toEqual([31337, 31338])

        yield* adapter.emit({ _tag: "AccountsChanged", accounts: [] })
        yield* Effect.yieldNow
        expect(yield* statusOf("eip155")).toBe("disconnected")
      }).pipe(Effect.provide(layerFor(makeMemoryWebStorage(), [adapter])))
    })
  )

  it.effect("disconnecting a WalletConnect family ends every family sharing the session and clears the deep link", () =>
    Effect.gen(function* () {
      const evmWc = yield* evm("WALLET_CONNECT")
      const solWc = yield* sol("WALLET_CONNECT")
      yield* Effect.gen(function* () {
        const connection = yield* Connection
        const storage = yield* Storage
        yield* connection.connect({ namespace: "eip155", connectorId: "walletConnect", network: localChainA })
        yield* connection.connect({ namespace: "solana", connectorId: "walletConnect", network: solana })
        yield* storage.set(Keys.walletConnectDeepLink, { href: "wallet://", name: "Test Wallet" })
        const ended = yield* connection.disconnect("eip155")
        expect([...ended].sort()).toEqual(["eip155", "solana"])
        expect(yield* statusOf("eip155")).toBe("disconnected")
        expect(yield* statusOf("solana")).toBe("disconnected")
        expect(yield* storage.get(Keys.walletConnectDeepLink)).toBeNull()
        expect(solWc.calls).toContain("disconnect")
      }).pipe(Effect.provide(layerFor(makeMemoryWebStorage(), [evmWc, solWc])))
    })
  )

  it.effect("disconnecting an injected family leaves another family's session alone", () =>
    Effect.gen(function* () {
      const evmInjected = yield* evm("INJECTED")
      const solWc = yield* sol("WALLET_CONNECT")
      yield* Effect.gen(function* () {
        const connection = yield* Connection
        yield* connection.connect({ namespace: "eip155", connectorId: "io.metamask", network: localChainA })
        yield* connection.connect({ namespace: "solana", connectorId: "walletConnect", network: solana })
        expect(yield* connection.disconnect("eip155")).toEqual(["eip155"])
        expect(yield* statusOf("solana")).toBe("connected")
        expect((yield* SubscriptionRef.get(connection.state)).activeNamespace).toBe("solana")
      }).pipe(Effect.provide(layerFor(makeMemoryWebStorage(), [evmInjected, solWc])))
    })
  )

  it.effect("a wallet that fails to disconnect gives 'Failed to disconnect', and the session is forgotten anyway", () =>
    Effect.gen(function* () {
      const adapter = yield* evm()
      adapter.script.disconnectError = new DisconnectFailed({ reason: "provider gone" })
      yield* Effect.gen(function* () {
        const connection = yield* Connection
        yield* connection.connect({ namespace: "eip155", connectorId: "io.metamask", network: localChainA })
        const error = yield* Effect.flip(connection.disconnect())
        expect(error.message).toBe("Failed to disconnect")
        expect(yield* statusOf("eip155")).toBe("disconnected")
      }).pipe(Effect.provide(layerFor(makeMemoryWebStorage(), [adapter])))
    })
  )

  it.effect("keeps the two most recent wallets, newest first, across reloads", () =>
    Effect.gen(function* () {
      const web = makeMemoryWebStorage()
      const adapter = yield* evm()
      yield* Effect.gen(function* () {
        const connection = yield* Connection
        for (const id of ["one", "two", "three"]) {
          yield* connection.connect({ namespace: "eip155", connectorId: id, network: localChainA, wallet: wallet(id) })
        }
      }).pipe(Effect.provide(layerFor(web, [adapter])))
      yield* Effect.gen(function* () {
        const connection = yield* Connection
        expect((yield* SubscriptionRef.get(connection.state)).recentWallets.map((w) => w.id)).toEqual(["three", "two"])
      }).pipe(Effect.provide(layerFor(web, [yield* evm()])))
    })
  )

  it.effect("restoring a family with no adapter leaves it disconnected", () =>
    Effect.gen(function* () {
      const web = makeMemoryWebStorage()
      web.setItem("wr:v1:connectionStatus:solana", JSON.stringify("connected"))
      web.setItem("wr:v1:connectedConnector:solana", JSON.stringify({ id: "phantom", type: "INJECTED" }))
      yield* Effect.gen(function* () {
        const connection = yield* Connection
        expect(yield* statusOf("solana")).toBe("disconnected")
        yield* connection.restore(networkOf(ethereum))
        expect(yield* statusOf("solana")).toBe("disconnected")
      }).pipe(Effect.provide(layerFor(web, [yield* evm()])))
    })
  )
})
