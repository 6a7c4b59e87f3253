/**
 * The embedded wallet server's smart account against a real anvil chain, the server's own bundler and paymaster, the
 * mail sink and PGlite: the user's WalletAccount (of their split key, signed as the frame signs: support/frameSigner.ts) is named before it exists and signs
 * (ERC-6492), a send from it goes as a sponsored user operation that deploys it, the ETH moves while the user's EOA
 * holds nothing and the paymaster pays, then it signs by ERC-1271; what it signs verifies with viem's verifiers and
 * the user's EOA signature of the same message is not the account's; a chain without a bundler says smart accounts
 * are not available there.
 */
import { randomBytes } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createPublicClient, createWalletClient, type Hex, http, isErc6492Signature, parseEther } from "viem"
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
import { frameRpc } from "./support/frameSigner"
import { logInWithKeys, walletApi } from "./support/walletServerClient"

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
// Through the frame's code in node (the server signs nothing).
let rpc: ReturnType<typeof frameRpc>

// eth_signTypedData_v4's JSON as a site sends it, with its EIP712Domain type.
const typedData = (chainId: number) => ({
  types: {
    EIP712Domain: [
      { name: "name", type: "string" },
      { name: "version", type: "string" },
      { name: "chainId", type: "uint256" },
      { name: "verifyingContract", type: "address" }
    ],
    Person: [
      { name: "name", type: "string" },
      { name: "wallet", type: "address" }
    ],
    Mail: [
      { name: "from", type: "Person" },
      { name: "to", type: "Person" },
      { name: "contents", type: "string" }
    ]
  },
  primaryType: "Mail",
  domain: { name: "Ether Mail", version: "1", chainId, verifyingContract: "0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC" },
  message: {
    from: { name: "Cow", wallet: "0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826" },
    to: { name: "Bob", wallet: "0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB" },
    contents: "Hello, Bob!"
  }
}) as const

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
          smartAccount: { bundlerUrl: `${bundler.info.url}/rpc/${chainA().chainId}`, entryPoint: aa.entryPoint, factory: aa.walletAccountFactory }
        },
        // The second chain has no bundler for this wallet server.
        { caipNetworkId: chainB().caipNetworkId, rpcUrl: chainB().rpcUrl }
      ]
    }
  })
  client = walletApi(server.info.url)
  const keys = await logInWithKeys(client, mail.info, `smart-${Date.now()}@example.test`, server.info.url)
  token = keys.token
  rpc = frameRpc(client, server.info.url, token, keys.storage)
  user = (await client.call("GET", "/api/user", undefined, { token })).body as typeof user
})

afterAll(async () => {
  await server?.stop()
  await bundler?.stop()
  await Promise.all([db?.stop(), mail?.stop(), evm?.stop()])
})

