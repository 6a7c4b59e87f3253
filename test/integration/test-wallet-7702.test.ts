/**
 * The devstack's test wallet answers EIP-5792 by EIP-7702 against real anvil chains (Prague rules): its EOA delegates
 * to the Simple7702Account deployed on both chains the first time, after the visitor approved the calls and then the
 * delegation (the prompt names the delegate contract); a batch of ERC-20 approve + transfer is ONE transaction; a batch
 * with a failing call changes nothing; a bad batch is refused before any prompt; a refused delegation sends nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createPublicClient, encodeFunctionData, type Hex, http, parseAbi, toHex } from "viem"
import { devChain } from "../../devstack/evm/chains"
import { type EvmInfo, startEvm } from "../../devstack/evm/index"
import { EIP7702_AUTHORIZATION, SIMPLE_7702_ACCOUNT } from "../../devstack/wallet/calls7702"
import { type Approval, makeTestWallet, type TestWallet } from "../../devstack/wallet/testWallet"
import type { Started } from "../../server/src/lib/Started"

const tokenAbi = parseAbi([
  "function approve(address spender, uint256 value) returns (bool)",
  "function transfer(address to, uint256 value) returns (bool)",
  "function allowance(address owner, address spender) view returns (uint256)",
  "function balanceOf(address) view returns (uint256)"
])

let evm: Started<EvmInfo>
let wallet: TestWallet
const prompts: Array<readonly [string, unknown]> = []
let answer: (method: string) => Approval = () => "approve"

const chainA = () => evm.info.chains[0]!
const chainB = () => evm.info.chains[1]!
const executor = () => chainA().contracts.accountAbstraction.batchExecutor
const erc20 = () => chainA().contracts.tokens.find((t) => t.kind === "standard")!.address
const reader = (chain = chainA()) => createPublicClient({ chain: devChain(chain.chainId, chain.rpcUrl), transport: http(chain.rpcUrl) })
const tokens = (owner: Hex) => reader().readContract({ address: erc20(), abi: tokenAbi, functionName: "balanceOf", args: [owner] })
const approve = (spender: Hex, value: bigint) => ({ to: erc20(), data: encodeFunctionData({ abi: tokenAbi, functionName: "approve", args: [spender, value] }) })
const transfer = (to: Hex, value: bigint) => ({ to: erc20(), data: encodeFunctionData({ abi: tokenAbi, functionName: "transfer", args: [to, value] }) })
const someone = (n: number): Hex => `0x${n.toString(16).padStart(40, "0")}`
const batch = (chainId: number, calls: ReadonlyArray<Record<string, unknown>>) => [
  { version: "2.0.0", chainId: toHex(chainId), from: wallet.address(), atomicRequired: true, calls }
]

interface Status {
  readonly status: number
  readonly atomic: boolean
  readonly receipts?: ReadonlyArray<{ readonly transactionHash: Hex }>
}

/** Sends a batch and asks its status every 20 ms until final (anvil answers before its block is in), 20 s at most. */
const sendAndSettle = async (params: unknown): Promise<Status> => {
  const { id } = (await wallet.request({ method: "wallet_sendCalls", params })) as { id: string }
  const deadline = Date.now() + 20_000
  for (;;) {
    const status = (await wallet.request({ method: "wallet_getCallsStatus", params: [id] })) as Status
    if (status.status >= 200) return status
    if (Date.now() > deadline) throw new Error(`batch ${id} still pending after 20 s`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

beforeAll(async () => {
  evm = await startEvm()
  const account = evm.info.accounts[6]!
  wallet = makeTestWallet({
    privateKeys: [account.privateKey],
    chains: evm.info.chains.map((chain) => ({ chainId: chain.chainId, name: chain.caipNetworkId, rpcUrl: chain.rpcUrl })),
    chainId: chainA().chainId,
    batchExecutor: executor(),
    approve: (method, params) => {
      prompts.push([method, params])
      return answer(method)
    }
  })
  await wallet.request({ method: "eth_requestAccounts" })
  prompts.length = 0
}, 60_000)

afterAll(async () => {
  await evm?.stop()
})

describe("the test wallet's batches by EIP-7702", () => {
  it("is at Simple7702Account's public address on both chains, with code there", async () => {
    expect(executor()).toBe(SIMPLE_7702_ACCOUNT)
    expect(chainB().contracts.accountAbstraction.batchExecutor).toBe(executor())
    expect(await reader().getCode({ address: executor() })).toMatch(/^0x60/)
    expect(await reader(chainB()).getCode({ address: executor() })).toMatch(/^0x60/)
  })

  it("says it can upgrade to atomic batches before its delegation", async () => {
    expect(await wallet.request({ method: "wallet_getCapabilities", params: [wallet.address()] })).toEqual({
      [toHex(chainA().chainId)]: { atomic: { status: "ready" } },
      [toHex(chainB().chainId)]: { atomic: { status: "ready" } }
    })
  })

  it("refuses a bad batch before asking anything", async () => {
    await expect(wallet.request({ method: "wallet_sendCalls", params: batch(chainA().chainId, [{ to: someone(1).slice(2) }]) })).rejects.toMatchObject({
      code: -32602,
      message: "Call 1: the receiver must be an address starting with 0x"
    })
    await expect(
      wallet.request({ method: "wallet_sendCalls", params: batch(chainA().chainId, [{ to: someone(1), data: "0x1234" }]) })
    ).rejects.toMatchObject({ code: -32602, message: `Call 1 sends data to ${someone(1)}, which is not a contract` })
    expect(prompts).toEqual([])
  })

  it("asks for the calls, then for the delegation naming its contract; approve + transfer are one type-4 transaction", async () => {
    const [spender, recipient] = [someone(0xa11ce), someone(0xb0b)]
    const before = await tokens(wallet.address())
    const status = await sendAndSettle(batch(chainA().chainId, [approve(spender, 40n), transfer(recipient, 15n)]))
    expect(prompts.map(([method]) => method)).toEqual(["wallet_sendCalls", EIP7702_AUTHORIZATION])
    expect(prompts[1]![1]).toEqual({ address: executor(), chainId: chainA().chainId })
    expect(status).toMatchObject({ status: 200, atomic: true })
    expect(status.receipts).toHaveLength(1)
    const transaction = await reader().getTransaction({ hash: status.receipts![0]!.transactionHash })
    expect(transaction.type).toBe("eip7702")
    expect(await reader().readContract({ address: erc20(), abi: tokenAbi, functionName: "allowance", args: [wallet.address(), spender] })).toBe(40n)
    expect(await tokens(recipient)).toBe(15n)
    expect(await tokens(wallet.address())).toBe(before - 15n)
    expect((await reader().getCode({ address: wallet.address() }))?.toLowerCase()).toBe(`0xef0100${executor().slice(2).toLowerCase()}`)
    expect(await wallet.request({ method: "wallet_getCapabilities", params: [wallet.address()] })).toEqual({
      [toHex(chainA().chainId)]: { atomic: { status: "supported" } },
      [toHex(chainB().chainId)]: { atomic: { status: "ready" } }
    })
  })

  it("once delegated: no delegation prompt, and a batch with a failing call changes nothing (500)", async () => {
    prompts.length = 0
    const spender = someone(0x5e)
    const held = await tokens(wallet.address())
    const status = await sendAndSettle(batch(chainA().chainId, [approve(spender, 7n), transfer(someone(0xc0), held + 1n)]))
    expect(prompts.map(([method]) => method)).toEqual(["wallet_sendCalls"])
    expect(status).toMatchObject({ status: 500, atomic: true })
    expect(await reader().readContract({ address: erc20(), abi: tokenAbi, functionName: "allowance", args: [wallet.address(), spender] })).toBe(0n)
    expect(await tokens(wallet.address())).toBe(held)
  })

  it("a refused delegation sends nothing (4001)", async () => {
    wallet.moveToChain(chainB().chainId)
    prompts.length = 0
    answer = (method) => (method === EIP7702_AUTHORIZATION ? "reject" : "approve")
    const nonce = await reader(chainB()).getTransactionCount({ address: wallet.address() })
    await expect(wallet.request({ method: "wallet_sendCalls", params: batch(chainB().chainId, [{ to: someone(2), value: "0x1" }]) })).rejects.toMatchObject({ code: 4001 })
    expect(prompts.map(([method]) => method)).toEqual(["wallet_sendCalls", EIP7702_AUTHORIZATION])
    expect(await reader(chainB()).getTransactionCount({ address: wallet.address() })).toBe(nonce)
    expect(await reader(chainB()).getCode({ address: wallet.address() })).toBeUndefined()
    answer = () => "approve"
  })

  it("answers 5730 for a batch it does not know", async () => {
    await expect(wallet.request({ method: "wallet_getCallsStatus", params: [`0x${"12".repeat(32)}`] })).rejects.toMatchObject({ code: 5730 })
  })
})
