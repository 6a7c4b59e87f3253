/**
 * The split-key tables (migration `0017_wallet_key_shares`): each user's server share (sealed under the master key)
 * and sealed recovery share per family, and the recovery tries per user. Effects over `effect/sql`'s `SqlClient`, run
 * by `./shares.ts`.
 */
import { Array as Arr, Effect } from "effect"
import { SqlClient } from "effect/sql"
import type { KeyFamily } from "../sharesApi"
import type { SealedKey } from "./keys"

/** A user's split key of one family, as kept. */
export interface SplitKeyRow {
  readonly family: KeyFamily
  readonly address: string
  readonly splitId: string
  /** The server share, sealed under the master key. */
  readonly serverShare: SealedKey
  /** The recovery envelope's JSON, as the frame sealed it. */
  readonly recoveryEnvelope: string
  /** The SHA-256 (hex) of the recovery secret's verifier. */
  readonly recoveryVerifierHash: string
}

interface StoredSplit {
  readonly family: KeyFamily
  readonly address: string
  readonly split_id: string
  readonly server_share: Uint8Array
  readonly server_share_iv: Uint8Array
  readonly server_share_tag: Uint8Array
  readonly recovery_envelope: string
  readonly recovery_verifier_hash: string
}

const splitRow = (row: StoredSplit): SplitKeyRow => ({
  family: row.family,
  address: row.address,
  splitId: row.split_id,
  serverShare: { ciphertext: row.server_share, iv: row.server_share_iv, authTag: row.server_share_tag },
  recoveryEnvelope: row.recovery_envelope,
  recoveryVerifierHash: row.recovery_verifier_hash
})

/** When the session of `tokenHash` was opened: its login. */
export const sessionLoginAt = Effect.fn("shareStore.sessionLoginAt")(function* (tokenHash: string) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ readonly created_at: Date }>`SELECT created_at FROM wallet_sessions WHERE token_hash = ${tokenHash}`
  return rows[0]?.created_at
})

/** Any one server share with its user, to check the master key at start. */
export const anySplit = Effect.fn("shareStore.anySplit")(function* () {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<StoredSplit & { readonly user_id: string }>`SELECT user_id, family, address, split_id, server_share, server_share_iv,
    server_share_tag, recovery_envelope, recovery_verifier_hash FROM wallet_key_shares ORDER BY created_at LIMIT 1`
  const row = rows[0]
  return row === undefined ? undefined : { userId: row.user_id, split: splitRow(row) }
})

/** The user's split keys. */
export const splitKeysOf = Effect.fn("shareStore.splitKeysOf")(function* (userId: string) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<StoredSplit>`SELECT family, address, split_id, server_share, server_share_iv, server_share_tag,
    recovery_envelope, recovery_verifier_hash FROM wallet_key_shares WHERE user_id = ${userId} ORDER BY family`
  return rows.map(splitRow)
})

/** Whether `address` of `family` is another user's than `userId`: in their split keys or their sealed keys. */
export const addressOfAnotherUser = Effect.fn("shareStore.addressOfAnotherUser")(function* (userId: string, family: KeyFamily, address: string) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql`SELECT 1 FROM wallet_key_shares WHERE family = ${family} AND address = ${address} AND user_id <> ${userId}
    UNION ALL SELECT 1 FROM wallet_keys WHERE family = ${family} AND address = ${address} AND user_id <> ${userId}`
  return rows.length > 0
})

/**
 * Keeps the user's split of `row.family`: a new one, or a rotation of the same address (replacing the shares, in one
 * statement, only while the address is still the one kept). A split of the key the server sealed before keys were
 * split (same user, family and address) deletes that sealed copy in the same transaction. Answers whether it was kept,
 * and whether it replaced one.
 */
export const storeSplit = Effect.fn("shareStore.storeSplit")(function* (userId: string, row: SplitKeyRow, now: Date) {
  const sql = yield* SqlClient.SqlClient
  return yield* sql.withTransaction(
    Effect.gen(function* () {
      const kept = yield* sql<{ readonly rotated: boolean }>`INSERT INTO wallet_key_shares (user_id, family, address, split_id,
          server_share, server_share_iv, server_share_tag, recovery_envelope, recovery_verifier_hash, created_at)
        VALUES (${userId}, ${row.family}, ${row.address}, ${row.splitId}, ${row.serverShare.ciphertext}, ${row.serverShare.iv},
          ${row.serverShare.authTag}, ${row.recoveryEnvelope}, ${row.recoveryVerifierHash}, ${now})
        ON CONFLICT (user_id, family) DO UPDATE SET split_id = EXCLUDED.split_id, server_share = EXCLUDED.server_share,
          server_share_iv = EXCLUDED.server_share_iv, server_share_tag = EXCLUDED.server_share_tag,
          recovery_envelope = EXCLUDED.recovery_envelope, recovery_verifier_hash = EXCLUDED.recovery_verifier_hash, rotated_at = ${now}
        WHERE wallet_key_shares.address = EXCLUDED.address
        RETURNING rotated_at IS NOT NULL AS rotated`
      // Item 6 of issue 30: the split of a key the server sealed (same address) ends its sealed copy, in this transaction.
      if (kept[0] !== undefined) yield* sql`DELETE FROM wallet_keys WHERE user_id = ${userId} AND family = ${row.family} AND address = ${row.address}`
      return kept[0]
    })
  )
})

/**
 * Keeps the first split of a new key of `row.family` (`SplitKeys.create`): only while the user has none of that family,
 * split or sealed; answers whether it was kept. One statement, so of two devices making a new user's key at once one wins.
 */
