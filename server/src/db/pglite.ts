/**
 * The embedded Postgres: PGlite persisted in a data directory, served on a loopback port by its socket server so that
 * `@effect/sql-pg` talks to it over the wire protocol exactly as it talks to a real Postgres.
 */
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { dirname, join, resolve } from "node:path"
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
 * A freshly initialised, empty cluster, made once per machine and PGlite version in the OS temp directory, as a
 * directory (copied for a new data directory) and as a tarball (loaded for an in-memory database). initdb costs
 * 1.5–2.5 s here; the tests start many stacks.
 */
const template = async (): Promise<{ readonly dir: string; readonly tarball: string }> => {
  const dir = join(tmpdir(), `wallet-runtime-pglite-template-${pgliteVersion()}`)
  const tarball = `${dir}.tar`
  const unique = `${process.pid}.${Date.now()}`
  if (!isDataDir(dir)) {
    const building = `${dir}.${unique}`
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
  }
  if (!existsSync(tarball)) {
    // Dumped from a private copy: opening the shared template could write to it while another process copies it.
    const copy = `${dir}.${unique}.dump`
    cpSync(dir, copy, { recursive: true })
    try {
      const db = await PGlite.create(copy)
      try {
        const dump = await db.dumpDataDir("none")
        writeFileSync(`${tarball}.${unique}`, new Uint8Array(await dump.arrayBuffer()))
        renameSync(`${tarball}.${unique}`, tarball)
      } finally {
        await db.close()
      }
    } finally {
      rmSync(copy, { recursive: true, force: true })
    }
  }
  return { dir, tarball }
}

let emptyCluster: Promise<Blob> | undefined
// Read once per process: every in-memory database of the process starts from the same bytes.
const emptyClusterTarball = (): Promise<Blob> =>
  (emptyCluster ??= template()
    .then(({ tarball }) => new Blob([readFileSync(tarball)]))
    .catch((error: unknown) => {
      emptyCluster = undefined
      throw error
    }))

const open = async (dataDir: string | undefined): Promise<PGlite> => {
  // In memory: nothing to copy before, nothing to delete after, nothing left behind by a killed test.
  if (dataDir === undefined) return PGlite.create({ loadDataDir: await emptyClusterTarball() })
  if (!isDataDir(dataDir)) {
    if (existsSync(dataDir) && readdirSync(dataDir).length > 0) {
      throw new Error(`The database directory ${dataDir} is neither empty nor a Postgres data directory`)
    }
    mkdirSync(dataDir, { recursive: true })
    cpSync((await template()).dir, dataDir, { recursive: true })
  }
  return PGlite.create(dataDir)
}

const openHere = new Set<string>()

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM"
  }
}

/**
 * Takes `{dataDir}.lock` for this process, or throws when a running process (this one included) has the directory
 * open: PGlite takes no lock of its own, and two of them writing one directory corrupt it. Returns the release.
 */
const lock = (dataDir: string): (() => void) => {
  const path = `${resolve(dataDir)}.lock`
  const inUse = (by: number) =>
    new Error(
      `The database directory ${dataDir} is in use by process ${by} (another devstack?): stop it, or give this one ` +
        "another directory (DEVSTACK_DATA_DIR for the CLI) or a Postgres (DATABASE_URL)"
    )
  if (openHere.has(path)) throw inUse(process.pid)
  mkdirSync(dirname(path), { recursive: true })
  for (;;) {
    try {
      writeFileSync(path, String(process.pid), { flag: "wx" })
      break
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error
      const holder = Number(readFileSync(path, "utf8"))
      if (Number.isInteger(holder) && holder !== process.pid && alive(holder)) throw inUse(holder)
      // Left by a process that is gone: take it over.
      rmSync(path, { force: true })
    }
  }
  openHere.add(path)
  return () => {
    openHere.delete(path)
    rmSync(path, { force: true })
  }
}

/**
 * Opens the PGlite cluster in `dataDir` (first creating it, from the template), or an empty one in memory when
 * `dataDir` is `undefined`, and serves it on a loopback port.
 */
export const startPglite = async (dataDir: string | undefined): Promise<RunningPglite> => {
  const unlock = dataDir === undefined ? () => undefined : lock(dataDir)
  let db: PGlite
  try {
    db = await open(dataDir)
  } catch (error) {
    unlock()
    throw error
  }
  // PGlite is one backend: the services' pool holds a single connection, so one client's transaction never
  // interleaves with another's statements; a few more are accepted so a reconnect never meets "Too many connections".
  const server = new PGLiteSocketServer({ db, port: 0, host: "127.0.0.1", maxConnections: 4 })
  try {
    await server.start()
  } catch (error) {
    await db.close().finally(unlock)
    throw error
  }
  const port = Number(server.getServerConn().split(":").at(-1))
  let stopping: Promise<void> | undefined
  return {
    port,
    stop: () => {
      stopping ??= server.stop().finally(() => db.close().finally(unlock))
      return stopping
    }
  }
}
