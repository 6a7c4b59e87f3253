/**
 * EIP-5792 (final) batched calls, as every wallet of ours reads them: the `wallet_sendCalls` request of version 2.0.0
 * and the checks made before the visitor is asked (shape, chain, then what the chain says: code where data goes, the
 * balance the values need), and a batch's status from its receipts. Pure; the embedded wallet's frame side, its server
 * and the test wallets share it, so a bad batch gets the same words everywhere. What a host reads back (the status
 * codes, the answers' Schemas, the errors) is `callsWire.ts`.
 */
import { CALLS_STATUS, CALLS_VERSION } from "./callsWire"
import { formatUnits } from "./format"

/** The most calls one batch may hold (the approval view lists each one). */
export const MAX_BATCH_CALLS = 20

/** EIP-5792's error codes, with JSON-RPC's invalid params. */
export const CALLS_ERROR_CODES = {
  invalidParams: -32602,
  unsupportedCapability: 5700,
  unsupportedChain: 5710,
  unknownBundle: 5730,
  batchTooLarge: 5740,
  atomicityNotSupported: 5760
} as const

type Hex = `0x${string}`

/** One call of a checked batch: receiver, data (none when empty) and value in wei. */
export interface BatchCall {
  readonly to: Hex
  readonly data: Hex | undefined
  readonly value: bigint
}

/** A checked `wallet_sendCalls` request. */
export interface Batch {
  readonly from: Hex | undefined
  readonly chainId: number
  readonly atomicRequired: boolean
  readonly calls: ReadonlyArray<BatchCall>
  readonly capabilities: Readonly<Record<string, unknown>>
}

/** Why a batch is refused: an EIP-5792 (or JSON-RPC) code and the words a visitor reads. */
export interface BatchProblem {
  readonly code: number
  readonly message: string
}

/** A batch read from a request: the batch, or why it is refused. */
export type BatchCheck = { readonly ok: true; readonly batch: Batch } | { readonly ok: false; readonly problem: BatchProblem }

const ADDRESS = /^0x[0-9a-fA-F]{40}$/
const BYTES = /^0x(?:[0-9a-fA-F]{2})*$/
const QUANTITY = /^0x[0-9a-fA-F]{1,64}$/

const isRecord = (value: unknown): value is Readonly<Record<string, unknown>> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

const refused = (code: number, message: string): BatchCheck => ({ ok: false, problem: { code, message } })

const readCall = (raw: unknown, index: number): BatchCall | BatchProblem => {
  const n = index + 1
  if (!isRecord(raw)) return { code: CALLS_ERROR_CODES.invalidParams, message: `Call ${n} is not a call: it needs a receiver (to)` }
  const { to, data, value } = raw
  if (typeof to !== "string" || !ADDRESS.test(to)) {
    return { code: CALLS_ERROR_CODES.invalidParams, message: `Call ${n}: the receiver must be an address starting with 0x` }
  }
  if (data !== undefined && (typeof data !== "string" || !BYTES.test(data))) {
    return { code: CALLS_ERROR_CODES.invalidParams, message: `Call ${n}: the data must be hex bytes starting with 0x` }
  }
  if (value !== undefined && (typeof value !== "string" || !QUANTITY.test(value))) {
    return { code: CALLS_ERROR_CODES.invalidParams, message: `Call ${n}: the value must be a hex amount starting with 0x` }
  }
  return { to: to as Hex, data: data === undefined || data === "0x" ? undefined : (data as Hex), value: value === undefined ? 0n : BigInt(value) }
}

/**
 * Reads `wallet_sendCalls`' params (`[request]`) for a wallet on chain `chainId`; what the wallet cannot do is refused
 * here, before anyone is asked. `supportedCapabilities` are the capabilities the wallet honours.
 *
 * @example readBatch([{ version: "2.0.0", chainId: "0x7a69", atomicRequired: true, calls: [{ to }] }], 31337)
 */