export const storeNewSplit = Effect.fn("shareStore.storeNewSplit")(function* (userId: string, row: SplitKeyRow, now: Date) {
  const sql = yield* SqlClient.SqlClient
  const kept = yield* sql`INSERT INTO wallet_key_shares (user_id, family, address, split_id, server_share, server_share_iv, server_share_tag,
      recovery_envelope, recovery_verifier_hash, created_at)
    SELECT ${userId}, ${row.family}, ${row.address}, ${row.splitId}, ${row.serverShare.ciphertext}, ${row.serverShare.iv},
      ${row.serverShare.authTag}, ${row.recoveryEnvelope}, ${row.recoveryVerifierHash}, ${now}
    WHERE NOT EXISTS (SELECT 1 FROM wallet_keys WHERE user_id = ${userId} AND family = ${row.family})
    ON CONFLICT (user_id, family) DO NOTHING RETURNING split_id`
  return kept.length > 0
})

/** The user's key of `family` the server made and sealed before keys were split (issue 30, item 6), if it still has it. */
export const legacyKeyOf = Effect.fn("shareStore.legacyKeyOf")(function* (userId: string, family: KeyFamily) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ readonly address: string; readonly ciphertext: Uint8Array; readonly iv: Uint8Array; readonly auth_tag: Uint8Array }>`
    SELECT address, ciphertext, iv, auth_tag FROM wallet_keys WHERE user_id = ${userId} AND family = ${family}`
  const row = rows[0]
  return row === undefined ? undefined : { address: row.address, sealed: { ciphertext: row.ciphertext, iv: row.iv, authTag: row.auth_tag } satisfies SealedKey }
})

/**
 * Takes one recovery try of `userId` at `now`, before it is compared, in one statement: none while the last wrong
 * one's wait runs. The try sets the next one's earliest time as if it were wrong (`baseMs`, doubled per earlier
 * wrong try, at most `maxMs`); a right one clears it ({@link clearRecoveryTries}). Answers the try's number and when
 * the next may come, or `undefined` with the time the current wait ends.
 */
export const takeRecoveryTry = Effect.fn("shareStore.takeRecoveryTry")(function* (
  userId: string,
  now: Date,
  rule: { readonly baseMs: number; readonly maxMs: number }
) {
  const sql = yield* SqlClient.SqlClient
  const taken = yield* sql<{ readonly wrong_tries: number; readonly next_try_at: Date }>`INSERT INTO wallet_recovery_attempts
      (user_id, wrong_tries, next_try_at)
    VALUES (${userId}, 1, ${new Date(now.getTime() + Math.min(rule.baseMs, rule.maxMs))})
    ON CONFLICT (user_id) DO UPDATE SET wrong_tries = wallet_recovery_attempts.wrong_tries + 1,
      next_try_at = ${now}::timestamptz + make_interval(secs => LEAST(${rule.maxMs / 1000}::float8,
        ${rule.baseMs / 1000}::float8 * power(2::float8, LEAST(wallet_recovery_attempts.wrong_tries, 30))))
    WHERE wallet_recovery_attempts.next_try_at <= ${now}
    RETURNING wrong_tries, next_try_at`
  const row = taken[0]
  if (row !== undefined) return { taken: true as const, tries: row.wrong_tries, nextTryAt: row.next_try_at }
  const held = yield* sql<{ readonly next_try_at: Date }>`SELECT next_try_at FROM wallet_recovery_attempts WHERE user_id = ${userId}`
  return { taken: false as const, nextTryAt: held[0]?.next_try_at ?? now }
})

/** Forgets the user's recovery tries: the last one was right. */
export const clearRecoveryTries = Effect.fn("shareStore.clearRecoveryTries")(function* (userId: string) {
  const sql = yield* SqlClient.SqlClient
  yield* sql`DELETE FROM wallet_recovery_attempts WHERE user_id = ${userId}`
})

/**
 * Keeps the grants of one confirmation, one per family (each its token's SHA-256), for the session `sessionHash`, good
 * until `expiresAt`: in one statement, so a confirmation leaves all of them or none.
 */
export const insertExportGrants = Effect.fn("shareStore.insertExportGrants")(function* (
  grants: Arr.NonEmptyReadonlyArray<{ readonly grantHash: string; readonly family: KeyFamily }>,
  holder: { readonly sessionHash: string; readonly userId: string },
  createdAt: Date,
  expiresAt: Date
) {
  const sql = yield* SqlClient.SqlClient
  const rows = Arr.map(grants, (grant) => ({
    grant_hash: grant.grantHash,
    session_hash: holder.sessionHash,
    user_id: holder.userId,
    family: grant.family,
    created_at: createdAt,
    expires_at: expiresAt
  }))
  yield* sql`INSERT INTO wallet_export_grants ${sql.insert(rows)}`
})

/**
 * Uses up an export grant, in one statement: only for the session and family it was made for, before its expiry, once
 * (two racing requests cannot both pass). `false` when none such is left.
 */
export const useExportGrant = Effect.fn("shareStore.useExportGrant")(function* (
  grantHash: string,
  sessionHash: string,
  family: KeyFamily,
  now: Date
) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql`UPDATE wallet_export_grants SET used_at = ${now}
    WHERE grant_hash = ${grantHash} AND session_hash = ${sessionHash} AND family = ${family} AND used_at IS NULL AND expires_at > ${now}
    RETURNING grant_hash`
  return rows.length === 1
})
