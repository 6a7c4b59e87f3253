// @vitest-environment happy-dom
/**
 * Polkadot wallets through `window.injectedWeb3` (the polkadot-js extension protocol): each extension one connector
 * named as the wallet it is; connecting enables it with the host's name, lists its accounts in the network's address
 * format with their key types (accounts restricted to another chain left out), and hands a provider whose signer
 * methods run on the extension's own signer; a bare 'Rejected' is the visitor's refusal; restoring never waits more
 * than 3 s; the accounts are said again when the extension's change, or when the visitor moves to another network;
 * an extension that injects itself late is listed.
 */
import { describe, expect, it } from "@effect/vitest"
import { decodeAddress, encodeAddress } from "@polkadot/util-crypto"
import { Effect, Exit, Fiber, Stream, SubscriptionRef } from "effect"
import { TestClock } from "effect/testing"
import type { CaipNetwork } from "../../../../src/domain/Network"
import { kusama, polkadot, solana, westend } from "../../../../src/domain/networks"
import type { WalletEvent } from "../../../../src/services/connectors/Connector"
import { makeMerger } from "../../../../src/services/connectors/Connectors"
import { makeEip1193Connector } from "../../../../src/services/connectors/eip6963"
import {
  browserPolkadotSource,
  injectedWeb3ConnectorId,
  LATE_INJECTION_READS_MS,
  makeInjectedWeb3List,
  RESTORE_ENABLE_MS
} from "../../../../src/services/connectors/injectedWeb3"
import type { PolkadotProvider } from "../../../../src/services/polkadot/provider"
import { createInjectedWeb3Extension, injectWeb3Extension } from "../../../../src/testing"

const ALICE = "5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY"
const BOB = "5FHneW46xGXgs5mUiveU4sbTyGBzmstUspZC92UhjJM694ty"
const on = (address: string, prefix: number) => encodeAddress(decodeAddress(address), prefix)
const KUSAMA_GENESIS = "0xb0a8d493285c2df73290dfb7e61f870f17b41801197a149ca93654499ea3dafe"

/** A polkadot-js style extension: `enable` answers accounts and a signer whose methods use `this`. */
const extension = (accounts: Array<unknown>, overrides: { enable?: (appName: string) => unknown } = {}) => {
  const enabledFor: Array<string> = []
  const listeners = new Set<(accounts: unknown) => void>()
  const signer = {
    calls: [] as Array<unknown>,
    signRaw(this: { calls: Array<unknown> }, input: unknown) {
      this.calls.push(input)
      return Promise.resolve({ id: 1, signature: `0x${"11".repeat(64)}` })
    },
    signPayload(this: { calls: Array<unknown> }, input: unknown) {
      this.calls.push(input)
      return Promise.resolve({ id: 2, signature: `0x01${"22".repeat(64)}` })
    }
  }
  const injected = {
    accounts: {
      list: accounts,
      get(this: { list: Array<unknown> }) {
        return Promise.resolve(this.list)
      },
      subscribe: (listener: (accounts: unknown) => void) => {
        listeners.add(listener)
        return () => listeners.delete(listener)
      }
    },
    signer
  }
  return {
    entry: {
      version: "0.1.0",
      enable:
        overrides.enable ??
        ((appName: string) => {
          enabledFor.push(appName)
          return Promise.resolve(injected)
        })
    },
    enabledFor,
    signer,
    listeners,
    emit: (next: unknown) => {
      for (const listener of listeners) listener(next)
    }
  }
}

const connectorOf = (name: string, entry: unknown) =>
  Effect.gen(function* () {
    const list = makeInjectedWeb3List("Demo Dapp")
    yield* list.read({ [name]: entry })
    const connector = list.connectors()[0]
    if (connector === undefined) throw new Error(`${name} was not listed`)
    return connector
  })

/** Lets the connector's event fibers run (a stream's stages hand over through several fibers). */
const settle = Effect.forEach(Array.from({ length: 20 }), () => Effect.yieldNow, { discard: true })

