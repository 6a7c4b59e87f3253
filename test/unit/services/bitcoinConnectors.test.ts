/**
 * Bitcoin discovery over scripted wallets: a Wallet Standard wallet with the `bitcoin:` features (connect with
 * purposes, the preferred account type first, addresses of another network left out, silent restore, account
 * changes, the BitcoinProvider over its features), a sats-connect-style provider (its JSON-RPC answers, a hostile
 * `btc_providers` ignored), and one wallet serving EVM, Solana and Bitcoin merged into one row that connects all three.
 */
import { describe, expect, it } from "@effect/vitest"
import type { Wallet, WalletAccount } from "@wallet-standard/base"
import { Effect, Exit, Fiber, Option, Stream } from "effect"
import { bitcoin, bitcoinRegtest, localChainA, localSolana } from "../../../src/domain/networks"
import { fromBase64 } from "../../../src/domain/encoding"
import {
  accountsOf,
  isBitcoinWallet,
  makeBitcoinStandardConnector,
  makeSatsConnectConnector,
  satsConnectProvidersOf
} from "../../../src/services/connectors/bitcoin"
import type { FamilySession } from "../../../src/services/connectors/Connector"
import { makeMerger } from "../../../src/services/connectors/Connectors"
import { makeWalletStandardConnector } from "../../../src/services/connectors/walletStandard"
import { makeFakeWallet } from "../../../src/services/fakes/FakeWallet"

const PAYMENT = "bcrt1qmxynpxsd6t5vv5m2c0uq76jre50y7pmlzplv9n"
const ORDINALS = "bcrt1psuarzj6gsufxv9lz2qk3s49ralqdj4qat536nspuetz60c8jx23s39dfqf"
const MAINNET = "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4"
const SOL = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM"

const account = (address: string, chains: ReadonlyArray<string> = ["bitcoin:regtest"]): WalletAccount =>
  ({ address, publicKey: new Uint8Array([2, 1]), chains, features: [] }) as unknown as WalletAccount

/** A scripted Wallet Standard wallet; `calls` records what it was asked. */
const standardWallet = (options: { name?: string; answer?: ReadonlyArray<WalletAccount>; solana?: boolean; authorised?: boolean } = {}) => {
  const calls: Array<string> = []
  const listeners = new Set<(properties: { accounts?: ReadonlyArray<WalletAccount> }) => void>()
  let accounts: ReadonlyArray<WalletAccount> = options.authorised === true ? (options.answer ?? []) : []
  const wallet = {
    version: "1.0.0",
    name: options.name ?? "Regtest Wallet",
    icon: "data:image/svg+xml;base64,PHN2Zy8+",
    chains: ["bitcoin:regtest"],
    get accounts() {
      return accounts
    },
    features: {
      "standard:connect": {
        version: "1.0.0",
        connect: async (input?: { silent?: boolean }) => {
          calls.push(`standard:connect:${input?.silent === true ? "silent" : "prompt"}`)
          if (input?.silent !== true) accounts = options.answer ?? [account(PAYMENT), account(ORDINALS)]
          return { accounts }
        }
      },
      "standard:events": {
        version: "1.0.0",
        on: (_event: "change", listener: (properties: { accounts?: ReadonlyArray<WalletAccount> }) => void) => {
          listeners.add(listener)
          return () => listeners.delete(listener)
        }
      },
      "bitcoin:connect": {
        version: "1.0.0",
        connect: async (input: { purposes: ReadonlyArray<string> }) => {
          calls.push(`bitcoin:connect:${input.purposes.join(",")}`)
          accounts = options.answer ?? [account(PAYMENT), account(ORDINALS)]
          return { accounts }
        }
      },
      "bitcoin:signMessage": {
        version: "1.0.0",
        signMessage: async (...inputs: ReadonlyArray<{ account: WalletAccount; message: Uint8Array }>) =>
          inputs.map((input) => {
            calls.push(`bitcoin:signMessage:${input.account.address}:${new TextDecoder().decode(input.message)}`)
            return { signedMessage: input.message, signature: new Uint8Array([1, 2, 3]) }
          })
      },
      "bitcoin:signTransaction": {
        version: "1.0.0",
        signTransaction: async (...inputs: ReadonlyArray<{ psbt: Uint8Array; chain: string; inputsToSign: ReadonlyArray<{ account: WalletAccount; signingIndexes: ReadonlyArray<number> }> }>) =>
          inputs.map((input) => {
            calls.push(`bitcoin:signTransaction:${input.chain}:${input.inputsToSign.map((entry) => `${entry.account.address}=${entry.signingIndexes.join(",")}`).join(";")}`)
            return { signedPsbt: new Uint8Array([...input.psbt, 9]) }
          })
      },
      "bitcoin:sendTransfer": {
        version: "1.0.0",
        sendTransfer: async (...inputs: ReadonlyArray<{ account: WalletAccount; chain: string; recipients: ReadonlyArray<{ address: string; amount: bigint }> }>) =>
          inputs.map((input) => {
            calls.push(`bitcoin:sendTransfer:${input.account.address}:${input.chain}:${input.recipients.map((r) => `${r.address}=${typeof r.amount}:${r.amount}`).join(";")}`)
            return { txid: "ab".repeat(32) }
          })
      },
      ...(options.solana === true
        ? {
            "solana:signMessage": {
              version: "1.1.0",
              signMessage: async () => [{ signedMessage: new Uint8Array(), signature: new Uint8Array(64) }]
            }
          }
        : {})
    }
  }
  const emit = (next: ReadonlyArray<WalletAccount>) => {
    accounts = next
    for (const listener of [...listeners]) listener({ accounts: next })
  }
  return { wallet: wallet as unknown as Wallet, calls, emit }
}

