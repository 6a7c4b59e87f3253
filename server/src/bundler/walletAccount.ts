/**
 * The embedded wallet's smart account (`devstack/contracts/WalletAccount.sol`: the audited SimpleAccount of
 * EntryPoint v0.8 with OpenZeppelin's ERC-7739 `isValidSignature`) as a viem smart account (`toSmartAccount`): the
 * factory's counterfactual address, `execute`/`executeBatch` calls, the owner's signature of the operation's EIP-712
 * hash (what SimpleAccount checks), and ERC-1271 signatures in ERC-7739's nested form: the owner signs the message
 * inside this account's own EIP-712 domain, so the owner's signature as an EOA is never the account's. viem wraps
 * them for ERC-6492 (the factory's `createAccount`) while the account is not deployed.
 *
 * @example
 * const account = await toWalletAccount({ client, owner, factory, entryPoint: entryPoint08Address })
 * await bundlerClient.sendUserOperation({ account, calls: [{ to, value }] })
 * await account.signMessage({ message: "hello" }) // verifies with publicClient.verifyMessage
 */
import {
  type Address,
  BaseError,
  type Chain,
  type Client,
  decodeFunctionData,
  encodeFunctionData,
  type Hex,
  parseAbi,
  type PrivateKeyAccount,
  type Transport,
  zeroHash
} from "viem"
import { readContract } from "viem/actions"
import { entryPoint08Abi, getUserOperationTypedData, toSmartAccount } from "viem/account-abstraction"
import { hashMessage, hashTypedData, wrapTypedDataSignature } from "viem/experimental/erc7739"

const accountAbi = parseAbi([
  "struct Call { address target; uint256 value; bytes data; }",
  "function execute(address target, uint256 value, bytes data)",
  "function executeBatch(Call[] calls)"
])

/** WalletAccountFactory's calls (the same as SimpleAccountFactory's, but `createAccount` is open to anyone). */
export const walletAccountFactoryAbi = parseAbi([
  "function createAccount(address owner, uint256 salt) returns (address)",
  "function getAddress(address owner, uint256 salt) view returns (address)"
])

/** The account's EIP-712 domain name and version (its constructor's `EIP712("WalletAccount", "1")`). */
export const WALLET_ACCOUNT_DOMAIN = { name: "WalletAccount", version: "1" } as const

// A well-formed signature of someone else: validation gets as far, and costs as much, as with the owner's.
const STUB_SIGNATURE: Hex =
  "0x747a6c6bd9a8ff0b77a99b8f274f5df5198b5dddc33edd4bc89e459d13dfa6177431bfa016325b8f27491781d1c462999f1dde760560373a517d29161c2df1391c"

/** A WalletAccount of `owner` (and `salt`) made by `factory`, deployed by its first user operation. */
export const toWalletAccount = async (opts: {
  readonly client: Client<Transport, Chain | undefined>
  readonly owner: PrivateKeyAccount
  readonly factory: Address
  readonly entryPoint: Address
  readonly salt?: bigint
}) => {
  const salt = opts.salt ?? 0n
  const { owner, client } = opts
  const address = await readContract(client, { address: opts.factory, abi: walletAccountFactoryAbi, functionName: "getAddress", args: [owner.address, salt] })
  const chainId = () => {
    const id = client.chain?.id
    if (id === undefined) throw new BaseError("a WalletAccount signs on a client with a chain")
    return id
  }
  // ERC-7739's verifier domain: the account's own EIP-712 domain (OpenZeppelin's EIP712 has no salt: zero).
  const verifierDomain = () => ({ ...WALLET_ACCOUNT_DOMAIN, chainId: chainId(), verifyingContract: address, salt: zeroHash })
  return toSmartAccount({
    // viem's own account type differs only under exactOptionalPropertyTypes (optional methods written as `| undefined`).
    client: client as unknown as Parameters<typeof toSmartAccount>[0]["client"],
    entryPoint: { abi: entryPoint08Abi, address: opts.entryPoint, version: "0.8" },
    extend: { owner },
    getAddress: async () => address,
    getFactoryArgs: async () => ({
      factory: opts.factory,
      factoryData: encodeFunctionData({ abi: walletAccountFactoryAbi, functionName: "createAccount", args: [owner.address, salt] })
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
    // ERC-7739 PersonalSign: the owner signs `PersonalSign(bytes prefixed)` in the account's domain.
    signMessage: async ({ message }) => owner.sign({ hash: hashMessage({ message, verifierDomain: verifierDomain() }) }),
    // ERC-7739 TypedDataSign: the owner signs the app's contents nested with the account's domain, and the signature
    // carries the app's domain separator and the contents' type so that the account can rebuild what was signed.
    signTypedData: async (typedData) => {
      const definition = typedData as unknown as Parameters<typeof wrapTypedDataSignature>[0]
      const signature = await owner.sign({
        hash: hashTypedData({ ...(typedData as unknown as Parameters<typeof hashTypedData>[0]), verifierDomain: verifierDomain() })
      })
      return wrapTypedDataSignature({ ...definition, signature })
    },
    signUserOperation: async ({ chainId: id, ...userOperation }) =>
      owner.signTypedData(
        getUserOperationTypedData({ chainId: id ?? chainId(), entryPointAddress: opts.entryPoint, userOperation: { ...userOperation, sender: address } })
      )
  })
}
