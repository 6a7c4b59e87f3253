/**
 * The frame's split keys as one service (issue 30, item 1; groundwork, not yet wired into the frame's messages):
 * making a user's key and handing out its shares, running one operation with the key, and recovering on a new device.
 * It is built from two services with their own layers, so each side is swapped in tests:
 * - {@link DeviceShares}: the device share in the frame origin's storage (`layerStorage` over the frame's
 *   `FrameStorage`; the cross-site storage work will give it another backend);
 * - {@link ShareServer}: the wallet server's split-key routes (`layerApi` over the frame's `WalletApi`).
 */
import { xchacha20poly1305 } from "@noble/ciphers/chacha.js"
import { hkdf } from "@noble/hashes/hkdf"
import { sha256 } from "@noble/hashes/sha2"
import { Context, Data, Effect, Layer, Option, Schema } from "effect"
import { type SplitKeysApi, WalletApiError } from "./apiClient"
import type { FrameStorage } from "./frameLogic"
import { fromBase64, toBase64 } from "../../../../src/domain/encoding"
import { type KeyFamily, type KeyShare, KeyShareJson, type RecoveryEnvelope, type RecoveryKdf } from "../sharesApi"
import {
  createSplitKey,
  encodeShare,
  exportedKey,
  type KeyCheckFailed,
  type KeyOwner,
  randomBytes,
  rotateShares,
  type SharesMismatch,
  type ShareUnreadable,
  splitKey,
  withKey
} from "./keyShares"
import {
  deriveRecoveryKeys,
  openRecoveryShare,
  type RecoverySecret,
  type RecoverySecretInvalid,
  type RecoveryUnreadable,
  sealRecoveryShare
} from "./recoveryShare"

/** The frame storage's key of a user's device share of one family. */
export const deviceShareKey = (userId: string, family: KeyFamily): string => `wr-frame/device-share/${userId}/${family}`

/** The frame storage's key of the device secret a user's recovery share of one family is sealed under (KDF `device`). */
export const deviceSecretKey = (userId: string, family: KeyFamily): string => `wr-frame/device-secret/${userId}/${family}`

/** What making, using or recovering a split key can fail with in the frame, beside the server's answers. */
export type SplitKeyError = ShareUnreadable | SharesMismatch | KeyCheckFailed | RecoverySecretInvalid | RecoveryUnreadable

/** The device share of one user's key of one family, in the frame's storage. */
export class DeviceShares extends Context.Service<
  DeviceShares,
  {
    readonly get: (userId: string, family: KeyFamily) => Effect.Effect<KeyShare | undefined>
    readonly set: (share: KeyShare) => Effect.Effect<void>
    /** Forgets the device share of one user's key of one family. */
    readonly remove: (userId: string, family: KeyFamily) => Effect.Effect<void>
    /** The 32-byte secret the recovery share is sealed under until a password or passkey protects it. */
    readonly getSecret: (userId: string, family: KeyFamily) => Effect.Effect<Uint8Array | undefined>
    /** Keeps that secret, or with `undefined` forgets it (a password or passkey protects the share from then on). */
    readonly setSecret: (userId: string, family: KeyFamily, secret: Uint8Array | undefined) => Effect.Effect<void>
  }
>()("wallet-runtime/frame/DeviceShares") {
  /**
   * Over the frame's storage, one JSON item per user and family; an item that does not decode counts as none. Only
   * over storage the wallet server never receives: a cookie kept by the frame travels with the frame page's requests
   * to its server, which would then hold two shares ({@link DeviceShares.layerSealed} is for that storage).
   */
  static readonly layerStorage = (storage: FrameStorage) => Layer.succeed(DeviceShares)(deviceSharesOver(storage))

  /**
   * Over storage that travels to the wallet server (the cross-site store's cookies, FrameStore.ts): each value sealed
   * with XChaCha20-Poly1305 (`@noble/ciphers`) under a key HKDF-SHA256 makes from the session token, which the server
   * keeps only as a SHA-256, and bound to its storage key. So the server never holds the device share in the clear;
   * a new login (another token) finds none and recovers with the password or passkey.
   */
  static readonly layerSealed = (storage: FrameStorage, token: string) => Layer.succeed(DeviceShares)(deviceSharesOver(sealedUnder(storage, token)))

  /** {@link DeviceShares.layerSealed} where the frame's storage travels to the server (`sealed`), else {@link DeviceShares.layerStorage}. */
  static readonly layerFor = (storage: FrameStorage, token: string, sealed: boolean) =>
    sealed ? DeviceShares.layerSealed(storage, token) : DeviceShares.layerStorage(storage)
}

