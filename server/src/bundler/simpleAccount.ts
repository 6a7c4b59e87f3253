/**
 * The audited SimpleAccount (EntryPoint v0.8, `@account-abstraction/contracts`) as a viem smart account: viem 2.57
 * ships accounts for Coinbase, Solady and 7702 but not this one, so this is the small adapter (`toSmartAccount`):
 * the factory's counterfactual address, `execute`/`executeBatch` calls, and the owner's signature of the operation's
 * EIP-712 hash, which is what SimpleAccount v0.8 checks. SimpleAccount has no ERC-1271, so it signs no messages.
 *
 * @example
 * const account = await toSimpleAccount({ client, owner, factory, entryPoint: entryPoint08Address })
 * await bundlerClient.sendUserOperation({ account, calls: [{ to, value }] })
 */
import {
  type Address,
  BaseError,
  type Chain,
  type Client,
  decodeFunctionData,
  encodeFunctionData,
  type Hex,
  type LocalAccount,
  parseAbi,
  type Transport
} from "viem"
import { readContract } from "viem/actions"
import { entryPoint08Abi, getUserOperationTypedData, toSmartAccount } from "viem/account-abstraction"

const accountAbi = parseAbi([
  "struct Call { address target; uint256 value; bytes data; }",
  "function execute(address target, uint256 value, bytes data)",
  "function executeBatch(Call[] calls)"
])

/** SimpleAccountFactory's calls. */
export const simpleAccountFactoryAbi = parseAbi([
  "function createAccount(address owner, uint256 salt) returns (address)",
  "function getAddress(address owner, uint256 salt) view returns (address)"
])

// A well-formed signature of someone else: validation gets as far, and costs as much, as with the owner's.
const STUB_SIGNATURE: Hex =
  "0x747a6c6bd9a8ff0b77a99b8f274f5df5198b5dddc33edd4bc89e459d13dfa6177431bfa016325b8f27491781d1c462999f1dde760560373a517d29161c2df1391c"

/** A SimpleAccount of `owner` (and `salt`) made by `factory`, deployed by its first user operation. */
export const toSimpleAccount = async (opts: {
  readonly client: Client<Transport, Chain | undefined>
  readonly owner: LocalAccount
  readonly factory: Address
  readonly entryPoint: Address
  readonly salt?: bigint
}) => {
  const salt = opts.salt ?? 0n
  const { owner, client } = opts
  const address = await readContract(client, { address: opts.factory, abi: simpleAccountFactoryAbi, functionName: "getAddress", args: [owner.address, salt] })
  return toSmartAccount({
    // viem's own account type differs only under exactOptionalPropertyTypes (optional methods written as `| undefined`).
    client: client as unknown as Parameters<typeof toSmartAccount>[0]["client"],
    entryPoint: { abi: entryPoint08Abi, address: opts.entryPoint, version: "0.8" },
    extend: { owner },
    getAddress: async () => address,
    getFactoryArgs: async () => ({
      factory: opts.factory,
      factoryData: encodeFunctionData({ abi: simpleAccountFactoryAbi, functionName: "createAccount", args: [owner.address, salt] })
    }),
    encodeCalls: async (calls) => {
      const [only] = calls
      if (calls.length === 1 && only !== undefined) {
        return encodeFunctionData({ abi: accountAbi, functionName: "execute", args: [only.to, only.value ?? 0n, only.data ?? "0x"] })
      }
      return encodeFunctionData({
        abi: accountAbi,
        functionName: "executeBatch",
        args: [calls.map((call) => ({ target: call.to, value: call.value ?? 0n, data: call.data ?? "0x" }))]
      })
    },
    decodeCalls: async (data) => {
      const call = decodeFunctionData({ abi: accountAbi, data })
      if (call.functionName === "execute") return [{ to: call.args[0], value: call.args[1], data: call.args[2] }]
      return call.args[0].map((item) => ({ to: item.target, value: item.value, data: item.data }))
    },
    getStubSignature: async () => STUB_SIGNATURE,
    signMessage: async () => {
      throw new BaseError("SimpleAccount v0.8 does not implement ERC-1271: it cannot sign messages")
    },
    signTypedData: async () => {
      throw new BaseError("SimpleAccount v0.8 does not implement ERC-1271: it cannot sign typed data")
    },
    signUserOperation: async ({ chainId, ...userOperation }) => {
      const id = chainId ?? client.chain?.id
      if (id === undefined) throw new BaseError("signUserOperation needs the chain id")
      return owner.signTypedData(
        getUserOperationTypedData({ chainId: id, entryPointAddress: opts.entryPoint, userOperation: { ...userOperation, sender: address } })
      )
    }
  })
}
