/**
 * The embedded wallet's EIP-5792 batches as stored (migration `0016_wallet_calls`): written when a batch is sent,
 * read by `wallet_getCallsStatus` on any process of the wallet server, so a batch id survives a reload or a restart.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/** How a batch was sent: one user operation of the smart account, or the EOA's transactions in order. */
export type StoredCallsKind = "userOperation" | "transactions"

/** One stored batch. */
export interface StoredCalls {
  readonly id: string
  readonly chainId: string
  readonly sender: string
  readonly kind: StoredCallsKind
  /** The user operation's hash, or each transaction's. */
  readonly hashes: ReadonlyArray<string>
  readonly atomic: boolean
}

interface CallsRow {
  readonly id: string
  readonly chain_id: string
  readonly sender: string
  readonly kind: StoredCallsKind
  readonly hashes: string
  readonly atomic: boolean
}

/** Keeps the batch `calls` sent by `userId`. */
export const insertCalls = Effect.fn("walletStore.insertCalls")(function* (userId: string, calls: StoredCalls, now: Date) {
  const sql = yield* SqlClient.SqlClient
  yield* sql`INSERT INTO wallet_calls (id, user_id, chain_id, sender, kind, hashes, atomic, created_at)
    VALUES (${calls.id}, ${userId}, ${calls.chainId}, ${calls.sender}, ${calls.kind}, ${JSON.stringify(calls.hashes)}, ${calls.atomic}, ${now})`
})

/** The batch `id` if `userId` sent it: another user's batch is as unknown as none. */
export const findCalls = Effect.fn("walletStore.findCalls")(function* (userId: string, id: string) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<CallsRow>`SELECT id, chain_id, sender, kind, hashes, atomic FROM wallet_calls WHERE id = ${id} AND user_id = ${userId}`
  const row = rows[0]
  if (row === undefined) return undefined
  const stored: StoredCalls = {
    id: row.id,
    chainId: row.chain_id,
    sender: row.sender,
    kind: row.kind,
    hashes: JSON.parse(row.hashes) as ReadonlyArray<string>,
    atomic: row.atomic
  }
  return stored
})
