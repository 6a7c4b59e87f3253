/**
 * EIP-5792 in the embedded wallet server against real anvil chains, the server's own bundler (one with the devstack's
 * paymaster, one without), the mail sink and PGlite: a batch of ERC-20 approve + transfer from the smart account is
 * ONE transaction (one receipt with both events), sponsored or paid by the account; the EOA's batch is refused when it
 * must be atomic and goes call after call when not; bad batches are refused before anything is sent; a second
 * wallet-server process on the same database answers the status of a batch the first one sent. Every batch is signed
 * as the frame signs it (support/frameSigner.ts: the frame's code in node, with the keys its login made); the server
 * signs nothing.
 */
import { randomBytes } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createPublicClient, createWalletClient, encodeFunctionData, type Hex, http, parseAbi, parseEther, toHex } from "viem"
import { privateKeyToAccount } from "viem/accounts"
import { entryPoint08Abi } from "viem/account-abstraction"
import { devChain } from "../../devstack/evm/chains"
import { type EvmInfo, startEvm } from "../../devstack/evm/index"
import { startDevBundler } from "../../devstack/evm/bundler"
import { type MailInfo, startMail } from "../../devstack/mail/index"
import { type BundlerInfo, startBundler } from "../../server/src/bundler/index"
import { type Database, startDatabase } from "../../server/src/db/index"
import { startWalletServer, type WalletServerInfo } from "../../server/src/embedded/server/index"
import type { Started } from "../../server/src/lib/Started"
import type { FrameStorage } from "../../server/src/embedded/frame/frameLogic"
import { frameRpc } from "./support/frameSigner"
import { logInWithKeys, walletApi } from "./support/walletServerClient"

const tokenAbi = parseAbi([
  "function approve(address spender, uint256 value) returns (bool)",
  "function transfer(address to, uint256 value) returns (bool)",
  "function allowance(address owner, address spender) view returns (uint256)",
  "function balanceOf(address) view returns (uint256)"
])

const masterKey = randomBytes(32)
let mail: Started<MailInfo>
let db: Started<Database>
let evm: Started<EvmInfo>
let sponsoring: Started<BundlerInfo>
let paying: Started<BundlerInfo>
let serverA: Started<WalletServerInfo>
let serverB: Started<WalletServerInfo>
let token: string
// The frame's storage on the user's device: the device shares of the keys its login made.
let storage: FrameStorage
let user: { readonly evmAddress: Hex }
let smart: Hex

const chainA = () => evm.info.chains[0]!
const chainB = () => evm.info.chains[1]!
const erc20 = () => chainA().contracts.tokens.find((t) => t.kind === "standard")!.address
const reader = () => createPublicClient({ chain: devChain(chainA().chainId, chainA().rpcUrl), transport: http(chainA().rpcUrl) })
const funder = () =>
  createWalletClient({ account: privateKeyToAccount(evm.info.accounts[0]!.privateKey), chain: devChain(chainA().chainId, chainA().rpcUrl), transport: http(chainA().rpcUrl) })
const mined = async (hash: Hex) => reader().waitForTransactionReceipt({ hash, pollingInterval: 20, timeout: 20_000 })
const fresh = () => privateKeyToAccount(`0x${randomBytes(32).toString("hex")}`).address

// Through the frame's code in node (the server signs nothing), against one of the two server processes.
const rpcOn = (server: Started<WalletServerInfo>) => async (method: string, params?: unknown) =>
  frameRpc(walletApi(server.info.url), server.info.url, token, storage)(chainA().caipNetworkId, method, params)
const rpcA = (method: string, params?: unknown) => rpcOn(serverA)(method, params)
const rpcB = (method: string, params?: unknown) => rpcOn(serverB)(method, params)

const batch = (calls: ReadonlyArray<Record<string, unknown>>, extra: Record<string, unknown> = {}) => [
  { version: "2.0.0", chainId: toHex(chainA().chainId), from: smart, atomicRequired: true, calls, ...extra }
]
const approve = (spender: Hex, value: bigint) => ({ to: erc20(), data: encodeFunctionData({ abi: tokenAbi, functionName: "approve", args: [spender, value] }) })
const transfer = (to: Hex, value: bigint) => ({ to: erc20(), data: encodeFunctionData({ abi: tokenAbi, functionName: "transfer", args: [to, value] }) })
const tokens = (owner: Hex) => reader().readContract({ address: erc20(), abi: tokenAbi, functionName: "balanceOf", args: [owner] })

interface Status {
  readonly status: number
  readonly atomic: boolean
  readonly chainId: string
  readonly receipts?: ReadonlyArray<{ readonly transactionHash: Hex; readonly status: Hex; readonly logs: ReadonlyArray<unknown> }>
}

