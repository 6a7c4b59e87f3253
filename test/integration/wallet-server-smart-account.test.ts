/**
 * The embedded wallet server's smart account against a real anvil chain, the server's own bundler and paymaster, the
 * mail sink and PGlite: the user's SimpleAccount (of their server-held key) is named before it exists, a send from it
 * goes as a sponsored user operation that deploys it, the ETH moves while the user's EOA holds nothing and the
 * paymaster pays; a chain without a bundler says smart accounts are not available there.
 */
import { randomBytes } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createPublicClient, createWalletClient, type Hex, http, parseEther } from "viem"
import { privateKeyToAccount } from "viem/accounts"
import { entryPoint08Abi } from "viem/account-abstraction"
import { devChain } from "../../devstack/evm/chains"
import { type EvmInfo, startEvm } from "../../devstack/evm/index"
import { startDevBundler } from "../../devstack/evm/bundler"
import { type MailInfo, startMail } from "../../devstack/mail/index"
import type { BundlerInfo } from "../../server/src/bundler/index"
import { type Database, startDatabase } from "../../server/src/db/index"
import { startWalletServer, type WalletServerInfo } from "../../server/src/embedded/server/index"
import type { Started } from "../../server/src/lib/Started"
import { logIn, walletApi } from "./support/walletServerClient"

let mail: Started<MailInfo>
let db: Started<Database>
let evm: Started<EvmInfo>
let bundler: Started<BundlerInfo>
let server: Started<WalletServerInfo>
let client: ReturnType<typeof walletApi>
let token: string
let user: { readonly evmAddress: Hex }

const chainA = () => evm.info.chains[0]!
const chainB = () => evm.info.chains[1]!
const reader = () => createPublicClient({ chain: devChain(chainA().chainId, chainA().rpcUrl), transport: http(chainA().rpcUrl) })
const rpc = (chainId: string, method: string, params?: unknown) =>
  client.call("POST", "/api/rpc", { chainId, method, ...(params === undefined ? {} : { params }) }, { token })

beforeAll(async () => {
  ;[mail, db, evm] = await Promise.all([startMail(), startDatabase(), startEvm()])
  bundler = await startDevBundler(evm.info)
  const aa = chainA().contracts.accountAbstraction
  server = await startWalletServer({
    masterKey: randomBytes(32),
    smtp: { port: mail.info.smtpPort },
    database: db.info,
    chains: {
      evm: [
        {
          caipNetworkId: chainA().caipNetworkId,
          rpcUrl: chainA().rpcUrl,
          smartAccount: { bundlerUrl: `${bundler.info.url}/rpc/${chainA().chainId}`, entryPoint: aa.entryPoint, factory: aa.simpleAccountFactory }
        },
        // The second chain has no bundler for this wallet server.
        { caipNetworkId: chainB().caipNetworkId, rpcUrl: chainB().rpcUrl }
      ]
    }
  })
  client = walletApi(server.info.url)
  token = await logIn(client, mail.info, `smart-${Date.now()}@example.test`)
  user = (await client.call("GET", "/api/user", undefined, { token })).body as typeof user
})

afterAll(async () => {
  await server?.stop()
  await bundler?.stop()
  await Promise.all([db?.stop(), mail?.stop(), evm?.stop()])
})

describe("the embedded wallet's smart account", () => {
  it("lists the chains where smart accounts run", async () => {
    expect((await client.call("GET", "/api/chains")).body).toEqual({
      chains: [chainA().caipNetworkId, chainB().caipNetworkId],
      smartAccountChains: [chainA().caipNetworkId]
    })
  })

  it("names the smart account before it exists, sends from it as a sponsored user operation that deploys it, and the EOA pays nothing", async () => {
    const answer = (await rpc(chainA().caipNetworkId, "wallet_getSmartAccount")).body as { result: { address: Hex; deployed: boolean } }
    expect(answer.result.deployed).toBe(false)
    const smart = answer.result.address
    expect(smart).not.toBe(user.evmAddress)
    const funder = createWalletClient({
      account: privateKeyToAccount(evm.info.accounts[0]!.privateKey),
      chain: devChain(chainA().chainId, chainA().rpcUrl),
      transport: http(chainA().rpcUrl)
    })
    await reader().waitForTransactionReceipt({ hash: await funder.sendTransaction({ to: smart, value: parseEther("1") }), pollingInterval: 20 })
    const recipient = privateKeyToAccount(`0x${randomBytes(32).toString("hex")}`).address
    const aa = chainA().contracts.accountAbstraction
    const depositBefore = await reader().readContract({ address: aa.entryPoint, abi: entryPoint08Abi, functionName: "balanceOf", args: [aa.paymaster] })

    const sent = await rpc(chainA().caipNetworkId, "eth_sendTransaction", [{ from: smart, to: recipient, value: "0x2386f26fc10000" }])

    expect(sent.status).toBe(200)
    const hash = (sent.body as { result: Hex }).result
    expect((await reader().getTransactionReceipt({ hash })).status).toBe("success")
    expect(await reader().getBalance({ address: recipient })).toBe(parseEther("0.01"))
    expect(await reader().getBalance({ address: smart })).toBe(parseEther("0.99"))
    expect(await reader().getBalance({ address: user.evmAddress })).toBe(0n)
    expect(await reader().readContract({ address: aa.entryPoint, abi: entryPoint08Abi, functionName: "balanceOf", args: [aa.paymaster] })).toBeLessThan(depositBefore)
    expect(((await rpc(chainA().caipNetworkId, "wallet_getSmartAccount")).body as { result: { deployed: boolean } }).result.deployed).toBe(true)
  })

  it("refuses to sign a message as the smart account, in words (SimpleAccount has no ERC-1271)", async () => {
    const smart = ((await rpc(chainA().caipNetworkId, "wallet_getSmartAccount")).body as { result: { address: Hex } }).result.address
    expect(await rpc(chainA().caipNetworkId, "personal_sign", ["0x68656c6c6f", smart])).toMatchObject({
      status: 400,
      body: { rpcCode: 4200, error: "This smart account cannot sign messages: sign in with the account's owner (EOA)" }
    })
  })

  it("says smart accounts are not available on a chain without a bundler", async () => {
    expect(await rpc(chainB().caipNetworkId, "wallet_getSmartAccount")).toMatchObject({
      status: 400,
      body: { code: "rpc_error", rpcCode: 4200, error: `Smart accounts are not available on ${chainB().caipNetworkId}` }
    })
  })
})
