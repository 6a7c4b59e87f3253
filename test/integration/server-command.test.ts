/**
 * The server a host runs, as a host runs it: `server/bin/wallet-runtime-server.mjs` spawned with a config file (and
 * environment variables) in a temp folder, against real parts — an anvil chain, an SMTP server that wants a login,
 * a throw-away Postgres cluster (test/support/postgres.ts). It
 * serves health, readiness, OpenAPI, the blockchain API on the configured chain, the relay and the wallet server;
 * SIGTERM lets a request in flight finish, closes relay sockets with 1001 and exits 0 with no process left; a bad
 * configuration exits 1 naming the setting; secrets are in no log line; processes starting together on one database
 * take turns on the migrations.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import { randomUUID } from "node:crypto"
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs"
import { createServer, type Server } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { SMTPServer } from "smtp-server"
import { afterAll, beforeAll, describe, expect, it, type OnTestFinishedHandler } from "vitest"
import WebSocket from "ws"
import { Effect } from "effect"
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts"
import { startAnvil } from "../../devstack/evm/anvil"
import { RELAY_AUTH_REFUSED } from "../../server/src/relay/auth"
import { generateClientSeed, signRelayJwt } from "../../src/services/walletconnect/protocol/relayJwt"
import { MIGRATIONS_LOCK_KEY } from "../../server/src/db/index"
import { migrations } from "../../server/src/db/migrations"
import { makeFramePageBuilder } from "../../server/src/embedded/frame/build"
import type { Started } from "../../server/src/lib/Started"
import { freePort } from "../../server/src/lib/ports"
import { within } from "../../server/src/lib/within"
import { fallbackCatalogue } from "../../src/services/walletCatalogFallback"
import { type RunningPostgres, startPostgres } from "../support/postgres"

const BIN = fileURLToPath(new URL("../../server/bin/wallet-runtime-server.mjs", import.meta.url))
const DEV_ACCOUNT = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"
const DB_PASSWORD = "pg-Pass-73519"
const SMTP_PASSWORD = "smtp-Pass-20468"
// Every wait of this file is bounded by one of these.
const START_MS = 45_000
const STOP_MS = 20_000
/**
 * How many refusal cases run their command at once. Five at once took ~20 s each on a loaded 2-core machine (bound
 * START_MS); three keep each well inside it and still use both cores while another command waits on I/O.
 */
const REFUSALS_AT_ONCE = 3

/** Runs the tasks given to it `limit` at a time, the others waiting their turn in order. */
const takingTurns = (limit: number) => {
  let running = 0
  const waiting: Array<() => void> = []
  return async <A>(task: () => Promise<A>): Promise<A> => {
    if (running >= limit) await new Promise<void>((resolve) => waiting.push(resolve))
    else running++
    try {
      return await task()
    } finally {
      // The turn passes to the next in line (which keeps the count), or the count drops.
      const next = waiting.shift()
      if (next === undefined) running--
      else next()
    }
  }
}

// -- a spawned server ---------------------------------------------------------------------------------------------

interface LogLine {
  readonly message?: unknown
  readonly level?: string
  readonly annotations?: Record<string, unknown>
}

interface ServerProcess {
  readonly child: ChildProcess
  /** Everything it printed so far. */
  readonly stdout: () => string
  readonly stderr: () => string
  /** Resolves with the first JSON log line matching `test`; rejects when the process exits first, or after `ms`. */
  readonly waitForLog: (test: (line: LogLine) => boolean, ms?: number) => Promise<LogLine>
  /** Resolves with the exit code (or the signal's name), within `ms`. */
  readonly exited: (ms?: number) => Promise<number | string>
  /** The URL of each component, from its "listening" line. */
  readonly urls: () => Promise<{ readonly services: string; readonly relay: string; readonly wallet: string }>
  /** The URL of one component, from its "listening" line. */
  readonly urlOf: (component: "services" | "relay" | "wallet" | "bundler") => Promise<string>
}

const folders: Array<string> = []

const tempFolder = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  folders.push(dir)
  return dir
}

const parse = (line: string): LogLine | undefined => {
  try {
    const value: unknown = JSON.parse(line)
    return typeof value === "object" && value !== null ? (value as LogLine) : undefined
  } catch {
    return undefined
  }
}

/** The test context's `onTestFinished`: each test stops its own processes (the refusal cases run side by side). */
type AtEnd = (handler: OnTestFinishedHandler) => void

/** Kills `child` if it still runs: what a test that failed half-way left. */
const killLeft = (child: ChildProcess) => {
  if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL")
}

/**
 * Runs the server command in `cwd` with `config` as `server.json` (when given) and only `env` besides PATH and HOME;
 * killed when the test ends if still running (`atEnd`).
 */
