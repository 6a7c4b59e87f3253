/**
 * What a host sends and reads of EIP-5792 (final) batched calls: the version it sends, `wallet_getCallsStatus`'s codes
 * and what each means, the answers' Schemas and the two ways a batch ends without success. Apart from the checks of a
 * batch (`Calls.ts`), so a page that sends batches through `useSendCalls` loads only this before its first click.
 */
import { Schema } from "effect"
import { TaggedError } from "./taggedError"

/** The only version of `wallet_sendCalls` we take (EIP-5792 as final). */
export const CALLS_VERSION = "2.0.0"

/** `wallet_getCallsStatus`'s status codes (EIP-5792). */
export const CALLS_STATUS = {
  pending: 100,
  confirmed: 200,
  offchainFailure: 400,
  reverted: 500,
  partiallyReverted: 600
} as const

/** What a host does with a status: wait more, or stop with success or failure. */
export type CallsOutcome = "pending" | "success" | "failure"

/** A `wallet_getCallsStatus` status code's outcome: 1xx pending, 2xx success, anything else (4xx–6xx) failure. */
export const callsOutcome = (status: number): CallsOutcome => (status < 200 ? "pending" : status < 300 ? "success" : "failure")

const HexString = Schema.String.pipe(Schema.check(Schema.isPattern(/^0x[0-9a-fA-F]*$/, { expected: "a 0x-prefixed hex string" })))

/** A transaction receipt as `wallet_getCallsStatus` gives it. */
export const CallsReceipt = Schema.Struct({
  status: HexString,
  transactionHash: HexString,
  blockHash: HexString,
  blockNumber: HexString,
  gasUsed: HexString,
  logs: Schema.Array(Schema.Unknown)
})
/** A transaction receipt of a batch. */
export type CallsReceipt = typeof CallsReceipt.Type

/** `wallet_sendCalls`' answer: the batch's id. */
export const SendCallsResult = Schema.Struct({ id: Schema.String, capabilities: Schema.optionalKey(Schema.Record(Schema.String, Schema.Unknown)) })

/** `wallet_getCallsStatus`' answer (EIP-5792 2.0.0). */
export const CallsStatus = Schema.Struct({
  version: Schema.String,
  id: Schema.String,
  chainId: HexString,
  status: Schema.Number,
  atomic: Schema.Boolean,
  receipts: Schema.optionalKey(Schema.Array(CallsReceipt)),
  capabilities: Schema.optionalKey(Schema.Record(Schema.String, Schema.Unknown))
})
/** `wallet_getCallsStatus`' answer. */
export type CallsStatus = typeof CallsStatus.Type

/** A batch that ended without success: not sent (400), reverted (500) or partly reverted (600). */
export class CallsFailed extends TaggedError<CallsFailed>()("CallsFailed", {
  id: Schema.String,
  status: Schema.Number,
  transactionHashes: Schema.Array(Schema.String)
}) {
  override get message() {
    if (this.status === CALLS_STATUS.offchainFailure) return "The wallet could not send the calls"
    if (this.status === CALLS_STATUS.partiallyReverted) return "Some of the calls failed on chain and others went through"
    return "The calls failed on chain: none of them took effect"
  }
}

/** A batch whose status stayed pending past the time a host waits. */
export class CallsTimedOut extends TaggedError<CallsTimedOut>()("CallsTimedOut", {
  id: Schema.String,
  waitedMs: Schema.Number
}) {
  override get message() {
    return `The calls were not final after ${Math.round(this.waitedMs / 1000)} s; the wallet may still send them`
  }
}
