import { describe, expect, it } from "@effect/vitest"
import { Effect, Fiber, Option, SubscriptionRef } from "effect"
import { TestClock } from "effect/testing"
import { UserRejected } from "../../../src/domain/errors"
import { localChainA, solana } from "../../../src/domain/networks"
import { installedConnectorFor } from "../../../src/domain/Wallet"
import type { Connector } from "../../../src/services/connectors/Connector"
import { answersTo, Connectors, makeMerger } from "../../../src/services/connectors/Connectors"
import { makeFakeWallet } from "../../../src/services/fakes/FakeWallet"

const ALICE = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"
const SOL = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM"

const evmWallet = (name: string, rdns?: string, extra: Partial<Parameters<typeof makeFakeWallet>[0]> = {}) =>
  makeFakeWallet({
    id: rdns ?? name,
    name,
    type: "ANNOUNCED",
    ...(rdns !== undefined ? { rdns } : {}),
    families: { eip155: { accounts: [{ address: ALICE, type: "eoa" }], chainId: 31337 } },
    ...extra
  })
const solanaWallet = (name: string, extra: Partial<Parameters<typeof makeFakeWallet>[0]> = {}) =>
  makeFakeWallet({
    id: `wallet-standard:${name.toLowerCase()}`,
    name,
    type: "ANNOUNCED",
    families: { solana: { accounts: [{ address: SOL, type: "eoa" }], chainId: solana.id } },
    ...extra
  })

describe("one wallet, one row", () => {
  it.effect("a wallet announced for EVM and registered for Solana under the same name is one MULTI_CHAIN entry", () =>
    Effect.gen(function* () {
      const evm = yield* evmWallet("Dev Test Wallet", "dev.wallet-runtime.devwallet")
      const sol = yield* solanaWallet("dev test wallet ")
      const other = yield* solanaWallet("Phantom")
      const merged = makeMerger()([[evm.connector], [sol.connector, other.connector]])
      expect(merged.map((c) => [c.info.id, c.info.type])).toEqual([
        ["dev.wallet-runtime.devwallet", "MULTI_CHAIN"],
        ["wallet-standard:phantom", "ANNOUNCED"]
      ])
      const wallet = merged[0]!
      expect(wallet.namespaces).toEqual(["eip155", "solana"])
      expect(wallet.info.name).toBe("Dev Test Wallet")
      expect(answersTo(wallet, "wallet-standard:dev test wallet ")).toBe(true)
      expect(answersTo(wallet, "dev.wallet-runtime.devwallet")).toBe(true)
    })
  )

  it.effect("different rdns stay apart even with the same name; two wallets of one family never merge", () =>
    Effect.gen(function* () {
      const a = yield* evmWallet("Wallet", "com.a")
      const b = yield* makeFakeWallet({
        id: "com.b",
        name: "Wallet",
        rdns: "com.b",
        families: { solana: { accounts: [{ address: SOL, type: "eoa" }], chainId: solana.id } }
      })
      const c = yield* evmWallet("Same", "com.c")
      const d = yield* evmWallet("Same", "com.d")
      const merged = makeMerger()([[a.connector, c.connector, d.connector], [b.connector]])
      expect(merged.map((connector) => connector.info.id)).toEqual(["com.a", "com.c", "com.d", "com.b"])
    })
  )

  it.effect("WalletConnect (one session of its own) is never merged with a wallet of the same name", () =>
    Effect.gen(function* () {
      const wc = yield* makeFakeWallet({
        id: "walletConnect",
        name: "WalletConnect",
        type: "WALLET_CONNECT",
        families: { eip155: { accounts: [], chainId: 1 } }
      })
      const sol = yield* solanaWallet("WalletConnect")
      const merged = makeMerger()([[wc.connector], [sol.connector]])
      expect(merged.map((c) => c.info.type)).toEqual(["WALLET_CONNECT", "ANNOUNCED"])
    })
  )

  it.effect("a merged entry keeps its identity while its members are the same (sessions keep their connector)", () =>
    Effect.gen(function* () {
      const evm = yield* evmWallet("Both", "com.both")
      const sol = yield* solanaWallet("Both")
      const late = yield* solanaWallet("Late")
      const merge = makeMerger()
      const first = merge([[evm.connector], [sol.connector]])[0]
      const second = merge([[evm.connector], [sol.connector, late.connector]])[0]
      expect(second).toBe(first)
    })
  )

  it.effect("connecting a multi-chain wallet connects each family; a refusal in the first family asks no second prompt", () =>
    Effect.gen(function* () {
      const evm = yield* evmWallet("Both", "com.both")
      const sol = yield* solanaWallet("Both")
      const wallet = makeMerger()([[evm.connector], [sol.connector]])[0]!
      const sessions = yield* wallet.connect([localChainA, solana])
      expect(sessions.map((s) => s.provider.namespace)).toEqual(["eip155", "solana"])
      evm.script.connectError = new UserRejected({ code: 4001 })
      const error = yield* Effect.flip(wallet.connect([localChainA, solana]))
      expect(error._tag).toBe("UserRejected")
      expect(sol.calls.filter((c) => c.startsWith("connect"))).toHaveLength(1)
    })
  )

  it.effect("a refusal in a later family keeps the families already connected", () =>
    Effect.gen(function* () {
      const evm = yield* evmWallet("Both", "com.both")
      const sol = yield* solanaWallet("Both", { connectError: new UserRejected({ code: 4001 }) })
      const wallet = makeMerger()([[evm.connector], [sol.connector]])[0]!
      const sessions = yield* wallet.connect([localChainA, solana])
      expect(sessions.map((s) => s.provider.namespace)).toEqual(["eip155"])
    })
  )

  it.effect("disconnecting a multi-chain wallet ends it in every family", () =>
    Effect.gen(function* () {
      const evm = yield* evmWallet("Both", "com.both")
      const sol = yield* solanaWallet("Both")
      const wallet = makeMerger()([[evm.connector], [sol.connector]])[0]!
      yield* wallet.disconnect
      expect(evm.calls).toContain("disconnect")
      expect(sol.calls).toContain("disconnect")
    })
  )
})

