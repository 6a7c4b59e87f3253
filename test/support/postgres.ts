/**
 * Throw-away PostgreSQL clusters for tests, on the real server (Debian's `postgresql`, which `npm test` installs with
 * `scripts/ensure-postgres.mjs`): each `startPostgres()` is a cluster of its own in a fresh temp folder, on a free
 * loopback port, that a test can restart (the same port and data) and finally stops, leaving nothing behind.
 *
 * @example
 * const postgres = await startPostgres()
 * const services = await startServices({ database: { url: postgres.url } })
 * await postgres.restart({ mode: "immediate" }) // in-flight connections are cut, committed data stays
 * await postgres.stop()
 *
 * Postgres refuses to run as root: as root the clusters run as the system user `wallet-runtime-pg` (created when
 * missing; `WR_POSTGRES_USER` names another), otherwise as the current user. `WR_POSTGRES_BINDIR` names a bin folder
 * other than the newest `/usr/lib/postgresql/<version>/bin`. Authentication is `trust` (loopback and a socket in the
 * cluster's own folder only): the URL carries no password.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { createHash } from "node:crypto"
import {
  chownSync,
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statfsSync,
  statSync,
  writeFileSync
} from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { freePort } from "../../server/src/lib/ports"

/** How the server is stopped: `fast` ends sessions and checkpoints; `immediate` cuts everything, as a crash does. */
export type ShutdownMode = "fast" | "immediate"

/** Options of {@link startPostgres}. */
export interface PostgresOptions {
  /** Bound on each wait (template build, start, stop), in milliseconds. Default 30 000. */
  readonly timeoutMs?: number
  /** Server settings added to (or replacing) the defaults, as `-c name=value`. */
  readonly settings?: Readonly<Record<string, string | number>>
}

/** A running throw-away cluster. */
export interface RunningPostgres {
  /** `postgres://postgres@127.0.0.1:{port}/wallet_runtime`: the superuser, trusted, no password. */
  readonly url: string
  readonly port: number
  /** The database made in the cluster for the tests. */
  readonly database: string
  /** The cluster's data directory (inside its temp folder, which `stop()` removes). */
  readonly dataDir: string
  /** The postmaster's process id, `undefined` while the server is down. */
  readonly pid: () => number | undefined
  /** The last `lines` lines of the server's log (for failure messages). */
  readonly logTail: (lines?: number) => string
  /** Stops the server and keeps the cluster: connections are refused until `up()`. No-op when down. */
  readonly down: (options?: { readonly mode?: ShutdownMode }) => Promise<void>
  /** Starts the server again on the same port and data; resolves once it accepts connections. No-op when up. */
  readonly up: () => Promise<void>
  /** `down` then `up` (default mode `fast`; `immediate` to cut in-flight connections as a crash would). */
  readonly restart: (options?: { readonly mode?: ShutdownMode }) => Promise<void>
  /** Stops the server for good and removes the temp folder. Idempotent. */
  readonly stop: () => Promise<void>
}

const DATABASE = "wallet_runtime"
const SUPERUSER = "postgres"
const PREFIX = "wallet-runtime-pg-"
const POLL_MS = 25

interface Binaries {
  readonly dir: string
  readonly postgres: string
  readonly initdb: string
  /** `postgres --version`, e.g. "postgres (PostgreSQL) 15.18 (Debian 15.18-0+deb12u1)". */
  readonly version: string
}

/** Who runs the server: `undefined` is this process's user (not root). */
interface RunAs {
  readonly name: string
  readonly uid: number
  readonly gid: number
}

const errnoCode = (error: unknown) => (error as NodeJS.ErrnoException).code

interface Ran {
  readonly code: number | null
  readonly output: string
}

