/**
 * What the Bitcoin test wallets (the Node one of the browser tests, the demo's development wallet in the page) do
 * to send: check the receiver is a regtest address, choose coins of the payment address from the regtest node's
 * UTXOs at its fee estimate, sign a P2WPKH transaction (change back to the payment address unless dust) and
 * broadcast it to the node; the transaction id, or a WalletStandardError in words. Browser-safe: fetch and
 * btc-signer only.
 */
import { Transaction } from "@scure/btc-signer"
import { Result } from "effect"
import { parseBitcoinAddress } from "../../../src/domain/bitcoinAddress"
import { selectOutputs } from "../../../src/services/bip122/coinSelection"
import { WalletStandardError } from "./standardWallet"
import { REGTEST } from "../../bitcoin/keys"

/** The payment address a wallet spends from: its address, private key and output script. */
export interface PaymentKey {
  readonly address: string
  readonly privateKey: Uint8Array
  readonly script: Uint8Array
}

/** A JSON GET on the regtest node's API (`/address/…/utxo`, `/fee-estimates`): its answer, or a WalletStandardError. */
export const regtestJson = (api: string) => async <A>(path: string): Promise<A> => {
  const response = await fetch(`${api}${path}`)
  if (!response.ok) throw new WalletStandardError(-32603, `The node answered ${path} with HTTP ${response.status}: ${await response.text()}`)
  return (await response.json()) as A
}

/** The recipient's address as a regtest address, or a WalletStandardError saying it is not one. */
export const regtestRecipient = (address: string) => {
  const kind = parseBitcoinAddress(address, "regtest")
  if (Result.isFailure(kind)) throw new WalletStandardError(-32602, `Not a regtest address: ${kind.failure}`)
  return kind.success
}

/** Builds, signs and broadcasts a transfer of `amount` satoshis from `payment` to `to` on the regtest node at `api`. */
export const sendOnRegtest = async (api: string, payment: PaymentKey, to: string, amount: bigint): Promise<string> => {
  const kind = regtestRecipient(to)
  const getJson = regtestJson(api)
  const [utxos, rates] = await Promise.all([
    getJson<ReadonlyArray<{ txid: string; vout: number; value: number }>>(`/address/${payment.address}/utxo`),
    getJson<Record<string, number>>("/fee-estimates")
  ])
  // Outputs already spent in a transaction the node has not mined are left out by the node's own answer.
  const chosen = selectOutputs(
    utxos.map((utxo) => ({ ...utxo, value: BigInt(utxo.value) })),
    amount,
    rates["3"] ?? 1,
    "p2wpkh",
    kind.type
  )
  if (chosen === undefined) throw new WalletStandardError(-32000, "Insufficient funds for this transfer and its fee.")
  const tx = new Transaction()
  for (const input of chosen.inputs) tx.addInput({ txid: input.txid, index: input.vout, witnessUtxo: { script: payment.script, amount: input.value } })
  tx.addOutputAddress(to, amount, REGTEST)
  if (chosen.change > 0n) tx.addOutput({ script: payment.script, amount: chosen.change })
  tx.sign(payment.privateKey)
  tx.finalize()
  const response = await fetch(`${api}/tx`, { method: "POST", body: tx.hex })
  const text = await response.text()
  if (!response.ok) throw new WalletStandardError(-32003, `The node refused the transaction: ${text}`)
  return text
}
