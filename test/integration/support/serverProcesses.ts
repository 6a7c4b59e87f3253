/**
 * Server processes as a host runs them: each one the server command (`server/bin/wallet-runtime-server.mjs`) with the
 * components asked for, in a process of its own on free loopback ports, configured by environment variables (relay
 * nodes sharing one Redis through `REDIS_URL`, service processes one Postgres through `DATABASE_URL`); and a TCP load
 * balancer on loopback that sends each new connection to the first node that accepts it, as any TCP balancer with a
 * health check would. Every wait is bounded; every process is stopped by its pid.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { createConnection, createServer, type AddressInfo, type Socket } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { within } from "../../../server/src/lib/within"

const BIN = fileURLToPath(new URL("../../../server/bin/wallet-runtime-server.mjs", import.meta.url))
const START_MS = 45_000
const STOP_MS = 15_000

/** A running server process. */
export interface ServerProcess {
  /** Where each of its components listens (`http://127.0.0.1:<port>`, `ws://…` for the relay). */
  readonly urls: Readonly<Record<string, string>>
  readonly pid: number
  /** Everything it printed. */
  readonly output: () => string
  /** Kills it at once (SIGKILL), as a crash or a lost machine would. */
  readonly kill: () => Promise<void>
  /** SIGTERM, then SIGKILL past the bound. Idempotent. */
  readonly stop: () => Promise<void>
}

const bounded = <A>(promise: Promise<A>, ms: number, what: () => string): Promise<A> => within(promise, ms, () => new Error(what()))

/** Starts the server command with `components`, every port 0, and `env` (which may override the defaults). */
export const startServerProcess = async (
  components: ReadonlyArray<string>,
  env: Record<string, string>,
  /** Flags for node itself, before the server command (e.g. `--cpu-prof`, which NODE_OPTIONS may not carry). */
  nodeArgs: ReadonlyArray<string> = []
): Promise<ServerProcess> => {
  const cwd = mkdtempSync(join(tmpdir(), "wr-server-process-"))
  const child: ChildProcess = spawn(process.execPath, [...nodeArgs, BIN], {
    cwd,
    env: {
      PATH: process.env["PATH"] ?? "",
      HOME: cwd,
      WALLET_RUNTIME_COMPONENTS: components.join(","),
      WALLET_RUNTIME_SERVICES_PORT: "0",
      WALLET_RUNTIME_RELAY_PORT: "0",
      WALLET_RUNTIME_WALLET_PORT: "0",
      WALLET_RUNTIME_PROJECTS: JSON.stringify([{ projectId: "devstack", allowedOrigins: "loopback" }]),
      ...env
    },
    stdio: ["ignore", "pipe", "pipe"]
  })
  let output = ""
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()))
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()))
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()))
  const end = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal)
    await bounded(exited, STOP_MS, () => `server process ${child.pid} did not exit on ${signal}:\n${output}`).catch(async (error: unknown) => {
      child.kill("SIGKILL")
      await bounded(exited, STOP_MS, () => `server process ${child.pid} did not exit even on SIGKILL`)
      throw error
    })
  }
  let stopping: Promise<void> | undefined
  const stop = () =>
    (stopping ??= end("SIGTERM").finally(() => rmSync(cwd, { recursive: true, force: true })))
  try {
    const urls = await bounded(
      new Promise<Record<string, string>>((resolve, reject) => {
        const look = () => {
          const found: Record<string, string> = {}
          for (const line of output.split("\n")) {
            try {
              const parsed = JSON.parse(line) as { message?: string; annotations?: { component?: string; listen?: string } }
              const { component, listen } = parsed.annotations ?? {}
              if (parsed.message === `${component} listening` && component !== undefined && listen !== undefined) found[component] = listen
            } catch {
              // Not a log line.
            }
          }
          if (components.every((component) => found[component] !== undefined)) resolve(found)
        }
        child.stdout?.on("data", look)
        child.stderr?.on("data", look)
        void exited.then(() => reject(new Error(`server process exited before listening:\n${output}`)))
      }),
      START_MS,
      () => `server process (${components.join(", ")}) did not listen within ${START_MS} ms:\n${output}`
    )
    return { urls, pid: child.pid ?? -1, output: () => output, kill: () => end("SIGKILL"), stop }
  } catch (error) {
    await stop().catch(() => undefined)
    throw error
  }
}

/** A running relay node. */
export interface RelayNode extends ServerProcess {
  /** `ws://127.0.0.1:<port>`, where it listens. */
  readonly url: string
  readonly port: number
}

/** Starts a relay node on a free port, on the Redis at `redisUrl`, reached by clients at `publicUrl` (a balancer). */
export const startRelayNode = async (options: { readonly redisUrl: string; readonly publicUrl?: string; readonly env?: Record<string, string> }): Promise<RelayNode> => {
  const started = await startServerProcess(["relay"], {
    REDIS_URL: options.redisUrl,
    ...(options.publicUrl === undefined ? {} : { WALLET_RUNTIME_RELAY_PUBLIC_URL: options.publicUrl }),
    ...options.env
  })
  const url = started.urls["relay"] ?? ""
  return { ...started, url, port: Number(new URL(url).port) }
}

/** A TCP balancer on loopback. */
export interface Balancer {
  /** `ws://127.0.0.1:<port>`: the relay URL clients are given. */
  readonly url: string
  /** The ports connections go to, in order of preference (the first that accepts takes each new connection). */
  readonly backends: Array<number>
  /** Which backend port each open connection went to. */
  readonly connections: () => ReadonlyArray<number>
  readonly stop: () => Promise<void>
}

/** Starts a TCP balancer: each connection goes to the first backend that accepts it; a closed side closes the other. */
export const startBalancer = async (backends: Array<number> = []): Promise<Balancer> => {
  const open = new Map<Socket, number>()
  const server = createServer((inbound) => {
    inbound.pause()
    const attempt = (index: number) => {
      const port = backends[index]
      if (port === undefined) return inbound.destroy()
      const outbound = createConnection({ host: "127.0.0.1", port })
      outbound.once("error", () => {
        if (!open.has(inbound)) attempt(index + 1)
      })
      outbound.once("connect", () => {
        open.set(inbound, port)
        outbound.on("error", () => inbound.destroy())
        inbound.on("error", () => outbound.destroy())
        outbound.once("close", () => inbound.destroy())
        inbound.once("close", () => {
          open.delete(inbound)
          outbound.destroy()
        })
        inbound.pipe(outbound)
        outbound.pipe(inbound)
        inbound.resume()
      })
    }
    attempt(0)
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `ws://127.0.0.1:${port}`,
    backends,
    connections: () => [...open.values()],
    stop: () =>
      new Promise<void>((resolve) => {
        for (const socket of open.keys()) socket.destroy()
        server.close(() => resolve())
      })
  }
}
