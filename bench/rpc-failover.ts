import { pathToFileURL } from "node:url"
/**
 * RPC failover bench: how long a request takes when the network's first endpoint is broken, on the first request
 * (nothing known yet) and after one ranking interval (4000 ms of pings). The endpoints are loopback servers of ours:
 * a healthy JSON-RPC node as the second endpoint, and as the first one a dead port (connection refused), a node
 * answering 503, or a node that accepts and never answers (the first request then waits until that node fails its
 * first ping, 1000 ms, rather than the 10 s request time-out).
 *
 * Run: npx tsx bench/rpc-failover.ts
 */
import type { IncomingMessage, ServerResponse } from "node:http"
import { Effect, Layer, ManagedRuntime } from "effect"
import * as FetchHttpClient from "effect/http/FetchHttpClient"
import { type LocalHttpServer, listenHttp } from "../server/src/lib/httpServer"
import { freePort } from "../server/src/lib/ports"
import { RPC_RANKING_INTERVAL_MS } from "../src/domain/constants"
import { localChainA, withDefaultRpcUrls } from "../src/domain/networks"
import { decodeOptionsSync } from "../src/domain/Options"
import { Config } from "../src/services/Config"
import { DEFAULT_RPC_TRANSPORT_SETTINGS, RpcTransport } from "../src/services/RpcTransport/RpcTransport"

type Behaviour = "healthy" | "503" | "hang"

const serve = async (behaviour: Behaviour): Promise<LocalHttpServer> => {
  const http = await listenHttp()
  http.handle((req: IncomingMessage, res: ServerResponse) => {
    let text = ""
    req.setEncoding("utf8")
    req.on("data", (chunk: string) => (text += chunk))
    req.on("end", () => {
      if (behaviour === "hang") return
      if (behaviour === "503") {
        res.writeHead(503).end("busy")
        return
      }
      const body = JSON.parse(text) as { id: number } | ReadonlyArray<{ id: number }>
      const answer = (call: { id: number }) => ({ jsonrpc: "2.0", id: call.id, result: "0x7a69" })
      res.writeHead(200, { "content-type": "application/json" })
      res.end(JSON.stringify(Array.isArray(body) ? body.map(answer) : answer(body as { id: number })))
    })
  })
  return http
}

export interface Row {
  readonly primary: string
  readonly firstMs: number
  readonly afterIntervalMs: number
  readonly rankedFirst: string
}

const measure = async (primary: "dead" | Behaviour): Promise<Row> => {
  const servers: Array<LocalHttpServer> = []
  const backup = await serve("healthy")
  servers.push(backup)
  let primaryUrl: string
  if (primary === "dead") primaryUrl = `http://127.0.0.1:${await freePort()}/`
  else {
    const server = await serve(primary)
    servers.push(server)
    primaryUrl = `${server.url}/`
  }
  const network = withDefaultRpcUrls(localChainA, { http: [primaryUrl, `${backup.url}/`] })
  const runtime = ManagedRuntime.make(
    RpcTransport.layer.pipe(
      Layer.provide(FetchHttpClient.layer),
      Layer.provide(Config.layer(decodeOptionsSync({ networks: [network] })))
    )
  )
  const timed = async () => {
    const started = performance.now()
    await runtime.runPromise(Effect.flatMap(RpcTransport, (transport) => transport.request(network, { method: "eth_chainId" })))
    return performance.now() - started
  }
  try {
    const firstMs = await timed()
    await new Promise((resolve) => setTimeout(resolve, RPC_RANKING_INTERVAL_MS + 100))
    const afterIntervalMs = await timed()
    const ranking = await runtime.runPromise(Effect.flatMap(RpcTransport, (transport) => transport.endpoints(network)))
    const rankedFirst = ranking[0]?.url === primaryUrl ? "primary" : "backup"
    return { primary, firstMs, afterIntervalMs, rankedFirst }
  } finally {
    await runtime.dispose()
    await Promise.all(servers.map((server) => server.stop()))
  }
}

/** One row per broken-primary case: first request, then after one ranking interval. */
export const failoverRows = async (): Promise<ReadonlyArray<Row>> => {
  // The hanging case waits out a ping time-out, so it runs beside the others; those run one after another so
  // their few milliseconds are not measured against each other's load.
  const hang = measure("hang")
  const quick: Array<Row> = []
  for (const primary of ["healthy", "dead", "503"] as const) quick.push(await measure(primary))
  return [...quick, await hang]
}

/** Words for each case. */
export const failoverLabel: Record<string, string> = {
  healthy: "healthy too (baseline)",
  dead: "dead (connection refused)",
  "503": "answers HTTP 503",
  hang: `never answers (ping time-out ${DEFAULT_RPC_TRANSPORT_SETTINGS.pingTimeoutMs} ms)`
}

const main = async () => {
  const rows = await failoverRows()
  const ms = (value: number) => `${value.toFixed(1)} ms`
  console.log(`RPC failover: primary endpoint broken, healthy backup second; ranking interval ${RPC_RANKING_INTERVAL_MS} ms`)
  console.table(
    rows.map((row) => ({
      "primary endpoint": failoverLabel[row.primary] ?? row.primary,
      "first request": ms(row.firstMs),
      "after one ranking interval": ms(row.afterIntervalMs),
      "ranked first then": row.rankedFirst
    }))
  )
}

// Run alone with `npx tsx bench/rpc-failover.ts`; `npm run bench` imports the rows instead.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await main()
