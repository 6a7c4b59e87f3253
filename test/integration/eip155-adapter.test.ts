/**
 * The eip155 adapter against two devstack anvil chains: the ChainAdapter contract with the Node EVM test wallet as
 * the EIP-1193 provider and every read through the product's RpcTransport, then what only EVM wallets do (switching
 * and adding chains, gas estimates, capabilities, batched calls checked before the wallet sees them).
 */
import { Effect, Layer, ManagedRuntime } from "effect"
import * as FetchHttpClient from "effect/http/FetchHttpClient"
import {
  type Address,
  createPublicClient,
  encodeFunctionData,
  erc20Abi,
  type Hex,
  http,
  parseAbi,
  type PublicClient,
  verifyMessage,
  verifyTypedData
} from "viem"
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { EvmInfo } from "../../devstack/evm/index"
import { startEvm } from "../../devstack/evm/index"
import type { Started } from "../../server/src/lib/Started"
import { makeTestWallet, type TestWallet } from "../../devstack/wallet/testWallet"
import { type CaipNetwork } from "../../src/domain/Network"
import { localChainA, localChainB, withDefaultRpcUrls } from "../../src/domain/networks"
import { decodeOptionsSync } from "../../src/domain/Options"
import type { AccountSession, ReadRpc } from "../../src/services/ChainAdapter"
import { Config } from "../../src/services/Config"
import { estimateGas, makeEip155Adapter } from "../../src/services/eip155/Eip155Adapter"
import { RpcTransport } from "../../src/services/RpcTransport/RpcTransport"
import { chainAdapterContract, type TokenUnderTest } from "./support/chainAdapterContract"

let evm: Started<EvmInfo>
let transport: ManagedRuntime.ManagedRuntime<RpcTransport, never>
let reads: ReadRpc
let chainA: CaipNetwork
let chainB: CaipNetwork
let client: PublicClient
let wallet: TestWallet
let tokens: ReadonlyArray<TokenUnderTest>

const RECEIVER = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8"

/** A test wallet over dev accounts 0 and 1 that knows chain A only: switching to B makes it answer 4902. */
const makeWallet = () =>
  makeTestWallet({
    privateKeys: evm.info.accounts.slice(0, 2).map((account) => account.privateKey),
    chains: [{ chainId: 31337, name: "Local Chain A", rpcUrl: chainA.rpcUrls.default.http[0]! }],
    chainId: 31337
  })

/** The wallet, connected to the site on chain A, as its connector hands it to the adapter. */
const sessionOf = async (of: TestWallet): Promise<AccountSession> => {
  await of.request({ method: "eth_requestAccounts" })
  return { provider: { namespace: "eip155", provider: of }, address: of.address(), network: chainA, walletName: of.identity.name }
}

const adapterWith = (token?: TokenUnderTest) =>
  makeEip155Adapter({ reads, tokenOf: (network) => (token !== undefined && network.id === 31337 ? { address: token.address, symbol: token.symbol } : undefined) })

const transferData = (to: Address, value: bigint) =>
  encodeFunctionData({ abi: parseAbi(["function transfer(address to, uint256 value) returns (bool)"]), functionName: "transfer", args: [to, value] })

beforeAll(async () => {
  evm = await startEvm()
  const [a, b] = evm.info.chains
  if (a === undefined || b === undefined) throw new Error("two chains expected")
  chainA = withDefaultRpcUrls(localChainA, { http: [a.rpcUrl] })
  chainB = withDefaultRpcUrls(localChainB, { http: [b.rpcUrl] })
  // The product's transport: the network's own RPC only (no projectId, so no proxy endpoint).
  transport = ManagedRuntime.make(
    RpcTransport.layer.pipe(Layer.provide(Config.layer(decodeOptionsSync({ networks: [chainA, chainB] }))), Layer.provide(FetchHttpClient.layer))
  )
  const service = await transport.runPromise(Effect.service(RpcTransport))
  reads = (network, method, params) => service.request(network, { method, params })
  client = createPublicClient({ transport: http(a.rpcUrl) }) as PublicClient
  tokens = a.contracts.tokens.map((token) => ({
    label: `${token.symbol} (${token.kind === "standard" ? "ERC-20" : "ERC-20 whose transfer returns nothing"})`,
    address: token.address,
    symbol: token.symbol,
    decimals: token.decimals
  }))
  wallet = makeWallet()
})

afterAll(async () => {
  await transport?.dispose()
  await evm?.stop()
})

