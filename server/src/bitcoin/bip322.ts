/**
 * BIP-322 "simple" message signatures for segwit (P2WPKH) and taproot key-path (P2TR) addresses: the message's
 * tagged hash committed in a virtual `to_spend` transaction paying the address, a virtual `to_sign` transaction
 * spending it, and the signature is `to_sign`'s witness, serialised, in base64. Signing uses btc-signer; verifying
 * checks `to_sign`'s input the way the regtest node checks any spend (`verify.ts`, @noble/curves), so a signature
 * this module makes is not taken on its own word.
 */
import { Address, type NETWORK, OutScript, RawWitness, Script, SigHash, Transaction } from "@scure/btc-signer"
import { pubSchnorr, tagSchnorr } from "@scure/btc-signer/utils.js"
import { inputSpendProblem } from "./verify"

type BtcNetwork = typeof NETWORK

const VIRTUAL = { version: 0, allowUnknownInputs: true, allowUnknownOutputs: true, disableScriptCheck: true, allowUnknownVersion: true }

/** The BIP-322 tagged hash of a message. */
export const bip322MessageHash = (message: Uint8Array): Uint8Array => tagSchnorr("BIP0322-signed-message", message)

const bytesOf = (message: string | Uint8Array): Uint8Array => (typeof message === "string" ? new TextEncoder().encode(message) : message)

/** The virtual transaction that pays the address and commits to the message. */
export const toSpend = (script: Uint8Array, message: string | Uint8Array): Transaction => {
  const tx = new Transaction(VIRTUAL)
  tx.addOutput({ script, amount: 0n })
  tx.addInput({ txid: new Uint8Array(32), index: 0xffffffff, sequence: 0, finalScriptSig: Script.encode(["OP_0", bip322MessageHash(bytesOf(message))]) })
  return tx
}

/** The virtual transaction whose one input spends `to_spend`; its witness is the signature. */
export const toSign = (script: Uint8Array, message: string | Uint8Array, tapInternalKey?: Uint8Array): Transaction => {
  const tx = new Transaction(VIRTUAL)
  tx.addInput({
    txid: toSpend(script, message).id,
    index: 0,
    sequence: 0,
    witnessUtxo: { script, amount: 0n },
    ...(tapInternalKey !== undefined ? { tapInternalKey } : {})
  })
  tx.addOutput({ script: Script.encode(["RETURN"]), amount: 0n })
  return tx
}

/** The BIP-322 simple signature (base64) of `message` by the P2WPKH or P2TR address of `privateKey`. */
export const signBip322 = (address: string, network: BtcNetwork, privateKey: Uint8Array, message: string | Uint8Array): string => {
  const decoded = Address(network).decode(address)
  const script = OutScript.encode(decoded)
  if (decoded.type !== "wpkh" && decoded.type !== "tr") throw new Error(`BIP-322 simple signs P2WPKH and P2TR addresses, not ${decoded.type}`)
  const tx = toSign(script, message, decoded.type === "tr" ? pubSchnorr(privateKey) : undefined)
  tx.signIdx(privateKey, 0, [decoded.type === "tr" ? SigHash.DEFAULT : SigHash.ALL])
  tx.finalizeIdx(0)
  return Buffer.from(RawWitness.encode(tx.getInput(0).finalScriptWitness ?? [])).toString("base64")
}

/** Whether `signature` has the shape of a BIP-322 simple signature: base64 of a serialised, non-empty witness. */
export const isBip322Signature = (signature: string): boolean => {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(signature)) return false
  try {
    const bytes = Buffer.from(signature, "base64")
    return RawWitness.decode(bytes).length > 0 && Buffer.from(RawWitness.encode(RawWitness.decode(bytes))).equals(bytes)
  } catch {
    return false
  }
}

/** Whether `signature` (base64) is a valid BIP-322 simple signature of `message` by `address`. */
export const verifyBip322 = (address: string, network: BtcNetwork, message: string | Uint8Array, signature: string): boolean => {
  try {
    const script = OutScript.encode(Address(network).decode(address))
    const witness = RawWitness.decode(Buffer.from(signature, "base64"))
    const tx = toSign(script, message)
    tx.updateInput(0, { finalScriptWitness: witness }, true)
    return inputSpendProblem(tx, 0, [{ script, amount: 0n }]) === undefined
  } catch {
    return false
  }
}