const sessions = (exit: Exit.Exit<ReadonlyArray<FamilySession>, unknown>) => {
  if (Exit.isFailure(exit)) throw new Error(String(exit.cause))
  return exit.value
}

describe("Bitcoin wallets of the Wallet Standard", () => {
  it("are those that connect Bitcoin addresses and sign or send; a Solana-only wallet is not one", () => {
    expect(isBitcoinWallet(standardWallet().wallet)).toBe(true)
    const solanaOnly = { version: "1.0.0", name: "S", icon: "", chains: [], accounts: [], features: { "standard:connect": { connect: async () => ({ accounts: [] }) }, "solana:signMessage": { signMessage: async () => [] } } }
    expect(isBitcoinWallet(solanaOnly as unknown as Wallet)).toBe(false)
  })

  it.effect("connect asks for payment and ordinals addresses; payment comes first unless the host prefers ordinals", () =>
    Effect.gen(function* () {
      const { wallet, calls } = standardWallet()
      const [session] = sessions(yield* Effect.exit(makeBitcoinStandardConnector(wallet).connect([bitcoinRegtest])))
      expect(calls).toEqual(["bitcoin:connect:payment,ordinals"])
      expect(session?.accounts).toEqual([
        { address: PAYMENT, type: "payment" },
        { address: ORDINALS, type: "ordinals" }
      ])
      expect(session?.chainId).toBe(bitcoinRegtest.id)
      const [ordinalsFirst] = sessions(yield* Effect.exit(makeBitcoinStandardConnector(wallet, { accountType: "ordinals" }).connect([bitcoinRegtest])))
      expect(ordinalsFirst?.accounts.map((entry) => entry.type)).toEqual(["ordinals", "payment"])
    })
  )

  it.effect("addresses of another network are left out; a wallet with none for the network fails to connect, saying which", () =>
    Effect.gen(function* () {
      const { wallet } = standardWallet({ answer: [account(MAINNET, ["bitcoin:mainnet"]), account(PAYMENT)] })
      const [session] = sessions(yield* Effect.exit(makeBitcoinStandardConnector(wallet).connect([bitcoinRegtest])))
      expect(session?.accounts.map((entry) => entry.address)).toEqual([PAYMENT])
      const [onMainnet] = sessions(yield* Effect.exit(makeBitcoinStandardConnector(wallet).connect([bitcoin])))
      expect(onMainnet?.accounts.map((entry) => entry.address)).toEqual([MAINNET])
      const exit = yield* Effect.exit(makeBitcoinStandardConnector(standardWallet().wallet).connect([bitcoin]))
      expect(Exit.isFailure(exit) && Option.getOrUndefined(Exit.findErrorOption(exit))).toMatchObject({
        _tag: "SomethingWentWrong",
        reason: "The wallet gave no Bitcoin address of Bitcoin"
      })
    })
  )

  it.effect("restoring asks silently: the authorised accounts, or none, never a prompt", () =>
    Effect.gen(function* () {
      const authorised = standardWallet({ authorised: true, answer: [account(PAYMENT), account(ORDINALS)] })
      const [session] = sessions(yield* Effect.exit(makeBitcoinStandardConnector(authorised.wallet).reconnect([bitcoinRegtest])))
      expect(session?.accounts[0]).toEqual({ address: PAYMENT, type: "payment" })
      expect(authorised.calls).toEqual(["standard:connect:silent"])
      const stranger = standardWallet()
      expect(sessions(yield* Effect.exit(makeBitcoinStandardConnector(stranger.wallet).reconnect([bitcoinRegtest])))).toEqual([])
      expect(stranger.calls).toEqual(["standard:connect:silent"])
    })
  )

  it.effect("the provider signs messages (signature in base64), PSBT inputs with the account, and sends satoshis as a bigint", () =>
    Effect.gen(function* () {
      const { wallet, calls } = standardWallet()
      const [session] = sessions(yield* Effect.exit(makeBitcoinStandardConnector(wallet).connect([bitcoinRegtest])))
      const provider = session!.provider
      if (provider.namespace !== "bip122") throw new Error("not a Bitcoin provider")
      expect(fromBase64(yield* Effect.promise(() => provider.provider.signMessage(PAYMENT, "hi")))).toEqual(new Uint8Array([1, 2, 3]))
      expect(yield* Effect.promise(() => provider.provider.signPsbt!(new Uint8Array([7]), [{ address: PAYMENT, indexes: [0, 2] }], "bitcoin:regtest"))).toEqual(
        new Uint8Array([7, 9])
      )
      expect(yield* Effect.promise(() => provider.provider.sendTransfer!(PAYMENT, ORDINALS, 1234n, "bitcoin:regtest"))).toBe("ab".repeat(32))
      expect(calls.slice(1)).toEqual([
        `bitcoin:signMessage:${PAYMENT}:hi`,
        `bitcoin:signTransaction:bitcoin:regtest:${PAYMENT}=0,2`,
        `bitcoin:sendTransfer:${PAYMENT}:bitcoin:regtest:${ORDINALS}=bigint:1234`
      ])
      expect(yield* Effect.promise(() => provider.provider.getAccountAddresses())).toMatchObject([
        { address: PAYMENT, purpose: "payment", publicKey: "0201" },
        { address: ORDINALS, purpose: "ordinals" }
      ])
    })
  )

  it.effect("an account change in the wallet is heard as AccountsChanged on bip122", () =>
    Effect.gen(function* () {
      const { wallet, emit } = standardWallet()
      const connector = makeBitcoinStandardConnector(wallet)
      yield* connector.connect([bitcoinRegtest])
      const heard = yield* Effect.forkChild(Stream.runHead(connector.events))
      yield* Effect.yieldNow
      emit([account(ORDINALS)])
      const event = yield* Fiber.join(heard)
      expect(Option.getOrUndefined(event)).toEqual({ _tag: "AccountsChanged", namespace: "bip122", accounts: [{ address: ORDINALS, type: "ordinals" }] })
    })
  )
})

