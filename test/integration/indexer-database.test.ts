/**
 * The chain index in the services' database when the chain under it is not the one indexed: a local chain restarted
 * with the same id (`npm start` keeps its PGlite across restarts, the anvil chains start again from genesis). The
 * index finds that its last block is gone or another, drops what it held for that chain and indexes the new one.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type AnvilInfo, startAnvil } from "../../devstack/evm/anvil"
import { type Database, startDatabase } from "../../server/src/db/index"
import type { Started } from "../../server/src/lib/Started"
import { rpcUpstream } from "../../server/src/lib/rpcUpstream"
import { ChainIndex } from "../../server/src/services/indexer"

// anvil's first dev account (unlocked on the node).
const ALICE = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"
const BOB = `0xb0b${"0".repeat(37)}`

let db: Started<Database>
const anvils: Array<Started<AnvilInfo>> = []

beforeAll(async () => {
  db = await startDatabase()
}, 30_000)

afterAll(async () => {
  await Promise.all(anvils.map((anvil) => anvil.stop()))
  await db?.stop()
})

const sendEth = async (anvil: Started<AnvilInfo>, to: string, wei: bigint) => {
  const response = await fetch(anvil.info.rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_sendTransaction", params: [{ from: ALICE, to, value: `0x${wei.toString(16)}` }] })
  })
  return String(((await response.json()) as { result: unknown }).result)
}

const received = async (index: ChainIndex) => {
  await index.sync()
  return (await index.transactionsOf(BOB)).map((tx) => [tx.hash, tx.transfers.map((t) => t.amount)])
}

describe("the chain index over a chain restarted under the same id", () => {
  it("drops the old chain's history and indexes the new chain from its genesis", async () => {
    const before = await startAnvil({ chainId: 31337 })
    anvils.push(before)
    const old = await sendEth(before, BOB, 10n ** 18n)
    expect(await received(new ChainIndex(31337, rpcUpstream([before.info.rpcUrl]), db.info))).toEqual([[old, [10n ** 18n]]])
    await before.stop()

    const after = await startAnvil({ chainId: 31337 })
    anvils.push(after)
    // A server restarted on the kept database: the new chain is shorter than the index (its block 1 is not there yet).
    const index = new ChainIndex(31337, rpcUpstream([after.info.rpcUrl]), db.info)
    expect(await received(index)).toEqual([])
    const fresh = await sendEth(after, BOB, 2n * 10n ** 18n)
    expect(await received(index)).toEqual([[fresh, [2n * 10n ** 18n]]])
  }, 60_000)

  it("finds the change when the new chain has a block where the old one's last was, but another", async () => {
    const before = await startAnvil({ chainId: 31338 })
    anvils.push(before)
    const old = await sendEth(before, BOB, 3n * 10n ** 18n)
    expect(await received(new ChainIndex(31338, rpcUpstream([before.info.rpcUrl]), db.info))).toEqual([[old, [3n * 10n ** 18n]]])
    await before.stop()

    const after = await startAnvil({ chainId: 31338 })
    anvils.push(after)
    const fresh = await sendEth(after, BOB, 4n * 10n ** 18n)
    expect(await received(new ChainIndex(31338, rpcUpstream([after.info.rpcUrl]), db.info))).toEqual([[fresh, [4n * 10n ** 18n]]])
  }, 60_000)
})
