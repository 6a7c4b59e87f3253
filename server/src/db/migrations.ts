/**
 * The services' database schema, one migration per entry, run in key order by `effect/sql`'s Migrator at every start
 * (the same list for the embedded PGlite and a real Postgres). Each key is `NNNN_name`: the number orders them and is
 * recorded in `effect_sql_migrations`, so a migration runs once per database.
 *
 * To change the schema, append an entry with the next number; never edit or renumber one that has shipped (a data
 * directory or a Postgres that already ran it would not run it again).
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/** A migration: statements run inside the Migrator's transaction with the services' `SqlClient`. */
export type Migration = Effect.Effect<void, unknown, SqlClient.SqlClient>

const sessions: Migration = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  // Nonces handed out by `POST /v1/sessions/{account}/nonce`: single use (`used_at`), valid until `expires_at`.
  yield* sql`CREATE TABLE siwx_nonces (
    nonce text PRIMARY KEY,
    account text NOT NULL,
    expires_at timestamptz NOT NULL,
    used_at timestamptz
  )`
  // Sign-in sessions, by CAIP-10 account (EVM addresses lower case). `data` is the message data as JSON, `message`
  // the exact text signed; `expires_at` is the message's expirationTime (none: no end).
  yield* sql`CREATE TABLE siwx_sessions (
    pci text PRIMARY KEY,
    account text NOT NULL,
    data jsonb NOT NULL,
    message text NOT NULL,
    signature text NOT NULL,
    expires_at timestamptz,
    created_at timestamptz NOT NULL,
    revoked_at timestamptz
  )`
  yield* sql`CREATE INDEX siwx_sessions_account ON siwx_sessions (account)`
})

const names: Migration = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  // Account names registered by `POST /v1/profile/account` (`server/src/services/namesStore.ts`); the seed names
  // (alice…dave) are not stored. `name` is the full normalised name (`label.wallet.test`), `address` the EVM address
  // as checksummed text, `coin_type` the one it was signed for; `message` and `signature` are kept as the proof.
  yield* sql`CREATE TABLE account_names (
    name text PRIMARY KEY,
    address text NOT NULL,
    coin_type bigint NOT NULL,
    attributes jsonb NOT NULL,
    message text NOT NULL,
    signature text NOT NULL,
    registered_at timestamptz NOT NULL
  )`
  yield* sql`CREATE INDEX account_names_address ON account_names (lower(address))`
})

const sessionNonceUses: Migration = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  // Which accounts used a nonce not bound to one (`POST /v1/sessions/nonce`, one-click sign-in, where the account is
  // known only once the wallet answers): each account once, so the messages a wallet signs for several chains with
  // that one nonce each become a session, and none twice. Such nonces have `account = '*'` in siwx_nonces.
  yield* sql`CREATE TABLE siwx_nonce_uses (
    nonce text NOT NULL REFERENCES siwx_nonces (nonce),
    account text NOT NULL,
    used_at timestamptz NOT NULL,
    PRIMARY KEY (nonce, account)
  )`
})

const sessionRevocationKeys: Migration = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  // The SHA-256 of the secret that revokes a session (`revocationKeyHash` when it was kept): only the browser that
  // kept it knows the secret, while the signature is shown to anyone who lists the account's sessions.
  yield* sql`ALTER TABLE siwx_sessions ADD COLUMN revocation_key_hash text`
})

const walletUsers: Migration = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  // The embedded wallet's users (`server/src/embedded/server`): one per email, kept lower case.
  yield* sql`CREATE TABLE wallet_users (
    id text PRIMARY KEY,
    email text NOT NULL UNIQUE,
    created_at timestamptz NOT NULL
  )`
  // Each user's keys, one per family ('eip155', 'solana'): the private key only as AES-256-GCM ciphertext under the
  // server's master key (a fresh 12-byte IV each, the tag kept), never in the clear.
  yield* sql`CREATE TABLE wallet_keys (
    user_id text NOT NULL REFERENCES wallet_users (id),
    family text NOT NULL CHECK (family IN ('eip155', 'solana')),
    address text NOT NULL,
    ciphertext bytea NOT NULL,
    iv bytea NOT NULL,
    auth_tag bytea NOT NULL,
    created_at timestamptz NOT NULL,
    PRIMARY KEY (user_id, family)
  )`
})