describe("sats-connect-style providers", () => {
  const satsProvider = (answers: Record<string, unknown>) => {
    const calls: Array<string> = []
    return {
      calls,
      provider: {
        request: async (method: string, params?: unknown) => {
          calls.push(`${method}:${JSON.stringify(params)}`)
          const answer = answers[method]
          return answer ?? { jsonrpc: "2.0", id: 1, error: { code: -32601, message: `Method not found: ${method}` } }
        }
      }
    }
  }

  it("are found in window.btc_providers by their path, and a bare window.BitcoinProvider; hostile entries are left out", () => {
    const xverse = { request: async () => ({}) }
    const bare = { request: async () => ({}) }
    const page: Record<string, unknown> = {
      XverseProviders: { BitcoinProvider: xverse },
      BitcoinProvider: bare,
      btc_providers: [
        { id: "XverseProviders.BitcoinProvider", name: "Xverse Wallet", icon: "data:image/svg+xml;base64,PHN2Zy8+" },
        { id: "Nowhere.Provider", name: "Ghost" },
        { id: "XverseProviders", name: "Not a provider" },
        null,
        { id: 3, name: "Bad" }
      ]
    }
    expect(satsConnectProvidersOf(page).map(({ entry, provider }) => [entry.name, provider])).toEqual([
      ["Xverse Wallet", xverse],
      ["Bitcoin Wallet", bare]
    ])
    const throwing = Object.defineProperty({}, "btc_providers", { get: () => { throw new Error("hostile") } })
    expect(satsConnectProvidersOf(throwing)).toEqual([])
  })

  it.effect("connect asks getAddresses (getAccounts when the wallet lacks it); the wallet's refusal is UserRejected", () =>
    Effect.gen(function* () {
      const addresses = [
        { address: ORDINALS, purpose: "ordinals", publicKey: "aa" },
        { address: PAYMENT, purpose: "payment", publicKey: "bb" }
      ]
      const older = satsProvider({ getAccounts: { jsonrpc: "2.0", id: 1, result: addresses } })
      const [session] = sessions(yield* Effect.exit(makeSatsConnectConnector({ id: "P", name: "Older" }, older.provider).connect([bitcoinRegtest])))
      expect(session?.accounts).toEqual([
        { address: PAYMENT, type: "payment" },
        { address: ORDINALS, type: "ordinals" }
      ])
      expect(older.calls.map((call) => call.split(":")[0])).toEqual(["getAddresses", "getAccounts"])
      const refusing = satsProvider({ getAddresses: { jsonrpc: "2.0", id: 1, error: { code: 4001, message: "User rejected the request." } } })
      const exit = yield* Effect.exit(makeSatsConnectConnector({ id: "P", name: "Refusing" }, refusing.provider).connect([bitcoinRegtest]))
      expect(Exit.isFailure(exit) && Option.getOrUndefined(Exit.findErrorOption(exit))).toMatchObject({ _tag: "UserRejected" })
    })
  )

  it.effect("its provider asks BIP-322 signatures, PSBT signing by address and transfers in satoshis; restoring asks without a prompt", () =>
    Effect.gen(function* () {
      const wallet = satsProvider({
        getAddresses: { result: { addresses: [{ address: PAYMENT, purpose: "payment" }] } },
        wallet_getAccount: { result: { addresses: [{ address: PAYMENT, purpose: "payment" }] } },
        signMessage: { result: { signature: "c2ln", address: PAYMENT } },
        signPsbt: { result: { psbt: "AQI=" } },
        sendTransfer: { result: { txid: "cd".repeat(32) } }
      })
      const connector = makeSatsConnectConnector({ id: "P", name: "Sats" }, wallet.provider)
      const [session] = sessions(yield* Effect.exit(connector.connect([bitcoinRegtest])))
      const provider = session!.provider
      if (provider.namespace !== "bip122") throw new Error("not a Bitcoin provider")
      expect(yield* Effect.promise(() => provider.provider.signMessage(PAYMENT, "hi"))).toBe("c2ln")
      expect(yield* Effect.promise(() => provider.provider.signPsbt!(new Uint8Array([1]), [{ address: PAYMENT, indexes: [0] }, { address: PAYMENT, indexes: [1] }], "bitcoin:regtest"))).toEqual(
        new Uint8Array([1, 2])
      )
      expect(yield* Effect.promise(() => provider.provider.sendTransfer!(PAYMENT, ORDINALS, 5000n, "bitcoin:regtest"))).toBe("cd".repeat(32))
      expect(wallet.calls.slice(1)).toEqual([
        `signMessage:${JSON.stringify({ address: PAYMENT, message: "hi", protocol: "BIP322" })}`,
        `signPsbt:${JSON.stringify({ psbt: "AQ==", signInputs: { [PAYMENT]: [0, 1] }, broadcast: false })}`,
        `sendTransfer:${JSON.stringify({ recipients: [{ address: ORDINALS, amount: 5000 }] })}`
      ])
      const [restored] = sessions(yield* Effect.exit(connector.reconnect([bitcoinRegtest])))
      expect(restored?.accounts[0]?.address).toBe(PAYMENT)
      expect(wallet.calls.at(-1)).toBe("wallet_getAccount:null")
      const forgotten = satsProvider({})
      expect(sessions(yield* Effect.exit(makeSatsConnectConnector({ id: "Q", name: "Forgot" }, forgotten.provider).reconnect([bitcoinRegtest])))).toEqual([])
    })
  )
})

