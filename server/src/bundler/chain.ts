/**
 * The bundler of one chain: it checks each user operation against the chain (an `eth_call` of `handleOps` from its
 * own key, exactly as it would submit it), keeps the accepted ones in a small pending pool, and submits them in
 * bundles of at most `maxOpsPerBundle` from one worker, so its key's transactions never race each other. Ops are
 * re-checked together before each bundle; one that stopped being valid is dropped and named in the log, not sent.
 * Receipts and included operations are read back from the chain (the EntryPoint's `UserOperationEvent`), so a
 * restart, or another bundler process, answers for them too; only pending operations live in this process.
 */
import {
  type Account,
  type Address,
  BaseError,
  type Chain,
  type Client,
  ContractFunctionRevertedError,
  createClient,
  decodeErrorResult,
  decodeEventLog,
  decodeFunctionData,
  encodeAbiParameters,
  encodeFunctionData,
  getAbiItem,
  getAddress,
  type Hex,
  hexToBigInt,
  type Log,
  parseAbi,
  type PublicActions,
  publicActions,
  RawContractError,
  size,
  toEventSelector,
  toHex,
  type Transport,
  type WalletActions,
  walletActions
} from "viem"
import {
  entryPoint08Abi,
  getUserOperationHash,
  type PackedUserOperation,
  toPackedUserOperation,
  type UserOperation
} from "viem/account-abstraction"
import { BundlerRpcError, codeOfFailedOp, RpcErrorCode } from "./errors"
import { toRpcUserOperation, unpackUserOperation } from "./userOperation"

/** How one chain's bundler is set up. */
export interface ChainBundlerOptions {
  readonly chainId: number
  readonly entryPoint: Address
  /** The chain's RPC, failover included. */
  readonly transport: Transport
  /** The funded key that submits `handleOps` and is paid back by the operations. */
  readonly account: Account
  readonly maxOpsPerBundle: number
  /** How far back (in blocks) an operation's receipt is looked for when this process did not submit it. */
  readonly receiptLookbackBlocks: bigint
  /** Bound on waiting for a bundle's transaction receipt. */
  readonly receiptTimeoutMs: number
  readonly log: (line: string, fields?: Record<string, unknown>) => void
}

/** What a pending or included operation is known as. */
interface Known {
  readonly op: UserOperation<"0.8">
  readonly hash: Hex
  transactionHash?: Hex
}

// The most gas one operation may ask for: a block holds 30 M on the chains we know; a bundle must fit.
const MAX_GAS_PER_OP = 10_000_000n
// Pending operations one chain holds at most: past it, new ones wait for room (a flood cannot grow the process).
const MAX_PENDING = 1_000
// Included operations remembered by hash for quick answers; older ones are read back from the chain's logs.
const REMEMBERED = 10_000

const accountAbi = parseAbi([
  "struct PackedUserOperation { address sender; uint256 nonce; bytes initCode; bytes callData; bytes32 accountGasLimits; uint256 preVerificationGas; bytes32 gasFees; bytes paymasterAndData; bytes signature; }",
  "function validateUserOp(PackedUserOperation userOp, bytes32 userOpHash, uint256 missingAccountFunds) returns (uint256)",
  "function validatePaymasterUserOp(PackedUserOperation userOp, bytes32 userOpHash, uint256 maxCost) returns (bytes context, uint256 validationData)"
])

type ChainClient = Client<Transport, Chain, Account> & PublicActions<Transport, Chain> & WalletActions<Chain, Account>

// Revert data somewhere in a viem error (an eth_call's, an estimate's).
const revertDataOf = (error: unknown): Hex | undefined => {
  if (!(error instanceof BaseError)) return undefined
  const found = error.walk((e) => e instanceof RawContractError || e instanceof ContractFunctionRevertedError || (typeof (e as { data?: unknown }).data === "string"))
  const data = (found as { data?: unknown } | null)?.data
  if (typeof data === "string" && data.startsWith("0x")) return data as Hex
  if (typeof data === "object" && data !== null && typeof (data as { data?: unknown }).data === "string") return (data as { data: Hex }).data
  return undefined
}

/** The EntryPoint's refusal of an op in a bundle: which one, and its reason ("AA24 signature error"). */
export interface FailedOp {
  readonly index: number
  readonly reason: string
}

