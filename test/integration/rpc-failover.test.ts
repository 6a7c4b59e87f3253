/**
 * A chain served through several RPC URLs whose first ones fail (a closed port, then a node answering 503): the
 * services' RPC proxy, balances, history (the indexer), the names' and the sessions' signature checks (a deployed
 * ERC-1271 account, checked on the chain), and the embedded wallet server's pass-through (reads, and a transaction the
 * frame signed) all reach the real anvil
 * behind them. A first URL that answers a JSON-RPC error is the answer: the proxy passes it on, no other URL is asked.
 */
import { randomBytes } from "node:crypto"
import { createServer, type Server } from "node:http"
import { Schema } from "effect"
import { type Hex, parseEther } from "viem"
import { privateKeyToAccount } from "viem/accounts"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type EvmChain, type EvmInfo, startEvm } from "../../devstack/evm/index"
import { deployedSmartAccount } from "../../devstack/evm/smartAccounts"
import { type MailInfo, startMail } from "../../devstack/mail/index"
import { type Database, startDatabase } from "../../server/src/db/index"
import { startWalletServer, type WalletServerInfo } from "../../server/src/embedded/server/index"
import { freePort } from "../../server/src/lib/ports"
import type { Started } from "../../server/src/lib/Started"
import { type ServicesInfo, startServices } from "../../server/src/services/index"
import { devProjects } from "../../server/src/services/projects"
import { RemoteSiwxSession, SessionNonceResponse } from "../../src/domain/Api"
import type { SiwxMessageData } from "../../src/domain/Siwx"
import { formatSiwxMessage } from "../../src/domain/siwxMessage"
import { NameMessageJson } from "../../src/domain/Names"
import { frameRpc } from "./support/frameSigner"
import { logInWithKeys, walletApi } from "./support/walletServerClient"

const PROJECT = "devstack-project"

let evm: Started<EvmInfo>
let db: Started<Database>
let mail: Started<MailInfo>
let services: Started<ServicesInfo>
let wallet: Started<WalletServerInfo>
const upstreams: Array<Server> = []
/** How many requests reached the 503 upstream. */
let unavailableHits = 0

const chain = (): EvmChain => {
  const found = evm.info.chains[0]
  if (found === undefined) throw new Error("chain 31337 is not running")
  return found
}

/** A loopback HTTP server answering every POST with `status` and `body`; resolves with its URL. */
const upstream = async (status: number, body: string, onHit = () => undefined as void) => {
  const server = createServer((request, response) => {
    onHit()
    request.resume()
    request.on("end", () => response.writeHead(status, { "content-type": "application/json" }).end(body))
  })
  upstreams.push(server)
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()))
  const address = server.address()
  return `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}`
}

/** The RPC URLs of the chain: a closed port, a node answering 503, then anvil. */
let failingFirst: ReadonlyArray<string>

beforeAll(async () => {
  ;[evm, db, mail] = await Promise.all([startEvm({ chainIds: [31337] }), startDatabase(), startMail()])
  failingFirst = [`http://127.0.0.1:${await freePort()}`, await upstream(503, "busy", () => void unavailableHits++), chain().rpcUrl]
  const [rpcUrl = "", ...fallbackRpcUrls] = failingFirst
  services = await startServices({
    evm: { chains: [{ ...chain(), rpcUrl, fallbackRpcUrls }] },
    database: db.info,
    projects: devProjects
  })
  wallet = await startWalletServer({
    masterKey: randomBytes(32),
    smtp: { port: mail.info.smtpPort },
    database: db.info,
    chains: { evm: [{ caipNetworkId: chain().caipNetworkId, rpcUrl, fallbackRpcUrls }] }
  })
})

afterAll(async () => {
  await Promise.all([services?.stop(), wallet?.stop()])
  await Promise.all([db?.stop(), mail?.stop(), evm?.stop()])
  await Promise.all(upstreams.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))))
})