describe("one wallet, one row, three families", () => {
  it.effect("a wallet announced for EVM and registered with Solana and Bitcoin features under one name is one entry connecting all three", () =>
    Effect.gen(function* () {
      const evm = yield* makeFakeWallet({
        id: "multi.wallet",
        name: "Multi Wallet",
        type: "ANNOUNCED",
        families: { eip155: { accounts: [{ address: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266", type: "eoa" }], chainId: 31337 } }
      })
      const { wallet, calls } = standardWallet({ name: "Multi Wallet", solana: true, answer: [account(PAYMENT), account(ORDINALS), account(SOL, ["solana:localnet"])] })
      const solanaSide = makeWalletStandardConnector(wallet)
      const bitcoinSide = makeBitcoinStandardConnector(wallet)
      const other = makeBitcoinStandardConnector(standardWallet({ name: "Other Wallet" }).wallet)
      const merged = makeMerger()([[evm.connector], [solanaSide], [bitcoinSide, other]])
      expect(merged.map((connector) => [connector.info.name, connector.info.type, connector.namespaces])).toEqual([
        ["Multi Wallet", "MULTI_CHAIN", ["eip155", "solana", "bip122"]],
        ["Other Wallet", "ANNOUNCED", ["bip122"]]
      ])
      const connected = sessions(yield* Effect.exit(merged[0]!.connect([localChainA, localSolana, bitcoinRegtest])))
      expect(connected.map((session) => [session.provider.namespace, session.accounts[0]?.address])).toEqual([
        ["eip155", "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"],
        ["solana", SOL],
        ["bip122", PAYMENT]
      ])
      expect(calls).toContain("bitcoin:connect:payment,ordinals")
    })
  )

  it("the preferred account type orders a list of addresses", () => {
    const list = [
      { address: ORDINALS, purpose: "ordinals" as const },
      { address: PAYMENT, purpose: "payment" as const }
    ]
    expect(accountsOf(list, undefined).map((entry) => entry.type)).toEqual(["payment", "ordinals"])
    expect(accountsOf(list, "ordinals").map((entry) => entry.type)).toEqual(["ordinals", "payment"])
  })
})