const failedOpOf = (error: unknown): FailedOp | undefined => {
  const data = revertDataOf(error)
  if (data === undefined) return undefined
  try {
    const decoded = decodeErrorResult({ abi: entryPoint08Abi, data })
    if (decoded.errorName === "FailedOp") return { index: Number(decoded.args[0]), reason: decoded.args[1] }
    if (decoded.errorName === "FailedOpWithRevert") {
      const inner = decoded.args[2]
      let why = ""
      try {
        const innerError = decodeErrorResult({ abi: parseAbi(["error Error(string)"]), data: inner })
        why = `: ${innerError.args[0]}`
      } catch {
        why = size(inner) > 0 ? ` (${inner})` : ""
      }
      return { index: Number(decoded.args[0]), reason: `${decoded.args[1]}${why}` }
    }
  } catch {
    return undefined
  }
  return undefined
}

const userOperationEvent = getAbiItem({ abi: entryPoint08Abi, name: "UserOperationEvent" })
const eventTopic = toEventSelector(userOperationEvent)
const beforeExecution = toEventSelector(getAbiItem({ abi: entryPoint08Abi, name: "BeforeExecution" }))

const wordsOf = (error: unknown): string => (error instanceof BaseError ? error.shortMessage : error instanceof Error ? error.message : String(error))

