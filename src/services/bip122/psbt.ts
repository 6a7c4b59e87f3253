/**
 * PSBTs with btc-signer (this module is part of the bip122 chunk): address scripts per network, and the check of
 * what a wallet returns when asked to sign some inputs — the same unsigned transaction (nothing added, removed or
 * changed), a signature on every input it was asked to sign, and no input it was not asked to sign touched.
 */
import { Address, NETWORK, OutScript, TEST_NETWORK, Transaction } from "@scure/btc-signer"
import { type BitcoinNetworkKind, bitcoinNetworkKindOf } from "../../domain/bitcoinAddress"

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
