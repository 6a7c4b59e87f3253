import { Effect, Exit } from "effect"
import { createPublicClient, encodeFunctionData, http, parseAbi, verifyMessage } from "viem"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startEvm } from "../../devstack/evm/index"
import { makeTestWallet, type TestWallet } from "../../devstack/wallet/testWallet"
import { type CaipNetwork, localChainA, localChainB, withDefaultRpcUrls } from "../../src/domain/Network"
import { type Eip155Adapter, makeEip155Adapter, type ReadRpc } from "../../src/services/eip155/Eip155Adapter"
import { makeStaticDirectory } from "../../src/services/eip155/ProviderDirectory"
import { chainAdapterContract } from "./support/chainAdapterContract"

let stop: () => Promise<void> = async () => {}
let wallet: TestWallet
let chainA: CaipNetwork
let chainB: CaipNetwork
let tokenAddress: `0x${string}`
let makeAdapter: () => Eip155Adapter

// Reads straight over HTTP here; the product wires RpcTransport in their place.
const reads: ReadRpc = (network, method, params) =>
  Effect.tryPromise({
    try: async () => {
      const response = await fetch(network.rpcUrls.default.http[0] ?? "", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params })
      })
      const body = (await response.json()) as { result?: unknown; error?: { message: string; data?: unknown } }
      if (body.error !== undefined) throw Object.assign(new Error(body.error.message), { data: body.error.data })
      return body.result
    },
    catch: (error) => error as Error
  })

beforeAll(async () => {
  const evm = await startEvm()
  stop = evm.stop
  const [a, b] = evm.info.chains
  if (a === undefined || b === undefined) throw new Error("two chains expected")
  chainA = withDefaultRpcUrls(localChainA, { http: [a.rpcUrl] })
  chainB = withDefaultRpcUrls(localChainB, { http: [b.rpcUrl] })
  tokenAddress = a.contracts.tokens.find((t) => t.kind === "standard")?.address ?? "0x"
  // The wallet knows chain A only: switching to B makes it answer 4902, so the adapter must add B.
  wallet = makeTestWallet({
    privateKeys: evm.info.accounts.slice(0, 2).map((acc) => acc.privateKey),
    chains: [{ chainId: 31337, name: "Local Chain A", rpcUrl: a.rpcUrl }],
    chainId: 31337
  })
  const directory = await Effect.runPromise(makeStaticDirectory([{ info: wallet.identity, provider: wallet }]))
  makeAdapter = () => Effect.runSync(makeEip155Adapter({ directory, reads, announceWaitMs: 50 }))
})

afterAll(() => stop())

describe("eip155 adapter: the ChainAdapter contract against anvil", () => {
  chainAdapterContract({
    adapter: () => makeAdapter(),
    get connectorId() {
      return wallet.identity.rdns
    },
    get home() {
      return chainA
    },
    get unknownToWallet() {
      return chainB
    },
    wallet: {
      reject: (on) => wallet.setApproval(on ? "reject" : "approve"),
      selectAccount: (index) => wallet.selectAccount(index),
      moveToChain: (chainId) => wallet.moveToChain(chainId),
      revoke: () => wallet.revoke(),
      address: () => wallet.address(),
      chainId: () => wallet.chainId()
    },
    verifySignature: (message, signature, address) =>
      verifyMessage({ message, signature: signature as `0x${string}`, address: address as `0x${string}` }),
    chainBalance: (address) =>
      createPublicClient({ transport: http(chainA.rpcUrls.default.http[0]) }).getBalance({ address: address as `0x${string}` }),
    balanceOf: (address, network) => makeAdapter().getBalance(address, network)
  })
})

describe("eip155 adapter: what only EVM wallets do", () => {
  const connected = async () => {
    const adapter = makeAdapter()
    await Effect.runPromise(adapter.connect(wallet.identity.rdns, chainA))
    if (wallet.chainId() !== 31337) await Effect.runPromise(adapter.switchNetwork(chainA))
    return adapter
  }

  it("sends a transaction and waits for it to be mined", async () => {
    const adapter = await connected()
    const to = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8"
    const hash = await Effect.runPromise(adapter.sendTransaction({ to, value: 1_000_000_000_000_000n }))
    const receipt = await Effect.runPromise(adapter.waitForReceipt(hash, chainA))
    expect(receipt.status).toBe("success")
    expect(receipt.blockNumber > 0n).toBe(true)
  })

  it("a reverted transaction fails with the decoded reason", async () => {
    const adapter = await connected()
    const data = encodeFunctionData({
      abi: parseAbi(["function transfer(address to, uint256 value) returns (bool)"]),
      functionName: "transfer",
      args: ["0x70997970C51812dc3A010C7d01b50e0d17dc79C8", 10n ** 40n]
    })
    const hash = await Effect.runPromise(adapter.sendTransaction({ to: tokenAddress, data, gas: 100_000n }))
    const exit = await Effect.runPromise(Effect.exit(adapter.waitForReceipt(hash, chainA)))
    expect(Exit.isFailure(exit)).toBe(true)
    expect(JSON.stringify(exit)).toContain("transfer amount exceeds balance")
  })

  it("estimates gas, and says 'error estimating gas' when the call cannot succeed", async () => {
    const adapter = await connected()
    const gas = await Effect.runPromise(adapter.estimateGas({ to: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8", value: 1n }, chainA))
    expect(gas).toBe(21_000n)
    const data = encodeFunctionData({
      abi: parseAbi(["function transfer(address to, uint256 value) returns (bool)"]),
      functionName: "transfer",
      args: ["0x70997970C51812dc3A010C7d01b50e0d17dc79C8", 10n ** 40n]
    })
    const failed = await Effect.runPromise(Effect.flip(adapter.estimateGas({ to: tokenAddress, data }, chainA)))
    expect(failed.message).toBe("error estimating gas")
  })

  it("reads the wallet's capabilities (none for a plain EOA wallet)", async () => {
    const adapter = await connected()
    const capabilities = await Effect.runPromise(adapter.getCapabilities())
    expect(capabilities).toEqual({})
  })
})
