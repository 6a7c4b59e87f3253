/**
 * A connected wallet that misbehaves: floods of `accountsChanged` / `chainChanged`, each in its own task, cost one
 * update of the latest state (a wallet that never stops still shows its latest state once a second); payloads that
 * make no sense are ignored and reported, never a disconnect; chain ids are positive safe integers. The wallet here is
 * a plain EIP-1193 provider behind the real EIP-1193 connector and the real Connection.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Fiber, Layer, Logger, Stream, SubscriptionRef } from "effect"
import * as KeyValueStore from "effect/persistence/KeyValueStore"
import { TestClock } from "effect/testing"
import { localChainA, localChainB } from "../../../src/domain/networks"
import { decodeOptionsSync } from "../../../src/domain/Options"
import { Config } from "../../../src/services/Config"
import { coalesceEvents, Connection } from "../../../src/services/Connection"
import type { WalletEvent } from "../../../src/services/connectors/Connector"
import { Connectors } from "../../../src/services/connectors/Connectors"
import { eip1193Events, evmAccountsOf, makeEip1193Connector } from "../../../src/services/connectors/eip6963"
import { type Eip1193Provider, parseChainId, providerCodeOf } from "../../../src/services/eip155/eip1193"
import { Storage } from "../../../src/services/Storage/Storage"
import { makeMemoryWebStorage } from "../support/memoryWebStorage"
import { throwingProxy } from "./hostile"

const ALICE = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"
const BOB = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8"

/** An EIP-1193 provider whose events the test fires, as an extension fires them, straight into the listeners. */
const makeProvider = () => {
  const listeners = new Map<string, Set<(...args: Array<unknown>) => void>>()
  const provider: Eip1193Provider = {
    request: async ({ method }) => (method === "eth_chainId" ? "0x7a69" : [ALICE]),
    on: (event, listener) => {
      listeners.set(event, (listeners.get(event) ?? new Set()).add(listener))
    },
    removeListener: (event, listener) => {
      listeners.get(event)?.delete(listener)
    }
  }
  const fire = (event: string, payload: unknown) => {
    for (const listener of listeners.get(event) ?? []) listener(payload)
  }
  return { provider, fire, listening: (event: string) => listeners.get(event)?.size ?? 0 }
}

/** Collects the warnings logged while `effect` runs. */
const withWarnings = <A, E, R>(use: (warnings: Array<string>) => Effect.Effect<A, E, R>) => {
  const warnings: Array<string> = []
  const collect = Logger.make((options) => {
    if (options.logLevel === "Warn") warnings.push(String(options.message))
  })
  return use(warnings).pipe(Effect.provide(Logger.layer([collect])))
}

const connectorOf = (provider: Eip1193Provider) =>
  makeEip1193Connector({ id: "com.example.wallet", name: "Example Wallet", type: "ANNOUNCED", chain: "eip155", chains: [] }, provider)

const layerFor = (provider: Eip1193Provider) =>
  Connection.layer.pipe(
    Layer.provideMerge(Storage.layer.pipe(Layer.provide(KeyValueStore.layerStorage(makeMemoryWebStorage)))),
    Layer.provide(Config.layer(decodeOptionsSync({ projectId: "test", networks: [localChainA, localChainB] }))),
    Layer.provide(Connectors.layer([connectorOf(provider)]))
  )

/** Each event in its own task: the runtime's fibers run between two of them. */
const nextTask = Effect.gen(function* () {
  for (let turn = 0; turn < 3; turn++) yield* Effect.yieldNow
})

/** Connects the wallet, then records every state the visitor would see (its account and chain) from then on. */
const connectAndWatch = Effect.gen(function* () {
  const connection = yield* Connection
  yield* connection.connect({ connectorId: "com.example.wallet", networks: [localChainA] })
  const seen: Array<string> = []
  const watcher = yield* SubscriptionRef.changes(connection.state).pipe(
    Stream.drop(1),
    Stream.map((state) => state.namespaces.eip155),
    Stream.runForEach((family) => Effect.sync(() => seen.push(`${family?.account.status}:${family?.account.address}:${family?.chainId}`))),
    Effect.forkChild
  )
  yield* nextTask
  return { connection, seen, watcher }
})

