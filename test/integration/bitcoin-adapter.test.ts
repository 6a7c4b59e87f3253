/**
 * The bip122 adapter against the devstack's regtest node, with the Node Bitcoin test wallet reached as the product
 * reaches it (its Wallet Standard object → the Bitcoin connector → its BitcoinProvider) and every read through the
 * node's Esplora-style API: the ChainAdapter contract (without its token and failed-transaction cases: Bitcoin has
 * no tokens, and a node refuses a failing transaction instead of mining it), then BIP-322 signatures that verify, sendTransfer confirmed with the receiver paid, a
 * PSBT-only wallet's transfer, signPsbt of a two-party transaction and with broadcast, the fee estimate against the
 * fee paid, and refusals (the visitor's, a bad receiver, a double spend the node refuses).
 */
import { hex } from "@scure/base"
import { p2wpkh, Transaction } from "@scure/btc-signer"
import { Effect, Exit, Option } from "effect"
import * as FetchHttpClient from "effect/http/FetchHttpClient"
import * as HttpClient from "effect/http/HttpClient"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { verifyBip322 } from "../../server/src/bitcoin/bip322"
import { type BitcoinInfo, devBitcoinKey, REGTEST, startBitcoin } from "../../devstack/bitcoin"
import type { Started } from "../../server/src/lib/Started"
import { makeBitcoinTestWallet } from "../../devstack/wallet/bitcoin/testWallet"
import type { CaipNetwork } from "../../src/domain/Network"
import { bitcoinRegtest, withDefaultRpcUrls } from "../../src/domain/networks"
import { makeBitcoinAdapter } from "../../src/services/bip122/BitcoinAdapter"
import type { AccountSession, ChainAdapter } from "../../src/services/ChainAdapter"
import { makeBitcoinStandardConnector } from "../../src/services/connectors/bitcoin"
import { chainAdapterContract } from "./support/chainAdapterContract"

let node: Started<BitcoinInfo>
let network: CaipNetwork
let adapter: ChainAdapter

beforeAll(async () => {
  node = await startBitcoin({ blockIntervalMs: 300 })
  network = withDefaultRpcUrls(bitcoinRegtest, { http: [node.info.url] })
  const http = await Effect.runPromise(Effect.provide(Effect.service(HttpClient.HttpClient), FetchHttpClient.layer))
  adapter = makeBitcoinAdapter({ http, apiUrlsOf: (n) => n.rpcUrls.default.http })
})
afterAll(async () => {
  await node?.stop()
})

const run = <A, E>(effect: Effect.Effect<A, E>) => Effect.runPromise(effect)
const failureOf = async <A, E>(effect: Effect.Effect<A, E>): Promise<E & { _tag: string }> => {
  const exit = await Effect.runPromise(Effect.exit(effect))
  if (Exit.isSuccess(exit)) throw new Error(`expected a failure, got ${String(exit.value)}`)
  const error = Exit.findErrorOption(exit)
  if (Option.isNone(error)) throw new Error(`expected a typed failure, got ${String(exit.cause)}`)
  return error.value as E & { _tag: string }
}

/** A wallet of dev key set `keyIndex`, connected through the product's connector; its session as the adapter gets it. */
const connected = async (keyIndex: number, without: ReadonlyArray<string> = []) => {
  const wallet = makeBitcoinTestWallet({ apiUrl: node.info.url, keyIndex, without })
  const [session] = await run(makeBitcoinStandardConnector(wallet.wallet).connect([network]))
  if (session === undefined) throw new Error("no session")
  const account: AccountSession = { provider: session.provider, address: session.accounts[0]!.address, network, walletName: "Bitcoin Test Wallet" }
  return { wallet, session, account }
}

const nodeJson = async <A>(path: string): Promise<A> => (await (await fetch(`${node.info.url}${path}`)).json()) as A
// A receiver no test holds a key of.
const freshReceiver = (n: number) => p2wpkh(hex.decode(devBitcoinKey(100 + n).paymentPublicKey), REGTEST).address!

