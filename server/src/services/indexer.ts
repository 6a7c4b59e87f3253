import { Effect, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { getAddress } from "viem"
import type { Database } from "../db/index"
import { JsonRpcError, rpcBatch } from "../lib/jsonRpc"
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
const RpcBlock = Schema.Struct({ number: Hex, hash: Hex, timestamp: Hex, transactions: Schema.Array(RpcTransaction) })
const RpcBlockHeader = Schema.NullOr(Schema.Struct({ number: Hex, hash: Hex }))
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
const decodeBlockHeader = Schema.decodeUnknownSync(RpcBlockHeader)
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
  /** The position of its `Transfer` log in the block (`undefined` for ETH). */
  readonly logIndex?: number | undefined
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
// Block hashes kept per chain (and the first after genesis): a reorganisation deeper than this drops the chain's index.
const hashesKept = 128
// Rows per INSERT: well under Postgres's 65,535 parameters for the widest table (11 columns).
const rowsPerInsert = 1000

const topicAddress = (topic: string) => getAddress(`0x${topic.slice(-40)}`)
const quantity = (hex: string) => Number(BigInt(hex))
const hexNumber = (n: number) => `0x${n.toString(16)}`

/** A chain's cursor row: blocks `first..last` are indexed (`last = first - 1` before any), `lastHash` that of `last`. */
interface Cursor {
  readonly first: number
  readonly last: number
  readonly lastHash: string | null
  /** Block 0's hash: the chain indexed. */
  readonly genesisHash: string
}

/** What one block adds to the index. */
interface BlockRows {
  readonly transactions: ReadonlyArray<IndexedTransaction>
  readonly nfts: ReadonlyArray<IndexedNft>
}

/**
 * The history of one EVM chain, built from its blocks: every transaction with its native value, the ETH contracts
 * sent inside it (from the node's `trace_block`, when it answers that) and its ERC-20 / ERC-721 `Transfer` logs,
 * indexed by the addresses involved, and the holder of every ERC-721 token (the last `Transfer` of each id wins).
 *
 * The index lives in the services' database (migration `0015_chain_index`), shared by every service process on it.
 * `sync()` indexes the blocks mined since the chain's shared cursor, in batches, each written with the cursor's
 * advance in one transaction that holds the cursor row `FOR UPDATE`: a process that finds the cursor moved since it
 * read the blocks (another process wrote them first) drops its batch, so processes indexing at once leave neither
 * gaps nor twice-written rows, and none waits on another's RPC reads. A process started later continues from the
 * shared cursor. A reorganisation takes the index back to the last block it shares with the chain (`rewind`). Calls
 * of one process are queued, so each caller sees at least the blocks mined before it called.
 */
export class ChainIndex {
  private tail: Promise<void> = Promise.resolve()
  // Whether the node answers `trace_block`; one that does not (most public RPCs) leaves internal ETH transfers out.
  private traces = true

  /**
   * @param from where history starts when the database has no cursor for this chain yet: `"genesis"` (block 0: the
   *   local chains) or `"head"` (the chain's head at the first sync: a public chain). An existing cursor wins.
   */
  constructor(
    readonly chainId: number,
    private readonly rpc: RpcUpstream,
    private readonly db: Database,
    private readonly from: "genesis" | "head" = "genesis"
  ) {}

  /** Indexes the blocks mined since the shared cursor. */
  sync(): Promise<void> {
    const run = this.tail.then(() => this.syncOnce())
    this.tail = run.catch(() => undefined)
    return run
  }

  /** Transactions involving `address`, oldest first. */
  transactionsOf(address: string): Promise<ReadonlyArray<IndexedTransaction>> {
    const chainId = this.chainId
    const owner = address.toLowerCase()
    return this.db.run(
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const txs = yield* sql<TransactionRow>`SELECT t.* FROM chain_index_participants p
          JOIN chain_index_transactions t ON t.chain_id = p.chain_id AND t.hash = p.tx_hash
          WHERE p.chain_id = ${chainId} AND p.address = ${owner} ORDER BY p.block_number, p.tx_index`
        const transfers = yield* sql<TransferRow>`SELECT tr.* FROM chain_index_participants p
          JOIN chain_index_transfers tr ON tr.chain_id = p.chain_id AND tr.tx_hash = p.tx_hash
          WHERE p.chain_id = ${chainId} AND p.address = ${owner} ORDER BY tr.tx_hash, tr.position`
        const byTx = new Map<string, Array<IndexedTransfer>>()
        for (const row of transfers) {
          const list = byTx.get(row.tx_hash) ?? []
          list.push({
            kind: row.kind,
            contract: row.contract ?? undefined,
            from: row.from_address,
            to: row.to_address,
            amount: BigInt(row.amount),
            logIndex: row.log_index ?? undefined
          })
          byTx.set(row.tx_hash, list)
        }
        return txs.map(
          (row): IndexedTransaction => ({
            chainId,
            hash: row.hash,
            blockNumber: Number(row.block_number),
            index: Number(row.tx_index),
            timestamp: Number(row.block_time),
            from: row.from_address,
            to: row.to_address,
            contractAddress: row.contract_address,
            nonce: Number(row.nonce),
            selector: row.selector,
            status: row.status,
            transfers: byTx.get(row.hash) ?? []
          })
        )
      })
    )
  }

  /** ERC-20 contracts `address` ever sent or received, in the order it first did. */
  fungibleContractsOf(address: string): Promise<ReadonlyArray<string>> {
    const chainId = this.chainId
    const party = address.toLowerCase()
    return this.db.run(
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const rows = yield* sql<{ readonly contract: string }>`SELECT tr.contract FROM chain_index_participants p
          JOIN chain_index_transfers tr ON tr.chain_id = p.chain_id AND tr.tx_hash = p.tx_hash
          WHERE p.chain_id = ${chainId} AND p.address = ${party} AND tr.kind = 'erc20'
            AND (lower(tr.from_address) = ${party} OR lower(tr.to_address) = ${party})
          GROUP BY tr.contract ORDER BY min(ARRAY[p.block_number, p.tx_index, tr.position])`
        return rows.map((row) => row.contract)
      })
    )
  }

  /** The ERC-721 tokens `address` holds now, the oldest received first. */
  nftsOf(address: string): Promise<ReadonlyArray<IndexedNft>> {
    const chainId = this.chainId
    const holder = address.toLowerCase()
    return this.db.run(
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const rows = yield* sql<NftRow>`SELECT * FROM chain_index_nfts WHERE chain_id = ${chainId} AND lower(owner) = ${holder}
          ORDER BY block_number, log_index`
        return rows.map(
          (row): IndexedNft => ({
            contract: row.contract,
            tokenId: BigInt(row.token_id),
            owner: row.owner,
            timestamp: Number(row.block_time),
            blockNumber: Number(row.block_number),
            logIndex: Number(row.log_index)
          })
        )
      })
    )
  }

  private async syncOnce(): Promise<void> {
    let cursor = await this.cursor()
    const [latestHex, lastBlock] = await rpcBatch(this.rpc, [
      { method: "eth_blockNumber", params: [] },
      ...(cursor.last >= 0 ? [{ method: "eth_getBlockByNumber", params: [hexNumber(cursor.last), false] }] : [])
    ])
    const latest = quantity(decodeQuantity(latestHex))
    // The node does not have the last block indexed: a reorganisation, another chain, or a node behind the index.
    if (cursor.last >= 0 && decodeBlockHeader(lastBlock ?? null)?.hash !== cursor.lastHash) {
      if ((await this.rewind(cursor, latest)) === "behind") return
      return this.syncOnce()
    }
    while (cursor.last < latest) {
      const first = cursor.last + 1
      const last = Math.min(latest, first + blocksPerBatch - 1)
      const numbers = Array.from({ length: last - first + 1 }, (_, i) => hexNumber(first + i))
      const results = await rpcBatch(
        this.rpc,
        numbers.flatMap((n) => [
          { method: "eth_getBlockByNumber", params: [n, true] },
          { method: "eth_getBlockReceipts", params: [n] }
        ])
      )
      const blocks = numbers.map((_, i) => decodeBlock(results[2 * i]))
      const internal = await this.internalTransfers(numbers.filter((_, i) => (blocks[i]?.transactions.length ?? 0) > 0))
      const rows = blocks.map((block, i) => blockRows(this.chainId, block, decodeReceipts(results[2 * i + 1]), internal))
      const hashes = blocks.map((block) => ({ number: quantity(block.number), hash: block.hash }))
      const moved = await this.write(cursor, { last, lastHash: blocks.at(-1)?.hash ?? null }, rows, hashes)
      // Another process dropped the index meanwhile (it found the chain restarted): start again from its new cursor.
      if (moved === undefined) return this.syncOnce()
      cursor = moved
    }
  }

  /** The chain's shared cursor, made (where `from` says) by the first process to index it. */
  private async cursor(): Promise<Cursor> {
    const found = await this.readCursor()
    if (found !== undefined) return found
    const genesisHash = await this.genesisHash()
    let start: { readonly last: number; readonly lastHash: string | null } = { last: -1, lastHash: null }
    if (this.from === "head") {
      const [head] = await rpcBatch(this.rpc, [{ method: "eth_getBlockByNumber", params: ["latest", false] }])
      const header = decodeBlockHeader(head)
      if (header === null) throw new JsonRpcError(-32603, "the node has no latest block")
      start = { last: quantity(header.number), lastHash: header.hash }
    }
    const chainId = this.chainId
    await this.db.run(
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        yield* sql.withTransaction(
          Effect.gen(function* () {
            const made = yield* sql`INSERT INTO chain_index_cursors (chain_id, first_block, last_block, last_hash, genesis_hash, updated_at)
              VALUES (${chainId}, ${start.last + 1}, ${start.last}, ${start.lastHash}, ${genesisHash}, now()) ON CONFLICT (chain_id) DO NOTHING
              RETURNING chain_id`
            if (made.length > 0 && start.lastHash !== null) {
              yield* sql`INSERT INTO chain_index_blocks (chain_id, block_number, hash) VALUES (${chainId}, ${start.last}, ${start.lastHash})
                ON CONFLICT (chain_id, block_number) DO UPDATE SET hash = excluded.hash`
            }
          })
        )
      })
    )
    // Another process may have made it first: its cursor is the one.
    const made = await this.readCursor()
    if (made === undefined) throw new Error(`the index cursor of chain ${chainId} was not stored`)
    return made
  }

  /** The hash of the node's block 0. */
  private async genesisHash(): Promise<string> {
    const [genesis] = await rpcBatch(this.rpc, [{ method: "eth_getBlockByNumber", params: ["0x0", false] }])
    const header = decodeBlockHeader(genesis)
    if (header === null) throw new JsonRpcError(-32603, "the node has no block 0")
    return header.hash
  }

  private readCursor(): Promise<Cursor | undefined> {
    const chainId = this.chainId
    return this.db.run(
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const rows = yield* sql<CursorRow>`SELECT first_block, last_block, last_hash, genesis_hash FROM chain_index_cursors WHERE chain_id = ${chainId}`
        return rows[0] === undefined ? undefined : cursorOf(rows[0])
      })
    )
  }

  /**
   * Writes the batch read after `seen` and moves the cursor to `to`, unless another process moved it first (then its
   * rows are the same blocks' and this batch is dropped). The cursor as it is after the transaction (none: dropped).
   */
  private write(
    seen: Cursor,
    to: { readonly last: number; readonly lastHash: string | null },
    blocks: ReadonlyArray<BlockRows>,
    hashes: ReadonlyArray<{ readonly number: number; readonly hash: string }>
  ): Promise<Cursor | undefined> {
    const chainId = this.chainId
    return this.db.run(
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        return yield* sql.withTransaction(
          Effect.gen(function* () {
            const locked = yield* sql<CursorRow>`SELECT first_block, last_block, last_hash, genesis_hash FROM chain_index_cursors
              WHERE chain_id = ${chainId} FOR UPDATE`
            const now = locked[0] === undefined ? undefined : cursorOf(locked[0])
            if (now === undefined || now.last !== seen.last || now.lastHash !== seen.lastHash) return now
            yield* insertRows(sql, chainId, blocks)
            for (const rows of chunks(hashes.map(({ number, hash }) => ({ chain_id: chainId, block_number: number, hash })))) {
              yield* sql`INSERT INTO chain_index_blocks ${sql.insert(rows)} ON CONFLICT (chain_id, block_number) DO UPDATE SET hash = excluded.hash`
            }
            // The first block after genesis indexed stays: what tells a chain restarted under the same id (anvil's
            // block 0 is the same at every start) from a node behind the index.
            yield* sql`DELETE FROM chain_index_blocks WHERE chain_id = ${chainId} AND block_number <= ${to.last - hashesKept}
              AND block_number <> ${Math.max(now.first, 1)}`
            yield* sql`UPDATE chain_index_cursors SET last_block = ${to.last}, last_hash = ${to.lastHash}, updated_at = now()
              WHERE chain_id = ${chainId}`
            return { ...now, last: to.last, lastHash: to.lastHash }
          })
        )
      })
    )
  }

  /**
   * Called when the node at `latest` does not have the block at the cursor `seen`. A node behind the index (a lagging
   * fallback) that has the newest block kept below its head (after block 0), or (none kept there) the same block 0,
   * is `"behind"`: the index is served as it is. Otherwise the index goes back to the last block it shares with the
   * chain (by the kept hashes), if its cursor is still `seen` (no other process did it and indexed again since): the
   * transactions of later blocks go, and each ERC-721 they moved goes back to its holder by the last `Transfer` left.
   * With no block shared (a chain restarted under the same id, a reorganisation deeper than the hashes kept) the
   * chain's index is dropped whole, and starts again where `from` says.
   */
  private async rewind(seen: Cursor, latest: number): Promise<"behind" | "rewound"> {
    const chainId = this.chainId
    const kept = await this.db.run(
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        return yield* sql<{ readonly block_number: string | number; readonly hash: string }>`SELECT block_number, hash
          FROM chain_index_blocks WHERE chain_id = ${chainId} ORDER BY block_number DESC`
      })
    )
    const onChain = await rpcBatch(
      this.rpc,
      kept.map((row) => ({ method: "eth_getBlockByNumber", params: [hexNumber(Number(row.block_number)), false] }))
    )
    const matches = kept.map((row, i) => decodeBlockHeader(onChain[i] ?? null)?.hash === row.hash)
    if (latest < seen.last) {
      // Block 0 tells nothing here: anvil's is the same at every start.
      const below = kept.findIndex((row) => Number(row.block_number) <= latest && Number(row.block_number) > 0)
      if (below === -1 ? (await this.genesisHash()) === seen.genesisHash : matches[below] === true) return "behind"
    }
    const shared = kept.find((_, i) => matches[i] === true)
    const fork = shared === undefined ? undefined : { last: Number(shared.block_number), lastHash: shared.hash }
    await this.db.run(
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        yield* sql.withTransaction(
          Effect.gen(function* () {
            const locked = yield* sql<CursorRow>`SELECT first_block, last_block, last_hash, genesis_hash FROM chain_index_cursors
              WHERE chain_id = ${chainId} FOR UPDATE`
            const now = locked[0] === undefined ? undefined : cursorOf(locked[0])
            if (now === undefined || now.last !== seen.last || now.lastHash !== seen.lastHash) return
            if (fork === undefined) {
              for (const table of chainTables) yield* sql`DELETE FROM ${sql(table)} WHERE chain_id = ${chainId}`
              return
            }
            const orphaned = sql`SELECT hash FROM chain_index_transactions WHERE chain_id = ${chainId} AND block_number > ${fork.last}`
            yield* sql`DELETE FROM chain_index_participants WHERE chain_id = ${chainId} AND tx_hash IN (${orphaned})`
            const moved = yield* sql<{ readonly contract: string; readonly token_id: string }>`DELETE FROM chain_index_nfts
              WHERE chain_id = ${chainId} AND block_number > ${fork.last} RETURNING contract, token_id::text AS token_id`
            yield* sql`DELETE FROM chain_index_transfers WHERE chain_id = ${chainId} AND tx_hash IN (${orphaned})`
            yield* sql`DELETE FROM chain_index_transactions WHERE chain_id = ${chainId} AND block_number > ${fork.last}`
            yield* sql`DELETE FROM chain_index_blocks WHERE chain_id = ${chainId} AND block_number > ${fork.last}`
            for (const nft of moved) {
              yield* sql`INSERT INTO chain_index_nfts (chain_id, contract, token_id, owner, block_time, block_number, log_index)
                SELECT tr.chain_id, tr.contract, tr.amount, tr.to_address, t.block_time, t.block_number, tr.log_index
                FROM chain_index_transfers tr JOIN chain_index_transactions t ON t.chain_id = tr.chain_id AND t.hash = tr.tx_hash
                WHERE tr.chain_id = ${chainId} AND tr.kind = 'erc721' AND tr.contract = ${nft.contract} AND tr.amount = ${nft.token_id}::numeric
                ORDER BY t.block_number DESC, tr.log_index DESC LIMIT 1`
            }
            yield* sql`UPDATE chain_index_cursors SET last_block = ${fork.last}, last_hash = ${fork.lastHash}, updated_at = now()
              WHERE chain_id = ${chainId}`
          })
        )
      })
    )
    return "rewound"
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
}