const walletDevices: Migration = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  // The devices (the frame's random deviceId) a user logged in from; a new one is verified through a mailed link whose
  // token is kept only as its SHA-256 (`verify_token_hash`, valid until `verify_expires_at`).
  yield* sql`CREATE TABLE wallet_devices (
    user_id text NOT NULL REFERENCES wallet_users (id),
    device_id text NOT NULL,
    verified_at timestamptz,
    verify_token_hash text UNIQUE,
    verify_expires_at timestamptz,
    link_sent_at timestamptz,
    PRIMARY KEY (user_id, device_id)
  )`
})

const walletCodes: Migration = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  // One-time codes mailed for a login or an email update; the code only as an HMAC under the master key.
  yield* sql`CREATE TABLE wallet_codes (
    id bigserial PRIMARY KEY,
    email text NOT NULL,
    purpose text NOT NULL CHECK (purpose IN ('login', 'update-primary', 'update-secondary')),
    code_hash text NOT NULL,
    sent_at timestamptz NOT NULL,
    expires_at timestamptz NOT NULL,
    attempts integer NOT NULL DEFAULT 0,
    used_at timestamptz
  )`
  yield* sql`CREATE INDEX wallet_codes_email ON wallet_codes (email, purpose, sent_at)`
})

const walletSessions: Migration = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  // Sessions by bearer token, kept only as the token's SHA-256.
  yield* sql`CREATE TABLE wallet_sessions (
    token_hash text PRIMARY KEY,
    user_id text NOT NULL REFERENCES wallet_users (id),
    device_id text NOT NULL,
    created_at timestamptz NOT NULL,
    expires_at timestamptz NOT NULL,
    ended_at timestamptz
  )`
})

const walletEmailUpdates: Migration = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  // An email change in progress: 'primary' waits for the current email's code, 'secondary' for the new email's.
  yield* sql`CREATE TABLE wallet_email_updates (
    id bigserial PRIMARY KEY,
    user_id text NOT NULL REFERENCES wallet_users (id),
    new_email text NOT NULL,
    step text NOT NULL CHECK (step IN ('primary', 'secondary', 'done', 'replaced')),
    created_at timestamptz NOT NULL
  )`
})

const analyticsEvents: Migration = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  // The analytics sink (`POST /e`): each event as received, with its project and the page's origin.
  yield* sql`CREATE TABLE analytics_events (
    id bigserial PRIMARY KEY,
    project_id text NOT NULL,
    origin text,
    event jsonb NOT NULL,
    received_at timestamptz NOT NULL
  )`
  yield* sql`CREATE INDEX analytics_events_project ON analytics_events (project_id, id)`
})

const walletSocial: Migration = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  // A user made by a social login has no email (linking an email and a social login to one user is not done).
  yield* sql`ALTER TABLE wallet_users ALTER COLUMN email DROP NOT NULL`
  // Social users, keyed by provider plus the provider's subject; `username` is the name the provider gave last.
  yield* sql`CREATE TABLE wallet_social_identities (
    provider text NOT NULL,
    subject text NOT NULL,
    user_id text NOT NULL UNIQUE REFERENCES wallet_users (id),
    username text NOT NULL,
    created_at timestamptz NOT NULL,
    PRIMARY KEY (provider, subject)
  )`
  // Social logins in progress, by the SHA-256 of their `state` (the nonce and PKCE verifier are derived from it, not
  // kept): single use, bound to the device and the host page that started them.
  yield* sql`CREATE TABLE wallet_social_logins (
    state_hash text PRIMARY KEY,
    project_id text NOT NULL,
    device_id text NOT NULL,
    provider text NOT NULL,
    host_origin text NOT NULL,
    return_to text,
    theme_mode text CHECK (theme_mode IN ('light', 'dark')),
    created_at timestamptz NOT NULL,
    expires_at timestamptz NOT NULL,
    used_at timestamptz
  )`
})