describe("the bip122 adapter on the regtest node", () => {
  it("connects the test wallet through its Wallet Standard features: the payment address first, then the ordinals one", async () => {
    const { session, wallet } = await connected(0)
    expect(session.accounts).toEqual([
      { address: wallet.key.paymentAddress, type: "payment" },
      { address: wallet.key.ordinalsAddress, type: "ordinals" }
    ])
  })

  it("signs messages with BIP-322 simple: the payment (P2WPKH) and ordinals (P2TR) signatures verify for their message only", async () => {
    const { account, wallet } = await connected(0)
    const message = "Sign in to Wallet Runtime\nnonce: 42 ✓"
    const signature = await run(adapter.signMessage(account, message))
    expect(verifyBip322(wallet.key.paymentAddress, REGTEST, message, signature)).toBe(true)
    expect(verifyBip322(wallet.key.paymentAddress, REGTEST, `${message}!`, signature)).toBe(false)
    expect(verifyBip322(wallet.key.ordinalsAddress, REGTEST, message, signature)).toBe(false)
    const taproot = (await run(adapter.request(account, "signMessage", { address: wallet.key.ordinalsAddress, message }))) as { signature: string }
    expect(verifyBip322(wallet.key.ordinalsAddress, REGTEST, message, taproot.signature)).toBe(true)
    expect(verifyBip322(wallet.key.ordinalsAddress, REGTEST, "another", taproot.signature)).toBe(false)
  })

  it("sends with the wallet's sendTransfer: confirmed in a block, the receiver holds the amount, the fee is what the estimate said", async () => {
    const { account, wallet } = await connected(0)
    const receiver = freshReceiver(1)
    const estimate = await run(adapter.estimateFee(account.address, network, { to: receiver, value: 123_456n }))
    const txid = await run(adapter.send(account, { to: receiver, value: 123_456n }))
    expect(wallet.sent).toEqual([txid])
    expect(wallet.requests).toContain("bitcoin:sendTransfer")
    const confirmation = await run(adapter.waitForTransaction(txid, network))
    expect(confirmation).toMatchObject({ namespace: "bip122", hash: txid, status: "success" })
    expect(confirmation.blockNumber).toBeGreaterThan(1n)
    expect((await run(adapter.balances(receiver, network)))[0]).toMatchObject({ symbol: "BTC", decimals: 8, value: 123_456n, formatted: "0.00123456" })
    const { fee } = await nodeJson<{ fee: number }>(`/tx/${txid}`)
    expect(BigInt(fee)).toBe(estimate)
  })

  it("a wallet that only signs PSBTs still sends: the adapter builds the transfer, the wallet signs it, the node accepts it", async () => {
    const { account, wallet } = await connected(1, ["bitcoin:sendTransfer"])
    const receiver = freshReceiver(2)
    const txid = await run(adapter.send(account, { to: receiver, value: 50_000n }))
    expect(wallet.requests).toEqual(["bitcoin:connect", "bitcoin:signTransaction"])
    await run(adapter.waitForTransaction(txid, network))
    expect((await run(adapter.balances(receiver, network)))[0]?.value).toBe(50_000n)
  })

  it("signPsbt: in a two-party transaction the wallet signs only its input; with the other party's signature the node accepts it", async () => {
    const { account, wallet } = await connected(2)
    const partner = devBitcoinKey(1)
    const partnerScript = p2wpkh(hex.decode(partner.paymentPublicKey), REGTEST).script
    const own = await nodeJson<ReadonlyArray<{ txid: string; vout: number; value: number }>>(`/address/${wallet.key.paymentAddress}/utxo`)
    const theirs = await nodeJson<ReadonlyArray<{ txid: string; vout: number; value: number }>>(`/address/${partner.paymentAddress}/utxo`)
    const tx = new Transaction()
    tx.addInput({ txid: own[0]!.txid, index: own[0]!.vout, witnessUtxo: { script: p2wpkh(hex.decode(wallet.key.paymentPublicKey), REGTEST).script, amount: BigInt(own[0]!.value) } })
    tx.addInput({ txid: theirs[0]!.txid, index: theirs[0]!.vout, witnessUtxo: { script: partnerScript, amount: BigInt(theirs[0]!.value) } })
    tx.addOutputAddress(freshReceiver(3), BigInt(own[0]!.value) + BigInt(theirs[0]!.value) - 10_000n, REGTEST)
    const answer = (await run(
      adapter.request(account, "signPsbt", {
        account: account.address,
        psbt: Buffer.from(tx.toPSBT()).toString("base64"),
        signInputs: [{ address: wallet.key.paymentAddress, index: 0, sighashTypes: [] }]
      })
    )) as { psbt: string; txid?: string }
    expect(answer.txid).toBeUndefined()
    const signed = Transaction.fromPSBT(Buffer.from(answer.psbt, "base64"))
    expect(signed.getInput(0).partialSig).toHaveLength(1)
    expect(signed.getInput(1).partialSig).toBeUndefined()
    signed.signIdx(hex.decode(partner.paymentPrivateKey), 1)
    signed.finalize()
    const response = await fetch(`${node.info.url}/tx`, { method: "POST", body: signed.hex })
    expect([response.status, await response.text()]).toEqual([200, signed.id])
  })

  it("signPsbt with broadcast: the wallet signs its ordinals (P2TR) input and the node accepts the transaction", async () => {
    const { account, wallet } = await connected(2)
    const [utxo] = await nodeJson<ReadonlyArray<{ txid: string; vout: number; value: number }>>(`/address/${wallet.key.ordinalsAddress}/utxo`)
    const tx = new Transaction()
    tx.addInput({
      txid: utxo!.txid,
      index: utxo!.vout,
      witnessUtxo: { script: Transaction.fromRaw(hex.decode(await (await fetch(`${node.info.url}/tx/${utxo!.txid}/hex`)).text()), { allowUnknownInputs: true, allowUnknownOutputs: true, disableScriptCheck: true }).getOutput(utxo!.vout).script!, amount: BigInt(utxo!.value) },
      tapInternalKey: hex.decode(wallet.key.ordinalsPublicKey)
    })
    tx.addOutputAddress(wallet.key.ordinalsAddress, BigInt(utxo!.value) - 1_000n, REGTEST)
    const answer = (await run(
      adapter.request(account, "signPsbt", {
        account: account.address,
        psbt: Buffer.from(tx.toPSBT()).toString("base64"),
        signInputs: [{ address: wallet.key.ordinalsAddress, index: 0, sighashTypes: [] }],
        broadcast: true
      })
    )) as { psbt: string; txid: string }
    expect(answer.txid).toMatch(/^[0-9a-f]{64}$/)
    await run(adapter.waitForTransaction(answer.txid, network))
    expect((await nodeJson<ReadonlyArray<{ txid: string }>>(`/address/${wallet.key.ordinalsAddress}/utxo`)).map((u) => u.txid)).toEqual([answer.txid])
  })

  it("the visitor's refusal is UserRejected and nothing is sent; a receiver of another network is refused before the wallet is asked", async () => {
    const { account, wallet } = await connected(0)
    const before = wallet.sent.length
    wallet.setApproval("reject")
    try {
      expect((await failureOf(adapter.signMessage(account, "no")))._tag).toBe("UserRejected")
      expect((await failureOf(adapter.send(account, { to: freshReceiver(4), value: 10_000n })))._tag).toBe("UserRejected")
    } finally {
      wallet.setApproval("approve")
    }
    expect(wallet.sent.length).toBe(before)
    const prompts = wallet.requests.length
    expect((await failureOf(adapter.send(account, { to: "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4", value: 10_000n })))._tag).toBe("SendFormInvalid")
    expect(wallet.requests.length).toBe(prompts)
    expect((await run(adapter.balances(freshReceiver(4), network)))[0]?.value).toBe(0n)
  })

  it("a double spend broadcast through signPsbt is refused by the node, and the adapter says the node's reason", async () => {
    const { account, wallet } = await connected(1)
    const script = p2wpkh(hex.decode(wallet.key.paymentPublicKey), REGTEST).script
    const [utxo] = await nodeJson<ReadonlyArray<{ txid: string; vout: number; value: number }>>(`/address/${wallet.key.paymentAddress}/utxo`)
    const spending = (to: string) => {
      const tx = new Transaction()
      tx.addInput({ txid: utxo!.txid, index: utxo!.vout, witnessUtxo: { script, amount: BigInt(utxo!.value) } })
      tx.addOutputAddress(to, BigInt(utxo!.value) - 5_000n, REGTEST)
      return {
        account: account.address,
        psbt: Buffer.from(tx.toPSBT()).toString("base64"),
        signInputs: [{ address: wallet.key.paymentAddress, index: 0, sighashTypes: [] }],
        broadcast: true
      }
    }
    const first = (await run(adapter.request(account, "signPsbt", spending(freshReceiver(5))))) as { txid: string }
    expect(first.txid).toMatch(/^[0-9a-f]{64}$/)
    const error = await failureOf(adapter.request(account, "signPsbt", spending(freshReceiver(6))))
    expect(error).toMatchObject({ _tag: "TransactionRejected" })
    expect((error as unknown as { details: string }).details).toMatch(/txn-mempool-conflict|bad-txns-inputs-missingorspent/)
  })
})