const startServerProcess = (atEnd: AtEnd, cwd: string, config: unknown, env: Record<string, string> = {}): ServerProcess => {
  if (config !== undefined) writeFileSync(join(cwd, "server.json"), JSON.stringify(config, null, 2))
  const child = spawn(process.execPath, [BIN, ...(config === undefined ? [] : ["--config", "server.json"])], {
    cwd,
    env: { PATH: process.env["PATH"] ?? "", HOME: process.env["HOME"] ?? cwd, ...env },
    stdio: ["ignore", "pipe", "pipe"]
  })
  atEnd(() => killLeft(child))
  let out = ""
  let err = ""
  const lines: Array<LogLine> = []
  const listeners = new Set<() => void>()
  const collect = (chunk: Buffer, into: "out" | "err") => {
    const text = chunk.toString("utf8")
    if (into === "out") out += text
    else err += text
    lines.splice(0, lines.length, ...`${out}\n${err}`.split("\n").flatMap((line) => parse(line) ?? []))
    for (const listener of listeners) listener()
  }
  child.stdout?.on("data", (chunk: Buffer) => collect(chunk, "out"))
  child.stderr?.on("data", (chunk: Buffer) => collect(chunk, "err"))
  const exit = new Promise<number | string>((resolve) => child.once("exit", (code, signal) => resolve(code ?? signal ?? "unknown")))
  const bounded = <A>(promise: Promise<A>, ms: number, what: string) =>
    within(promise, ms, () => new Error(`${what} not within ${ms} ms\nstdout:\n${out}\nstderr:\n${err}`))
  const waitForLog = (test: (line: LogLine) => boolean, ms = START_MS) =>
    bounded(
      new Promise<LogLine>((resolve, reject) => {
        const check = () => {
          const found = lines.find(test)
          if (found !== undefined) {
            listeners.delete(check)
            resolve(found)
          }
        }
        listeners.add(check)
        check()
        void exit.then((code) => {
          listeners.delete(check)
          reject(new Error(`the server exited (${code}) before the line awaited\nstdout:\n${out}\nstderr:\n${err}`))
        })
      }),
      ms,
      "the log line awaited"
    )
  const urlOf = async (component: string) =>
    String((await waitForLog((line) => line.message === `${component} listening`)).annotations?.["url"])
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    waitForLog,
    exited: (ms = STOP_MS) => bounded(exit, ms, "the exit"),
    urls: async () => ({ services: await urlOf("services"), relay: await urlOf("relay"), wallet: await urlOf("wallet") }),
    urlOf
  }
}

/** The process ids below `pid`, from `ps`. */
const descendantsOf = (pid: number): ReadonlyArray<number> => {
  const table = execFileSync("ps", ["-eo", "pid=,ppid="], { encoding: "utf8" })
    .trim()
    .split("\n")
    .map((row) => row.trim().split(/\s+/).map(Number) as [number, number])
  const below = (parent: number): ReadonlyArray<number> => table.filter(([, ppid]) => ppid === parent).flatMap(([child]) => [child, ...below(child)])
  return below(pid)
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

/** The processes of `pids` still running after a bounded wait for them to go, with their command lines. */
const leftOf = async (pids: ReadonlyArray<number>): Promise<ReadonlyArray<string>> => {
  for (const deadline = performance.now() + 5_000; pids.some(alive) && performance.now() < deadline; ) {
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return pids.filter(alive).map((pid) => {
    try {
      return `${pid} ${execFileSync("ps", ["-o", "args=", "-p", String(pid)], { encoding: "utf8" }).trim()}`
    } catch {
      return String(pid)
    }
  })
}

// -- the real parts around it -------------------------------------------------------------------------------------

interface SmtpSink {
  readonly port: number
  readonly logins: Array<{ readonly user: string; readonly password: string }>
  readonly mails: Array<{ readonly to: ReadonlyArray<string>; readonly data: string }>
  /** Resolves with the first mail to `to`, within `ms`. */
  readonly mailTo: (to: string, ms?: number) => Promise<{ readonly data: string }>
  readonly close: () => Promise<void>
}

/** An SMTP server that takes any login (no TLS: the configs below say `security: "none"`) and keeps what it gets. */
const startSmtp = async (): Promise<SmtpSink> => {
  const logins: SmtpSink["logins"] = []
  const mails: SmtpSink["mails"] = []
  const waiting = new Set<() => void>()
  const server = new SMTPServer({
    logger: false,
    disabledCommands: ["STARTTLS"],
    allowInsecureAuth: true,
    authOptional: true,
    onAuth(auth, _session, callback) {
      logins.push({ user: auth.username ?? "", password: auth.password ?? "" })
      callback(null, { user: auth.username })
    },
    onData(stream, session, callback) {
      const chunks: Array<Buffer> = []
      stream.on("data", (chunk: Buffer) => chunks.push(chunk))
      stream.on("end", () => {
        mails.push({ to: session.envelope.rcptTo.map((rcpt) => rcpt.address), data: Buffer.concat(chunks).toString("utf8") })
        for (const wake of waiting) wake()
        callback()
      })
    }
  })
  server.on("error", () => undefined)
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()))
  const address = server.server.address()
  const mailTo = (to: string, ms = 15_000) =>
    new Promise<{ readonly data: string }>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no mail to ${to} within ${ms} ms`)), ms)
      const check = () => {
        const found = mails.find((mail) => mail.to.includes(to))
        if (found === undefined) return
        clearTimeout(timer)
        waiting.delete(check)
        resolve(found)
      }
      waiting.add(check)
      check()
    })
  return {
    port: typeof address === "object" && address !== null ? address.port : 0,
    logins,
    mails,
    mailTo,
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}

/** A JSON-RPC upstream that holds each request until the test releases it (a request in flight across a stop). */
const startHeldUpstream = async () => {
  const held: Array<() => void> = []
  const arrivals = new Set<() => void>()
  const server: Server = createServer((request, response) => {
    let body = ""
    request.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")))
    request.on("end", () => {
      const id = (JSON.parse(body) as { id?: unknown }).id ?? null
      held.push(() => response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", id, result: "0x7a69" })))
      for (const wake of arrivals) wake()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()))
  const address = server.address()
  return {
    url: `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}`,
    /** Resolves once a request waits here. */
    arrived: () =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error("no request reached the upstream")), 15_000)
        const check = () => {
          if (held.length === 0) return
          clearTimeout(timer)
          arrivals.delete(check)
          resolve()
        }
        arrivals.add(check)
        check()
      }),
    release: () => {
      for (const answer of held.splice(0)) answer()
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}

/** SQL through psql on the test cluster (its superuser is trusted on loopback), rows `|`-separated. */
const psql = (port: number, database: string, statement: string) =>
  execFileSync("psql", ["-h", "127.0.0.1", "-p", String(port), "-U", "postgres", "-d", database, "-At", "-v", "ON_ERROR_STOP=1", "-c", statement], {
    encoding: "utf8",
    timeout: 20_000
  }).trim()

/**
 * A URL of database `name` on the test cluster with a password in it, to show it never leaks: the cluster trusts
 * loopback, so any password is accepted.
 */
const urlWithPassword = (name: string) => `postgres://postgres:${DB_PASSWORD}@127.0.0.1:${postgres.port}/${name}`

