/**
 * Choosing which outputs pay a transfer, and what it costs: virtual sizes of each input and output kind, the fee at
 * a rate, largest outputs first until the amount and the fee are covered, and change back to the sender unless it
 * would be dust (then it goes to the fee); and the fee of sending everything (every output, no change). Pure: the
 * adapter's estimate and the test wallet's transfers agree.
 */
import type { BitcoinAddressType } from "../../domain/bitcoinAddress"

/** Virtual bytes an input of each kind adds once signed (P2WPKH 67.75 and P2TR 57.5, rounded up). */
export const INPUT_VBYTES: Readonly<Record<BitcoinAddressType, number>> = { p2wpkh: 68, p2tr: 58, p2pkh: 148, p2sh: 91, p2wsh: 105 }
/** Virtual bytes of an output of each kind. */
export const OUTPUT_VBYTES: Readonly<Record<BitcoinAddressType, number>> = { p2wpkh: 31, p2tr: 43, p2pkh: 34, p2sh: 32, p2wsh: 43 }
/** Version, locktime, counts and the segwit marker: 10.5 vbytes, rounded up. */
export const TX_OVERHEAD_VBYTES = 11
/** The smallest output a node relays, by kind (Bitcoin Core's dust at 3 sat/vB). */
export const DUST_SATS: Readonly<Record<BitcoinAddressType, bigint>> = { p2wpkh: 294n, p2tr: 330n, p2pkh: 546n, p2sh: 540n, p2wsh: 330n }

/** An output that can be spent. */
export interface SpendableOutput {
  readonly txid: string
  readonly vout: number
  readonly value: bigint
}

/** The outputs to spend, the fee, and the change back to the sender (0n: none). */
export interface Selection<U extends SpendableOutput> {
  readonly inputs: ReadonlyArray<U>
  readonly fee: bigint
  readonly change: bigint
  readonly vsize: number
}

/** The virtual size of a transaction of `inputs` inputs of kind `from` paying `outputs`. */
export const transferVsize = (from: BitcoinAddressType, inputs: number, outputs: ReadonlyArray<BitcoinAddressType>): number =>
  TX_OVERHEAD_VBYTES + inputs * INPUT_VBYTES[from] + outputs.reduce((sum, kind) => sum + OUTPUT_VBYTES[kind], 0)

const feeAt = (vsize: number, rate: number): bigint => BigInt(Math.ceil(vsize * rate))

/**
 * The fee of sending everything: all `inputs` outputs of a `from` address spent to one `to` output at `rate` sat/vB,
 * with no change (the send form's Max; what remains after it is the amount a selection then pays exactly).
 */
export const sendAllFee = (inputs: number, rate: number, from: BitcoinAddressType, to: BitcoinAddressType): bigint =>
  feeAt(transferVsize(from, inputs, [to]), rate)

/**
 * Spends the largest outputs of `from` first until `amount` to a `to` address and the fee at `rate` sat/vB are
 * covered; `undefined` when everything the sender has is not enough.
 */
export const selectOutputs = <U extends SpendableOutput>(
  available: ReadonlyArray<U>,
  amount: bigint,
  rate: number,
  from: BitcoinAddressType,
  to: BitcoinAddressType
): Selection<U> | undefined => {
  const sorted = [...available].sort((a, b) => (a.value === b.value ? 0 : a.value > b.value ? -1 : 1))
  const inputs: Array<U> = []
  let total = 0n
  for (const output of sorted) {
    inputs.push(output)
    total += output.value
    const withChange = transferVsize(from, inputs.length, [to, from])
    const feeWithChange = feeAt(withChange, rate)
    if (total >= amount + feeWithChange) {
      const change = total - amount - feeWithChange
      // Change below dust would not be relayed: it is left to the fee, and the transaction has no change output.
      if (change >= DUST_SATS[from]) return { inputs, fee: feeWithChange, change, vsize: withChange }
      const alone = transferVsize(from, inputs.length, [to])
      return { inputs, fee: total - amount, change: 0n, vsize: alone }
    }
    const alone = transferVsize(from, inputs.length, [to])
    if (total >= amount + feeAt(alone, rate)) return { inputs, fee: total - amount, change: 0n, vsize: alone }
  }
  return undefined
}
