/**
 * The frame's split keys at a login (issue 30, item 6): a key the wallet server still holds sealed (made before keys
 * were split) is split here while the login is fresh, so from then on only the frame signs with it. frameLogic.ts
 * loads this module with `import()` after a login, so the frame page opens without the curves, Shamir and the KDFs.
 */
import { Effect, Layer } from "effect"
import type { KeyFamily } from "../sharesApi"
import type { SplitKeysApi } from "./apiClient"
import type { FrameStorage } from "./frameLogic"
import { DeviceShares, ShareServer, SplitKeys } from "./SplitKeys"

const FAMILIES: ReadonlyArray<KeyFamily> = ["eip155", "solana"]

/** Splits each of the user's keys the server still holds sealed; answers the families split now. */
export const splitSealedKeys = (api: SplitKeysApi, storage: FrameStorage, token: string): Promise<ReadonlyArray<KeyFamily>> =>
  Effect.runPromise(
    Effect.forEach(FAMILIES, (family) => Effect.flatMap(Effect.service(SplitKeys), (keys) => keys.migrate(family))).pipe(
      Effect.map((answers) => FAMILIES.filter((_, i) => answers[i]?.migrated === true)),
      Effect.provide(SplitKeys.layer.pipe(Layer.provide(Layer.mergeAll(DeviceShares.layerStorage(storage), ShareServer.layerApi(api, () => token)))))
    )
  )
