/**
 * The throw-away Postgres of `test/support/postgres.ts`, which the Postgres suites and the fault tests stand on: a
 * cluster of its own on a loopback port, run by an unprivileged user; a row written through `@effect/sql-pg` (as the
 * services connect) survives a fast and an immediate (crash) restart on the same port; an immediate restart cuts a
 * query in flight; `down` refuses connections until `up`; `stop` leaves no process and no folder, nor does a test
 * process that exits or is terminated without stopping its cluster; one whose process was killed outright is removed by
 * the next start.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { connect } from "node:net"
import { dirname } from "node:path"
import { fileURLToPath } from "node:url"
import { PgClient } from "@effect/sql-pg"
import { Effect, ManagedRuntime, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, describe, expect, it } from "vitest"
import { type RunningPostgres, startPostgres } from "../support/postgres"

const started: Array<RunningPostgres> = []
const start = async () => {
  const began = performance.now()
  const postgres = await startPostgres()
  started.push(postgres)
  return { postgres, ms: performance.now() - began }
}
afterAll(async () => {
  await Promise.all(started.map((postgres) => postgres.stop()))
})

/** A client as the services make one, from the URL alone. */
const client = (url: string) => ManagedRuntime.make(PgClient.layer({ url: Redacted.make(url) }))
type Client = ReturnType<typeof client>
const query = <A>(db: Client, f: (sql: SqlClient.SqlClient) => Effect.Effect<A, unknown>) =>
  db.runPromise(Effect.flatMap(SqlClient.SqlClient, f))
const withClient = async <A>(url: string, f: (db: Client) => Promise<A>): Promise<A> => {
  const db = client(url)
  try {
    return await f(db)
  } finally {
    await db.dispose()
  }
}
const notes = (url: string) =>
  withClient(url, (db) => query(db, (sql) => sql<{ text: string }>`SELECT text FROM notes ORDER BY id`)).then((rows) => rows.map((r) => r.text))

/** Polls `check` every 25 ms until it holds, for at most `ms`. */
const eventually = async (what: string, check: () => boolean | Promise<boolean>, ms = 10_000) => {
  const until = performance.now() + ms
  while (!(await check())) {
    if (performance.now() > until) throw new Error(`${what}: not within ${ms} ms`)
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

const uidOf = (pid: number) => Number(/^Uid:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1])
/**
 * Whether `pid` is a running postgres process: not a reused pid running something else, and not a zombie (a dead
 * process whose parent has not collected it; an orphan's parent is pid 1, which in a container may never do so).
 */
const isPostgres = (pid: number) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
    const command = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"))
    return command.startsWith("postgres") && stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z"
  } catch {
    return false
  }
}
/** The postmaster and every process it started (backends, checkpointer, WAL writer…). */
const serverProcesses = (postmaster: number): Array<number> => {
  const children = readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        // The parent pid is the 2nd field after the command in parentheses.
        const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
        return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === postmaster
      } catch {
        return false
      }
    })
    .map(Number)
  return [postmaster, ...children]
}
const refused = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, "127.0.0.1")
    socket.once("connect", () => {
      socket.destroy()
      resolve(false)
    })
    socket.once("error", (error: NodeJS.ErrnoException) => resolve(error.code === "ECONNREFUSED"))
  })