/** Runs a command to its end (as `runAs` when given), killing it past `timeoutMs`. */
const run = (
  command: string,
  args: ReadonlyArray<string>,
  opts: { runAs?: RunAs | undefined; input?: string; timeoutMs: number }
) =>
  new Promise<Ran>((resolve, reject) => {
    const child = spawn(command, args, {
      stdio: [opts.input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
      env: serverEnv(),
      // The server's user may not be allowed into the caller's working folder.
      cwd: tmpdir(),
      ...(opts.runAs === undefined ? {} : { uid: opts.runAs.uid, gid: opts.runAs.gid })
    })
    let output = ""
    child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()))
    child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()))
    const timer = setTimeout(() => {
      child.kill("SIGKILL")
      reject(new Error(`${command} ${args.join(" ")} did not finish within ${opts.timeoutMs} ms:\n${output}`))
    }, opts.timeoutMs)
    child.once("error", (error) => {
      clearTimeout(timer)
      reject(error)
    })
    child.once("close", (code) => {
      clearTimeout(timer)
      resolve({ code, output })
    })
    if (opts.input !== undefined) child.stdin?.end(opts.input)
  })

// The server gets a small, fixed environment: no PG* variable of the caller's changes what it does.
const serverEnv = (): NodeJS.ProcessEnv => ({
  PATH: `${process.env["PATH"] ?? ""}:/usr/sbin:/usr/bin:/sbin:/bin`,
  LC_ALL: "C",
  TZ: "UTC"
})

let binaries: Binaries | undefined
const findBinaries = async (): Promise<Binaries> => {
  if (binaries !== undefined) return binaries
  const given = process.env["WR_POSTGRES_BINDIR"]
  const root = "/usr/lib/postgresql"
  const has = (dir: string) => existsSync(join(dir, "postgres")) && existsSync(join(dir, "initdb"))
  let dir: string | undefined
  if (given !== undefined && given !== "") {
    if (!has(given)) throw new Error(`WR_POSTGRES_BINDIR=${given} holds no postgres and initdb`)
    dir = given
  } else {
    const versions = existsSync(root) ? readdirSync(root).filter((v) => /^\d+(\.\d+)?$/.test(v)) : []
    dir = versions
      .sort((a, b) => Number(b) - Number(a))
      .map((v) => join(root, v, "bin"))
      .find(has)
  }
  if (dir === undefined) {
    throw new Error(
      `PostgreSQL's server is not installed (no ${root}/<version>/bin/postgres and initdb): run ` +
        "`node scripts/ensure-postgres.mjs` (npm test does) or `apt-get install postgresql`, or set WR_POSTGRES_BINDIR"
    )
  }
  const postgres = join(dir, "postgres")
  const version = await run(postgres, ["--version"], { timeoutMs: 10_000 })
  if (version.code !== 0) throw new Error(`${postgres} --version failed:\n${version.output}`)
  binaries = { dir, postgres, initdb: join(dir, "initdb"), version: version.output.trim() }
  return binaries
}

const idOf = async (name: string): Promise<RunAs | undefined> => {
  const [uid, gid] = await Promise.all([
    run("id", ["-u", name], { timeoutMs: 10_000 }),
    run("id", ["-g", name], { timeoutMs: 10_000 })
  ])
  if (uid.code !== 0 || gid.code !== 0) return undefined
  return { name, uid: Number(uid.output.trim()), gid: Number(gid.output.trim()) }
}

let runAsUser: Promise<RunAs | undefined> | undefined
/** As root, the unprivileged user the server runs as (created once, as a system user with its own group). */
const findRunAs = (): Promise<RunAs | undefined> =>
  (runAsUser ??= (async () => {
    if (process.getuid?.() !== 0) return undefined
    const name = process.env["WR_POSTGRES_USER"] || "wallet-runtime-pg"
    const known = await idOf(name)
    if (known !== undefined) return known
    const added = await run(
      "useradd",
      ["--system", "--user-group", "--no-create-home", "--home-dir", "/nonexistent", "--shell", "/usr/sbin/nologin", name],
      { timeoutMs: 30_000 }
    )
    // Another process may have added it at the same moment (useradd then says it exists): look again either way.
    const made = await idOf(name)
    if (made === undefined) throw new Error(`Could not create the user ${name} that runs the test clusters as root:\n${added.output}`)
    return made
  })().catch((error: unknown) => {
    runAsUser = undefined
    throw error
  }))

