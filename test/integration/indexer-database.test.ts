/**
 * The chain index in the services' database when the chain under it is not the one indexed: a reorganisation (anvil's
 * snapshot and revert), after which the index goes back to the block the chain and it share and keeps what came
 * before; or a local chain restarted with the same id (`npm start` keeps its PGlite across restarts, the anvil chains
 * start again from genesis), whose index is dropped and made again; a node gone behind the index, which leaves it as
 * it is. And the ERC-20 contracts an account used, read from the stored transfers.
 */
import { encodeDeployData, encodeFunctionData, getContractAddress } from "viem"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { loadArtifacts } from "../../devstack/contracts/artifacts"
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

const rpc = async (anvil: Started<AnvilInfo>, method: string, params: ReadonlyArray<unknown> = []) => {
  const response = await fetch(anvil.info.rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    signal: AbortSignal.timeout(10_000)
  })
  return ((await response.json()) as { result: unknown }).result
}

/** Waits (bounded) until the node has mined `hash`: anvil answers eth_sendTransaction before its block is in. */
const mined = async (anvil: Started<AnvilInfo>, hash: string) => {
  for (let attempt = 0; attempt < 200; attempt++) {
    if ((await rpc(anvil, "eth_getTransactionReceipt", [hash])) !== null) return hash
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
  throw new Error(`transaction ${hash} not mined within 5 s`)
}

const sendEth = async (anvil: Started<AnvilInfo>, to: string, wei: bigint) =>
  mined(anvil, String(await rpc(anvil, "eth_sendTransaction", [{ from: ALICE, to, value: `0x${wei.toString(16)}` }])))

const received = async (index: ChainIndex) => {
  await index.sync()
  return (await index.transactionsOf(BOB)).map((tx) => [tx.hash, tx.transfers.map((t) => t.amount)])
}

describe("the chain index when the chain under it changes", () => {
  it("drops the old chain's history and indexes the new chain from its genesis", async () => {
    const before = await startAnvil({ chainId: 31337 })
    anvils.push(before)
    const old = [await sendEth(before, BOB, 10n ** 18n), await sendEth(before, BOB, 10n ** 18n)]
    expect(await received(new ChainIndex(31337, rpcUpstream([before.info.rpcUrl]), db.info))).toEqual(old.map((hash) => [hash, [10n ** 18n]]))
    await before.stop()

    const after = await startAnvil({ chainId: 31337 })
    anvils.push(after)
    // A server restarted on the kept database: the new chain (its block 0 the same as the old one's) is shorter than
    // the index, and its block 1 another.
    const fresh = await sendEth(after, BOB, 2n * 10n ** 18n)
    const index = new ChainIndex(31337, rpcUpstream([after.info.rpcUrl]), db.info)
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

  it("after a reorganisation keeps the history before the fork, drops the orphaned blocks' and indexes the new ones", async () => {
    const node = await startAnvil({ chainId: 31339 })
    anvils.push(node)
    // From the head, as a public chain: dropping the whole index would lose the transfer before the fork.
    const index = new ChainIndex(31339, rpcUpstream([node.info.rpcUrl]), db.info, "head")
    expect(await received(index)).toEqual([])
    const kept = await sendEth(node, BOB, 10n ** 18n)
    const snapshot = await rpc(node, "evm_snapshot")
    const orphaned = await sendEth(node, BOB, 2n * 10n ** 18n)
    expect(await received(index)).toEqual([
      [kept, [10n ** 18n]],
      [orphaned, [2n * 10n ** 18n]]
    ])
    expect(await rpc(node, "evm_revert", [snapshot])).toBe(true)
    const replacing = await sendEth(node, BOB, 3n * 10n ** 18n)
    await rpc(node, "anvil_mine", ["0x2"])
    expect(await received(index)).toEqual([
      [kept, [10n ** 18n]],
      [replacing, [3n * 10n ** 18n]]
    ])
  }, 60_000)

  it("after a reorganisation gives an NFT moved in an orphaned block back to its holder before", async () => {
    const node = await startAnvil({ chainId: 31340 })
    anvils.push(node)
    const { abi, bytecode } = loadArtifacts().Collectible
    // Token #1 minted to Alice in block 1, by Alice's first transaction.
    await mined(node, String(await rpc(node, "eth_sendTransaction", [{ from: ALICE, data: encodeDeployData({ abi, bytecode, args: ["Test", "TST", [ALICE], 1n] }) }])))
    const collection = getContractAddress({ from: ALICE, nonce: 0n })
    const index = new ChainIndex(31340, rpcUpstream([node.info.rpcUrl]), db.info)
    await index.sync()
    const held = async (owner: string) => (await index.nftsOf(owner)).map((nft) => [nft.tokenId, nft.blockNumber])
    expect(await held(ALICE)).toEqual([[1n, 1]])

    const snapshot = await rpc(node, "evm_snapshot")
    const data = encodeFunctionData({ abi, functionName: "transferFrom", args: [ALICE, BOB, 1n] })
    await mined(node, String(await rpc(node, "eth_sendTransaction", [{ from: ALICE, to: collection, data }])))
    await index.sync()
    expect([await held(ALICE), await held(BOB)]).toEqual([[], [[1n, 2]]])

    expect(await rpc(node, "evm_revert", [snapshot])).toBe(true)
    await rpc(node, "anvil_mine", ["0x2"])
    await index.sync()
    expect([await held(ALICE), await held(BOB)]).toEqual([[[1n, 1]], []])
  }, 60_000)

  it("serves the index as it is from a node behind it that has the blocks before", async () => {
    const node = await startAnvil({ chainId: 31341 })
    anvils.push(node)
    const index = new ChainIndex(31341, rpcUpstream([node.info.rpcUrl]), db.info)
    const first = await sendEth(node, BOB, 10n ** 18n)
    const snapshot = await rpc(node, "evm_snapshot")
    const second = await sendEth(node, BOB, 2n * 10n ** 18n)
    const both = [
      [first, [10n ** 18n]],
      [second, [2n * 10n ** 18n]]
    ]
    expect(await received(index)).toEqual(both)
    // The node goes back to block 1, as a lagging fallback node would answer: nothing is dropped.
    expect(await rpc(node, "evm_revert", [snapshot])).toBe(true)
    expect(await received(index)).toEqual(both)
  }, 60_000)

  it("names the ERC-20 contracts an account sent or received, in the order it first did, and no other", async () => {
    const node = await startAnvil({ chainId: 31342 })
    anvils.push(node)
    const { abi, bytecode } = loadArtifacts().StandardToken
    const deploy = async (symbol: string, holders: ReadonlyArray<string>) =>
      mined(node, String(await rpc(node, "eth_sendTransaction", [{ from: ALICE, data: encodeDeployData({ abi, bytecode, args: [symbol, symbol, 6, holders, 1000n] }) }])))
    // Alice's first three transactions deploy three tokens: she holds the first two, Bob the third.
    await deploy("ONE", [ALICE])
    await deploy("TWO", [ALICE])
    await deploy("THREE", [BOB])
    const [one, two, three] = [0n, 1n, 2n].map((nonce) => getContractAddress({ from: ALICE, nonce }))
    const send = async (token: string | undefined) =>
      mined(node, String(await rpc(node, "eth_sendTransaction", [{ from: ALICE, to: token, data: encodeFunctionData({ abi, functionName: "transfer", args: [BOB, 5n] }) }])))
    await send(two)
    await send(one)
    const index = new ChainIndex(31342, rpcUpstream([node.info.rpcUrl]), db.info)
    await index.sync()
    expect(await index.fungibleContractsOf(BOB)).toEqual([three, two, one])
    expect(await index.fungibleContractsOf(ALICE)).toEqual([one, two])
  }, 60_000)
})
