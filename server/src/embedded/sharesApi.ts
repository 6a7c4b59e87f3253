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
 * - `POST /api/keys/server-share` (fresh session): the server share of a family.
 * - `POST /api/keys/recovery` (fresh session): the recovery envelope, given the verifier the recovery secret makes.
 *   Each try is counted before it is compared; a wrong one makes the next wait (5 s, doubled at each wrong one, at
 *   most a day, kept in the database so it holds across processes): 400 `wrong_recovery_secret` with
 *   `retryAfterSeconds`, and any try before then 429 `too_many_attempts` with `Retry-After`. A right one clears it.
 */
import { Schema } from "effect"
import { KeyFamily, KeyShare } from "./frame/keyShares"
import { RecoveryEnvelope, RecoveryKdf } from "./frame/recoveryShare"

const Verifier = Schema.String.pipe(Schema.check(Schema.isPattern(/^[A-Za-z0-9+/]{43}=$/, { expected: "a verifier (32 bytes, base64)" })))

/** One of the user's split keys, as `GET /api/keys` lists it. */
export const SplitKeyInfo = Schema.Struct({
  family: KeyFamily,
  address: Schema.String,
  splitId: Schema.String,
  recoveryKdf: RecoveryKdf
})

/** The answer of `GET /api/keys`: the user's id (what the frame tags shares with) and their split keys. */
export const SplitKeysResponse = Schema.Struct({ userId: Schema.String, keys: Schema.Array(SplitKeyInfo) })

/**
 * `POST /api/keys/split`: the server share of a new split, the recovery share sealed in the frame, and the key's
 * signature of the split (`splitProofMessage` of `./frame/keyShares.ts`, base64), so only who holds the key keeps one.
 */
export const StoreSplitRequest = Schema.Struct({
  server: KeyShare,
  recovery: Schema.Struct({ envelope: RecoveryEnvelope, verifier: Verifier }),
  proof: Schema.String.pipe(Schema.check(Schema.isPattern(/^[A-Za-z0-9+/]{86,88}={0,2}$/, { expected: "a signature (64 or 65 bytes, base64)" })))
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
