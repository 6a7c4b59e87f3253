/**
 * The embedded Postgres: PGlite persisted in a data directory, served on a loopback port by its socket server so that
 * `@effect/sql-pg` talks to it over the wire protocol exactly as it talks to a real Postgres.
 */
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { PGlite } from "@electric-sql/pglite"
import { PGLiteSocketServer } from "@electric-sql/pglite-socket"

/** A running PGlite on a data directory, reachable at `127.0.0.1:{port}`. */
export interface RunningPglite {
  readonly port: number
  /** Stops serving, then closes PGlite so its files are consistent on disk. Idempotent. */
  readonly stop: () => Promise<void>
}

const pgliteVersion = (): string => {
  // The package exports no package.json; its entry point sits in `dist/`, one below it.
  const entry = createRequire(import.meta.url).resolve("@electric-sql/pglite")
  const pkg = JSON.parse(readFileSync(join(dirname(entry), "..", "package.json"), "utf8")) as { version?: unknown }
  return typeof pkg.version === "string" ? pkg.version : "unknown"
}

const isDataDir = (dir: string) => existsSync(join(dir, "PG_VERSION"))

/**
 * A freshly initialised, empty cluster, made once per machine and PGlite version in the OS temp directory. initdb
 * costs 1.4–2.4 s here, copying this template and opening it ~0.25 s: the tests start many stacks.
 */
const template = async (): Promise<string> => {
  const dir = join(tmpdir(), `wallet-runtime-pglite-template-${pgliteVersion()}`)
  if (isDataDir(dir)) return dir
  const building = `${dir}.${process.pid}.${Date.now()}`
  try {
    const db = await PGlite.create(building)
    await db.close()
    // Atomic: another process building the same template at once either wins the rename or finds it done.
    renameSync(building, dir)
  } catch (error) {
    if (!isDataDir(dir)) throw error
  } finally {
    rmSync(building, { recursive: true, force: true })
  }
  return dir
}

/** Opens (first creating, from the template) the PGlite cluster in `dataDir` and serves it on a loopback port. */
export const startPglite = async (dataDir: string): Promise<RunningPglite> => {
  if (!isDataDir(dataDir)) {
    if (existsSync(dataDir) && readdirSync(dataDir).length > 0) {
      throw new Error(`The database directory ${dataDir} is neither empty nor a Postgres data directory`)
    }
    mkdirSync(dataDir, { recursive: true })
    cpSync(await template(), dataDir, { recursive: true })
  }
  const db = await PGlite.create(dataDir)
  // PGlite is one backend: the services' pool holds a single connection, so one client's transaction never
  // interleaves with another's statements; a few more are accepted so a reconnect never meets "Too many connections".
  const server = new PGLiteSocketServer({ db, port: 0, host: "127.0.0.1", maxConnections: 4 })
  try {
    await server.start()
  } catch (error) {
    await db.close()
    throw error
  }
  const port = Number(server.getServerConn().split(":").at(-1))
  let stopping: Promise<void> | undefined
  return {
    port,
    stop: () => {
      stopping ??= server.stop().finally(() => db.close())
      return stopping
    }
  }
}
