/**
 * ERC-4337 on the local chains: the audited EntryPoint v0.8 and SimpleAccountFactory of `@account-abstraction/contracts`
 * (their published artifacts, unchanged), and our VerifyingPaymaster (`contracts/VerifyingPaymaster.sol`, on the
 * package's BasePaymaster). The EntryPoint goes through the CREATE2 deployer anvil ships with, with the salt its
 * authors used, so it sits at the canonical address viem knows (`entryPoint08Address`); the factory the same way.
 * The embedded wallet's smart accounts come from our WalletAccountFactory (`contracts/WalletAccount.sol`: SimpleAccount
 * with ERC-7739 signatures, and a factory an ERC-6492 verifier may call), deployed the same way, so it too has one
 * address on every chain.
 * Two accounts of the dev mnemonic past anvil's funded ten serve the bundler: one submits `handleOps` (given ETH
 * here), one approves sponsored operations for the paymaster (holds nothing).
 *
 * @example
 * const aa = await deployAccountAbstraction(client, deployer)
 * aa.entryPoint === entryPoint08Address // true
 */
import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import {
  type Abi,
  type Address,
  concat,
  type Hex,
  encodeDeployData,
  getAddress,
  getContractAddress,
  parseAbi,
  parseEther,
  type PublicActions,
  type WalletClient
} from "viem"
import { loadArtifacts } from "../contracts/artifacts"
import { type DevAccount, devAccounts } from "./accounts"

/** The deterministic CREATE2 deployer (Arachnid's) that anvil has at genesis: calldata is `salt ++ initcode`. */
export const CREATE2_DEPLOYER: Address = "0x4e59b44847b379578588920cA78FbF26c0B4956C"
/** The salt eth-infinitism deployed EntryPoint v0.8 with: it lands at 0x4337084D9E255Ff0702461CF8895CE9E3b5Ff108. */
const ENTRY_POINT_SALT: Hex = "0x0a59dbff790c23c976a548690c27297883cc66b4c67024f9117b0238995e35e9"
const ZERO_SALT: Hex = `0x${"00".repeat(32)}`

/** Dev-mnemonic indexes of the bundler's two keys: past the ten anvil funds, so no test's balances move. */
const BUNDLER_INDEX = 20
const PAYMASTER_SIGNER_INDEX = 21
/** What the bundler's key holds to pay `handleOps`, and what the paymaster has deposited in the EntryPoint. */
const BUNDLER_FUNDS = parseEther("1000")
const PAYMASTER_DEPOSIT = parseEther("100")

/** The ERC-4337 contracts of one local chain, and the dev keys of the bundler that serves it. */
export interface DevAccountAbstraction {
  readonly entryPoint: Address
  readonly simpleAccountFactory: Address
  /** Makes the embedded wallet's smart accounts (WalletAccount: SimpleAccount v0.8 with ERC-1271 by ERC-7739). */
  readonly walletAccountFactory: Address
  /** Simple7702Account (the package's audited artifact): the delegate the test wallets' EOAs take by EIP-7702 for batches. */
  readonly batchExecutor: Address
  readonly paymaster: Address
  /** Submits bundles (`handleOps`) and is paid back by each operation. A dev key: public knowledge. */
  readonly bundler: DevAccount
  /** Signs the paymaster's approvals. A dev key: public knowledge. */
  readonly paymasterSigner: DevAccount
}

const packageArtifact = (name: string): { readonly abi: Abi; readonly bytecode: Hex } => {
  const path = fileURLToPath(new URL(`../../node_modules/@account-abstraction/contracts/artifacts/${name}.json`, import.meta.url))
  const json = JSON.parse(readFileSync(path, "utf8")) as { abi: Abi; bytecode: Hex }
  return { abi: json.abi, bytecode: json.bytecode }
}

/** The bundler's and the paymaster signer's dev keys (the same on every local chain). */
export const bundlerKeys = (): { readonly bundler: DevAccount; readonly paymasterSigner: DevAccount } => {
  const accounts = devAccounts(PAYMASTER_SIGNER_INDEX + 1)
  const bundler = accounts[BUNDLER_INDEX]
  const paymasterSigner = accounts[PAYMASTER_SIGNER_INDEX]
  if (bundler === undefined || paymasterSigner === undefined) throw new Error("the dev mnemonic gave too few accounts")
  return { bundler, paymasterSigner }
}

const paymasterAbi = parseAbi(["function deposit() payable"])

/**
 * Deploys the EntryPoint, the SimpleAccountFactory, the WalletAccountFactory, the paymaster and the Simple7702Account
 * (from `deployer`), deposits, funds the bundler.
 */
