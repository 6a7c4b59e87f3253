// @vitest-environment happy-dom
/**
 * Wallet Standard wallets as any script on the page can register them (Solana and Bitcoin): getters that throw, a
 * wallet that is a throwing Proxy, connect answers that are not accounts, rejections whose reads throw, and addresses
 * that are not addresses. One bad wallet never hides the others; every bad answer is a typed failure (what the
 * connecting view shows), never a defect; only addresses the family's rules decode are kept.
 */
import { describe, expect, it } from "@effect/vitest"
import { getWallets } from "@wallet-standard/app"
import type { Wallet } from "@wallet-standard/base"
import { Effect, Exit, Option, SubscriptionRef } from "effect"
import { bitcoinRegtest, localSolana } from "../../../src/domain/networks"
import { browserBitcoinSource, makeBitcoinStandardConnector } from "../../../src/services/connectors/bitcoin"
import type { Connector } from "../../../src/services/connectors/Connector"
import { browserSolanaSource, makeWalletStandardConnector } from "../../../src/services/connectors/walletStandard"
import { throwingProxy } from "./hostile"

const SOL = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM"
const PAYMENT = "bcrt1qmxynpxsd6t5vv5m2c0uq76jre50y7pmlzplv9n"
const ICON = "data:image/svg+xml;base64,PHN2Zy8+"
const refuse = () => {
  throw new Error("hostile read")
}

/** A Wallet Standard wallet of `family` whose connect answers `answer()`; `over` replaces any of its properties. */
const standardWallet = (family: "solana" | "bitcoin", name: string, answerWith: () => Promise<unknown>, over: PropertyDescriptorMap = {}): Wallet => {
  // As a real wallet does, the accounts it answers become its `accounts` (when they are a list).
  const answer = async () => {
    const result = await answerWith()
    const given = Object.getOwnPropertyDescriptor(result ?? {}, "accounts")
    if (given !== undefined && "value" in given && Array.isArray(given.value)) wallet.accounts = given.value
    return result
  }
  const features =
    family === "solana"
      ? {
          "standard:connect": { version: "1.0.0", connect: answer },
          "solana:signMessage": { version: "1.0.0", signMessage: async () => [] }
        }
      : {
          "standard:connect": { version: "1.0.0", connect: answer },
          "bitcoin:connect": { version: "1.0.0", connect: answer },
          "bitcoin:signMessage": { version: "1.0.0", signMessage: async () => [] }
        }
  const wallet: { accounts: ReadonlyArray<unknown> } & Record<string, unknown> = { version: "1.0.0", name, icon: ICON, chains: [`${family}:devnet`], accounts: [], features }
  return Object.defineProperties(wallet, over) as unknown as Wallet
}

const account = (address: string, chain: string) => ({ address, publicKey: new Uint8Array([2, 1]), chains: [chain], features: [] })
const solanaAccounts = (...addresses: ReadonlyArray<string>) => async () => ({ accounts: addresses.map((a) => account(a, "solana:devnet")) })
const bitcoinAccounts = (...addresses: ReadonlyArray<string>) => async () => ({ accounts: addresses.map((a) => account(a, "bitcoin:regtest")) })

const connectExit = (connector: Connector, family: "solana" | "bitcoin") =>
  Effect.exit(connector.connect([family === "solana" ? localSolana : bitcoinRegtest]))

/** The typed failure of a connect, or "defect"/"connected" when it was none. */
const failureOf = (exit: Exit.Exit<unknown, { readonly _tag: string }>): string =>
  Exit.isSuccess(exit) ? "connected" : Option.match(Exit.findErrorOption(exit), { onNone: () => "defect", onSome: (error) => error._tag })