const walletLoginGuards: Migration = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  // The last mail of each kind to an email (a login code or device link, an email change's code, one device's code),
  // claimed with one statement so that requests at once cannot both pass the 30 s cool-down.
  yield* sql`CREATE TABLE wallet_mail_claims (
    email text NOT NULL,
    kind text NOT NULL,
    sent_at timestamptz NOT NULL,
    PRIMARY KEY (email, kind)
  )`
  // Wrong code guesses of an email since its last right one (across its codes), and until when it gets no new code.
  yield* sql`CREATE TABLE wallet_login_lockouts (
    email text PRIMARY KEY,
    wrong_guesses integer NOT NULL,
    locked_until timestamptz
  )`
})

const walletFarcasterChannels: Migration = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  // Sign In With Farcaster channels, by the SHA-256 of their token: made for one device of one project, signed once
  // (the nonce is used up by the first signed message, right or wrong ones refused before), used once for a session.
  yield* sql`CREATE TABLE wallet_farcaster_channels (
    token_hash text PRIMARY KEY,
    project_id text NOT NULL,
    device_id text NOT NULL,
    nonce text NOT NULL UNIQUE,
    domain text NOT NULL,
    siwe_uri text NOT NULL,
    created_at timestamptz NOT NULL,
    expires_at timestamptz NOT NULL,
    signed_at timestamptz,
    fid text,
    username text,
    used_at timestamptz
  )`
})

const walletDeviceLinkTheme: Migration = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  // The host's theme (SYNC_THEME) when a device link was mailed: the link's page is shown in it.
  yield* sql`ALTER TABLE wallet_devices ADD COLUMN link_theme_mode text CHECK (link_theme_mode IN ('light', 'dark'))`
})

