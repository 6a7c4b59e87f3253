import { type ChildProcess, spawn } from "node:child_process"
import { once } from "node:events"
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, describe, expect, it } from "vitest"
import WebSocket from "ws"
import { readRuntimeConfig, type RuntimeConfig } from "../../devstack/config"
import { startDevstack } from "../../devstack/main"

/**
 * The CLI compiles the devstack with tsx and starts every part plus the demo's Vite server in a child process: a few
 * seconds on a quiet machine, but a loaded 2-core CI run took past the project's 60 s default, so this test has its own.
 */
const CLI_UP_BOUND_MS = 150_000
const CLI_TEST_BOUND_MS = 200_000

const repo = fileURLToPath(new URL("../../", import.meta.url))
const scratch = mkdtempSync(join(tmpdir(), "devstack-test-"))
let cli: ChildProcess | undefined

afterAll(() => {
  // Only reached with a live CLI when a test failed half-way: its whole group goes.
  if (cli?.pid !== undefined && cli.exitCode === null) process.kill(-cli.pid, "SIGKILL")
  rmSync(scratch, { recursive: true, force: true })
})

/**
 * True while a process of group `pid` is still running. Zombies do not count: in a sandbox whose init does not
 * reap orphans, tsx's esbuild helper lingers as `<defunct>` after the CLI exits, which is no running leftover.
 */
const groupAlive = (pid: number): boolean =>
  readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .some((entry) => {
      try {
        // /proc/<pid>/stat: "pid (comm) state ppid pgrp …"; comm may hold spaces, so parse after the last ")".
        const stat = readFileSync(`/proc/${entry}/stat`, "utf8")
        const [state, , pgrp] = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
        return Number(pgrp) === pid && state !== "Z"
      } catch {
        return false
      }
    })

const rpc = async (url: string, method: string, params: ReadonlyArray<unknown> = []) => {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params })
  })
  return ((await response.json()) as { result?: unknown }).result
}

const wsOpens = (url: string) =>
  new Promise<boolean>((resolve) => {
    const socket = new WebSocket(`${url}/?projectId=devstack-project`)
    socket.once("open", () => {
      socket.close()
      resolve(true)
    })
    socket.once("error", () => resolve(false))
  })

/** Every part of `config` answers on its port. */
const expectAllUp = async (config: RuntimeConfig) => {
  const services = config.services
  if (services === null || config.evm === null || config.solana === null || config.relay === null || config.mail === null) {
    throw new Error("every part must be in the runtime config")
  }
  for (const chain of config.evm.chains) expect(await rpc(chain.rpcUrl, "eth_chainId")).toBe(`0x${chain.chainId.toString(16)}`)
  expect(await rpc(`${services.rpcProxyUrl}?chainId=eip155:31338&projectId=${services.defaultProjectId}`, "eth_chainId")).toBe("0x7a6a")
  const supported = await (await fetch(`${services.url}/v1/supported-chains?projectId=${services.defaultProjectId}`)).json()
  expect(supported).toEqual({ http: ["eip155:31337", "eip155:31338", config.solana.caipNetworkId], ws: [], swaps: ["eip155:31337", "eip155:31338"], onramp: ["eip155:31337", "eip155:31338"] })
  const funded = config.solana.funded[0]
  if (funded === undefined) throw new Error("no funded Solana key")
  const balance = await fetch(`${services.url}/v1/account/${funded.address}/balance?projectId=${services.defaultProjectId}`)
  expect(((await balance.json()) as { balances: ReadonlyArray<{ symbol: string }> }).balances.map((b) => b.symbol)).toEqual(["SOL", "WSUSD"])
  const viaProxy = await rpc(`${services.rpcProxyUrl}?chainId=${config.solana.caipNetworkId}&projectId=${services.defaultProjectId}`, "getBalance", [funded.address])
  expect(viaProxy).toEqual({ context: expect.anything(), value: expect.any(Number) })
  expect((viaProxy as { value: number }).value).toBeGreaterThan(0)
  expect(await wsOpens(config.relay.url)).toBe(true)
  expect((await fetch(`${config.mail.inboxUrl}inbox`)).status).toBe(200)
  for (const chain of config.evm.chains) {
    expect(await rpc(`${config.bundler?.url}/rpc/${chain.chainId}`, "eth_supportedEntryPoints")).toEqual([chain.accountAbstraction?.entryPoint])
    // The embedded wallet's smart-account factory (WalletAccountFactory), at one address on both chains.
    expect(chain.accountAbstraction?.walletAccountFactory).toBe(config.evm.chains[0]?.accountAbstraction?.walletAccountFactory)
    expect(await rpc(chain.rpcUrl, "eth_getCode", [chain.accountAbstraction?.walletAccountFactory, "latest"])).toMatch(/^0x[0-9a-f]{100,}$/)
  }
  const bitcoin = config.bitcoin
  if (bitcoin === undefined || bitcoin === null) throw new Error("the bitcoin part must be in the runtime config")
  expect(bitcoin.caipNetworkId).toBe("bip122:0f9188f13cb7b2c71f2a335e3a4fc328")
  const paid = await (await fetch(`${bitcoin.url}/address/${bitcoin.funded[0]?.paymentAddress}/utxo`)).json()
  expect((paid as ReadonlyArray<{ value: number }>).map((utxo) => utxo.value)).toEqual([5_000_000_000, 5_000_000_000])
}

