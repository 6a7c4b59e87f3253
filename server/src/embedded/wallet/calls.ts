/**
 * EIP-5792 in the embedded wallet: `wallet_sendCalls`, `wallet_getCallsStatus` and `wallet_getCapabilities`.
 *
 * - From the smart account (WalletAccount) a batch is ONE user operation (`executeBatch`) through the chain's bundler,
 *   sponsored when the host's paymaster accepts it: atomic, whatever `atomicRequired` says.
 * - From the EOA a batch cannot be atomic (no EIP-7702 delegation is made for the embedded wallet's key): its
 *   capability says `atomic: unsupported`; with `atomicRequired: false` its calls go as transactions one after the other
 *   (each waits for the one before to be sent); with `atomicRequired: true` it is refused with 5760.
 * - A batch is refused before anything is sent when it is malformed (`src/domain/Calls.ts`), or when the chain says
 *   it cannot work: data for an address without code, values past the balance.
 * - Batch ids are random, kept in the database with the user's id (`callsStore.ts`): any process answers their status.
 *
 * walletRpc.ts hands this module what it needs of a chain (its node, its bundler, the smart account, the two ways to
 * send), so the signing code stays where it is; the batches are kept through the {@link CallsStore} the runner hands in.
 */
import type { Hex } from "viem"
import { isAddressEqual, toHex } from "viem"
import { type Batch, type BatchCall, batchChainProblem, batchStatus, CALLS_ERROR_CODES, readBatch } from "../../../../src/domain/Calls"
import { CALLS_STATUS, CALLS_VERSION } from "../../../../src/domain/callsWire"
import type { StoredCalls } from "../server/callsStore"
import { ApiError } from "./errors"
import { randomHex } from "./keys"
import type { JsonRpcRequest } from "./walletRpc"

/** What this module needs of one chain the wallet server runs. */
export interface CallsChain {
  readonly caipNetworkId: string
  readonly chainId: number
  /** The chain's bundler (and paymaster, ERC-7677), when smart accounts run there. */
  readonly bundler: JsonRpcRequest | undefined
  readonly entryPoint: Hex | undefined
  /** A JSON-RPC call to the chain's node. */
  readonly node: (method: string, params: ReadonlyArray<unknown>) => Promise<unknown>
  /** The user's smart account on this chain (undefined where smart accounts do not run). */
  readonly smartAccount: () => Promise<{ readonly address: Hex } | undefined>
  /** Sends `calls` as one user operation of the smart account (sponsored when the host pays); its hash. */
  readonly sendUserOperation: (calls: ReadonlyArray<BatchCall>) => Promise<Hex>
  /** Sends one call as a transaction from the user's EOA; its hash. */
  readonly sendTransaction: (call: BatchCall) => Promise<Hex>
}

/** Where batches are kept, for the user of this request. */
export interface CallsStore {
  readonly save: (calls: StoredCalls) => Promise<void>
  readonly find: (id: string) => Promise<StoredCalls | undefined>
}

/** The methods this module answers. */
export const CALLS_METHODS: ReadonlySet<string> = new Set(["wallet_sendCalls", "wallet_getCallsStatus", "wallet_getCapabilities"])

const refuse = (code: number, message: string) => new ApiError(400, "rpc_error", message, { rpcCode: code })

const isAddress = (value: unknown): value is Hex => typeof value === "string" && /^0x[0-9a-fA-F]{40}$/.test(value)

/** Whether the host's paymaster would pay for `sender`'s operations on `chain` (ERC-7677 stub data, asked of the bundler). */
const sponsors = async (chain: CallsChain, sender: Hex): Promise<boolean> => {
  if (chain.bundler === undefined || chain.entryPoint === undefined) return false
  // Any refusal (the paymaster's "no" included) means no sponsorship.
  const answer = await chain.bundler("pm_getPaymasterStubData", [{ sender, nonce: "0x0", callData: "0x" }, chain.entryPoint, toHex(chain.chainId), {}]).catch(
    () => undefined
  )
  return answer !== null && answer !== undefined
}

