/**
 * ERC-7715 execution permissions on the embedded wallet server against a real anvil chain, the server's bundler and
 * paymaster, the mail sink and one database shared by two server processes: bad requests are refused and nothing is
 * stored; a native grant of 0.01 ETH a day is used within its limit (the ETH moves on chain from the smart account),
 * refused beyond it (nothing sent), allowed again the next day by the server's clock, and refused once revoked; two
 * uses of one ERC-20 grant at once through the two processes spend it once; another user cannot use a grant.
 * Sends made with a grant are signed as the frame signs them (support/frameSigner.ts); the server counts them.
 */
import { randomBytes } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createPublicClient, createWalletClient, encodeFunctionData, erc20Abi, type Hex, http, parseEther, parseUnits } from "viem"
import { privateKeyToAccount } from "viem/accounts"
import { devChain } from "../../devstack/evm/chains"
import { type EvmInfo, startEvm } from "../../devstack/evm/index"
import { startDevBundler } from "../../devstack/evm/bundler"
import { type MailInfo, startMail } from "../../devstack/mail/index"
import type { BundlerInfo } from "../../server/src/bundler/index"
import { type Database, startDatabase } from "../../server/src/db/index"
import { startWalletServer, type WalletServerInfo } from "../../server/src/embedded/server/index"
import type { Started } from "../../server/src/lib/Started"
import type { FrameStorage } from "../../server/src/embedded/frame/frameLogic"
import { frameRpc } from "./support/frameSigner"
import { logInWithKeys, walletApi } from "./support/walletServerClient"

const DAY = 86_400
let mail: Started<MailInfo>
let db: Started<Database>
let evm: Started<EvmInfo>
let bundler: Started<BundlerInfo>
let servers: ReadonlyArray<Started<WalletServerInfo>> = []
let clients: ReadonlyArray<ReturnType<typeof walletApi>> = []
let token: string
// The frame's storage on each user's device, by session: the device shares of the keys its login made.
const storages = new Map<string, FrameStorage>()
let smart: Hex
// How far the servers' clock runs ahead of the real time (both processes read the same one).
let aheadMs = 0

const chainA = () => evm.info.chains[0]!
const chainB = () => evm.info.chains[1]!
const token0 = () => chainA().contracts.tokens[0]!
const reader = () => createPublicClient({ chain: devChain(chainA().chainId, chainA().rpcUrl), transport: http(chainA().rpcUrl) })
// Through the frame's code in node (the server signs nothing), against one of the two server processes.
const rpc = (method: string, params: unknown, opts: { readonly server?: number; readonly as?: string; readonly chainId?: string } = {}) => {
  const client = clients[opts.server ?? 0]!
  const session = opts.as ?? token
  return frameRpc(client, servers[opts.server ?? 0]!.info.url, session, storages.get(session)!)(opts.chainId ?? chainA().caipNetworkId, method, params)
}
const nowSeconds = () => Math.floor((Date.now() + aheadMs) / 1000)
const recipient = () => privateKeyToAccount(`0x${randomBytes(32).toString("hex")}`).address

const nativeDaily = (overrides: Record<string, unknown> = {}, data: Record<string, unknown> = {}) => ({
  chainId: `0x${chainA().chainId.toString(16)}`,
  expiry: nowSeconds() + 7 * DAY,
  permission: { type: "native-token-periodic", data: { periodAmount: "0x2386f26fc10000", periodDuration: DAY, justification: "Coffee", ...data } },
  ...overrides
})
const granted = async () => ((await rpc("wallet_getGrantedExecutionPermissions", [])).body as { result: ReadonlyArray<{ context: Hex }> }).result

