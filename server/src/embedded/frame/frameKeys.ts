/**
 * The frame's split keys at a login (issue 30): the user's keys are born here. After every login, before the frame
 * answers it, each family's key is made (`SplitKeys.create`) when the server lists none, split here when the server
 * still holds one sealed (made before keys were split, item 6), and left as it is once split. frameLogic.ts loads this
 * module with `import()` after a login, so the frame page opens without the curves, Shamir and the KDFs.
 */
import { Effect, Layer } from "effect"
import type { KeyFamily } from "../sharesApi"
import type { SplitKeysApi } from "./apiClient"
import type { FrameStorage } from "./frameLogic"
import { randomBytes } from "./keyShares"
import { DeviceShares, ShareServer, SplitKeys } from "./SplitKeys"

const FAMILIES: ReadonlyArray<KeyFamily> = ["eip155", "solana"]

/** What the login did to each family's key: made here, split from the server's sealed copy, or nothing (split already). */
export type KeyAtLogin = "created" | "migrated" | "split"

/**
 * Makes or splits each of the user's keys the server does not hold split yet; answers what was done per family. With
 * `sealed` (storage that travels to the wallet server, FrameStore's cookies) the device share and secret are kept
 * sealed under the session (`DeviceShares.layerSealed`). Two devices making a new user's key at once: the server keeps
 * the first (409 `key_exists` for the other), and the other reads the list again and keeps nothing of its own.
 */
export const keysAtLogin = (
  api: SplitKeysApi,
  storage: FrameStorage,
  token: string,
  sealed: boolean
): Promise<ReadonlyArray<{ readonly family: KeyFamily; readonly done: KeyAtLogin }>> =>
  Effect.runPromise(
    Effect.forEach(FAMILIES, (family) =>
      Effect.gen(function* () {
        const keys = yield* SplitKeys
        const migrated = yield* keys.migrate(family)
        if (migrated !== undefined) return { family, done: migrated.migrated ? ("migrated" as const) : ("split" as const) }
        return yield* keys.create(family, { _tag: "device", secret: randomBytes(32) }).pipe(
          Effect.as({ family, done: "created" as const }),
          Effect.catchIf(
            (error) => error._tag === "ShareServerError" && error.code === "key_exists",
            () => Effect.map(keys.migrate(family), () => ({ family, done: "split" as const }))
          )
        )
      })
    ).pipe(
      Effect.provide(
        SplitKeys.layer.pipe(
          Layer.provide(
            Layer.mergeAll(DeviceShares.layerFor(storage, token, sealed), ShareServer.layerApi(api, () => token))
          )
        )
      )
    )
  )