const chown = (path: string, runAs: RunAs | undefined) => {
  if (runAs !== undefined) chownSync(path, runAs.uid, runAs.gid)
}

/** Whether the server's user may enter `dir` (every folder above it lets others through, or is the user's). */
const enterable = (dir: string, runAs: RunAs | undefined): boolean => {
  if (runAs === undefined) return true
  for (let at = dir; ; at = dirname(at)) {
    const { mode, uid } = statSync(at)
    if (uid !== runAs.uid && (mode & 0o001) === 0) return false
    if (dirname(at) === at) return true
  }
}

const TMPFS_MAGIC = 0x01021994
const SHM = "/dev/shm"

/**
 * Where the template (kept, in the OS temp folder) and the clusters go. Clusters go to /dev/shm when it is a tmpfs with
 * room to spare: copying the 35 MB template there takes 0.07 s, against 0.2–1 s on this machine's disk under load.
 * `WR_POSTGRES_TMPDIR` chooses the clusters' folder.
 */
const folders = (runAs: RunAs | undefined): { readonly template: string; readonly clusters: string } => {
  const template = tmpdir()
  const check = (dir: string, variable: string) => {
    if (!enterable(dir, runAs)) {
      throw new Error(
        `The user ${runAs?.name} running the test clusters cannot enter ${dir} (${variable}): point ${variable} at a ` +
          "folder others may enter, such as /tmp"
      )
    }
    return dir
  }
  check(template, "TMPDIR")
  const given = process.env["WR_POSTGRES_TMPDIR"]
  if (given !== undefined && given !== "") return { template, clusters: check(given, "WR_POSTGRES_TMPDIR") }
  try {
    const shm = statfsSync(SHM)
    if (shm.type === TMPFS_MAGIC && shm.bavail * shm.bsize >= 1024 ** 3 && enterable(SHM, runAs)) {
      return { template, clusters: SHM }
    }
  } catch {
    // No /dev/shm here.
  }
  return { template, clusters: template }
}

/** Whether `pid` runs: it exists and is not a zombie (our own postmaster is one once dead, until Node reaps it). */
const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
  } catch (error) {
    if (errnoCode(error) !== "EPERM") return false
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z"
  } catch {
    // Gone since the signal, or no /proc to tell a zombie by (not Linux): the signal's answer stands.
    return !existsSync("/proc/self")
  }
}

/** The postmaster of `dataDir` per its `postmaster.pid`, when that process is alive and is this cluster's postgres. */
const postmasterOf = (dataDir: string): { readonly pid: number; readonly status: string } | undefined => {
  let lines: Array<string>
  try {
    lines = readFileSync(join(dataDir, "postmaster.pid"), "utf8").split("\n")
  } catch {
    return undefined
  }
  const pid = Number(lines[0])
  if (!Number.isInteger(pid) || pid <= 0) return undefined
  try {
    if (!readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(dataDir)) return undefined
  } catch {
    return undefined
  }
  return { pid, status: (lines[7] ?? "").trim() }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))
const blockFor = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms)

/**
 * Removes clusters left by test processes that died without stopping them (killed before any exit hook ran): their
 * postmaster is shut down immediately and their folder removed. A cluster whose owner process lives is left alone.
 */
const reapOrphans = (base: string) => {
  let entries: Array<string>
  try {
    entries = readdirSync(base).filter((name) => name.startsWith(PREFIX))
  } catch {
    return
  }
  for (const name of entries) {
    const folder = join(base, name)
    let owner: number
    try {
      owner = Number(readFileSync(join(folder, "owner"), "utf8"))
    } catch {
      continue
    }
    if (!Number.isInteger(owner) || alive(owner)) continue
    const postmaster = postmasterOf(join(folder, "data"))
    if (postmaster !== undefined) killAndWait(postmaster.pid, 5_000)
    try {
      rmSync(folder, { recursive: true, force: true })
    } catch {
      // Another user's folder, or another process reaping it at the same time: not ours to insist on.
    }
  }
}

