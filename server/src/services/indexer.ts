import { Schema } from "effect"
import { getAddress } from "viem"
import { JsonRpcError, rpcBatch, rpcCall } from "../lib/jsonRpc"
import type { RpcUpstream } from "../lib/rpcUpstream"

/** topic0 of `Transfer(address,address,uint256)`, shared by ERC-20 (3 topics) and ERC-721 (4 topics). */
const transferTopic = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef"
const zeroAddress = "0x0000000000000000000000000000000000000000"

const Hex = Schema.String.pipe(Schema.check(Schema.isPattern(/^0x[0-9a-fA-F]*$/)))

const RpcTransaction = Schema.Struct({
  hash: Hex,
  from: Hex,
  to: Schema.NullOr(Hex),
  value: Hex,
  nonce: Hex,
  input: Hex,
  transactionIndex: Hex
})
const RpcBlock = Schema.Struct({ number: Hex, timestamp: Hex, transactions: Schema.Array(RpcTransaction) })
const RpcLog = Schema.Struct({ address: Hex, topics: Schema.Array(Hex), data: Hex, transactionHash: Hex, logIndex: Hex })
const RpcReceipt = Schema.Struct({
  transactionHash: Hex,
  status: Hex,
  contractAddress: Schema.optionalKey(Schema.NullOr(Hex)),
  logs: Schema.Array(RpcLog)
})
// A call trace of `trace_block` (OpenEthereum's format, which anvil, reth, Erigon and Nethermind answer).
const RpcCallTrace = Schema.Struct({
  type: Schema.String,
  transactionHash: Schema.optionalKey(Schema.NullOr(Hex)),
  traceAddress: Schema.Array(Schema.Number),
  error: Schema.optionalKey(Schema.String),
  action: Schema.Struct({
    callType: Schema.optionalKey(Schema.String),
    from: Schema.optionalKey(Hex),
    to: Schema.optionalKey(Hex),
    value: Schema.optionalKey(Hex)
  })
})
const decodeTraces = Schema.decodeUnknownSync(Schema.Array(RpcCallTrace))
const decodeBlock = Schema.decodeUnknownSync(RpcBlock)
const decodeReceipts = Schema.decodeUnknownSync(Schema.Array(RpcReceipt))
const decodeQuantity = Schema.decodeUnknownSync(Hex)

/** One movement of value inside an indexed transaction. Addresses are checksummed. */
export interface IndexedTransfer {
  readonly kind: "native" | "erc20" | "erc721"
  /** The token contract; `undefined` for the native coin. */
  readonly contract: string | undefined
  readonly from: string
  readonly to: string
  /** The amount in base units, or the token id of an ERC-721. */
  readonly amount: bigint
}

/** A mined transaction with the transfers it made. */
export interface IndexedTransaction {
  readonly chainId: number
  readonly hash: string
  readonly blockNumber: number
  readonly index: number
  /** Seconds since the epoch. */
  readonly timestamp: number
  readonly from: string
  readonly to: string | null
  readonly contractAddress: string | null
  readonly nonce: number
  readonly selector: string
  readonly status: "confirmed" | "failed"
  readonly transfers: ReadonlyArray<IndexedTransfer>
}

/** An ERC-721 token where its last `Transfer` left it: its holder, and when and where that transfer was. */
export interface IndexedNft {
  /** The collection, checksummed. */
  readonly contract: string
  readonly tokenId: bigint
  /** The holder, checksummed (the zero address once burnt). */
  readonly owner: string
  /** Seconds since the epoch, of the block that gave it to `owner`. */
  readonly timestamp: number
  readonly blockNumber: number
  /** The position of that `Transfer` log in its block. */
  readonly logIndex: number
}

const blocksPerBatch = 50

const topicAddress = (topic: string) => getAddress(`0x${topic.slice(-40)}`)

/**
 * The history of one local EVM chain, built from its blocks: every transaction with its native value, the ETH
 * contracts sent inside it (from the node's `trace_block`, when it answers that) and its ERC-20 / ERC-721 `Transfer`
 * logs, indexed by the addresses involved, and the holder of every ERC-721 token (the last `Transfer` of each id
 * wins). `sync()` reads the blocks mined since the last call; calls are queued so each
 * caller sees at least the blocks mined before it called.
 */
