/**
 * RpcTransport over real HTTP: loopback servers of ours scripted to be slow, dead, busy, wrong or refusing, and a
 * real anvil. Whatever they do, the caller gets the right answer from a healthy endpoint or a typed error with the
 * exact text.
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http"
import { Effect, Layer, ManagedRuntime } from "effect"
import * as FetchHttpClient from "effect/http/FetchHttpClient"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import { startAnvil, type AnvilInfo } from "../../devstack/evm/anvil"
import { devAccounts } from "../../devstack/evm/accounts"
import { type LocalHttpServer, listenHttp } from "../../server/src/lib/httpServer"
import { freePort } from "../../server/src/lib/ports"
import type { Started } from "../../server/src/lib/Started"
import { type CaipNetwork } from "../../src/domain/Network"
import { localChainA, withDefaultRpcUrls } from "../../src/domain/networks"
import { decodeOptionsSync, type HostOptionsInput } from "../../src/domain/Options"
import { Config } from "../../src/services/Config"
import { type RpcCall, RpcTransport, type RpcTransportSettings } from "../../src/services/RpcTransport/RpcTransport"

interface JsonRpcCall {
  readonly jsonrpc: "2.0"
  readonly id: number
  readonly method: string
  readonly params?: unknown
}

/** What a scripted server answers to one HTTP request. */
interface Reply {
  readonly status?: number
  readonly body: string
  readonly delayMs?: number
}

type Script = (body: JsonRpcCall | ReadonlyArray<JsonRpcCall>, server: ScriptedServer) => Reply

interface ScriptedServer {
  readonly name: string
  readonly url: string
  /** Every JSON-RPC call received, in order, batches flattened. */
  readonly calls: Array<JsonRpcCall>
  /** Every HTTP request body received, parsed. */
  readonly bodies: Array<JsonRpcCall | ReadonlyArray<JsonRpcCall>>
  /** The path and query of every HTTP request. */
  readonly paths: Array<string>
  /** The headers of every HTTP request. */
  readonly headers: Array<IncomingHttpHeaders>
  /** Requests whose client went away before the answer was sent. */
  abandoned: number
  script: Script
  /** Calls of `method` received (pings are eth_blockNumber). */
  readonly received: (method: string) => number
}

const servers: Array<LocalHttpServer> = []

const answerFor = (server: ScriptedServer, call: JsonRpcCall) => ({
  jsonrpc: "2.0",
  id: call.id,
  result: call.method === "eth_chainId" ? "0x7a69" : `${server.name}:${call.method}`
})

/** A healthy JSON-RPC node: each call answered with `<server name>:<method>` (eth_chainId with 0x7a69). */
const healthy: Script = (body, server) => ({
  body: JSON.stringify(Array.isArray(body) ? body.map((call) => answerFor(server, call)) : answerFor(server, body as JsonRpcCall))
})

/** Pings answered as a healthy node would; every other call gets `reply`. */
const forCalls =
  (reply: (call: JsonRpcCall) => Reply): Script =>
  (body, server) =>
    !Array.isArray(body) && (body as JsonRpcCall).method === "eth_blockNumber" ? healthy(body, server) : reply(body as JsonRpcCall)

const rpcError = (code: number, message: string, data?: unknown) =>
  forCalls((call) => ({ body: JSON.stringify({ jsonrpc: "2.0", id: call.id, error: { code, message, ...(data !== undefined ? { data } : {}) } }) }))

const scriptedServer = async (name: string, script: Script = healthy): Promise<ScriptedServer> => {
  const http = await listenHttp()
  servers.push(http)
  const scripted: ScriptedServer = {
    name,
    url: `${http.url}/`,
    calls: [],
    bodies: [],
    paths: [],
    headers: [],
    abandoned: 0,
    script,
    received: (method) => scripted.calls.filter((call) => call.method === method).length
  }
  http.handle((req: IncomingMessage, res: ServerResponse) => {
    let text = ""
    req.setEncoding("utf8")
    req.on("data", (chunk: string) => (text += chunk))
    req.on("end", () => {
      const body = JSON.parse(text) as JsonRpcCall | ReadonlyArray<JsonRpcCall>
      scripted.bodies.push(body)
      scripted.paths.push(req.url ?? "")
      scripted.headers.push(req.headers)
      scripted.calls.push(...(Array.isArray(body) ? body : [body as JsonRpcCall]))
      const reply = scripted.script(body, scripted)
      const send = () => {
        if (res.destroyed || res.writableEnded) return
        res.writeHead(reply.status ?? 200, { "content-type": "application/json" })
        res.end(reply.body)
      }
      res.on("close", () => {
        if (!res.writableEnded) scripted.abandoned++
      })
      if (reply.delayMs === undefined) send()
      else setTimeout(send, reply.delayMs)
    })
  })
  return scripted
}