const gone = async (config: RuntimeConfig, configPath: string) => {
  for (const chain of config.evm?.chains ?? []) expect(groupAlive(chain.pid)).toBe(false)
  await expect(fetch(`${config.services?.url}/`)).rejects.toThrow()
  await expect(fetch(`${config.mail?.inboxUrl}`)).rejects.toThrow()
  await expect(fetch(`${config.bundler?.url}/healthz`)).rejects.toThrow()
  await expect(fetch(`${config.bitcoin?.url}/blocks/tip/height`)).rejects.toThrow()
  expect(await wsOpens(config.relay?.url ?? "ws://127.0.0.1:1")).toBe(false)
  expect(existsSync(configPath)).toBe(false)
}

describe("devstack orchestrator", () => {
  it("starts every part in process, writes the runtime config, and stops with nothing left", async () => {
    const configPath = join(scratch, "in-process.json")
    const stack = await startDevstack({ writeConfig: configPath })
    const config = readRuntimeConfig(configPath)
    expect(config).toEqual(stack.info.config)
    expect(config.demo).toBeNull()
    for (const chain of config.evm?.chains ?? []) expect(groupAlive(chain.pid)).toBe(true)
    await expectAllUp(config)

    await stack.stop()
    await gone(config, configPath)
  })

  it("runs `npm start`'s command: prints the endpoints, serves the demo with the stack's config, and Ctrl-C stops it all", async () => {
    const configPath = join(scratch, "cli.json")
    // As package.json's `start` runs it: node with tsx's loader, so Ctrl-C reaches the devstack itself (tsx's own
    // command relays signals and kills a child whose event loop is busy for more than a few milliseconds).
    cli = spawn(process.execPath, ["--import", "tsx", "devstack/main.ts", "--demo"], {
      cwd: repo,
      detached: true,
      // Its own database directory: a developer's `npm start` holds the project's `.devstack-data/` lock meanwhile.
      env: { ...process.env, DEVSTACK_RUNTIME_CONFIG: configPath, DEVSTACK_DATA_DIR: join(scratch, "data") },
      stdio: ["ignore", "pipe", "pipe"]
    })
    let output = ""
    cli.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()))
    const ready = new Promise<void>((resolve, reject) => {
      cli?.stdout?.on("data", (chunk: Buffer) => {
        output += chunk.toString()
        if (output.includes("Ctrl-C stops everything.")) resolve()
      })
      cli?.once("exit", (code) => reject(new Error(`the devstack exited with ${code} before it was up:\n${output}`)))
    })
    // Bounded below the test's own limit, so a stack that never comes up fails with what it printed.
    let bound: ReturnType<typeof setTimeout> | undefined
    const late = new Promise<never>((_, reject) => {
      bound = setTimeout(() => reject(new Error(`the devstack was not up after ${CLI_UP_BOUND_MS} ms; it printed:\n${output}`)), CLI_UP_BOUND_MS)
    })
    await Promise.race([ready, late]).finally(() => clearTimeout(bound))

    const config = readRuntimeConfig(configPath)
    expect(output).toMatch(/wallet-runtime devstack up in \d+ ms/)
    for (const url of [config.services?.url, config.relay?.url, config.mail?.inboxUrl, ...(config.evm?.chains ?? []).map((c) => c.rpcUrl)]) {
      expect(output).toContain(url)
    }
    expect(config.demo?.kind).toBe("vite")
    const page = await (await fetch(config.demo?.url ?? "")).text()
    expect(page).toContain("Wallet Runtime demo")
    expect(page).toContain('<script type="application/json" id="devstack-config">')
    expect(page).toContain(JSON.stringify(config.services?.url))
    await expectAllUp(config)

    const exited = once(cli, "exit")
    cli.kill("SIGINT")
    const [code] = await exited
    expect(code).toBe(0)
    expect(groupAlive(cli.pid ?? 0)).toBe(false)
    await gone(config, configPath)
  }, CLI_TEST_BOUND_MS)
})