interface CursorRow {
  readonly first_block: string | number
  readonly last_block: string | number
  readonly last_hash: string | null
  readonly genesis_hash: string
}
interface TransactionRow {
  readonly hash: string
  readonly block_number: string | number
  readonly tx_index: number
  readonly block_time: string | number
  readonly from_address: string
  readonly to_address: string | null
  readonly contract_address: string | null
  readonly nonce: string | number
  readonly selector: string
  readonly status: "confirmed" | "failed"
}
interface TransferRow {
  readonly tx_hash: string
  readonly kind: "native" | "erc20" | "erc721"
  readonly contract: string | null
  readonly from_address: string
  readonly to_address: string
  readonly amount: string
  readonly log_index: number | null
}
interface NftRow {
  readonly contract: string
  readonly token_id: string
  readonly owner: string
  readonly block_time: string | number
  readonly block_number: string | number
  readonly log_index: number
}

// Every table of the index, each with a `chain_id` column.
const chainTables = [
  "chain_index_transfers",
  "chain_index_participants",
  "chain_index_transactions",
  "chain_index_nfts",
  "chain_index_blocks",
  "chain_index_cursors"
] as const

const cursorOf = (row: CursorRow): Cursor => ({
  first: Number(row.first_block),
  last: Number(row.last_block),
  lastHash: row.last_hash,
  genesisHash: row.genesis_hash
})