const encoder = new TextEncoder()

// `storage` with every value sealed under the session `token` (see DeviceShares.layerSealed); one that does not open is none.
const sealedUnder = (storage: FrameStorage, token: string): FrameStorage => {
  const keyOf = (item: string) => hkdf(sha256, encoder.encode(token), encoder.encode("wr-frame/device-seal/v1"), encoder.encode(item), 32)
  return {
    getItem: (item) => {
      const sealed = fromBase64(storage.getItem(item) ?? "")
      if (sealed === undefined || sealed.length < 24 + 16) return null
      try {
        return new TextDecoder().decode(xchacha20poly1305(keyOf(item), sealed.slice(0, 24), encoder.encode(item)).decrypt(sealed.slice(24)))
      } catch {
        return null
      }
    },
    setItem: (item, value) => {
      const nonce = randomBytes(24)
      const ciphertext = xchacha20poly1305(keyOf(item), nonce, encoder.encode(item)).encrypt(encoder.encode(value))
      const sealed = new Uint8Array(nonce.length + ciphertext.length)
      sealed.set(nonce)
      sealed.set(ciphertext, nonce.length)
      storage.setItem(item, toBase64(sealed))
    },
    removeItem: (item) => storage.removeItem(item)
  }
}

// The device shares and secrets over one storage, one JSON item (or base64 secret) per user and family.
const deviceSharesOver = (storage: FrameStorage): DeviceShares["Service"] => ({
      get: (userId, family) =>
        Effect.sync(() => {
          const text = storage.getItem(deviceShareKey(userId, family))
          return text === null ? undefined : Option.getOrUndefined(Schema.decodeUnknownOption(KeyShareJson)(text))
        }),
      set: (share) => Effect.sync(() => storage.setItem(deviceShareKey(share.userId, share.family), encodeShare(share))),
      remove: (userId, family) => Effect.sync(() => storage.removeItem(deviceShareKey(userId, family))),
      getSecret: (userId, family) =>
        Effect.sync(() => {
          const secret = fromBase64(storage.getItem(deviceSecretKey(userId, family)) ?? "")
          return secret?.length === 32 ? secret : undefined
        }),
      setSecret: (userId, family, secret) =>
        Effect.sync(() =>
          secret === undefined ? storage.removeItem(deviceSecretKey(userId, family)) : storage.setItem(deviceSecretKey(userId, family), toBase64(secret))
        )
})

/** A call to the wallet server's split-key routes that failed: its words, code and status. */
export class ShareServerError extends Data.TaggedError("ShareServerError")<{
  readonly message: string
  readonly code: string | undefined
  readonly status: number
}> {}

/** One of the user's split keys as the server lists it. */
export interface ServerSplitKey {
  readonly family: KeyFamily
  readonly address: string
  readonly splitId: string
  readonly recoveryKdf: RecoveryKdf
}

/** The wallet server's split-key routes, for the session of the frame. */
export class ShareServer extends Context.Service<
  ShareServer,
  {
    readonly list: Effect.Effect<{ readonly userId: string; readonly keys: ReadonlyArray<ServerSplitKey> }, ShareServerError>
    readonly storeSplit: (body: {
      readonly server: KeyShare
      readonly recovery: { readonly envelope: RecoveryEnvelope; readonly verifier: string }
      readonly proof: string
      readonly create?: true
    }) => Effect.Effect<{ readonly splitId: string; readonly rotated: boolean }, ShareServerError>
    readonly serverShare: (family: KeyFamily) => Effect.Effect<KeyShare, ShareServerError>
    readonly recovery: (family: KeyFamily, verifier: string) => Effect.Effect<RecoveryEnvelope, ShareServerError>
    /** The key of `family` the server sealed before keys were split (issue 30, item 6): 404 `no_legacy_key` once split. */
    readonly legacyKey: (family: KeyFamily) => Effect.Effect<{ readonly address: string; readonly key: string }, ShareServerError>
    /** The server share of `family` for an export, given only with a fresh confirmation's `grant` (issue 30, item 4). */
    readonly exportShare: (family: KeyFamily, grant: string) => Effect.Effect<KeyShare, ShareServerError>
  }
