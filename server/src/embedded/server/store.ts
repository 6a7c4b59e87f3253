/**
 * The wallet server's tables (migrations `0005_wallet_users` … `0009_wallet_email_updates` in
 * `server/src/db/migrations.ts`): effects over `effect/sql`'s `SqlClient`, run by the routes with `database.run`.
 * Secrets are never stored in the clear: keys are sealed (`./keys.ts`), codes kept as an HMAC, tokens as a SHA-256.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import type { KeyFamily, SealedKey } from "./keys"

/** A user as stored. */
export interface UserRow {
  readonly id: string
  /** Null for a user made by a social login or a passkey. */
  readonly email: string | null
}

/** A stored key: its address and its sealed private key. */
export interface KeyRow extends SealedKey {
  readonly family: KeyFamily
  readonly address: string
}

/** A stored one-time code. */
export interface CodeRow {
  readonly id: string
  readonly code_hash: string
  readonly sent_at: Date
  readonly expires_at: Date
  readonly attempts: number
  readonly used_at: Date | null
}

/** A stored device of a user. */
export interface DeviceRow {
  readonly verified_at: Date | null
  readonly link_sent_at: Date | null
}

/** The code purposes. */
export type CodePurpose = "login" | "update-primary" | "update-secondary" | "export"

/** The user of `email` (lower case), if any. */
export const findUserByEmail = Effect.fn("walletStore.findUserByEmail")(function* (email: string) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<UserRow>`SELECT id, email FROM wallet_users WHERE email = ${email}`
  return rows[0]
})

/** The user `id`, if any. */
export const findUserById = Effect.fn("walletStore.findUserById")(function* (id: string) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<UserRow>`SELECT id, email FROM wallet_users WHERE id = ${id}`
  return rows[0]
})

/** Makes a user (its keys are made in the frame afterwards); `false` when the email was taken meanwhile. */
export const insertUser = Effect.fn("walletStore.insertUser")(function* (user: { readonly id: string; readonly email: string }, now: Date) {
  const sql = yield* SqlClient.SqlClient
  const inserted = yield* sql`INSERT INTO wallet_users (id, email, created_at) VALUES (${user.id}, ${user.email}, ${now})
    ON CONFLICT (email) DO NOTHING RETURNING id`
  return inserted.length > 0
})

interface StoredKey {
  readonly family: KeyFamily
  readonly address: string
  readonly ciphertext: Uint8Array
  readonly iv: Uint8Array
  readonly auth_tag: Uint8Array
}

const keyRow = (row: StoredKey): KeyRow => ({
  family: row.family,
  address: row.address,
  ciphertext: row.ciphertext,
  iv: row.iv,
  authTag: row.auth_tag
})

/** The user's keys (addresses and sealed private keys). */
export const keysOf = Effect.fn("walletStore.keysOf")(function* (userId: string) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<StoredKey>`SELECT family, address, ciphertext, iv, auth_tag FROM wallet_keys WHERE user_id = ${userId}`
  return rows.map(keyRow)
})

/** Any one stored key with its user, to check the master key at start. */
export const anyKey = Effect.fn("walletStore.anyKey")(function* () {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<StoredKey & { readonly user_id: string }>`SELECT user_id, family, address, ciphertext, iv, auth_tag
    FROM wallet_keys ORDER BY created_at LIMIT 1`
  const row = rows[0]
  return row === undefined ? undefined : { userId: row.user_id, key: keyRow(row) }
})

/** The newest code of `purpose` sent to `email`. */
export const latestCode = Effect.fn("walletStore.latestCode")(function* (email: string, purpose: CodePurpose) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<CodeRow>`SELECT id::text AS id, code_hash, sent_at, expires_at, attempts, used_at FROM wallet_codes
    WHERE email = ${email} AND purpose = ${purpose} ORDER BY sent_at DESC, id DESC LIMIT 1`
  return rows[0]
})

/**
 * Claims the mail of `kind` to `email` at `at` when none was sent within `cooldownMs` before: in one statement, so of
 * requests at once exactly one gets it. Answers `undefined` when claimed, else when the mail holding the cool-down
 * went.
 */
