/**
 * A chain's upstream RPC URLs with failover (server/src/lib/rpcUpstream.ts): the rule as a table, then the upstream
 * against real HTTP servers on loopback — a closed port, a 503, a server that never answers, and nodes answering
 * JSON-RPC errors, which are answers and never move to another URL.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import { afterEach, describe, expect, it } from "vitest"
import { nextStepAfter, type RpcAttempt, rpcUpstream, UpstreamUnreachable } from "../../../server/src/lib/rpcUpstream"
import { freePort } from "../../../server/src/lib/ports"

describe("nextStepAfter", () => {
  const table: ReadonlyArray<readonly [string, RpcAttempt, "answer" | "next"]> = [
    ["connection refused", { _tag: "Unreachable", reason: "fetch failed: connect ECONNREFUSED" }, "next"],
    ["no answer in time", { _tag: "TimedOut" }, "next"],
    ["HTTP 500", { _tag: "Answered", status: 500 }, "next"],
    ["HTTP 502", { _tag: "Answered", status: 502 }, "next"],
    ["HTTP 503", { _tag: "Answered", status: 503 }, "next"],
    ["HTTP 429 (rate limited)", { _tag: "Answered", status: 429 }, "next"],
    ["HTTP 200 (a result, or a JSON-RPC error: a revert, -32602…)", { _tag: "Answered", status: 200 }, "answer"],
    ["HTTP 400 (a node's JSON-RPC error for a bad request)", { _tag: "Answered", status: 400 }, "answer"],
    ["HTTP 401 (the URL's key is refused)", { _tag: "Answered", status: 401 }, "answer"],
    ["HTTP 404", { _tag: "Answered", status: 404 }, "answer"]
  ]
  it.each(table)("%s: %s", (_, attempt, step) => {
    expect(nextStepAfter(attempt)).toBe(step)
  })
})

// -- real servers ---------------------------------------------------------------------------------------------------

const servers: Array<Server> = []

afterEach(async () => {
  await Promise.all(
    servers.splice(0).map((server) => {
      server.closeAllConnections()
      return new Promise<void>((resolve) => server.close(() => resolve()))
    })
  )
})

/** A loopback HTTP server answering with `handle`; `hits` counts the requests it got. */
const serve = async (handle: (request: IncomingMessage, response: ServerResponse) => void) => {
  const hits = { count: 0 }
  const server = createServer((request, response) => {
    hits.count++
    request.resume()
    request.on("end", () => handle(request, response))
  })
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()))
  const address = server.address()
  return { url: `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}/rpc`, hits }
}

const jsonRpc = (body: unknown) => (_: IncomingMessage, response: ServerResponse) =>
  response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body))

const node = (result: string) => serve(jsonRpc({ jsonrpc: "2.0", id: 1, result }))
const failing = (status: number) => serve((_, response) => response.writeHead(status).end("upstream trouble"))
// Takes the request and never answers.
const silent = () => serve(() => undefined)
const closedUrl = async () => `http://127.0.0.1:${await freePort()}/rpc`

const CALL = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_blockNumber", params: [] })
const resultOf = (answer: { readonly text: string }) => (JSON.parse(answer.text) as { readonly result?: unknown }).result

describe("rpcUpstream", () => {
  it("moves past a closed port, a 503 and a server that never answers, to the URL that answers", async () => {
    const unavailable = await failing(503)
    const hanging = await silent()
    const answering = await node("0x2a")
    const upstream = rpcUpstream([await closedUrl(), unavailable.url, hanging.url, answering.url], { attemptTimeoutMs: 300 })
    const answer = await upstream.post(CALL)
    expect([answer.status, resultOf(answer)]).toEqual([200, "0x2a"])
    expect([unavailable.hits.count, hanging.hits.count, answering.hits.count]).toEqual([1, 1, 1])
  })

  it("starts from the URL that answered last: a dead first URL costs one attempt, not one per request", async () => {
    const unavailable = await failing(502)
    const answering = await node("0x1")
    const upstream = rpcUpstream([unavailable.url, answering.url])
    for (let i = 0; i < 3; i++) expect(resultOf(await upstream.post(CALL))).toBe("0x1")
    expect([unavailable.hits.count, answering.hits.count]).toEqual([1, 3])
  })

  it("keeps a node's JSON-RPC error as its answer, in a 200 or a 400: the next URL is never asked", async () => {
    const reverted = await serve(jsonRpc({ jsonrpc: "2.0", id: 1, error: { code: 3, message: "execution reverted", data: "0x08c379a0" } }))
    const refused = await serve((_, response) =>
      response.writeHead(400, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", id: 1, error: { code: -32602, message: "invalid params" } }))
    )
    const other = await node("0x1")
    const first = await rpcUpstream([reverted.url, other.url]).post(CALL)
    expect([first.status, JSON.parse(first.text)]).toEqual([200, { jsonrpc: "2.0", id: 1, error: { code: 3, message: "execution reverted", data: "0x08c379a0" } }])
    const second = await rpcUpstream([refused.url, other.url]).post(CALL)
    expect([second.status, JSON.parse(second.text)]).toEqual([400, { jsonrpc: "2.0", id: 1, error: { code: -32602, message: "invalid params" } }])
    expect(other.hits.count).toBe(0)
  })

  it("says why when no URL answers, naming none of them", async () => {
    const unavailable = await failing(500)
    const closed = await closedUrl()
    const error = await rpcUpstream([closed, unavailable.url]).post(CALL).catch((failure: unknown) => failure)
    expect(error).toBeInstanceOf(UpstreamUnreachable)
    expect((error as UpstreamUnreachable).reason).toBe("none of its 2 RPC URLs answered (the last: HTTP 500)")
    const alone = await rpcUpstream([closed]).post(CALL).catch((failure: unknown) => failure)
    expect((alone as UpstreamUnreachable).reason).toBe("fetch failed (ECONNREFUSED)")
  })

  it("stops when its caller gives up, asking no other URL", async () => {
    const hanging = await silent()
    const other = await node("0x1")
    const caller = new AbortController()
    const pending = rpcUpstream([hanging.url, other.url], { attemptTimeoutMs: 60_000 }).post(CALL, caller.signal)
    for (let i = 0; i < 200 && hanging.hits.count === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10))
    expect(hanging.hits.count).toBe(1)
    caller.abort(new Error("the client went away"))
    await expect(pending).rejects.toThrow("the client went away")
    expect(other.hits.count).toBe(0)
  })
})