const call = async (method: "GET" | "POST", path: string, body?: unknown) => {
  const response = await fetch(`${services.info.url}${path}`, {
    method,
    headers: { "content-type": "application/json", "x-project-id": PROJECT },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}

describe("the services, on a chain whose first RPC URLs fail", () => {
  it("proxy, balance and history answer from the URL that works, which is then asked first", async () => {
    expect(await call("POST", "/v1/?chainId=eip155:31337", { jsonrpc: "2.0", id: 7, method: "eth_chainId" })).toEqual({
      status: 200,
      body: { jsonrpc: "2.0", id: 7, result: "0x7a69" }
    })
    expect((await call("GET", "/v1/?chainId=eip155:31337&method=eth_blockNumber")).status).toBe(200)
    const account = evm.info.accounts[0]?.address ?? ""
    const balance = await call("GET", `/v1/account/${account}/balance?chainId=eip155:31337`)
    expect(balance.status).toBe(200)
    expect(balance.body["balances"]).toContainEqual(expect.objectContaining({ symbol: "ETH" }))
    // The dev contracts were deployed by account 0: the indexer read them from the chain.
    const history = await call("GET", `/v1/account/${account}/history?chainId=eip155:31337`)
    expect(history.status).toBe(200)
    expect((history.body["data"] as ReadonlyArray<unknown>).length).toBeGreaterThan(0)
    // The 503 was asked on the way to anvil once; the services kept asking anvil first after that.
    expect(unavailableHits).toBe(1)
  })

  it("checks a contract account's signature on the chain, for a name and for a sign-in session", async () => {
    const owner = privateKeyToAccount(evm.info.accounts[0]?.privateKey ?? "0x")
    const contract = deployedSmartAccount(chain().contracts.smartAccounts.deployed.address, owner)

    const message = Schema.encodeSync(NameMessageJson)({ name: "failover-account.wallet-runtime.id", attributes: {}, timestamp: Math.floor(Date.now() / 1000) })
    const registered = await call("POST", "/v1/profile/account", {
      coin_type: 0x8000_0000 + 31337,
      address: contract.address,
      message,
      signature: await contract.signMessage({ message })
    })
    expect(registered).toMatchObject({ status: 200, body: { name: "failover-account.wallet-runtime.id" } })

    const account = `eip155:31337:${contract.address}`
    const nonce = Schema.decodeUnknownSync(SessionNonceResponse)((await call("POST", `/v1/sessions/${account}/nonce`)).body).nonce
    const data: SiwxMessageData = {
      domain: "127.0.0.1:5173",
      uri: "http://127.0.0.1:5173/",
      version: "1",
      chainId: chain().caipNetworkId,
      accountAddress: contract.address,
      nonce,
      issuedAt: new Date().toISOString()
    }
    const text = formatSiwxMessage(data)
    if (text._tag === "Failure") throw new Error(text.failure)
    const session = await call("POST", `/v1/sessions/${account}`, { data, message: text.success, signature: await contract.signMessage({ message: text.success }) })
    expect(session.status).toBe(200)
    expect(Schema.decodeUnknownSync(RemoteSiwxSession)(session.body).pci).not.toBe("")
  })

  it("passes on a node's JSON-RPC error as its answer, asking no other URL", async () => {
    let anvilAsked = 0
    const reverting = await upstream(200, JSON.stringify({ jsonrpc: "2.0", id: 1, error: { code: 3, message: "execution reverted", data: "0x" } }))
    const counting = await upstream(200, JSON.stringify({ jsonrpc: "2.0", id: 1, result: "0x7a69" }), () => void anvilAsked++)
    const erring = await startServices({
      evm: { chains: [{ ...chain(), rpcUrl: reverting, fallbackRpcUrls: [counting] }] },
      database: db.info,
      projects: devProjects
    })
    try {
      const response = await fetch(`${erring.info.url}/v1/?chainId=eip155:31337&projectId=${PROJECT}`, {
        method: "POST",
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_call", params: [{ to: chain().contracts.smartAccounts.factory }, "latest"] })
      })
      expect([response.status, await response.json()]).toEqual([200, { jsonrpc: "2.0", id: 1, error: { code: 3, message: "execution reverted", data: "0x" } }])
      expect(anvilAsked).toBe(0)
    } finally {
      await erring.stop()
    }
  })
})

describe("the embedded wallet server, on a chain whose first RPC URLs fail", () => {
  it("passes reads to the chain and sends a transaction through the URL that works", async () => {
    const client = walletApi(wallet.info.url)
    const { token, storage } = await logInWithKeys(client, mail.info, `failover-${Date.now()}@example.test`, wallet.info.url)
    const user = (await client.call("GET", "/api/user", undefined, { token })).body as { readonly evmAddress: Hex }
    // Signed in the frame's code (the server signs nothing); the server passes the signed transaction and the reads on
    // to the chain, through the URL that works.
    const rpc = (method: string, params?: unknown) => frameRpc(client, wallet.info.url, token, storage)(chain().caipNetworkId, method, params)
    expect((await rpc("eth_chainId")).body).toEqual({ result: "0x7a69" })

    // Funded from a dev account on anvil itself, then it sends back through the wallet server.
    const funder = evm.info.accounts[1]?.address ?? ""
    const fund = await fetch(chain().rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "anvil_setBalance", params: [user.evmAddress, `0x${parseEther("1").toString(16)}`] })
    })
    expect(fund.status).toBe(200)
    const sent = await rpc("eth_sendTransaction", [{ from: user.evmAddress, to: funder, value: `0x${parseEther("0.1").toString(16)}` }])
    expect(sent.status).toBe(200)
    const receipt = await rpc("eth_getTransactionReceipt", [sent.body["result"]])
    expect(receipt.body["result"]).toMatchObject({ status: "0x1" })
  })
})