export class ChainIndex {
  // The first block to index: `undefined` until the first sync when the index starts at the chain's head.
  private nextBlock: number | undefined
  private readonly byAddress = new Map<string, Array<IndexedTransaction>>()
  private readonly contracts = new Map<string, Set<string>>()
  // By `{contract lower case}:{token id}`; blocks are added in order, so each set replaces an older holder.
  private readonly nfts = new Map<string, IndexedNft>()
  private tail: Promise<void> = Promise.resolve()
  // Whether the node answers `trace_block`; one that does not (most public RPCs) leaves internal ETH transfers out.
  private traces = true

  /**
   * @param from where history starts: `"genesis"` (block 0: the local chains, whose whole life fits in memory) or
   *   `"head"` (the chain's head at the first sync: a public chain, whose past this in-memory index cannot hold).
   */
  constructor(
    readonly chainId: number,
    private readonly rpc: RpcUpstream,
    from: "genesis" | "head" = "genesis"
  ) {
    this.nextBlock = from === "genesis" ? 0 : undefined
  }

  /** Indexes the blocks mined since the last sync. */
  sync(): Promise<void> {
    const run = this.tail.then(() => this.syncOnce())
    this.tail = run.catch(() => undefined)
    return run
  }

  /** Transactions involving `address`, oldest first. */
  transactionsOf(address: string): ReadonlyArray<IndexedTransaction> {
    return this.byAddress.get(address.toLowerCase()) ?? []
  }

  /** ERC-20 contracts `address` ever sent or received. */
  fungibleContractsOf(address: string): ReadonlyArray<string> {
    return [...(this.contracts.get(address.toLowerCase()) ?? [])]
  }

  /** The ERC-721 tokens `address` holds now, in no particular order. */
  nftsOf(address: string): ReadonlyArray<IndexedNft> {
    const holder = address.toLowerCase()
    return [...this.nfts.values()].filter((nft) => nft.owner.toLowerCase() === holder)
  }

  private async syncOnce(): Promise<void> {
    const latest = Number(BigInt(decodeQuantity(await rpcCall(this.rpc, "eth_blockNumber"))))
    let next = (this.nextBlock ??= latest + 1)
    while (next <= latest) {
      const first = next
      const last = Math.min(latest, first + blocksPerBatch - 1)
      const numbers = Array.from({ length: last - first + 1 }, (_, i) => `0x${(first + i).toString(16)}`)
      const results = await rpcBatch(
        this.rpc,
        numbers.flatMap((n) => [
          { method: "eth_getBlockByNumber", params: [n, true] },
          { method: "eth_getBlockReceipts", params: [n] }
        ])
      )
      const blocks = numbers.map((_, i) => decodeBlock(results[2 * i]))
      const internal = await this.internalTransfers(numbers.filter((_, i) => (blocks[i]?.transactions.length ?? 0) > 0))
      for (let i = 0; i < numbers.length; i++) this.add(blocks[i]!, decodeReceipts(results[2 * i + 1]), internal)
      next = this.nextBlock = last + 1
    }
  }

  /**
   * The ETH that contracts sent inside transactions of these blocks, by transaction hash: a router paying out the ETH
   * of a token→ETH swap (after WETH's `withdraw`), a refund. No log says so; only the node's call traces do.
   */
  private async internalTransfers(numbers: ReadonlyArray<string>): Promise<ReadonlyMap<string, ReadonlyArray<IndexedTransfer>>> {
    const byTx = new Map<string, Array<IndexedTransfer>>()
    if (!this.traces || numbers.length === 0) return byTx
    let answers: ReadonlyArray<unknown>
    try {
      answers = await rpcBatch(this.rpc, numbers.map((n) => ({ method: "trace_block", params: [n] })))
    } catch (error) {
      // A node that refuses traces (most public RPCs) is not asked again; one that failed to answer them (an HTTP
      // error for an unknown method, a stall) leaves them out of these blocks: the history goes on without them.
      if (error instanceof JsonRpcError) this.traces = false
      return byTx
    }
    for (const answer of answers) {
      for (const trace of decodeTraces(answer ?? [])) {
        const { action } = trace
        // Top-level calls carry the transaction's own value, already counted; failed or delegated calls move nothing.
        if (trace.type !== "call" || trace.traceAddress.length === 0 || trace.error !== undefined || action.callType !== "call") continue
        if (action.from === undefined || action.to === undefined || action.value === undefined || BigInt(action.value) === 0n) continue
        const hash = trace.transactionHash?.toLowerCase()
        if (hash === undefined) continue
        const list = byTx.get(hash) ?? []
        list.push({ kind: "native", contract: undefined, from: getAddress(action.from), to: getAddress(action.to), amount: BigInt(action.value) })
        byTx.set(hash, list)
      }
    }
    return byTx
  }