describe("wallet event floods", () => {
  it.effect("1,000 accountsChanged, each in its own task, garbage among them: one update, the last valid account", () =>
    withWarnings((warnings) =>
      Effect.gen(function* () {
        const wallet = makeProvider()
        yield* Effect.gen(function* () {
          const { seen, watcher } = yield* connectAndWatch
          for (let i = 0; i < 1000; i++) {
            const garbage = [null, 5, {}, "0xZZ", ["0xZZ"], throwingProxy([])]
            const payload = i === 999 ? [BOB] : i % 7 === 3 ? garbage[i % garbage.length] : [`0x${(i + 1).toString(16).padStart(40, "0")}`]
            wallet.fire("accountsChanged", payload)
            yield* nextTask
          }
          expect(seen).toEqual([])
          yield* TestClock.adjust("50 millis")
          yield* Fiber.interrupt(watcher)
          expect(seen).toEqual([`connected:${BOB}:31337`])
          expect(warnings.filter((warning) => warning.includes("accountsChanged"))).toHaveLength(1)
        }).pipe(Effect.provide(layerFor(wallet.provider)))
      })
    )
  )

  it.effect("1,000 chainChanged with garbage and a 300-digit id: one update to the last valid chain", () =>
    Effect.gen(function* () {
      const wallet = makeProvider()
      yield* Effect.gen(function* () {
        const { seen, watcher } = yield* connectAndWatch
        for (let i = 0; i < 1000; i++) {
          const garbage = [null, "0xZZ", {}, `0x${"f".repeat(300)}`, "0x0", -1, 2 ** 53]
          wallet.fire("chainChanged", i === 999 ? "0x7a6a" : i % 5 === 2 ? garbage[i % garbage.length] : i % 2 === 0 ? "0x7a69" : "0x7a6a")
          yield* nextTask
        }
        yield* TestClock.adjust("50 millis")
        yield* Fiber.interrupt(watcher)
        expect(seen).toEqual([`connected:${ALICE}:31338`])
      }).pipe(Effect.provide(layerFor(wallet.provider)))
    })
  )

  it.effect("a wallet that never goes quiet still shows its latest state once a second", () =>
    Effect.gen(function* () {
      const wallet = makeProvider()
      yield* Effect.gen(function* () {
        const { seen, watcher } = yield* connectAndWatch
        // 150 events 10 ms apart: never 50 ms of quiet for 1.5 s.
        for (let i = 0; i < 150; i++) {
          wallet.fire("accountsChanged", [`0x${(i + 1).toString(16).padStart(40, "0")}`])
          yield* nextTask
          yield* TestClock.adjust("10 millis")
        }
        yield* TestClock.adjust("50 millis")
        yield* Fiber.interrupt(watcher)
        expect(seen.length).toBe(2)
        expect(seen[1]).toBe(`connected:0x${(150).toString(16).padStart(40, "0")}:31337`)
      }).pipe(Effect.provide(layerFor(wallet.provider)))
    })
  )

  it.effect("garbage alone leaves the visitor connected; an empty account list is a real disconnect", () =>
    Effect.gen(function* () {
      const wallet = makeProvider()
      yield* Effect.gen(function* () {
        const { connection, seen, watcher } = yield* connectAndWatch
        for (const payload of [null, 5, {}, "0xZZ", ["0xZZ"], [null], throwingProxy([])]) wallet.fire("accountsChanged", payload)
        for (const payload of [null, "0xZZ", {}, `0x${"f".repeat(300)}`]) wallet.fire("chainChanged", payload)
        yield* nextTask
        yield* TestClock.adjust("50 millis")
        expect(seen).toEqual([])
        expect((yield* SubscriptionRef.get(connection.state)).namespaces.eip155?.account.status).toBe("connected")
        wallet.fire("accountsChanged", [])
        yield* nextTask
        yield* TestClock.adjust("50 millis")
        yield* Fiber.interrupt(watcher)
        // Forgetting a session moves the family, then the family in front: the visitor sees one state, disconnected.
        expect([...new Set(seen)]).toEqual(["disconnected:undefined:undefined"])
      }).pipe(Effect.provide(layerFor(wallet.provider)))
    })
  )
})

