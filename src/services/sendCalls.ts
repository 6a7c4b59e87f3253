/**
 * EIP-5792 batched calls for a host: send a batch with the EVM wallet in front (`wallet_sendCalls`, version 2.0.0,
 * from its account on its chain), then follow `wallet_getCallsStatus` every second until the batch is final — 2xx
 * succeeds with the receipts, 4xx–6xx fails with `CallsFailed`, still pending after 120 s fails with `CallsTimedOut`.
 * Functions over WalletActions and Connection rather than a service of their own: only the lazily loaded `useSendCalls`
 * atoms use them, so nothing of this is in the first click's code.
 */
import { Duration, Effect, Schedule, Schema, SubscriptionRef } from "effect"
import { CallsFailed, CallsStatus, callsOutcome, CallsTimedOut, CALLS_VERSION, SendCallsResult } from "../domain/callsWire"
import { CaipNetworkOrAddressUndefined, SomethingWentWrong } from "../domain/errors"
import { Connection } from "./Connection"
import { WalletActions } from "./WalletActions"

/** How often a batch's status is asked. */
export const CALLS_POLL_MS = 1_000
/** How long a batch is followed before {@link CallsTimedOut}: a user operation may wait on its bundle. */
export const CALLS_TIMEOUT_MS = 120_000

/** One call of a batch, as a host writes it: value in wei. */
export interface SendCallsCall {
  readonly to: string
  readonly data?: string | undefined
  readonly value?: bigint | undefined
}

/** A batch as a host writes it. */
export interface SendCallsInput {
  readonly calls: ReadonlyArray<SendCallsCall>
  /** Whether every call must run in one transaction, or none (default true). */
  readonly atomicRequired?: boolean | undefined
  /** EIP-5792 capabilities asked of the wallet (e.g. `{ paymasterService: { url, optional: true } }`). */
  readonly capabilities?: Readonly<Record<string, unknown>> | undefined
}

const decodeSent = Schema.decodeUnknownEffect(SendCallsResult)
const decodeStatus = Schema.decodeUnknownEffect(CallsStatus)
const unreadable = (what: string) => () => new SomethingWentWrong({ reason: `The wallet's ${what} could not be read` })

/** Sends `input` with the EVM wallet in front; the batch's id. */
export const sendCalls = Effect.fn("sendCalls")(function* (input: SendCallsInput) {
  const connection = yield* Connection
  const caipAddress = (yield* SubscriptionRef.get(connection.state)).namespaces.eip155?.account.caipAddress
  if (caipAddress === undefined) return yield* new CaipNetworkOrAddressUndefined()
  const [, chainId, from] = caipAddress.split(":")
  const request = {
    version: CALLS_VERSION,
    chainId: `0x${Number(chainId).toString(16)}`,
    from,
    atomicRequired: input.atomicRequired ?? true,
    calls: input.calls.map((call) => ({
      to: call.to,
      ...(call.data === undefined ? {} : { data: call.data }),
      ...(call.value === undefined ? {} : { value: `0x${call.value.toString(16)}` })
    })),
    ...(input.capabilities === undefined ? {} : { capabilities: input.capabilities })
  }
  const answer = yield* (yield* WalletActions).request("wallet_sendCalls", [request], "eip155")
  // EIP-5792 2.0.0 answers `{ id }`; wallets of the draft answered the id alone.
  const sent = typeof answer === "string" ? { id: answer } : yield* decodeSent(answer).pipe(Effect.mapError(unreadable("answer to wallet_sendCalls")))
  return sent.id
})

/** Follows batch `id` until it is final: its status with the receipts, or why it failed. */
export const waitForCalls = Effect.fn("waitForCalls")(function* (id: string) {
  const actions = yield* WalletActions
  const status = yield* actions.request("wallet_getCallsStatus", [id], "eip155").pipe(
    Effect.flatMap((answer) => decodeStatus(answer).pipe(Effect.mapError(unreadable("batch status")))),
    Effect.repeat({ until: (answer) => callsOutcome(answer.status) !== "pending", schedule: Schedule.spaced(Duration.millis(CALLS_POLL_MS)) }),
    Effect.timeoutOrElse({ duration: Duration.millis(CALLS_TIMEOUT_MS), orElse: () => Effect.fail(new CallsTimedOut({ id, waitedMs: CALLS_TIMEOUT_MS })) })
  )
  if (callsOutcome(status.status) === "success") return status
  return yield* new CallsFailed({ id, status: status.status, transactionHashes: (status.receipts ?? []).map((receipt) => receipt.transactionHash) })
})
