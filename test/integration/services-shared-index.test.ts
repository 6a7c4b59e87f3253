/**
 * One activity index for every service process: two server processes (component `services`) on one real Postgres
 * (test/support/postgres.ts), the second started after a transfer was mined and indexed by the first, on a chain
 * whose history starts at the head (a public chain's setting, the server's default). Both list that transfer: the
 * second continues from the index's shared cursor in the database, not from its own start. Transfers mined later,
 * across more blocks than one indexing batch, are listed once each by both, whichever indexes them (both at once).
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type AnvilInfo, startAnvil } from "../../devstack/evm/anvil"
import { type Database, startDatabase } from "../../server/src/db/index"
import type { Started } from "../../server/src/lib/Started"
import { HistoryResponse } from "../../src/domain/Api"
import type { CaipNetworkId } from "../../src/domain/Caip"
import { type RunningPostgres, startPostgres } from "../support/postgres"
import { type ServerProcess, startServerProcess } from "./support/serverProcesses"

const PROJECT = "devstack"
const CHAIN = "eip155:31337" as CaipNetworkId
const WAIT_MS = 15_000
// anvil's first dev account (unlocked on the node).
const ALICE = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"

let postgres: RunningPostgres
let anvil: Started<AnvilInfo>
let db: Started<Database>
let one: ServerProcess | undefined
let two: ServerProcess | undefined
const folder = mkdtempSync(join(tmpdir(), "wr-shared-index-"))

const env = () => ({
  DATABASE_URL: postgres.url,
  WALLET_RUNTIME_CHAINS: JSON.stringify({ [CHAIN]: { name: "Local chain", rpcUrls: [anvil.info.rpcUrl] } })
})

beforeAll(async () => {
  await Promise.all([startPostgres().then((started) => (postgres = started)), startAnvil({ chainId: 31337 }).then((started) => (anvil = started))])
  one = await startServerProcess(["services"], env())
  // The test's own look at the shared tables (after the first process ran the migrations).
  db = await startDatabase({ url: postgres.url })
}, 120_000)

afterAll(async () => {
  await Promise.all([one?.stop(), two?.stop()].map((stopping) => stopping?.catch(() => undefined)))
  await db?.stop()
  await Promise.all([postgres?.stop(), anvil?.stop()])
  rmSync(folder, { recursive: true, force: true })
}, 60_000)

const rpc = async (method: string, params: ReadonlyArray<unknown> = []) => {
  const response = await fetch(anvil.info.rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    signal: AbortSignal.timeout(WAIT_MS)
  })
  return ((await response.json()) as { result: unknown }).result
}

/** Sends `wei` from Alice to `to`; its hash, once mined (anvil answers before its block is in; bounded wait). */
const sendEth = async (to: string, wei: bigint) => {
  const hash = String(await rpc("eth_sendTransaction", [{ from: ALICE, to, value: `0x${wei.toString(16)}` }]))
  for (let attempt = 0; attempt < 200; attempt++) {
    if ((await rpc("eth_getTransactionReceipt", [hash])) !== null) return hash
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
  throw new Error(`transaction ${hash} not mined within 5 s`)
}

/** The hashes and received amounts in `address`'s history on `process`, oldest first (every page). */
const historyOn = async (process: ServerProcess | undefined, address: string) => {
  const rows: Array<readonly [string, string]> = []
  let cursor: string | null = null
  do {
    const query = new URLSearchParams({ projectId: PROJECT, chainId: CHAIN, ...(cursor === null ? {} : { cursor }) })
    const response = await fetch(`${process?.urls["services"]}/v1/account/${address}/history?${query}`, {
      headers: { "x-project-id": PROJECT },
      signal: AbortSignal.timeout(WAIT_MS)
    })
    expect(response.status).toBe(200)
    const page = Schema.decodeUnknownSync(HistoryResponse)(await response.json())
    for (const tx of page.data) rows.push([String(tx.metadata.hash), tx.transfers.map((t) => `${t.direction} ${t.quantity.numeric}`).join(",")])
    cursor = page.next ?? null
  } while (cursor !== null)
  return rows.reverse()
}

const receiver = () => `0x${Array.from({ length: 40 }, () => Math.floor(Math.random() * 16).toString(16)).join("")}`

describe("two service processes on one Postgres share one activity index", () => {
  it("lists on a process started later a transfer mined and indexed before it started", async () => {
    const bob = receiver()
    // The first process's first read makes the chain's cursor at the head; the transfer comes after it.
    expect(await historyOn(one, bob)).toEqual([])
    const hash = await sendEth(bob, 10n ** 18n)
    expect(await historyOn(one, bob)).toEqual([[hash, "in 1"]])

    two = await startServerProcess(["services"], env())
    expect(await historyOn(two, bob)).toEqual([[hash, "in 1"]])
  }, 120_000)

  it("indexes once what both processes index at once, over more blocks than one batch, with no gap", async () => {
    const carol = receiver()
    const first = await sendEth(carol, 2n * 10n ** 18n)
    // 120 empty blocks: the next reads index three batches of 50 blocks, both processes at once.
    await rpc("anvil_mine", ["0x78"])
    const last = await sendEth(carol, 3n * 10n ** 18n)
    const [onOne, onTwo] = await Promise.all([historyOn(one, carol), historyOn(two, carol)])
    const expected = [
      [first, "in 2"],
      [last, "in 3"]
    ]
    expect(onOne).toEqual(expected)
    expect(onTwo).toEqual(expected)

    const head = Number(BigInt(String(await rpc("eth_blockNumber"))))
    const stored = await db.info.run(
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const cursors = yield* sql<{ readonly last_block: string }>`SELECT last_block FROM chain_index_cursors WHERE chain_id = 31337`
        const rows = yield* sql<{ readonly n: string }>`SELECT count(*) AS n FROM chain_index_participants WHERE chain_id = 31337 AND address = ${carol}`
        return { last: Number(cursors[0]?.last_block), rows: Number(rows[0]?.n) }
      })
    )
    expect(stored).toEqual({ last: head, rows: 2 })
  }, 120_000)
})