describe("what a wallet sends, read safely", () => {
  it.effect("the listeners never throw, and garbage is reported once per event name", () =>
    withWarnings((warnings) =>
      Effect.gen(function* () {
        const wallet = makeProvider()
        const events = yield* eip1193Events(wallet.provider).pipe(Stream.take(3), Stream.runCollect, Effect.forkChild)
        yield* nextTask
        for (const payload of [null, throwingProxy([]), ["0xZZ"]]) expect(() => wallet.fire("accountsChanged", payload)).not.toThrow()
        for (const payload of [throwingProxy([]), `0x${"f".repeat(300)}`]) expect(() => wallet.fire("chainChanged", payload)).not.toThrow()
        expect(() => wallet.fire("disconnect", throwingProxy([]))).not.toThrow()
        wallet.fire("accountsChanged", ["0xZZ", BOB.toLowerCase()])
        wallet.fire("chainChanged", "0x7a6a")
        const received: ReadonlyArray<WalletEvent> = yield* Fiber.join(events)
        expect(received).toEqual([
          { _tag: "Disconnected", namespace: "eip155" },
          { _tag: "AccountsChanged", namespace: "eip155", accounts: [{ address: BOB, type: "eoa" }] },
          { _tag: "ChainChanged", namespace: "eip155", chainId: 31338 }
        ])
        expect(warnings).toHaveLength(2)
        expect(wallet.listening("accountsChanged")).toBe(0)
      })
    )
  )

  it("accounts: a list of addresses (an empty list too), else nothing", () => {
    expect(evmAccountsOf([])).toEqual([])
    expect(evmAccountsOf([ALICE.toLowerCase(), "nope"])).toEqual([{ address: ALICE, type: "eoa" }])
    for (const garbage of [null, undefined, 5, {}, "0xZZ", ALICE, ["0xZZ"], [null], throwingProxy([])]) expect(evmAccountsOf(garbage)).toBeUndefined()
    expect(evmAccountsOf(Array.from({ length: 500 }, () => ALICE))).toHaveLength(100)
  })

  it("chain ids: positive safe integers only", () => {
    const table: ReadonlyArray<readonly [unknown, number | undefined]> = [
      ["0x1", 1],
      ["0x7a6a", 31338],
      ["31338", 31338],
      [31338, 31338],
      ["0x1fffffffffffff", Number.MAX_SAFE_INTEGER],
      ["0x20000000000000", undefined],
      [`0x${"f".repeat(300)}`, undefined],
      [`0x${"0".repeat(300)}1`, undefined],
      ["9".repeat(30), undefined],
      ["0x0", undefined],
      [0, undefined],
      [-1, undefined],
      [1.5, undefined],
      [Number.POSITIVE_INFINITY, undefined],
      ["0xZZ", undefined],
      [null, undefined],
      [{}, undefined]
    ]
    for (const [value, expected] of table) expect([value, parseChainId(value)]).toEqual([value, expected])
  })

  it("an error's code is read without trusting the error", () => {
    expect(providerCodeOf({ code: 1013 })).toBe(1013)
    expect(providerCodeOf(Object.assign(new Error("x"), { code: 4001 }))).toBe(4001)
    expect(providerCodeOf(throwingProxy([]))).toBeUndefined()
    expect(providerCodeOf({ code: "4001" })).toBeUndefined()
  })

  it("coalescing drops a family's events after its disconnect and keeps one account and one chain change", () => {
    const accounts = (address: string): WalletEvent => ({ _tag: "AccountsChanged", namespace: "eip155", accounts: [{ address, type: "eoa" }] })
    const chain = (chainId: number): WalletEvent => ({ _tag: "ChainChanged", namespace: "eip155", chainId })
    const gone: WalletEvent = { _tag: "Disconnected", namespace: "eip155" }
    expect(coalesceEvents([accounts("a"), chain(1), accounts("b"), gone, accounts("c"), chain(2), gone])).toEqual([chain(1), accounts("b"), gone])
    const all: WalletEvent = { _tag: "Disconnected", namespace: undefined }
    const solana: WalletEvent = { _tag: "ChainChanged", namespace: "solana", chainId: "x" }
    expect(coalesceEvents([solana, all, accounts("a"), solana])).toEqual([solana, all])
  })
})