export const claimMail = Effect.fn("walletStore.claimMail")(function* (email: string, kind: string, at: Date, cooldownMs: number) {
  const sql = yield* SqlClient.SqlClient
  const since = new Date(at.getTime() - cooldownMs)
  const claimed = yield* sql`INSERT INTO wallet_mail_claims (email, kind, sent_at) VALUES (${email}, ${kind}, ${at})
    ON CONFLICT (email, kind) DO UPDATE SET sent_at = EXCLUDED.sent_at WHERE wallet_mail_claims.sent_at <= ${since}
    RETURNING sent_at`
  if (claimed.length === 1) return undefined
  const held = yield* sql<{ readonly sent_at: Date }>`SELECT sent_at FROM wallet_mail_claims WHERE email = ${email} AND kind = ${kind}`
  return held[0]?.sent_at ?? at
})

/** The requests counted under a key: of the window that started at `windowStart`, and of the window just before it. */
export interface WindowCount {
  readonly windowStart: Date
  readonly previousHits: number
  readonly hits: number
}

/**
 * Counts one request under `key` at `at` if it fits `limit` in the sliding window of `windowMs`: the window's own
 * requests, one more, and the last window's weighed by the part of it still within `windowMs` of `at` (a window
 * begins at the first request after the last one ended, and follows it directly while requests keep coming). One
 * statement: requests at once on any process each count, and a refused one is not counted. Answers whether it fit,
 * and when refused the count as it stands.
 */
export const countRequest = Effect.fn("walletStore.countRequest")(function* (key: string, at: Date, windowMs: number, limit: number) {
  const sql = yield* SqlClient.SqlClient
  const over = new Date(at.getTime() - windowMs)
  const longOver = new Date(at.getTime() - 2 * windowMs)
  // The stored window, moved on to `at`: still current, followed by the one now current, or long over.
  const counted = yield* sql`INSERT INTO wallet_rate_limits AS r (key, window_start, previous_hits, hits) VALUES (${key}, ${at}, 0, 1)
    ON CONFLICT (key) DO UPDATE SET
      window_start = CASE WHEN r.window_start > ${over} THEN r.window_start
        WHEN r.window_start > ${longOver} THEN r.window_start + ${windowMs}::bigint * interval '1 millisecond'
        ELSE EXCLUDED.window_start END,
      previous_hits = CASE WHEN r.window_start > ${over} THEN r.previous_hits WHEN r.window_start > ${longOver} THEN r.hits ELSE 0 END,
      hits = CASE WHEN r.window_start > ${over} THEN r.hits + 1 ELSE 1 END
    WHERE CASE
      WHEN r.window_start > ${over}
        THEN r.previous_hits * (${windowMs}::bigint - extract(epoch FROM ${at}::timestamptz - r.window_start) * 1000) + (r.hits + 1) * ${windowMs}::bigint
      WHEN r.window_start > ${longOver}
        THEN r.hits * (2 * ${windowMs}::bigint - extract(epoch FROM ${at}::timestamptz - r.window_start) * 1000) + ${windowMs}::bigint
      ELSE ${windowMs}::bigint END <= ${limit}::bigint * ${windowMs}::bigint
    RETURNING 1 AS one`
  if (counted.length === 1) return undefined
  const rows = yield* sql<{ readonly window_start: Date; readonly previous_hits: number; readonly hits: number }>`SELECT window_start, previous_hits, hits
    FROM wallet_rate_limits WHERE key = ${key}`
  const row = rows[0]
  // Gone between the two statements (swept): nothing weighs on the next request.
  return row === undefined ? { windowStart: at, previousHits: 0, hits: 0 } : { windowStart: row.window_start, previousHits: row.previous_hits, hits: row.hits }
})

/** Counts a mail of `kind` sent at `at` without asking (the login's cool-down also covers a device's code). */
export const touchMailClaim = Effect.fn("walletStore.touchMailClaim")(function* (email: string, kind: string, at: Date) {
  const sql = yield* SqlClient.SqlClient
  yield* sql`INSERT INTO wallet_mail_claims (email, kind, sent_at) VALUES (${email}, ${kind}, ${at})
    ON CONFLICT (email, kind) DO UPDATE SET sent_at = GREATEST(wallet_mail_claims.sent_at, EXCLUDED.sent_at)`
})

/** Gives back a claim whose mail could not be sent: the cool-down does not start for a mail that never went. */
export const releaseMailClaim = Effect.fn("walletStore.releaseMailClaim")(function* (email: string, kind: string, at: Date) {
  const sql = yield* SqlClient.SqlClient
  yield* sql`DELETE FROM wallet_mail_claims WHERE email = ${email} AND kind = ${kind} AND sent_at = ${at}`
})

