/**
 * An in-process regtest "node": the UTXO set, a mempool and blocks in memory, enough for wallets and the runtime to
 * fund, spend, broadcast and follow transactions. A transaction is accepted only after the checks a node makes:
 * it parses, every input spends an output that exists and is unspent (an output spent by a mempool transaction is a
 * double spend and refused: no replacement), every input's signature is valid for the output it spends (P2WPKH and
 * P2TR key path, `verify.ts`), outputs are not dust and do not exceed inputs, and the fee pays at least 1 sat/vB.
 * Mempool outputs may be spent (a wallet's change). Blocks are made on demand (`mine`) and hold every mempool
 * transaction; funding is a coinbase transaction mined at once. Block hashes are derived, not proven by work.
 */
import { OutScript, Script, Transaction } from "@scure/btc-signer"
import { sha256x2 } from "@scure/btc-signer/utils.js"
import { inputSpendProblem, type SpentOutput } from "../../server/src/bitcoin/verify"

/** The smallest fee rate the node relays, in sat/vB (Bitcoin Core's default). */
export const MIN_RELAY_FEE_RATE = 1

// Bitcoin Core's dust thresholds at 3 sat/vB for the output kinds wallets make.
const DUST: Readonly<Record<string, bigint>> = { wpkh: 294n, tr: 330n, wsh: 330n }
const DEFAULT_DUST = 546n

/** A transaction the node refused, with Bitcoin Core's reject reason and RPC code (-25 missing inputs, -26 rejected, -22 decode). */
export class TransactionRejected extends Error {
  constructor(
    readonly code: -22 | -25 | -26 | -27,
    message: string
  ) {
    super(message)
  }
}

/** An output the node knows: where it is, what it pays, who spends it. */
export interface OutputRecord {
  readonly txid: string
  readonly vout: number
  readonly amount: bigint
  readonly script: Uint8Array
  /** The address of the script on this network, when it has one. */
  readonly address: string | undefined
  /** The transaction that spends it, if any (in the mempool or a block). */
  spentBy: string | undefined
}

/** A transaction the node holds. */
export interface TransactionRecord {
  readonly txid: string
  readonly hex: string
  readonly fee: bigint
  readonly vsize: number
  readonly coinbase: boolean
  /** Outpoints it spends (`txid:vout`), none for a coinbase. */
  readonly spends: ReadonlyArray<string>
  /** Where it was mined; `undefined` while in the mempool. */
  block: { readonly height: number; readonly hash: string; readonly time: number } | undefined
}

/** A block. */
export interface BlockRecord {
  readonly height: number
  readonly hash: string
  readonly time: number
  readonly txids: ReadonlyArray<string>
}

const toHex = (bytes: Uint8Array): string => Buffer.from(bytes).toString("hex")
const outpoint = (txid: string, vout: number) => `${txid}:${vout}`

/** The regtest chain; `addressOf` names a script on its network (or `undefined`). */
export class Chain {
  private readonly outputs = new Map<string, OutputRecord>()
  private readonly transactions = new Map<string, TransactionRecord>()
  private readonly mempool: Array<string> = []
  private readonly blockList: Array<BlockRecord> = []
  private readonly listeners = new Set<(block: BlockRecord) => void>()

  constructor(
    genesisHash: string,
    private readonly addressOf: (script: Uint8Array) => string | undefined,
    private readonly now: () => number = () => Math.floor(Date.now() / 1000)
  ) {
    this.blockList.push({ height: 0, hash: genesisHash, time: this.now(), txids: [] })
  }

  /** The height of the last block. */
  get height(): number {
    return this.blockList.length - 1
  }

  /** The hash of the last block. */
  get tipHash(): string {
    return this.blockList[this.blockList.length - 1]!.hash
  }

  /** Transactions waiting for a block, in the order they were accepted. */
  get mempoolTxids(): ReadonlyArray<string> {
    return [...this.mempool]
  }

  /** A block by height. */
  block(height: number): BlockRecord | undefined {
    return this.blockList[height]
  }