beforeAll(async () => {
  ;[mail, db, evm] = await Promise.all([startMail(), startDatabase(), startEvm()])
  bundler = await startDevBundler(evm.info)
  const aa = chainA().contracts.accountAbstraction
  const masterKey = randomBytes(32)
  // Two processes of the wallet server on one database, as a host runs several.
  servers = await Promise.all(
    [0, 1].map(() =>
      startWalletServer({
        masterKey,
        smtp: { port: mail.info.smtpPort },
        database: db.info,
        now: () => Date.now() + aheadMs,
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
    )
  )
  clients = servers.map((server) => walletApi(server.info.url))
  const keys = await logInWithKeys(clients[0]!, mail.info, `grants-${Date.now()}@example.test`, servers[0]!.info.url)
  token = keys.token
  storages.set(token, keys.storage)
  smart = ((await rpc("wallet_getSmartAccount", undefined)).body as { result: { address: Hex } }).result.address
  // The smart account holds 1 ETH and 100 of the first token; the paymaster pays its gas.
  const funder = createWalletClient({ account: privateKeyToAccount(evm.info.accounts[0]!.privateKey), chain: devChain(chainA().chainId, chainA().rpcUrl), transport: http(chainA().rpcUrl) })
  await reader().waitForTransactionReceipt({ hash: await funder.sendTransaction({ to: smart, value: parseEther("1") }), pollingInterval: 20, timeout: 20_000 })
  const tokens = await funder.writeContract({ address: token0().address, abi: erc20Abi, functionName: "transfer", args: [smart, parseUnits("100", token0().decimals)] })
  await reader().waitForTransactionReceipt({ hash: tokens, pollingInterval: 20, timeout: 20_000 })
}, 120_000)

afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()))
  await bundler?.stop()
  await Promise.all([db?.stop(), mail?.stop(), evm?.stop()])
})

