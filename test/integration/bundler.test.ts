/**
 * The bundler and the verifying paymaster (`server/src/bundler`) against real anvil chains with the audited
 * EntryPoint v0.8 and the embedded wallet's WalletAccountFactory (SimpleAccount with ERC-7739): a sponsored first operation deploys the account and moves its ETH while
 * the paymaster pays the gas; bad signatures, garbage, replays and the host's policy are refused, nothing is
 * submitted for them, and the bundler keeps serving.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  type Address,
  createPublicClient,
  createWalletClient,
  type Hex,
  http,
  parseAbi,
  parseEther,
  type PublicClient
} from "viem"
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts"
import {
  type BundlerClient,
  createBundlerClient,
  createPaymasterClient,
  entryPoint08Abi,
  formatUserOperationRequest,
  getUserOperationHash,
  type SmartAccount,
  type UserOperation
} from "viem/account-abstraction"
import { devChain } from "../../devstack/evm/chains"
import { type EvmChain, type EvmInfo, startEvm } from "../../devstack/evm/index"
import { type BundlerInfo, startBundler } from "../../server/src/bundler/index"
import { approvalHash } from "../../server/src/bundler/paymaster"
import { toWalletAccount } from "../../server/src/bundler/walletAccount"
import type { Started } from "../../server/src/lib/Started"

let evm: Started<EvmInfo>
let bundler: Started<BundlerInfo>
let chain: EvmChain
let reader: PublicClient
// Senders the host's allowlist names: the accounts of these owners (salt 0) are sponsored, no one else's.
const sponsoredOwners = Array.from({ length: 4 }, () => privateKeyToAccount(generatePrivateKey()))
const MAX_GAS_PER_OP = 1_500_000n

const rpc = (chainId: number) => `${bundler.info.url}/rpc/${chainId}`

const post = async (url: string, body: unknown): Promise<{ result?: unknown; error?: { code: number; message: string } }> => {
  const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: typeof body === "string" ? body : JSON.stringify(body) })
  return (await response.json()) as { result?: unknown; error?: { code: number; message: string } }
}

const accountOf = (owner: ReturnType<typeof privateKeyToAccount>) =>
  toWalletAccount({ client: reader, owner, factory: chain.contracts.accountAbstraction.walletAccountFactory, entryPoint: chain.contracts.accountAbstraction.entryPoint })

const bundlerClient = (account: SmartAccount, sponsored = true): BundlerClient =>
  createBundlerClient({
    account,
    client: reader,
    transport: http(rpc(chain.chainId)),
    ...(sponsored ? { paymaster: createPaymasterClient({ transport: http(rpc(chain.chainId)) }) } : {})
  })

const fund = async (address: Address, value: bigint) => {
  const deployer = evm.info.accounts[0]
  if (deployer === undefined) throw new Error("no dev account")
  const wallet = createWalletClient({ account: privateKeyToAccount(deployer.privateKey), chain: devChain(chain.chainId, chain.rpcUrl), transport: http(chain.rpcUrl) })
  const hash = await wallet.sendTransaction({ to: address, value })
  await reader.waitForTransactionReceipt({ hash, pollingInterval: 20 })
}

const deposit = (paymaster: Address) =>
  reader.readContract({ address: chain.contracts.accountAbstraction.entryPoint, abi: entryPoint08Abi, functionName: "balanceOf", args: [paymaster] })

const bundlerNonce = () => reader.getTransactionCount({ address: bundler.info.bundlerAddress })

/** A signed, sponsored operation of `account` sending `value` to `to`, not sent. */
const signedOp = async (account: SmartAccount, to: Address, value: bigint) => {
  const client = bundlerClient(account)
  // viem types the prepared operation as any EntryPoint version's; ours is v0.8.
  const prepared = (await client.prepareUserOperation({ account, calls: [{ to, value }] })) as unknown as UserOperation<"0.8">
  const signature = await account.signUserOperation(prepared)
  return { ...prepared, signature }
}

const rpcOp = (op: UserOperation<"0.8">) => formatUserOperationRequest(op)

