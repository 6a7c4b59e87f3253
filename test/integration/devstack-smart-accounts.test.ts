/**
 * The devstack's contract accounts on anvil: the CREATE2 factory and the ERC-1271 account deployed at start, and an
 * undeployed account signing through ERC-6492, checked with viem's own verifiers (`verifyMessage`,
 * `verifySiweMessage`) against the real chain, as a server verifying sign-ins and name registrations does.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Address, createPublicClient, type Hex, hashMessage, http, type PublicClient, parseErc6492Signature } from "viem"
import { privateKeyToAccount } from "viem/accounts"
import { createSiweMessage, generateSiweNonce } from "viem/siwe"
import { devChain } from "../../devstack/evm/chains"
import type { EvmChain, EvmInfo } from "../../devstack/evm/index"
import {
  createAccountCalldata,
  deployedSmartAccount,
  erc6492Wrap,
  saltHex,
  smartAccountAbi,
  smartAccountAddress,
  smartAccountFactoryAbi,
  type SmartAccountSigner,
  undeployedSmartAccount
} from "../../devstack/evm/smartAccounts"
import type { Started } from "../../server/src/lib/Started"
import { type DevstackInfo, startDevstack } from "../../devstack/main"

let stack: Started<DevstackInfo>
let evm: EvmInfo
let chain: EvmChain
let client: PublicClient
let startMs: number

const devKey = (index: number): Hex => {
  const account = evm.accounts[index]
  if (account === undefined) throw new Error(`no dev account ${index}`)
  return account.privateKey
}

beforeAll(async () => {
  const began = performance.now()
  stack = await startDevstack({ parts: ["evm"] })
  startMs = performance.now() - began
  if (stack.info.evm === undefined) throw new Error("the EVM part did not start")
  evm = stack.info.evm
  const first = evm.chains[0]
  if (first === undefined) throw new Error("no chain")
  chain = first
  client = createPublicClient({ chain: devChain(chain.chainId, chain.rpcUrl), transport: http(chain.rpcUrl) }) as PublicClient
})

afterAll(async () => {
  await stack?.stop()
})

const owner = () => privateKeyToAccount(devKey(0))
const stranger = () => privateKeyToAccount(devKey(5))
const deployed = () => deployedSmartAccount(chain.contracts.smartAccounts.deployed.address, owner())
// A salt per test keeps each undeployed account unused by the others.
const undeployed = (salt: number) => undeployedSmartAccount({ factory: chain.contracts.smartAccounts.factory, owner: owner(), salt })

const verify = (address: Address, message: string, signature: Hex) => client.verifyMessage({ address, message, signature })

describe("devstack contract accounts", () => {
  it("starts the EVM part with the factory and a deployed account in a time tests can afford", () => {
    // Two anvils and six transactions each; the bound is loose (2 shared cores), the figure is printed.
    console.log(`evm part started in ${startMs.toFixed(0)} ms`)
    expect(startMs).toBeLessThan(5_000)
  })

  it("deploys the factory and dev account 0's account at the same addresses on every chain, as computed off chain", async () => {
    const { factory, deployed: account } = chain.contracts.smartAccounts
    expect(account.owner).toBe(evm.accounts[0]?.address)
    for (const each of evm.chains) expect(each.contracts.smartAccounts).toEqual(chain.contracts.smartAccounts)
    expect(await client.getCode({ address: factory })).toMatch(/^0x[0-9a-f]{100,}$/)
    expect(await client.getCode({ address: account.address })).toMatch(/^0x[0-9a-f]{100,}$/)
    expect(await client.readContract({ address: account.address, abi: smartAccountAbi, functionName: "owner" })).toBe(account.owner)
    expect(
      await client.readContract({ address: factory, abi: smartAccountFactoryAbi, functionName: "accountAddress", args: [account.owner, account.salt] })
    ).toBe(account.address)
    const other = smartAccountAddress({ factory, owner: stranger().address, salt: 42n })
    expect(
      await client.readContract({ address: factory, abi: smartAccountFactoryAbi, functionName: "accountAddress", args: [stranger().address, saltHex(42n)] })
    ).toBe(other)
    expect(await client.getCode({ address: other })).toBeUndefined()
  })

  it("verifyMessage accepts a dev account's own signature and refuses another key's", async () => {
    const signer = privateKeyToAccount(devKey(1))
    const signature = await signer.signMessage({ message: "hello" })
    expect(await verify(signer.address, "hello", signature)).toBe(true)
    expect(await verify(signer.address, "hello!", signature)).toBe(false)
    expect(await verify(stranger().address, "hello", signature)).toBe(false)
  })

  it("verifyMessage accepts the deployed account's ERC-1271 signature (its owner's) and refuses a stranger's", async () => {
    const account = deployed()
    const signature = await account.signMessage({ message: "hello" })
    expect(await verify(account.address, "hello", signature)).toBe(true)
    expect(await verify(account.address, "bye", signature)).toBe(false)
    expect(await verify(account.address, "hello", await stranger().signMessage({ message: "hello" }))).toBe(false)
    // The account answers ERC-1271 itself: the magic value for its owner, 0xffffffff otherwise.
    const hash = hashMessage("hello")
    expect(await client.readContract({ address: account.address, abi: smartAccountAbi, functionName: "isValidSignature", args: [hash, signature] })).toBe("0x1626ba7e")
    expect(await client.readContract({ address: account.address, abi: smartAccountAbi, functionName: "isValidSignature", args: [hash, "0x1234"] })).toBe("0xffffffff")
  })

  it("verifyMessage accepts an undeployed account's ERC-6492 signature without deploying it, and refuses a stranger's", async () => {
    const account = undeployed(1001)
    const signature = await account.signMessage({ message: "hello" })
    const parsed = parseErc6492Signature(signature)
    expect(parsed).toMatchObject({ address: chain.contracts.smartAccounts.factory, data: createAccountCalldata(owner().address, 1001) })
    expect(signature.endsWith("6492".repeat(16))).toBe(true)
    expect(await verify(account.address, "hello", signature)).toBe(true)
    expect(await client.getCode({ address: account.address })).toBeUndefined()
    expect(await verify(account.address, "bye", signature)).toBe(false)
    const forged = erc6492Wrap({
      factory: chain.contracts.smartAccounts.factory,
      owner: owner().address,
      salt: 1001,
      signature: await stranger().signMessage({ message: "hello" })
    })
    expect(await verify(account.address, "hello", forged)).toBe(false)
    // Without the wrapping, nothing at the address can vouch for the owner's signature.
    expect(await verify(account.address, "hello", await owner().signMessage({ message: "hello" }))).toBe(false)
  })

  it("verifySiweMessage accepts a sign-in by an EOA, the deployed account and an undeployed account", async () => {
    const signers: ReadonlyArray<readonly [string, SmartAccountSigner | ReturnType<typeof privateKeyToAccount>]> = [
      ["EOA", privateKeyToAccount(devKey(2))],
      ["ERC-1271", deployed()],
      ["ERC-6492", undeployed(1002)]
    ]
    for (const [kind, signer] of signers) {
      const message = createSiweMessage({
        address: signer.address,
        chainId: chain.chainId,
        domain: "127.0.0.1",
        nonce: generateSiweNonce(),
        uri: "http://127.0.0.1/",
        version: "1",
        issuedAt: new Date(),
        expirationTime: new Date(Date.now() + 60_000)
      })
      const signature = await signer.signMessage({ message })
      expect([kind, await client.verifySiweMessage({ message, signature, domain: "127.0.0.1" })]).toEqual([kind, true])
      expect([kind, await client.verifySiweMessage({ message, signature, domain: "evil.example" })]).toEqual([kind, false])
    }
  })
})
