/**
 * The chain index over a node that does not give call traces, as most public RPCs: anvil behind a proxy that refuses
 * `trace_block` (a JSON-RPC error) or fails it (HTTP 400). The history goes on from blocks and receipts; a refusing
 * node is not asked for traces again, a failing one is asked at the next sync. (With traces, a token→ETH swap's ETH is
 * in the history: services-swaps.test.ts.)
 */
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from "vitest"
import { type AnvilInfo, startAnvil } from "../../devstack/evm/anvil"
import { startDatabase } from "../../server/src/db/index"
import type { Started } from "../../server/src/lib/Started"
import { rpcUpstream } from "../../server/src/lib/rpcUpstream"
import { ChainIndex } from "../../server/src/services/indexer"

// anvil's first dev account (unlocked on the node).
const ALICE = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"

let anvil: Started<AnvilInfo>
const servers: Array<Server> = []

beforeAll(async () => {
  anvil = await startAnvil({ chainId: 31337 })
}, 30_000)

afterAll(async () => {
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))))
  await anvil?.stop()
})

const call = async (method: string, params: ReadonlyArray<unknown>) => {
  const response = await fetch(anvil.info.rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params })
  })
  return ((await response.json()) as { result: unknown }).result
}

/** A JSON-RPC proxy to anvil that answers `trace_block` with a JSON-RPC error ("refuse") or an HTTP 400 ("fail"). */
const proxy = async (mode: "refuse" | "fail") => {
  let traceCalls = 0
  const server = createServer((request, response) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as unknown
      const calls = (Array.isArray(body) ? body : [body]) as Array<{ id: number; method: string }>
      const traces = calls.filter((c) => c.method === "trace_block").length
      traceCalls += traces
      const reply = (status: number, text: string) => {
        response.writeHead(status, { "content-type": "application/json" })
        response.end(text)
      }
      if (traces > 0 && mode === "fail") return reply(400, JSON.stringify({ error: "unsupported" }))
      if (traces > 0) {
        return reply(200, JSON.stringify(calls.map((c) => ({ jsonrpc: "2.0", id: c.id, error: { code: -32601, message: "the method trace_block does not exist" } }))))
      }
      void fetch(anvil.info.rpcUrl, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })
        .then((answer) => answer.text())
        .then((text) => reply(200, text))
    })
  })
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, traceCalls: () => traceCalls }
}

/**
 * Sends ETH and waits until its block is the node's latest: anvil can answer `eth_sendTransaction` before the block is
 * readable, and a sync that missed it would index two blocks in one batch (one `trace_block` request of two calls).
 */
const sendEth = async (to: string, wei: bigint) => {
  const hash = (await call("eth_sendTransaction", [{ from: ALICE, to, value: `0x${wei.toString(16)}` }])) as string
  await vi.waitFor(
    async () => {
      const receipt = (await call("eth_getTransactionReceipt", [hash])) as { blockNumber: string } | null
      if (receipt === null) throw new Error(`${hash} is not mined yet`)
      const latest = (await call("eth_blockNumber", [])) as string
      if (BigInt(latest) < BigInt(receipt.blockNumber)) throw new Error(`block ${receipt.blockNumber} is not the latest yet`)
    },
    { timeout: 10_000, interval: 20 }
  )
  return hash
}

describe("the chain index without call traces", () => {
  for (const [mode, askedAfterTwoSyncs] of [
    ["refuse", 1],
    ["fail", 2]
  ] as const) {
    it(`keeps the history from blocks and receipts when the node ${mode === "refuse" ? "refuses" : "fails"} trace_block`, async () => {
      const node = await proxy(mode)
      // The index lives in the services' database: an empty PGlite in memory, stopped after the test.
      const db = await startDatabase()
      onTestFinished(() => db.stop())
      const index = new ChainIndex(31337, rpcUpstream([node.url]), db.info, "head")
      await index.sync()
      const receiver = `0x${mode === "refuse" ? "b0b" : "ca7"}${"0".repeat(37)}`
      const first = await sendEth(receiver, 10n ** 18n)
      await index.sync()
      const second = await sendEth(receiver, 2n * 10n ** 18n)
      await index.sync()
      expect((await index.transactionsOf(receiver)).map((tx) => [tx.hash, tx.transfers.map((t) => [t.kind, t.amount])])).toEqual([
        [first, [["native", 10n ** 18n]]],
        [second, [["native", 2n * 10n ** 18n]]]
      ])
      expect(node.traceCalls()).toBe(askedAfterTwoSyncs)
    })
  }
})