describe("eip155 adapter: the ChainAdapter contract against anvil", () => {
  chainAdapterContract({
    adapter: adapterWith,
    network: () => chainA,
    session: () => sessionOf(wallet),
    setApproval: (approval) => wallet.setApproval(approval),
    walletRequests: () => wallet.requests,
    sendRequestName: "eth_sendTransaction",
    verifySignature: (message, signature, address) =>
      verifyMessage({ message, signature: signature as Hex, address: address as Address }),
    freshReceiver: async () => privateKeyToAccount(generatePrivateKey()).address,
    nativeAmount: 1_000_000_000_000_000n,
    tokens: () => tokens,
    tokenAmount: 12_500_000n,
    chainBalance: (address, token) =>
      token === undefined
        ? client.getBalance({ address: address as Address })
        : client.readContract({ address: token as Address, abi: erc20Abi, functionName: "balanceOf", args: [address as Address] }),
    // More WUSD than exists, with the gas given so the wallet does not refuse at estimation: mined, and reverted.
    sendFailing: (adapter, session) =>
      adapter.send(session, { to: tokens[0]!.address, data: transferData(RECEIVER, 10n ** 40n), gas: 100_000n }),
    failureReason: /^transfer amount exceeds balance$/,
    // The wallet tries it and its node refuses it (-32602): the node's own words come back.
    invalidReceiver: { to: "0x1234", error: "SendFormInvalid", says: /^Please enter a valid amount and receiver address$/, promptsWallet: false },
    rawRequest: {
      method: "eth_signTypedData_v4",
      params: (session) => [session.address, JSON.stringify(typedData)],
      verify: (result, session) =>
        verifyTypedData({ ...typedData, address: session.address as Address, signature: result as Hex })
    },
    unsupportedMethod: "wallet_scanQRCode"
  })
})

const typedData = {
  domain: { name: "Wallet Runtime", version: "1", chainId: 31337 },
  types: { Mail: [{ name: "contents", type: "string" }] },
  primaryType: "Mail",
  message: { contents: "hello typed data" }
} as const

describe("eip155 adapter: what only EVM wallets do", () => {
  it("switches to a chain the wallet knows, adds one it does not (4902) and moves there, and a refused switch is UserRejected", async () => {
    const fresh = makeWallet()
    const session = await sessionOf(fresh)
    const adapter = adapterWith()
    await Effect.runPromise(adapter.switchNetwork(session, chainB))
    expect(fresh.chainId()).toBe(31338)
    expect(fresh.requests.filter((method) => method.startsWith("wallet_"))).toEqual(["wallet_switchEthereumChain", "wallet_addEthereumChain"])
    await Effect.runPromise(adapter.switchNetwork(session, chainA))
    expect(fresh.chainId()).toBe(31337)

    fresh.setApproval("reject")
    const refused = await Effect.runPromise(Effect.flip(adapter.switchNetwork(session, chainB)))
    expect(refused._tag).toBe("UserRejected")
    expect(fresh.chainId()).toBe(31337)
  })

  it("sends on the chain the wallet moved to, and waits there", async () => {
    const fresh = makeWallet()
    const session = await sessionOf(fresh)
    const adapter = adapterWith()
    await Effect.runPromise(adapter.switchNetwork(session, chainB))
    const onB = { ...session, network: chainB }
    const clientB = createPublicClient({ transport: http(chainB.rpcUrls.default.http[0]) })
    const receiver = privateKeyToAccount(generatePrivateKey()).address
    const hash = await Effect.runPromise(adapter.send(onB, { to: receiver, value: 777n }))
    const confirmation = await Effect.runPromise(adapter.waitForTransaction(hash, chainB))
    expect(confirmation.hash).toBe(hash)
    expect(await clientB.getBalance({ address: receiver })).toBe(777n)
    expect(await client.getBalance({ address: receiver })).toBe(0n)
  })

  it("estimates gas through the reads, and says 'error estimating gas' when the call cannot succeed", async () => {
    expect(await Effect.runPromise(estimateGas(reads, chainA, { to: RECEIVER, value: 1n }))).toBe(21_000n)
    const failed = await Effect.runPromise(
      Effect.flip(estimateGas(reads, chainA, { from: RECEIVER, to: tokens[0]!.address, data: transferData(RECEIVER, 10n ** 40n) }))
    )
    expect(failed._tag).toBe("GasEstimationFailed")
    expect(failed.message).toBe("error estimating gas")
  })

  it("reads the wallet's capabilities (none for a plain EOA wallet), and checks batched calls before the wallet sees them", async () => {
    const session = await sessionOf(wallet)
    const adapter = adapterWith()
    expect(await Effect.runPromise(adapter.request(session, "wallet_getCapabilities", [session.address]))).toEqual({})
    const before = wallet.requests.length
    const refused = await Effect.runPromise(Effect.flip(adapter.request(session, "wallet_sendCalls", [{ calls: [{ to: "nowhere" }] }])))
    expect(refused._tag).toBe("InvalidWalletParams")
    expect(wallet.requests.slice(before)).toEqual([])
  })
})