export const deployAccountAbstraction = async (
  client: WalletClient & PublicActions,
  deployer: DevAccount
): Promise<DevAccountAbstraction> => {
  if ((await client.getCode({ address: CREATE2_DEPLOYER })) === undefined) {
    throw new Error(`the chain has no CREATE2 deployer at ${CREATE2_DEPLOYER}`)
  }
  const { bundler, paymasterSigner } = bundlerKeys()
  const entryPointCode = packageArtifact("EntryPoint").bytecode
  const entryPoint = getContractAddress({ opcode: "CREATE2", from: CREATE2_DEPLOYER, salt: ENTRY_POINT_SALT, bytecode: entryPointCode })
  const factoryArtifact = packageArtifact("SimpleAccountFactory")
  const factoryCode = encodeDeployData({ abi: factoryArtifact.abi, bytecode: factoryArtifact.bytecode, args: [entryPoint] })
  const simpleAccountFactory = getContractAddress({ opcode: "CREATE2", from: CREATE2_DEPLOYER, salt: ZERO_SALT, bytecode: factoryCode })
  const { VerifyingPaymaster, WalletAccountFactory } = loadArtifacts()
  const walletFactoryCode = encodeDeployData({ abi: WalletAccountFactory.abi, bytecode: WalletAccountFactory.bytecode, args: [entryPoint] })
  const walletAccountFactory = getContractAddress({ opcode: "CREATE2", from: CREATE2_DEPLOYER, salt: ZERO_SALT, bytecode: walletFactoryCode })
  const batchExecutorCode = packageArtifact("Simple7702Account").bytecode
  const batchExecutor = getContractAddress({ opcode: "CREATE2", from: CREATE2_DEPLOYER, salt: ZERO_SALT, bytecode: batchExecutorCode })
  const account = deployer.address
  // anvil mines each on arrival, in order: the factory's constructor reads the EntryPoint's sender creator.
  const hashes: Array<Hex> = [
    await client.sendTransaction({ account, chain: null, to: CREATE2_DEPLOYER, data: concat([ENTRY_POINT_SALT, entryPointCode]), gas: 8_000_000n }),
    await client.sendTransaction({ account, chain: null, to: CREATE2_DEPLOYER, data: concat([ZERO_SALT, factoryCode]), gas: 5_000_000n }),
    await client.deployContract({
      account,
      chain: null,
      abi: VerifyingPaymaster.abi,
      bytecode: VerifyingPaymaster.bytecode,
      args: [entryPoint, paymasterSigner.address],
      gas: 3_000_000n
    }),
    // Last, so that the paymaster keeps the address it had before this factory was added.
    await client.sendTransaction({ account, chain: null, to: CREATE2_DEPLOYER, data: concat([ZERO_SALT, walletFactoryCode]), gas: 6_000_000n }),
    await client.sendTransaction({ account, chain: null, to: CREATE2_DEPLOYER, data: concat([ZERO_SALT, batchExecutorCode]), gas: 6_000_000n })
  ]
  const receipts = []
  for (const hash of hashes) {
    const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 20 })
    if (receipt.status !== "success") throw new Error(`ERC-4337 deployment ${hash} reverted`)
    receipts.push(receipt)
  }
  const deployed = receipts[2]?.contractAddress
  if (deployed === undefined || deployed === null) throw new Error("the paymaster's deployment gave no address")
  const paymaster = getAddress(deployed)
  for (const [address, name] of [
    [entryPoint, "EntryPoint"],
    [simpleAccountFactory, "SimpleAccountFactory"],
    [walletAccountFactory, "WalletAccountFactory"],
    [batchExecutor, "Simple7702Account"]
  ] as const) {
    if ((await client.getCode({ address })) === undefined) throw new Error(`${name} is not at ${address} after its deployment`)
  }
  const deposit = await client.writeContract({
    account,
    chain: null,
    address: paymaster,
    abi: paymasterAbi,
    functionName: "deposit",
    value: PAYMASTER_DEPOSIT
  })
  const deposited = await client.waitForTransactionReceipt({ hash: deposit, pollingInterval: 20 })
  if (deposited.status !== "success") throw new Error("the paymaster's deposit reverted")
  await client.request({ method: "anvil_setBalance", params: [bundler.address, `0x${BUNDLER_FUNDS.toString(16)}`] } as never)
  return { entryPoint, simpleAccountFactory, walletAccountFactory, batchExecutor, paymaster, bundler, paymasterSigner }
}
