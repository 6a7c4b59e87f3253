/**
 * The frame's SplitKeys service (server/src/embedded/frame/SplitKeys.ts) over the frame's storage and a wallet server
 * in memory (a ShareServer layer that keeps what the real one keeps and checks the verifier the same way): making a
 * key keeps only the device share in the frame; the key is put together for one operation; a new device recovers
 * with the password or passkey, gets its own share, and the old device's share stops combining.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { makeMemoryStorage } from "../../../server/src/embedded/frame/frameLogic"
import { ed25519 } from "@noble/curves/ed25519"
import { privateKeyToAccount } from "viem/accounts"
import { addressOf, combineShares, newKey } from "../../../server/src/embedded/frame/keyShares"
import { endAttempt, oneAttempt, openRecoveryShare, type RecoverySecret } from "../../../server/src/embedded/frame/recoveryShare"
import { fromBase58, toBase64 } from "../../../src/domain/encoding"
import type { KeyFamily, KeyShare, RecoveryEnvelope } from "../../../server/src/embedded/sharesApi"
import { DeviceShares, deviceSecretKey, deviceShareKey, ShareServer, ShareServerError, SplitKeys } from "../../../server/src/embedded/frame/SplitKeys"

const USER = "user-1"
const GRANT = "a-fresh-confirmation"

/** A wallet server in memory: per family the server share, the envelope and the verifier; a wrong verifier is refused. */
const makeServer = () => {
  const kept = new Map<KeyFamily, { share: KeyShare; envelope: RecoveryEnvelope; verifier: string; splitId: string }>()
  // Keys the server sealed before keys were split: given out until a split of the same address is kept.
  const legacy = new Map<KeyFamily, { address: string; key: string }>()
  const layer = Layer.succeed(ShareServer)({
    list: Effect.sync(() => ({
      userId: USER,
      keys: [...kept.entries()].map(([family, split]) => ({ family, address: split.share.address, splitId: split.splitId, recoveryKdf: split.envelope.kdf }))
    })),
    storeSplit: (body) =>
      Effect.sync(() => {
        const rotated = kept.has(body.server.family)
        kept.set(body.server.family, { share: body.server, envelope: body.recovery.envelope, verifier: body.recovery.verifier, splitId: body.server.splitId })
        if (legacy.get(body.server.family)?.address === body.server.address) legacy.delete(body.server.family)
        return { splitId: body.server.splitId, rotated }
      }),
    serverShare: (family) => {
      const split = kept.get(family)
      return split === undefined ? Effect.fail(new ShareServerError({ message: "none", code: "no_key_split", status: 404 })) : Effect.succeed(split.share)
    },
    recovery: (family, verifier) => {
      const split = kept.get(family)
      if (split === undefined) return Effect.fail(new ShareServerError({ message: "none", code: "no_key_split", status: 404 }))
      return split.verifier === verifier
        ? Effect.succeed(split.envelope)
        : Effect.fail(new ShareServerError({ message: "The password or passkey is not the right one", code: "wrong_recovery_secret", status: 400 }))
    },
    legacyKey: (family) => {
      const key = legacy.get(family)
      return key === undefined ? Effect.fail(new ShareServerError({ message: "split already", code: "no_legacy_key", status: 404 })) : Effect.succeed(key)
    },
    // The export's server share: only with the grant a confirmation gave.
    exportShare: (family, grant) => {
      const split = kept.get(family)
      if (grant !== GRANT) return Effect.fail(new ShareServerError({ message: "Confirm it is you again to show this key", code: "export_not_confirmed", status: 403 }))
      return split === undefined ? Effect.fail(new ShareServerError({ message: "none", code: "no_key_split", status: 404 })) : Effect.succeed(split.share)
    }
  })
  return { kept, legacy, layer }
}

const deviceLayer = (storage = makeMemoryStorage()) => ({ storage, layer: DeviceShares.layerStorage(storage) })
const splitKeysOn = (device: ReturnType<typeof deviceLayer>, server: ReturnType<typeof makeServer>) =>
  SplitKeys.layer.pipe(Layer.provide(Layer.mergeAll(device.layer, server.layer)))

const prf = crypto.getRandomValues(new Uint8Array(32))