describe("the ChainAdapter contract for bip122", () => {
  let session: Awaited<ReturnType<typeof connected>> | undefined
  let receivers = 0
  // Dev key set 3 is not funded at start: the node's faucet pays it (a mined coinbase) before its first use.
  const current = async () => {
    if (session !== undefined) return session
    const fresh = await connected(3)
    await fetch(`${node.info.url}/regtest/faucet`, { method: "POST", body: JSON.stringify({ address: fresh.wallet.key.paymentAddress, amount: "200000000" }) })
    session = fresh
    return fresh
  }
  chainAdapterContract({
    adapter: () => adapter,
    network: () => network,
    session: async () => (await current()).account,
    setApproval: (approval) => session?.wallet.setApproval(approval),
    walletRequests: () => session?.wallet.requests ?? [],
    sendRequestName: "bitcoin:sendTransfer",
    verifySignature: async (message, signature, address) => verifyBip322(address, REGTEST, message, signature),
    freshReceiver: async () => freshReceiver(20 + receivers++),
    nativeAmount: 75_000n,
    chainBalance: async (address) => {
      const stats = await nodeJson<{ chain_stats: { funded_txo_sum: number; spent_txo_sum: number }; mempool_stats: { funded_txo_sum: number; spent_txo_sum: number } }>(
        `/address/${address}`
      )
      return BigInt(stats.chain_stats.funded_txo_sum - stats.chain_stats.spent_txo_sum + stats.mempool_stats.funded_txo_sum - stats.mempool_stats.spent_txo_sum)
    },
    invalidReceiver: { to: "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4", error: "SendFormInvalid", says: /valid amount and receiver/, promptsWallet: false },
    rawRequest: {
      method: "getAccountAddresses",
      params: (account) => ({ account: account.address }),
      verify: async (result, account) =>
        Array.isArray(result) && result.some((entry: { address?: string; intention?: string }) => entry.address === account.address && entry.intention === "payment")
    },
    unsupportedMethod: "eth_sendTransaction"
  })
})