let anvil: Started<{ readonly rpcUrl: string }>
let smtp: SmtpSink
let postgres: RunningPostgres
/** The servers' frame build folder (`wallet.frameBuildDir`). */
let frameDir: string

beforeAll(async () => {
  frameDir = tempFolder("wr-frame-")
  const frame = makeFramePageBuilder(frameDir)
  // The wallet component builds its frame page at start; built once here, the servers below find it built.
  await Promise.all([
    frame
      .latest()
      .ready.finally(() => frame.stop()),
    startAnvil({ chainId: 31337 }).then((started) => (anvil = started)),
    startSmtp().then((started) => (smtp = started)),
    startPostgres().then((started) => (postgres = started))
  ])
}, 120_000)

afterAll(async () => {
  await Promise.allSettled([anvil?.stop(), smtp?.close(), postgres?.stop()])
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true })
})

/** A config a host could write, on ports the OS chooses. */
const hostConfig = (dir: string, extra: Record<string, unknown> = {}) => ({
  database: { dataDir: join(dir, "pglite") },
  services: { port: 0 },
  relay: { port: 0 },
  wallet: { port: 0, masterKeyFile: join(dir, "master-key"), createMasterKey: true, frameBuildDir: frameDir },
  chains: { "eip155:31337": { name: "Local chain", rpcUrls: [anvil.info.rpcUrl] } },
  projects: [{ projectId: "host-app", allowedOrigins: ["https://app.example"] }],
  smtp: { host: "127.0.0.1", port: smtp.port, security: "none", from: "wallet@host.example" },
  limits: { drainMs: 5_000 },
  ...extra
})

const json = async (url: string, init?: RequestInit) => {
  const response = await fetch(url, init)
  return { status: response.status, headers: response.headers, body: (await response.json()) as unknown }
}

/** Opens a relay connection at `relayUrl` with an auth JWT for `aud`; resolves with its close code. */
const relayConnection = async (relayUrl: string, aud: string) => {
  const token = await Effect.runPromise(signRelayJwt(generateClientSeed(), { aud, sub: randomUUID(), now: Date.now() }))
  const socket = new WebSocket(`${relayUrl}/?auth=${token}&projectId=host-app`)
  const closed = new Promise<number>((resolve) => socket.once("close", (code) => resolve(code)))
  return { socket, closed }
}

