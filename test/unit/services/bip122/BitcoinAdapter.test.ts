/**
 * The bip122 adapter over fakes: a scripted Esplora API (an HttpClient answering from a table) and a scripted
 * Bitcoin wallet (a BitcoinProvider whose PSBT signing uses real keys), so each rule is seen alone — receivers
 * checked per network before the wallet is asked, the wallet's own transfer or a PSBT built, signed, checked and
 * broadcast, the check of a wallet's signed PSBT, fees, balances, confirmation and the API's fallback.
 */
import { describe, expect, it } from "@effect/vitest"
import { hex } from "@scure/base"
import { p2tr, p2wpkh, Transaction } from "@scure/btc-signer"
import { pubECDSA, pubSchnorr, sha256 } from "@scure/btc-signer/utils.js"
import { Effect, Exit, Fiber, Option } from "effect"
import * as HttpClient from "effect/http/HttpClient"
import * as HttpClientError from "effect/http/HttpClientError"
import * as HttpClientResponse from "effect/http/HttpClientResponse"
import { TestClock } from "effect/testing"
import { bitcoin, bitcoinRegtest } from "../../../../src/domain/networks"
import { fromBase64, toBase64 } from "../../../../src/domain/encoding"
import { makeBitcoinAdapter } from "../../../../src/services/bip122/BitcoinAdapter"
import { transferVsize } from "../../../../src/services/bip122/coinSelection"
import type { BitcoinInputsToSign, BitcoinProvider } from "../../../../src/services/bip122/provider"
import { REGTEST_NETWORK } from "../../../../src/services/bip122/psbt"
import type { AccountSession } from "../../../../src/services/ChainAdapter"

const key = (text: string) => sha256(new TextEncoder().encode(text))
const payKey = key("unit payment key")
const otherKey = key("unit other key")
const payment = p2wpkh(pubECDSA(payKey), REGTEST_NETWORK)
const other = p2wpkh(pubECDSA(otherKey), REGTEST_NETWORK)
const ordinals = p2tr(pubSchnorr(key("unit ordinals key")), undefined, REGTEST_NETWORK)
const receiver = p2wpkh(pubECDSA(key("unit receiver")), REGTEST_NETWORK).address!
const MAINNET_RECEIVER = "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4"
const txidOf = (n: number) => n.toString(16).padStart(64, "0")

/** What the fake Esplora API holds and what it was asked. */
interface FakeApi {
  utxos: Record<string, ReadonlyArray<{ txid: string; vout: number; value: number; status: { confirmed: boolean } }>>
  stats: Record<string, { chain: [number, number]; mempool: [number, number] }>
  statuses: Array<{ confirmed: boolean; block_height?: number } | 404>
  broadcast: (hex: string) => { status: number; text: string }
  down: ReadonlySet<string>
  readonly requests: Array<string>
  readonly posted: Array<string>
}

const makeApi = (): FakeApi => ({
  utxos: {},
  stats: {},
  statuses: [],
  broadcast: (raw) => ({ status: 200, text: Transaction.fromRaw(hex.decode(raw)).id }),
  down: new Set(),
  requests: [],
  posted: []
})

const respond = (request: Parameters<Parameters<typeof HttpClient.make>[0]>[0], status: number, body: string) =>
  Effect.succeed(HttpClientResponse.fromWeb(request, new Response(body, { status })))

const httpOf = (api: FakeApi): HttpClient.HttpClient =>
  HttpClient.make((request, url) =>
    Effect.suspend(() => {
      api.requests.push(`${request.method} ${url.host}${url.pathname}`)
      if (api.down.has(url.host)) {
        return Effect.fail(new HttpClientError.HttpClientError({ reason: new HttpClientError.TransportError({ request, description: "refused" }) }))
      }
      const path = url.pathname
      const utxo = /^\/address\/([^/]+)\/utxo$/.exec(path)
      if (utxo !== null) return respond(request, 200, JSON.stringify(api.utxos[utxo[1]!] ?? []))
      const address = /^\/address\/([^/]+)$/.exec(path)
      if (address !== null) {
        const stats = api.stats[address[1]!] ?? { chain: [0, 0], mempool: [0, 0] }
        return respond(
          request,
          200,
          JSON.stringify({
            chain_stats: { funded_txo_sum: stats.chain[0], spent_txo_sum: stats.chain[1] },
            mempool_stats: { funded_txo_sum: stats.mempool[0], spent_txo_sum: stats.mempool[1] }
          })
        )
      }
      if (/^\/tx\/[0-9a-f]{64}\/status$/.test(path)) {
        const next = api.statuses.length > 1 ? api.statuses.shift()! : api.statuses[0]
        return next === undefined || next === 404 ? respond(request, 404, "Transaction not found") : respond(request, 200, JSON.stringify(next))
      }
      if (path === "/fee-estimates") return respond(request, 200, JSON.stringify({ "1": 5, "3": 2, "6": 1 }))
      if (path === "/tx" && request.method === "POST") {
        const body = request.body._tag === "Uint8Array" ? new TextDecoder().decode(request.body.body) : ""
        api.posted.push(body)
        const answer = api.broadcast(body)
        return respond(request, answer.status, answer.text)
      }
      return respond(request, 404, "no route")
    })
  )

