/**
 * PSBTs with btc-signer, in a chunk of their own that the bip122 adapter fetches only for a PSBT (a `signPsbt`
 * request, a transfer by a wallet that only signs PSBTs): address scripts per network, a transfer's PSBT, the check
 * of the inputs a wallet is asked to sign (each spends an output of its address), the check of what it returns —
 * the same unsigned transaction (nothing added, removed or changed), a signature on every input it was asked to
 * sign, no input it was not asked to sign touched — and finalising.
 */
import { Address, NETWORK, OutScript, TEST_NETWORK, Transaction } from "@scure/btc-signer"
import { type BitcoinNetworkKind, bitcoinNetworkKindOf } from "../../domain/bitcoinNetwork"

type BtcNetwork = typeof NETWORK

/** Regtest's address parameters (btc-signer ships mainnet and testnet). */
export const REGTEST_NETWORK: BtcNetwork = { bech32: "bcrt", pubKeyHash: 0x6f, scriptHash: 0xc4, wif: 0xef }

const NETWORKS: { readonly [K in BitcoinNetworkKind]: BtcNetwork } = { mainnet: NETWORK, testnet: TEST_NETWORK, regtest: REGTEST_NETWORK }

/** btc-signer's parameters for a bip122 network. */
export const btcNetworkOf = (caipNetworkId: string): BtcNetwork => NETWORKS[bitcoinNetworkKindOf(caipNetworkId)]

/** The output script that pays `address` on the network (throws for an address of another network). */
export const scriptOf = (address: string, caipNetworkId: string): Uint8Array =>
  OutScript.encode(Address(btcNetworkOf(caipNetworkId)).decode(address))

/** Reads a PSBT (any PSBT btc-signer can read, unknown fields kept). */
export const readPsbt = (bytes: Uint8Array): Transaction =>
  Transaction.fromPSBT(bytes, { allowUnknownInputs: true, allowUnknownOutputs: true })

const toHex = (bytes: Uint8Array | undefined): string => (bytes === undefined ? "" : Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join(""))

const equalBytes = (a: Uint8Array, b: Uint8Array): boolean => a.length === b.length && a.every((byte, i) => byte === b[i])

/** Everything of an input that a signature puts there, as one comparable text. */
const signaturesOf = (tx: Transaction, index: number): string => {
  const input = tx.getInput(index)
  const pairs = (list: ReadonlyArray<ReadonlyArray<unknown>> | undefined) =>
    (list ?? []).map((entry) => entry.map((part) => (part instanceof Uint8Array ? toHex(part) : JSON.stringify(part, (_k, v) => (v instanceof Uint8Array ? toHex(v) : v)))).join(":"))
  return JSON.stringify({
    partialSig: pairs(input.partialSig as ReadonlyArray<ReadonlyArray<unknown>> | undefined),
    tapKeySig: toHex(input.tapKeySig),
    tapScriptSig: pairs(input.tapScriptSig as ReadonlyArray<ReadonlyArray<unknown>> | undefined),
    finalScriptSig: toHex(input.finalScriptSig),
    finalScriptWitness: (input.finalScriptWitness ?? []).map(toHex)
  })
}

const isSigned = (tx: Transaction, index: number): boolean => {
  const input = tx.getInput(index)
  return (
    (input.partialSig?.length ?? 0) > 0 ||
    input.tapKeySig !== undefined ||
    (input.tapScriptSig?.length ?? 0) > 0 ||
    (input.finalScriptWitness?.length ?? 0) > 0 ||
    (input.finalScriptSig?.length ?? 0) > 0
  )
}

/**
 * What is wrong with `signed`, the PSBT a wallet returned for `original` when asked to sign the inputs `asked`, or
 * `undefined` when it is what was asked.
 */
export const signedPsbtProblem = (original: Uint8Array, signed: Uint8Array, asked: ReadonlySet<number>): string | undefined => {
  let before: Transaction
  let after: Transaction
  try {
    before = readPsbt(original)
  } catch (error) {
    return `the PSBT could not be read: ${error instanceof Error ? error.message : String(error)}`
  }
  try {
    after = readPsbt(signed)
  } catch (error) {
    return `the wallet's PSBT could not be read: ${error instanceof Error ? error.message : String(error)}`
  }
  if (!equalBytes(before.unsignedTx, after.unsignedTx)) {
    return "the wallet returned another transaction than the one it was asked to sign"
  }
  for (let index = 0; index < before.inputsLength; index++) {
    if (asked.has(index)) {
      if (!isSigned(after, index)) return `the wallet did not sign input ${index}`
    } else if (signaturesOf(before, index) !== signaturesOf(after, index)) {
      return `the wallet signed input ${index}, which it was not asked to sign`
    }
  }
  return undefined
}

/** A PSBT that pays `value` to `to` and `change` (when above 0) back to `from`, spending P2WPKH `inputs` of `from`. */
export const transferPsbt = (
  inputs: ReadonlyArray<{ readonly txid: string; readonly vout: number; readonly value: bigint }>,
  from: string,
  to: string,
  value: bigint,
  change: bigint,
  caipNetworkId: string
): Uint8Array => {
  const script = scriptOf(from, caipNetworkId)
  const tx = new Transaction()
  for (const input of inputs) tx.addInput({ txid: input.txid, index: input.vout, witnessUtxo: { script, amount: input.value } })
  tx.addOutput({ script: scriptOf(to, caipNetworkId), amount: value })
  if (change > 0n) tx.addOutput({ script, amount: change })
  return tx.toPSBT()
}

/**
 * Why the inputs a wallet would be asked to sign cannot be signed by it — not a PSBT, no such input, or an input
 * that does not spend an output of the address asked to sign it — or `undefined`.
 */
export const inputsToSignProblem = (
  psbt: Uint8Array,
  entries: ReadonlyArray<{ readonly address: string; readonly index: number }>,
  caipNetworkId: string
): string | undefined => {
  let tx: Transaction
  try {
    tx = readPsbt(psbt)
  } catch (error) {
    return `not a PSBT: ${error instanceof Error ? error.message : String(error)}`
  }
  for (const entry of entries) {
    if (entry.index >= tx.inputsLength) return `the PSBT has no input ${entry.index}`
    const spent = tx.getInput(entry.index).witnessUtxo?.script
    let script: Uint8Array | undefined
    try {
      script = scriptOf(entry.address, caipNetworkId)
    } catch {
      script = undefined
    }
    if (spent === undefined || script === undefined || !equalBytes(spent, script)) {
      return `input ${entry.index} does not spend an output of ${entry.address}`
    }
  }
  return undefined
}

/** The raw transaction (hex) of a PSBT whose inputs are all signed, finalised; throws when one cannot be. */
export const finalisedHex = (signed: Uint8Array): string => {
  const tx = readPsbt(signed)
  tx.finalize()
  return tx.hex
}