/** Until when `email` gets no new code (codes used up by wrong tries), if that is after `now`. */
export const lockedUntil = Effect.fn("walletStore.lockedUntil")(function* (email: string, now: Date) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ readonly locked_until: Date }>`SELECT locked_until FROM wallet_login_lockouts
    WHERE email = ${email} AND locked_until > ${now}`
  return rows[0]?.locked_until
})

/**
 * Counts a wrong guess of `email`'s code, across its codes: every `perLock`-th wrong guess since its last right one
 * locks it out of new codes for `baseMs`, doubled at each lock, at most `maxMs`. In one statement, so guesses at once
 * each count. Answers until when the email is locked out now, if it is.
 */
export const countWrongGuess = Effect.fn("walletStore.countWrongGuess")(function* (
  email: string,
  now: Date,
  rule: { readonly perLock: number; readonly baseMs: number; readonly maxMs: number }
) {
  const sql = yield* SqlClient.SqlClient
  const first = rule.perLock <= 1 ? new Date(now.getTime() + Math.min(rule.baseMs, rule.maxMs)) : null
  const rows = yield* sql<{ readonly locked_until: Date | null }>`INSERT INTO wallet_login_lockouts (email, wrong_guesses, locked_until)
    VALUES (${email}, 1, ${first})
    ON CONFLICT (email) DO UPDATE SET wrong_guesses = wallet_login_lockouts.wrong_guesses + 1,
      locked_until = CASE WHEN (wallet_login_lockouts.wrong_guesses + 1) % ${rule.perLock} = 0
        THEN ${now}::timestamptz + make_interval(secs => LEAST(${rule.maxMs / 1000}::float8,
          ${rule.baseMs / 1000}::float8 * power(2::float8, LEAST((wallet_login_lockouts.wrong_guesses + 1) / ${rule.perLock} - 1, 30))))
        ELSE wallet_login_lockouts.locked_until END
    RETURNING locked_until`
  const until = rows[0]?.locked_until ?? undefined
  return until !== undefined && until.getTime() > now.getTime() ? until : undefined
})

/** Forgets the wrong guesses of `email`: its last code was right. */
export const clearLockout = Effect.fn("walletStore.clearLockout")(function* (email: string) {
  const sql = yield* SqlClient.SqlClient
  yield* sql`DELETE FROM wallet_login_lockouts WHERE email = ${email}`
})

/** Keeps a new code; older unused codes of the same email and purpose stop counting (only the newest is checked). */
export const insertCode = Effect.fn("walletStore.insertCode")(function* (
  email: string,
  purpose: CodePurpose,
  hash: string,
  sentAt: Date,
  expiresAt: Date
) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ readonly id: string }>`INSERT INTO wallet_codes (email, purpose, code_hash, sent_at, expires_at)
    VALUES (${email}, ${purpose}, ${hash}, ${sentAt}, ${expiresAt}) RETURNING id::text AS id`
  return rows[0]?.id
})

/** Removes a code whose mail could not be sent. */
export const deleteCode = Effect.fn("walletStore.deleteCode")(function* (id: string) {
  const sql = yield* SqlClient.SqlClient
  yield* sql`DELETE FROM wallet_codes WHERE id = ${id}::bigint`
})

/**
 * Takes one of a code's `maxTries` before it is compared, in one statement: of guesses sent at once, only `maxTries`
 * are ever compared. Answers the tries taken so far, this one included, or `undefined` when none is left (or the code
 * was used or has expired meanwhile).
 */
export const takeTry = Effect.fn("walletStore.takeTry")(function* (id: string, maxTries: number, now: Date) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ readonly attempts: number }>`UPDATE wallet_codes SET attempts = attempts + 1
    WHERE id = ${id}::bigint AND attempts < ${maxTries} AND used_at IS NULL AND expires_at > ${now} RETURNING attempts`
  return rows[0]?.attempts
})

/** Marks a code used; `false` when it was used already (two racing checks cannot both pass). */
export const useCode = Effect.fn("walletStore.useCode")(function* (id: string, at: Date) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql`UPDATE wallet_codes SET used_at = ${at} WHERE id = ${id}::bigint AND used_at IS NULL RETURNING id`
  return rows.length === 1
})