beforeAll(async () => {
  evm = await startEvm()
  const first = evm.info.chains[0]
  if (first === undefined) throw new Error("no chain")
  chain = first
  reader = createPublicClient({ chain: devChain(chain.chainId, chain.rpcUrl), transport: http(chain.rpcUrl) }) as PublicClient
  const aa = chain.contracts.accountAbstraction
  const senders = await Promise.all(sponsoredOwners.map(async (owner) => (await accountOf(owner)).address))
  bundler = await startBundler({
    chains: evm.info.chains.map((c) => ({ chainId: c.chainId, rpcUrls: [c.rpcUrl] })),
    entryPoint: aa.entryPoint,
    privateKey: aa.bundler.privateKey,
    paymaster: {
      address: aa.paymaster,
      signerKey: aa.paymasterSigner.privateKey,
      policy: { sponsor: "allowlist", senders, maxGasPerOp: MAX_GAS_PER_OP },
      validForSeconds: 600
    }
  })
})

afterAll(async () => {
  await bundler?.stop()
  await evm?.stop()
})

describe("ERC-4337 contracts on the local chains", () => {
  it("has the EntryPoint v0.8 at its canonical address, the factories (the wallet's at one address) and a funded paymaster on both chains", async () => {
    for (const c of evm.info.chains) {
      const client = createPublicClient({ chain: devChain(c.chainId, c.rpcUrl), transport: http(c.rpcUrl) })
      const aa = c.contracts.accountAbstraction
      expect(aa.entryPoint).toBe("0x4337084D9E255Ff0702461CF8895CE9E3b5Ff108")
      expect(await client.getCode({ address: aa.simpleAccountFactory })).toMatch(/^0x[0-9a-f]{100,}$/)
      expect(aa.walletAccountFactory).toBe(chain.contracts.accountAbstraction.walletAccountFactory)
      expect(await client.getCode({ address: aa.walletAccountFactory })).toMatch(/^0x[0-9a-f]{100,}$/)
      expect(await client.readContract({ address: aa.entryPoint, abi: entryPoint08Abi, functionName: "balanceOf", args: [aa.paymaster] })).toBe(parseEther("100"))
    }
  })

  it("computes the paymaster's approval hash as the contract does", async () => {
    const account = await accountOf(sponsoredOwners[3]!)
    const op = await signedOp(account, "0x000000000000000000000000000000000000dEaD", 0n)
    const aa = chain.contracts.accountAbstraction
    const { toPackedUserOperation } = await import("viem/account-abstraction")
    const onChain = await reader.readContract({
      address: aa.paymaster,
      abi: parseAbi([
        "struct PackedUserOperation { address sender; uint256 nonce; bytes initCode; bytes callData; bytes32 accountGasLimits; uint256 preVerificationGas; bytes32 gasFees; bytes paymasterAndData; bytes signature; }",
        "function approvalHash(PackedUserOperation op, uint48 validUntil, uint48 validAfter) view returns (bytes32)"
      ]),
      functionName: "approvalHash",
      args: [toPackedUserOperation(op), 12345, 0]
    })
    expect(approvalHash({ op, paymaster: aa.paymaster, chainId: chain.chainId, validUntil: 12345, validAfter: 0 })).toBe(onChain)
  })
})

