/**
 * The embedded wallet's master key as the server command keeps it: a file of 64 hex digits that only its owner can
 * read (mode 0600). A missing file stops the start unless the configuration says to make it: a server that quietly
 * made a new key after losing the old one could not open a single sealed key.
 */
import { resolve } from "node:path"
import { Data, Effect, FileSystem } from "effect"
import { masterKeyFile } from "./embedded/index"

/** The master-key file cannot be used; the message says why and what to do. */
export class MasterKeyError extends Data.TaggedError("MasterKeyError")<{ readonly message: string }> {}

/** Where the key is and what to do when it is missing; `setting` names the setting in messages. */
export interface MasterKeyOptions {
  readonly path: string
  readonly create: boolean
  readonly setting: string
}

/** Reads the master key, or makes its file (mode 0600) when it is missing and `create` is set. */
export const loadMasterKey = Effect.fn("loadMasterKey")(function* (options: MasterKeyOptions) {
  const fs = yield* FileSystem.FileSystem
  const path = resolve(options.path)
  const fail = (why: string) => new MasterKeyError({ message: `${options.setting}: ${path} ${why}` })
  const exists = yield* fs.exists(path).pipe(Effect.mapError((error) => fail(`cannot be checked: ${error.message}`)))
  if (!exists) {
    if (!options.create) {
      return yield* fail(
        "does not exist: make it (`openssl rand -hex 32 > FILE && chmod 600 FILE`), or turn on wallet.createMasterKey " +
          "to have the first start make it"
      )
    }
    const key = yield* Effect.try({ try: () => masterKeyFile(path), catch: (error) => fail(`cannot be made: ${String(error)}`) })
    yield* Effect.logInfo("made the wallet's master-key file").pipe(Effect.annotateLogs({ path }))
    return key
  }
  const info = yield* fs.stat(path).pipe(Effect.mapError((error) => fail(`cannot be read: ${error.message}`)))
  if (info.type !== "File") return yield* fail("is not a file")
  if ((info.mode & 0o077) !== 0) {
    return yield* fail(`can be read by others than its owner (mode ${(info.mode & 0o777).toString(8)}): \`chmod 600 ${path}\``)
  }
  return yield* Effect.try({
    try: () => masterKeyFile(path),
    catch: (error) => fail(`cannot be used: ${error instanceof Error ? error.message : String(error)}`)
  })
})