/**
 * `wallet_getCapabilities [address, chainIds?]`: per chain (hex id), whether a batch from `address` is atomic and
 * whether the host's paymaster pays. The smart account's are atomic; the EOA's are not (see the module's comment).
 */
const capabilities = async (chains: ReadonlyArray<CallsChain>, evmAddress: string, params: ReadonlyArray<unknown>) => {
  const [address, wanted] = params
  if (!isAddress(address)) throw refuse(CALLS_ERROR_CODES.invalidParams, "wallet_getCapabilities: the address must start with 0x")
  if (wanted !== undefined && (!Array.isArray(wanted) || !wanted.every((id) => typeof id === "string"))) {
    throw refuse(CALLS_ERROR_CODES.invalidParams, "wallet_getCapabilities: the chain ids must be a list of hex numbers")
  }
  const eoa = isAddressEqual(evmAddress as Hex, address)
  let ours = eoa
  const answer: Record<string, unknown> = {}
  for (const chain of chains) {
    const id = toHex(chain.chainId)
    const smart = await chain.smartAccount()
    const isSmart = smart !== undefined && isAddressEqual(smart.address, address)
    ours ||= isSmart
    if (wanted !== undefined && !(wanted as ReadonlyArray<string>).some((w) => w.toLowerCase() === id)) continue
    if (isSmart) {
      answer[id] = { atomic: { status: "supported" }, ...((await sponsors(chain, smart.address)) ? { paymasterService: { supported: true } } : {}) }
    } else if (eoa) {
      answer[id] = { atomic: { status: "unsupported" } }
    }
  }
  if (!ours) throw new ApiError(400, "rpc_error", `The address ${address} is not this wallet's account`, { rpcCode: 4100 })
  return answer
}

/** The chain's answers on what a batch would do: code at each receiver, the sender's balance. */
const chainCheck = async (chain: CallsChain, batch: Batch, sender: Hex) => {
  const [codes, balance] = await Promise.all([
    Promise.all(batch.calls.map((call) => (call.data === undefined ? Promise.resolve("0x") : chain.node("eth_getCode", [call.to, "latest"])))),
    chain.node("eth_getBalance", [sender, "latest"])
  ])
  return batchChainProblem(batch, {
    hasCode: codes.map((code) => typeof code === "string" && code !== "0x"),
    balance: BigInt(typeof balance === "string" ? balance : "0x0"),
    currency: { symbol: "ETH", decimals: 18 }
  })
}

const sendCalls = async (chain: CallsChain, evmAddress: string, store: CallsStore, params: unknown) => {
  const smart = await chain.smartAccount()
  // The paymaster is the host's own: a dApp's paymasterService is honoured by ours, its URL is not called.
  const checked = readBatch(params, chain.chainId, smart === undefined ? [] : ["paymasterService"])
  if (!checked.ok) throw refuse(checked.problem.code, checked.problem.message)
  const { batch } = checked
  // Without `from`, the account in front by default: the smart account where one runs (spec: EVM's default type).
  const sender: Hex = batch.from ?? smart?.address ?? (evmAddress as Hex)
  const fromSmart = smart !== undefined && isAddressEqual(sender, smart.address)
  if (!fromSmart && !isAddressEqual(sender, evmAddress as Hex)) {
    throw new ApiError(400, "rpc_error", `The address ${sender} is not this wallet's account`, { rpcCode: 4100 })
  }
  if (!fromSmart && batch.atomicRequired) {
    throw refuse(CALLS_ERROR_CODES.atomicityNotSupported, "This account cannot run calls together in one transaction: switch to the smart account, or send them one by one")
  }
  const problem = await chainCheck(chain, batch, sender)
  if (problem !== undefined) throw refuse(problem.code, problem.message)
  const id = randomHex(32)
  if (fromSmart) {
    const hash = await chain.sendUserOperation(batch.calls)
    await store.save({ id, chainId: chain.caipNetworkId, sender, kind: "userOperation", hashes: [hash], atomic: true })
  } else {
    const hashes: Array<Hex> = []
    for (const call of batch.calls) hashes.push(await chain.sendTransaction(call))
    await store.save({ id, chainId: chain.caipNetworkId, sender, kind: "transactions", hashes, atomic: false })
  }
  return { id }
}