export const readBatch = (params: unknown, chainId: number, supportedCapabilities: ReadonlyArray<string> = []): BatchCheck => {
  const request = Array.isArray(params) ? params[0] : params
  if (!isRecord(request)) return refused(CALLS_ERROR_CODES.invalidParams, "The batch must be one object with its calls")
  const { version, from, atomicRequired, calls, capabilities } = request
  if (version !== CALLS_VERSION) {
    return refused(CALLS_ERROR_CODES.invalidParams, `This wallet takes batches of version ${CALLS_VERSION}, not ${typeof version === "string" ? version : "none"}`)
  }
  if (typeof request["chainId"] !== "string" || !QUANTITY.test(request["chainId"])) {
    return refused(CALLS_ERROR_CODES.invalidParams, "The batch's chainId must be a hex number starting with 0x")
  }
  const wanted = Number(BigInt(request["chainId"]))
  if (wanted !== chainId) {
    return refused(CALLS_ERROR_CODES.unsupportedChain, `This batch is for chain ${wanted}, but the wallet is on chain ${chainId}`)
  }
  if (from !== undefined && (typeof from !== "string" || !ADDRESS.test(from))) {
    return refused(CALLS_ERROR_CODES.invalidParams, "The batch's sender (from) must be an address starting with 0x")
  }
  if (typeof atomicRequired !== "boolean") {
    return refused(CALLS_ERROR_CODES.invalidParams, "The batch must say whether its calls must run together (atomicRequired)")
  }
  if (!Array.isArray(calls) || calls.length === 0) return refused(CALLS_ERROR_CODES.invalidParams, "The batch has no calls")
  if (calls.length > MAX_BATCH_CALLS) {
    return refused(CALLS_ERROR_CODES.batchTooLarge, `A batch may hold ${MAX_BATCH_CALLS} calls at most; this one has ${calls.length}`)
  }
  if (capabilities !== undefined && !isRecord(capabilities)) return refused(CALLS_ERROR_CODES.invalidParams, "The batch's capabilities must be an object")
  for (const [name, capability] of Object.entries(capabilities ?? {})) {
    // EIP-5792: a capability not marked optional must be honoured, or the whole batch refused.
    if (!supportedCapabilities.includes(name) && !(isRecord(capability) && capability["optional"] === true)) {
      return refused(CALLS_ERROR_CODES.unsupportedCapability, `This wallet does not support the capability ${name}`)
    }
  }
  const read: Array<BatchCall> = []
  for (const [index, raw] of calls.entries()) {
    const call = readCall(raw, index)
    if ("code" in call) return { ok: false, problem: call }
    read.push(call)
  }
  return {
    ok: true,
    batch: { from: from as Hex | undefined, chainId, atomicRequired, calls: read, capabilities: capabilities ?? {} }
  }
}

/** What the chain says about a batch before it is sent: whether each receiver has code, and the sender's balance. */
export interface BatchChainFacts {
  readonly hasCode: ReadonlyArray<boolean>
  readonly balance: bigint
  readonly currency: { readonly symbol: string; readonly decimals: number }
}

/** The sum of a batch's values, in wei. */
export const batchValue = (batch: Batch): bigint => batch.calls.reduce((sum, call) => sum + call.value, 0n)

/**
 * What the chain refuses in a batch, said before the visitor is asked: data sent to an address without code (it would
 * be lost: nothing runs there), or values adding up past the balance.
 */
export const batchChainProblem = (batch: Batch, facts: BatchChainFacts): BatchProblem | undefined => {
  for (const [index, call] of batch.calls.entries()) {
    if (call.data !== undefined && facts.hasCode[index] === false) {
      return { code: CALLS_ERROR_CODES.invalidParams, message: `Call ${index + 1} sends data to ${call.to}, which is not a contract` }
    }
  }
  const total = batchValue(batch)
  if (total > facts.balance) {
    const amount = (wei: bigint) => `${formatUnits(wei, facts.currency.decimals)} ${facts.currency.symbol}`
    return { code: CALLS_ERROR_CODES.invalidParams, message: `The calls send ${amount(total)} in all, more than the account holds (${amount(facts.balance)})` }
  }
  return undefined
}

/**
 * The status of a batch from its transactions' receipts (one per transaction, `undefined` while not mined): pending
 * until all are in; confirmed when all succeeded; reverted when all reverted; partially reverted otherwise.
 */
export const batchStatus = (receipts: ReadonlyArray<"success" | "reverted" | undefined>): number => {
  if (receipts.length === 0 || receipts.some((receipt) => receipt === undefined)) return CALLS_STATUS.pending
  if (receipts.every((receipt) => receipt === "success")) return CALLS_STATUS.confirmed
  if (receipts.every((receipt) => receipt === "reverted")) return CALLS_STATUS.reverted
  return CALLS_STATUS.partiallyReverted
}
