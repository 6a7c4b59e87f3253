/**
 * Deletes the wallet server's rows that can no longer be used: passkey ceremonies, Farcaster channels, social
 * logins, one-time codes and sessions an hour past their expiry (until then a late request still hears that it
 * expired, not that it is unknown), and the visitor limits' counts once neither their window nor the next is current. Anyone may start a
 * ceremony, a channel, a login or a code, so without this the tables would only grow. Each statement deletes a bounded batch, so a sweep never holds long locks;
 * every process of the server sweeps, and two sweeping at once delete each row once.
 */
import { Cause, Effect, Schedule } from "effect"
import { SqlClient } from "effect/sql"
import { VISITOR_LIMIT_WINDOW_MS } from "./visitorLimits"
import { runQuery, type WalletServerDeps } from "./WalletServerEnv"

/** How long after its expiry a row is kept. */
export const PRUNE_GRACE_MS = 60 * 60_000
/** The most rows one statement deletes. */
export const PRUNE_BATCH = 500
/** The most batches of one table in a sweep (the rest waits for the next sweep). */
export const PRUNE_MAX_BATCHES = 20
/** How often the server sweeps, by default. */
export const PRUNE_EVERY_MS = 5 * 60_000

// Each table, the column naming its rows and the condition of a row that can go.
const prunable = [
  { table: "wallet_passkey_ceremonies", key: "state_hash", expiry: "expires_at", keptMs: PRUNE_GRACE_MS },
  { table: "wallet_farcaster_channels", key: "token_hash", expiry: "expires_at", keptMs: PRUNE_GRACE_MS },
  { table: "wallet_social_logins", key: "state_hash", expiry: "expires_at", keptMs: PRUNE_GRACE_MS },
  { table: "wallet_codes", key: "id", expiry: "expires_at", keptMs: PRUNE_GRACE_MS },
  { table: "wallet_sessions", key: "token_hash", expiry: "expires_at", keptMs: PRUNE_GRACE_MS },
  { table: "wallet_export_grants", key: "grant_hash", expiry: "expires_at", keptMs: PRUNE_GRACE_MS },
  // A window's count weighs on the next window too.
  { table: "wallet_rate_limits", key: "key", expiry: "window_start", keptMs: 2 * VISITOR_LIMIT_WINDOW_MS }
] as const

/** The tables a sweep prunes. */
export type PrunedTable = (typeof prunable)[number]["table"]

/** Deletes at most `batch` rows of each table that can go at `now`; answers how many per table. */
export const pruneBatch = Effect.fn("walletStore.pruneBatch")(function* (now: Date, batch: number) {
  const sql = yield* SqlClient.SqlClient
  const deleted = {} as Record<PrunedTable, number>
  for (const { table, key, expiry, keptMs } of prunable) {
    const before = new Date(now.getTime() - keptMs)
    const rows = yield* sql`DELETE FROM ${sql(table)} WHERE ${sql(key)} IN (
      SELECT ${sql(key)} FROM ${sql(table)} WHERE ${sql(expiry)} <= ${before} LIMIT ${batch}) RETURNING 1 AS one`
    deleted[table] = rows.length
  }
  return deleted
})

/** One sweep: batches until none is full, at most {@link PRUNE_MAX_BATCHES}. */
export const sweep = (deps: WalletServerDeps) =>
  Effect.gen(function* () {
    for (let round = 0; round < PRUNE_MAX_BATCHES; round++) {
      const deleted = yield* runQuery(deps, pruneBatch(new Date(deps.now()), PRUNE_BATCH))
      if (Object.values(deleted).every((count) => count < PRUNE_BATCH)) return
    }
  })

/** Sweeps at start and every `everyMs`, for as long as the server runs; a failed sweep is logged, the next one comes. */
export const sweepForever = (deps: WalletServerDeps, everyMs: number) =>
  sweep(deps).pipe(
    Effect.catchCause((cause) => Effect.logWarning(`pruning expired rows failed: ${Cause.pretty(cause)}`)),
    Effect.repeat(Schedule.spaced(everyMs))
  )
