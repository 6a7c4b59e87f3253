/**
 * The Schemas of the wallet server's split-key routes (issue 30, item 1; groundwork): the routes are declared in
 * `./WalletServerApi.ts` (`KeySharesGroup`), served by `./server/shares.ts`. The server keeps each user's server share
 * and the sealed recovery share of each family, and gives them out only to a session of that user that logged in
 * recently ("fresh": within the server's `freshLoginMs`, 10 minutes by default); it never sees a device share, a
 * password, a PRF output or a key.
 *
 * - `GET /api/keys` (session): the user's id and split keys: family, address, split id, the recovery envelope's KDF (what the
 *   frame needs to stretch the password before asking for the envelope).
 * - `POST /api/keys/split` (fresh session): keeps a new split, or a rotation of the same address: the server share
 *   (tagged for this user, role `server`), the recovery envelope with its verifier, and the key's signature of the
 *   split (400 `share_refused` when another key signed it).
 * - `POST /api/keys/server-share` (any session of the user): the server share of a family, for the frame to sign with.
 * - `POST /api/keys/recovery` (fresh session): the recovery envelope, given the verifier the recovery secret makes.
 *   Each try is counted before it is compared; a wrong one makes the next wait (5 s, doubled at each wrong one, at
 *   most a day, kept in the database so it holds across processes): 400 `wrong_recovery_secret` with
 *   `retryAfterSeconds`, and any try before then 429 `too_many_attempts` with `Retry-After`. A right one clears it.
 * - `POST /api/keys/legacy` (fresh session; issue 30, item 6): the key of a family the server made and sealed before
 *   keys were split, for the frame to split at this login; 404 `no_legacy_key` once it is split (the split's store
 *   deletes the sealed copy in its transaction).
 */
import { Schema } from "effect"

// The shares' and the recovery envelope's formats live here, beside the routes, and not in the frame's key modules:
// the API's declaration is loaded by every frame page, which must not load the curves, Shamir and scrypt with it.

/** The families the embedded wallet holds a key for: eip155 (a secp256k1 private key) and solana (an ed25519 seed). */
export const KeyFamily = Schema.Literals(["eip155", "solana"])
/** A key family. */
export type KeyFamily = typeof KeyFamily.Type

/** Who holds a share: the frame's storage on this device, the wallet server, or the user's recovery secret. */
export const ShareRole = Schema.Literals(["device", "server", "recovery"])
/** A share's holder. */
export type ShareRole = typeof ShareRole.Type

/** The share format's version: a later format gets a new number and this module refuses what it does not know. */
export const SHARE_VERSION = 1

// A split's id: 16 random bytes, base64 (24 characters); the three shares of one split carry the same.
const SplitId = Schema.String.pipe(Schema.check(Schema.isPattern(/^[A-Za-z0-9+/]{22}==$/, { expected: "a split id (16 bytes, base64)" })))
// Shamir's share of a 32-byte key: 32 bytes and its x coordinate, base64 (44 characters, no padding).
const ShareBytes = Schema.String.pipe(Schema.check(Schema.isPattern(/^[A-Za-z0-9+/]{44}$/, { expected: "a share (33 bytes, base64)" })))

/** One share of a split key, with the tags that say whose key it is part of and which split. */
export const KeyShare = Schema.Struct({
  version: Schema.Literal(SHARE_VERSION),
  role: ShareRole,
  userId: Schema.NonEmptyString,
  family: KeyFamily,
  /** The account's address (checksummed eip155, base58 solana): what the combined key must derive to. */
  address: Schema.NonEmptyString,
  /** The same for the three shares of one split; a rotation makes a new one. */
  splitId: SplitId,
  /** Shamir's share (`shamir-secret-sharing`: the y values, then the x coordinate), base64. */
  share: ShareBytes
})
/** One share of a split key. */
export type KeyShare = typeof KeyShare.Type

/** A share as text (JSON), as the frame stores it and the wallet server receives it. */
export const KeyShareJson = Schema.fromJsonString(KeyShare)

// ---------------------------------------------------------------------------------------------------------------
// The recovery envelope (sealed in the frame by `./frame/recoveryShare.ts`)

/** The envelope format's version. */
export const RECOVERY_VERSION = 1