  private add(
    block: typeof RpcBlock.Type,
    receipts: ReadonlyArray<typeof RpcReceipt.Type>,
    internal: ReadonlyMap<string, ReadonlyArray<IndexedTransfer>>
  ): void {
    const receiptOf = new Map(receipts.map((receipt) => [receipt.transactionHash, receipt]))
    for (const tx of block.transactions) {
      const receipt = receiptOf.get(tx.hash)
      const status = receipt !== undefined && BigInt(receipt.status) === 1n ? "confirmed" : "failed"
      const from = getAddress(tx.from)
      const to = tx.to === null ? null : getAddress(tx.to)
      const contractAddress = receipt?.contractAddress ? getAddress(receipt.contractAddress) : null
      const transfers: Array<IndexedTransfer> = []
      const value = BigInt(tx.value)
      if (value > 0n && status === "confirmed") {
        transfers.push({ kind: "native", contract: undefined, from, to: to ?? contractAddress ?? zeroAddress, amount: value })
      }
      for (const log of receipt?.logs ?? []) {
        if (log.topics[0] !== transferTopic) continue
        const [, fromTopic, toTopic, idTopic] = log.topics
        if (fromTopic === undefined || toTopic === undefined) continue
        const contract = getAddress(log.address)
        if (log.topics.length === 4 && idTopic !== undefined) {
          const owner = topicAddress(toTopic)
          const tokenId = BigInt(idTopic)
          transfers.push({ kind: "erc721", contract, from: topicAddress(fromTopic), to: owner, amount: tokenId })
          this.nfts.set(`${contract.toLowerCase()}:${tokenId}`, {
            contract,
            tokenId,
            owner,
            timestamp: Number(BigInt(block.timestamp)),
            blockNumber: Number(BigInt(block.number)),
            logIndex: Number(BigInt(log.logIndex))
          })
        } else if (log.topics.length === 3 && log.data.length > 2) {
          transfers.push({ kind: "erc20", contract, from: topicAddress(fromTopic), to: topicAddress(toTopic), amount: BigInt(log.data) })
        }
      }
      // After the logs: a router pays out a swap's ETH once it has the tokens, so the row reads WUSD → ETH.
      if (status === "confirmed") transfers.push(...(internal.get(tx.hash.toLowerCase()) ?? []))
      const indexed: IndexedTransaction = {
        chainId: this.chainId,
        hash: tx.hash,
        blockNumber: Number(BigInt(block.number)),
        index: Number(BigInt(tx.transactionIndex)),
        timestamp: Number(BigInt(block.timestamp)),
        from,
        to,
        contractAddress,
        nonce: Number(BigInt(tx.nonce)),
        selector: tx.input.slice(0, 10),
        status,
        transfers
      }
      const involved = new Set([from, ...(to === null ? [] : [to]), ...transfers.flatMap((t) => [t.from, t.to])].map((a) => a.toLowerCase()))
      involved.delete(zeroAddress)
      for (const address of involved) {
        const list = this.byAddress.get(address) ?? []
        list.push(indexed)
        this.byAddress.set(address, list)
      }
      for (const transfer of transfers) {
        if (transfer.kind !== "erc20" || transfer.contract === undefined) continue
        for (const party of [transfer.from, transfer.to]) {
          const set = this.contracts.get(party.toLowerCase()) ?? new Set()
          set.add(transfer.contract)
          this.contracts.set(party.toLowerCase(), set)
        }
      }
    }
  }
}
