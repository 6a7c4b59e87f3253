/**
 * The wallet server's part of split keys (issue 30, item 1; groundwork, routes in `../sharesApi.ts`): it keeps the
 * server share (sealed under the master key: a database alone gives it out to no one) and the recovery share as the
 * frame sealed it. The server share goes to any valid session of its user (the frame signs with it hours after the
 * login); the recovery envelope, and a new split, only to a session that logged in within `freshLoginMs`. It never
 * holds two shares in the clear, so it cannot make the key, master key or not: the recovery envelope opens only with
 * the user's password or passkey, in the frame. Recovery tries are counted per user in the database before they are
 * compared, each wrong one doubling the wait before the next.
 */
import { ed25519 } from "@noble/curves/ed25519"
import { Effect, Schema } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { bytesToHex, recoverMessageAddress } from "viem"
import { fromBase58, fromBase64, toBase64 } from "../../../../src/domain/encoding"
import { type KeyOwner, splitProofMessage } from "../frame/keyShares"
import { type KeyFamily, type KeyShare, RecoveryEnvelope, SHARE_VERSION } from "../sharesApi"
import {
  WalletBadRequest,
  WalletConflict,
  WalletForbidden,
  WalletInternalError,
  WalletNotFound,
  WalletServerApi,
  WalletSession,
  WalletTooManyRequests
} from "../WalletServerApi"
import { openBytes, openKey, sameHash, sealBytes, tokenHash } from "./keys"
import { passkeyRelyingParty } from "./passkeys"
import * as shareStore from "./shareStore"
import { runQuery, type WalletServerDeps, WalletServerEnv } from "./WalletServerEnv"

/** How recent a login must be for the shares to be given out or replaced, unless the server is told otherwise. */
export const FRESH_LOGIN_MS = 10 * 60_000
/** The wait after the first wrong recovery try; doubled at each further wrong one. */
export const RECOVERY_DELAY_BASE_MS = 5_000
/** The longest wait between recovery tries. */
export const RECOVERY_DELAY_MAX_MS = 24 * 60 * 60_000

// What the server share's seal binds: a sealed share moved to another user, family, address or split does not open.
/** The associated data a server share is sealed with under the master key: bound to its user, family, address and split. */
export const shareAad = (userId: string, family: KeyFamily, address: string, splitId: string) => `wallet-share:v1:${userId}:${family}:${address}:${splitId}`

const EnvelopeJson = Schema.fromJsonString(RecoveryEnvelope)

// Whether `proof` is the signature of the split by the key of `owner.address` (viem checks the EIP-191 one).
const provesKey = (owner: KeyOwner, splitId: string, proof: string): Effect.Effect<boolean> => {
  const message = splitProofMessage(owner, splitId)
  const signature = fromBase64(proof) ?? new Uint8Array()
  if (owner.family === "solana") {
    const publicKey = fromBase58(owner.address)
    return Effect.try(() => signature.length === 64 && publicKey?.length === 32 && ed25519.verify(signature, new TextEncoder().encode(message), publicKey)).pipe(
      Effect.orElseSucceed(() => false)
    )
  }
  return Effect.tryPromise(() => recoverMessageAddress({ message, signature: bytesToHex(signature) })).pipe(
    Effect.map((signer) => signer.toLowerCase() === owner.address.toLowerCase()),
    Effect.orElseSucceed(() => false)
  )
}

const secondsUntil = (until: Date, now: number) => Math.max(1, Math.ceil((until.getTime() - now) / 1000))

/** The user's split key of `family`; 404 `no_key_split` when it has none. */
export const splitKeyOf = Effect.fn("WalletServer.splitOf")(function* (deps: WalletServerDeps, userId: string, family: KeyFamily) {
  const split = (yield* runQuery(deps, shareStore.splitKeysOf(userId))).find((row) => row.family === family)
  if (split === undefined) return yield* new WalletNotFound({ code: "no_key_split", error: `This account has no ${family} split key yet` })
  return split
})

/** The user's server share of `family`, opened for its session (to sign with, or, with a grant, to export). */
export const serverShareOf = Effect.fn("WalletServer.serverShareOf")(function* (deps: WalletServerDeps, userId: string, family: KeyFamily) {
  const split = yield* splitKeyOf(deps, userId, family)
  const bytes = openBytes(deps.masterKey, shareAad(userId, split.family, split.address, split.splitId), split.serverShare)
  if (bytes === undefined) return yield* Effect.die(new Error(`The ${split.family} server share cannot be opened with this master key`))
  const share: KeyShare = {
    version: SHARE_VERSION,
    role: "server",
    userId,
    family: split.family,
    address: split.address,
    splitId: split.splitId,
    share: toBase64(bytes)
  }
  bytes.fill(0)
  return share
})

