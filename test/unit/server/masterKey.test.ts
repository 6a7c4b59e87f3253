/**
 * The master-key file as the server command keeps it: read when it is the owner's alone, made (mode 0600) only when
 * the configuration says so, and otherwise a refusal that names the setting and says what to do.
 */
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { NodeFileSystem } from "@effect/platform-node"
import { afterEach, describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { loadMasterKey } from "../../../server/src/masterKey"

const SETTING = "wallet.masterKeyFile (WALLET_RUNTIME_WALLET_MASTER_KEY_FILE)"
const dirs: Array<string> = []
const tempFile = () => {
  const dir = mkdtempSync(join(tmpdir(), "wr-master-key-"))
  dirs.push(dir)
  return join(dir, "keys", "master-key")
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

const load = (path: string, create: boolean) => loadMasterKey({ path, create, setting: SETTING }).pipe(Effect.provide(NodeFileSystem.layer))
const refusal = (path: string, create: boolean) => Effect.map(Effect.flip(load(path, create)), (error) => error.message)

describe("the wallet's master-key file", () => {
  it.effect("is not made unless the configuration says so: the refusal names the setting and the way out", () =>
    Effect.gen(function* () {
      const path = tempFile()
      const message = yield* refusal(path, false)
      expect(message).toContain(`${SETTING}: ${path} does not exist`)
      expect(message).toContain("wallet.createMasterKey")
      expect(existsSync(path)).toBe(false)
    }))

  it.effect("is made on first start when asked, owner-only, and read back the same at the next", () =>
    Effect.gen(function* () {
      const path = tempFile()
      const made = yield* load(path, true)
      expect(made).toHaveLength(32)
      expect(statSync(path).mode & 0o777).toBe(0o600)
      expect(readFileSync(path, "utf8").trim()).toBe(Buffer.from(made).toString("hex"))
      expect(Buffer.from(yield* load(path, false)).equals(Buffer.from(made))).toBe(true)
    }))

  it.effect("is refused when others than its owner may read it", () =>
    Effect.gen(function* () {
      const path = tempFile()
      yield* load(path, true)
      chmodSync(path, 0o644)
      expect(yield* refusal(path, false)).toBe(`${SETTING}: ${path} can be read by others than its owner (mode 644): \`chmod 600 ${path}\``)
    }))

  it.effect("is refused when it does not hold 64 hex digits", () =>
    Effect.gen(function* () {
      const path = tempFile()
      yield* load(path, true)
      writeFileSync(path, "not a key\n", { mode: 0o600 })
      expect(yield* refusal(path, true)).toContain(`${SETTING}: ${path} cannot be used:`)
    }))
})