describe("the embedded wallet's smart account", () => {
  it("lists the chains where smart accounts run, with the EntryPoint and factory the frame builds the account with", async () => {
    const aa = chainA().contracts.accountAbstraction
    expect((await client.call("GET", "/api/chains")).body).toEqual({
      chains: [chainA().caipNetworkId, chainB().caipNetworkId],
      smartAccountChains: [chainA().caipNetworkId],
      smartAccounts: [{ chainId: chainA().caipNetworkId, entryPoint: aa.entryPoint, factory: aa.walletAccountFactory }]
    })
  })

  it("passes what an operation signed in the frame needs to the chain's bundler and paymaster, and a signed transaction to the chain", async () => {
    const aa = chainA().contracts.accountAbstraction
    expect((await rpc(chainA().caipNetworkId, "eth_supportedEntryPoints", [])).body).toEqual({ result: [aa.entryPoint] })
    const smart = ((await rpc(chainA().caipNetworkId, "wallet_getSmartAccount")).body as { result: { address: Hex } }).result.address
    const stub = await rpc(chainA().caipNetworkId, "pm_getPaymasterStubData", [{ sender: smart, nonce: "0x0", callData: "0x" }, aa.entryPoint, `0x${chainA().chainId.toString(16)}`, {}])
    expect(stub.status).toBe(200)
    expect((stub.body as { result: { paymaster?: string } }).result.paymaster?.toLowerCase()).toBe(aa.paymaster.toLowerCase())
    // Another account's operation is neither sponsored nor sent through the user's session.
    const stranger = privateKeyToAccount(`0x${randomBytes(32).toString("hex")}`).address
    for (const method of ["pm_getPaymasterStubData", "pm_getPaymasterData", "eth_sendUserOperation", "eth_estimateUserOperationGas"]) {
      expect(await rpc(chainA().caipNetworkId, method, [{ sender: stranger, nonce: "0x0", callData: "0x" }, aa.entryPoint])).toEqual({
        status: 400,
        body: { code: "rpc_error", rpcCode: 4100, error: `The address ${stranger} is not this wallet's account` }
      })
    }
    expect(await rpc(chainB().caipNetworkId, "eth_sendUserOperation", [{}, aa.entryPoint])).toMatchObject({
      status: 400,
      body: { code: "rpc_error", rpcCode: 4200, error: `Smart accounts are not available on ${chainB().caipNetworkId}` }
    })
    // A transaction signed elsewhere (the frame) goes to the chain as it is.
    const signer = privateKeyToAccount(evm.info.accounts[2]!.privateKey)
    const chain = devChain(chainA().chainId, chainA().rpcUrl)
    const recipient = privateKeyToAccount(`0x${randomBytes(32).toString("hex")}`).address
    const wallet = createWalletClient({ account: signer, chain, transport: http(chainA().rpcUrl) })
    const raw = await wallet.signTransaction(await wallet.prepareTransactionRequest({ to: recipient, value: 1_000n }))
    const sent = await rpc(chainA().caipNetworkId, "eth_sendRawTransaction", [raw])
    expect(sent.status).toBe(200)
    const hash = (sent.body as { result: Hex }).result
    expect((await reader().waitForTransactionReceipt({ hash, pollingInterval: 20, timeout: 30_000 })).status).toBe("success")
    expect(await reader().getBalance({ address: recipient })).toBe(1_000n)
  })

  it("signs as the smart account before it exists, ERC-6492-wrapped, and viem's verifiers accept it", async () => {
    const smart = ((await rpc(chainA().caipNetworkId, "wallet_getSmartAccount")).body as { result: { address: Hex; deployed: boolean } }).result
    expect(smart.deployed).toBe(false)
    const signed = await rpc(chainA().caipNetworkId, "personal_sign", ["0x68656c6c6f", smart.address])
    expect(signed.status).toBe(200)
    const signature = (signed.body as { result: Hex }).result
    expect(isErc6492Signature(signature)).toBe(true)
    expect(await reader().verifyMessage({ address: smart.address, message: "hello", signature })).toBe(true)
    expect(await reader().verifyMessage({ address: smart.address, message: "hellO", signature })).toBe(false)

    const typed = typedData(chainA().chainId)
    const typedSigned = await rpc(chainA().caipNetworkId, "eth_signTypedData_v4", [smart.address, JSON.stringify(typed)])
    expect(typedSigned.status).toBe(200)
    const { EIP712Domain: _, ...types } = typed.types
    expect(
      await reader().verifyTypedData({ address: smart.address, domain: typed.domain, types, primaryType: "Mail", message: typed.message, signature: (typedSigned.body as { result: Hex }).result })
    ).toBe(true)
    expect(await reader().getCode({ address: smart.address })).toBeUndefined()
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

  it("signs as the smart account by ERC-1271 once deployed; the EOA's signature of the same message is not the account's", async () => {
    const smart = ((await rpc(chainA().caipNetworkId, "wallet_getSmartAccount")).body as { result: { address: Hex; deployed: boolean } }).result
    expect(smart.deployed).toBe(true)
    const signed = await rpc(chainA().caipNetworkId, "personal_sign", ["0x68656c6c6f", smart.address])
    expect(signed.status).toBe(200)
    const signature = (signed.body as { result: Hex }).result
    expect(isErc6492Signature(signature)).toBe(false)
    expect(await reader().verifyMessage({ address: smart.address, message: "hello", signature })).toBe(true)
    const eoa = ((await rpc(chainA().caipNetworkId, "personal_sign", ["0x68656c6c6f", user.evmAddress])).body as { result: Hex }).result
    expect(await reader().verifyMessage({ address: user.evmAddress, message: "hello", signature: eoa })).toBe(true)
    expect(await reader().verifyMessage({ address: smart.address, message: "hello", signature: eoa })).toBe(false)

    const typed = typedData(chainA().chainId)
    const typedSigned = await rpc(chainA().caipNetworkId, "eth_signTypedData_v4", [smart.address, JSON.stringify(typed)])
    expect(typedSigned.status).toBe(200)
    const { EIP712Domain: _, ...types } = typed.types
    expect(
      await reader().verifyTypedData({ address: smart.address, domain: typed.domain, types, primaryType: "Mail", message: typed.message, signature: (typedSigned.body as { result: Hex }).result })
    ).toBe(true)
  })

  it("says smart accounts are not available on a chain without a bundler", async () => {
    expect(await rpc(chainB().caipNetworkId, "wallet_getSmartAccount")).toMatchObject({
      status: 400,
      body: { code: "rpc_error", rpcCode: 4200, error: `Smart accounts are not available on ${chainB().caipNetworkId}` }
    })
  })
})