describe("SplitKeys", () => {
  it.effect("create keeps the device share in the frame and the server's share and sealed recovery share on the server; withKey makes the key for one operation", () =>
    Effect.gen(function* () {
      const server = makeServer()
      const device = deviceLayer()
      const { address } = yield* Effect.flatMap(Effect.service(SplitKeys), (keys) => keys.create("solana", { _tag: "passkey", prf })).pipe(
        Effect.provide(splitKeysOn(device, server))
      )
      const stored = device.storage.getItem(deviceShareKey(USER, "solana"))
      expect(JSON.parse(stored ?? "{}")).toMatchObject({ role: "device", userId: USER, family: "solana", address })
      expect(server.kept.get("solana")?.share.role).toBe("server")
      expect(server.kept.get("solana")?.envelope.kdf.name).toBe("passkey-prf")
      let seen: Uint8Array | undefined
      const derived = yield* Effect.flatMap(Effect.service(SplitKeys), (keys) =>
        keys.withKey("solana", (secret) => {
          seen = secret
          return Effect.succeed(addressOf("solana", secret))
        })
      ).pipe(Effect.provide(splitKeysOn(device, server)))
      expect(derived).toBe(address)
      expect(seen).toEqual(new Uint8Array(32))
    })
  )

  it.effect("a new device has no share until it recovers with the passkey; then it signs as the same address and the old device's share is retired", () =>
    Effect.gen(function* () {
      const server = makeServer()
      const first = deviceLayer()
      const { address } = yield* Effect.flatMap(Effect.service(SplitKeys), (keys) => keys.create("eip155", { _tag: "passkey", prf })).pipe(
        Effect.provide(splitKeysOn(first, server))
      )
      const oldDeviceShare = JSON.parse(first.storage.getItem(deviceShareKey(USER, "eip155")) ?? "{}") as KeyShare
      const second = deviceLayer()
      const onSecond = splitKeysOn(second, server)
      const missing = yield* Effect.flip(Effect.flatMap(Effect.service(SplitKeys), (keys) => keys.withKey("eip155", () => Effect.void)).pipe(Effect.provide(onSecond)))
      expect(missing).toMatchObject({ _tag: "DeviceShareMissing", message: "This device has no share of the eip155 key: recover it with your password or passkey" })
      const wrong = new Uint8Array(32).fill(1)
      const refused = yield* Effect.flip(Effect.flatMap(Effect.service(SplitKeys), (keys) => keys.recover("eip155", { _tag: "passkey", prf: wrong })).pipe(Effect.provide(onSecond)))
      expect(refused).toMatchObject({ _tag: "ShareServerError", code: "wrong_recovery_secret" })
      expect(yield* Effect.flatMap(Effect.service(SplitKeys), (keys) => keys.recover("eip155", { _tag: "passkey", prf })).pipe(Effect.provide(onSecond))).toEqual({ address })
      expect(yield* Effect.flatMap(Effect.service(SplitKeys), (keys) => keys.withKey("eip155", (secret) => Effect.succeed(addressOf("eip155", secret)))).pipe(Effect.provide(onSecond))).toBe(address)
      const owner = { userId: USER, family: "eip155" as const, address }
      const retired = yield* Effect.flip(combineShares(owner, [oldDeviceShare, server.kept.get("eip155")?.share as KeyShare]))
      expect(retired._tag).toBe("SharesMismatch")
    })
  )

  it.effect("a device share the storage holds corrupted counts as none; a family without a key says so", () =>
    Effect.gen(function* () {
      const server = makeServer()
      const device = deviceLayer()
      yield* Effect.flatMap(Effect.service(SplitKeys), (keys) => keys.create("eip155", { _tag: "passkey", prf })).pipe(Effect.provide(splitKeysOn(device, server)))
      device.storage.setItem(deviceShareKey(USER, "eip155"), "{not json")
      const missing = yield* Effect.flip(Effect.flatMap(Effect.service(SplitKeys), (keys) => keys.withKey("eip155", () => Effect.void)).pipe(Effect.provide(splitKeysOn(device, server))))
      expect(missing._tag).toBe("DeviceShareMissing")
      const none = yield* Effect.flip(Effect.flatMap(Effect.service(SplitKeys), (keys) => keys.withKey("solana", () => Effect.void)).pipe(Effect.provide(splitKeysOn(device, server))))
      expect(none).toMatchObject({ _tag: "SplitKeyMissing", message: "This account has no solana key yet" })
    })
  )

  it.effect("migrate splits a key the server sealed (same address) under a device secret kept beside the device share, once; without one it does nothing", () =>
    Effect.gen(function* () {
      const server = makeServer()
      const device = deviceLayer()
      const old = newKey("eip155")
      server.legacy.set("eip155", { address: old.address, key: toBase64(old.secret) })
      const migrate = (family: KeyFamily) => Effect.flatMap(Effect.service(SplitKeys), (keys) => keys.migrate(family)).pipe(Effect.provide(splitKeysOn(device, server)))
      expect(yield* migrate("eip155")).toEqual({ address: old.address, migrated: true })
      expect(server.legacy.has("eip155")).toBe(false)
      expect(server.kept.get("eip155")?.envelope.kdf.name).toBe("device")
      const owner = { userId: USER, family: "eip155" as const, address: old.address }
      const stored = device.storage.getItem(deviceShareKey(USER, "eip155"))
      expect(JSON.parse(stored ?? "{}")).toMatchObject({ role: "device", address: old.address })
      // The device secret opens the recovery share, which with the server's makes the same key.
      const secret = yield* Effect.flatMap(Effect.service(DeviceShares), (shares) => shares.getSecret(USER, "eip155")).pipe(Effect.provide(device.layer))
      expect(device.storage.getItem(deviceSecretKey(USER, "eip155"))).not.toBeNull()
      const kept = server.kept.get("eip155")
      const recovery = yield* openRecoveryShare(owner, kept!.envelope, { _tag: "device", secret: secret ?? new Uint8Array() })
      expect(yield* combineShares(owner, [recovery, kept!.share])).toEqual(old.secret)
      // Once split, nothing more to do; a family with no key on the server at all is left alone.
      expect(yield* migrate("eip155")).toEqual({ address: old.address, migrated: false })
      expect(yield* migrate("solana")).toBeUndefined()
    })
  )

  it.effect("over storage that travels to the server, the device share and secret are kept sealed under the session: the same session opens them, another finds none", () =>
    Effect.gen(function* () {
      const storage = makeMemoryStorage()
      const old = newKey("solana")
      const split = yield* Effect.flatMap(Effect.service(SplitKeys), (keys) => keys.create("solana", { _tag: "device", secret: old.secret })).pipe(
        Effect.provide(SplitKeys.layer.pipe(Layer.provide(Layer.mergeAll(DeviceShares.layerSealed(storage, "token-1"), makeServer().layer))))
      )
      const stored = storage.getItem(deviceShareKey(USER, "solana")) ?? ""
      expect(stored).not.toBe("")
      expect(stored).not.toContain(split.address)
      expect(storage.getItem(deviceSecretKey(USER, "solana"))).not.toBe(toBase64(old.secret))
      const read = (token: string) =>
        Effect.flatMap(Effect.service(DeviceShares), (shares) => Effect.all([shares.get(USER, "solana"), shares.getSecret(USER, "solana")])).pipe(
          Effect.provide(DeviceShares.layerSealed(storage, token))
        )
      const [share, secret] = yield* read("token-1")
      expect(share).toMatchObject({ role: "device", address: split.address })
      expect(secret).toEqual(old.secret)
      expect(yield* read("token-2")).toEqual([undefined, undefined])
    })
  )

  it.effect("protect: the same address, the recovery share sealed anew under the visitor's secret; the secret kept on the device no longer recovers, the visitor's does on a new device", () =>
    Effect.gen(function* () {
      const server = makeServer()
      const device = deviceLayer()
      const onDevice = splitKeysOn(device, server)
      const kept = crypto.getRandomValues(new Uint8Array(32))
      const chosen = crypto.getRandomValues(new Uint8Array(32))
      const { address } = yield* Effect.flatMap(Effect.service(SplitKeys), (keys) => keys.create("eip155", { _tag: "passkey", prf: kept })).pipe(Effect.provide(onDevice))
      const before = server.kept.get("eip155")
      expect(yield* Effect.flatMap(Effect.service(SplitKeys), (keys) => keys.protect("eip155", { _tag: "passkey", prf: chosen })).pipe(Effect.provide(onDevice))).toEqual({ address })
      expect(server.kept.get("eip155")?.splitId).not.toBe(before?.splitId)
      expect(server.kept.get("eip155")?.verifier).not.toBe(before?.verifier)
      // This device still signs as the same address with its new share.
      expect(yield* Effect.flatMap(Effect.service(SplitKeys), (keys) => keys.withKey("eip155", (secret) => Effect.succeed(addressOf("eip155", secret)))).pipe(Effect.provide(onDevice))).toBe(address)
      const onNew = splitKeysOn(deviceLayer(), server)
      const old = yield* Effect.flip(Effect.flatMap(Effect.service(SplitKeys), (keys) => keys.recover("eip155", { _tag: "passkey", prf: kept })).pipe(Effect.provide(onNew)))
      expect(old).toMatchObject({ _tag: "ShareServerError", code: "wrong_recovery_secret" })
      expect(yield* Effect.flatMap(Effect.service(SplitKeys), (keys) => keys.recover("eip155", { _tag: "passkey", prf: chosen })).pipe(Effect.provide(onNew))).toEqual({ address })
    })
  )

  it.effect("protect after a migration forgets the secret kept on the device once the server holds the new split, and the address stays", () =>
    Effect.gen(function* () {
      const server = makeServer()
      const device = deviceLayer()
      const old = newKey("eip155")
      server.legacy.set("eip155", { address: old.address, key: toBase64(old.secret) })
      const onDevice = splitKeysOn(device, server)
      yield* Effect.flatMap(Effect.service(SplitKeys), (keys) => keys.migrate("eip155")).pipe(Effect.provide(onDevice))
      expect(device.storage.getItem(deviceSecretKey(USER, "eip155"))).not.toBeNull()
      const chosen = crypto.getRandomValues(new Uint8Array(32))
      expect(yield* Effect.flatMap(Effect.service(SplitKeys), (keys) => keys.protect("eip155", { _tag: "passkey", prf: chosen })).pipe(Effect.provide(onDevice))).toEqual({
        address: old.address
      })
      expect(server.kept.get("eip155")?.envelope.kdf.name).toBe("passkey-prf")
      expect(device.storage.getItem(deviceSecretKey(USER, "eip155"))).toBeNull()
    })
  )

  it.effect("protect on a device without its share is refused by name and changes nothing on the server", () =>
    Effect.gen(function* () {
      const server = makeServer()
      yield* Effect.flatMap(Effect.service(SplitKeys), (keys) => keys.create("solana", { _tag: "passkey", prf })).pipe(Effect.provide(splitKeysOn(deviceLayer(), server)))
      const before = server.kept.get("solana")
      const refused = yield* Effect.flip(
        Effect.flatMap(Effect.service(SplitKeys), (keys) => keys.protect("solana", { _tag: "passkey", prf: new Uint8Array(32).fill(7) })).pipe(Effect.provide(splitKeysOn(deviceLayer(), server)))
      )
      expect(refused._tag).toBe("DeviceShareMissing")
      expect(server.kept.get("solana")).toBe(before)
    })
  )

  it.effect("exportKey (with a confirmation's grant): the eip155 key as 0x hex of the account's address; the solana keypair in base58 whose public half is the address", () =>
    Effect.gen(function* () {
      const server = makeServer()
      const onDevice = splitKeysOn(deviceLayer(), server)
      const evm = yield* Effect.flatMap(Effect.service(SplitKeys), (keys) => keys.create("eip155", { _tag: "passkey", prf })).pipe(Effect.provide(onDevice))
      const sol = yield* Effect.flatMap(Effect.service(SplitKeys), (keys) => keys.create("solana", { _tag: "passkey", prf })).pipe(Effect.provide(onDevice))
      const hex = yield* Effect.flatMap(Effect.service(SplitKeys), (keys) => keys.exportKey("eip155", GRANT)).pipe(Effect.provide(onDevice))
      expect(hex).toMatch(/^0x[0-9a-f]{64}$/)
      expect(privateKeyToAccount(hex as `0x${string}`).address).toBe(evm.address)
      const keypair = fromBase58(yield* Effect.flatMap(Effect.service(SplitKeys), (keys) => keys.exportKey("solana", GRANT)).pipe(Effect.provide(onDevice)))
      expect(keypair?.length).toBe(64)
      const seed = keypair?.slice(0, 32) ?? new Uint8Array(32)
      expect(addressOf("solana", seed)).toBe(sol.address)
      expect(keypair?.slice(32)).toEqual(ed25519.getPublicKey(seed))
      const missing = yield* Effect.flip(Effect.flatMap(Effect.service(SplitKeys), (keys) => keys.exportKey("eip155", GRANT)).pipe(Effect.provide(splitKeysOn(deviceLayer(), server))))
      expect(missing._tag).toBe("DeviceShareMissing")
      // Without the confirmation's grant the server share does not come, and no key is made.
      const unconfirmed = yield* Effect.flip(Effect.flatMap(Effect.service(SplitKeys), (keys) => keys.exportKey("eip155", "another grant")).pipe(Effect.provide(onDevice)))
      expect(unconfirmed).toMatchObject({ _tag: "ShareServerError", code: "export_not_confirmed" })
    })
  )

  it.effect(
    "one attempt stretches a password once per salt: protect seals both accounts under one salt, a recovery of them stretches once; envelopes sealed before (a salt per account) still recover, once per salt, and are sealed anew under one",
    () =>
      Effect.gen(function* () {
        const password = "correct horse battery staple"
        const families = ["eip155", "solana"] as const
        const server = makeServer()
        const first = splitKeysOn(deviceLayer(), server)
        const addresses = yield* Effect.forEach(families, (family) =>
          Effect.flatMap(Effect.service(SplitKeys), (keys) => keys.create(family, { _tag: "passkey", prf })).pipe(Effect.provide(first))
        )
        // The way before: each account protected on its own, each with a salt of its own.
        yield* Effect.forEach(families, (family) =>
          Effect.flatMap(Effect.service(SplitKeys), (keys) => keys.protect(family, { _tag: "password", password })).pipe(Effect.provide(first))
        )
        const salts = () => families.map((family) => server.kept.get(family)?.envelope.kdf.salt)
        const [evmSalt, solanaSalt] = salts()
        expect(evmSalt).not.toBe(solanaSalt)

        // Each account's steps (the verifier, opening, sealing anew) and each account with the same salt use one stretch.
        const recoverAll = (secret: RecoverySecret) =>
          Effect.forEach(families, (family) =>
            Effect.flatMap(Effect.service(SplitKeys), (keys) => keys.recover(family, secret)).pipe(Effect.provide(splitKeysOn(deviceLayer(), server)))
          )
        const old = oneAttempt({ _tag: "password", password })
        expect(yield* recoverAll(old)).toEqual(addresses)
        expect(old._tag === "password" && old.attempt?.stretched.size).toBe(2)
        // Sealed anew under the first account's KDF, already stretched.
        expect(salts()).toEqual([evmSalt, evmSalt])
        endAttempt(old)
        expect(old._tag === "password" && old.attempt?.stretched.size).toBe(0)

        const next = oneAttempt({ _tag: "password", password })
        expect(yield* recoverAll(next)).toEqual(addresses)
        expect(next._tag === "password" && next.attempt?.stretched.size).toBe(1)
        expect(salts()).toEqual([evmSalt, evmSalt])

        // A new protection (on the device that recovered last): one fresh salt for both accounts, one stretch.
        const protecting = oneAttempt({ _tag: "password", password: "another password, long" })
        const onLast = splitKeysOn(deviceLayer(), server)
        const recovering = oneAttempt({ _tag: "password", password })
        yield* Effect.forEach(families, (family) => Effect.flatMap(Effect.service(SplitKeys), (keys) => keys.recover(family, recovering)).pipe(Effect.provide(onLast)))
        yield* Effect.forEach(families, (family) => Effect.flatMap(Effect.service(SplitKeys), (keys) => keys.protect(family, protecting)).pipe(Effect.provide(onLast)))
        expect(protecting._tag === "password" && protecting.attempt?.stretched.size).toBe(1)
        const [fresh, alike] = salts()
        expect(fresh).toBe(alike)
        expect(fresh).not.toBe(evmSalt)
        expect(yield* recoverAll(oneAttempt({ _tag: "password", password: "another password, long" }))).toEqual(addresses)
      }),
    60_000
  )
})