/** An address where nothing listens: connections are refused. */
const deadUrl = async () => `http://127.0.0.1:${await freePort()}/`

const runtimes: Array<ManagedRuntime.ManagedRuntime<RpcTransport, never>> = []

afterEach(async () => {
  await Promise.all(runtimes.splice(0).map((runtime) => runtime.dispose()))
  await Promise.all(servers.splice(0).map((server) => server.stop()))
})

const networkWith = (...urls: ReadonlyArray<string>): CaipNetwork => withDefaultRpcUrls(localChainA, { http: urls })

/** A live transport (fetch) over `network`; short time-outs keep slow-server cases quick. */
const transportFor = (
  network: CaipNetwork,
  options: Partial<HostOptionsInput> = {},
  settings: Partial<RpcTransportSettings> = {}
) => {
  const runtime = ManagedRuntime.make(
    RpcTransport.layerWith({ requestTimeoutMs: 400, ...settings }).pipe(
      Layer.provide(FetchHttpClient.layer),
      Layer.provide(Config.layer(decodeOptionsSync({ networks: [network], ...options })))
    )
  )
  runtimes.push(runtime)
  const request = (call: RpcCall, signal?: AbortSignal) =>
    runtime.runPromise(Effect.flatMap(RpcTransport, (transport) => transport.request(network, call, { signal })))
  const failure = (call: RpcCall, signal?: AbortSignal) =>
    runtime.runPromise(
      Effect.flatMap(RpcTransport, (transport) => Effect.flip(transport.request(network, call, { signal })))
    )
  const ranking = () =>
    runtime.runPromise(Effect.flatMap(RpcTransport, (transport) => transport.endpoints(network)))
  return { request, failure, ranking }
}

const call = (method: string, params: unknown = []): RpcCall => ({ method, params })