const providerOf = (sessions: ReadonlyArray<{ readonly provider: { readonly namespace: string; readonly provider: unknown } }>) =>
  sessions[0]!.provider.provider as PolkadotProvider

describe("an injectedWeb3 extension", () => {
  it.effect("is one connector named as the wallet it is (its EVM side's rdns, for one row), or after its key", () =>
    Effect.gen(function* () {
      const list = makeInjectedWeb3List("Demo Dapp")
      yield* list.read({
        "polkadot-js": extension([]).entry,
        talisman: extension([]).entry,
        "subwallet-js": extension([]).entry,
        "my-wallet-js": extension([]).entry
      })
      expect(list.connectors().map((c) => [c.info.id, c.info.name, c.info.info?.rdns, c.info.chain, c.namespaces])).toEqual([
        ["injected-web3:polkadot-js", "Polkadot{.js}", undefined, "polkadot", ["polkadot"]],
        ["injected-web3:talisman", "Talisman", "xyz.talisman", "polkadot", ["polkadot"]],
        ["injected-web3:subwallet-js", "SubWallet", "app.subwallet", "polkadot", ["polkadot"]],
        ["injected-web3:my-wallet-js", "My Wallet", undefined, "polkadot", ["polkadot"]]
      ])
      expect(list.connectors().every((c) => c.info.imageUrl?.startsWith("data:image/svg+xml,") === true)).toBe(true)
      expect(injectedWeb3ConnectorId(" Talisman ")).toBe("injected-web3:talisman")
    })
  )

  it.effect("a wallet that is also an EVM extension (SubWallet: its EIP-6963 rdns) is one row serving both families", () =>
    Effect.gen(function* () {
      const polkadotSide = yield* connectorOf("subwallet-js", extension([]).entry)
      const evmSide = makeEip1193Connector(
        { id: "app.subwallet", name: "SubWallet", type: "ANNOUNCED", chain: "eip155", chains: [], info: { rdns: "app.subwallet" } },
        { request: async () => [] }
      )
      const rows = makeMerger()([[evmSide], [polkadotSide]])
      expect(rows.map((row) => [row.info.type, row.info.name, row.namespaces])).toEqual([["MULTI_CHAIN", "SubWallet", ["eip155", "polkadot"]]])
      expect(rows[0]?.memberIds).toContain("injected-web3:subwallet-js")
    })
  )

  it.effect("connecting enables it with the host's name and gives its accounts in the network's format, with key types", () =>
    Effect.gen(function* () {
      const wallet = extension([
        { address: ALICE, name: "Alice", type: "sr25519" },
        { address: on(BOB, 0), name: "Bob", type: "ed25519", genesisHash: null }
      ])
      const connector = yield* connectorOf("polkadot-js", wallet.entry)
      const sessions = yield* connector.connect([polkadot])
      expect(wallet.enabledFor).toEqual(["Demo Dapp"])
      expect(sessions.map((s) => [s.chainId, s.provider.namespace, s.accounts])).toEqual([
        [
          polkadot.id,
          "polkadot",
          [
            { address: on(ALICE, 0), type: "eoa" },
            { address: on(BOB, 0), type: "eoa" }
          ]
        ]
      ])
      const provider = providerOf(sessions)
      // The key type is found whatever format the address is written in.
      expect([provider.keyTypeOf(ALICE), provider.keyTypeOf(on(BOB, 2)), provider.keyTypeOf("nonsense")]).toEqual(["sr25519", "ed25519", undefined])
      const onWestend = yield* connector.connect([westend])
      expect(onWestend[0]?.accounts.map((a) => a.address)).toEqual([ALICE, BOB])
    })
  )

  it.effect("leaves out accounts the wallet restricts to another chain; connecting where it has none says so", () =>
    Effect.gen(function* () {
      const wallet = extension([
        { address: ALICE, type: "sr25519", genesisHash: KUSAMA_GENESIS },
        { address: BOB, type: "sr25519" }
      ])
      const connector = yield* connectorOf("talisman", wallet.entry)
      expect((yield* connector.connect([kusama]))[0]?.accounts.map((a) => a.address)).toEqual([on(ALICE, 2), on(BOB, 2)])
      expect((yield* connector.connect([polkadot]))[0]?.accounts.map((a) => a.address)).toEqual([on(BOB, 0)])
      const kusamaOnly = yield* connectorOf("talisman", extension([{ address: ALICE, genesisHash: KUSAMA_GENESIS }]).entry)
      const refused = yield* Effect.flip(kusamaOnly.connect([polkadot]))
      expect(refused.message).toBe("Something went wrong")
      expect((refused as { reason?: string }).reason).toBe("Talisman gave no account for Polkadot")
      // Nothing is asked of it for a family it does not serve.
      const untouched = extension([{ address: ALICE }])
      expect(yield* (yield* connectorOf("polkadot-js", untouched.entry)).connect([solana])).toEqual([])
      expect(untouched.enabledFor).toEqual([])
    })
  )

  it.effect("its signer's methods run on the extension's own signer (they may use `this`)", () =>
    Effect.gen(function* () {
      const wallet = extension([{ address: ALICE, type: "sr25519" }])
      const provider = providerOf(yield* (yield* connectorOf("polkadot-js", wallet.entry)).connect([westend]))
      const raw = { address: ALICE, data: "0x3c42797465733e68693c2f42797465733e", type: "bytes" as const }
      expect(yield* Effect.promise(() => provider.signRaw!(raw))).toEqual({ id: 1, signature: `0x${"11".repeat(64)}` })
      expect(wallet.signer.calls).toEqual([raw])
    })
  )

  it.effect("a bare 'Rejected' (polkadot-js's refusal of the site) is the visitor's refusal", () =>
    Effect.gen(function* () {
      const wallet = extension([], { enable: () => Promise.reject(new Error("Rejected")) })
      const error = yield* Effect.flip((yield* connectorOf("polkadot-js", wallet.entry)).connect([polkadot]))
      expect(error._tag).toBe("UserRejected")
      expect(error.message).toBe("User rejected the request.")
      const other = extension([], { enable: () => Promise.reject(new Error("The source http://x is not allowed to interact with this extension")) })
      const refusal = yield* Effect.flip((yield* connectorOf("polkadot-js", other.entry)).connect([polkadot]))
      expect(refusal.message).toBe("The source http://x is not allowed to interact with this extension")
    })
  )

  it.effect("restoring waits at most 3 s for the extension: one that asks the visitor again is not restored", () =>
    Effect.gen(function* () {
      const wallet = extension([], { enable: () => new Promise(() => undefined) })
      const connector = yield* connectorOf("polkadot-js", wallet.entry)
      const restoring = yield* Effect.forkChild(Effect.exit(connector.reconnect([polkadot])))
      yield* TestClock.adjust(RESTORE_ENABLE_MS - 1)
      expect(restoring.pollUnsafe()).toBeUndefined()
      yield* TestClock.adjust(1)
      const exit = yield* Fiber.join(restoring)
      expect(Exit.isFailure(exit)).toBe(true)
      // One that asked the visitor, who refused, no longer lets the site in: nothing is restored, and nothing fails.
      const refusing = yield* connectorOf("polkadot-js", extension([], { enable: () => Promise.reject(new Error("Rejected")) }).entry)
      expect(yield* refusing.reconnect([polkadot])).toEqual([])
            // An extension that still lets the site in restores its accounts, without asking.
      const authorised = yield* connectorOf("polkadot-js", extension([{ address: ALICE }]).entry)
      expect((yield* authorised.reconnect([polkadot]))[0]?.accounts).toEqual([{ address: on(ALICE, 0), type: "eoa" }])
    })
  )

  it.effect("says the accounts again when the extension's change, and in the new format when the visitor moves network", () =>
    Effect.gen(function* () {
      const wallet = extension([{ address: ALICE, type: "sr25519" }])
      const connector = yield* connectorOf("polkadot-js", wallet.entry)
      const seen: Array<WalletEvent> = []
      yield* Effect.forkChild(Stream.runForEach(connector.events, (event) => Effect.sync(() => seen.push(event))))
      yield* settle
      const provider = providerOf(yield* connector.connect([polkadot]))
      yield* settle
      expect(seen).toEqual([])
      wallet.emit([{ address: BOB, type: "ed25519" }, { address: "not an address" }])
      wallet.emit("not a list")
      yield* settle
      expect(seen).toEqual([{ _tag: "AccountsChanged", namespace: "polkadot", accounts: [{ address: on(BOB, 0), type: "eoa" }] }])
      expect(provider.keyTypeOf(BOB)).toBe("ed25519")
      provider.onNetwork(kusama)
      yield* settle
      expect(seen.at(-1)).toEqual({ _tag: "AccountsChanged", namespace: "polkadot", accounts: [{ address: on(BOB, 2), type: "eoa" }] })
      // The same network again says nothing; disconnecting stops listening.
      const count = seen.length
      provider.onNetwork(kusama)
      yield* connector.disconnect
      yield* settle
      wallet.emit([{ address: ALICE }])
      yield* settle
      expect(seen).toHaveLength(count)
      expect(wallet.listeners.size).toBe(0)
    })
  )
})

