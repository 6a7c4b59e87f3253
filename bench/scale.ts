/**
 * `npm run bench:scale`: relay and services figures on loopback, with one and with several processes. Bounded in
 * count and time, it starts what it measures (relay nodes and service processes as the server command, a Redis, a
 * Postgres, an anvil chain) on free 127.0.0.1 ports and stops all of it by pid. Figures, never assertions.
 *
 * Relay: for 100, 1,000 and 5,000 clients (half publishers, half subscribers, each pair on its own topic), on one
 * node (in-process bus) and on three nodes on Redis (each pair split across two nodes): messages per second
 * delivered, p50/p99 publish → delivery, messages lost, and the node's resident memory per idle socket.
 * Services: requests per second and p99 of `getWallets`, a balance and a session list, with one and two processes.
 *
 * `--points 100,1000` limits the relay's test points; `--skip-services` leaves the services out, `--skip-redis` the three nodes; `--profile DIR` writes
 * a V8 CPU profile of each relay node into DIR when it stops (`node --cpu-prof`; open it in Chromium's DevTools, or sum
 * it with `bench/profileSummary.ts DIR`), to see where a node's time goes.
 */
import { randomUUID } from "node:crypto"
import { readFileSync } from "node:fs"
import { Effect } from "effect"
import WebSocket from "ws"
import { startAnvil } from "../devstack/evm/anvil"
import { generateClientSeed, signRelayJwt } from "../src/services/walletconnect/protocol/relayJwt"
import { startPostgres } from "../test/support/postgres"
import { startRedis } from "../test/support/redis"
import { startServerProcess, type ServerProcess } from "../test/integration/support/serverProcesses"

const argv = process.argv.slice(2)
const arg = (name: string) => {
  const at = argv.indexOf(name)
  return at < 0 ? undefined : argv[at + 1]
}
const POINTS = (arg("--points") ?? "100,1000,5000").split(",").map(Number)
const SKIP_SERVICES = argv.includes("--skip-services")
const SKIP_REDIS = argv.includes("--skip-redis")
const PROFILE_DIR = arg("--profile")
/** What a relay node's node process is started with: a CPU profile when asked. */
const relayNodeArgs: ReadonlyArray<string> = PROFILE_DIR === undefined ? [] : ["--cpu-prof", `--cpu-prof-dir=${PROFILE_DIR}`]
// Each publisher stays within the relay's burst (200) so the rate limit does not shape the figures.
const MESSAGES_PER_POINT = 20_000
const MAX_PER_PUBLISHER = 150
const IN_FLIGHT_PER_PUBLISHER = 4
const POINT_BOUND_MS = 120_000
const SERVICE_SECONDS = 5
const SERVICE_CONCURRENCY = 16