/** Synchronous, for exit hooks: SIGQUIT (immediate shutdown, the postmaster ends its backends), SIGKILL past `boundMs`. */
const killAndWait = (pid: number, boundMs: number) => {
  const signal = (sig: NodeJS.Signals) => {
    try {
      process.kill(pid, sig)
    } catch {
      // Already gone.
    }
  }
  signal("SIGQUIT")
  const until = performance.now() + boundMs
  while (alive(pid) && performance.now() < until) blockFor(POLL_MS)
  if (alive(pid)) signal("SIGKILL")
}

const templates = new Map<string, Promise<string>>()

/**
 * An initialised cluster holding the tests' database, made once per machine, server version and user in the temp
 * folder and copied for each new cluster (initdb costs seconds). Built under a unique name and renamed into place,
 * so a process building it at the same time as another either wins the rename or finds it done.
 */
const template = (bins: Binaries, runAs: RunAs | undefined, base: string, timeoutMs: number): Promise<string> => {
  const initdbArgs = ["-U", SUPERUSER, "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync", "--wal-segsize=1"]
  const key = createHash("sha256")
    .update(JSON.stringify([bins.dir, bins.version, initdbArgs, DATABASE, runAs?.uid ?? process.getuid?.()]))
    .digest("hex")
    .slice(0, 12)
  const version = /\(PostgreSQL\) (\S+)/.exec(bins.version)?.[1] ?? "unknown"
  const dir = join(base, `wallet-runtime-postgres-template-${version}-${key}`)
  const cached = templates.get(dir)
  if (cached !== undefined) return cached
  const built = (async () => {
    if (existsSync(join(dir, "PG_VERSION"))) return dir
    const building = `${dir}.${process.pid}.${Math.random().toString(36).slice(2)}`
    try {
      mkdirSync(building, { mode: 0o700 })
      chown(building, runAs)
      const initdb = await run(bins.initdb, ["-D", building, ...initdbArgs], { runAs, timeoutMs })
      if (initdb.code !== 0) throw new Error(`initdb failed (exit ${initdb.code}):\n${initdb.output}`)
      // Single-user mode: no port, no socket, nothing to wait for.
      const single = await run(bins.postgres, ["--single", "-D", building, "-F", "-c", "autovacuum=off", "postgres"], {
        runAs,
        input: `CREATE DATABASE ${DATABASE};\n`,
        timeoutMs
      })
      if (single.code !== 0 || /\b(ERROR|FATAL|PANIC):/.test(single.output)) {
        throw new Error(`Creating the database ${DATABASE} in the template failed (exit ${single.code}):\n${single.output}`)
      }
      try {
        renameSync(building, dir)
      } catch (error) {
        if (!existsSync(join(dir, "PG_VERSION"))) throw error
      }
      return dir
    } finally {
      rmSync(building, { recursive: true, force: true })
    }
  })()
  templates.set(dir, built)
  built.catch(() => templates.delete(dir))
  return built
}

/** The clusters of this process still to stop, by folder, with their postmaster's pid now. */
const live = new Map<string, () => number | undefined>()

/** Synchronously ends every live cluster of this process and removes its folder: the last resort when it ends. */
const stopAllNow = () => {
  for (const [folder, pid] of live) {
    const running = pid()
    if (running !== undefined) killAndWait(running, 400)
    try {
      rmSync(folder, { recursive: true, force: true })
    } catch {
      // Nothing more can be done while exiting.
    }
  }
  live.clear()
  disarm()
}

// A test process that ends without `stop()` (a crash, a forgotten afterAll) still stops its clusters: on exit, and on
// the signals that end it — vitest ends its fork workers with SIGTERM (SIGKILL 500 ms later), which skips exit hooks.
// The signal handlers are there only while a cluster is: a handler would otherwise keep the signal from ending the
// process, so once the clusters are stopped the signal is raised again and does what it would have done.
const SIGNALS = ["SIGTERM", "SIGINT", "SIGHUP"] as const
const handlers = new Map<NodeJS.Signals, () => void>()
const arm = () => {
  if (handlers.size > 0) return
  process.once("exit", stopAllNow)
  for (const signal of SIGNALS) {
    const handler = () => {
      stopAllNow()
      if (process.listenerCount(signal) === 0) process.kill(process.pid, signal)
    }
    handlers.set(signal, handler)
    process.once(signal, handler)
  }
}
const disarm = () => {
  process.off("exit", stopAllNow)
  for (const [signal, handler] of handlers) process.off(signal, handler)
  handlers.clear()
}