describe("RpcTransport against loopback servers", () => {
  it("gets the answer of a healthy endpoint", async () => {
    const node = await scriptedServer("node")
    const { request } = transportFor(networkWith(node.url))
    expect(await request(call("eth_chainId"))).toBe("0x7a69")
    expect(await request(call("eth_gasPrice"))).toBe("node:eth_gasPrice")
    // A browser would preflight trace headers, which public RPC endpoints do not allow: none are sent.
    expect(node.headers[0]?.["content-type"]).toBe("application/json")
    for (const headers of node.headers) expect(Object.keys(headers)).not.toContain("traceparent")
    for (const headers of node.headers) expect(Object.keys(headers)).not.toContain("b3")
  })

  it("bypasses a dead primary, and ranks it last from then on", async () => {
    const dead = await deadUrl()
    const node = await scriptedServer("backup")
    const { request, ranking } = transportFor(networkWith(dead, node.url))
    expect(await request(call("eth_getBalance"))).toBe("backup:eth_getBalance")
    expect((await ranking()).map((endpoint) => endpoint.url)).toEqual([node.url, dead])
    expect(await request(call("eth_gasPrice"))).toBe("backup:eth_gasPrice")
  })

  it("a dead endpoint alone gives a clear error naming it", async () => {
    const dead = await deadUrl()
    const error = await transportFor(networkWith(dead)).failure(call("eth_chainId"))
    expect(error._tag).toBe("RpcNetworkError")
    expect(error.message).toBe(`The RPC endpoint ${dead} could not be reached: fetch failed (ECONNREFUSED)`)
  })

  it("moves on from a slow endpoint after the time-out", async () => {
    const slow = await scriptedServer("slow", (body, server) => ({ ...healthy(body, server), delayMs: 5_000 }))
    const node = await scriptedServer("fast")
    const { request } = transportFor(networkWith(slow.url, node.url))
    expect(await request(call("eth_call"))).toBe("fast:eth_call")
    expect(slow.received("eth_call")).toBe(1)

    const alone = transportFor(networkWith(slow.url), {}, { requestTimeoutMs: 200, retry: { maxRetriesOnEndpoint: 0, baseDelayMs: 0 } })
    const error = await alone.failure(call("eth_call"))
    expect(error._tag).toBe("RpcTimeout")
    expect(error.message).toBe(`The RPC endpoint ${slow.url} did not answer within 200 ms`)
  })

  it.each([
    [503, "busy"],
    [502, "bad gateway"],
    [429, "rate limited"]
  ])("moves on from HTTP %i (%s) to a healthy endpoint", async (status) => {
    const busy = await scriptedServer("busy", forCalls(() => ({ status, body: "try later" })))
    const node = await scriptedServer("node")
    const { request } = transportFor(networkWith(busy.url, node.url))
    expect(await request(call("eth_getCode"))).toBe("node:eth_getCode")
  })

  it("retries a lone busy endpoint, then gives 'HTTP status code: 503'", async () => {
    const busy = await scriptedServer("busy", forCalls(() => ({ status: 503, body: "busy" })))
    const error = await transportFor(networkWith(busy.url)).failure(call("eth_getCode"))
    expect(error._tag).toBe("HttpStatusError")
    expect(error.message).toBe("HTTP status code: 503")
    expect(busy.received("eth_getCode")).toBe(3)
  })

  it("stops at a 404 without trying the next endpoint", async () => {
    const missing = await scriptedServer("missing", forCalls(() => ({ status: 404, body: "Not Found" })))
    const node = await scriptedServer("node")
    const error = await transportFor(networkWith(missing.url, node.url)).failure(call("eth_getCode"))
    expect(error.message).toBe("HTTP status code: 404")
    expect(node.received("eth_getCode")).toBe(0)
  })

  it.each<[string, Script, string]>([
    [
      "an HTML page",
      forCalls(() => ({ body: "<!DOCTYPE html><html><body>Bad gateway</body></html>" })),
      'the body is not JSON: "<!DOCTYPE html><html><body>Bad gateway</…"'
    ],
    ["truncated JSON", forCalls((c) => ({ body: `{"jsonrpc":"2.0","id":${c.id},"result":"0x` })), "the body is not JSON: "],
    ["a wrong id", forCalls((c) => ({ body: JSON.stringify({ jsonrpc: "2.0", id: c.id + 1000, result: "0x1" }) })), "the answer's id "],
    ["no result and no error", forCalls((c) => ({ body: JSON.stringify({ jsonrpc: "2.0", id: c.id }) })), "has neither result nor error"],
    ["JSON that is not JSON-RPC", forCalls(() => ({ body: JSON.stringify({ ok: true }) })), 'the body is not a JSON-RPC 2.0 answer: "{\\"ok\\":true}"']
  ])("an endpoint answering %s is an invalid answer; a healthy one answers instead", async (_, script, reason) => {
    const broken = await scriptedServer("broken", script)
    const node = await scriptedServer("node")
    expect(await transportFor(networkWith(broken.url, node.url)).request(call("eth_call"))).toBe("node:eth_call")

    const error = await transportFor(networkWith(broken.url)).failure(call("eth_call"))
    expect(error._tag).toBe("RpcInvalidResponse")
    expect(error.message.startsWith(`The RPC endpoint ${broken.url} gave an invalid JSON-RPC answer: `)).toBe(true)
    expect(error.message).toContain(reason)
  })

  it("a wrong id names both ids", async () => {
    const broken = await scriptedServer(
      "broken",
      forCalls(() => ({ body: JSON.stringify({ jsonrpc: "2.0", id: 999_999, result: "0x1" }) }))
    )
    const error = await transportFor(networkWith(broken.url)).failure(call("eth_call"))
    expect(error.message).toMatch(/gave an invalid JSON-RPC answer: the answer's id 999999 is not the request's id \d+$/)
  })

  it("moves on from an internal error (-32603)", async () => {
    const failing = await scriptedServer("failing", rpcError(-32603, "Internal error"))
    const node = await scriptedServer("node")
    expect(await transportFor(networkWith(failing.url, node.url)).request(call("eth_call"))).toBe("node:eth_call")
  })

  it("gives a revert to the caller without asking another endpoint", async () => {
    const reverting = await scriptedServer("reverting", rpcError(3, "execution reverted: Not enough balance", "0x08c379a0"))
    const node = await scriptedServer("node")
    const error = await transportFor(networkWith(reverting.url, node.url)).failure(call("eth_call"))
    expect(error).toMatchObject({ _tag: "RpcResponseError", code: 3, data: "0x08c379a0" })
    expect(error.message).toBe("execution reverted: Not enough balance")
    expect(node.received("eth_call")).toBe(0)
  })

  it("gives the visitor's refusal (4001) as UserRejected without asking another endpoint", async () => {
    const refusing = await scriptedServer("refusing", rpcError(4001, "User rejected the request."))
    const node = await scriptedServer("node")
    const error = await transportFor(networkWith(refusing.url, node.url)).failure(call("eth_sendTransaction"))
    expect(error).toMatchObject({ _tag: "UserRejected", code: 4001 })
    expect(error.message).toBe("User rejected the request.")
    expect(node.received("eth_sendTransaction")).toBe(0)
  })

  it("an aborted request fails with 'Request was aborted' and its HTTP request is cancelled", async () => {
    const slow = await scriptedServer("slow", forCalls((c) => ({ ...healthy(c, slow), delayMs: 5_000 })))
    const { failure } = transportFor(networkWith(slow.url), {}, { requestTimeoutMs: 10_000 })
    const controller = new AbortController()
    const pending = failure(call("eth_call"), controller.signal)
    await until(() => slow.received("eth_call") === 1)
    controller.abort()
    const error = await pending
    expect(error._tag).toBe("RequestAborted")
    expect(error.message).toBe("Request was aborted")
    await until(() => slow.abandoned === 1)
  })

  it("a request aborted before it starts sends nothing", async () => {
    const node = await scriptedServer("node")
    const { failure } = transportFor(networkWith(node.url))
    const error = await failure(call("eth_call"), AbortSignal.abort())
    expect(error.message).toBe("Request was aborted")
    expect(node.calls).toEqual([])
  })

  it("sends concurrent calls as one batch and gives each its own answer", async () => {
    // Answers in reverse order: they are matched to calls by id.
    const node = await scriptedServer("node", (body, server) => {
      const answer = healthy(body, server)
      return Array.isArray(body) ? { body: JSON.stringify((JSON.parse(answer.body) as Array<unknown>).reverse()) } : answer
    })
    const { request } = transportFor(networkWith(node.url))
    const results = await Promise.all([request(call("eth_chainId")), request(call("eth_gasPrice")), request(call("eth_getCode"))])
    expect(results).toEqual(["0x7a69", "node:eth_gasPrice", "node:eth_getCode"])
    const batches = node.bodies.filter((body) => Array.isArray(body))
    expect(batches).toHaveLength(1)
    expect(batches[0]?.map((c) => c.method)).toEqual(["eth_chainId", "eth_gasPrice", "eth_getCode"])
    expect(node.received("eth_gasPrice")).toBe(1)
  })

  it("falls back to single requests when the server refuses batches", async () => {
    const node = await scriptedServer("node", (body, server) =>
      Array.isArray(body)
        ? { body: JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32600, message: "batch requests are not supported" } }) }
        : healthy(body, server)
    )
    const { request } = transportFor(networkWith(node.url))
    const both = () => Promise.all([request(call("eth_gasPrice")), request(call("eth_getCode"))])
    expect(await both()).toEqual(["node:eth_gasPrice", "node:eth_getCode"])
    expect(await both()).toEqual(["node:eth_gasPrice", "node:eth_getCode"])
    // One refused batch, then single requests only.
    expect(node.bodies.filter((body) => Array.isArray(body))).toHaveLength(1)
    expect(node.received("eth_gasPrice")).toBe(3)
  })

  it("a batch answer that is not an array fails its calls clearly", async () => {
    const node = await scriptedServer("node", (body, server) =>
      Array.isArray(body) ? { body: JSON.stringify({ jsonrpc: "2.0", id: 1, result: "0x1" }) } : healthy(body, server)
    )
    const { failure } = transportFor(networkWith(node.url))
    const errors = await Promise.all([failure(call("eth_gasPrice")), failure(call("eth_getCode"))])
    for (const error of errors) {
      expect(error.message).toBe(
        `The RPC endpoint ${node.url} gave an invalid JSON-RPC answer: the answer to a batch is not an array: "{\\"jsonrpc\\":\\"2.0\\",\\"id\\":1,\\"result\\":\\"0x1\\"}"`
      )
    }
  })

  it("a batch answer missing a call's id fails that call only", async () => {
    const node = await scriptedServer("node", (body, server) =>
      Array.isArray(body)
        ? { body: JSON.stringify(body.filter((c) => c.method !== "eth_getCode").map((c) => answerFor(server, c))) }
        : healthy(body, server)
    )
    const { request, failure } = transportFor(networkWith(node.url))
    const [gasPrice, code] = await Promise.all([request(call("eth_gasPrice")), failure(call("eth_getCode"))])
    expect(gasPrice).toBe("node:eth_gasPrice")
    expect(code.message).toMatch(/gave an invalid JSON-RPC answer: the batch answer has no answer for request id \d+$/)
  })

  it("the host's custom RPC comes first, then the network's, then the proxy", async () => {
    const custom = await scriptedServer("custom")
    const own = await scriptedServer("own")
    const proxy = await scriptedServer("proxy")
    const network = networkWith(own.url)
    const { request, ranking } = transportFor(network, {
      projectId: "demo-project",
      customRpcUrls: { [network.caipNetworkId]: [{ url: custom.url }] },
      endpoints: { rpcProxy: proxy.url }
    })
    expect((await ranking()).map((endpoint) => [endpoint.source, endpoint.url])).toEqual([
      ["custom", custom.url],
      ["network", own.url],
      ["proxy", `${proxy.url}v1/?chainId=eip155%3A31337&projectId=demo-project`]
    ])
    expect(await request(call("eth_gasPrice"))).toBe("custom:eth_gasPrice")
    expect(own.received("eth_gasPrice")).toBe(0)
  })

  it("reaches the RPC proxy when the network's own endpoints are dead", async () => {
    const dead = await deadUrl()
    const proxy = await scriptedServer("proxy")
    const { request } = transportFor(networkWith(dead), { projectId: "demo-project", endpoints: { rpcProxy: proxy.url } })
    expect(await request(call("eth_gasPrice"))).toBe("proxy:eth_gasPrice")
    expect(proxy.paths[0]).toBe("/v1/?chainId=eip155%3A31337&projectId=demo-project")
  })
})