/** A relay client: opens (its JWT for `aud`), answers one subscribe, and reports how the relay closed it. */
const relayClient = async (relayUrl: string, aud = relayUrl) => {
  const { socket, closed } = await relayConnection(relayUrl, aud)
  const bounded = <A>(what: string, wait: Promise<A>) =>
    Promise.race([
      wait,
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`the relay gave no ${what} within 10 s`)), 10_000).unref())
    ])
  await bounded(
    "open",
    new Promise<void>((resolve, reject) => {
      socket.once("open", () => resolve())
      socket.once("error", reject)
      socket.once("close", (code) => reject(new Error(`the relay closed the connection (${code})`)))
    })
  )
  const answer = bounded(
    "answer",
    new Promise<unknown>((resolve) => socket.once("message", (data: Buffer) => resolve(JSON.parse(data.toString("utf8")))))
  )
  socket.send(JSON.stringify({ id: 1, jsonrpc: "2.0", method: "irn_subscribe", params: { topic: "a".repeat(64) } }))
  return { subscribed: await answer, closed }
}

describe("wallet-runtime-server", () => {
  it("runs from a config file on PGlite: health, readiness, OpenAPI, the configured chain and project, the relay and the wallet server; SIGTERM drains and exits 0", async ({ onTestFinished }) => {
    const dir = tempFolder("wr-server-")
    const upstream = await startHeldUpstream()
    try {
      const server = startServerProcess(
        onTestFinished,
        dir,
        hostConfig(dir, {
          chains: {
            // Its first RPC URL is a closed port: the services fail over to anvil.
            "eip155:31337": { name: "Local chain", rpcUrls: [`http://127.0.0.1:${await freePort()}`, anvil.info.rpcUrl] },
            "eip155:31338": { rpcUrls: [upstream.url] }
          },
          prices: { fixed: { ETH: 2000 } },
          // A folder of its own: the server builds its frame page there at start, from a working directory that is
          // not this repository.
          wallet: { port: 0, masterKeyFile: join(dir, "master-key"), createMasterKey: true, frameBuildDir: join(dir, "frame") }
        })
      )
      const { services, relay, wallet } = await server.urls()
      await server.waitForLog((line) => line.message === "started")

      expect(await json(`${services}/healthz`)).toMatchObject({ status: 200, body: { status: "ok" } })
      expect(await json(`${services}/readyz`)).toMatchObject({ status: 200, body: { status: "ready" } })
      const openapi = await json(`${services}/openapi.json`)
      expect(openapi.body).toMatchObject({ openapi: "3.1.0" })
      expect(Object.keys((openapi.body as { paths: object }).paths)).toContain("/getWallets")
      // The index page says what the server is, and names none of its projects.
      const index = await fetch(`${services}/`)
      const page = await index.text()
      expect([index.status, page]).toEqual([200, expect.stringContaining("/openapi.json")])
      expect(page).not.toContain("host-app")
      expect(page).not.toMatch(/devstack|test wallet/i)

      // The catalogue is the library's bundled wallet list: real wallets' public ids, none of the local stack's.
      const catalogue = await json(`${services}/getWallets?projectId=host-app&entries=100`, { headers: { origin: "https://app.example" } })
      const listed = (catalogue.body as { data: ReadonlyArray<{ id: string; name: string }>; count: number })
      expect(listed.count).toBe(fallbackCatalogue().length)
      expect(listed.data.map((wallet) => wallet.id)).toEqual(fallbackCatalogue().map((entry) => entry.id))
      expect(listed.data.filter((wallet) => /devstack/i.test(wallet.name))).toEqual([])

      // The configured project, from its own origin and from another; an unknown one.
      const chains = await json(`${services}/v1/supported-chains?projectId=host-app`, { headers: { origin: "https://app.example" } })
      expect(chains).toMatchObject({ status: 200, body: { http: ["eip155:31337", "eip155:31338"], ws: [] } })
      expect(chains.headers.get("access-control-allow-origin")).toBe("https://app.example")
      const elsewhere = await fetch(`${services}/v1/supported-chains?projectId=host-app`, { headers: { origin: "https://evil.example" } })
      expect([elsewhere.status, await elsewhere.text()]).toEqual([403, "Unauthorized: origin not allowed"])
      expect((await fetch(`${services}/v1/supported-chains?projectId=someone-else`)).status).toBe(401)

      // Read from the configured chain past its dead first URL (anvil funds its first account with 10000 ETH), priced
      // by the configured table; the icons the answer names are under the services' URL.
      const balance = await json(`${services}/v1/account/${DEV_ACCOUNT}/balance?currency=usd&chainId=eip155:31337&projectId=host-app`)
      expect(balance.status).toBe(200)
      expect((balance.body as { balances: ReadonlyArray<unknown> }).balances).toContainEqual(
        expect.objectContaining({
          symbol: "ETH",
          price: 2000,
          value: 20_000_000,
          quantity: expect.objectContaining({ numeric: "10000" }),
          iconUrl: expect.stringMatching(new RegExp(`^${services}/`))
        })
      )

      // The relay takes a WebSocket client and answers it.
      const client = await relayClient(relay)
      expect(client.subscribed).toMatchObject({ id: 1, jsonrpc: "2.0", result: expect.stringMatching(/^[0-9a-f]{64}$/) })

      // The frame page, built at start into the configured folder.
      const frame = await fetch(`${wallet}/frame?projectId=host-app&chainId=eip155:31337`, { signal: AbortSignal.timeout(START_MS) })
      expect([frame.status, await frame.text()]).toEqual([200, expect.stringContaining('<script type="module"')])
      expect(readdirSync(join(dir, "frame"))).toEqual([expect.stringMatching(/^[0-9a-f]{16}$/)])

      // The wallet server: its chains, and a login code mailed through the configured SMTP server.
      expect(await json(`${wallet}/api/chains?projectId=host-app`)).toMatchObject({ status: 200, body: { chains: ["eip155:31337", "eip155:31338"] } })
      const login = await json(`${wallet}/api/login/email`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ projectId: "host-app", deviceId: "device-0123456789abcdef", email: "ann@example.test" })
      })
      expect(login).toMatchObject({ status: 200, body: { action: "VERIFY_OTP" } })
      const mail = await smtp.mailTo("ann@example.test")
      expect(mail.data).toMatch(/^From: wallet@host\.example\r?$/m)
      expect(mail.data).toMatch(/(?<!\d)\d{6}(?!\d)/)

      // A request in flight when SIGTERM arrives: a JSON-RPC call the upstream holds.
      const inFlight = fetch(`${services}/v1/?chainId=eip155:31338&projectId=host-app`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 7, method: "eth_chainId", params: [] })
      })
      await upstream.arrived()
      const below = descendantsOf(server.child.pid ?? 0)
      server.child.kill("SIGTERM")
      await server.waitForLog((line) => line.message === "stopping: draining requests in flight")
      expect(await client.closed).toBe(1001)
      // The services stop accepting while the request is still held, then it gets its answer.
      for (const deadline = performance.now() + STOP_MS; ; ) {
        const refused = await fetch(`${services}/healthz`).then(
          () => false,
          () => true
        )
        if (refused) break
        if (performance.now() > deadline) throw new Error("the services kept accepting after SIGTERM")
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
      upstream.release()
      const answered = await inFlight
      expect([answered.status, await answered.json()]).toEqual([200, { jsonrpc: "2.0", id: 7, result: "0x7a69" }])
      expect(await server.exited()).toBe(0)
      await server.waitForLog((line) => line.message === "stopped", 1)
      expect(await leftOf([server.child.pid ?? 0, ...below])).toEqual([])
    } finally {
      await upstream.close()
    }
  })

  it("runs on the Postgres of DATABASE_URL behind public URLs, with an SMTP login: neither password is in any log line", async ({ onTestFinished }) => {
    const dir = tempFolder("wr-server-")
    psql(postgres.port, "postgres", "CREATE DATABASE secrets")
    const config = hostConfig(dir, {
      services: { port: 0, publicUrl: "https://api.host.example" },
      relay: { port: 0, publicUrl: "wss://relay.host.example" },
      wallet: { port: 0, masterKeyFile: join(dir, "master-key"), createMasterKey: true, frameBuildDir: frameDir, publicUrl: "https://wallet.host.example" },
      log: { level: "debug", accessLog: true }
    })
    const server = startServerProcess(onTestFinished, dir, config, {
      DATABASE_URL: urlWithPassword("secrets"),
      WALLET_RUNTIME_SMTP_USER: "wallet",
      WALLET_RUNTIME_SMTP_PASSWORD: SMTP_PASSWORD
    })
    // Each component says where it listens and where browsers reach it.
    const listening = await Promise.all(
      (["services", "relay", "wallet"] as const).map((component) => server.waitForLog((line) => line.message === `${component} listening`))
    )
    expect(listening.map((line) => line.annotations?.["url"])).toEqual(["https://api.host.example", "wss://relay.host.example", "https://wallet.host.example"])
    const [services, relay, wallet] = listening.map((line) => String(line.annotations?.["listen"]))
    // Clients sign their relay JWT for the public URL they dial; the relay behind the proxy takes it, not another's.
    const client = await relayClient(String(relay), "wss://relay.host.example")
    expect(client.subscribed).toMatchObject({ id: 1, result: expect.stringMatching(/^[0-9a-f]{64}$/) })
    expect(await (await relayConnection(String(relay), "wss://relay.elsewhere.example")).closed).toBe(RELAY_AUTH_REFUSED)
    const database = await server.waitForLog((line) => line.annotations?.["component"] === "database")
    expect(database.annotations).toEqual({ component: "database", kind: "postgres", at: `postgres://127.0.0.1:${postgres.port}/secrets` })
    expect(await json(`${services}/readyz`)).toMatchObject({ status: 200, body: { status: "ready" } })
    expect(await json(`${wallet}/readyz`)).toMatchObject({ status: 200, body: { status: "ready" } })
    // The answers carry the public URL: a token's icon in a balance.
    const balance = await json(`${services}/v1/account/${DEV_ACCOUNT}/balance?currency=usd&chainId=eip155:31337&projectId=host-app`)
    expect((balance.body as { balances: ReadonlyArray<{ iconUrl: string }> }).balances[0]?.iconUrl).toMatch(/^https:\/\/api\.host\.example\//)
    await json(`${wallet}/api/login/email`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ projectId: "host-app", deviceId: "device-fedcba9876543210", email: "bea@example.test" })
    })
    await smtp.mailTo("bea@example.test")
    // The password was used, so it was there to leak.
    expect(smtp.logins).toContainEqual({ user: "wallet", password: SMTP_PASSWORD })
    server.child.kill("SIGTERM")
    expect(await server.exited()).toBe(0)
    const printed = `${server.stdout()}\n${server.stderr()}`
    expect(printed).toContain("services listening")
    expect(printed).not.toContain(DB_PASSWORD)
    expect(printed).not.toContain(SMTP_PASSWORD)
  })

  it("two processes started together on one database both become ready, each migration recorded once", async ({ onTestFinished }) => {
    psql(postgres.port, "postgres", "CREATE DATABASE together")
    const config = { ...hostConfig(tempFolder("wr-server-")), components: ["services"] }
    const [a, b] = [0, 1].map(() => startServerProcess(onTestFinished, tempFolder("wr-server-"), config, { DATABASE_URL: urlWithPassword("together") }))
    if (a === undefined || b === undefined) throw new Error("unreachable")
    const [first, second] = await Promise.all([a.urlOf("services"), b.urlOf("services")])
    expect(await json(`${first}/readyz`)).toMatchObject({ status: 200 })
    expect(await json(`${second}/readyz`)).toMatchObject({ status: 200 })
    const recorded = psql(postgres.port, "together", "SELECT migration_id, count(*) FROM effect_sql_migrations GROUP BY migration_id ORDER BY migration_id")
    expect(recorded.split("\n")).toEqual(Object.keys(migrations).map((key) => `${Number(key.slice(0, 4))}|1`))
    a.child.kill("SIGTERM")
    b.child.kill("SIGTERM")
    expect(await Promise.all([a.exited(), b.exited()])).toEqual([0, 0])
  })

  it("waits for the migrations' advisory lock while another session holds it, then serves", async ({ onTestFinished }) => {
    psql(postgres.port, "postgres", "CREATE DATABASE locked")
    // A session holding the lock until told to let go.
    const holder = spawn("psql", ["-h", "127.0.0.1", "-p", String(postgres.port), "-U", "postgres", "-d", "locked", "-At", "-v", "ON_ERROR_STOP=1"], {
      stdio: ["pipe", "pipe", "inherit"]
    })
    onTestFinished(() => killLeft(holder))
    const holding = new Promise<void>((resolve) => holder.stdout.once("data", () => resolve()))
    holder.stdin.write(`SELECT pg_advisory_lock(${MIGRATIONS_LOCK_KEY}) IS NULL;\n`)
    await holding
    const server = startServerProcess(onTestFinished, tempFolder("wr-server-"), { ...hostConfig(tempFolder("wr-server-")), components: ["services"] }, {
      DATABASE_URL: urlWithPassword("locked")
    })
    // The server's session waits on the lock (seen by Postgres), and meanwhile serves nothing.
    const low = Number(MIGRATIONS_LOCK_KEY & 0xffffffffn)
    for (const deadline = performance.now() + START_MS; ; ) {
      if (psql(postgres.port, "locked", `SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND objid = ${low} AND NOT granted`) === "1") break
      if (performance.now() > deadline) throw new Error(`the server never waited on the lock\n${server.stdout()}\n${server.stderr()}`)
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    expect(server.stdout()).not.toContain("services listening")
    expect(server.child.exitCode).toBeNull()
    holder.stdin.end(`SELECT pg_advisory_unlock(${MIGRATIONS_LOCK_KEY});\n`)
    const services = await server.urlOf("services")
    expect(await json(`${services}/readyz`)).toMatchObject({ status: 200, body: { status: "ready" } })
    server.child.kill("SIGTERM")
    expect(await server.exited()).toBe(0)
  })

  it("serves the catalogue of a host's file, and names under its configured suffix", async ({ onTestFinished }) => {
    const dir = tempFolder("wr-server-")
    const acme = {
      id: "acme-wallet",
      name: "Acme Wallet",
      image_id: "acme-logo",
      homepage: "https://acme.example/",
      mobile_link: "acme://",
      chains: ["eip155:1"]
    }
    const pictured = { ...acme, id: "pictured", name: "Pictured Purse", image_id: "pictured-logo", image_url: "https://cdn.acme.example/p.png" }
    writeFileSync(join(dir, "wallets.json"), JSON.stringify([acme, pictured]))
    const server = startServerProcess(onTestFinished, dir, {
      ...hostConfig(dir),
      components: ["services"],
      catalogue: { file: "wallets.json" },
      names: { suffix: ".names.example" }
    })
    const services = await server.urlOf("services")
    const call = (path: string, init?: RequestInit) => json(`${services}${path}${path.includes("?") ? "&" : "?"}projectId=host-app`, init)

    expect(await call("/getWallets")).toMatchObject({ status: 200, body: { data: [acme, pictured], count: 2 } })
    expect((await call("/getWallets?search=purse")).body).toEqual({ data: [pictured], count: 1 })
    // The server holds no logos: an image_id of its catalogue is drawn from the wallet's initials; another is a 404.
    const icon = await fetch(`${services}/getWalletImage/acme-logo`)
    expect([icon.status, icon.headers.get("content-type"), await icon.text()]).toEqual([200, "image/svg+xml", expect.stringMatching(/>AW<\/text><\/svg>$/)])
    expect((await fetch(`${services}/getWalletImage/someone-elses-logo`)).status).toBe(404)

    // A name under the configured suffix, signed by an EOA and checked on the configured chain.
    const signer = privateKeyToAccount(generatePrivateKey())
    const message = JSON.stringify({ name: "hostname.names.example", attributes: {}, timestamp: Math.floor(Date.now() / 1000) })
    const register = (body: unknown) => call("/v1/profile/account", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })
    const registration = { coin_type: 0x8000_0000 + 31337, address: signer.address, message, signature: await signer.signMessage({ message }) }
    expect(await register(registration)).toMatchObject({ status: 200, body: { name: "hostname.names.example" } })
    expect(await call("/v1/profile/account/hostname")).toMatchObject({ status: 200, body: { name: "hostname.names.example" } })
    expect(await call(`/v1/identity/${signer.address}`)).toMatchObject({ status: 200, body: { name: "hostname.names.example" } })
    expect(await call("/v1/profile/suggestions/hostname?zone=names.example")).toMatchObject({
      status: 200,
      body: { suggestions: [{ name: "hostname.names.example", registered: true }, { name: "hostname1.names.example", registered: false }, expect.anything(), expect.anything()] }
    })
    expect(await call("/v1/profile/suggestions/hostname?zone=wallet.test")).toMatchObject({
      status: 400,
      body: { reasons: [{ description: "Unknown zone wallet.test: this service's names end with .names.example" }] }
    })
    const local = JSON.stringify({ name: "visitor.wallet.test", attributes: {}, timestamp: Math.floor(Date.now() / 1000) })
    expect(await register({ ...registration, message: local, signature: await signer.signMessage({ message: local }) })).toMatchObject({
      status: 400,
      body: { reasons: [{ description: "Invalid name visitor.wallet.test: a name here ends with .names.example" }] }
    })
    server.child.kill("SIGTERM")
    expect(await server.exited()).toBe(0)
  })

  it("runs the bundler with its paymaster from the config: its endpoint answers, garbage is refused, neither key is in any log line", async ({ onTestFinished }) => {
    const dir = tempFolder("wr-server-")
    const bundlerKey = `0x${"5a".repeat(32)}`
    const signerKey = `0x${"6b".repeat(32)}`
    const server = startServerProcess(
      onTestFinished,
      dir,
      {
        ...hostConfig(dir),
        components: ["bundler"],
        bundler: { port: 0 },
        paymaster: { sponsor: "all", address: "0x2279B7A0a67DB372996a5FaB50D91eAA73d2eBe6" }
      },
      { WALLET_RUNTIME_BUNDLER_PRIVATE_KEY: bundlerKey, WALLET_RUNTIME_PAYMASTER_SIGNER_KEY: signerKey }
    )
    const url = `${await server.urlOf("bundler")}/rpc/31337`
    const call = (method: string, params: ReadonlyArray<unknown>) =>
      json(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) })
    expect(await call("eth_supportedEntryPoints", [])).toMatchObject({ status: 200, body: { result: ["0x4337084D9E255Ff0702461CF8895CE9E3b5Ff108"] } })
    expect(await call("eth_sendUserOperation", [{ sender: "0x12" }, "0x4337084D9E255Ff0702461CF8895CE9E3b5Ff108"])).toMatchObject({
      body: { error: { code: -32602, message: expect.stringContaining("sender") } }
    })
    expect((await fetch(url.replace("/rpc/31337", "/healthz"))).status).toBe(200)
    server.child.kill("SIGTERM")
    expect(await server.exited()).toBe(0)
    for (const key of [bundlerKey, signerKey]) expect(`${server.stdout()}${server.stderr()}`).not.toContain(key.slice(2, 20))
  })

  // A refusal comes after the command has loaded and read its config: bounded like a start (a loaded 2-core machine
  // took past STOP_MS), and each case may refuse three times (its bound counts from its own spawn, not from its turn).
  // The cases run side by side, REFUSALS_AT_ONCE commands at a time: one after another they took ~60-75 s of this
  // file's ~140 s, most of it each command loading while a core stayed idle. None shares a folder, a port or a
  // database with another.
  describe("refuses to start, exiting 1 with stderr naming the setting or the part at fault", { timeout: 6 * START_MS, concurrent: true }, () => {
    const turns = takingTurns(REFUSALS_AT_ONCE)
    const refused = (atEnd: AtEnd, config: unknown, env: Record<string, string> = {}) =>
      turns(async () => {
        const server = startServerProcess(atEnd, tempFolder("wr-server-"), config, env)
        expect(await server.exited(START_MS)).toBe(1)
        expect(server.stdout()).not.toContain("listening")
        return server.stderr()
      })

    it("a port that is not a number, in the file or in its variable", async ({ onTestFinished }) => {
      const dir = tempFolder("wr-server-")
      expect(await refused(onTestFinished, { ...hostConfig(dir), services: { port: "abc" } })).toContain('services.port in server.json is \\"abc\\": not a valid port')
      expect(await refused(onTestFinished, hostConfig(dir), { WALLET_RUNTIME_RELAY_PORT: "abc" })).toContain('WALLET_RUNTIME_RELAY_PORT is \\"abc\\": not a valid port')
    })

    it("a project origin that is not an origin, and a missing projects list", async ({ onTestFinished }) => {
      const dir = tempFolder("wr-server-")
      expect(await refused(onTestFinished, { ...hostConfig(dir), projects: [{ projectId: "host-app", allowedOrigins: ["app.example"] }] })).toContain(
        'projects[0].allowedOrigins[0] in server.json is \\"app.example\\": expected an origin'
      )
      const { projects: _left, ...withoutProjects } = hostConfig(dir)
      expect(await refused(onTestFinished, withoutProjects)).toContain("projects (or WALLET_RUNTIME_PROJECTS) is missing")
    })

    it("a database URL that is not a Postgres one, without showing it", async ({ onTestFinished }) => {
      const stderr = await refused(onTestFinished, hostConfig(tempFolder("wr-server-")), { DATABASE_URL: `mysql://app:${DB_PASSWORD}@127.0.0.1/app` })
      expect(stderr).toContain("DATABASE_URL (value not shown: a secret): not a valid Postgres URL")
      expect(stderr).not.toContain(DB_PASSWORD)
    })

    it("a master-key file that does not exist when it may not be made", async ({ onTestFinished }) => {
      const dir = tempFolder("wr-server-")
      const config = hostConfig(dir, { wallet: { port: 0, masterKeyFile: join(dir, "missing-key") } })
      expect(await refused(onTestFinished, config)).toContain(`wallet.masterKeyFile (WALLET_RUNTIME_WALLET_MASTER_KEY_FILE): ${join(dir, "missing-key")} does not exist`)
    })

    it("a database it cannot reach, named without its password; a port another process holds, named with its component", async ({ onTestFinished }) => {
      const closed = await freePort()
      const unreachable = await refused(onTestFinished, { ...hostConfig(tempFolder("wr-server-")), components: ["services"] }, {
        DATABASE_URL: `postgres://app:${DB_PASSWORD}@127.0.0.1:${closed}/app`
      })
      expect(unreachable).toContain(`database (postgres://127.0.0.1:${closed}/app): PgConnection: Failed to connect: connect ECONNREFUSED`)
      expect(unreachable).not.toContain(DB_PASSWORD)
      const holder = createServer()
      await new Promise<void>((resolve) => holder.listen(0, "127.0.0.1", () => resolve()))
      try {
        const address = holder.address()
        const taken = typeof address === "object" && address !== null ? address.port : 0
        const dir = tempFolder("wr-server-")
        expect(await refused(onTestFinished, { ...hostConfig(dir), components: ["relay"], relay: { port: taken } })).toContain(`relay: listen EADDRINUSE: address already in use 127.0.0.1:${taken}`)
      } finally {
        await new Promise<void>((resolve) => holder.close(() => resolve()))
      }
    })

    it("a catalogue file with a bad entry, naming the file and the entry", async ({ onTestFinished }) => {
      const dir = tempFolder("wr-server-")
      writeFileSync(join(dir, "wallets.json"), JSON.stringify([{ id: "nameless", image_id: "x", chains: ["eip155:1"] }]))
      const stderr = await refused(onTestFinished, { ...hostConfig(dir), components: ["services"], catalogue: { file: join(dir, "wallets.json") } })
      expect(stderr).toContain(`catalogue.file (WALLET_RUNTIME_CATALOGUE_FILE): ${join(dir, "wallets.json")} is not a valid catalogue`)
      expect(stderr).toContain('entry [0] (id \\"nameless\\"): name is missing')
    })

    it("a config file that is not there", async ({ onTestFinished }) => {
      expect(await refused(onTestFinished, undefined, { WALLET_RUNTIME_CONFIG: "/nonexistent/server.json" })).toContain("the config file /nonexistent/server.json cannot be read")
    })
  })
})