const defaultSettings = (runDir: string): Record<string, string | number> => ({
  listen_addresses: "127.0.0.1",
  unix_socket_directories: runDir,
  // Speed over crash safety of the machine: the cluster is thrown away. Not `synchronous_commit = off`: an immediate
  // restart (a test's crash) must not lose a commit a client was told about.
  fsync: "off",
  full_page_writes: "off",
  wal_level: "minimal",
  max_wal_senders: 0,
  shared_buffers: "32MB",
  max_connections: 64,
  autovacuum: "off",
  jit: "off",
  huge_pages: "off"
})

class StartFailed extends Error {
  constructor(
    message: string,
    readonly portTaken: boolean
  ) {
    super(message)
  }
}

/**
 * Starts a throw-away cluster (a copy of the cached template) on a free loopback port and resolves once it accepts
 * connections.
 */
export const startPostgres = async (options: PostgresOptions = {}): Promise<RunningPostgres> => {
  const timeoutMs = options.timeoutMs ?? 30_000
  const bins = await findBinaries()
  const runAs = await findRunAs()
  const where = folders(runAs)
  reapOrphans(where.clusters)
  const templateDir = await template(bins, runAs, where.template, timeoutMs)

  const folder = mkdtempSync(join(where.clusters, PREFIX))
  let child: ChildProcess | undefined
  live.set(folder, () => child?.pid)
  arm()
  const dataDir = join(folder, "data")
  const runDir = join(folder, "run")
  const logFile = join(folder, "postgres.log")
  const logTail = (lines = 30) => {
    try {
      return readFileSync(logFile, "utf8").trimEnd().split("\n").slice(-lines).join("\n")
    } catch {
      return "(no log)"
    }
  }

  let port = 0
  const settings = () => ({ ...defaultSettings(runDir), ...options.settings })

  /** Starts the postmaster on `port`; resolves when its postmaster.pid says ready. */
  const launch = async () => {
    const logFrom = existsSync(logFile) ? statSync(logFile).size : 0
    const args = ["-D", dataDir, "-p", String(port), ...Object.entries(settings()).flatMap(([k, v]) => ["-c", `${k}=${v}`])]
    const log = openSync(logFile, "a")
    let started: ChildProcess
    try {
      // Detached: a process group of its own, so no terminal signal meant for the tests reaches it.
      started = spawn(bins.postgres, args, {
        detached: true,
        stdio: ["ignore", log, log],
        env: serverEnv(),
        cwd: folder,
        ...(runAs === undefined ? {} : { uid: runAs.uid, gid: runAs.gid })
      })
    } finally {
      closeSync(log)
    }
    // Unreferenced: a test process that forgets stop() still ends, and its exit or signal hook then stops the server.
    started.unref()
    child = started
    const spawnError = new Promise<Error>((resolve) => started.once("error", resolve))
    let failure: Error | undefined
    void spawnError.then((error) => (failure = error))
    const newLog = () => {
      try {
        return readFileSync(logFile).subarray(logFrom).toString()
      } catch {
        return ""
      }
    }
    const until = performance.now() + timeoutMs
    for (;;) {
      if (failure !== undefined) throw new StartFailed(`Could not run ${bins.postgres}: ${failure.message}`, false)
      if (started.exitCode !== null || started.signalCode !== null) {
        const text = newLog()
        child = undefined
        throw new StartFailed(
          `postgres exited (${started.exitCode ?? started.signalCode}) before accepting connections on port ${port}:\n${text.trimEnd()}`,
          /could not bind .*Address already in use|could not create any TCP\/IP sockets/.test(text)
        )
      }
      const postmaster = postmasterOf(dataDir)
      if (postmaster !== undefined && postmaster.pid === started.pid && postmaster.status === "ready") return
      if (performance.now() > until) {
        await halt("immediate")
        throw new StartFailed(`postgres did not accept connections on port ${port} within ${timeoutMs} ms:\n${logTail()}`, false)
      }
      await sleep(POLL_MS)
    }
  }

  /** Stops the postmaster (it ends its backends before it exits); SIGKILL to its group past the bound. */
  const halt = async (mode: ShutdownMode) => {
    const running = child
    if (running === undefined) return
    const exited = new Promise<void>((resolve) => {
      if (running.exitCode !== null || running.signalCode !== null) resolve()
      else running.once("exit", () => resolve())
    })
    // Whether it exited within `ms`; the timer is cleared, so a finished wait keeps no test process alive.
    const within = (ms: number) =>
      new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), ms)
        void exited.then(() => {
          clearTimeout(timer)
          resolve(true)
        })
      })
    try {
      running.kill(mode === "fast" ? "SIGINT" : "SIGQUIT")
    } catch {
      // Already gone.
    }
    if (!(await within(timeoutMs))) {
      try {
        if (running.pid !== undefined) process.kill(-running.pid, "SIGKILL")
      } catch {
        // The group is gone already.
      }
      if (!(await within(5_000))) throw new Error(`postgres (pid ${running.pid}) did not exit, even after SIGKILL:\n${logTail()}`)
      throw new Error(`postgres (pid ${running.pid}) did not shut down (${mode}) within ${timeoutMs} ms and was killed:\n${logTail()}`)
    }
    child = undefined
  }

  let stopping: Promise<void> | undefined
  const stop = () =>
    (stopping ??= (async () => {
      try {
        await halt("immediate")
      } finally {
        live.delete(folder)
        if (live.size === 0) disarm()
        rmSync(folder, { recursive: true, force: true })
      }
    })())

  try {
    writeFileSync(join(folder, "owner"), String(process.pid))
    chown(folder, runAs)
    mkdirSync(runDir, { mode: 0o700 })
    chown(runDir, runAs)
    // `cp -a` keeps the template's owner (the server's user) and modes, which Postgres checks.
    const copied = await run("cp", ["-a", templateDir, dataDir], { timeoutMs })
    if (copied.code !== 0) throw new Error(`Copying the template cluster ${templateDir} failed:\n${copied.output}`)
    for (let attempt = 1; ; attempt++) {
      port = await freePort()
      try {
        await launch()
        break
      } catch (error) {
        // Someone took the port between our look and Postgres's bind: take another.
        if (!(error instanceof StartFailed && error.portTaken && attempt < 5)) throw error
      }
    }
  } catch (error) {
    await stop().catch(() => undefined)
    throw error
  }

  let up = true
  let busy: Promise<void> = Promise.resolve()
  // down/up/restart run one at a time, in call order.
  const serial = (step: () => Promise<void>) => {
    const next = busy.then(() => {
      if (stopping !== undefined) throw new Error("this Postgres cluster was stopped")
      return step()
    })
    busy = next.catch(() => undefined)
    return next
  }
  const down = (opts: { readonly mode?: ShutdownMode } = {}) =>
    serial(async () => {
      if (!up) return
      await halt(opts.mode ?? "fast")
      up = false
    })
  const upAgain = () =>
    serial(async () => {
      if (up) return
      try {
        await launch()
      } catch (error) {
        if (error instanceof StartFailed && error.portTaken) {
          throw new Error(`Port ${port} of this cluster was taken while it was down; it cannot come back on it:\n${error.message}`)
        }
        throw error
      }
      up = true
    })

  return {
    url: `postgres://${SUPERUSER}@127.0.0.1:${port}/${DATABASE}`,
    port,
    database: DATABASE,
    dataDir,
    pid: () => child?.pid,
    logTail,
    down,
    up: upAgain,
    restart: async (opts = {}) => {
      await down(opts)
      await upAgain()
    },
    stop: async () => {
      await busy
      await stop()
    }
  }
}