const rssKiB = (pid: number): number => {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))
  return Number(match?.[1] ?? 0)
}
const percentile = (sorted: ReadonlyArray<number>, p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

interface Client {
  readonly socket: WebSocket
  readonly send: (method: string, params: unknown) => Promise<string>
  onDelivery: (topic: string, message: string) => void
}

let nextId = 1_000_000_000_000
const openClient = async (url: string): Promise<Client> => {
  const token = await Effect.runPromise(signRelayJwt(generateClientSeed(), { aud: url, sub: randomUUID(), now: Date.now() }))
  const socket = new WebSocket(`${url}/?auth=${token}&projectId=devstack`)
  const pending = new Map<number, (frame: string) => void>()
  const client: Client = {
    socket,
    send: (method, params) =>
      new Promise<string>((resolve) => {
        const id = nextId++
        pending.set(id, resolve)
        socket.send(JSON.stringify({ id, jsonrpc: "2.0", method, params }))
      }),
    onDelivery: () => undefined
  }
  socket.on("message", (data) => {
    const frame = JSON.parse(String(data)) as { id: number; method?: string; params?: { data?: { topic: string; message: string } } }
    if (frame.method === "irn_subscription") {
      socket.send(`{"id":${frame.id},"jsonrpc":"2.0","result":true}`)
      if (frame.params?.data) client.onDelivery(frame.params.data.topic, frame.params.data.message)
      return
    }
    pending.get(frame.id)?.(String(data))
    pending.delete(frame.id)
  })
  await new Promise<void>((resolve, reject) => {
    socket.once("open", () => resolve())
    socket.once("error", reject)
  })
  return client
}

/** Opens `count` clients, `batch` at a time. */
const openMany = async (urls: ReadonlyArray<string>, count: number, pick: (i: number) => number): Promise<Array<Client>> => {
  const clients: Array<Client> = []
  for (let i = 0; i < count; i += 100) {
    clients.push(...(await Promise.all(Array.from({ length: Math.min(100, count - i) }, (_, j) => openClient(urls[pick(i + j)] ?? "")))))
  }
  return clients
}

interface RelayRow {
  readonly mode: string
  readonly clients: number
  readonly messages: number
  readonly perSecond: number
  readonly p50: number
  readonly p99: number
  readonly lost: number
  readonly refused: number
  readonly kibPerSocket: number
  readonly note: string
}

const relayPoint = async (mode: string, nodes: ReadonlyArray<ServerProcess>, clients: number): Promise<RelayRow> => {
  const urls = nodes.map((node) => node.urls["relay"] ?? "")
  const pairs = clients / 2
  const rssBefore = nodes.map((node) => rssKiB(node.pid))
  // Subscribers on node i mod n, their publishers on the next node: with several nodes, every message crosses.
  const subscribers = await openMany(urls, pairs, (i) => i % urls.length)
  const publishers = await openMany(urls, pairs, (i) => (i + 1) % urls.length)
  await sleep(500)
  const rssAfter = nodes.map((node) => rssKiB(node.pid))
  const kibPerSocket = rssAfter.reduce((sum, after, i) => sum + after - (rssBefore[i] ?? 0), 0) / clients
  await Promise.all(subscribers.map((subscriber, i) => subscriber.send("irn_subscribe", { topic: `bench-${mode}-${clients}-${i}` })))

  const perPublisher = Math.max(1, Math.min(MAX_PER_PUBLISHER, Math.floor(MESSAGES_PER_POINT / pairs)))
  const sentAt = new Map<string, number>()
  const latencies: Array<number> = []
  let delivered = 0
  let refused = 0
  let accepted = 0
  let allDelivered: () => void = () => undefined
  const done = new Promise<void>((resolve) => (allDelivered = resolve))
  for (const subscriber of subscribers) {
    subscriber.onDelivery = (_topic, message) => {
      const at = sentAt.get(message)
      if (at === undefined) return
      sentAt.delete(message)
      latencies.push(performance.now() - at)
      delivered++
      if (delivered === accepted && finishedPublishing) allDelivered()
    }
  }
  let finishedPublishing = false
  const started = performance.now()
  const publishing = Promise.all(
    publishers.map(async (publisher, i) => {
      const topic = `bench-${mode}-${clients}-${i}`
      let next = 0
      const lane = async () => {
        while (next < perPublisher) {
          const message = `${i}:${next++}:${randomUUID()}`
          sentAt.set(message, performance.now())
          const reply = await publisher.send("irn_publish", { topic, message, ttl: 300, tag: 1 })
          if (reply.includes('"result":true')) accepted++
          else {
            refused++
            sentAt.delete(message)
          }
        }
      }
      await Promise.all(Array.from({ length: IN_FLIGHT_PER_PUBLISHER }, lane))
    })
  )
  await Promise.race([publishing, sleep(POINT_BOUND_MS)])
  finishedPublishing = true
  if (delivered === accepted) allDelivered()
  await Promise.race([done, sleep(POINT_BOUND_MS)])
  const seconds = (performance.now() - started) / 1000
  const sorted = [...latencies].sort((a, b) => a - b)
  for (const client of [...subscribers, ...publishers]) client.socket.terminate()
  await sleep(300)
  return {
    mode,
    clients,
    messages: accepted,
    perSecond: delivered / seconds,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    lost: accepted - delivered,
    refused,
    kibPerSocket,
    note: ""
  }
}

const relayBench = async (): Promise<Array<RelayRow>> => {
  const rows: Array<RelayRow> = []
  const single = await startServerProcess(["relay"], {}, relayNodeArgs)
  try {
    for (const clients of POINTS) rows.push(await relayPoint("1 node", [single], clients).catch((error: unknown) => failedRow("1 node", clients, error)))
  } finally {
    await single.stop()
  }
  if (SKIP_REDIS) return rows
  const redis = await startRedis()
  const nodes = await Promise.all([0, 1, 2].map(() => startServerProcess(["relay"], { REDIS_URL: redis.url }, relayNodeArgs)))
  try {
    for (const clients of POINTS) rows.push(await relayPoint("3 nodes, Redis", nodes, clients).catch((error: unknown) => failedRow("3 nodes, Redis", clients, error)))
  } finally {
    await Promise.all(nodes.map((node) => node.stop()))
    await redis.stop()
  }
  return rows
}

const failedRow = (mode: string, clients: number, error: unknown): RelayRow => ({
  mode,
  clients,
  messages: 0,
  perSecond: NaN,
  p50: NaN,
  p99: NaN,
  lost: NaN,
  refused: 0,
  kibPerSocket: NaN,
  note: `stopped: ${error instanceof Error ? error.message : String(error)}`
})

interface ServiceRow {
  readonly processes: number
  readonly route: string
  readonly requests: number
  readonly perSecond: number
  readonly p50: number
  readonly p99: number
  readonly errors: number
}

const load = async (processes: number, route: string, urls: ReadonlyArray<string>): Promise<ServiceRow> => {
  const latencies: Array<number> = []
  let errors = 0
  let turn = 0
  const until = performance.now() + SERVICE_SECONDS * 1000
  const worker = async () => {
    while (performance.now() < until) {
      const url = urls[turn++ % urls.length] ?? ""
      const at = performance.now()
      try {
        const response = await fetch(url, { headers: { "x-project-id": "devstack" }, signal: AbortSignal.timeout(10_000) })
        await response.arrayBuffer()
        if (response.status !== 200) errors++
        latencies.push(performance.now() - at)
      } catch {
        errors++
      }
    }
  }
  const started = performance.now()
  await Promise.all(Array.from({ length: SERVICE_CONCURRENCY }, worker))
  const sorted = latencies.sort((a, b) => a - b)
  return {
    processes,
    route,
    requests: latencies.length,
    perSecond: latencies.length / ((performance.now() - started) / 1000),
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    errors
  }
}

const servicesBench = async (): Promise<Array<ServiceRow>> => {
  const rows: Array<ServiceRow> = []
  const [postgres, anvil] = await Promise.all([startPostgres(), startAnvil({ chainId: 31337 })])
  const env = {
    DATABASE_URL: postgres.url,
    WALLET_RUNTIME_CHAINS: JSON.stringify({ "eip155:31337": { name: "Local chain", rpcUrls: [anvil.info.rpcUrl] } })
  }
  const address = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"
  const routes = (base: string) => ({
    getWallets: `${base}/getWallets?projectId=devstack&page=1&entries=40`,
    balance: `${base}/v1/account/${address}/balance?projectId=devstack&currency=usd&chainId=eip155:31337`,
    sessions: `${base}/v1/sessions/eip155:31337:${address}?projectId=devstack`
  })
  const started: Array<ServerProcess> = []
  try {
    started.push(await startServerProcess(["services"], env))
    for (const processes of [1, 2]) {
      if (processes === 2) started.push(await startServerProcess(["services"], env))
      const bases = started.map((process) => process.urls["services"] ?? "")
      for (const route of ["getWallets", "balance", "sessions"] as const) {
        rows.push(await load(processes, route, bases.map((base) => routes(base)[route])))
      }
    }
  } finally {
    await Promise.all(started.map((process) => process.stop()))
    await Promise.all([postgres.stop(), anvil.stop()])
  }
  return rows
}

const fixed = (value: number, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : "—")

const main = async () => {
  const load1 = readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")
  console.log(`# bench:scale — ${new Date().toISOString()}, node ${process.version}, load average before: ${load1}`)
  const relay = await relayBench()
  console.log("\n| relay | clients | messages | delivered/s | p50 ms | p99 ms | lost | refused | KiB/socket | note |")
  console.log("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
  for (const row of relay) {
    console.log(
      `| ${row.mode} | ${row.clients} | ${row.messages} | ${fixed(row.perSecond, 0)} | ${fixed(row.p50)} | ${fixed(row.p99)} | ${fixed(row.lost, 0)} | ${row.refused} | ${fixed(row.kibPerSocket)} | ${row.note} |`
    )
  }
  if (!SKIP_SERVICES) {
    const services = await servicesBench()
    console.log(`\n| services | route | requests | req/s | p50 ms | p99 ms | errors |  (${SERVICE_CONCURRENCY} concurrent, ${SERVICE_SECONDS} s each)`)
    console.log("| --- | --- | --- | --- | --- | --- | --- |")
    for (const row of services) {
      console.log(`| ${row.processes} | ${row.route} | ${row.requests} | ${fixed(row.perSecond, 0)} | ${fixed(row.p50)} | ${fixed(row.p99)} | ${row.errors} |`)
    }
  }
  console.log(`\nload average after: ${readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")}`)
}

await main()
process.exit(0)