>()("wallet-runtime/frame/ShareServer") {
  /** Over the frame's API client, with the session token `token()` gives at each call. */
  static readonly layerApi = (api: SplitKeysApi, token: () => string) => {
    const call = <A>(run: (token: string) => Promise<A>) =>
      Effect.tryPromise({
        try: () => run(token()),
        catch: (cause) =>
          cause instanceof WalletApiError
            ? new ShareServerError({ message: cause.message, code: cause.code, status: cause.status })
            : new ShareServerError({ message: String(cause), code: undefined, status: 0 })
      })
    return Layer.succeed(ShareServer)({
      list: call((t) => api.splitKeys(t)),
      storeSplit: (body) => call((t) => api.storeSplit(t, body)),
      serverShare: (family) => call((t) => api.serverShare(t, family)).pipe(Effect.map((answer) => answer.share)),
      recovery: (family, verifier) => call((t) => api.recovery(t, family, verifier)).pipe(Effect.map((answer) => answer.envelope)),
      legacyKey: (family) => call((t) => api.legacyKey(t, family)),
      exportShare: (family, grant) => call((t) => api.exportShare(t, family, grant)).pipe(Effect.map((answer) => answer.share))
    })
  }
}

/** The frame has no device share of this key: recover it with the password or passkey. */
export class DeviceShareMissing extends Data.TaggedError("DeviceShareMissing")<{ readonly message: string }> {}

/** The user has no split key of this family on the server. */
export class SplitKeyMissing extends Data.TaggedError("SplitKeyMissing")<{ readonly message: string }> {}

/** The frame's split keys: make, use, recover. */
export class SplitKeys extends Context.Service<
  SplitKeys,
  {
    /**
     * Makes the user's key of `family`, keeps the device share, hands the server its share and the sealed recovery
     * share. The server keeps it only while the user has no key of that family: else 409 `key_exists` (another device
     * made it first), and this device keeps nothing of it.
     */
    readonly create: (family: KeyFamily, secret: RecoverySecret) => Effect.Effect<{ readonly address: string }, ShareServerError | SplitKeyError>
    /** Runs `use` with the key (device share + server share), wiped when `use` ends. */
    readonly withKey: <A, E>(
      family: KeyFamily,
      use: (secret: Uint8Array) => Effect.Effect<A, E>
    ) => Effect.Effect<A, E | ShareServerError | DeviceShareMissing | SplitKeyMissing | SplitKeyError>
    /**
     * On a device without a device share: the recovery share (opened with `secret`) and the server's make the key,
     * which is split again (same address) so this device gets its own share; the old shares stop combining.
     */
    readonly recover: (family: KeyFamily, secret: RecoverySecret) => Effect.Effect<{ readonly address: string }, ShareServerError | SplitKeyMissing | SplitKeyError>
    /**
     * Issue 30, item 6: when the server still holds the user's key of `family` sealed (made before keys were split),
     * takes it once (a fresh login), splits it here (same address) with the recovery share under a new device secret,
     * and hands the server its share, which deletes the sealed copy in the same transaction. Answers the address, and
     * whether there was a key to split.
     */
    readonly migrate: (family: KeyFamily) => Effect.Effect<{ readonly address: string; readonly migrated: boolean } | undefined, ShareServerError | SplitKeyError>
    /**
     * The visitor protects the wallet: the device and server shares make the key, which is split again (same address)
     * with the new recovery share sealed under `secret`; the recovery share sealed before (under a secret kept on the
     * device, or an older password) stops combining.
     */
    readonly protect: (
      family: KeyFamily,
      secret: RecoverySecret
    ) => Effect.Effect<{ readonly address: string }, ShareServerError | DeviceShareMissing | SplitKeyMissing | SplitKeyError>
    /**
     * The key as the family's wallets import it (`exportedKey`), for the frame's export view only: the server share
     * comes with the `grant` of a fresh confirmation, used up by this call.
     */
    readonly exportKey: (family: KeyFamily, grant: string) => Effect.Effect<string, ShareServerError | DeviceShareMissing | SplitKeyMissing | SplitKeyError>
  }
