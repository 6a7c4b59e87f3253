/**
 * The devstack's regtest node over HTTP, as wallets and the runtime use it: the dev keys funded at start, a signed
 * P2WPKH and a P2TR key-path spend accepted, pending then confirmed with a block height, balances and UTXOs that
 * follow; and each refusal a node makes — a double spend, a wrong or missing signature, a spend of an output that
 * does not exist, outputs above inputs, a fee under the relay minimum, bytes that are not a transaction.
 */
import { Address, OutScript, p2tr, p2wpkh, SigHash, Transaction } from "@scure/btc-signer"
import { hex } from "@scure/base"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type BitcoinInfo, devBitcoinKey, FUNDED_ORDINALS_SATS, FUNDED_PAYMENT_OUTPUT_SATS, REGTEST, startBitcoin } from "../../devstack/bitcoin"
import type { Started } from "../../server/src/lib/Started"

let node: Started<BitcoinInfo>
const url = () => node.info.url

beforeAll(async () => {
  node = await startBitcoin({ blockIntervalMs: 0 })
})
afterAll(async () => {
  await node?.stop()
})

interface Utxo {
  readonly txid: string
  readonly vout: number
  readonly value: number
  readonly status: { readonly confirmed: boolean; readonly block_height?: number }
}

const getJson = async <A>(path: string): Promise<A> => {
  const response = await fetch(`${url()}${path}`)
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status} ${await response.text()}`)
  return (await response.json()) as A
}
const utxos = (address: string) => getJson<ReadonlyArray<Utxo>>(`/address/${address}/utxo`)
const balance = async (address: string) => {
  const stats = await getJson<{
    chain_stats: { funded_txo_sum: number; spent_txo_sum: number }
    mempool_stats: { funded_txo_sum: number; spent_txo_sum: number }
  }>(`/address/${address}`)
  return (
    BigInt(stats.chain_stats.funded_txo_sum - stats.chain_stats.spent_txo_sum) +
    BigInt(stats.mempool_stats.funded_txo_sum - stats.mempool_stats.spent_txo_sum)
  )
}
const broadcast = async (raw: string) => {
  const response = await fetch(`${url()}/tx`, { method: "POST", body: raw })
  return { status: response.status, text: await response.text() }
}
const mine = async () => {
  const response = await fetch(`${url()}/regtest/mine`, { method: "POST", body: "{}" })
  return (await response.json()) as { height: number }
}
const faucet = async (address: string, amount: bigint) => {
  const response = await fetch(`${url()}/regtest/faucet`, { method: "POST", body: JSON.stringify({ address, amount: String(amount) }) })
  return (await response.json()) as { txid: string }
}

const fromHex = (text: string) => hex.decode(text)
const key = devBitcoinKey(0)
const paymentKey = fromHex(key.paymentPrivateKey)
const payment = p2wpkh(fromHex(key.paymentPublicKey), REGTEST)
const ordinalsKey = fromHex(key.ordinalsPrivateKey)
const ordinals = p2tr(fromHex(key.ordinalsPublicKey), undefined, REGTEST)
// An address with no key in the test: a receiver only.
const receiver = p2wpkh(fromHex(devBitcoinKey(7).paymentPublicKey), REGTEST).address!

/** A transaction spending `inputs` of `script` to `outputs`, signed with `privateKey` (unsigned when absent). */
const spend = (
  inputs: ReadonlyArray<Utxo>,
  from: { readonly script: Uint8Array; readonly tapInternalKey?: Uint8Array },
  outputs: ReadonlyArray<{ readonly address: string; readonly amount: bigint }>,
  privateKey?: Uint8Array
) => {
  const tx = new Transaction()
  for (const input of inputs) {
    tx.addInput({
      txid: input.txid,
      index: input.vout,
      witnessUtxo: { script: from.script, amount: BigInt(input.value) },
      ...(from.tapInternalKey !== undefined ? { tapInternalKey: from.tapInternalKey } : {})
    })
  }
  for (const output of outputs) tx.addOutputAddress(output.address, output.amount, REGTEST)
  if (privateKey !== undefined) {
    tx.sign(privateKey)
    tx.finalize()
  }
  return tx
}

describe("the regtest node", () => {
  it("funds the dev keys at start: two confirmed 50 BTC outputs per payment address and 0.001 BTC per ordinals address", async () => {
    const paid = await utxos(key.paymentAddress)
    expect(paid.map((utxo) => BigInt(utxo.value))).toEqual([FUNDED_PAYMENT_OUTPUT_SATS, FUNDED_PAYMENT_OUTPUT_SATS])
    expect(paid.every((utxo) => utxo.status.confirmed && utxo.status.block_height === 1)).toBe(true)
    expect(await balance(key.ordinalsAddress)).toBe(FUNDED_ORDINALS_SATS)
    expect(key.paymentAddress).toMatch(/^bcrt1q/)
    expect(key.ordinalsAddress).toMatch(/^bcrt1p/)
    expect(node.info.caipNetworkId).toBe("bip122:0f9188f13cb7b2c71f2a335e3a4fc328")
  })

  it("accepts a signed P2WPKH spend: pending in the mempool, then confirmed at the next block's height; balances and UTXOs follow", async () => {
    const [input] = await utxos(key.paymentAddress)
    const before = await balance(key.paymentAddress)
    const tx = spend([input!], payment, [
      { address: receiver, amount: 10_000_000n },
      { address: key.paymentAddress, amount: BigInt(input!.value) - 10_000_000n - 1_000n }
    ], paymentKey)
    const sent = await broadcast(tx.hex)
    expect(sent).toEqual({ status: 200, text: tx.id })
    expect(await getJson(`/tx/${tx.id}/status`)).toEqual({ confirmed: false })
    expect(await balance(receiver)).toBe(10_000_000n)
    expect(await balance(key.paymentAddress)).toBe(before - 10_000_000n - 1_000n)
    const { height } = await mine()
    expect(await getJson(`/tx/${tx.id}/status`)).toMatchObject({ confirmed: true, block_height: height })
    expect((await utxos(receiver)).map((utxo) => [utxo.txid, utxo.status.confirmed])).toEqual([[tx.id, true]])
    expect((await utxos(key.paymentAddress)).some((utxo) => utxo.txid === input!.txid && utxo.vout === input!.vout)).toBe(false)
  })

  it("accepts a P2TR key-path spend and a spend of an unconfirmed change output", async () => {
    const [input] = await utxos(key.ordinalsAddress)
    const first = spend([input!], ordinals, [{ address: key.ordinalsAddress, amount: BigInt(input!.value) - 500n }], ordinalsKey)
    expect(await broadcast(first.hex)).toEqual({ status: 200, text: first.id })
    const change: Utxo = { txid: first.id, vout: 0, value: input!.value - 500, status: { confirmed: false } }
    const second = spend([change], ordinals, [{ address: key.ordinalsAddress, amount: BigInt(change.value) - 500n }], ordinalsKey)
    expect(await broadcast(second.hex)).toEqual({ status: 200, text: second.id })
    await mine()
    expect(await getJson(`/tx/${second.id}/status`)).toMatchObject({ confirmed: true })
  })

  it("refuses a double spend: a second transaction spending an output a waiting one spends, and again once it is mined", async () => {
    const { txid } = await faucet(key.paymentAddress, 1_000_000n)
    const input: Utxo = { txid, vout: 0, value: 1_000_000, status: { confirmed: true } }
    const first = spend([input], payment, [{ address: receiver, amount: 900_000n }], paymentKey)
    const other = spend([input], payment, [{ address: key.paymentAddress, amount: 900_000n }], paymentKey)
    expect((await broadcast(first.hex)).status).toBe(200)
    const conflict = await broadcast(other.hex)
    expect(conflict.status).toBe(400)
    expect(conflict.text).toContain("txn-mempool-conflict")
    await mine()
    const late = await broadcast(other.hex)
    expect(late.status).toBe(400)
    expect(late.text).toContain("bad-txns-inputs-missingorspent")
    const again = await broadcast(first.hex)
    expect(again.text).toContain("already in block chain")
  })

  it("refuses a spend signed with another key, an unsigned one, and one whose signature does not cover what it pays", async () => {
    const { txid } = await faucet(key.paymentAddress, 2_000_000n)
    const input: Utxo = { txid, vout: 0, value: 2_000_000, status: { confirmed: true } }
    const outputs = [{ address: receiver, amount: 1_000_000n }]
    // Signing an input checks the key against the script, so the wrong key's witness is put in by hand.
    const wrong = spend([input], payment, outputs)
    const stranger = spend([input], p2wpkh(fromHex(devBitcoinKey(1).paymentPublicKey), REGTEST), outputs, fromHex(devBitcoinKey(1).paymentPrivateKey))
    wrong.updateInput(0, { finalScriptWitness: stranger.getInput(0).finalScriptWitness! }, true)
    const refusedWrong = await broadcast(wrong.hex)
    expect(refusedWrong.status).toBe(400)
    expect(refusedWrong.text).toContain("witness program hash mismatch")

    const unsigned = spend([input], payment, outputs)
    const refusedUnsigned = await broadcast(hex.encode(unsigned.toBytes(true, true)))
    expect(refusedUnsigned.status).toBe(400)
    expect(refusedUnsigned.text).toContain("mandatory-script-verify-flag-failed")

    // A valid signature moved onto a transaction paying someone else no longer verifies.
    const signed = spend([input], payment, outputs, paymentKey)
    const tampered = spend([input], payment, [{ address: key.paymentAddress, amount: 1_000_000n }])
    tampered.updateInput(0, { finalScriptWitness: signed.getInput(0).finalScriptWitness! }, true)
    const refusedTampered = await broadcast(tampered.hex)
    expect(refusedTampered.status).toBe(400)
    expect(refusedTampered.text).toContain("Signature must be zero")
    // The honest one still goes through: the refusals spent nothing.
    expect((await broadcast(signed.hex)).status).toBe(200)
  })

  it("checks taproot signatures against every spent amount (BIP-341), and a wrong sighash byte", async () => {
    const { txid } = await faucet(key.ordinalsAddress, 300_000n)
    const input: Utxo = { txid, vout: 0, value: 300_000, status: { confirmed: true } }
    const honest = spend([input], ordinals, [{ address: receiver, amount: 200_000n }], ordinalsKey)
    // Signed believing the output held more: the digest differs from the node's.
    const lied = spend([{ ...input, value: 400_000 }], ordinals, [{ address: receiver, amount: 200_000n }], ordinalsKey)
    const refused = await broadcast(lied.hex)
    expect(refused.status).toBe(400)
    expect(refused.text).toContain("Invalid Schnorr signature")
    const withByte = spend([input], ordinals, [{ address: receiver, amount: 200_000n }])
    const signature = honest.getInput(0).finalScriptWitness![0]!
    withByte.updateInput(0, { finalScriptWitness: [new Uint8Array([...signature, SigHash.DEFAULT])] }, true)
    expect((await broadcast(withByte.hex)).text).toContain("invalid Schnorr signature hash type")
    expect((await broadcast(honest.hex)).status).toBe(200)
  })

  it("refuses outputs above inputs, a fee under 1 sat/vB, dust, an unknown output and bytes that are not a transaction", async () => {
    const { txid } = await faucet(key.paymentAddress, 100_000n)
    const input: Utxo = { txid, vout: 0, value: 100_000, status: { confirmed: true } }
    // btc-signer will not finalize outputs above inputs: its signature is put into the witness by hand.
    const overspend = spend([input], payment, [{ address: receiver, amount: 100_001n }])
    overspend.sign(paymentKey)
    const [[publicKey, signature]] = overspend.getInput(0).partialSig as [[Uint8Array, Uint8Array]]
    overspend.updateInput(0, { finalScriptWitness: [signature, publicKey] }, true)
    const above = await broadcast(hex.encode(overspend.toBytes(true, true)))
    expect(above.text).toContain("bad-txns-in-belowout")
    const cheap = await broadcast(spend([input], payment, [{ address: receiver, amount: 99_990n }], paymentKey).hex)
    expect(cheap.text).toContain("min relay fee not met")
    const dust = await broadcast(spend([input], payment, [{ address: receiver, amount: 90_000n }, { address: receiver, amount: 100n }], paymentKey).hex)
    expect(dust.text).toContain("dust")
    const missing = await broadcast(spend([{ ...input, txid: "ab".repeat(32) }], payment, [{ address: receiver, amount: 90_000n }], paymentKey).hex)
    expect(missing.text).toContain("bad-txns-inputs-missingorspent")
    const garbage = await broadcast("00112233")
    expect(garbage.status).toBe(400)
    expect(garbage.text).toContain("TX decode failed")
  })

  it("answers the Esplora reads a client needs: tip height, fee estimates, an unknown transaction, a bad address", async () => {
    const height = Number(await (await fetch(`${url()}/blocks/tip/height`)).text())
    expect(height).toBe(node.info.chain.height)
    expect(await getJson<Record<string, number>>("/fee-estimates")).toMatchObject({ "1": 2, "6": 1 })
    expect((await fetch(`${url()}/tx/${"cd".repeat(32)}/status`)).status).toBe(404)
    const bad = await fetch(`${url()}/address/bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4/utxo`)
    expect(bad.status).toBe(400)
    expect(OutScript.encode(Address(REGTEST).decode(receiver))).toEqual(p2wpkh(fromHex(devBitcoinKey(7).paymentPublicKey), REGTEST).script)
  })
})
