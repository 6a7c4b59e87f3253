/**
 * What the AUTH connector (in the runtime from the start) and its implementation (`./authLive`, fetched on first
 * use) agree on: the approval gate its providers wait on, and how loading the frame can fail.
 */
import type { Effect } from "effect"
import type { ChainNamespace } from "../../domain/Caip"
import type { EmailLoginDependencyFailed, FrameLoadTimedOut, FrameNotSet, RpcMethodNotAllowed } from "../../domain/errors"
import type { WalletRequestError } from "../../domain/walletErrors"
import type { ApprovalSummary } from "./embeddedState"

export type { FrameBridgeService } from "../FrameBridge/FrameBridge"

/** Why the frame could not be used: its code did not load, no page to put it in, or it never said READY. */
export type FrameLoadFailure = EmailLoginDependencyFailed | FrameLoadTimedOut | FrameNotSet

/** An unsafe request for the visitor to approve. */
export interface ApprovalRequest {
  readonly namespace: ChainNamespace
  readonly method: string
  /** The network it is for (CAIP-2). */
  readonly chainId: string
  readonly summary: ApprovalSummary
}

/** What the embedded wallet's providers ask of the modal: approval first, and the not-allowed message. */
export interface ApprovalGate {
  /**
   * Shows ApproveTransaction (one request at a time) and waits; approved, runs `ask` (the frame signs or sends),
   * then closes the modal or pops its step, refreshing the balance on success. Refused, or the modal closed: a
   * rejection (4001), and `ask` never runs.
   */
  readonly approved: <A, E>(request: ApprovalRequest, ask: Effect.Effect<A, E>) => Effect.Effect<A, E | WalletRequestError>
  /** A method nobody may call: the modal says so after 300 ms and rejects the open requests. */
  readonly disallowed: (method: string) => Effect.Effect<never, RpcMethodNotAllowed>
}
