/**
 * EIP-5792 over WalletConnect, against the devstack relay and our wallet side (support/walletKit.ts, the test wallet
 * with EIP-7702 batches): the session carries wallet_sendCalls and wallet_getCallsStatus; the product's eip155 adapter
 * sends a batch of ERC-20 approve + transfer through the session; the wallet asks for the calls and the delegation, and
 * the chain shows ONE type-4 transaction with both events; the status comes back with its one receipt.
 */
import { Effect, Exit, Layer, ManagedRuntime, Option, Scope, Stream, SubscriptionRef } from "effect"
import * as FetchHttpClient from "effect/http/FetchHttpClient"
import { createPublicClient, createWalletClient, encodeFunctionData, type Hex, http, parseAbi, toHex } from "viem"
import { privateKeyToAccount } from "viem/accounts"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { devChain } from "../../devstack/evm/chains"
import { type EvmInfo, startEvm } from "../../devstack/evm/index"
import { EIP7702_AUTHORIZATION, SIMPLE_7702_ACCOUNT } from "../../devstack/wallet/calls7702"
import type { Started } from "../../server/src/lib/Started"
import { type RelayInfo, startRelay } from "../../server/src/relay"
import { localChainA, withDefaultRpcUrls } from "../../src/domain/networks"
import { decodeOptionsSync } from "../../src/domain/Options"
import type { AccountSession } from "../../src/services/ChainAdapter"
import { Config } from "../../src/services/Config"
import { namespaceOf } from "../../src/services/connectors/Connector"
import { makeEip155Adapter } from "../../src/services/eip155/Eip155Adapter"
import { RpcTransport } from "../../src/services/RpcTransport/RpcTransport"
import { makeWalletConnect } from "../../src/services/walletconnect/WalletConnect"
import { type DevWalletKit, startDevWalletKit } from "./support/walletKit"
import { dappSettings } from "./support/wcSettings"

// Without it, WalletConnect's Verify waits forever for the hosted verify server (offline here).
process.env.IS_VITEST = "true"

const tokenAbi = parseAbi([
  "function approve(address spender, uint256 value) returns (bool)",
  "function transfer(address to, uint256 value) returns (bool)",
  "function allowance(address owner, address spender) view returns (uint256)",
  "function balanceOf(address) view returns (uint256)"
])

let relay: Started<RelayInfo>
let evm: Started<EvmInfo>
let transport: ManagedRuntime.ManagedRuntime<RpcTransport, never>
let wallet: DevWalletKit
let session: AccountSession
let scope: Scope.Closeable
const prompts: Array<readonly [string, unknown]> = []

const chain = () => evm.info.chains[0]!
const reader = () => createPublicClient({ transport: http(chain().rpcUrl) })
const erc20 = () => chain().contracts.tokens.find((t) => t.kind === "standard")!.address

beforeAll(async () => {
  ;[relay, evm] = await Promise.all([startRelay(), startEvm()])
  const network = withDefaultRpcUrls(localChainA, { http: [chain().rpcUrl] })
  transport = ManagedRuntime.make(
    RpcTransport.layer.pipe(Layer.provide(Config.layer(decodeOptionsSync({ networks: [network] }))), Layer.provide(FetchHttpClient.layer))
  )
  wallet = await startDevWalletKit({
    relayUrl: relay.info.url,
    evm: {
      privateKeys: [evm.info.accounts[8]!.privateKey],
      chains: [{ chainId: chain().chainId, name: "Local Chain A", rpcUrl: chain().rpcUrl }],
      chainId: chain().chainId,
      batchExecutor: SIMPLE_7702_ACCOUNT,
      approve: (method, params) => {
        prompts.push([method, params])
        return "approve"
      }
    }
  })
  scope = Effect.runSync(Scope.make())
  const dapp = await Effect.runPromise(
    Scope.provide(
      makeWalletConnect(
        decodeOptionsSync({
          projectId: "devstack",
          networks: [network],
          metadata: { name: "Dapp", description: "Dapp under test", url: "http://127.0.0.1", icons: [] },
          endpoints: { relay: relay.info.url }
        }),
        dappSettings()
      ),
      scope
    )
  )
  const connecting = Effect.runPromise(Effect.exit(dapp.connector!.connect([network])))
  const ready = await Effect.runPromise(
    SubscriptionRef.changes(dapp.pairing).pipe(
      Stream.filter((s) => s._tag === "Ready"),
      Stream.runHead,
      Effect.map(Option.getOrThrow),
      Effect.timeout("20 seconds")
    )
  )
  if (ready._tag === "Ready") await wallet.pair(ready.uri)
  const exit = await connecting
  if (Exit.isFailure(exit)) throw new Error(`connect failed: ${String(exit.cause)}`)
  const evmSide = exit.value.find((s) => namespaceOf(s) === "eip155")!
  session = { provider: evmSide.provider, address: evmSide.accounts[0]!.address, network, walletName: "WalletConnect" }
  // The connection's own prompt (eth_requestAccounts) is not the batch's.
  prompts.length = 0
}, 60_000)