interface RawReceipt {
  readonly status?: string
  readonly transactionHash?: string
  readonly blockHash?: string
  readonly blockNumber?: string
  readonly gasUsed?: string
  readonly logs?: ReadonlyArray<{ readonly address?: string; readonly data?: string; readonly topics?: ReadonlyArray<string> }>
}

// A node's receipt in EIP-5792's shape.
const receiptOf = (raw: RawReceipt) => ({
  logs: (raw.logs ?? []).map((log) => ({ address: log.address, data: log.data, topics: log.topics })),
  status: raw.status,
  blockHash: raw.blockHash,
  blockNumber: raw.blockNumber,
  gasUsed: raw.gasUsed,
  transactionHash: raw.transactionHash
})

const isSuccess = (raw: RawReceipt) => raw.status === "0x1"

const getCallsStatus = async (chains: ReadonlyArray<CallsChain>, store: CallsStore, params: ReadonlyArray<unknown>) => {
  const [id] = params
  if (typeof id !== "string" || id.length === 0 || id.length > 8192) throw refuse(CALLS_ERROR_CODES.invalidParams, "wallet_getCallsStatus: the batch id must be a string")
  const stored = await store.find(id)
  if (stored === undefined) throw refuse(CALLS_ERROR_CODES.unknownBundle, `This wallet knows no batch with the id ${id.slice(0, 80)}`)
  const chain = chains.find((c) => c.caipNetworkId === stored.chainId)
  if (chain === undefined) throw refuse(CALLS_ERROR_CODES.unsupportedChain, `The wallet server no longer runs the chain ${stored.chainId}`)
  const base = { version: CALLS_VERSION, id, chainId: toHex(chain.chainId), atomic: stored.atomic }
  if (stored.kind === "userOperation") {
    const [hash] = stored.hashes
    if (chain.bundler === undefined || hash === undefined) throw refuse(CALLS_ERROR_CODES.unsupportedChain, `Smart accounts are not available on ${stored.chainId}`)
    const found = (await chain.bundler("eth_getUserOperationReceipt", [hash])) as { readonly success?: boolean; readonly receipt?: RawReceipt } | null | undefined
    if (found === null || found === undefined || found.receipt === undefined) return { ...base, status: CALLS_STATUS.pending }
    // The operation's own outcome, not its bundle's: handleOps succeeds while an operation inside it reverts.
    return { ...base, status: found.success === true ? CALLS_STATUS.confirmed : CALLS_STATUS.reverted, receipts: [receiptOf(found.receipt)] }
  }
  const receipts = (await Promise.all(stored.hashes.map((hash) => chain.node("eth_getTransactionReceipt", [hash])))) as ReadonlyArray<RawReceipt | null>
  const status = batchStatus(receipts.map((receipt) => (receipt === null ? undefined : isSuccess(receipt) ? "success" : "reverted")))
  if (status === CALLS_STATUS.pending) return { ...base, status }
  return { ...base, status, receipts: receipts.flatMap((receipt) => (receipt === null ? [] : [receiptOf(receipt)])) }
}

/** Answers one of {@link CALLS_METHODS} for the user `evmAddress`, asked on `current` (one of `chains`). */
export const walletCalls = async (
  chains: ReadonlyArray<CallsChain>,
  current: CallsChain,
  user: { readonly evmAddress: string; readonly calls: CallsStore | undefined },
  method: string,
  params: unknown
): Promise<unknown> => {
  const list: ReadonlyArray<unknown> = params === undefined ? [] : Array.isArray(params) ? params : [params]
  if (method === "wallet_getCapabilities") return capabilities(chains, user.evmAddress, list)
  if (user.calls === undefined) throw new ApiError(400, "method_not_allowed", "Requested RPC call is not allowed")
  if (method === "wallet_sendCalls") return sendCalls(current, user.evmAddress, user.calls, list)
  return getCallsStatus(chains, user.calls, list)
}