const chunks = <A>(rows: ReadonlyArray<A>): ReadonlyArray<readonly [A, ...Array<A>]> => {
  const out: Array<readonly [A, ...Array<A>]> = []
  for (let i = 0; i < rows.length; i += rowsPerInsert) {
    const [head, ...rest] = rows.slice(i, i + rowsPerInsert)
    if (head !== undefined) out.push([head, ...rest])
  }
  return out
}

/**
 * Upserts the rows of `blocks` (in block order): writing a block again changes nothing, and a token's holder is
 * replaced only by a later (or the same) `Transfer`.
 */
const insertRows = (sql: SqlClient.SqlClient, chainId: number, blocks: ReadonlyArray<BlockRows>) =>
  Effect.gen(function* () {
    const transactions = blocks.flatMap((block) => block.transactions)
    const txRows = transactions.map((tx) => ({
          chain_id: chainId,
          hash: tx.hash,
          block_number: tx.blockNumber,
          tx_index: tx.index,
          block_time: tx.timestamp,
          from_address: tx.from,
          to_address: tx.to,
          contract_address: tx.contractAddress,
          nonce: tx.nonce,
          selector: tx.selector,
          status: tx.status
        }))
    for (const rows of chunks(txRows)) {
      yield* sql`INSERT INTO chain_index_transactions ${sql.insert(rows)} ON CONFLICT (chain_id, hash) DO UPDATE SET block_number = excluded.block_number, tx_index = excluded.tx_index,
        block_time = excluded.block_time, status = excluded.status`
    }
    const transfers = transactions.flatMap((tx) =>
      tx.transfers.map((t, position) => ({
        chain_id: chainId,
        tx_hash: tx.hash,
        position,
        kind: t.kind,
        contract: t.contract ?? null,
        from_address: t.from,
        to_address: t.to,
        amount: t.amount.toString(),
        log_index: t.logIndex ?? null
      }))
    )
    for (const rows of chunks(transfers)) {
      yield* sql`INSERT INTO chain_index_transfers ${sql.insert(rows)} ON CONFLICT (chain_id, tx_hash, position) DO UPDATE SET
        kind = excluded.kind, contract = excluded.contract, from_address = excluded.from_address, to_address = excluded.to_address,
        amount = excluded.amount, log_index = excluded.log_index`
    }
    const participants = transactions.flatMap((tx) => {
      const involved = new Set([tx.from, ...(tx.to === null ? [] : [tx.to]), ...tx.transfers.flatMap((t) => [t.from, t.to])].map((a) => a.toLowerCase()))
      involved.delete(zeroAddress)
      return [...involved].map((address) => ({ chain_id: chainId, address, tx_hash: tx.hash, block_number: tx.blockNumber, tx_index: tx.index }))
    })
    for (const rows of chunks(participants)) {
      yield* sql`INSERT INTO chain_index_participants ${sql.insert(rows)} ON CONFLICT (chain_id, address, tx_hash) DO NOTHING`
    }
    // One row per token, the last Transfer of the batch (one INSERT cannot touch a row twice).
    const nfts = new Map<string, IndexedNft>()
    for (const nft of blocks.flatMap((block) => block.nfts)) nfts.set(`${nft.contract}:${nft.tokenId}`, nft)
    const nftRows = [...nfts.values()].map((nft) => ({
          chain_id: chainId,
          contract: nft.contract,
          token_id: nft.tokenId.toString(),
          owner: nft.owner,
          block_time: nft.timestamp,
          block_number: nft.blockNumber,
          log_index: nft.logIndex
        }))
    for (const rows of chunks(nftRows)) {
      yield* sql`INSERT INTO chain_index_nfts AS held ${sql.insert(rows)} ON CONFLICT (chain_id, contract, token_id) DO UPDATE SET owner = excluded.owner, block_time = excluded.block_time,
        block_number = excluded.block_number, log_index = excluded.log_index
        WHERE (excluded.block_number, excluded.log_index) >= (held.block_number, held.log_index)`
    }
  })