describe("ERC-7715 permissions on the wallet server", () => {
  it("offers the four types on the chain with smart accounts, none on the other", async () => {
    const supported = (await rpc("wallet_getSupportedExecutionPermissions", [])).body as { result: Record<string, { chainIds: ReadonlyArray<Hex> }> }
    expect(Object.keys(supported.result)).toEqual(["native-token-periodic", "native-token-stream", "erc20-token-periodic", "erc20-token-stream"])
    expect(supported.result["native-token-periodic"]!.chainIds).toEqual([`0x${chainA().chainId.toString(16)}`])
    const other = (await rpc("wallet_getSupportedExecutionPermissions", [], { chainId: chainB().caipNetworkId })).body as { result: Record<string, { chainIds: ReadonlyArray<Hex> }> }
    expect(other.result["native-token-stream"]!.chainIds).toEqual([])
  })

  it.each([
    ["an unknown type", () => ({ ...nativeDaily(), permission: { type: "native-token-recurring-allowance", data: {} } }), 'The permission type "native-token-recurring-allowance" is not supported: ask for one of native-token-periodic, native-token-stream, erc20-token-periodic, erc20-token-stream'],
    ["an expiry in the past", () => nativeDaily({ expiry: nowSeconds() - 60 }), "The permission's expiry is in the past"],
    ["a zero amount", () => nativeDaily({}, { periodAmount: "0x0" }), "The permission's periodAmount must be more than zero"],
    ["a negative amount", () => nativeDaily({}, { periodAmount: -1 }), "The permission's periodAmount must be more than zero"],
    ["a non-numeric amount", () => nativeDaily({}, { periodAmount: "ten" }), "The permission's periodAmount must be a whole number (in the token's smallest unit)"],
    ["an unknown chain", () => nativeDaily({ chainId: "0x1" }), "The chain 1 is not one this wallet grants permissions on"]
  ])("refuses %s with words, and stores nothing", async (_name, request, message) => {
    // A good request beside the bad one: nothing of the call is stored.
    const answer = await rpc("wallet_requestExecutionPermissions", [[nativeDaily(), request()]])
    expect(answer).toMatchObject({ status: 400, body: { code: "rpc_error", rpcCode: -32602, error: message } })
    expect(await granted()).toEqual([])
  })

  it("refuses a grant on a chain without smart accounts", async () => {
    const answer = await rpc("wallet_requestExecutionPermissions", [[nativeDaily({ chainId: `0x${chainB().chainId.toString(16)}` })]], { chainId: chainB().caipNetworkId })
    expect(answer).toMatchObject({ status: 400, body: { rpcCode: -32602, error: `The chain ${chainB().chainId} is not one this wallet grants permissions on` } })
  })

  it("a native grant of 0.01 ETH a day: used within it (on chain), refused beyond it (nothing sent), again the next day, refused once revoked", async () => {
    const answer = await rpc("wallet_requestExecutionPermissions", [[nativeDaily()]])
    expect(answer.status).toBe(200)
    const [grant] = (answer.body as { result: ReadonlyArray<{ context: Hex; from: Hex; permission: { type: string } }> }).result
    expect(grant).toMatchObject({ from: smart, permission: { type: "native-token-periodic" } })
    expect((await granted()).map((g) => g.context)).toEqual([grant!.context])
    // The grant is the user's on every process.
    expect(((await rpc("wallet_getGrantedExecutionPermissions", [], { server: 1 })).body as { result: ReadonlyArray<{ context: Hex }> }).result).toHaveLength(1)

    const bob = recipient()
    const use = (value: string, server = 0) => rpc("eth_sendTransaction", [{ to: bob, value, permissionsContext: grant!.context }], { server })
    const first = await use(`0x${parseEther("0.006").toString(16)}`)
    expect(first.status).toBe(200)
    const hash = (first.body as { result: Hex }).result
    expect((await reader().waitForTransactionReceipt({ hash, pollingInterval: 20, timeout: 20_000 })).status).toBe("success")
    expect(await reader().getBalance({ address: bob })).toBe(parseEther("0.006"))
    const smartBalance = await reader().getBalance({ address: smart })

    const beyond = await use(`0x${parseEther("0.005").toString(16)}`, 1)
    expect(beyond).toMatchObject({ status: 400, body: { rpcCode: 4100, error: "This exceeds what the permission allows in this period" } })
    expect(await reader().getBalance({ address: bob })).toBe(parseEther("0.006"))
    expect(await reader().getBalance({ address: smart })).toBe(smartBalance)

    aheadMs += DAY * 1000
    const nextDay = await use(`0x${parseEther("0.005").toString(16)}`)
    expect(nextDay.status).toBe(200)
    await reader().waitForTransactionReceipt({ hash: (nextDay.body as { result: Hex }).result, pollingInterval: 20, timeout: 20_000 })
    expect(await reader().getBalance({ address: bob })).toBe(parseEther("0.011"))

    // The spec's alias revokes it as well; a second revoke has nothing left to revoke.
    expect(await rpc("wallet_revokePermissions", [{ permissionContext: grant!.context }])).toMatchObject({ status: 200, body: { result: {} } })
    expect(await rpc("wallet_revokeExecutionPermission", [{ permissionContext: grant!.context }])).toMatchObject({
      status: 400,
      body: { error: "This site has no active permission with that context" }
    })
    expect(await use("0x1")).toMatchObject({ status: 400, body: { rpcCode: 4100, error: "This permission was revoked" } })
    expect(await reader().getBalance({ address: bob })).toBe(parseEther("0.011"))
    expect(await granted()).toEqual([])
  }, 120_000)

  it("an ERC-20 grant used twice at once through two processes is spent once; another user cannot use it", async () => {
    const answer = await rpc("wallet_grantPermissions", [
      {
        chainId: chainA().chainId,
        expiry: nowSeconds() + DAY,
        permission: { type: "erc20-token-periodic", data: { tokenAddress: token0().address, periodAmount: parseUnits("5", token0().decimals).toString(), periodDuration: 7 * DAY } }
      }
    ])
    expect(answer.status).toBe(200)
    const context = (answer.body as { result: ReadonlyArray<{ context: Hex }> }).result[0]!.context
    const carol = recipient()
    const transfer = encodeFunctionData({ abi: erc20Abi, functionName: "transfer", args: [carol, parseUnits("3", token0().decimals)] })
    const uses = await Promise.all([0, 1].map((server) => rpc("eth_sendTransaction", [{ to: token0().address, data: transfer, permissionsContext: context }], { server })))
    expect(uses.map((u) => u.status).sort()).toEqual([200, 400])
    expect(uses.find((u) => u.status === 400)).toMatchObject({ body: { rpcCode: 4100, error: "This exceeds what the permission allows in this period" } })
    const hash = (uses.find((u) => u.status === 200)!.body as { result: Hex }).result
    await reader().waitForTransactionReceipt({ hash, pollingInterval: 20, timeout: 20_000 })
    expect(await reader().readContract({ address: token0().address, abi: erc20Abi, functionName: "balanceOf", args: [carol] })).toBe(parseUnits("3", token0().decimals))

    // The native currency is not what this grant covers.
    expect(await rpc("eth_sendTransaction", [{ to: carol, value: "0x1", permissionsContext: context }])).toMatchObject({
      status: 400,
      body: { error: "This permission covers another token" }
    })
    const otherKeys = await logInWithKeys(clients[1]!, mail.info, `other-${Date.now()}@example.test`, servers[1]!.info.url)
    const other = otherKeys.token
    storages.set(other, otherKeys.storage)
    expect(await rpc("eth_sendTransaction", [{ to: token0().address, data: transfer, permissionsContext: context }], { server: 1, as: other })).toMatchObject({
      status: 400,
      body: { rpcCode: 4100, error: "This site has no permission with that context" }
    })
  }, 120_000)
})