describe("Connectors registry", () => {
  it.effect("follows its sources live, and waits a bounded time for a wallet that announces itself late", () =>
    Effect.gen(function* () {
      const evm = yield* evmWallet("Late Wallet", "com.late")
      const source = yield* SubscriptionRef.make<ReadonlyArray<Connector>>([])
      yield* Effect.gen(function* () {
        const registry = yield* Connectors
        const waiting = yield* Effect.forkChild(registry.await("com.late", 1_000))
        yield* Effect.yieldNow
        yield* SubscriptionRef.set(source, [evm.connector])
        const found = yield* Fiber.join(waiting)
        expect(Option.map(found, (c) => c.info.id)).toEqual(Option.some("com.late"))
        const never = yield* Effect.forkChild(registry.await("com.never", 1_000))
        yield* TestClock.adjust("1 second")
        expect(Option.isNone(yield* Fiber.join(never))).toBe(true)
        expect((yield* registry.ofFamily("eip155")).map((c) => c.info.id)).toEqual(["com.late"])
        expect((yield* registry.ofFamily("solana"))).toEqual([])
      }).pipe(Effect.provide(Connectors.layerFrom([Effect.succeed(source)])))
    })
  )
})

describe("installed catalogue wallets: one rule", () => {
  it.effect("same id or explorer id, else same rdns, else (no rdns on one side) same name; only installed connectors count", () =>
    Effect.gen(function* () {
      const announced = (yield* evmWallet("MetaMask", "io.metamask")).connector.info
      const standard = (yield* solanaWallet("Phantom")).connector.info
      const wc = (yield* makeFakeWallet({ id: "walletConnect", name: "Rainbow", type: "WALLET_CONNECT", families: { eip155: { accounts: [], chainId: 1 } } })).connector.info
      const all = [announced, standard, wc]
      expect(installedConnectorFor({ id: "x", name: "Other", rdns: "io.metamask" }, all)?.id).toBe("io.metamask")
      expect(installedConnectorFor({ id: "y", name: "phantom", rdns: "app.phantom" }, all)?.id).toBe("wallet-standard:phantom")
      expect(installedConnectorFor({ id: "z", name: "MetaMask", rdns: "io.other" }, all)).toBeUndefined()
      expect(installedConnectorFor({ id: "r", name: "Rainbow", rdns: null }, all)).toBeUndefined()
    })
  )
})
