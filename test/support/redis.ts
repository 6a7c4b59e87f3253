/**
 * Throw-away Redis servers for tests, on the real server (Debian's `redis-server`, which `npm test` installs with
 * `scripts/ensure-redis.mjs`): each `startRedis()` is a server of its own on a free loopback port, without
 * persistence (no RDB, no AOF), in a fresh temp folder; a test can take it down and up again on the same port, and
 * finally stops it by its pid, leaving nothing behind.
 *
 * @example
 * const redis = await startRedis()
 * const relay = spawn(..., { env: { REDIS_URL: redis.url } })
 * await redis.restart() // every connection is cut and every key lost (no persistence), as a crash would
 * await redis.stop()
 *
 * `WR_REDIS_SERVER` names a binary other than /usr/bin/redis-server.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { createConnection } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { freePort } from "../../server/src/lib/ports"

/** Options of {@link startRedis}. */
export interface RedisOptions {
  /** Bound on each wait (start, stop), in milliseconds. Default 15 000. */
  readonly timeoutMs?: number
}

/** A running throw-away Redis. */
export interface RunningRedis {
  /** `redis://127.0.0.1:{port}`. */
  readonly url: string
  readonly port: number
  /** The server's process id, `undefined` while it is down. */
  readonly pid: () => number | undefined
  /** The last `lines` lines of the server's log (for failure messages). */
  readonly logTail: (lines?: number) => string
  /** Kills the server (SIGKILL: no goodbye to clients, as a crash). No-op when down. */
  readonly down: () => Promise<void>
  /** Starts it again on the same port, empty; resolves once it answers PING. No-op when up. */
  readonly up: () => Promise<void>
  /** `down` then `up`. */
  readonly restart: () => Promise<void>
  /** Stops the server for good and removes the temp folder. Idempotent. */
  readonly stop: () => Promise<void>
}

const POLL_MS = 25

const binary = (): string => {
  const given = process.env["WR_REDIS_SERVER"]
  const path = given !== undefined && given !== "" ? given : "/usr/bin/redis-server"
  if (!existsSync(path)) {
    throw new Error(
      `redis-server is not installed (no ${path}): run \`node scripts/ensure-redis.mjs\` (npm test does) or ` +
        "`apt-get install redis-server`, or set WR_REDIS_SERVER"
    )
  }
  return path
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Whether a Redis answers PING on the port (one short attempt). */
const pings = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = createConnection({ host: "127.0.0.1", port })
    const done = (ok: boolean) => {
      socket.destroy()
      resolve(ok)
    }
    socket.setTimeout(500, () => done(false))
    socket.once("error", () => done(false))
    socket.once("connect", () => socket.write("PING\r\n"))
    socket.once("data", (data) => done(data.toString().startsWith("+PONG")))
  })

/** Servers of this process still to kill when it ends without `stop()`. */
const live = new Set<() => number | undefined>()
const killAllNow = () => {
  for (const pid of live) {
    const running = pid()
    if (running !== undefined) {
      try {
        process.kill(running, "SIGKILL")
      } catch {
        // Already gone.
      }
    }
  }
  live.clear()
}
// A test process that ends without `stop()` still kills its servers: on exit, and on the signals that end it (vitest
// ends its workers with SIGTERM, which skips exit hooks). The signal is raised again once they are killed, so it does
// what it would have done.
const SIGNALS = ["SIGTERM", "SIGINT", "SIGHUP"] as const
let armed = false
const arm = () => {
  if (armed) return
  armed = true
  process.once("exit", killAllNow)
  for (const signal of SIGNALS) {
    const handler = () => {
      killAllNow()
      if (process.listenerCount(signal) === 0) process.kill(process.pid, signal)
    }
    process.once(signal, handler)
  }
}

/** Starts a throw-away Redis on a free loopback port and resolves once it answers PING. */
export const startRedis = async (options: RedisOptions = {}): Promise<RunningRedis> => {
  const timeoutMs = options.timeoutMs ?? 15_000
  const server = binary()
  const folder = mkdtempSync(join(tmpdir(), "wallet-runtime-redis-"))
  const logFile = join(folder, "redis.log")
  let child: ChildProcess | undefined
  const pid = () => child?.pid
  live.add(pid)
  arm()
  const logTail = (lines = 30) => {
    try {
      return readFileSync(logFile, "utf8").trimEnd().split("\n").slice(-lines).join("\n")
    } catch {
      return "(no log)"
    }
  }

  let port = 0
  const launch = async () => {
    const started = spawn(
      server,
      [
        "--port", String(port),
        "--bind", "127.0.0.1",
        "--save", "",
        "--appendonly", "no",
        "--dir", folder,
        "--logfile", logFile,
        "--daemonize", "no",
        "--protected-mode", "yes"
      ],
      { stdio: "ignore", detached: true, cwd: folder }
    )
    started.unref()
    child = started
    const until = performance.now() + timeoutMs
    for (;;) {
      if (started.exitCode !== null || started.signalCode !== null) {
        child = undefined
        const text = logTail()
        const error = new Error(`redis-server exited (${started.exitCode ?? started.signalCode}) on port ${port}:\n${text}`)
        Object.assign(error, { portTaken: /Address already in use/.test(text) })
        throw error
      }
      if (await pings(port)) return
      if (performance.now() > until) {
        await halt()
        throw new Error(`redis-server did not answer PING on port ${port} within ${timeoutMs} ms:\n${logTail()}`)
      }
      await sleep(POLL_MS)
    }
  }

  const halt = async () => {
    const running = child
    if (running === undefined) return
    const exited = new Promise<void>((resolve) => {
      if (running.exitCode !== null || running.signalCode !== null) resolve()
      else running.once("exit", () => resolve())
    })
    try {
      running.kill("SIGKILL")
    } catch {
      // Already gone.
    }
    let timer: NodeJS.Timeout | undefined
    const bounded = await Promise.race([
      exited.then(() => true),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)))
    ])
    clearTimeout(timer)
    if (!bounded) throw new Error(`redis-server (pid ${running.pid}) did not exit within ${timeoutMs} ms of SIGKILL`)
    child = undefined
  }

  let stopping: Promise<void> | undefined
  const stop = () =>
    (stopping ??= (async () => {
      try {
        await halt()
      } finally {
        live.delete(pid)
        rmSync(folder, { recursive: true, force: true })
      }
    })())

  try {
    for (let attempt = 1; ; attempt++) {
      port = await freePort()
      try {
        await launch()
        break
      } catch (error) {
        if (!((error as { portTaken?: boolean }).portTaken === true && attempt < 5)) throw error
      }
    }
  } catch (error) {
    await stop().catch(() => undefined)
    throw error
  }

  let busy: Promise<void> = Promise.resolve()
  const serial = (step: () => Promise<void>) => {
    const next = busy.then(() => {
      if (stopping !== undefined) throw new Error("this Redis was stopped")
      return step()
    })
    busy = next.catch(() => undefined)
    return next
  }
  const down = () => serial(halt)
  const up = () =>
    serial(async () => {
      if (child === undefined) await launch()
    })

  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    pid,
    logTail,
    down,
    up,
    restart: async () => {
      await down()
      await up()
    },
    stop: async () => {
      await busy
      await stop()
    }
  }
}
