/**
 * Signing in the frame (issue 30, items 1 and 6) against the real wallet server, anvil with EntryPoint v0.8 and our
 * WalletAccount, the server's bundler and paymaster, the litesvm Solana RPC, the mail sink and PGlite: a user whose
 * keys the server made and sealed logs in again through the frame, which splits them at that login (same addresses),
 * and from then on the frame logic (driven in node, as the frame page drives it) signs with the key put together for each
 * operation: messages and typed data verify, ETH lands from the EOA, a sponsored user operation lands from the smart
 * account, SOL lands, a batch of two calls is one user operation whose status the server answers, a send made with an
 * ERC-7715 grant lands within it and is refused beyond it (counted by the server before the frame signs); the wallet
 * server no longer signs anything for that user.
 */
import { randomBytes } from "node:crypto"
import {
  address,
  appendTransactionMessageInstruction,
  compileTransaction,
  createSolanaRpc,
  createTransactionMessage,
  getBase64EncodedWireTransaction,
  lamports,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
  type Signature
} from "@solana/kit"
import { createPublicClient, createWalletClient, type Hex, http, parseEther, verifyMessage } from "viem"
import { privateKeyToAccount } from "viem/accounts"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startDevBundler } from "../../devstack/evm/bundler"
import { devChain } from "../../devstack/evm/chains"
import { type EvmInfo, startEvm } from "../../devstack/evm/index"
import { type MailInfo, startMail } from "../../devstack/mail/index"
import { type SolanaInfo, startSolana, transferSolInstruction } from "../../devstack/solana/index"
import type { BundlerInfo } from "../../server/src/bundler/index"
import { type Database, startDatabase } from "../../server/src/db/index"
import { makeWalletApi } from "../../server/src/embedded/frame/apiClient"
import { FRAME_STORAGE_KEYS, makeFrame, makeMemoryStorage } from "../../server/src/embedded/frame/frameLogic"
import { startWalletServer, type WalletServerInfo } from "../../server/src/embedded/server/index"
import type { Started } from "../../server/src/lib/Started"
import type { FrameResponse } from "../../src/domain/Frame"
import { sealLegacyKeys } from "./support/legacyKeys"
import { logIn, newestCode, walletApi } from "./support/walletServerClient"

const HOST = "http://127.0.0.1:5173"
const DEVICE = "frame-signing-device-0123456789"
// How far the wallet server's clock runs ahead: past the mail cool-down before the second login's code.
let aheadMs = 0
const SOL = 1_000_000_000n
let mail: Started<MailInfo>
let db: Started<Database>
let evm: Started<EvmInfo>
let bundler: Started<BundlerInfo>
let solana: Started<SolanaInfo>
let server: Started<WalletServerInfo>
let client: ReturnType<typeof walletApi>
let token: string
// The session of the user's login before keys were split (the API's own, on the same device).
let first: string
let user: { readonly evmAddress: Hex; readonly solanaAddress: string }
const storage = makeMemoryStorage()
const posted: Array<FrameResponse> = []
let frame: ReturnType<typeof makeFrame>
const masterKey = randomBytes(32)

const chain = () => evm.info.chains[0]!
const reader = () => createPublicClient({ chain: devChain(chain().chainId, chain().rpcUrl), transport: http(chain().rpcUrl) })
const fund = async (to: Hex, value: bigint) => {
  const funder = createWalletClient({ account: privateKeyToAccount(evm.info.accounts[0]!.privateKey), chain: devChain(chain().chainId, chain().rpcUrl), transport: http(chain().rpcUrl) })
  await reader().waitForTransactionReceipt({ hash: await funder.sendTransaction({ to, value }), pollingInterval: 20, timeout: 30_000 })
}

let n = 0
/** Sends a request to the frame from its parent at HOST; its one reply. */
const ask = async (type: string, payload?: unknown) => {
  const id = `req-${++n}`
  await frame.receive({ data: payload === undefined ? { id, type: `@wr-app/${type}` } : { id, type: `@wr-app/${type}`, payload }, origin: HOST, source: "parent" })
  const reply = posted.find((message) => "id" in message && message.id === id)
  expect(reply).toBeDefined()
  return reply as FrameResponse & { readonly payload?: unknown }
}
const signed = async (method: string, params: unknown) => {
  const reply = await ask("RPC_REQUEST", { method, params })
  expect(reply.type, JSON.stringify(reply.payload)).toBe("@wr-frame/RPC_REQUEST_SUCCESS")
  return reply.payload
}

