// @vitest-environment happy-dom
/**
 * `window.injectedWeb3` as any script on the page can write it: an object that throws when its keys are listed,
 * entries that throw when read or have no `enable`, names past reason, more extensions than any page has; and
 * extensions that misbehave once enabled: `enable` throwing at once or never settling, answering without accounts or
 * a signer, accounts that never come, that are no list, that throw when read or are not addresses. Nothing throws
 * out of discovery, nothing waits for ever, only well-formed extensions and accounts are listed, and each kind of
 * misbehaviour is reported once.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Fiber, Logger, SubscriptionRef } from "effect"
import { TestClock } from "effect/testing"
import { polkadot } from "../../../src/domain/networks"
import { WALLET_ANSWER_TIMEOUT_MS } from "../../../src/domain/constants"
import { ACCOUNTS_ANSWER_MS, browserPolkadotSource, makeInjectedWeb3List } from "../../../src/services/connectors/injectedWeb3"
import { polkadotAccountsOf } from "../../../src/services/polkadot/accounts"
import { throwingProxy } from "./hostile"

const ALICE = "5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY"
const ALICE_MISTYPED = "5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQZ"

const honestEntry = (accounts: unknown = [{ address: ALICE, type: "sr25519" }]) => ({
  enable: async () => ({ accounts: { get: async () => accounts }, signer: { signRaw: async () => ({ id: 1, signature: "0x" }) } })
})

/** Collects the warnings logged while `use` runs. */
const withWarnings = <A, E, R>(use: (warnings: Array<string>) => Effect.Effect<A, E, R>) => {
  const warnings: Array<string> = []
  const collect = Logger.make((options) => {
    if (options.logLevel === "Warn") warnings.push(String(options.message))
  })
  return use(warnings).pipe(Effect.provide(Logger.layer([collect])))
}

const hostileEntries = (): Record<string, unknown> => ({
  nothing: null,
  number: 5,
  text: "wallet",
  empty: {},
  "enable-not-a-function": { enable: "yes" },
  "throwing-enable": {
    get enable() {
      throw new Error("hostile getter")
    }
  },
  proxy: throwingProxy()
})

const connectorOf = (entry: unknown) =>
  Effect.gen(function* () {
    const list = makeInjectedWeb3List("Demo Dapp")
    yield* list.read({ "polkadot-js": entry })
    const connector = list.connectors()[0]
    if (connector === undefined) throw new Error("not listed")
    return connector
  })

describe("a hostile window.injectedWeb3", () => {
  it.effect("entries that are not extensions are ignored (each reported once); the honest one beside them is listed", () =>
    withWarnings((warnings) =>
      Effect.gen(function* () {
        const list = makeInjectedWeb3List("Demo Dapp")
        const page = { ...hostileEntries(), talisman: honestEntry() }
        Object.defineProperty(page, "throwing-entry", {
          enumerable: true,
          get: () => {
            throw new Error("hostile getter")
          }
        })
        expect(yield* list.read(page)).toBe(true)
        expect(yield* list.read(page)).toBe(false)
        expect(list.connectors().map((c) => c.info.name)).toEqual(["Talisman"])
        expect(warnings).toHaveLength(8)
        expect(new Set(warnings).size).toBe(8)
      })
    )
  )

  it.effect("an injectedWeb3 that cannot be read, or is no object, lists nothing and is reported once", () =>
    withWarnings((warnings) =>
      Effect.gen(function* () {
        const list = makeInjectedWeb3List("Demo Dapp")
        for (const page of [throwingProxy(), throwingProxy(), 5, "x", undefined, null]) expect(yield* list.read(page)).toBe(false)
        expect(list.connectors()).toEqual([])
        expect(warnings).toHaveLength(1)
      })
    )
  )

  it.effect("names past 100 characters and extensions past 50 are ignored; a listed one keeps its row when replaced", () =>
    withWarnings((warnings) =>
      Effect.gen(function* () {
        const list = makeInjectedWeb3List("Demo Dapp")
        const page: Record<string, unknown> = { ["x".repeat(101)]: honestEntry() }
        for (let i = 0; i < 60; i++) page[`wallet-${i}`] = honestEntry()
        yield* list.read(page)
        expect(list.connectors()).toHaveLength(50)
        expect(list.connectors()[0]?.info.name).toBe("Wallet 0")
        const first = list.connectors()[0]
        page["wallet-0"] = { enable: async () => ({}) }
        yield* list.read(page)
        expect(list.connectors()[0]).toBe(first)
        expect(warnings).toHaveLength(2)
      })
    )
  )

  it.effect("a window.injectedWeb3 whose getter throws breaks nothing: the source lists nothing", () =>
    Effect.acquireUseRelease(
      Effect.sync(() =>
        Object.defineProperty(window, "injectedWeb3", {
          configurable: true,
          get: () => {
            throw new Error("hostile window.injectedWeb3")
          }
        })
      ),
      () =>
        Effect.scoped(
          Effect.gen(function* () {
            const source = yield* browserPolkadotSource({ appName: "Demo Dapp" })
            yield* TestClock.adjust(5_000)
            expect(yield* SubscriptionRef.get(source)).toEqual([])
          })
        ),
      () => Effect.sync(() => delete (window as { injectedWeb3?: unknown }).injectedWeb3)
    )
  )
})

