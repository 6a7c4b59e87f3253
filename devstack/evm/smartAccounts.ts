/**
 * Contract accounts on the local chains (`contracts/SmartAccount.sol`): ERC-1271 accounts owned by one key, made by
 * a CREATE2 factory so that an account's address is known, and its signatures checkable through ERC-6492, before
 * it is deployed.
 *
 * @example
 * const account = undeployedSmartAccount({ factory: chain.contracts.smartAccounts.factory, owner, salt: 7n })
 * const signature = await account.signMessage({ message: "hello" }) // ERC-6492-wrapped
 * await publicClient.verifyMessage({ address: account.address, message: "hello", signature }) // true
 */
import {
  type Address,
  encodeDeployData,
  encodeFunctionData,
  getContractAddress,
  type Hex,
  type LocalAccount,
  numberToHex,
  parseAbi,
  serializeErc6492Signature,
  type SignableMessage
} from "viem"
import { loadArtifacts } from "../contracts/artifacts"

/** The factory's calls: deploy an account (idempotent) and compute its address. */
export const smartAccountFactoryAbi = parseAbi([
  "function createAccount(address owner, bytes32 salt) returns (address account)",
  "function accountAddress(address owner, bytes32 salt) view returns (address)",
  "event AccountCreated(address indexed account, address indexed owner, bytes32 salt)"
])

/** The account's calls: its owner, ERC-1271, and calls made on the owner's behalf. */
export const smartAccountAbi = parseAbi([
  "function owner() view returns (address)",
  "function isValidSignature(bytes32 hash, bytes signature) view returns (bytes4)",
  "function execute(address to, uint256 value, bytes data) returns (bytes)"
])

let artifact: ReturnType<typeof loadArtifacts>["SmartAccount"] | undefined
// Read once: tests compute many addresses.
const smartAccountArtifact = () => (artifact ??= loadArtifacts().SmartAccount)

/** The contract accounts of one local chain: the factory, and one account it deployed at start. */
export interface DevSmartAccounts {
  readonly factory: Address
  /** Deployed at start (salt 0, owned by dev account 0): its signatures are checked with ERC-1271. */
  readonly deployed: { readonly address: Address; readonly owner: Address; readonly salt: Hex }
}

/** A salt as the factory takes it (bytes32), from a number or a 32-byte hex. */
export const saltHex = (salt: bigint | number | Hex): Hex =>
  typeof salt === "string" ? salt : numberToHex(BigInt(salt), { size: 32 })

/** The address of the account of `owner` and `salt` made by `factory`, deployed or not (the factory's CREATE2). */
export const smartAccountAddress = (opts: {
  readonly factory: Address
  readonly owner: Address
  readonly salt: bigint | number | Hex
}): Address => {
  const SmartAccount = smartAccountArtifact()
  return getContractAddress({
    opcode: "CREATE2",
    from: opts.factory,
    salt: saltHex(opts.salt),
    bytecode: encodeDeployData({ abi: SmartAccount.abi, bytecode: SmartAccount.bytecode, args: [opts.owner] })
  })
}

/** The factory call that deploys the account of `owner` and `salt`: ERC-6492's `factoryCalldata`. */
export const createAccountCalldata = (owner: Address, salt: bigint | number | Hex): Hex =>
  encodeFunctionData({ abi: smartAccountFactoryAbi, functionName: "createAccount", args: [owner, saltHex(salt)] })

/** `signature` wrapped for ERC-6492: `abi.encode(factory, createAccount(owner, salt), signature) ++ 0x6492…6492`. */
export const erc6492Wrap = (opts: {
  readonly factory: Address
  readonly owner: Address
  readonly salt: bigint | number | Hex
  readonly signature: Hex
}): Hex =>
  serializeErc6492Signature({
    address: opts.factory,
    data: createAccountCalldata(opts.owner, opts.salt),
    signature: opts.signature
  })

/** A contract account as a signer: its address, and messages signed by its owner in the form a verifier accepts. */
export interface SmartAccountSigner {
  readonly address: Address
  readonly owner: LocalAccount
  /** The owner's EIP-191 signature, ERC-6492-wrapped when the account is not deployed. */
  readonly signMessage: (opts: { readonly message: SignableMessage }) => Promise<Hex>
}

/** The deployed account at `address`, owned by `owner`: its ERC-1271 signature is the owner's own signature. */
export const deployedSmartAccount = (address: Address, owner: LocalAccount): SmartAccountSigner => ({
  address,
  owner,
  signMessage: ({ message }) => owner.signMessage({ message })
})

/**
 * The account of `owner` and `salt` made by `factory`, not deployed: its signatures are ERC-6492-wrapped, so a
 * verifier deploys it in a simulated call before asking it ERC-1271. Pick a salt no one used on that chain.
 */
export const undeployedSmartAccount = (opts: {
  readonly factory: Address
  readonly owner: LocalAccount
  readonly salt: bigint | number | Hex
}): SmartAccountSigner => ({
  address: smartAccountAddress({ factory: opts.factory, owner: opts.owner.address, salt: opts.salt }),
  owner: opts.owner,
  signMessage: async ({ message }) =>
    erc6492Wrap({
      factory: opts.factory,
      owner: opts.owner.address,
      salt: opts.salt,
      signature: await opts.owner.signMessage({ message })
    })
})