const chainIndex: Migration = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  // The EVM chains' activity history (`server/src/services/indexer.ts`), one index shared by every service process.
  // Each chain's cursor: the first block indexed and the last one (`first_block - 1` before any), with the last one's
  // hash, by which a reorganisation is found, and block 0's, by which a chain restarted under the same id (a local
  // anvil, a database kept across restarts) is told from a node that is behind. Blocks are written with the cursor's advance in one transaction, the row
  // locked `FOR UPDATE`.
  yield* sql`CREATE TABLE chain_index_cursors (
    chain_id bigint PRIMARY KEY,
    first_block bigint NOT NULL,
    last_block bigint NOT NULL,
    last_hash text,
    genesis_hash text NOT NULL,
    updated_at timestamptz NOT NULL
  )`
  // The hashes of the last blocks indexed (128 at most per chain; the one before the first too): where the chain
  // forked from the index, and so how far to roll it back.
  yield* sql`CREATE TABLE chain_index_blocks (
    chain_id bigint NOT NULL,
    block_number bigint NOT NULL,
    hash text NOT NULL,
    PRIMARY KEY (chain_id, block_number)
  )`
  // Mined transactions; addresses checksummed, `selector` the input's first 4 bytes.
  yield* sql`CREATE TABLE chain_index_transactions (
    chain_id bigint NOT NULL,
    hash text NOT NULL,
    block_number bigint NOT NULL,
    tx_index integer NOT NULL,
    block_time bigint NOT NULL,
    from_address text NOT NULL,
    to_address text,
    contract_address text,
    nonce bigint NOT NULL,
    selector text NOT NULL,
    status text NOT NULL CHECK (status IN ('confirmed', 'failed')),
    PRIMARY KEY (chain_id, hash)
  )`
  // The movements of value inside a transaction, in their order (`position`): native value, Transfer logs, then the
  // ETH contracts sent inside it. `amount` is the base units or an ERC-721's token id (uint256: numeric); `log_index`
  // that of the Transfer log (none for ETH).
  yield* sql`CREATE TABLE chain_index_transfers (
    chain_id bigint NOT NULL,
    tx_hash text NOT NULL,
    position integer NOT NULL,
    kind text NOT NULL CHECK (kind IN ('native', 'erc20', 'erc721')),
    contract text,
    from_address text NOT NULL,
    to_address text NOT NULL,
    amount numeric(78, 0) NOT NULL,
    log_index integer,
    PRIMARY KEY (chain_id, tx_hash, position)
  )`
  // Who took part in each transaction (sender, recipient, every transfer's parties; lower case, never the zero address).
  yield* sql`CREATE TABLE chain_index_participants (
    chain_id bigint NOT NULL,
    address text NOT NULL,
    tx_hash text NOT NULL,
    block_number bigint NOT NULL,
    tx_index integer NOT NULL,
    PRIMARY KEY (chain_id, address, tx_hash)
  )`
  yield* sql`CREATE INDEX chain_index_participants_order ON chain_index_participants (chain_id, address, block_number, tx_index)`
  // Each ERC-721 token where its last Transfer left it; `owner` checksummed.
  yield* sql`CREATE TABLE chain_index_nfts (
    chain_id bigint NOT NULL,
    contract text NOT NULL,
    token_id numeric(78, 0) NOT NULL,
    owner text NOT NULL,
    block_time bigint NOT NULL,
    block_number bigint NOT NULL,
    log_index integer NOT NULL,
    PRIMARY KEY (chain_id, contract, token_id)
  )`
  yield* sql`CREATE INDEX chain_index_nfts_owner ON chain_index_nfts (chain_id, lower(owner))`
  yield* sql`CREATE INDEX chain_index_transactions_block ON chain_index_transactions (chain_id, block_number)`
})

const walletCalls: Migration = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  // EIP-5792 batches sent by the embedded wallet, by their id: what wallet_getCallsStatus reads on any process, after
  // any restart. One user operation's hash (smart account, atomic) or the transactions' hashes in order (EOA).
  yield* sql`CREATE TABLE wallet_calls (
    id text PRIMARY KEY,
    user_id text NOT NULL REFERENCES wallet_users (id) ON DELETE CASCADE,
    chain_id text NOT NULL,
    sender text NOT NULL,
    kind text NOT NULL CHECK (kind IN ('userOperation', 'transactions')),
    hashes text NOT NULL,
    atomic boolean NOT NULL,
    created_at timestamptz NOT NULL
  )`
})

const walletKeyShares: Migration = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  // Each user's split key per family (issue 30; `server/src/embedded/server/shares.ts`): the server's share only,
  // sealed under the master key (AES-256-GCM, the user, family, address and split bound in), and the recovery share as
  // the frame sealed it (a JSON envelope the server cannot open) with the SHA-256 of its verifier. An address is one
  // user's: no one may keep shares under another's.
  yield* sql`CREATE TABLE wallet_key_shares (
    user_id text NOT NULL REFERENCES wallet_users (id),
    family text NOT NULL CHECK (family IN ('eip155', 'solana')),
    address text NOT NULL,
    split_id text NOT NULL,
    server_share bytea NOT NULL,
    server_share_iv bytea NOT NULL,
    server_share_tag bytea NOT NULL,
    recovery_envelope text NOT NULL,
    recovery_verifier_hash text NOT NULL,
    created_at timestamptz NOT NULL,
    rotated_at timestamptz,
    PRIMARY KEY (user_id, family),
    UNIQUE (family, address)
  )`
  // Tries at the recovery envelope per user: each takes its place before it is compared, and sets when the next may
  // come (a delay doubled at each wrong one); a right one deletes the row.
  yield* sql`CREATE TABLE wallet_recovery_attempts (
    user_id text PRIMARY KEY REFERENCES wallet_users (id),
    wrong_tries integer NOT NULL,
    next_try_at timestamptz NOT NULL
  )`
})