afterAll(async () => {
  await wallet?.close()
  if (scope !== undefined) await Effect.runPromise(Scope.close(scope, Exit.void))
  await transport?.dispose()
  await Promise.all([relay?.stop(), evm?.stop()])
})

describe("EIP-5792 over WalletConnect", () => {
  it("a batch of approve + transfer is one type-4 transaction, the delegation asked with its contract", async () => {
    const reads = transport.runSync(Effect.service(RpcTransport))
    const adapter = makeEip155Adapter({ reads: (network, method, params) => reads.request(network, { method, params }) })
    const request = (method: string, params: unknown) => Effect.runPromise(adapter.request(session, method, params))
    const funder = evm.info.accounts[0]!
    const client = createWalletClient({ account: privateKeyToAccount(funder.privateKey), chain: devChain(chain().chainId, chain().rpcUrl), transport: http(chain().rpcUrl) })
    await reader().waitForTransactionReceipt({ hash: await client.writeContract({ address: erc20(), abi: tokenAbi, functionName: "transfer", args: [session.address as Hex, 30n] }) })

    expect(await request("wallet_getCapabilities", [session.address])).toEqual({ [toHex(chain().chainId)]: { atomic: { status: "ready" } } })
    const [spender, recipient] = ["0x000000000000000000000000000000000000a11c", "0x000000000000000000000000000000000000b0b2"] as const
    const sent = (await request("wallet_sendCalls", [
      {
        version: "2.0.0",
        chainId: toHex(chain().chainId),
        from: session.address,
        atomicRequired: true,
        calls: [
          { to: erc20(), data: encodeFunctionData({ abi: tokenAbi, functionName: "approve", args: [spender, 11n] }) },
          { to: erc20(), data: encodeFunctionData({ abi: tokenAbi, functionName: "transfer", args: [recipient, 5n] }) }
        ]
      }
    ])) as { id: string }
    expect(prompts.map(([method]) => method)).toEqual(["wallet_sendCalls", EIP7702_AUTHORIZATION])
    expect(prompts[1]![1]).toEqual({ address: SIMPLE_7702_ACCOUNT, chainId: chain().chainId })
    const deadline = Date.now() + 20_000
    let status = (await request("wallet_getCallsStatus", [sent.id])) as { status: number; receipts?: ReadonlyArray<{ transactionHash: Hex }> }
    while (status.status < 200 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20))
      status = (await request("wallet_getCallsStatus", [sent.id])) as typeof status
    }
    expect(status.status).toBe(200)
    expect(status.receipts).toHaveLength(1)
    expect((await reader().getTransaction({ hash: status.receipts![0]!.transactionHash })).type).toBe("eip7702")
    expect(await reader().readContract({ address: erc20(), abi: tokenAbi, functionName: "allowance", args: [session.address as Hex, spender] })).toBe(11n)
    expect(await reader().readContract({ address: erc20(), abi: tokenAbi, functionName: "balanceOf", args: [recipient] })).toBe(5n)
  })
})