/** The user's device, if it was ever seen. */
export const findDevice = Effect.fn("walletStore.findDevice")(function* (userId: string, deviceId: string) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<DeviceRow>`SELECT verified_at, link_sent_at FROM wallet_devices
    WHERE user_id = ${userId} AND device_id = ${deviceId}`
  return rows[0]
})

/** Keeps a device as verified (the first login's device, or one whose link was opened). */
export const markDeviceVerified = Effect.fn("walletStore.markDeviceVerified")(function* (
  userId: string,
  deviceId: string,
  at: Date
) {
  const sql = yield* SqlClient.SqlClient
  yield* sql`INSERT INTO wallet_devices (user_id, device_id, verified_at) VALUES (${userId}, ${deviceId}, ${at})
    ON CONFLICT (user_id, device_id) DO UPDATE SET verified_at = COALESCE(wallet_devices.verified_at, ${at}),
      verify_token_hash = NULL, verify_expires_at = NULL`
})

/** Keeps a device waiting for its mailed link (a new token replaces the previous one). */
export const setDeviceLink = Effect.fn("walletStore.setDeviceLink")(function* (
  userId: string,
  deviceId: string,
  tokenHash: string,
  sentAt: Date,
  expiresAt: Date,
  themeMode: "light" | "dark" | null = null
) {
  const sql = yield* SqlClient.SqlClient
  yield* sql`INSERT INTO wallet_devices (user_id, device_id, verify_token_hash, verify_expires_at, link_sent_at, link_theme_mode)
    VALUES (${userId}, ${deviceId}, ${tokenHash}, ${expiresAt}, ${sentAt}, ${themeMode})
    ON CONFLICT (user_id, device_id) DO UPDATE SET verify_token_hash = ${tokenHash}, verify_expires_at = ${expiresAt},
      link_sent_at = ${sentAt}, link_theme_mode = ${themeMode}`
})

/** Verifies the device of a link's token still valid at `now`; the user and device, or `undefined`. */
export const verifyDeviceByToken = Effect.fn("walletStore.verifyDeviceByToken")(function* (tokenHash: string, now: Date) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ readonly user_id: string; readonly device_id: string; readonly link_theme_mode: "light" | "dark" | null }>`UPDATE wallet_devices
    SET verified_at = COALESCE(verified_at, ${now}), verify_token_hash = NULL, verify_expires_at = NULL
    WHERE verify_token_hash = ${tokenHash} AND verify_expires_at > ${now}
    RETURNING user_id, device_id, link_theme_mode`
  return rows[0]
})

/** Opens a session. */
export const insertSession = Effect.fn("walletStore.insertSession")(function* (
  tokenHash: string,
  userId: string,
  deviceId: string,
  createdAt: Date,
  expiresAt: Date
) {
  const sql = yield* SqlClient.SqlClient
  yield* sql`INSERT INTO wallet_sessions (token_hash, user_id, device_id, created_at, expires_at)
    VALUES (${tokenHash}, ${userId}, ${deviceId}, ${createdAt}, ${expiresAt})`
})

/** The user of a session open at `now`, if any. */
export const sessionUser = Effect.fn("walletStore.sessionUser")(function* (tokenHash: string, now: Date) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<UserRow>`SELECT u.id, u.email FROM wallet_sessions s JOIN wallet_users u ON u.id = s.user_id
    WHERE s.token_hash = ${tokenHash} AND s.ended_at IS NULL AND s.expires_at > ${now}`
  return rows[0]
})

/** Ends a session. */
export const endSession = Effect.fn("walletStore.endSession")(function* (tokenHash: string, at: Date) {
  const sql = yield* SqlClient.SqlClient
  yield* sql`UPDATE wallet_sessions SET ended_at = ${at} WHERE token_hash = ${tokenHash} AND ended_at IS NULL`
})

/** Starts an email change (an unfinished one of the same user is replaced). */
export const startEmailUpdate = Effect.fn("walletStore.startEmailUpdate")(function* (
  userId: string,
  newEmail: string,
  at: Date
) {
  const sql = yield* SqlClient.SqlClient
  yield* sql.withTransaction(
    Effect.gen(function* () {
      yield* sql`UPDATE wallet_email_updates SET step = 'replaced' WHERE user_id = ${userId} AND step IN ('primary', 'secondary')`
      yield* sql`INSERT INTO wallet_email_updates (user_id, new_email, step, created_at) VALUES (${userId}, ${newEmail}, 'primary', ${at})`
    })
  )
})