describe("bundler", () => {
  it("answers its EntryPoint and chain", async () => {
    expect((await post(rpc(chain.chainId), { jsonrpc: "2.0", id: 1, method: "eth_supportedEntryPoints", params: [] })).result).toEqual([
      chain.contracts.accountAbstraction.entryPoint
    ])
    expect((await post(rpc(chain.chainId), { jsonrpc: "2.0", id: 2, method: "eth_chainId" })).result).toBe(`0x${chain.chainId.toString(16)}`)
  })

  it("deploys a SimpleAccount on its first, sponsored operation and moves its ETH: the owner's ETH unchanged, the paymaster paid", async () => {
    const owner = sponsoredOwners[0]!
    const account = await accountOf(owner)
    expect(await reader.getCode({ address: account.address })).toBeUndefined()
    await fund(account.address, parseEther("1"))
    const recipient = privateKeyToAccount(generatePrivateKey()).address
    const paymaster = chain.contracts.accountAbstraction.paymaster
    const depositBefore = await deposit(paymaster)

    const client = bundlerClient(account)
    const hash = await client.sendUserOperation({ account, calls: [{ to: recipient, value: parseEther("0.25") }] })
    const receipt = await client.waitForUserOperationReceipt({ hash, pollingInterval: 50, timeout: 30_000 })

    expect(receipt.success).toBe(true)
    expect(receipt.paymaster).toBe(paymaster)
    expect(await reader.getCode({ address: account.address })).toMatch(/^0x[0-9a-f]+$/)
    expect(await reader.getBalance({ address: recipient })).toBe(parseEther("0.25"))
    // The account paid nothing but the transfer; its owner holds nothing and still holds nothing.
    expect(await reader.getBalance({ address: account.address })).toBe(parseEther("0.75"))
    expect(await reader.getBalance({ address: owner.address })).toBe(0n)
    expect(await deposit(paymaster)).toBe(depositBefore - receipt.actualGasCost)
    expect(receipt.actualGasCost).toBeGreaterThan(0n)

    const found = await client.getUserOperation({ hash })
    expect(found.transactionHash).toBe(receipt.receipt.transactionHash)
    expect(found.userOperation.sender).toBe(account.address)
  })

  it("refuses an operation whose signature is not the owner's, and submits nothing", async () => {
    const account = await accountOf(sponsoredOwners[1]!)
    await fund(account.address, parseEther("1"))
    const op = await signedOp(account, "0x000000000000000000000000000000000000dEaD", 1n)
    const stranger = privateKeyToAccount(generatePrivateKey())
    // The right operation hash, signed by someone who does not own the account.
    const hash = getUserOperationHash({ userOperation: op, chainId: chain.chainId, entryPointAddress: chain.contracts.accountAbstraction.entryPoint, entryPointVersion: "0.8" })
    const forged = { ...op, signature: await stranger.sign({ hash }) }
    const nonceBefore = await bundlerNonce()

    const answer = await post(rpc(chain.chainId), { jsonrpc: "2.0", id: 1, method: "eth_sendUserOperation", params: [rpcOp(forged), chain.contracts.accountAbstraction.entryPoint] })

    expect(answer.error?.code).toBe(-32507)
    expect(answer.error?.message).toContain("AA24 signature error")
    expect(bundler.info.pendingCount(chain.chainId)).toBe(0)
    expect(await bundlerNonce()).toBe(nonceBefore)
    expect(await reader.getCode({ address: account.address })).toBeUndefined()
  })

  it("refuses garbage with JSON-RPC errors and keeps serving", async () => {
    const url = rpc(chain.chainId)
    expect((await post(url, "{not json")).error?.code).toBe(-32700)
    expect((await post(url, { jsonrpc: "2.0", id: 1, method: "eth_sendUserOperation", params: [{ sender: "nope" }, chain.contracts.accountAbstraction.entryPoint] })).error).toMatchObject({
      code: -32602,
      message: expect.stringContaining("sender")
    })
    expect((await post(url, { jsonrpc: "2.0", id: 1, method: "eth_sendUserOperation", params: "x" })).error?.code).toBe(-32602)
    expect((await post(url, { jsonrpc: "2.0", id: 1, method: "eth_getUserOperationReceipt", params: ["0x12"] })).error?.code).toBe(-32602)
    expect((await post(url, { jsonrpc: "2.0", id: 1, method: "eth_sendRawTransaction", params: [] })).error?.code).toBe(-32601)
    expect((await post(url, [])).error?.code).toBe(-32600)
    expect((await fetch(`${bundler.info.url}/rpc/999`, { method: "POST", body: "{}" })).status).toBe(404)
    const wrongEntryPoint = await post(url, {
      jsonrpc: "2.0",
      id: 1,
      method: "eth_sendUserOperation",
      params: [rpcOp(await signedOp(await accountOf(sponsoredOwners[2]!), "0x000000000000000000000000000000000000dEaD", 0n)), "0x0000000071727De22E5E9d8BAf0edAc6f37da032"]
    })
    expect(wrongEntryPoint.error?.code).toBe(-32602)

    // Still serving: a good operation goes through.
    const account = await accountOf(sponsoredOwners[2]!)
    const client = bundlerClient(account)
    const hash = await client.sendUserOperation({ account, calls: [{ to: "0x000000000000000000000000000000000000dEaD", value: 0n }] })
    expect((await client.waitForUserOperationReceipt({ hash, pollingInterval: 50, timeout: 30_000 })).success).toBe(true)
  })

  it("refuses a replayed operation, pending or included, and one replayed to another bundler process", async () => {
    const account = await accountOf(sponsoredOwners[3]!)
    await fund(account.address, parseEther("1"))
    const op = await signedOp(account, "0x000000000000000000000000000000000000dEaD", parseEther("0.1"))
    const params = [rpcOp(op), chain.contracts.accountAbstraction.entryPoint]
    const url = rpc(chain.chainId)
    const sent = await post(url, { jsonrpc: "2.0", id: 1, method: "eth_sendUserOperation", params })
    expect(sent.error).toBeUndefined()
    const hash = sent.result as Hex

    // Sent again: pending or included by now, it is the same operation, refused either way.
    expect((await post(url, { jsonrpc: "2.0", id: 2, method: "eth_sendUserOperation", params })).error?.message).toContain("already received")
    const client = bundlerClient(account)
    await client.waitForUserOperationReceipt({ hash, pollingInterval: 50, timeout: 30_000 })
    expect((await post(url, { jsonrpc: "2.0", id: 3, method: "eth_sendUserOperation", params })).error?.message).toContain("already received")

    // Another process, which never saw it: the chain itself refuses the used nonce.
    const other = await startBundler({
      chains: [{ chainId: chain.chainId, rpcUrls: [chain.rpcUrl] }],
      entryPoint: chain.contracts.accountAbstraction.entryPoint,
      privateKey: chain.contracts.accountAbstraction.bundler.privateKey
    })
    try {
      const replayed = await post(`${other.info.url}/rpc/${chain.chainId}`, { jsonrpc: "2.0", id: 4, method: "eth_sendUserOperation", params })
      expect(replayed.error?.code).toBe(-32500)
      // Its first operation deployed the account: the EntryPoint refuses to deploy it again (else, the used nonce).
      expect(replayed.error?.message).toContain("AA10 sender already constructed")
      // It answers for the included operation from the chain's logs.
      const receipt = await post(`${other.info.url}/rpc/${chain.chainId}`, { jsonrpc: "2.0", id: 5, method: "eth_getUserOperationReceipt", params: [hash] })
      expect(receipt.result).toMatchObject({ userOpHash: hash, success: true, sender: account.address })
    } finally {
      await other.stop()
    }
    expect(await reader.getBalance({ address: account.address })).toBe(parseEther("0.9"))
  })
})