beforeAll(async () => {
  ;[mail, db, evm, solana] = await Promise.all([startMail(), startDatabase(), startEvm({ chainIds: [31337] }), startSolana()])
  bundler = await startDevBundler(evm.info)
  const aa = chain().contracts.accountAbstraction
  server = await startWalletServer({
    masterKey,
    smtp: { port: mail.info.smtpPort },
    database: db.info,
    now: () => Date.now() + aheadMs,
    chains: {
      evm: [
        {
          caipNetworkId: chain().caipNetworkId,
          rpcUrl: chain().rpcUrl,
          smartAccount: { bundlerUrl: `${bundler.info.url}/rpc/${chain().chainId}`, entryPoint: aa.entryPoint, factory: aa.walletAccountFactory }
        }
      ],
      solana: { caipNetworkId: solana.info.caipNetworkId, rpcUrl: solana.info.rpcUrl }
    }
  })
  // A user of before keys were made in the frame: the server made and sealed their keys at this first login.
  const email = `frame-signer-${Date.now()}@example.test`
  client = walletApi(server.info.url, { deviceId: DEVICE })
  first = await logIn(client, mail.info, email)
  const sealed = await sealLegacyKeys(db.info, masterKey, (await client.call("GET", "/api/keys", undefined, { token: first })).body["userId"] as string)
  user = (await client.call("GET", "/api/user", undefined, { token: first })).body as typeof user
  expect(user).toMatchObject(sealed)
  frame = makeFrame({
    api: makeWalletApi({ fetch, baseUrl: server.info.url, projectId: "devstack-project" }),
    storage,
    post: (message) => posted.push(message),
    parentOrigin: HOST,
    isParent: (source) => source === "parent",
    query: { projectId: "devstack-project", chainId: chain().chainId, version: undefined, enableLogger: false },
    randomId: () => DEVICE,
    now: () => Date.now(),
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    log: () => undefined
  })
  expect(await frame.start()).toEqual({ ready: true, parentOrigin: HOST })
  // The next login, through the frame on the same device: it splits the keys the server sealed.
  aheadMs += 31_000
  const before = mail.info.messages(email).length
  expect((await ask("CONNECT_EMAIL", { email })).payload).toEqual({ action: "VERIFY_OTP" })
  expect((await ask("CONNECT_OTP", { otp: newestCode(mail.info, email, before) })).type).toBe("@wr-frame/CONNECT_OTP_SUCCESS")
  token = storage.getItem(FRAME_STORAGE_KEYS.token) ?? ""
  expect(((await client.call("GET", "/api/keys", undefined, { token })).body["keys"] as ReadonlyArray<{ address: string }>).map((key) => key.address)).toEqual([
    user.evmAddress,
    user.solanaAddress
  ])
}, 120_000)

afterAll(async () => {
  await server?.stop()
  await bundler?.stop()
  await Promise.all([db?.stop(), mail?.stop(), evm?.stop(), solana?.stop()])
})