describe("Wallet Standard wallets that throw", () => {
  it.effect("a wallet whose name, features or icon getter throws, or which is a throwing Proxy, is left out; the other Solana and Bitcoin wallets are listed", () =>
    Effect.gen(function* () {
      const registry = getWallets()
      const hostile = [
        standardWallet("solana", "Bad Name", solanaAccounts(SOL), { name: { get: refuse } }),
        standardWallet("solana", "Bad Features", solanaAccounts(SOL), { features: { get: refuse } }),
        standardWallet("solana", "Bad Icon", solanaAccounts(SOL), { icon: { get: refuse } }),
        standardWallet("bitcoin", "Bad Bitcoin Icon", bitcoinAccounts(PAYMENT), { icon: { get: refuse } }),
        throwingProxy() as Wallet
      ]
      const honest = [standardWallet("solana", "Honest Solana", solanaAccounts(SOL)), standardWallet("bitcoin", "Honest Bitcoin", bitcoinAccounts(PAYMENT))]
      const offs: Array<() => void> = []
      for (const wallet of [...hostile, ...honest]) {
        // The registry itself may refuse a wallet it cannot read; that is not ours to test.
        const off = Effect.runSync(Effect.orElseSucceed(Effect.try(() => registry.register(wallet)), () => () => undefined))
        offs.push(off)
      }
      try {
        const solana = yield* Effect.scoped(Effect.flatMap(browserSolanaSource, SubscriptionRef.get))
        const bitcoin = yield* Effect.scoped(Effect.flatMap(browserBitcoinSource(), SubscriptionRef.get))
        expect(solana.map((c) => c.info.name)).toEqual(["Honest Solana"])
        expect(bitcoin.map((c) => c.info.name)).toEqual(["Honest Bitcoin"])
      } finally {
        for (const off of offs) off()
      }
    })
  )
})

describe("connect answers that are not accounts", () => {
  const answers: ReadonlyArray<readonly [string, () => Promise<unknown>]> = [
    ['"x"', async () => "x"],
    ["null", async () => null],
    ['{ accounts: "x" }', async () => ({ accounts: "x" })],
    ["accounts whose getter throws", async () => Object.defineProperty({}, "accounts", { get: refuse, enumerable: true })],
    ["accounts that are a throwing Proxy", async () => ({ accounts: throwingProxy([]) })],
    ["an account whose address getter throws", async () => ({ accounts: [Object.defineProperty({ chains: [] }, "address", { get: refuse })] })],
    ["a rejection that is a throwing Proxy", () => Promise.reject(throwingProxy())],
    ["a connect that throws before it answers", refuse as () => Promise<unknown>]
  ]
  for (const family of ["solana", "bitcoin"] as const) {
    it.effect.each(answers)(`${family}: %s fails as a typed error the view can show, never a defect`, ([, answer]) =>
      Effect.gen(function* () {
        const wallet = standardWallet(family, "Odd Wallet", answer)
        const connector = family === "solana" ? makeWalletStandardConnector(wallet) : makeBitcoinStandardConnector(wallet)
        const failure = failureOf(yield* connectExit(connector, family))
        expect(failure).not.toBe("defect")
        expect(failure).not.toBe("connected")
      })
    )
  }
})

describe("addresses decoded by the family's rules", () => {
  it.effect.each(["abc", "0OIl0OIl0OIl0OIl0OIl0OIl0OIl0OIl", "<img src=x onerror=alert(1)>", "1111111111111111111111111111111111111111111"])(
    "solana: %s is no account",
    (garbage) =>
      Effect.gen(function* () {
        const refused = makeWalletStandardConnector(standardWallet("solana", "Garbage", solanaAccounts(garbage)))
        expect(failureOf(yield* connectExit(refused, "solana"))).toBe("SomethingWentWrong")
        // Beside a real key, only the real key is kept.
        const mixed = makeWalletStandardConnector(standardWallet("solana", "Mixed", solanaAccounts(garbage, SOL)))
        const sessions = yield* mixed.connect([localSolana])
        expect(sessions.flatMap((s) => s.accounts.map((a) => a.address))).toEqual([SOL])
      })
  )

  it.effect.each(["bcrt1qzzzzzzz", "bcrt1qmxynpxsd6t5vv5m2c0uq76jre50y7pmlzplv9m", "bcrt1<script>"])("bitcoin: %s is no account", (garbage) =>
    Effect.gen(function* () {
      const refused = makeBitcoinStandardConnector(standardWallet("bitcoin", "Garbage", bitcoinAccounts(garbage)))
      expect(failureOf(yield* connectExit(refused, "bitcoin"))).toBe("SomethingWentWrong")
      const mixed = makeBitcoinStandardConnector(standardWallet("bitcoin", "Mixed", bitcoinAccounts(garbage, PAYMENT)))
      const sessions = yield* mixed.connect([bitcoinRegtest])
      expect(sessions.flatMap((s) => s.accounts.map((a) => a.address))).toEqual([PAYMENT])
    })
  )
})
