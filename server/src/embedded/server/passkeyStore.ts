/**
 * The wallet server's passkey tables (migration `0018_wallet_passkeys`): each user's WebAuthn credentials and the
 * ceremonies in progress. A ceremony's state token is kept as its SHA-256; its challenge is taken once, in one
 * statement, before a response is checked, so a replayed response (or two sent at once) finds it taken.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * What a ceremony is for: a new passkey (and a new user), logging in with one, or confirming an export of the key (its
 * `device_id` then the hash of the session's token that asked).
 */
export type PasskeyMode = "create" | "login" | "export"

/** A passkey ceremony, as kept. */
export interface PasskeyCeremonyRow {
  readonly project_id: string
  readonly device_id: string
  readonly mode: PasskeyMode
  readonly host_origin: string
  readonly theme_mode: "light" | "dark" | null
  readonly challenge: string
  readonly user_handle: string
}

const CEREMONY_COLUMNS = "project_id, device_id, mode, host_origin, theme_mode, challenge, user_handle"

/** Keeps a ceremony that starts now. */
export const insertCeremony = Effect.fn("passkeyStore.insertCeremony")(function* (
  stateHash: string,
  ceremony: PasskeyCeremonyRow,
  createdAt: Date,
  expiresAt: Date
) {
  const sql = yield* SqlClient.SqlClient
  yield* sql`INSERT INTO wallet_passkey_ceremonies (state_hash, project_id, device_id, mode, host_origin, theme_mode, challenge, user_handle, created_at, expires_at)
    VALUES (${stateHash}, ${ceremony.project_id}, ${ceremony.device_id}, ${ceremony.mode}, ${ceremony.host_origin}, ${ceremony.theme_mode}, ${ceremony.challenge}, ${ceremony.user_handle}, ${createdAt}, ${expiresAt})`
})

/** A ceremony of this project whose challenge is still to be answered, before its expiry (the passkey page's options). */
export const pendingCeremony = Effect.fn("passkeyStore.pendingCeremony")(function* (stateHash: string, projectId: string, now: Date) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<PasskeyCeremonyRow>`SELECT ${sql.literal(CEREMONY_COLUMNS)} FROM wallet_passkey_ceremonies
    WHERE state_hash = ${stateHash} AND project_id = ${projectId} AND challenge_used_at IS NULL AND expires_at > ${now}`
  return rows[0]
})

/** Takes the ceremony's challenge: once only, before its expiry; `undefined` when taken already, expired or unknown. */
export const takeChallenge = Effect.fn("passkeyStore.takeChallenge")(function* (stateHash: string, projectId: string, now: Date) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<PasskeyCeremonyRow>`UPDATE wallet_passkey_ceremonies SET challenge_used_at = ${now}
    WHERE state_hash = ${stateHash} AND project_id = ${projectId} AND challenge_used_at IS NULL AND expires_at > ${now}
    RETURNING ${sql.literal(CEREMONY_COLUMNS)}`
  return rows[0]
})

/** Marks the ceremony answered by `userId`'s passkey. */
export const verifyCeremony = Effect.fn("passkeyStore.verifyCeremony")(function* (stateHash: string, userId: string, now: Date) {
  const sql = yield* SqlClient.SqlClient
  yield* sql`UPDATE wallet_passkey_ceremonies SET user_id = ${userId}, verified_at = ${now} WHERE state_hash = ${stateHash}`
})

/** Uses up a verified ceremony of this project and device for a session: once only, before its expiry; its user. */
export const useCeremony = Effect.fn("passkeyStore.useCeremony")(function* (stateHash: string, projectId: string, deviceId: string, now: Date) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ readonly user_id: string; readonly mode: PasskeyMode }>`UPDATE wallet_passkey_ceremonies SET used_at = ${now}
    WHERE state_hash = ${stateHash} AND project_id = ${projectId} AND device_id = ${deviceId} AND verified_at IS NOT NULL
      AND used_at IS NULL AND expires_at > ${now}
    RETURNING user_id, mode`
  return rows[0]
})

/** A stored passkey. */
export interface PasskeyRow {
  readonly credential_id: string
  readonly user_id: string
  /** The user handle the authenticator keeps with it (base64url). */
  readonly user_handle: string
  readonly public_key: Uint8Array
  /** bigint in the table: as the driver reads it. */
  readonly counter: string | number | bigint
  /** Comma-separated (`internal,hybrid`). */
  readonly transports: string
  readonly prf_enabled: boolean
}

/** The passkey of a credential id, if any. */
export const findPasskey = Effect.fn("passkeyStore.findPasskey")(function* (credentialId: string) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<PasskeyRow>`SELECT credential_id, user_id, user_handle, public_key, counter, transports, prf_enabled FROM wallet_passkeys
    WHERE credential_id = ${credentialId}`
  return rows[0]
})

/**
 * Moves the passkey's counter from `from` to `to` (a counter of 0 stays 0: authenticators without one): `false` when
 * another login moved it meanwhile, so one assertion of two sent at once is taken.
 */
export const advanceCounter = Effect.fn("passkeyStore.advanceCounter")(function* (credentialId: string, from: number, to: number, now: Date) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql`UPDATE wallet_passkeys SET counter = ${to}, last_used_at = ${now}
    WHERE credential_id = ${credentialId} AND counter = ${from} RETURNING credential_id`
  return rows.length === 1
})

/** A passkey as registered. */
export interface NewPasskey {
  readonly credentialId: string
  readonly userHandle: string
  readonly publicKey: Uint8Array
  readonly counter: number
  readonly transports: ReadonlyArray<string>
  readonly prfEnabled: boolean
}

/** Makes a passkey user (no email; its keys are made in the frame) with its first passkey, in one transaction. */
export const insertPasskeyUser = Effect.fn("passkeyStore.insertPasskeyUser")(function* (
  id: string,
  passkey: NewPasskey,
  now: Date
) {
  const sql = yield* SqlClient.SqlClient
  yield* sql.withTransaction(
    Effect.gen(function* () {
      yield* sql`INSERT INTO wallet_users (id, email, created_at) VALUES (${id}, NULL, ${now})`
      yield* sql`INSERT INTO wallet_passkeys (credential_id, user_id, user_handle, public_key, counter, transports, prf_enabled, created_at)
        VALUES (${passkey.credentialId}, ${id}, ${passkey.userHandle}, ${passkey.publicKey}, ${passkey.counter}, ${passkey.transports.join(",")}, ${passkey.prfEnabled}, ${now})`
    })
  )
})

/** Whether `userId` has a passkey here (a passkey user confirms an export with it). */
export const hasPasskey = Effect.fn("passkeyStore.hasPasskey")(function* (userId: string) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql`SELECT 1 AS one FROM wallet_passkeys WHERE user_id = ${userId} LIMIT 1`
  return rows.length === 1
})