const REGTEST_API = "http://regtest.test"
const adapterOver = (api: FakeApi, urls: ReadonlyArray<string> = [REGTEST_API]) => makeBitcoinAdapter({ http: httpOf(api), apiUrlsOf: () => urls })

/** A scripted wallet: records what it is asked; signs PSBTs with the payment key unless told otherwise. */
const makeWallet = (overrides: Partial<BitcoinProvider> = {}) => {
  const asked: Array<string> = []
  const provider: BitcoinProvider = {
    getAccountAddresses: async () => [
      { address: payment.address!, purpose: "payment", publicKey: hex.encode(pubECDSA(payKey)) },
      { address: ordinals.address!, purpose: "ordinals" }
    ],
    signMessage: async (address, message) => {
      asked.push(`signMessage:${address}:${message}`)
      return toBase64(new TextEncoder().encode(`bip322(${message})`))
    },
    signPsbt: async (psbt: Uint8Array, inputs: ReadonlyArray<BitcoinInputsToSign>, chain: string) => {
      asked.push(`signPsbt:${chain}:${inputs.map((entry) => `${entry.address}=${entry.indexes.join(",")}`).join(";")}`)
      const tx = Transaction.fromPSBT(psbt)
      for (const entry of inputs) for (const index of entry.indexes) tx.signIdx(payKey, index)
      return tx.toPSBT()
    },
    sendTransfer: async (from, to, amount, chain) => {
      asked.push(`sendTransfer:${from}:${to}:${amount}:${chain}`)
      return txidOf(7)
    },
    ...overrides
  }
  return { provider, asked }
}

const sessionOf = (provider: BitcoinProvider, network = bitcoinRegtest): AccountSession => ({
  provider: { namespace: "bip122", provider },
  address: payment.address!,
  network,
  walletName: "Unit Bitcoin Wallet"
})

const failure = <A, E>(exit: Exit.Exit<A, E>): E => {
  if (Exit.isSuccess(exit)) throw new Error(`expected a failure, got ${JSON.stringify(exit.value, (_k, v) => (typeof v === "bigint" ? String(v) : v))}`)
  const error = Exit.findErrorOption(exit)
  if (Option.isNone(error)) throw new Error(`expected a typed failure, got ${String(exit.cause)}`)
  return error.value
}