describe("paymaster policy", () => {
  it("refuses to sponsor a sender the host does not list, and nothing is submitted", async () => {
    const account = await accountOf(privateKeyToAccount(generatePrivateKey()))
    const nonceBefore = await bundlerNonce()
    const client = bundlerClient(account)
    await expect(client.sendUserOperation({ account, calls: [{ to: "0x000000000000000000000000000000000000dEaD", value: 0n }] })).rejects.toThrow(
      "This app does not pay for this account's transactions"
    )
    expect(await bundlerNonce()).toBe(nonceBefore)
    expect(await reader.getCode({ address: account.address })).toBeUndefined()
  })

  it("refuses an operation asking for more gas than the policy pays for", async () => {
    const account = await accountOf(sponsoredOwners[0]!)
    const op = await signedOp(account, "0x000000000000000000000000000000000000dEaD", 0n)
    const answer = await post(rpc(chain.chainId), {
      jsonrpc: "2.0",
      id: 1,
      method: "pm_getPaymasterData",
      params: [rpcOp({ ...op, callGasLimit: MAX_GAS_PER_OP }), chain.contracts.accountAbstraction.entryPoint, `0x${chain.chainId.toString(16)}`, {}]
    })
    expect(answer.error?.code).toBe(-32501)
    expect(answer.error?.message).toContain("more gas")
  })
})
