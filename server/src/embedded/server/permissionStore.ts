/**
 * The wallet server's ERC-7715 grants (migration `0019_wallet_permission_grants`): stored per user, project, chain and
 * account, found by their context; each use moves the grant's spent amount under the row's lock, so two server
 * processes on one database cannot both spend one allowance.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { type Coverage, permissionCoverage, type PermissionTerms } from "../../../../src/domain/executionPermissions"
import type { GrantStore, StoredGrant } from "../wallet/permissions"

/** Who a grant belongs to: the user, the project that asked, the chain and the account it spends from. */
export interface GrantOwner {
  readonly userId: string
  readonly projectId: string
  readonly chainId: number
  readonly account: string
}

interface GrantRow {
  readonly context: string
  readonly terms: string
  readonly spent: string | bigint | number
  readonly period_start: string | bigint | number
  readonly revoked_at: Date | null
}

// Terms as JSON text: amounts as decimal strings (JSON has no bigint).
const termsText = (terms: PermissionTerms, request: unknown): string =>
  JSON.stringify({ terms, request }, (_key, value: unknown) => (typeof value === "bigint" ? { bigint: value.toString() } : value))

const termsOf = (text: string): { readonly terms: PermissionTerms; readonly request: unknown } =>
  JSON.parse(text, (_key, value: unknown) =>
    typeof value === "object" && value !== null && typeof (value as { bigint?: unknown }).bigint === "string"
      ? BigInt((value as { bigint: string }).bigint)
      : value
  ) as { readonly terms: PermissionTerms; readonly request: unknown }

const grantOf = (row: GrantRow): StoredGrant => {
  const { terms, request } = termsOf(row.terms)
  return { context: row.context, terms, request, spent: BigInt(row.spent), periodStart: Number(row.period_start), revoked: row.revoked_at !== null }
}

/** Stores a grant the visitor approved. */
export const insertGrant = Effect.fn("walletPermissions.insertGrant")(function* (
  owner: GrantOwner,
  context: string,
  terms: PermissionTerms,
  request: unknown,
  now: Date
) {
  const sql = yield* SqlClient.SqlClient
  yield* sql`INSERT INTO wallet_permission_grants (context, user_id, project_id, chain_id, account, terms, spent, period_start, created_at)
    VALUES (${context}, ${owner.userId}, ${owner.projectId}, ${owner.chainId}, ${owner.account.toLowerCase()}, ${termsText(terms, request)}, 0, ${terms.startTime}, ${now})`
})

/** The grants of `owner` not revoked and not past their expiry at `nowSeconds`, oldest first. */
export const activeGrants = Effect.fn("walletPermissions.activeGrants")(function* (owner: GrantOwner, nowSeconds: number) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<GrantRow>`SELECT context, terms, spent, period_start, revoked_at FROM wallet_permission_grants
    WHERE user_id = ${owner.userId} AND project_id = ${owner.projectId} AND chain_id = ${owner.chainId}
      AND account = ${owner.account.toLowerCase()} AND revoked_at IS NULL ORDER BY created_at, context`
  return rows.map(grantOf).filter((grant) => grant.terms.expiry > nowSeconds)
})

/** Revokes the grant `context` of `owner`; false when there is none (another's, or revoked already). */
export const revokeGrant = Effect.fn("walletPermissions.revokeGrant")(function* (owner: Omit<GrantOwner, "account">, context: string, now: Date) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql`UPDATE wallet_permission_grants SET revoked_at = ${now}
    WHERE context = ${context} AND user_id = ${owner.userId} AND project_id = ${owner.projectId} AND chain_id = ${owner.chainId}
      AND revoked_at IS NULL RETURNING context`
  return rows.length > 0
})

/**
 * Spends `amount` of the grant `context` of `owner` if `cover` (the pure coverage check) says the grant covers it,
 * with the row locked, so a use in another process waits and then sees this one. Answers the coverage, or undefined
 * when the owner has no grant of that context.
 */
export const spendGrant = Effect.fn("walletPermissions.spendGrant")(function* (
  owner: GrantOwner,
  context: string,
  cover: (grant: StoredGrant) => Coverage
) {
  const sql = yield* SqlClient.SqlClient
  return yield* sql.withTransaction(
    Effect.gen(function* () {
      const rows = yield* sql<GrantRow>`SELECT context, terms, spent, period_start, revoked_at FROM wallet_permission_grants
        WHERE context = ${context} AND user_id = ${owner.userId} AND project_id = ${owner.projectId} AND chain_id = ${owner.chainId}
          AND account = ${owner.account.toLowerCase()} FOR UPDATE`
      const row = rows[0]
      if (row === undefined) return undefined
      const coverage = cover(grantOf(row))
      if (coverage.covered) {
        yield* sql`UPDATE wallet_permission_grants SET spent = CAST(${coverage.spent.toString()} AS numeric), period_start = ${coverage.periodStart}
          WHERE context = ${context}`
      }
      return coverage
    })
  )
})

/** Gives back `amount` of `userId`'s spend whose transfer failed, if the grant still counts the same period. */
export const refundGrant = Effect.fn("walletPermissions.refundGrant")(function* (userId: string, context: string, periodStart: number, amount: bigint) {
  const sql = yield* SqlClient.SqlClient
  yield* sql`UPDATE wallet_permission_grants SET spent = GREATEST(spent - CAST(${amount.toString()} AS numeric), 0)
    WHERE context = ${context} AND user_id = ${userId} AND period_start = ${periodStart}`
})

/** The wallet RPC's grants of `userId` in `projectId`: in the database `run` reaches, dated by the server's clock `now` (ms). */
export const grantStoreOf = (
  run: <A, E>(effect: Effect.Effect<A, E, SqlClient.SqlClient>) => Promise<A>,
  now: () => number,
  userId: string,
  projectId: string
): GrantStore => ({
  now,
  insert: (account, context, terms, request) => run(insertGrant({ userId, projectId, ...account }, context, terms, request, new Date(now()))),
  active: (account, nowSeconds) => run(activeGrants({ userId, projectId, ...account }, nowSeconds)),
  revoke: (chainId, context) => run(revokeGrant({ userId, projectId, chainId }, context, new Date(now()))),
  spend: (account, context, use, nowSeconds) =>
    run(spendGrant({ userId, projectId, ...account }, context, (grant) => permissionCoverage(grant, use, nowSeconds))),
  refund: (context, periodStart, amount) => run(refundGrant(userId, context, periodStart, amount))
})