const walletPasskeys: Migration = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  // Each user's passkeys (WebAuthn credentials), by the credential id (base64url): the COSE public key, the signature
  // counter last seen, the transports the browser named, the user handle given to the authenticator, and whether the
  // PRF extension was enabled at registration (a recovery secret may be derived from it later).
  yield* sql`CREATE TABLE wallet_passkeys (
    credential_id text PRIMARY KEY,
    user_id text NOT NULL REFERENCES wallet_users (id),
    user_handle text NOT NULL,
    public_key bytea NOT NULL,
    counter bigint NOT NULL,
    transports text NOT NULL,
    prf_enabled boolean NOT NULL,
    created_at timestamptz NOT NULL,
    last_used_at timestamptz
  )`
  yield* sql`CREATE INDEX wallet_passkeys_user ON wallet_passkeys (user_id)`
  // A passkey ceremony (registration or authentication), by the SHA-256 of its state token: started by one device of
  // one project for a host page, its challenge taken once (a replayed response finds it taken), then verified for a
  // user, then used once for a session. All within its expiry, by the wallet server's clock.
  yield* sql`CREATE TABLE wallet_passkey_ceremonies (
    state_hash text PRIMARY KEY,
    project_id text NOT NULL,
    device_id text NOT NULL,
    mode text NOT NULL CHECK (mode IN ('create', 'login')),
    host_origin text NOT NULL,
    theme_mode text CHECK (theme_mode IN ('light', 'dark')),
    challenge text NOT NULL,
    user_handle text NOT NULL,
    created_at timestamptz NOT NULL,
    expires_at timestamptz NOT NULL,
    challenge_used_at timestamptz,
    user_id text,
    verified_at timestamptz,
    used_at timestamptz
  )`
})

const walletPermissionGrants: Migration = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  // ERC-7715 execution permissions a user granted a project on one chain, from one account, found by their context.
  // `spent` counts the current period (periodic, from `period_start`) or everything (stream); it is moved under the
  // row's lock (FOR UPDATE) before the transfer is signed, so two processes cannot both spend the same allowance.
  yield* sql`CREATE TABLE wallet_permission_grants (
    context text PRIMARY KEY,
    user_id text NOT NULL REFERENCES wallet_users (id),
    project_id text NOT NULL,
    chain_id bigint NOT NULL,
    account text NOT NULL,
    terms text NOT NULL,
    spent numeric(78, 0) NOT NULL DEFAULT 0,
    period_start bigint NOT NULL,
    created_at timestamptz NOT NULL,
    revoked_at timestamptz
  )`
  yield* sql`CREATE INDEX wallet_permission_grants_owner ON wallet_permission_grants (user_id, project_id, chain_id)`
})

const walletRateLimits: Migration = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  // Requests counted per key (a route's name and the visitor's address) in the window that started at
  // `window_start`: counted in one statement, so requests at once on any process of the server count one by one.
  yield* sql`CREATE TABLE wallet_rate_limits (
    key text PRIMARY KEY,
    window_start timestamptz NOT NULL,
    hits integer NOT NULL
  )`
})

const walletExpiryIndexes: Migration = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  // The wallet server deletes what anyone may start once it is past its expiry (`server/src/embedded/server/prune.ts`):
  // found by these, each sweep reads only the rows it deletes.
  yield* sql`CREATE INDEX wallet_passkey_ceremonies_expiry ON wallet_passkey_ceremonies (expires_at)`
  yield* sql`CREATE INDEX wallet_farcaster_channels_expiry ON wallet_farcaster_channels (expires_at)`
  yield* sql`CREATE INDEX wallet_social_logins_expiry ON wallet_social_logins (expires_at)`
  yield* sql`CREATE INDEX wallet_rate_limits_window ON wallet_rate_limits (window_start)`
  yield* sql`CREATE INDEX wallet_codes_expiry ON wallet_codes (expires_at)`
  yield* sql`CREATE INDEX wallet_sessions_expiry ON wallet_sessions (expires_at)`
})