describe("a migrated user signs in the frame", () => {
  it("keeps the addresses, and the wallet server signs nothing for them any more, for this session or the one before", async () => {
    expect(await ask("GET_USER", {})).toMatchObject({ payload: { address: user.evmAddress, recovery: "device" } })
    for (const [chainId, method, params] of [
      [chain().caipNetworkId, "personal_sign", ["0x68656c6c6f", user.evmAddress]],
      [chain().caipNetworkId, "eth_sendTransaction", [{ to: user.evmAddress, value: "0x1" }]],
      [solana.info.caipNetworkId, "solana_signMessage", { message: "Cn8eVZg" }]
    ] as const) {
      for (const session of [token, first]) {
        expect(await client.call("POST", "/api/rpc", { chainId, method, params }, { token: session })).toEqual({
        status: 400,
          body: { code: "method_not_allowed", error: "This wallet signs in its frame, never on the wallet server" }
        })
      }
    }
  })

  it("personal_sign from the frame verifies for the EOA", async () => {
    const signature = (await signed("personal_sign", ["0x68656c6c6f", user.evmAddress])) as Hex
    expect(await verifyMessage({ address: user.evmAddress, message: "hello", signature })).toBe(true)
  })

  it("eth_sendTransaction of 0.01 ETH from the EOA lands on anvil", async () => {
    await fund(user.evmAddress, parseEther("1"))
    const recipient = privateKeyToAccount(`0x${randomBytes(32).toString("hex")}`).address
    const hash = (await signed("eth_sendTransaction", [{ to: recipient, value: "0x2386f26fc10000" }])) as Hex
    expect((await reader().waitForTransactionReceipt({ hash, pollingInterval: 20, timeout: 30_000 })).status).toBe("success")
    expect(await reader().getBalance({ address: recipient })).toBe(parseEther("0.01"))
  })

  it("with the smart account in front, a send is a sponsored user operation that deploys it and lands; its signature verifies", async () => {
    const chosen = await ask("SET_PREFERRED_ACCOUNT", { type: "smartAccount" })
    const smart = (chosen.payload as { address: Hex }).address
    expect(smart).not.toBe(user.evmAddress)
    await fund(smart, parseEther("1"))
    const eoaBefore = await reader().getBalance({ address: user.evmAddress })
    const recipient = privateKeyToAccount(`0x${randomBytes(32).toString("hex")}`).address
    const hash = (await signed("eth_sendTransaction", [{ to: recipient, value: "0x2386f26fc10000" }])) as Hex
    expect((await reader().waitForTransactionReceipt({ hash, pollingInterval: 20, timeout: 30_000 })).status).toBe("success")
    expect(await reader().getBalance({ address: recipient })).toBe(parseEther("0.01"))
    expect(await reader().getBalance({ address: smart })).toBe(parseEther("0.99"))
    expect(await reader().getBalance({ address: user.evmAddress })).toBe(eoaBefore)
    const signature = (await signed("personal_sign", ["0x68656c6c6f", smart])) as Hex
    expect(await reader().verifyMessage({ address: smart, message: "hello", signature })).toBe(true)
    await ask("SET_PREFERRED_ACCOUNT", { type: "eoa" })
  })

  it("solana_signAndSendTransaction of a SOL transfer is confirmed", async () => {
    const solRpc = createSolanaRpc(solana.info.rpcUrl)
    const owner = address(user.solanaAddress)
    await solRpc.requestAirdrop(owner, lamports(2n * SOL)).send()
    const receiver = address(solana.info.funded[1]?.address ?? "")
    const before = (await solRpc.getBalance(receiver).send()).value
    const { value: latest } = await solRpc.getLatestBlockhash().send()
    const transaction = getBase64EncodedWireTransaction(
      compileTransaction(
        pipe(
          createTransactionMessage({ version: 0 }),
          (m) => setTransactionMessageFeePayer(owner, m),
          (m) => setTransactionMessageLifetimeUsingBlockhash(latest, m),
          (m) => appendTransactionMessageInstruction(transferSolInstruction(owner, receiver, SOL / 2n), m)
        )
      )
    )
    await ask("SWITCH_NETWORK", { chainId: solana.info.caipNetworkId })
    const { signature } = (await signed("solana_signAndSendTransaction", { transaction })) as { signature: string }
    const [status] = (await solRpc.getSignatureStatuses([signature as Signature]).send()).value
    expect(status?.err).toBeNull()
    expect((await solRpc.getBalance(receiver).send()).value - before).toBe(SOL / 2n)
    await ask("SWITCH_NETWORK", { chainId: chain().chainId })
  })

  it("wallet_sendCalls from the smart account is one user operation, signed in the frame, kept by the server for its status", async () => {
    const chosen = await ask("SET_PREFERRED_ACCOUNT", { type: "smartAccount" })
    const smart = (chosen.payload as { address: Hex }).address
    const bob = privateKeyToAccount(`0x${randomBytes(32).toString("hex")}`).address
    const carol = privateKeyToAccount(`0x${randomBytes(32).toString("hex")}`).address
    const { id } = (await signed("wallet_sendCalls", [
      { version: "2.0.0", chainId: `0x${chain().chainId.toString(16)}`, from: smart, atomicRequired: true, calls: [{ to: bob, value: "0x1" }, { to: carol, value: "0x2" }] }
    ])) as { id: string }
    // Bounded: the bundler includes the operation within a few of its rounds.
    const deadline = Date.now() + 30_000
    let status: { status?: number; receipts?: ReadonlyArray<{ transactionHash: Hex }> } = {}
    while (status.status !== 200 && Date.now() < deadline) status = (await signed("wallet_getCallsStatus", [id])) as typeof status
    expect(status.status).toBe(200)
    expect(status.receipts).toHaveLength(1)
    expect([await reader().getBalance({ address: bob }), await reader().getBalance({ address: carol })]).toEqual([1n, 2n])
    await ask("SET_PREFERRED_ACCOUNT", { type: "eoa" })
  })

  it("a send made with an ERC-7715 grant is counted by the server, then signed in the frame: it lands within the grant and is refused beyond it", async () => {
    const day = 24 * 60 * 60
    const [grant] = (await signed("wallet_grantPermissions", [
      [
        {
          chainId: `0x${chain().chainId.toString(16)}`,
          expiry: Math.floor(Date.now() / 1000) + 7 * day,
          permission: { type: "native-token-periodic", data: { periodAmount: "0x2386f26fc10000", periodDuration: day, justification: "Coffee" } }
        }
      ]
    ])) as ReadonlyArray<{ context: Hex; from: Hex }>
    const bob = privateKeyToAccount(`0x${randomBytes(32).toString("hex")}`).address
    const use = (value: bigint) => ask("RPC_REQUEST", { method: "eth_sendTransaction", params: [{ to: bob, value: `0x${value.toString(16)}`, permissionsContext: grant!.context }] })
    const first = await use(parseEther("0.006"))
    expect(first.type).toBe("@wr-frame/RPC_REQUEST_SUCCESS")
    expect((await reader().waitForTransactionReceipt({ hash: first.payload as Hex, pollingInterval: 20, timeout: 30_000 })).status).toBe("success")
    expect(await reader().getBalance({ address: bob })).toBe(parseEther("0.006"))
    const smartBalance = await reader().getBalance({ address: grant!.from })
    expect(await use(parseEther("0.005"))).toMatchObject({ type: "@wr-frame/RPC_REQUEST_ERROR", payload: { message: "This exceeds what the permission allows in this period" } })
    expect(await reader().getBalance({ address: bob })).toBe(parseEther("0.006"))
    expect(await reader().getBalance({ address: grant!.from })).toBe(smartBalance)
  })
})
