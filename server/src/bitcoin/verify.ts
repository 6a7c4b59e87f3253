/**
 * Checks the signatures of a transaction's inputs against the outputs they spend, as a node does before accepting
 * it: P2WPKH (BIP-143 digest, DER ECDSA, the public key hashing to the program) and P2TR key path (BIP-341 digest
 * over every spent output, BIP-340 Schnorr against the output key). Other kinds of spend are refused by name. The
 * digests come from btc-signer; the signature checks from @noble/curves, so a signer's mistake is not mirrored here.
 */
import { OutScript, SigHash, type Transaction } from "@scure/btc-signer"
import { equalBytes, hash160 } from "@scure/btc-signer/utils.js"
import { schnorr, secp256k1 } from "@noble/curves/secp256k1"

/** An output being spent: its script and amount. */
export interface SpentOutput {
  readonly script: Uint8Array
  readonly amount: bigint
}

// BIP-341: the sighash types a key-path signature may carry (0 is DEFAULT, only in a 64-byte signature).
const TAPROOT_SIGHASH_TYPES = new Set([0x01, 0x02, 0x03, 0x81, 0x82, 0x83])
const ECDSA_SIGHASH_TYPES = new Set([0x01, 0x02, 0x03, 0x81, 0x82, 0x83])

/** What these checks read of an output script (btc-signer's decoded form). */
type OutputScript = { readonly type: "wpkh"; readonly hash: Uint8Array } | { readonly type: "tr"; readonly pubkey: Uint8Array } | { readonly type: "other"; readonly name: string }

const decodeScript = (script: Uint8Array): OutputScript | undefined => {
  try {
    const decoded = OutScript.decode(script) as { readonly type: string; readonly hash?: Uint8Array; readonly pubkey?: Uint8Array }
    if (decoded.type === "wpkh" && decoded.hash !== undefined) return { type: "wpkh", hash: decoded.hash }
    if (decoded.type === "tr" && decoded.pubkey !== undefined) return { type: "tr", pubkey: decoded.pubkey }
    return { type: "other", name: decoded.type }
  } catch {
    return undefined
  }
}

/** Why input `index` of `tx` is not a valid spend of `spent[index]`, or `undefined` when it is. */
export const inputSpendProblem = (tx: Transaction, index: number, spent: ReadonlyArray<SpentOutput>): string | undefined => {
  const prevout = spent[index]
  if (prevout === undefined) return "missing prevout"
  const input = tx.getInput(index)
  const witness = input.finalScriptWitness ?? []
  const scriptSig = input.finalScriptSig
  const kind = decodeScript(prevout.script)
  if (kind === undefined) return "the spent output's script is not a standard one"
  switch (kind.type) {
    case "wpkh": {
      if (scriptSig !== undefined && scriptSig.length > 0) return "non-empty scriptSig for a witness program"
      if (witness.length !== 2) return "witness program: a P2WPKH spend needs a signature and a public key"
      const [signature, publicKey] = witness as [Uint8Array, Uint8Array]
      if (publicKey.length !== 33 || !equalBytes(hash160(publicKey), kind.hash)) return "witness program hash mismatch"
      if (signature.length < 9) return "non-canonical DER signature"
      const sighash = signature[signature.length - 1]!
      if (!ECDSA_SIGHASH_TYPES.has(sighash)) return "non-canonical sighash type"
      const digest = tx.preimageWitnessV0(index, OutScript.encode({ type: "pkh", hash: kind.hash }), sighash, prevout.amount)
      let valid = false
      try {
        valid = secp256k1.verify(signature.subarray(0, -1), digest, publicKey, { lowS: true, format: "der" })
      } catch {
        valid = false
      }
      return valid ? undefined : "non-mandatory-script-verify-flag (Signature must be zero for failed CHECK(MULTI)SIG operation)"
    }
    case "tr": {
      if (scriptSig !== undefined && scriptSig.length > 0) return "non-empty scriptSig for a witness program"
      // A last element starting with 0x50 is an annex; the devstack node takes key-path spends without one.
      if (witness.length !== 1) return "only taproot key-path spends (one signature, no annex) are accepted by the local node"
      const signature = witness[0]!
      if (signature.length !== 64 && signature.length !== 65) return "invalid Schnorr signature size"
      const sighash = signature.length === 65 ? signature[64]! : SigHash.DEFAULT
      if (signature.length === 65 && sighash === SigHash.DEFAULT) return "invalid Schnorr signature hash type"
      if (!TAPROOT_SIGHASH_TYPES.has(sighash) && sighash !== SigHash.DEFAULT) return "invalid Schnorr signature hash type"
      const digest = tx.preimageWitnessV1(
        index,
        spent.map((output) => output.script),
        sighash,
        spent.map((output) => output.amount)
      )
      let valid = false
      try {
        valid = schnorr.verify(signature.subarray(0, 64), digest, kind.pubkey)
      } catch {
        valid = false
      }
      return valid ? undefined : "Invalid Schnorr signature"
    }
    default:
      return `spending a ${kind.name} output is not supported by the local node (P2WPKH and P2TR key path are)`
  }
}