describe("a throw-away Postgres cluster for tests (test/support/postgres.ts)", () => {
  it("runs a cluster of its own on a loopback port, as an unprivileged user, with the tests' database", async () => {
    const { postgres, ms } = await start()
    console.log(`cluster started in ${ms.toFixed(0)} ms (template ready)`)
    expect(postgres.url).toBe(`postgres://postgres@127.0.0.1:${postgres.port}/wallet_runtime`)
    const pid = postgres.pid()
    if (pid === undefined) throw new Error("no postmaster")
    const uid = uidOf(pid)
    expect(uid).not.toBe(0)
    if (process.getuid?.() !== 0) expect(uid).toBe(process.getuid?.())
    const [where] = await withClient(postgres.url, (db) =>
      query(db, (sql) => sql<{ db: string; addr: string; port: number; user: string }>`
        SELECT current_database() AS db, host(inet_server_addr()) AS addr, inet_server_port() AS port, current_user AS user`)
    )
    expect(where).toEqual({ db: "wallet_runtime", addr: "127.0.0.1", port: postgres.port, user: "postgres" })
  })

  it("keeps a written row across a fast and an immediate restart on the same port, and an immediate one cuts a query in flight", async () => {
    const { postgres } = await start()
    const { url, port } = postgres
    await withClient(url, (db) =>
      query(db, (sql) =>
        Effect.andThen(sql`CREATE TABLE notes (id serial PRIMARY KEY, text text NOT NULL)`, sql`INSERT INTO notes (text) VALUES ('before the restarts')`)
      )
    )
    const firstPid = postgres.pid()

    let began = performance.now()
    await postgres.restart({ mode: "fast" })
    console.log(`fast restart in ${(performance.now() - began).toFixed(0)} ms`)
    expect(postgres.pid()).not.toBe(firstPid)
    expect(postgres.port).toBe(port)
    expect(await notes(url)).toEqual(["before the restarts"])

    await withClient(url, async (db) => {
      await query(db, (sql) => sql`INSERT INTO notes (text) VALUES ('committed just before the crash')`)
      const sleeping = query(db, (sql) => sql`SELECT pg_sleep(60)`).then(
        () => "finished",
        (error: unknown) => `cut: ${String(error)}`
      )
      await eventually("the long query running", async () => {
        const rows = await withClient(url, (watcher) =>
          query(watcher, (sql) => sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_stat_activity WHERE query LIKE 'SELECT pg_sleep%'`)
        )
        return rows[0]?.n === 1
      })
      began = performance.now()
      await postgres.restart({ mode: "immediate" })
      console.log(`immediate restart in ${(performance.now() - began).toFixed(0)} ms`)
      expect(await sleeping).toMatch(/^cut: /)
    })
    // It was a crash: the server recovered from its WAL, and lost nothing committed.
    expect(postgres.logTail(10)).toMatch(/database system was interrupted|not properly shut down; automatic recovery in progress/)
    expect(await notes(url)).toEqual(["before the restarts", "committed just before the crash"])
  })

  it("refuses connections while down and serves again after up, on the same port and data", async () => {
    const { postgres } = await start()
    await withClient(postgres.url, (db) => query(db, (sql) => sql`CREATE TABLE notes (id serial PRIMARY KEY, text text NOT NULL)`))
    await postgres.down()
    expect(postgres.pid()).toBeUndefined()
    expect(await refused(postgres.port)).toBe(true)
    await expect(notes(postgres.url)).rejects.toThrow()
    await postgres.up()
    expect(await refused(postgres.port)).toBe(false)
    expect(await notes(postgres.url)).toEqual([])
  })

  it("keeps two clusters apart", async () => {
    const [a, b] = await Promise.all([start(), start()])
    if (a === undefined || b === undefined) throw new Error("no clusters")
    expect(a.postgres.port).not.toBe(b.postgres.port)
    expect(a.postgres.dataDir).not.toBe(b.postgres.dataDir)
    await withClient(a.postgres.url, (db) => query(db, (sql) => sql`CREATE TABLE notes (id serial PRIMARY KEY, text text NOT NULL)`))
    const hasNotes = (url: string) =>
      withClient(url, (db) => query(db, (sql) => sql<{ found: boolean }>`SELECT to_regclass('notes') IS NOT NULL AS found`)).then((rows) => rows[0]?.found)
    expect(await hasNotes(a.postgres.url)).toBe(true)
    expect(await hasNotes(b.postgres.url)).toBe(false)
  })

  it("stops for good: no postgres process and no folder left, and a second stop is harmless", async () => {
    const { postgres } = await start()
    const folder = dirname(postgres.dataDir)
    const pid = postgres.pid()
    if (pid === undefined) throw new Error("no postmaster")
    // A client connected at stop: its backend must go too.
    const db = client(postgres.url)
    await query(db, (sql) => sql`SELECT 1`)
    const processes = serverProcesses(pid)
    expect(processes.length).toBeGreaterThan(3)
    expect(processes.every(isPostgres)).toBe(true)
    let began = performance.now()
    await postgres.stop()
    console.log(`stop in ${(performance.now() - began).toFixed(0)} ms`)
    await db.dispose()
    expect(processes.filter(isPostgres)).toEqual([])
    expect(existsSync(folder)).toBe(false)
    began = performance.now()
    await postgres.stop()
    expect(performance.now() - began).toBeLessThan(100)
    await expect(postgres.up()).rejects.toThrow(/stopped/)
  })

  it("stops the cluster of a test process that exits or is terminated without stopping it, and removes one whose process was killed", async () => {
    const harness = fileURLToPath(new URL("../support/postgres.ts", import.meta.url))
    /** A node process that starts a cluster, says where, then exits when told (`exit`) or waits for a signal (`wait`). */
    const orphan = (mode: "exit" | "wait") =>
      new Promise<{ readonly folder: string; readonly pid: number; readonly processes: Array<number>; readonly child: ChildProcess }>(
        (resolve, reject) => {
          const code =
            `const { startPostgres } = await import(${JSON.stringify(harness)});` +
            "const { dirname } = await import('node:path');" +
            "const pg = await startPostgres();" +
            "console.log(JSON.stringify({ folder: dirname(pg.dataDir), pid: pg.pid() }));" +
            (mode === "exit" ? "process.stdin.once('data', () => process.exit(0))" : "setInterval(() => {}, 1000)")
          const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", code], { stdio: ["pipe", "pipe", "pipe"] })
          let out = ""
          let err = ""
          child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()))
          child.stdout.on("data", (chunk: Buffer) => {
            out += chunk.toString()
            const line = out.split("\n").find((l) => l.startsWith("{"))
            if (line === undefined) return
            const said = JSON.parse(line) as { folder: string; pid: number }
            resolve({ ...said, processes: serverProcesses(said.pid), child })
          })
          child.once("exit", (code) => {
            if (!out.includes("{")) reject(new Error(`the child exited (${code}) before starting a cluster:\n${err}`))
          })
        }
      )
    const exited = await orphan("exit")
    expect(exited.processes.every(isPostgres)).toBe(true)
    exited.child.stdin?.write("exit\n")
    await eventually("the exit hook stopping the server", () => exited.processes.every((pid) => !isPostgres(pid)))
    await eventually("the exit hook removing the folder", () => !existsSync(exited.folder))

    // As vitest ends its fork workers: SIGTERM. The clusters are stopped, then the signal still ends the process.
    const terminated = await orphan("wait")
    expect(terminated.processes.every(isPostgres)).toBe(true)
    terminated.child.kill("SIGTERM")
    expect(await new Promise((resolve) => terminated.child.once("exit", (_code, signal) => resolve(signal)))).toBe("SIGTERM")
    expect(existsSync(terminated.folder)).toBe(false)
    await eventually("the signal handler stopping the server", () => terminated.processes.every((pid) => !isPostgres(pid)))

    const killed = await orphan("wait")
    killed.child.kill("SIGKILL")
    await new Promise((resolve) => killed.child.once("exit", resolve))
    // Killed outright, it ran no hook: the server is left, until the next start reaps it.
    expect(killed.processes.every(isPostgres)).toBe(true)
    expect(existsSync(killed.folder)).toBe(true)
    await start()
    expect(killed.processes.filter(isPostgres)).toEqual([])
    expect(existsSync(killed.folder)).toBe(false)
  })
})