/** The transactions of one block with their transfers, and the ERC-721 tokens it moved (in log order). */
const blockRows = (
  chainId: number,
  block: typeof RpcBlock.Type,
  receipts: ReadonlyArray<typeof RpcReceipt.Type>,
  internal: ReadonlyMap<string, ReadonlyArray<IndexedTransfer>>
): BlockRows => {
  const receiptOf = new Map(receipts.map((receipt) => [receipt.transactionHash, receipt]))
  const transactions: Array<IndexedTransaction> = []
  const nfts: Array<IndexedNft> = []
  const blockNumber = quantity(block.number)
  const timestamp = quantity(block.timestamp)
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
        const logIndex = quantity(log.logIndex)
        transfers.push({ kind: "erc721", contract, from: topicAddress(fromTopic), to: owner, amount: tokenId, logIndex })
        nfts.push({ contract, tokenId, owner, timestamp, blockNumber, logIndex })
      } else if (log.topics.length === 3 && log.data.length > 2) {
        const logIndex = quantity(log.logIndex)
        transfers.push({ kind: "erc20", contract, from: topicAddress(fromTopic), to: topicAddress(toTopic), amount: BigInt(log.data), logIndex })
      }
    }
    // After the logs: a router pays out a swap's ETH once it has the tokens, so the row reads WUSD → ETH.
    if (status === "confirmed") transfers.push(...(internal.get(tx.hash.toLowerCase()) ?? []))
    transactions.push({
      chainId,
      hash: tx.hash,
      blockNumber,
      index: quantity(tx.transactionIndex),
      timestamp,
      from,
      to,
      contractAddress,
      nonce: quantity(tx.nonce),
      selector: tx.input.slice(0, 10),
      status,
      transfers
    })
  }
  return { transactions, nfts }
}