/** The user's email change in progress, if any. */
export const pendingEmailUpdate = Effect.fn("walletStore.pendingEmailUpdate")(function* (userId: string) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ readonly id: string; readonly new_email: string; readonly step: "primary" | "secondary" }>`SELECT
    id::text AS id, new_email, step FROM wallet_email_updates WHERE user_id = ${userId} AND step IN ('primary', 'secondary')
    ORDER BY id DESC LIMIT 1`
  return rows[0]
})

/** Moves an email change to its second code. */
export const emailUpdateToSecondary = Effect.fn("walletStore.emailUpdateToSecondary")(function* (id: string) {
  const sql = yield* SqlClient.SqlClient
  yield* sql`UPDATE wallet_email_updates SET step = 'secondary' WHERE id = ${id}::bigint`
})

/** Finishes an email change; `false` when the new email belongs to another user by now. */
export const finishEmailUpdate = Effect.fn("walletStore.finishEmailUpdate")(function* (
  id: string,
  userId: string,
  newEmail: string
) {
  const sql = yield* SqlClient.SqlClient
  return yield* sql.withTransaction(
    Effect.gen(function* () {
      const taken = yield* sql`SELECT 1 FROM wallet_users WHERE email = ${newEmail} AND id <> ${userId}`
      if (taken.length > 0) return false
      yield* sql`UPDATE wallet_users SET email = ${newEmail} WHERE id = ${userId}`
      yield* sql`UPDATE wallet_email_updates SET step = 'done' WHERE id = ${id}::bigint`
      return true
    })
  )
})

/** A social identity of a user. */
export interface SocialIdentityRow {
  readonly provider: string
  readonly username: string
}

/** The user of a provider's subject, if any. */
export const findSocialUser = Effect.fn("walletStore.findSocialUser")(function* (provider: string, subject: string) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ readonly user_id: string }>`SELECT user_id FROM wallet_social_identities
    WHERE provider = ${provider} AND subject = ${subject}`
  return rows[0]?.user_id
})

/** Keeps the name the provider gives now. */
export const renameSocialUser = Effect.fn("walletStore.renameSocialUser")(function* (provider: string, subject: string, username: string) {
  const sql = yield* SqlClient.SqlClient
  yield* sql`UPDATE wallet_social_identities SET username = ${username} WHERE provider = ${provider} AND subject = ${subject}`
})

/** Makes a social user (no email; its keys are made in the frame) in one transaction; `false` when the subject got a user meanwhile. */
export const insertSocialUser = Effect.fn("walletStore.insertSocialUser")(function* (
  id: string,
  identity: { readonly provider: string; readonly subject: string; readonly username: string },
  now: Date
) {
  const sql = yield* SqlClient.SqlClient
  return yield* sql.withTransaction(
    Effect.gen(function* () {
      yield* sql`INSERT INTO wallet_users (id, email, created_at) VALUES (${id}, NULL, ${now})`
      const inserted = yield* sql`INSERT INTO wallet_social_identities (provider, subject, user_id, username, created_at)
        VALUES (${identity.provider}, ${identity.subject}, ${id}, ${identity.username}, ${now})
        ON CONFLICT (provider, subject) DO NOTHING RETURNING user_id`
      if (inserted.length === 0) return yield* Effect.fail("taken" as const)
      return true
    })
  ).pipe(Effect.catchIf((error) => error === "taken", () => Effect.succeed(false)))
})

/** The social identity of a user, if it was made by one. */
export const socialIdentityOf = Effect.fn("walletStore.socialIdentityOf")(function* (userId: string) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<SocialIdentityRow>`SELECT provider, username FROM wallet_social_identities WHERE user_id = ${userId}`
  return rows[0]
})

/** A social login in progress, as kept. */
export interface SocialLoginRow {
  readonly project_id: string
  readonly device_id: string
  readonly provider: string
  readonly host_origin: string
  readonly return_to: string | null
  /** The host's theme when the login started (the callback page follows it). */
  readonly theme_mode: "light" | "dark" | null
}