describe("a hostile extension, once enabled", () => {
  it.effect("enable throwing at once fails the connect with its words, never out of the runtime", () =>
    Effect.gen(function* () {
      const connector = yield* connectorOf({
        enable: () => {
          throw new Error("the extension is locked")
        }
      })
      const error = yield* Effect.flip(connector.connect([polkadot]))
      expect(error.message).toBe("the extension is locked")
    })
  )

  it.effect("enable never settling ends the connect with 'did not answer' after the wallet answer time", () =>
    Effect.gen(function* () {
      const connector = yield* connectorOf({ enable: () => new Promise(() => undefined) })
      const connecting = yield* Effect.forkChild(Effect.flip(connector.connect([polkadot])))
      yield* TestClock.adjust(WALLET_ANSWER_TIMEOUT_MS - 1)
      expect(connecting.pollUnsafe()).toBeUndefined()
      yield* TestClock.adjust(1)
      expect((yield* Fiber.join(connecting))._tag).toBe("WalletNoAnswer")
    })
  )

  it.effect("an answer without accounts or a signer, or whose parts throw when read, fails the connect plainly", () =>
    Effect.gen(function* () {
      const answers: ReadonlyArray<unknown> = [
        null,
        5,
        {},
        { accounts: throwingProxy(), signer: {} },
        { accounts: { get: 5 }, signer: {} },
        { accounts: { get: async () => [] } },
        {
          get accounts() {
            throw new Error("hostile getter")
          },
          signer: {}
        }
      ]
      for (const answer of answers) {
        const connector = yield* connectorOf({ enable: async () => answer })
        const error = yield* Effect.flip(connector.connect([polkadot]))
        expect([answers.indexOf(answer), (error as { reason?: string }).reason ?? error.message]).toEqual([answers.indexOf(answer), "Polkadot{.js} answered without accounts or a signer"])
      }
      // An answer that throws when awaited (its `then` is read) fails the connect with what it threw.
      const proxied = yield* connectorOf({ enable: async () => throwingProxy() })
      expect((yield* Effect.flip(proxied.connect([polkadot]))).message).toBe("hostile read")
    })
  )

  it.effect("accounts that never come end the connect after 10 s; a list that is no list fails it", () =>
    Effect.gen(function* () {
      const slow = yield* connectorOf({ enable: async () => ({ accounts: { get: () => new Promise(() => undefined) }, signer: {} }) })
      const connecting = yield* Effect.forkChild(Effect.flip(slow.connect([polkadot])))
      yield* TestClock.adjust(ACCOUNTS_ANSWER_MS - 1)
      expect(connecting.pollUnsafe()).toBeUndefined()
      yield* TestClock.adjust(1)
      expect(((yield* Fiber.join(connecting)) as { reason?: string }).reason).toBe("Polkadot{.js} did not list its accounts")
      for (const accounts of ["accounts", { 0: ALICE, length: 1 }, 5]) {
        const odd = yield* connectorOf(honestEntry(accounts))
        const error = yield* Effect.flip(odd.connect([polkadot]))
        expect((error as { reason?: string }).reason).toBe("Polkadot{.js} listed its accounts in a form that is not a list")
      }
    })
  )

  it.effect("accounts that are not Polkadot addresses are left out (and reported); only them means no account", () =>
    withWarnings((warnings) =>
      Effect.gen(function* () {
        const accounts = [
          null,
          7,
          { address: 5 },
          { address: ALICE_MISTYPED, type: "sr25519" },
          { address: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266", type: "ethereum" },
          {
            get address() {
              throw new Error("hostile getter")
            }
          },
          throwingProxy(),
          { address: ALICE, type: "not-a-key-type" }
        ]
        expect(polkadotAccountsOf(accounts)?.dropped).toBe(7)
        const connector = yield* connectorOf(honestEntry(accounts))
        const sessions = yield* connector.connect([polkadot])
        expect(sessions[0]?.accounts).toHaveLength(1)
        expect(warnings.some((warning) => warning.includes("7 account(s)"))).toBe(true)
        const onlyBad = yield* connectorOf(honestEntry(accounts.slice(0, 7)))
        expect(((yield* Effect.flip(onlyBad.connect([polkadot]))) as { reason?: string }).reason).toBe("Polkadot{.js} gave no account for Polkadot")
      })
    )
  )

  it.effect("at most 100 accounts are read from one answer", () =>
    Effect.gen(function* () {
      const many = Array.from({ length: 500 }, () => ({ address: ALICE }))
      expect(polkadotAccountsOf(many)?.accounts).toHaveLength(100)
      expect(polkadotAccountsOf(throwingProxy([]))).toBeUndefined()
    })
  )

  it.effect("a signer method throwing at once is a refusal like any other, never a throw out of the provider", () =>
    Effect.gen(function* () {
      const connector = yield* connectorOf({
        enable: async () => ({
          accounts: { get: async () => [{ address: ALICE }], subscribe: () => { throw new Error("no subscriptions") } },
          signer: {
            signRaw: () => {
              throw new Error("Cancelled")
            }
          }
        })
      })
      const sessions = yield* connector.connect([polkadot])
      const provider = sessions[0]!.provider.provider as { signRaw: (input: unknown) => Promise<unknown> }
      yield* Effect.promise(() => expect(provider.signRaw({ address: ALICE, data: "0x00", type: "bytes" })).rejects.toThrow("Cancelled"))
    })
  )
})