const walletExportGrants: Migration = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  // Showing a private key asks for a fresh confirmation (issue 30, item 4): a mailed code of its own purpose, or a
  // passkey ceremony of its own mode (bound to the session asking, by its token's hash in device_id).
  yield* sql`ALTER TABLE wallet_codes DROP CONSTRAINT wallet_codes_purpose_check`
  yield* sql`ALTER TABLE wallet_codes ADD CONSTRAINT wallet_codes_purpose_check CHECK (purpose IN ('login', 'update-primary', 'update-secondary', 'export'))`
  yield* sql`ALTER TABLE wallet_passkey_ceremonies DROP CONSTRAINT wallet_passkey_ceremonies_mode_check`
  yield* sql`ALTER TABLE wallet_passkey_ceremonies ADD CONSTRAINT wallet_passkey_ceremonies_mode_check CHECK (mode IN ('create', 'login', 'export'))`
  // What a confirmation yields: one export of one family's key, for the session that confirmed, for a few minutes.
  // The grant is kept as its SHA-256, used once.
  yield* sql`CREATE TABLE wallet_export_grants (
    grant_hash text PRIMARY KEY,
    session_hash text NOT NULL,
    user_id text NOT NULL,
    family text NOT NULL CHECK (family IN ('eip155', 'solana')),
    created_at timestamptz NOT NULL,
    expires_at timestamptz NOT NULL,
    used_at timestamptz
  )`
  yield* sql`CREATE INDEX wallet_export_grants_expiry ON wallet_export_grants (expires_at)`
})

const walletRateLimitsSliding: Migration = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  // The visitor limits count in a sliding minute (`server/src/embedded/server/visitorLimits.ts`): the window before
  // `window_start` keeps its count, weighed by the part of it still within the last minute, so the limit's worth at
  // the end of one window and again at the start of the next is refused. A count made before is the current window's.
  yield* sql`ALTER TABLE wallet_rate_limits ADD COLUMN previous_hits integer NOT NULL DEFAULT 0`
})

/** Every migration of the services' database, by `NNNN_name` (append only). */
export const migrations: Readonly<Record<string, Migration>> = {
  "0001_sessions": sessions,
  "0002_names": names,
  "0003_session_nonce_uses": sessionNonceUses,
  "0004_session_revocation_keys": sessionRevocationKeys,
  "0005_wallet_users": walletUsers,
  "0006_wallet_devices": walletDevices,
  "0007_wallet_codes": walletCodes,
  "0008_wallet_sessions": walletSessions,
  "0009_wallet_email_updates": walletEmailUpdates,
  "0010_analytics_events": analyticsEvents,
  "0011_wallet_social": walletSocial,
  "0012_wallet_login_guards": walletLoginGuards,
  "0013_wallet_farcaster_channels": walletFarcasterChannels,
  "0014_wallet_device_link_theme": walletDeviceLinkTheme,
  "0015_chain_index": chainIndex,
  "0016_wallet_calls": walletCalls,
  "0017_wallet_key_shares": walletKeyShares,
  "0018_wallet_passkeys": walletPasskeys,
  "0019_wallet_permission_grants": walletPermissionGrants,
  "0020_wallet_rate_limits": walletRateLimits,
  "0021_wallet_expiry_indexes": walletExpiryIndexes,
  "0022_wallet_export_grants": walletExportGrants,
  "0023_wallet_rate_limits_sliding": walletRateLimitsSliding
}