>()("wallet-runtime/frame/SplitKeys") {
  /** Over {@link DeviceShares} and {@link ShareServer}. */
  static readonly layer = Layer.effect(SplitKeys)(
    Effect.gen(function* () {
      const device = yield* DeviceShares
      const server = yield* ShareServer

      const splitOf = Effect.fn("SplitKeys.splitOf")(function* (family: KeyFamily) {
        const listed = yield* server.list
        const split = listed.keys.find((key) => key.family === family)
        if (split === undefined) return yield* new SplitKeyMissing({ message: `This account has no ${family} key yet` })
        return { owner: { userId: listed.userId, family, address: split.address } satisfies KeyOwner, kdf: split.recoveryKdf }
      })

      // Keeps the device share (and a device secret), then hands the server its share and the recovery share sealed
      // under `secret`: in that order, so a split the server keeps always has its device share here. A new key
      // (`isNew`) the server refuses (another device made the user's key first) leaves nothing of it here.
      const keep = Effect.fn("SplitKeys.keep")(function* (
        owner: KeyOwner,
        split: { readonly device: KeyShare; readonly server: KeyShare; readonly recovery: KeyShare; readonly proof: string },
        secret: RecoverySecret,
        isNew = false
      ) {
        const recovery = yield* sealRecoveryShare(owner, split.recovery, secret)
        yield* device.set(split.device)
        if (secret._tag === "device") yield* device.setSecret(owner.userId, owner.family, secret.secret)
        yield* server.storeSplit({ server: split.server, recovery, proof: split.proof, ...(isNew ? { create: true as const } : {}) }).pipe(
          Effect.tapError(() =>
            isNew ? Effect.andThen(device.remove(owner.userId, owner.family), device.setSecret(owner.userId, owner.family, undefined)) : Effect.void
          )
        )
        // Once the server holds a recovery share sealed under a password or passkey, the secret kept on the device
        // opens nothing any more: forgotten, only then (a refused split leaves the secret that opens the server's envelope).
        if (secret._tag !== "device") yield* device.setSecret(owner.userId, owner.family, undefined)
      })

      // The device share and the server's, the two a known device puts the key together from.
      // The server share is the signing one, or with `grant` the export's.
      const deviceAndServer = Effect.fn("SplitKeys.deviceAndServer")(function* (family: KeyFamily, grant?: string) {
        const { owner } = yield* splitOf(family)
        const share = yield* device.get(owner.userId, family)
        if (share === undefined) {
          return yield* new DeviceShareMissing({ message: `This device has no share of the ${family} key: recover it with your password or passkey` })
        }
        const fromServer = yield* (grant === undefined ? server.serverShare(family) : server.exportShare(family, grant))
        return { owner, shares: [share, fromServer] as const }
      })

      return SplitKeys.of({
        create: Effect.fn("SplitKeys.create")(function* (family, secret) {
          const { userId } = yield* server.list
          const split = yield* createSplitKey(userId, family)
          yield* keep({ userId, family, address: split.address }, split, secret, true)
          return { address: split.address }
        }),
        withKey: (family, use) =>
          Effect.gen(function* () {
            const { owner, shares } = yield* deviceAndServer(family)
            return yield* withKey(owner, shares, use)
          }).pipe(Effect.withSpan("SplitKeys.withKey")),
        protect: Effect.fn("SplitKeys.protect")(function* (family, secret) {
          const { owner, shares } = yield* deviceAndServer(family)
          const next = yield* rotateShares(owner, shares)
          yield* keep(owner, next, secret)
          return { address: owner.address }
        }),
        exportKey: Effect.fn("SplitKeys.exportKey")(function* (family, grant) {
          const { owner, shares } = yield* deviceAndServer(family, grant)
          return yield* withKey(owner, shares, (secret) => Effect.sync(() => exportedKey(family, secret)))
        }),
        recover: Effect.fn("SplitKeys.recover")(function* (family, secret) {
          const { owner, kdf } = yield* splitOf(family)
          const { verifier } = yield* deriveRecoveryKeys(owner, secret, kdf)
          const envelope = yield* server.recovery(family, toBase64(verifier))
          const recoveryShare = yield* openRecoveryShare(owner, envelope, secret)
          const fromServer = yield* server.serverShare(family)
          const next = yield* rotateShares(owner, [recoveryShare, fromServer])
          yield* keep(owner, next, secret)
          return { address: owner.address }
        }),
        migrate: Effect.fn("SplitKeys.migrate")(function* (family) {
          const listed = yield* server.list
          const split = listed.keys.find((key) => key.family === family)
          if (split !== undefined) return { address: split.address, migrated: false }
          const legacy = yield* server.legacyKey(family).pipe(
            Effect.map(Option.some),
            Effect.catchIf((error) => error.code === "no_legacy_key", () => Effect.succeed(Option.none()))
          )
          if (Option.isNone(legacy)) return undefined
          const owner: KeyOwner = { userId: listed.userId, family, address: legacy.value.address }
          const key = fromBase64(legacy.value.key) ?? new Uint8Array()
          const shares = yield* splitKey(owner, key).pipe(Effect.ensuring(Effect.sync(() => key.fill(0))))
          yield* keep(owner, shares, { _tag: "device", secret: randomBytes(32) })
          return { address: owner.address, migrated: true }
        })
      })
    })
  )
}