// The most an envelope may ask (a stored envelope is outside data): 2^20 × 8 × 128 bytes = 1 GiB would stall the frame.
const SCRYPT_MAX_N = 2 ** 18

const Base64 = Schema.String.pipe(Schema.check(Schema.isPattern(/^[A-Za-z0-9+/]*={0,2}$/, { expected: "base64" })))
const PowerOfTwo = Schema.Int.pipe(
  Schema.check(Schema.makeFilter((n: number) => (n >= 2 ** 10 && n <= SCRYPT_MAX_N && (n & (n - 1)) === 0) || `a power of two from 2^10 to 2^18, not ${n}`))
)

/**
 * How the envelope's key is made: scrypt of a password, a passkey's PRF output, or (`device`) a random 32-byte secret
 * the frame keeps beside the device share until the visitor protects the wallet with a password or a passkey.
 */
export const RecoveryKdf = Schema.Union([
  Schema.Struct({
    name: Schema.Literal("scrypt"),
    N: PowerOfTwo,
    r: Schema.Int.pipe(Schema.check(Schema.isBetween({ minimum: 1, maximum: 16 }))),
    p: Schema.Int.pipe(Schema.check(Schema.isBetween({ minimum: 1, maximum: 4 }))),
    salt: Base64
  }),
  Schema.Struct({ name: Schema.Literal("passkey-prf"), salt: Base64 }),
  Schema.Struct({ name: Schema.Literal("device"), salt: Base64 })
])
/** An envelope's KDF. */
export type RecoveryKdf = typeof RecoveryKdf.Type

/** The recovery share sealed in the frame: what the wallet server stores and gives back. */
export const RecoveryEnvelope = Schema.Struct({
  version: Schema.Literal(RECOVERY_VERSION),
  kdf: RecoveryKdf,
  nonce: Base64,
  ciphertext: Base64
})
/** The sealed recovery share. */
export type RecoveryEnvelope = typeof RecoveryEnvelope.Type

// ---------------------------------------------------------------------------------------------------------------
// The routes


const Verifier = Schema.String.pipe(Schema.check(Schema.isPattern(/^[A-Za-z0-9+/]{43}=$/, { expected: "a verifier (32 bytes, base64)" })))

/** One of the user's split keys, as `GET /api/keys` lists it. */
export const SplitKeyInfo = Schema.Struct({
  family: KeyFamily,
  address: Schema.String,
  splitId: Schema.String,
  recoveryKdf: RecoveryKdf
})

/**
 * The answer of `GET /api/keys`: the user's id (what the frame tags shares with), their split keys, and the relying
 * party ID their recovery passkeys belong to (the server's `passkeyRpId`, as its login passkeys: the frame's host name
 * unless configured), which the frame takes from its own server, never from the host page.
 */
export const SplitKeysResponse = Schema.Struct({ userId: Schema.String, keys: Schema.Array(SplitKeyInfo), passkeyRpId: Schema.String })

/**
 * `POST /api/keys/split`: the server share of a new split, the recovery share sealed in the frame, and the key's
 * signature of the split (`splitProofMessage` of `./frame/keyShares.ts`, base64), so only who holds the key keeps one.
 */
export const StoreSplitRequest = Schema.Struct({
  server: KeyShare,
  recovery: Schema.Struct({ envelope: RecoveryEnvelope, verifier: Verifier }),
  proof: Schema.String.pipe(Schema.check(Schema.isPattern(/^[A-Za-z0-9+/]{86,88}={0,2}$/, { expected: "a signature (64 or 65 bytes, base64)" }))),
  /**
   * A key made now (`SplitKeys.create`), not a rotation: kept only while the user has no key of that family, split or
   * sealed, else 409 `key_exists` (two devices logging a new user in at once: the first split is the key).
   */
  create: Schema.optionalKey(Schema.Literal(true))
})

/** The answer of `POST /api/keys/split`: the split kept, and whether it replaced one (a rotation). */
export const StoreSplitResponse = Schema.Struct({ splitId: Schema.String, rotated: Schema.Boolean })

/** `POST /api/keys/server-share`: which family's share. */
export const ServerShareRequest = Schema.Struct({ family: KeyFamily })

/** The answer of `POST /api/keys/server-share`. */
export const ServerShareResponse = Schema.Struct({ share: KeyShare })