/** wallet_getCallsStatus every 50 ms until the batch is final (status ≥ 200), 30 s at most, as a host polls it. */
const finalStatus = async (rpc: typeof rpcA, id: string): Promise<Status> => {
  const deadline = Date.now() + 30_000
  for (;;) {
    const answer = await rpc("wallet_getCallsStatus", [id])
    expect(answer.status).toBe(200)
    const status = (answer.body as { result: Status }).result
    if (status.status >= 200) return status
    if (Date.now() > deadline) throw new Error(`batch ${id} still pending after 30 s`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

const sent = async (rpc: typeof rpcA, params: unknown): Promise<string> => {
  const answer = await rpc("wallet_sendCalls", params)
  // The body first: a refusal's words say why.
  expect(answer.status === 200 ? "sent" : answer.body).toBe("sent")
  return (answer.body as { result: { id: string } }).result.id
}

beforeAll(async () => {
  ;[mail, db, evm] = await Promise.all([startMail(), startDatabase(), startEvm()])
  const aa = chainA().contracts.accountAbstraction
  sponsoring = await startDevBundler(evm.info)
  // The same chain, no paymaster: operations are paid by the account.
  paying = await startBundler({ chains: [{ chainId: chainA().chainId, rpcUrls: [chainA().rpcUrl] }], entryPoint: aa.entryPoint, privateKey: aa.bundler.privateKey })
  const serverOf = (bundler: Started<BundlerInfo>) =>
    startWalletServer({
      masterKey,
      smtp: { port: mail.info.smtpPort },
      database: db.info,
      chains: {
        evm: [
          {
            caipNetworkId: chainA().caipNetworkId,
            rpcUrl: chainA().rpcUrl,
            smartAccount: { bundlerUrl: `${bundler.info.url}/rpc/${chainA().chainId}`, entryPoint: aa.entryPoint, factory: aa.walletAccountFactory }
          },
          { caipNetworkId: chainB().caipNetworkId, rpcUrl: chainB().rpcUrl }
        ]
      }
    })
  serverA = await serverOf(sponsoring)
  serverB = await serverOf(paying)
  const client = walletApi(serverA.info.url)
  ;({ token, storage } = await logInWithKeys(client, mail.info, `calls-${Date.now()}@example.test`, serverA.info.url))
  user = (await client.call("GET", "/api/user", undefined, { token })).body as typeof user
  smart = ((await rpcA("wallet_getSmartAccount")).body as { result: { address: Hex } }).result.address
  await mined(await funder().writeContract({ address: erc20(), abi: tokenAbi, functionName: "transfer", args: [smart, 100n] }))
}, 120_000)

afterAll(async () => {
  await serverB?.stop()
  await serverA?.stop()
  await paying?.stop()
  await sponsoring?.stop()
  await Promise.all([db?.stop(), mail?.stop(), evm?.stop()])
})

describe("wallet_getCapabilities", () => {
  it("says the smart account's batches are atomic and sponsored where the paymaster pays, the EOA's not atomic", async () => {
    const sponsored = toHex(chainA().chainId)
    expect((await rpcA("wallet_getCapabilities", [smart])).body).toEqual({
      result: { [sponsored]: { atomic: { status: "supported" }, paymasterService: { supported: true } } }
    })
    expect((await rpcB("wallet_getCapabilities", [smart, [sponsored]])).body).toEqual({ result: { [sponsored]: { atomic: { status: "supported" } } } })
    expect((await rpcA("wallet_getCapabilities", [user.evmAddress])).body).toEqual({
      result: { [sponsored]: { atomic: { status: "unsupported" } }, [toHex(chainB().chainId)]: { atomic: { status: "unsupported" } } }
    })
    expect(await rpcA("wallet_getCapabilities", [fresh()])).toMatchObject({ status: 400, body: { rpcCode: 4100 } })
  })
})

describe("wallet_sendCalls from the smart account", () => {
  it("runs ERC-20 approve + transfer as one sponsored transaction; another process answers its status", async () => {
    const spender = fresh()
    const recipient = fresh()
    const aa = chainA().contracts.accountAbstraction
    const depositBefore = await reader().readContract({ address: aa.entryPoint, abi: entryPoint08Abi, functionName: "balanceOf", args: [aa.paymaster] })
    const id = await sent(rpcA, batch([approve(spender, 60n), transfer(recipient, 25n)]))
    const status = await finalStatus(rpcA, id)
    expect(status).toMatchObject({ status: 200, atomic: true, chainId: toHex(chainA().chainId) })
    expect(status.receipts).toHaveLength(1)
    const receipt = await reader().getTransactionReceipt({ hash: status.receipts![0]!.transactionHash })
    expect(receipt.status).toBe("success")
    // Both calls' events in that one transaction: Approval and Transfer of the token.
    expect(receipt.logs.filter((log) => log.address.toLowerCase() === erc20().toLowerCase())).toHaveLength(2)
    expect(await reader().readContract({ address: erc20(), abi: tokenAbi, functionName: "allowance", args: [smart, spender] })).toBe(60n)
    expect(await tokens(recipient)).toBe(25n)
    expect(await tokens(smart)).toBe(75n)
    expect(await reader().getBalance({ address: smart })).toBe(0n)
    expect(await reader().readContract({ address: aa.entryPoint, abi: entryPoint08Abi, functionName: "balanceOf", args: [aa.paymaster] })).toBeLessThan(depositBefore)
    // The id is in the database: the second process (another bundler behind it) gives the same answer.
    expect((await rpcB("wallet_getCallsStatus", [id])).body).toEqual({ result: status })
  })

  it("is paid by the account where the host does not sponsor", async () => {
    await mined(await funder().sendTransaction({ to: smart, value: parseEther("1") }))
    const aa = chainA().contracts.accountAbstraction
    const depositBefore = await reader().readContract({ address: aa.entryPoint, abi: entryPoint08Abi, functionName: "balanceOf", args: [aa.paymaster] })
    const recipient = fresh()
    const id = await sent(rpcB, batch([transfer(recipient, 5n), transfer(recipient, 7n)]))
    const status = await finalStatus(rpcB, id)
    expect(status).toMatchObject({ status: 200, atomic: true })
    expect(status.receipts).toHaveLength(1)
    expect(await tokens(recipient)).toBe(12n)
    expect(await reader().getBalance({ address: smart })).toBeLessThan(parseEther("1"))
    expect(await reader().readContract({ address: aa.entryPoint, abi: entryPoint08Abi, functionName: "balanceOf", args: [aa.paymaster] })).toBe(depositBefore)
  })

  it("answers 5730 for a batch id it does not know", async () => {
    expect(await rpcA("wallet_getCallsStatus", [`0x${"ab".repeat(32)}`])).toMatchObject({ status: 400, body: { rpcCode: 5730 } })
  })
})

describe("wallet_sendCalls from the EOA", () => {
  it("refuses an atomic batch with 5760 and sends nothing", async () => {
    const nonce = await reader().getTransactionCount({ address: user.evmAddress })
    const answer = await rpcA("wallet_sendCalls", batch([{ to: fresh(), value: "0x1" }], { from: user.evmAddress }))
    expect(answer).toMatchObject({ status: 400, body: { rpcCode: 5760 } })
    expect(await reader().getTransactionCount({ address: user.evmAddress })).toBe(nonce)
  })

  it("sends a batch that need not be atomic one call after the other", async () => {
    await mined(await funder().sendTransaction({ to: user.evmAddress, value: parseEther("1") }))
    const [first, second] = [fresh(), fresh()]
    const id = await sent(rpcA, batch([{ to: first, value: "0x10" }, { to: second, value: "0x20" }], { from: user.evmAddress, atomicRequired: false }))
    const status = await finalStatus(rpcA, id)
    expect(status).toMatchObject({ status: 200, atomic: false })
    expect(status.receipts).toHaveLength(2)
    expect(await reader().getBalance({ address: first })).toBe(16n)
    expect(await reader().getBalance({ address: second })).toBe(32n)
  })
})

describe("a bad batch", () => {
  it.each([
    ["a receiver without 0x", () => batch([{ to: fresh().slice(2) }]), -32602, "Call 1: the receiver must be an address starting with 0x"],
    ["another version", () => batch([{ to: fresh() }], { version: "1.0" }), -32602, "This wallet takes batches of version 2.0.0, not 1.0"],
    ["another chain", () => batch([{ to: fresh() }], { chainId: "0x1" }), 5710, `This batch is for chain 1, but the wallet is on chain ${31337}`],
    ["data for an address without code", () => batch([transfer(fresh(), 1n), { to: "0x000000000000000000000000000000000000dEaD", data: "0x1234" }]), -32602, "Call 2 sends data to 0x000000000000000000000000000000000000dEaD, which is not a contract"],
    ["values past the balance", () => batch([{ to: fresh(), value: toHex(parseEther("5000")) }]), -32602, /^The calls send 5000 ETH in all, more than the account holds \(0\.9\d* ETH\)$/]
  ] as const)("is refused before anything is sent: %s", async (_name, params, code, words) => {
    const before = await tokens(smart)
    const nonce = await reader().readContract({
      address: chainA().contracts.accountAbstraction.entryPoint,
      abi: entryPoint08Abi,
      functionName: "getNonce",
      args: [smart, 0n]
    })
    const answer = await rpcA("wallet_sendCalls", params())
    expect(answer).toMatchObject({ status: 400, body: { rpcCode: code } })
    const error = (answer.body as { error: string }).error
    if (typeof words === "string") expect(error).toBe(words)
    else expect(error).toMatch(words)
    expect(await tokens(smart)).toBe(before)
    expect(
      await reader().readContract({ address: chainA().contracts.accountAbstraction.entryPoint, abi: entryPoint08Abi, functionName: "getNonce", args: [smart, 0n] })
    ).toBe(nonce)
  })
})