/** Keeps a social login that starts now. */
export const insertSocialLogin = Effect.fn("walletStore.insertSocialLogin")(function* (
  stateHash: string,
  login: SocialLoginRow,
  createdAt: Date,
  expiresAt: Date
) {
  const sql = yield* SqlClient.SqlClient
  yield* sql`INSERT INTO wallet_social_logins (state_hash, project_id, device_id, provider, host_origin, return_to, theme_mode, created_at, expires_at)
    VALUES (${stateHash}, ${login.project_id}, ${login.device_id}, ${login.provider}, ${login.host_origin}, ${login.return_to}, ${login.theme_mode}, ${createdAt}, ${expiresAt})`
})

/** A social login waiting for its callback (neither used nor expired), without using it: the callback page's. */
export const pendingSocialLogin = Effect.fn("walletStore.pendingSocialLogin")(function* (stateHash: string, now: Date) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<SocialLoginRow>`SELECT project_id, device_id, provider, host_origin, return_to, theme_mode FROM wallet_social_logins
    WHERE state_hash = ${stateHash} AND used_at IS NULL AND expires_at > ${now}`
  return rows[0]
})

/** Uses up a social login of this project and device: once only, and only before it expires. */
export const useSocialLogin = Effect.fn("walletStore.useSocialLogin")(function* (stateHash: string, projectId: string, deviceId: string, now: Date) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<SocialLoginRow>`UPDATE wallet_social_logins SET used_at = ${now}
    WHERE state_hash = ${stateHash} AND project_id = ${projectId} AND device_id = ${deviceId} AND used_at IS NULL AND expires_at > ${now}
    RETURNING project_id, device_id, provider, host_origin, return_to, theme_mode`
  return rows[0]
})

/** A Sign In With Farcaster channel, as kept. */
export interface FarcasterChannelRow {
  readonly project_id: string
  readonly device_id: string
  readonly nonce: string
  readonly domain: string
  readonly siwe_uri: string
  readonly expires_at: Date
  readonly signed_at: Date | null
  readonly fid: string | null
  readonly username: string | null
  readonly used_at: Date | null
}

/** Keeps a channel opened now. */
export const insertFarcasterChannel = Effect.fn("walletStore.insertFarcasterChannel")(function* (
  tokenHash: string,
  channel: { readonly projectId: string; readonly deviceId: string; readonly nonce: string; readonly domain: string; readonly siweUri: string },
  createdAt: Date,
  expiresAt: Date
) {
  const sql = yield* SqlClient.SqlClient
  yield* sql`INSERT INTO wallet_farcaster_channels (token_hash, project_id, device_id, nonce, domain, siwe_uri, created_at, expires_at)
    VALUES (${tokenHash}, ${channel.projectId}, ${channel.deviceId}, ${channel.nonce}, ${channel.domain}, ${channel.siweUri}, ${createdAt}, ${expiresAt})`
})

/** The channel of a token, whatever its state. */
export const farcasterChannel = Effect.fn("walletStore.farcasterChannel")(function* (tokenHash: string) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<FarcasterChannelRow>`SELECT project_id, device_id, nonce, domain, siwe_uri, expires_at, signed_at, fid, username, used_at
    FROM wallet_farcaster_channels WHERE token_hash = ${tokenHash}`
  return rows[0]
})

/** Marks the channel signed by `fid`: once only, and only before it expires; `false` when it was not open. */
export const signFarcasterChannel = Effect.fn("walletStore.signFarcasterChannel")(function* (
  tokenHash: string,
  signer: { readonly fid: string; readonly username: string },
  now: Date
) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql`UPDATE wallet_farcaster_channels SET signed_at = ${now}, fid = ${signer.fid}, username = ${signer.username}
    WHERE token_hash = ${tokenHash} AND signed_at IS NULL AND expires_at > ${now} RETURNING token_hash`
  return rows.length > 0
})

/** Uses up a signed channel of this project and device (once only): who signed it. */
export const useFarcasterChannel = Effect.fn("walletStore.useFarcasterChannel")(function* (
  tokenHash: string,
  projectId: string,
  deviceId: string,
  now: Date
) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ readonly fid: string; readonly username: string }>`UPDATE wallet_farcaster_channels SET used_at = ${now}
    WHERE token_hash = ${tokenHash} AND project_id = ${projectId} AND device_id = ${deviceId} AND signed_at IS NOT NULL AND used_at IS NULL
    RETURNING fid, username`
  return rows[0]
})