/** One chain's bundler. */
export const chainBundler = (options: ChainBundlerOptions) => {
  const client: ChainClient = createClient({
    chain: { id: options.chainId, name: `eip155:${options.chainId}`, nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 }, rpcUrls: { default: { http: [] } } },
    transport: options.transport,
    account: options.account
  })
    .extend(publicActions)
    .extend(walletActions) as unknown as ChainClient
  const { entryPoint, chainId } = options
  const beneficiary = options.account.address
  const pending = new Map<Hex, Known>()
  const included = new Map<Hex, Known>()
  let senderCreator: Address | undefined

  const hashOf = (op: UserOperation<"0.8">): Hex =>
    getUserOperationHash({ chainId, entryPointAddress: entryPoint, entryPointVersion: "0.8", userOperation: op })

  const handleOpsData = (ops: ReadonlyArray<UserOperation<"0.8">>): Hex =>
    encodeFunctionData({ abi: entryPoint08Abi, functionName: "handleOps", args: [ops.map((op) => toPackedUserOperation(op)), beneficiary] })

  /** Runs `handleOps(ops)` in an `eth_call` from the bundler's key: the EntryPoint's refusal, if any. */
  const simulate = async (ops: ReadonlyArray<UserOperation<"0.8">>): Promise<FailedOp | undefined> => {
    try {
      await client.call({ account: options.account, to: entryPoint, data: handleOpsData(ops) })
      return undefined
    } catch (error) {
      const failed = failedOpOf(error)
      if (failed !== undefined) return failed
      throw new BundlerRpcError(RpcErrorCode.Internal, `The chain could not check the operation: ${wordsOf(error)}`)
    }
  }

  const refuse = (failed: FailedOp): never => {
    throw new BundlerRpcError(codeOfFailedOp(failed.reason), `The EntryPoint refused the operation: ${failed.reason}`, { reason: failed.reason })
  }

  // Checks that need no chain: limits that keep a bundle within a block and the bundler paid.
  const checkShape = (op: UserOperation<"0.8">) => {
    const gas = op.callGasLimit + op.verificationGasLimit + op.preVerificationGas + (op.paymasterVerificationGasLimit ?? 0n) + (op.paymasterPostOpGasLimit ?? 0n)
    if (gas > MAX_GAS_PER_OP) throw new BundlerRpcError(RpcErrorCode.InvalidParams, `The operation asks for ${gas} gas; this bundler takes at most ${MAX_GAS_PER_OP}`)
    if (op.maxPriorityFeePerGas > op.maxFeePerGas) throw new BundlerRpcError(RpcErrorCode.InvalidParams, "maxPriorityFeePerGas is above maxFeePerGas")
    if (size(op.signature) === 0) throw new BundlerRpcError(RpcErrorCode.InvalidParams, "The operation has no signature")
  }

  /** `eth_sendUserOperation`: checked, then pending; its hash. */
  const send = async (op: UserOperation<"0.8">): Promise<Hex> => {
    checkShape(op)
    if (pending.size >= MAX_PENDING) throw new BundlerRpcError(RpcErrorCode.InvalidParams, "The bundler is busy: try again in a few seconds")
    const hash = hashOf(op)
    if (pending.has(hash) || included.has(hash)) throw new BundlerRpcError(RpcErrorCode.InvalidParams, "This operation was already received")
    for (const other of pending.values()) {
      if (other.op.sender === op.sender && other.op.nonce === op.nonce) {
        throw new BundlerRpcError(RpcErrorCode.InvalidParams, "An operation of this account with this nonce is already pending")
      }
    }
    const block = await client.getBlock({ blockTag: "latest" })
    if (block.baseFeePerGas !== null && op.maxFeePerGas < block.baseFeePerGas) {
      throw new BundlerRpcError(RpcErrorCode.InvalidParams, `maxFeePerGas ${op.maxFeePerGas} is below the chain's base fee ${block.baseFeePerGas}`)
    }
    const failed = await simulate([op])
    if (failed !== undefined) refuse(failed)
    // Checked again after the wait: the same op sent twice at once is taken once.
    if (pending.has(hash)) throw new BundlerRpcError(RpcErrorCode.InvalidParams, "This operation was already received")
    pending.set(hash, { op, hash })
    kick()
    return hash
  }

  let draining: Promise<void> | undefined
  const kick = () => {
    draining ??= drain().finally(() => {
      draining = undefined
      if (pending.size > 0) kick()
    })
  }

  const remember = (known: Known) => {
    included.set(known.hash, known)
    if (included.size > REMEMBERED) {
      const oldest = included.keys().next().value
      if (oldest !== undefined) included.delete(oldest)
    }
  }

  // Submits the pending operations, a bundle at a time, until none is left.
  const drain = async (): Promise<void> => {
    while (pending.size > 0) {
      let batch = [...pending.values()].slice(0, options.maxOpsPerBundle)
      // Together they may no longer pass (two ops of one account, a paymaster's deposit…): drop who fails, try again.
      for (;;) {
        const failed = await simulate(batch.map((known) => known.op)).catch((error: unknown) => ({ index: -1, reason: wordsOf(error) }))
        if (failed === undefined) break
        const dropped = batch[failed.index] ?? batch
        for (const known of Array.isArray(dropped) ? dropped : [dropped]) {
          pending.delete(known.hash)
          options.log("user operation dropped before its bundle", { chainId, userOpHash: known.hash, reason: failed.reason })
        }
        batch = batch.filter((known) => pending.has(known.hash))
        if (batch.length === 0) break
      }
      if (batch.length === 0) continue
      try {
        const transactionHash = await client.sendTransaction({
          to: entryPoint,
          data: handleOpsData(batch.map((known) => known.op)),
          chain: null
        })
        const receipt = await client.waitForTransactionReceipt({ hash: transactionHash, pollingInterval: 20, timeout: options.receiptTimeoutMs })
        for (const known of batch) {
          pending.delete(known.hash)
          remember({ ...known, transactionHash })
        }
        options.log("bundle submitted", { chainId, transactionHash, ops: batch.length, status: receipt.status })
      } catch (error) {
        for (const known of batch) pending.delete(known.hash)
        options.log("bundle failed", { chainId, ops: batch.length, reason: wordsOf(error) })
      }
    }
  }

  const logsOf = (receiptLogs: ReadonlyArray<Log>, hash: Hex) => {
    const at = receiptLogs.findIndex((log) => log.topics[0] === eventTopic && log.topics[1]?.toLowerCase() === hash)
    if (at < 0) return undefined
    let start = at
    while (start > 0) {
      const previous = receiptLogs[start - 1]
      const isEntryPoint = previous?.address.toLowerCase() === entryPoint.toLowerCase()
      if (isEntryPoint && (previous?.topics[0] === eventTopic || previous?.topics[0] === beforeExecution)) break
      start--
    }
    return { event: receiptLogs[at], logs: receiptLogs.slice(start, at) }
  }

  // Which transaction included `hash`: remembered, else the EntryPoint's logs of the last blocks.
  const transactionOf = async (hash: Hex): Promise<Hex | undefined> => {
    const known = included.get(hash)?.transactionHash
    if (known !== undefined) return known
    const latest = await client.getBlockNumber()
    const logs = await client.getLogs({
      address: entryPoint,
      event: userOperationEvent,
      args: { userOpHash: hash },
      fromBlock: latest > options.receiptLookbackBlocks ? latest - options.receiptLookbackBlocks : 0n,
      toBlock: latest
    })
    return logs[0]?.transactionHash ?? undefined
  }

  /** `eth_getUserOperationReceipt`: null until included. */
  const receipt = async (hash: Hex): Promise<unknown> => {
    if (pending.has(hash)) return null
    const transactionHash = await transactionOf(hash)
    if (transactionHash === undefined) return null
    const raw = (await client.request({ method: "eth_getTransactionReceipt", params: [transactionHash] })) as {
      readonly logs: ReadonlyArray<Log>
    } | null
    if (raw === null) return null
    const found = logsOf(raw.logs, hash)
    if (found?.event === undefined) return null
    const event = decodeEventLog({ abi: entryPoint08Abi, eventName: "UserOperationEvent", data: found.event.data, topics: found.event.topics as [Hex, ...Array<Hex>] })
    const revert = raw.logs.find((log) => {
      if (log.topics[1]?.toLowerCase() !== hash || log.address.toLowerCase() !== entryPoint.toLowerCase()) return false
      try {
        return decodeEventLog({ abi: entryPoint08Abi, data: log.data, topics: log.topics as [Hex, ...Array<Hex>] }).eventName === "UserOperationRevertReason"
      } catch {
        return false
      }
    })
    const reason =
      revert === undefined
        ? undefined
        : (decodeEventLog({ abi: entryPoint08Abi, eventName: "UserOperationRevertReason", data: revert.data, topics: revert.topics as [Hex, ...Array<Hex>] }).args
            .revertReason as Hex)
    return {
      userOpHash: hash,
      entryPoint,
      sender: event.args.sender,
      nonce: toHex(event.args.nonce),
      paymaster: event.args.paymaster,
      actualGasCost: toHex(event.args.actualGasCost),
      actualGasUsed: toHex(event.args.actualGasUsed),
      success: event.args.success,
      ...(reason === undefined ? {} : { reason }),
      logs: found.logs,
      receipt: raw
    }
  }

  /** `eth_getUserOperationByHash`: the operation, and where it was included (null fields while pending). */
  const byHash = async (hash: Hex): Promise<unknown> => {
    const waiting = pending.get(hash)
    if (waiting !== undefined) {
      return { userOperation: toRpcUserOperation(waiting.op), entryPoint, transactionHash: null, blockHash: null, blockNumber: null }
    }
    const transactionHash = await transactionOf(hash)
    if (transactionHash === undefined) return null
    const transaction = await client.getTransaction({ hash: transactionHash })
    let op = included.get(hash)?.op
    if (op === undefined) {
      const call = decodeFunctionData({ abi: entryPoint08Abi, data: transaction.input })
      if (call.functionName !== "handleOps") return null
      op = (call.args[0] as ReadonlyArray<PackedUserOperation>).map(unpackUserOperation).find((candidate) => hashOf(candidate) === hash)
    }
    if (op === undefined) return null
    return {
      userOperation: toRpcUserOperation(op),
      entryPoint,
      transactionHash,
      blockHash: transaction.blockHash,
      blockNumber: transaction.blockNumber === null ? null : toHex(transaction.blockNumber)
    }
  }

  /**
   * `eth_estimateUserOperationGas`: each part measured on its own in one `eth_simulateV1` block — the factory's
   * deployment (from the EntryPoint's sender creator), the account's validation and the paymaster's (from the
   * EntryPoint; a stub signature fails softly there, it does not revert), then the calls — with a margin each.
   */
  const estimate = async (op: UserOperation<"0.8">) => {
    const hash = hashOf(op)
    const packed = toPackedUserOperation(op)
    senderCreator ??= getAddress(
      (await client.readContract({ address: entryPoint, abi: entryPoint08Abi, functionName: "senderCreator" })) as Address
    )
    const calls: Array<{ readonly from: Address; readonly to: Address; readonly data: Hex; readonly part: string }> = []
    if (op.factory !== undefined) calls.push({ from: senderCreator, to: op.factory, data: op.factoryData ?? "0x", part: "factory" })
    // Without a paymaster the account pays the EntryPoint during validation: a non-zero amount due makes the simulation
    // take that transfer (its cost does not depend on the amount; an account without the wei ignores the failed call).
    const due = op.paymaster === undefined ? 1n : 0n
    calls.push({ from: entryPoint, to: op.sender, data: encodeFunctionData({ abi: accountAbi, functionName: "validateUserOp", args: [packed, hash, due] }), part: "account" })
    if (op.paymaster !== undefined) {
      calls.push({
        from: entryPoint,
        to: op.paymaster,
        data: encodeFunctionData({ abi: accountAbi, functionName: "validatePaymasterUserOp", args: [packed, hash, 0n] }),
        part: "paymaster"
      })
    }
    calls.push({ from: entryPoint, to: op.sender, data: op.callData, part: "calls" })
    const answer = (await client.request({
      method: "eth_simulateV1",
      params: [{ blockStateCalls: [{ calls: calls.map(({ from, to, data }) => ({ from, to, data })) }] }, "latest"]
    } as never)) as ReadonlyArray<{ readonly calls: ReadonlyArray<{ readonly status: Hex; readonly gasUsed: Hex; readonly returnData: Hex; readonly error?: { readonly message?: string } }> }>
    const results = answer[0]?.calls ?? []
    const used: Record<string, bigint> = {}
    for (const [i, call] of calls.entries()) {
      const result = results[i]
      if (result === undefined) throw new BundlerRpcError(RpcErrorCode.Internal, "The chain did not simulate every part of the operation")
      if (result.status !== "0x1") {
        const why = result.error?.message ?? result.returnData
        if (call.part === "calls") throw new BundlerRpcError(RpcErrorCode.ExecutionReverted, `The operation's calls revert: ${why}`, { revertData: result.returnData })
        if (call.part === "paymaster") throw new BundlerRpcError(RpcErrorCode.RejectedByPaymaster, `The paymaster refuses the operation: ${why}`)
        throw new BundlerRpcError(RpcErrorCode.RejectedByAccount, `The ${call.part === "factory" ? "account's factory" : "account"} refuses the operation: ${why}`)
      }
      used[call.part] = hexToBigInt(result.gasUsed)
    }
    // Each measure includes a transaction's 21000 and its calldata: the margin, with a tenth more.
    const margin = (gas: bigint) => gas + gas / 10n
    const verificationGasLimit = margin((used["factory"] ?? 0n) + (used["account"] ?? 0n))
    const callGasLimit = margin(used["calls"] ?? 0n)
    const packedBytes = encodeAbiParameters(
      [{ type: "bytes" }],
      [handleOpsData([{ ...op, signature: op.signature === "0x" ? `0x${"ff".repeat(65)}` : op.signature }])]
    )
    let calldataGas = 0n
    for (let i = 2; i < packedBytes.length; i += 2) calldataGas += packedBytes.slice(i, i + 2) === "00" ? 4n : 16n
    // A bundle of one pays the transaction's base cost alone, and the EntryPoint's own work around the op.
    const preVerificationGas = 21_000n + calldataGas + 20_000n
    return {
      preVerificationGas: toHex(preVerificationGas),
      verificationGasLimit: toHex(verificationGasLimit),
      callGasLimit: toHex(callGasLimit),
      ...(op.paymaster === undefined
        ? {}
        : { paymasterVerificationGasLimit: toHex(margin(used["paymaster"] ?? 0n)), paymasterPostOpGasLimit: toHex(op.paymasterPostOpGasLimit ?? 0n) })
    }
  }

  return {
    chainId,
    client,
    send,
    estimate,
    receipt,
    byHash,
    hashOf,
    /** Waits for the bundles in flight (a stop lets them finish). */
    settle: async () => {
      while (draining !== undefined) await draining
    },
    pendingCount: () => pending.size
  }
}

/** One chain's bundler. */
export type ChainBundler = ReturnType<typeof chainBundler>