describe("RpcTransport against a real anvil", () => {
  let anvil: Started<AnvilInfo>

  beforeAll(async () => {
    anvil = await startAnvil({ chainId: 31337 })
  })

  afterAll(async () => {
    await anvil?.stop()
  })

  it("eth_chainId, eth_getBalance and eth_blockNumber go through, alone and batched", async () => {
    const { request } = transportFor(networkWith(`${anvil.info.rpcUrl}/`))
    const [account] = devAccounts(1)
    expect(await request(call("eth_chainId"))).toBe("0x7a69")
    expect(await request(call("eth_getBalance", [account?.address, "latest"]))).toBe("0x21e19e0c9bab2400000")
    expect(await request(call("eth_blockNumber"))).toMatch(/^0x[0-9a-f]+$/)
    expect(
      await Promise.all([request(call("eth_chainId")), request(call("eth_getBalance", [account?.address, "latest"]))])
    ).toEqual(["0x7a69", "0x21e19e0c9bab2400000"])
  })

  it("a revert from anvil reaches the caller as code 3 with its (empty) data", async () => {
    const { failure } = transportFor(networkWith(`${anvil.info.rpcUrl}/`))
    // A contract whose code is `PUSH1 0 PUSH1 0 REVERT`: every call reverts.
    const error = await failure(call("eth_call", [{ data: "0x60006000fd" }, "latest"]))
    expect(error).toMatchObject({ _tag: "RpcResponseError", code: 3, message: "execution reverted", data: "0x" })
  })
})

/** Waits until `condition` holds (checked every 5 ms), failing after 5 s. */
const until = async (condition: () => boolean) => {
  for (let i = 0; i < 1_000 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 5))
  expect(condition()).toBe(true)
}