/** `POST /api/keys/recovery`: which family's envelope, and the verifier the recovery secret makes. */
export const RecoveryRequest = Schema.Struct({ family: KeyFamily, verifier: Verifier })

/** The answer of `POST /api/keys/recovery`. */
export const RecoveryResponse = Schema.Struct({ envelope: RecoveryEnvelope })

/** `POST /api/keys/legacy`: which family's key the server sealed before keys were split. */
export const LegacyKeyRequest = Schema.Struct({ family: KeyFamily })

/** The answer of `POST /api/keys/legacy`: the key (base64) and its address, for the frame to split. */
export const LegacyKeyResponse = Schema.Struct({ address: Schema.String, key: Base64 })

// ---------------------------------------------------------------------------------------------------------------
// Export of a key (issue 30, item 4): a fresh confirmation, then one server share for the frame's export view.

/**
 * The families whose keys one export shows, each once: one confirmation covers them all. A list empty or naming a
 * family twice is refused in the server's words, naming the field.
 */
export const ExportFamilies = Schema.Array(KeyFamily).pipe(
  Schema.refine((families): families is readonly [KeyFamily, ...Array<KeyFamily>] => families.length > 0 && new Set(families).size === families.length, {
    message: 'families must list one or both key families ("eip155", "solana"), each once',
    toJsonSchema: () => ({ minItems: 1, uniqueItems: true })
  })
)
/** The families of one export. */
export type ExportFamilies = typeof ExportFamilies.Type

/** `POST /api/keys/export/start`: which families' keys the visitor asks to see. */
export const ExportStartRequest = Schema.Struct({ families: ExportFamilies })

/**
 * The answer of `POST /api/keys/export/start`: how the visitor confirms it is them. `code`: a code was mailed to the
 * account's email (`email`), another may be asked after `resendInSeconds`; asked within the mail's cool-down no mail
 * goes, and `codeWaiting` says whether the code mailed before can still be entered (false once it confirmed an export:
 * a new one can be mailed only after `resendInSeconds`). `passkey`: answer the WebAuthn request
 * `options` (JSON, as @simplewebauthn/server made it) and send it back with `state`. `login`: an account with neither
 * (a social login) confirms with a login of the last `withinMinutes` minutes.
 */
export const ExportStartResponse = Schema.Union([
  Schema.Struct({ method: Schema.Literal("code"), email: Schema.String, resendInSeconds: Schema.Int, codeWaiting: Schema.Boolean }),
  Schema.Struct({ method: Schema.Literal("passkey"), state: Schema.String, options: Schema.Record(Schema.String, Schema.Unknown) }),
  Schema.Struct({ method: Schema.Literal("login"), withinMinutes: Schema.Int })
])
/** How an export is confirmed. */
export type ExportStartResponse = typeof ExportStartResponse.Type

/** The confirmation `POST /api/keys/export/confirm` checks: the mailed code, the passkey's answer, or the fresh login. */
export const ExportProof = Schema.Union([
  Schema.Struct({ method: Schema.Literal("code"), otp: Schema.String.pipe(Schema.check(Schema.isMaxLength(32))) }),
  Schema.Struct({ method: Schema.Literal("passkey"), state: Schema.String, response: Schema.Record(Schema.String, Schema.Unknown) }),
  Schema.Struct({ method: Schema.Literal("login") })
])
/** An export's confirmation. */
export type ExportProof = typeof ExportProof.Type

/** `POST /api/keys/export/confirm`: the families the one confirmation is for, and the confirmation. */
export const ExportConfirmRequest = Schema.Struct({ families: ExportFamilies, proof: ExportProof })

/** A grant for one export of the key of `family` by the session that confirmed. */
export const ExportGrant = Schema.Struct({ family: KeyFamily, grant: Schema.String })
/** One family's export grant. */
export type ExportGrant = typeof ExportGrant.Type

/** The answer of `POST /api/keys/export/confirm`: a grant per family confirmed, each good once, for `expiresInSeconds`. */
export const ExportConfirmResponse = Schema.Struct({ grants: Schema.Array(ExportGrant), expiresInSeconds: Schema.Int })

/** `POST /api/keys/export/share`: the server share of `family` for an export, with the confirmation's grant. */
export const ExportShareRequest = Schema.Struct({ family: KeyFamily, grant: Schema.String.pipe(Schema.check(Schema.isMaxLength(128))) })
