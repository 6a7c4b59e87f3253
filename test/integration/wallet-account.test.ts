/**
 * The embedded wallet's smart account (`devstack/contracts/WalletAccount.sol`, through `server/src/bundler/walletAccount.ts`)
 * against real anvil chains, the server's bundler and its paymaster: before it exists its signatures are ERC-6492 and
 * verify with viem's `verifyMessage` / `verifyTypedData`; its first (sponsored) user operation deploys it; then its
 * signatures are plain ERC-1271 and verify too. A signature of its owner as an EOA, or one made for another account
 * of the same owner or another chain, is never taken as the account's (ERC-7739's nested hash). Sign-in with Ethereum
 * (viem's `verifySiweMessage`) accepts it before and after deployment.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  createPublicClient,
  createWalletClient,
  type Hex,
  hashMessage,
  hashTypedData,
  http,
  isErc6492Signature,
  parseAbi,
  parseErc6492Signature,
  parseEther,
  type PublicClient,
  serializeErc6492Signature,
  type TypedDataDefinition
} from "viem"
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts"
import { createSiweMessage } from "viem/siwe"
import { createBundlerClient, createPaymasterClient, entryPoint08Abi } from "viem/account-abstraction"
import { devChain } from "../../devstack/evm/chains"
import { startDevBundler } from "../../devstack/evm/bundler"
import { type EvmChain, type EvmInfo, startEvm } from "../../devstack/evm/index"
import type { BundlerInfo } from "../../server/src/bundler/index"
import { toWalletAccount, walletAccountFactoryAbi } from "../../server/src/bundler/walletAccount"
import type { Started } from "../../server/src/lib/Started"

let evm: Started<EvmInfo>
let bundler: Started<BundlerInfo>

const erc1271Abi = parseAbi(["function isValidSignature(bytes32 hash, bytes signature) view returns (bytes4)"])
const MESSAGE = "Sign in to example.test as the smart account"
const mail = {
  domain: { name: "Ether Mail", version: "1", chainId: 31337, verifyingContract: "0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC" },
  types: {
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
  message: {
    from: { name: "Cow", wallet: "0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826" },
    to: { name: "Bob", wallet: "0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB" },
    contents: "Hello, Bob!"
  }
} as const satisfies TypedDataDefinition

const chainAt = (index: number): EvmChain => {
  const chain = evm.info.chains[index]
  if (chain === undefined) throw new Error(`no chain ${index}`)
  return chain
}
const readerOf = (chain: EvmChain) =>
  createPublicClient({ chain: devChain(chain.chainId, chain.rpcUrl), transport: http(chain.rpcUrl) }) as PublicClient
const accountOn = (chain: EvmChain, owner: ReturnType<typeof privateKeyToAccount>, salt = 0n) =>
  toWalletAccount({
    client: readerOf(chain),
    owner,
    factory: chain.contracts.accountAbstraction.walletAccountFactory,
    entryPoint: chain.contracts.accountAbstraction.entryPoint,
    salt
  })
const typedFor = (chain: EvmChain) => ({ ...mail, domain: { ...mail.domain, chainId: chain.chainId } })

beforeAll(async () => {
  evm = await startEvm()
  bundler = await startDevBundler(evm.info)
})

afterAll(async () => {
  await bundler?.stop()
  await evm?.stop()
})

describe("the embedded wallet's smart account (WalletAccount)", () => {
  it("has one address for one owner and salt on both chains, the factory answering it directly", async () => {
    const owner = privateKeyToAccount(generatePrivateKey())
    const [a, b] = await Promise.all([accountOn(chainAt(0), owner), accountOn(chainAt(1), owner)])
    expect(a.address).toBe(b.address)
    // Anyone may call createAccount (an ERC-6492 verifier does): simulated here from a stranger, it names the same account.
    const { result } = await readerOf(chainAt(0)).simulateContract({
      account: privateKeyToAccount(generatePrivateKey()).address,
      address: chainAt(0).contracts.accountAbstraction.walletAccountFactory,
      abi: walletAccountFactoryAbi,
      functionName: "createAccount",
      args: [owner.address, 0n]
    })
    expect(result).toBe(a.address)
  })

  it("signs before it exists (ERC-6492), is deployed by a sponsored user operation, then signs by ERC-1271; the owner's EOA signatures are never its own", async () => {
    const chain = chainAt(0)
    const reader = readerOf(chain)
    const owner = privateKeyToAccount(generatePrivateKey())
    const account = await accountOn(chain, owner)
    const typed = typedFor(chain)
    const aa = chain.contracts.accountAbstraction

    // Undeployed: ERC-6492-wrapped signatures that viem's verifiers accept.
    expect(await reader.getCode({ address: account.address })).toBeUndefined()
    const early = await account.signMessage({ message: MESSAGE })
    const earlyTyped = await account.signTypedData(typed)
    expect(isErc6492Signature(early)).toBe(true)
    expect(isErc6492Signature(earlyTyped)).toBe(true)
    expect(await reader.verifyMessage({ address: account.address, message: MESSAGE, signature: early })).toBe(true)
    expect(await reader.verifyTypedData({ address: account.address, ...typed, signature: earlyTyped })).toBe(true)
    expect(await reader.verifyMessage({ address: account.address, message: "another message", signature: early })).toBe(false)
    // Sign-in with Ethereum as the site checks it (ERC-6492 through viem's verifySiweMessage).
    const siwe = (nonce: string) =>
      createSiweMessage({ address: account.address, chainId: chain.chainId, domain: "example.test", nonce, uri: "https://example.test", version: "1", issuedAt: new Date(0) })
    const earlySiwe = await account.signMessage({ message: siwe("undeployed1") })
    expect(await reader.verifySiweMessage({ message: siwe("undeployed1"), signature: earlySiwe, domain: "example.test", nonce: "undeployed1" })).toBe(true)
    expect(await reader.verifySiweMessage({ message: siwe("undeployed2"), signature: earlySiwe })).toBe(false)

    // The owner's own signatures of the same message, even wrapped for ERC-6492 with the account's factory, are refused.
    const eoaMessage = await owner.signMessage({ message: MESSAGE })
    const eoaTyped = await owner.signTypedData(typed)
    const { factory, factoryData } = await account.getFactoryArgs()
    if (factory === undefined || factoryData === undefined) throw new Error("an undeployed account has factory args")
    const wrap = (signature: Hex) => serializeErc6492Signature({ address: factory, data: factoryData, signature })
    expect(await reader.verifyMessage({ address: owner.address, message: MESSAGE, signature: eoaMessage })).toBe(true)
    expect(await reader.verifyMessage({ address: account.address, message: MESSAGE, signature: wrap(eoaMessage) })).toBe(false)
    expect(await reader.verifyTypedData({ address: account.address, ...typed, signature: wrap(eoaTyped) })).toBe(false)

    // Deployed by its first user operation, the paymaster paying: the account's ETH moves by the value only.
    const recipient = privateKeyToAccount(generatePrivateKey()).address
    const funder = createWalletClient({
      account: privateKeyToAccount(evm.info.accounts[0]!.privateKey),
      chain: devChain(chain.chainId, chain.rpcUrl),
      transport: http(chain.rpcUrl)
    })
    await reader.waitForTransactionReceipt({ hash: await funder.sendTransaction({ to: account.address, value: parseEther("1") }), pollingInterval: 20 })
    const depositBefore = await reader.readContract({ address: aa.entryPoint, abi: entryPoint08Abi, functionName: "balanceOf", args: [aa.paymaster] })
    const url = `${bundler.info.url}/rpc/${chain.chainId}`
    const client = createBundlerClient({ account, client: reader, transport: http(url), paymaster: createPaymasterClient({ transport: http(url) }) })
    const hash = await client.sendUserOperation({ account, calls: [{ to: recipient, value: parseEther("0.25") }] })
    const receipt = await client.waitForUserOperationReceipt({ hash, pollingInterval: 50, timeout: 30_000 })
    expect(receipt.success).toBe(true)
    expect(receipt.paymaster).toBe(aa.paymaster)
    expect(await reader.getCode({ address: account.address })).toMatch(/^0x[0-9a-f]+$/)
    expect(await reader.getBalance({ address: recipient })).toBe(parseEther("0.25"))
    expect(await reader.getBalance({ address: account.address })).toBe(parseEther("0.75"))
    expect(await reader.readContract({ address: aa.entryPoint, abi: entryPoint08Abi, functionName: "balanceOf", args: [aa.paymaster] })).toBeLessThan(depositBefore)

    // Deployed: plain ERC-1271 signatures; the one made before deployment still verifies (the factory call is idempotent).
    const late = await account.signMessage({ message: MESSAGE })
    const lateTyped = await account.signTypedData(typed)
    expect(isErc6492Signature(late)).toBe(false)
    expect(await reader.verifyMessage({ address: account.address, message: MESSAGE, signature: late })).toBe(true)
    expect(await reader.verifyTypedData({ address: account.address, ...typed, signature: lateTyped })).toBe(true)
    expect(await reader.verifyMessage({ address: account.address, message: MESSAGE, signature: early })).toBe(true)
    const lateSiwe = await account.signMessage({ message: siwe("deployed01") })
    expect(await reader.verifySiweMessage({ message: siwe("deployed01"), signature: lateSiwe, domain: "example.test", nonce: "deployed01" })).toBe(true)
    expect(await reader.verifySiweMessage({ message: siwe("deployed01"), signature: await owner.signMessage({ message: siwe("deployed01") }) })).toBe(false)
    // The owner's EOA signature asked of the account itself: refused by ERC-1271.
    expect(await reader.readContract({ address: account.address, abi: erc1271Abi, functionName: "isValidSignature", args: [hashMessage(MESSAGE), eoaMessage] })).toBe("0xffffffff")
    expect(await reader.readContract({ address: account.address, abi: erc1271Abi, functionName: "isValidSignature", args: [hashTypedData(typed), eoaTyped] })).toBe("0xffffffff")
    expect(await reader.readContract({ address: account.address, abi: erc1271Abi, functionName: "isValidSignature", args: [hashMessage(MESSAGE), late] })).toBe("0x1626ba7e")
    expect(await reader.verifyMessage({ address: account.address, message: MESSAGE, signature: eoaMessage })).toBe(false)
  })

  it("does not take a signature made for another account of the same owner, or for the same account on another chain", async () => {
    const owner = privateKeyToAccount(generatePrivateKey())
    const [first, second, elsewhere] = await Promise.all([accountOn(chainAt(0), owner, 0n), accountOn(chainAt(0), owner, 1n), accountOn(chainAt(1), owner, 0n)])
    const signature = await first.signMessage({ message: MESSAGE })
    const reader = readerOf(chainAt(0))
    expect(await reader.verifyMessage({ address: first.address, message: MESSAGE, signature })).toBe(true)
    const { factory, factoryData } = await second.getFactoryArgs()
    if (factory === undefined || factoryData === undefined) throw new Error("an undeployed account has factory args")
    const inner = parseErc6492Signature(signature).signature
    expect(await reader.verifyMessage({ address: second.address, message: MESSAGE, signature: serializeErc6492Signature({ address: factory, data: factoryData, signature: inner }) })).toBe(false)
    // The same account address on the second chain: the chain id is in the account's domain.
    expect(elsewhere.address).toBe(first.address)
    expect(await readerOf(chainAt(1)).verifyMessage({ address: elsewhere.address, message: MESSAGE, signature })).toBe(false)
    expect(await readerOf(chainAt(1)).verifyMessage({ address: elsewhere.address, message: MESSAGE, signature: await elsewhere.signMessage({ message: MESSAGE }) })).toBe(true)
  })
})