describe("the bip122 adapter", () => {
  it.effect("signs a message through the wallet and gives its base64 signature; a refusal is UserRejected", () =>
    Effect.gen(function* () {
      const { provider, asked } = makeWallet()
      const adapter = adapterOver(makeApi())
      const signature = yield* adapter.signMessage(sessionOf(provider), "hello ✓")
      expect(new TextDecoder().decode(fromBase64(signature))).toBe("bip322(hello ✓)")
      expect(asked).toEqual([`signMessage:${payment.address}:hello ✓`])
      const refusing = makeWallet({ signMessage: () => Promise.reject(Object.assign(new Error("User rejected the request."), { code: 4001 })) })
      expect(failure(yield* Effect.exit(adapter.signMessage(sessionOf(refusing.provider), "no")))._tag).toBe("UserRejected")
      const empty = makeWallet({ signMessage: async () => "" })
      expect(failure(yield* Effect.exit(adapter.signMessage(sessionOf(empty.provider), "no")))._tag).toBe("SignMessageFailed")
    })
  )

  it.effect("sends with the wallet's own transfer: receiver and amount checked for the network first, then the txid", () =>
    Effect.gen(function* () {
      const { provider, asked } = makeWallet()
      const adapter = adapterOver(makeApi())
      expect(yield* adapter.send(sessionOf(provider), { to: receiver, value: 25_000n })).toBe(txidOf(7))
      expect(asked).toEqual([`sendTransfer:${payment.address}:${receiver}:25000:bitcoin:regtest`])
      // A mainnet address on regtest, dust and a token are refused before the wallet is asked.
      expect(failure(yield* Effect.exit(adapter.send(sessionOf(provider), { to: MAINNET_RECEIVER, value: 25_000n })))._tag).toBe("SendFormInvalid")
      expect(failure(yield* Effect.exit(adapter.send(sessionOf(provider), { to: receiver, value: 293n })))._tag).toBe("SendFormInvalid")
      expect(failure(yield* Effect.exit(adapter.send(sessionOf(provider), { to: receiver, value: 25_000n, token: "x" } as never)))._tag).toBe(
        "InvalidWalletParams"
      )
      expect(asked).toHaveLength(1)
      const odd = makeWallet({ sendTransfer: async () => "not a txid" })
      expect(failure(yield* Effect.exit(adapter.send(sessionOf(odd.provider), { to: receiver, value: 25_000n })))._tag).toBe("WalletError")
    })
  )

  it.effect("a wallet that only signs PSBTs: the transfer is built from the account's UTXOs, signed, checked, finalised and broadcast", () =>
    Effect.gen(function* () {
      const api = makeApi()
      api.utxos[payment.address!] = [
        { txid: txidOf(1), vout: 0, value: 40_000, status: { confirmed: true } },
        { txid: txidOf(2), vout: 1, value: 100_000, status: { confirmed: true } }
      ]
      const { provider, asked } = makeWallet({ sendTransfer: undefined })
      const adapter = adapterOver(api)
      const fee = yield* adapter.estimateFee(payment.address!, bitcoinRegtest, { to: receiver, value: 60_000n })
      const txid = yield* adapter.send(sessionOf(provider), { to: receiver, value: 60_000n })
      expect(asked).toEqual([`signPsbt:bitcoin:regtest:${payment.address}=0`])
      const sent = Transaction.fromRaw(hex.decode(api.posted[0]!))
      expect(sent.id).toBe(txid)
      // The largest output pays: one input, the amount to the receiver, the change back, the fee at 2 sat/vB.
      expect(sent.inputsLength).toBe(1)
      expect(hex.encode(sent.getInput(0).txid!)).toBe(txidOf(2))
      expect(sent.getOutputAddress(0, REGTEST_NETWORK)).toBe(receiver)
      expect(sent.getOutput(0).amount).toBe(60_000n)
      expect(sent.getOutputAddress(1, REGTEST_NETWORK)).toBe(payment.address)
      expect(fee).toBe(BigInt(transferVsize("p2wpkh", 1, ["p2wpkh", "p2wpkh"]) * 2))
      expect(sent.getOutput(1).amount).toBe(100_000n - 60_000n - fee)
      expect(sent.vsize).toBeLessThanOrEqual(transferVsize("p2wpkh", 1, ["p2wpkh", "p2wpkh"]))
    })
  )

  it.effect("more than the account holds: the fee estimate says so, and the send is InsufficientFunds before the wallet is asked", () =>
    Effect.gen(function* () {
      const api = makeApi()
      api.utxos[payment.address!] = [{ txid: txidOf(1), vout: 0, value: 10_000, status: { confirmed: true } }]
      const { provider, asked } = makeWallet({ sendTransfer: undefined })
      const adapter = adapterOver(api)
      const estimate = failure(yield* Effect.exit(adapter.estimateFee(payment.address!, bitcoinRegtest, { to: receiver, value: 10_000n })))
      expect(estimate).toMatchObject({ _tag: "GasEstimationFailed" })
      expect((estimate as { reason?: string }).reason).toContain("insufficient funds: 0.0001 BTC")
      expect(failure(yield* Effect.exit(adapter.send(sessionOf(provider), { to: receiver, value: 10_000n })))._tag).toBe("InsufficientFunds")
      expect(asked).toEqual([])
    })
  )

  it.effect("Max: the fee of spending every coin to one output with no change; the balance less it is sent exactly, leaving nothing", () =>
    Effect.gen(function* () {
      const api = makeApi()
      api.utxos[payment.address!] = [
        { txid: txidOf(1), vout: 0, value: 40_000, status: { confirmed: true } },
        { txid: txidOf(2), vout: 1, value: 100_000, status: { confirmed: true } },
        { txid: txidOf(3), vout: 0, value: 5_000, status: { confirmed: false } }
      ]
      const { provider } = makeWallet({ sendTransfer: undefined })
      const adapter = adapterOver(api)
      // The whole balance as a transfer's amount leaves nothing for the fee: that is what Max used to be told.
      const whole = failure(yield* Effect.exit(adapter.estimateFee(payment.address!, bitcoinRegtest, { to: receiver, value: 145_000n })))
      expect(whole).toMatchObject({ _tag: "GasEstimationFailed" })
      const fee = yield* adapter.estimateMaxFee!(payment.address!, bitcoinRegtest, { to: receiver, value: 145_000n })
      expect(fee).toBe(BigInt(transferVsize("p2wpkh", 3, ["p2wpkh"]) * 2))
      const max = 145_000n - fee
      expect(yield* adapter.estimateFee(payment.address!, bitcoinRegtest, { to: receiver, value: max })).toBe(fee)
      yield* adapter.send(sessionOf(provider), { to: receiver, value: max })
      const sent = Transaction.fromRaw(hex.decode(api.posted[0]!))
      expect(sent.inputsLength).toBe(3)
      expect(sent.outputsLength).toBe(1)
      expect(sent.getOutputAddress(0, REGTEST_NETWORK)).toBe(receiver)
      expect(sent.getOutput(0).amount).toBe(max)
      expect(sent.vsize).toBeLessThanOrEqual(transferVsize("p2wpkh", 3, ["p2wpkh"]))
    })
  )

  it.effect("Max with nothing, or less than the fee and dust, says insufficient funds; a receiver of another network is refused", () =>
    Effect.gen(function* () {
      const api = makeApi()
      const adapter = adapterOver(api)
      const empty = failure(yield* Effect.exit(adapter.estimateMaxFee!(payment.address!, bitcoinRegtest, { to: receiver, value: 1n })))
      expect((empty as { reason?: string }).reason).toBe("insufficient funds: 0 BTC does not pay the fee of sending it")
      api.utxos[payment.address!] = [{ txid: txidOf(1), vout: 0, value: 500, status: { confirmed: true } }]
      const dust = failure(yield* Effect.exit(adapter.estimateMaxFee!(payment.address!, bitcoinRegtest, { to: receiver, value: 500n })))
      expect((dust as { reason?: string }).reason).toContain("insufficient funds: 0.000005 BTC")
      const mainnet = failure(yield* Effect.exit(adapter.estimateMaxFee!(payment.address!, bitcoinRegtest, { to: MAINNET_RECEIVER, value: 500n })))
      expect(mainnet._tag).toBe("SendFormInvalid")
    })
  )

  it.effect("a node's refusal of the broadcast is TransactionRejected in the node's words", () =>
    Effect.gen(function* () {
      const api = makeApi()
      api.utxos[payment.address!] = [{ txid: txidOf(1), vout: 0, value: 100_000, status: { confirmed: true } }]
      api.broadcast = () => ({ status: 400, text: 'sendrawtransaction RPC error: {"code":-26,"message":"txn-mempool-conflict"}' })
      const { provider } = makeWallet({ sendTransfer: undefined })
      const error = failure(yield* Effect.exit(adapterOver(api).send(sessionOf(provider), { to: receiver, value: 50_000n })))
      expect(error).toMatchObject({ _tag: "TransactionRejected", details: "txn-mempool-conflict" })
    })
  )

  describe("signPsbt", () => {
    const psbtOf = (inputs: ReadonlyArray<{ script: Uint8Array; amount: bigint }>) => {
      const tx = new Transaction()
      inputs.forEach((input, i) => tx.addInput({ txid: txidOf(i + 1), index: 0, witnessUtxo: input }))
      tx.addOutputAddress(receiver, 30_000n, REGTEST_NETWORK)
      return tx.toPSBT()
    }
    const twoInputs = () => psbtOf([
      { script: payment.script, amount: 20_000n },
      { script: other.script, amount: 20_000n }
    ])
    const request = (psbt: Uint8Array, extra: Record<string, unknown> = {}) => ({
      account: payment.address,
      psbt: toBase64(psbt),
      signInputs: [{ address: payment.address, index: 0, sighashTypes: [1] }],
      ...extra
    })

    it.effect("gives the PSBT with the wallet's signature on its input only, and broadcasts it when asked", () =>
      Effect.gen(function* () {
        const api = makeApi()
        const { provider, asked } = makeWallet()
        const adapter = adapterOver(api)
        const answer = (yield* adapter.request(sessionOf(provider), "signPsbt", request(twoInputs()))) as { psbt: string }
        const signed = Transaction.fromPSBT(fromBase64(answer.psbt)!)
        expect(signed.getInput(0).partialSig).toHaveLength(1)
        expect(signed.getInput(1).partialSig).toBeUndefined()
        expect(asked).toEqual([`signPsbt:bitcoin:regtest:${payment.address}=0`])
        // Broadcasting needs every input signed: a one-input PSBT the wallet signs wholly.
        const whole = psbtOf([{ script: payment.script, amount: 40_000n }])
        const sent = (yield* adapter.request(sessionOf(provider), "signPsbt", request(whole, { broadcast: true }))) as { psbt: string; txid: string }
        expect(sent.txid).toBe(Transaction.fromRaw(hex.decode(api.posted[0]!)).id)
      })
    )

    it.effect("refuses what the wallet returns when it is another transaction, leaves the input unsigned, or signs an input it was not asked to", () =>
      Effect.gen(function* () {
        const adapter = adapterOver(makeApi())
        const signingBoth = makeWallet({
          signPsbt: async (psbt) => {
            const tx = Transaction.fromPSBT(psbt)
            tx.signIdx(payKey, 0)
            tx.signIdx(otherKey, 1)
            return tx.toPSBT()
          }
        })
        const unsigned = makeWallet({ signPsbt: async (psbt) => psbt })
        const swapped = makeWallet({
          signPsbt: async () => {
            const tx = Transaction.fromPSBT(psbtOf([{ script: payment.script, amount: 20_000n }]))
            tx.addOutputAddress(payment.address!, 5_000n, REGTEST_NETWORK)
            tx.signIdx(payKey, 0)
            return tx.toPSBT()
          }
        })
        const reasonOf = (exit: Exit.Exit<unknown, unknown>) => {
          const error = failure(exit) as { _tag: string; details?: string }
          expect(error._tag).toBe("WalletError")
          return error.details
        }
        expect(reasonOf(yield* Effect.exit(adapter.request(sessionOf(signingBoth.provider), "signPsbt", request(twoInputs()))))).toContain(
          "signed input 1, which it was not asked to sign"
        )
        expect(reasonOf(yield* Effect.exit(adapter.request(sessionOf(unsigned.provider), "signPsbt", request(twoInputs()))))).toContain(
          "did not sign input 0"
        )
        expect(reasonOf(yield* Effect.exit(adapter.request(sessionOf(swapped.provider), "signPsbt", request(twoInputs()))))).toContain(
          "another transaction"
        )
      })
    )

    it.effect("refuses, before asking the wallet, an input that does not pay the signing address, an index past the inputs, and bytes that are no PSBT", () =>
      Effect.gen(function* () {
        const { provider, asked } = makeWallet()
        const adapter = adapterOver(makeApi())
        const tagOf = (exit: Exit.Exit<unknown, unknown>) => (failure(exit) as { _tag: string; details?: string })
        const wrongInput = tagOf(
          yield* Effect.exit(
            adapter.request(sessionOf(provider), "signPsbt", request(twoInputs(), { signInputs: [{ address: payment.address, index: 1, sighashTypes: [] }] }))
          )
        )
        expect(wrongInput).toMatchObject({ _tag: "InvalidWalletParams" })
        expect(wrongInput.details).toContain("input 1 does not spend an output of")
        const past = tagOf(
          yield* Effect.exit(
            adapter.request(sessionOf(provider), "signPsbt", request(twoInputs(), { signInputs: [{ address: payment.address, index: 5, sighashTypes: [] }] }))
          )
        )
        expect(past.details).toContain("has no input 5")
        const garbage = tagOf(yield* Effect.exit(adapter.request(sessionOf(provider), "signPsbt", { ...request(twoInputs()), psbt: "aGVsbG8=" })))
        expect(garbage.details).toContain("not a PSBT")
        expect(asked).toEqual([])
      })
    )
  })

  it.effect("passes getAccountAddresses and signMessage requests in WalletConnect's shapes; another method is WalletMethodUnsupported", () =>
    Effect.gen(function* () {
      const { provider } = makeWallet()
      const adapter = adapterOver(makeApi())
      expect(yield* adapter.request(sessionOf(provider), "getAccountAddresses", { account: payment.address })).toEqual([
        { address: payment.address, publicKey: hex.encode(pubECDSA(payKey)), intention: "payment" },
        { address: ordinals.address, intention: "ordinal" }
      ])
      expect(yield* adapter.request(sessionOf(provider), "signMessage", { address: payment.address, message: "m" })).toMatchObject({
        address: payment.address
      })
      expect(failure(yield* Effect.exit(adapter.request(sessionOf(provider), "eth_sendTransaction", [])))._tag).toBe("WalletMethodUnsupported")
    })
  )

  it.effect("reads the balance from the API: received minus spent, in blocks and waiting", () =>
    Effect.gen(function* () {
      const api = makeApi()
      api.stats[payment.address!] = { chain: [150_000, 50_000], mempool: [1_000, 20_000] }
      const [native] = yield* adapterOver(api).balances(payment.address!, bitcoinRegtest)
      expect(native).toEqual({ symbol: "BTC", decimals: 8, value: 81_000n, formatted: "0.00081" })
    })
  )

  it.effect("follows a transaction until a block holds it, asking every second (unknown, then waiting, then confirmed)", () =>
    Effect.gen(function* () {
      const api = makeApi()
      api.statuses = [404, { confirmed: false }, { confirmed: true, block_height: 42 }]
      const fiber = yield* Effect.forkChild(adapterOver(api).waitForTransaction(txidOf(9), bitcoinRegtest))
      yield* TestClock.adjust("2 seconds")
      const confirmation = yield* Fiber.join(fiber)
      expect(confirmation).toEqual({ namespace: "bip122", hash: txidOf(9), blockNumber: 42n, status: "success" })
      expect(api.requests.filter((r) => r.includes("/status"))).toHaveLength(3)
    })
  )

  it.effect("gives up after 25 s without a block", () =>
    Effect.gen(function* () {
      const api = makeApi()
      api.statuses = [{ confirmed: false }]
      const fiber = yield* Effect.forkChild(Effect.exit(adapterOver(api).waitForTransaction(txidOf(9), bitcoinRegtest)))
      yield* TestClock.adjust("24 seconds")
      expect(fiber.pollUnsafe()).toBeUndefined()
      yield* TestClock.adjust("2 seconds")
      const error = failure(yield* Fiber.join(fiber)) as { reason?: string }
      expect(error.reason).toContain("was not confirmed after 25 s")
    })
  )

  it.effect("an API that cannot be reached gives way to the network's next URL; a refusal (4xx) does not", () =>
    Effect.gen(function* () {
      const api = makeApi()
      api.down = new Set(["down.test"])
      api.stats[payment.address!] = { chain: [5_000, 0], mempool: [0, 0] }
      const adapter = adapterOver(api, ["http://down.test", REGTEST_API])
      expect((yield* adapter.balances(payment.address!, bitcoinRegtest))[0]?.value).toBe(5_000n)
      expect(api.requests).toEqual([`GET down.test/address/${payment.address}`, `GET regtest.test/address/${payment.address}`])
      api.requests.length = 0
      api.down = new Set()
      api.broadcast = () => ({ status: 400, text: "bad-txns-in-belowout" })
      api.utxos[payment.address!] = [{ txid: txidOf(1), vout: 0, value: 100_000, status: { confirmed: true } }]
      const { provider } = makeWallet({ sendTransfer: undefined })
      const twoUrls = adapterOver(api, [REGTEST_API, "http://second.test"])
      expect(failure(yield* Effect.exit(twoUrls.send(sessionOf(provider), { to: receiver, value: 50_000n })))._tag).toBe("TransactionRejected")
      expect(api.requests.filter((r) => r.startsWith("POST"))).toEqual(["POST regtest.test/tx"])
    })
  )

  it.effect("a wallet's regtest account cannot be moved to mainnet by the site; staying on its network is fine", () =>
    Effect.gen(function* () {
      const { provider } = makeWallet()
      const adapter = adapterOver(makeApi())
      yield* adapter.switchNetwork(sessionOf(provider), bitcoinRegtest)
      expect(failure(yield* Effect.exit(adapter.switchNetwork(sessionOf(provider), bitcoin)))).toMatchObject({
        _tag: "ProgrammaticSwitchUnsupported",
        connector: "Unit Bitcoin Wallet"
      })
    })
  )
})