describe("the page's Polkadot wallets", () => {
  const withInjected = <A, E, R>(value: unknown, use: Effect.Effect<A, E, R>) =>
    Effect.acquireUseRelease(
      Effect.sync(() => Object.defineProperty(window, "injectedWeb3", { configurable: true, writable: true, value })),
      () => use,
      () => Effect.sync(() => delete (window as { injectedWeb3?: unknown }).injectedWeb3)
    )

  it.effect("lists the extensions injected before it starts, and one that injects itself late", () =>
    withInjected(
      { "polkadot-js": extension([]).entry },
      Effect.scoped(
        Effect.gen(function* () {
          const source = yield* browserPolkadotSource({ appName: "Demo Dapp" })
          expect((yield* SubscriptionRef.get(source)).map((c) => c.info.name)).toEqual(["Polkadot{.js}"])
          ;(window as unknown as { injectedWeb3: Record<string, unknown> }).injectedWeb3["talisman"] = extension([]).entry
          yield* TestClock.adjust(LATE_INJECTION_READS_MS[0]!)
          yield* Effect.yieldNow
          expect((yield* SubscriptionRef.get(source)).map((c) => c.info.name)).toEqual(["Polkadot{.js}", "Talisman"])
        })
      )
    )
  )

  it.effect("finds the extension wallet-runtime/testing gives hosts, over the host's own signer", () =>
    Effect.acquireUseRelease(
      Effect.sync(() =>
        injectWeb3Extension(
          createInjectedWeb3Extension({
            enable: async () => undefined,
            accounts: async () => [{ address: ALICE, type: "sr25519" }],
            signRaw: async () => ({ signature: `0x${"11".repeat(64)}` }),
            signPayload: async () => ({ signature: `0x01${"11".repeat(64)}` }),
            onAccountsChanged: () => () => undefined
          })
        )
      ),
      () =>
        Effect.scoped(
          Effect.gen(function* () {
            const source = yield* browserPolkadotSource({ appName: "Demo Dapp" })
            const [connector] = yield* SubscriptionRef.get(source)
            expect(connector?.info.name).toBe("Polkadot Test Wallet")
            const sessions = yield* connector!.connect([westend])
            expect(sessions[0]?.accounts).toEqual([{ address: ALICE, type: "eoa" }])
            expect(yield* Effect.promise(() => providerOf(sessions).signRaw!({ address: ALICE, data: "0x00", type: "bytes" }))).toEqual({
              id: 1,
              signature: `0x${"11".repeat(64)}`
            })
          })
        ),
      () => Effect.sync(() => delete (window as { injectedWeb3?: unknown }).injectedWeb3)
    )
  )

  it.effect("lists nothing, and fails nothing, on a page without extensions", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const source = yield* browserPolkadotSource({ appName: "Demo Dapp" })
        yield* TestClock.adjust(5_000)
        expect(yield* SubscriptionRef.get(source)).toEqual([])
      })
    )
  )
})

// Networks in the form the connector takes them.
void ([polkadot, kusama, westend] satisfies ReadonlyArray<CaipNetwork>)