/** `GET /api/keys`, `POST /api/keys/split`, `/api/keys/server-share`, `/api/keys/recovery` and `/api/keys/legacy`. */
export const KeySharesGroupLive = HttpApiBuilder.group(WalletServerApi, "keyShares", (handlers) =>
  Effect.gen(function* () {
    const deps = yield* WalletServerEnv
    const freshLoginMs = deps.freshLoginMs ?? FRESH_LOGIN_MS
    const minutes = Math.max(1, Math.ceil(freshLoginMs / 60_000))
    const freshWithin = `${minutes} minute${minutes === 1 ? "" : "s"}`

    // The session of the request, refused unless its login is within `freshLoginMs`.
    const freshSession = Effect.gen(function* () {
      const session = yield* WalletSession
      const loginAt = yield* runQuery(deps, shareStore.sessionLoginAt(session.tokenHash))
      if (loginAt === undefined || deps.now() - loginAt.getTime() > freshLoginMs) {
        return yield* new WalletForbidden({
          code: "fresh_login_required",
          error: `Log in again to use your wallet's key: this needs a login within the last ${freshWithin}`
        })
      }
      return session
    })

    const splitOf = (userId: string, family: KeyFamily) => splitKeyOf(deps, userId, family)

    // A stored envelope is outside data to this process too: one that does not decode is the server's failure.
    const envelopeOf = (split: shareStore.SplitKeyRow) =>
      Schema.decodeUnknownEffect(EnvelopeJson)(split.recoveryEnvelope).pipe(
        Effect.mapError(() => new WalletInternalError({ code: "internal", error: `The stored ${split.family} recovery share cannot be read` })),
        Effect.orDie
      )

    return handlers
      .handle(
        "list",
        Effect.fn("WalletServer.listSplitKeys")(function* () {
          const session = yield* WalletSession
          const splits = yield* runQuery(deps, shareStore.splitKeysOf(session.userId))
          const keys = yield* Effect.forEach(splits, (split) =>
            Effect.map(envelopeOf(split), (envelope) => ({ family: split.family, address: split.address, splitId: split.splitId, recoveryKdf: envelope.kdf }))
          )
          return { userId: session.userId, keys, passkeyRpId: passkeyRelyingParty(deps).rpId }
        })
      )
      .handle(
        "storeSplit",
        Effect.fn("WalletServer.storeSplit")(function* ({ payload }) {
          const session = yield* freshSession
          const share = payload.server
          if (share.userId !== session.userId) {
            return yield* new WalletForbidden({ code: "share_refused", error: "This share is for another user's account: it was not kept" })
          }
          if (share.role !== "server") {
            return yield* new WalletBadRequest({ code: "share_refused", error: `Only the server share is kept here, not the ${share.role} share` })
          }
          if (yield* runQuery(deps, shareStore.addressOfAnotherUser(session.userId, share.family, share.address))) {
            return yield* new WalletConflict({ code: "address_taken", error: `The ${share.family} address ${share.address} is another account's` })
          }
          if (!(yield* provesKey(share, share.splitId, payload.proof))) {
            return yield* new WalletBadRequest({
              code: "share_refused",
              error: `This split is not signed by the key of ${share.address}: it was not kept`
            })
          }
          const bytes = fromBase64(share.share) ?? new Uint8Array()
          const serverShare = sealBytes(deps.masterKey, shareAad(session.userId, share.family, share.address, share.splitId), bytes)
          bytes.fill(0)
          const row: shareStore.SplitKeyRow = {
            family: share.family,
            address: share.address,
            splitId: share.splitId,
            serverShare,
            recoveryEnvelope: JSON.stringify(payload.recovery.envelope),
            recoveryVerifierHash: tokenHash(payload.recovery.verifier)
          }
          if (payload.create === true) {
            if (!(yield* runQuery(deps, shareStore.storeNewSplit(session.userId, row, new Date(deps.now()))))) {
              return yield* new WalletConflict({
                code: "key_exists",
                error: `This account has a ${share.family} key already (made on another device at the same time): this one was not kept`
              })
            }
            return { splitId: share.splitId, rotated: false }
          }
          const kept = yield* runQuery(deps, shareStore.storeSplit(session.userId, row, new Date(deps.now())))
          if (kept === undefined) {
            return yield* new WalletConflict({
              code: "share_refused",
              error: `This account's ${share.family} key has another address: a rotation keeps the address`
            })
          }
          return { splitId: share.splitId, rotated: kept.rotated }
        })
      )
      .handle(
        "serverShare",
        Effect.fn("WalletServer.serverShare")(function* ({ payload }) {
          const session = yield* WalletSession
          return { share: yield* serverShareOf(deps, session.userId, payload.family) }
        })
      )
      .handle(
        "recovery",
        Effect.fn("WalletServer.recovery")(function* ({ payload }) {
          const session = yield* freshSession
          const split = yield* splitOf(session.userId, payload.family)
          const now = deps.now()
          const attempt = yield* runQuery(
            deps,
            shareStore.takeRecoveryTry(session.userId, new Date(now), { baseMs: RECOVERY_DELAY_BASE_MS, maxMs: RECOVERY_DELAY_MAX_MS })
          )
          if (!attempt.taken) {
            const seconds = secondsUntil(attempt.nextTryAt, now)
            return yield* new WalletTooManyRequests({
              code: "too_many_attempts",
              error: `Too many wrong passwords or passkeys: please try again after ${seconds} seconds`,
              retryAfterSeconds: seconds
            })
          }
          if (!sameHash(tokenHash(payload.verifier), split.recoveryVerifierHash)) {
            const seconds = secondsUntil(attempt.nextTryAt, now)
            return yield* new WalletBadRequest({
              code: "wrong_recovery_secret",
              error: `The password or passkey is not the right one: you may try again after ${seconds} seconds`,
              retryAfterSeconds: seconds
            })
          }
          yield* runQuery(deps, shareStore.clearRecoveryTries(session.userId))
          return { envelope: yield* envelopeOf(split) }
        })
      )
      .handle(
        "legacyKey",
        Effect.fn("WalletServer.legacyKey")(function* ({ payload }) {
          const session = yield* freshSession
          const legacy = yield* runQuery(deps, shareStore.legacyKeyOf(session.userId, payload.family))
          if (legacy === undefined) {
            return yield* new WalletNotFound({ code: "no_legacy_key", error: `This account's ${payload.family} key is split already: the server holds no copy of it` })
          }
          const secret = openKey(deps.masterKey, session.userId, payload.family, legacy.sealed)
          const key = toBase64(secret)
          secret.fill(0)
          return { address: legacy.address, key }
        })
      )
  })
)