  /** A transaction the node holds (mempool or block). */
  transaction(txid: string): TransactionRecord | undefined {
    return this.transactions.get(txid)
  }

  /** Calls `listener` for each new block; returns the unsubscribe. */
  onBlock(listener: (block: BlockRecord) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /** Every output ever paid to `address`, spent or not. */
  outputsOf(address: string): ReadonlyArray<OutputRecord> {
    return [...this.outputs.values()].filter((output) => output.address === address)
  }

  /** Whether an output is confirmed (its transaction is in a block). */
  isConfirmed(output: Pick<OutputRecord, "txid">): boolean {
    return this.transactions.get(output.txid)?.block !== undefined
  }

  /** The outputs of `address` not spent by any transaction the node holds, mempool ones included. */
  unspentOf(address: string): ReadonlyArray<OutputRecord> {
    return this.outputsOf(address).filter((output) => output.spentBy === undefined)
  }

  /**
   * Accepts a raw transaction into the mempool after every check, or throws {@link TransactionRejected} with the
   * reason. Returns its txid.
   */
  submit(hex: string): string {
    if (!/^([0-9a-fA-F]{2})+$/.test(hex.trim())) throw new TransactionRejected(-22, "TX decode failed: not hex")
    let tx: Transaction
    try {
      tx = Transaction.fromRaw(Buffer.from(hex.trim(), "hex"), { allowUnknownOutputs: true, allowUnknownInputs: true, disableScriptCheck: true })
    } catch (error) {
      throw new TransactionRejected(-22, `TX decode failed: ${error instanceof Error ? error.message : String(error)}`)
    }
    const txid = tx.id
    if (tx.inputsLength === 0) throw new TransactionRejected(-26, "bad-txns-vin-empty")
    if (tx.outputsLength === 0) throw new TransactionRejected(-26, "bad-txns-vout-empty")
    const known = this.transactions.get(txid)
    if (known !== undefined) {
      throw new TransactionRejected(-27, known.block === undefined ? "txn-already-in-mempool" : "Transaction already in block chain")
    }
    const spends: Array<string> = []
    const spent: Array<SpentOutput & { readonly record: OutputRecord }> = []
    for (let index = 0; index < tx.inputsLength; index++) {
      const input = tx.getInput(index)
      if (input.txid === undefined || input.index === undefined) throw new TransactionRejected(-22, "TX decode failed: an input has no outpoint")
      const key = outpoint(toHex(input.txid), input.index)
      if (spends.includes(key)) throw new TransactionRejected(-26, "bad-txns-inputs-duplicate")
      const record = this.outputs.get(key)
      if (record === undefined) throw new TransactionRejected(-25, "bad-txns-inputs-missingorspent")
      if (record.spentBy !== undefined) {
        const spender = this.transactions.get(record.spentBy)
        // The output is taken: by a block (gone), or by a transaction waiting in the mempool (a double spend).
        throw new TransactionRejected(
          spender?.block === undefined ? -26 : -25,
          spender?.block === undefined ? `txn-mempool-conflict (${key} is spent by ${record.spentBy})` : "bad-txns-inputs-missingorspent"
        )
      }
      spends.push(key)
      spent.push({ script: record.script, amount: record.amount, record })
    }
    for (let index = 0; index < tx.inputsLength; index++) {
      const problem = inputSpendProblem(tx, index, spent)
      if (problem !== undefined) throw new TransactionRejected(-26, `mandatory-script-verify-flag-failed (input ${index}: ${problem})`)
    }
    const totalIn = spent.reduce((sum, output) => sum + output.amount, 0n)
    let totalOut = 0n
    for (let index = 0; index < tx.outputsLength; index++) {
      const output = tx.getOutput(index)
      const amount = output.amount ?? 0n
      const script = output.script ?? new Uint8Array()
      if (amount < 0n) throw new TransactionRejected(-26, "bad-txns-vout-negative")
      const type = this.outputType(script)
      if (type !== "unknown-return" && amount < (DUST[type] ?? DEFAULT_DUST)) throw new TransactionRejected(-26, `dust (output ${index})`)
      totalOut += amount
    }
    if (totalOut > totalIn) throw new TransactionRejected(-26, `bad-txns-in-belowout, value in (${totalIn}) < value out (${totalOut})`)
    const fee = totalIn - totalOut
    if (fee < BigInt(tx.vsize * MIN_RELAY_FEE_RATE)) {
      throw new TransactionRejected(-26, `min relay fee not met, ${fee} < ${tx.vsize * MIN_RELAY_FEE_RATE}`)
    }
    for (const { record } of spent) record.spentBy = txid
    this.record(tx, txid, hex.trim().toLowerCase(), fee, false, spends)
    this.mempool.push(txid)
    return txid
  }

  /** Mines `count` blocks; the first takes every mempool transaction. Returns the new blocks. */
  mine(count = 1): ReadonlyArray<BlockRecord> {
    const made: Array<BlockRecord> = []
    for (let i = 0; i < count; i++) made.push(this.makeBlock(this.mempool.splice(0), []))
    return made
  }

  /**
   * Pays `amount` satoshis to each script of `payments` in one coinbase transaction, mined at once in a new block
   * (with the mempool) so the outputs are confirmed. Returns the coinbase txid.
   */
  fund(payments: ReadonlyArray<{ readonly script: Uint8Array; readonly amount: bigint }>): string {
    const height = this.height + 1
    const coinbase = new Transaction({ allowUnknownInputs: true, allowUnknownOutputs: true, disableScriptCheck: true, version: 2 })
    for (const payment of payments) coinbase.addOutput({ script: payment.script, amount: payment.amount })
    // BIP-34: the coinbase starts with its block height, which also makes every coinbase txid unique. (Added last:
    // an input with its final scriptSig closes the outputs.)
    coinbase.addInput({
      txid: new Uint8Array(32),
      index: 0xffffffff,
      sequence: 0xffffffff,
      finalScriptSig: Script.encode([height, new TextEncoder().encode("wallet-runtime devstack faucet")])
    })
    const hex = toHex(coinbase.toBytes(true, false))
    const txid = coinbase.id
    this.record(coinbase, txid, hex, 0n, true, [])
    this.makeBlock(this.mempool.splice(0), [txid])
    return txid
  }

  private outputType(script: Uint8Array): string {
    if (script[0] === 0x6a) return "unknown-return"
    try {
      return OutScript.decode(script).type
    } catch {
      return "unknown"
    }
  }

  private record(tx: Transaction, txid: string, hex: string, fee: bigint, coinbase: boolean, spends: ReadonlyArray<string>): void {
    this.transactions.set(txid, { txid, hex, fee, vsize: coinbase ? 0 : tx.vsize, coinbase, spends, block: undefined })
    for (let vout = 0; vout < tx.outputsLength; vout++) {
      const output = tx.getOutput(vout)
      const script = output.script ?? new Uint8Array()
      this.outputs.set(outpoint(txid, vout), {
        txid,
        vout,
        amount: output.amount ?? 0n,
        script,
        address: this.addressOf(script),
        spentBy: undefined
      })
    }
  }

  private makeBlock(mempoolTxids: ReadonlyArray<string>, coinbaseTxids: ReadonlyArray<string>): BlockRecord {
    const height = this.height + 1
    const txids = [...coinbaseTxids, ...mempoolTxids]
    const time = Math.max(this.now(), this.blockList[this.blockList.length - 1]!.time + 1)
    const hash = toHex(sha256x2(new TextEncoder().encode(`${this.tipHash}:${height}:${txids.join(",")}`)).reverse())
    const block: BlockRecord = { height, hash, time, txids }
    this.blockList.push(block)
    for (const txid of txids) {
      const record = this.transactions.get(txid)
      if (record !== undefined) record.block = { height, hash, time }
    }
    for (const listener of [...this.listeners]) listener(block)
    return block
  }
}
