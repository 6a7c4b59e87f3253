/**
 * Whether this device can sign with the user's split keys (issue 30, item 2): a device share of each key, from the
 * split the server holds now. A new device has none; a device whose share a recovery elsewhere retired has one of an
 * older split, which no longer combines with the server's. frameLogic.ts loads this module with `import()` when the
 * server lists split keys, so the frame page opens without the seal's cipher.
 */
import { Effect } from "effect"
import type { ServerSplitKey } from "./SplitKeys"
import { DeviceShares } from "./SplitKeys"
import type { FrameStorage } from "./frameLogic"

/**
 * True when a listed key has no device share of its current split here. `sealedUnder`: the session token the device
 * shares are sealed under, where the frame's storage travels to the server (a new login there opens none).
 */
export const lacksDeviceShares = (
  storage: FrameStorage,
  sealedUnder: string | undefined,
  listed: { readonly userId: string; readonly keys: ReadonlyArray<Pick<ServerSplitKey, "family" | "splitId">> }
): Promise<boolean> =>
  Effect.runPromise(
    Effect.gen(function* () {
      const device = yield* DeviceShares
      for (const key of listed.keys) {
        const share = yield* device.get(listed.userId, key.family)
        if (share?.splitId !== key.splitId) return true
      }
      return false
    }).pipe(Effect.provide(sealedUnder === undefined ? DeviceShares.layerStorage(storage) : DeviceShares.layerSealed(storage, sealedUnder)))
  )
