/**
 * Atoms of `useSendCalls`, fetched on first use (not in the first click's code): send a batch, follow it to its final
 * status. Families keyed by the calling hook, so two components sending batches never cancel each other.
 */
import * as Atom from "effect/reactivity/Atom"
import { type SendCallsInput, sendCalls, waitForCalls } from "../../services/sendCalls"
import { walletRuntimeAtom } from "./runtime"

/** Sends a batch with the EVM wallet in front; its id. */
export const sendCallsFn = Atom.family((_key: string) => walletRuntimeAtom.fn((input: SendCallsInput) => sendCalls(input)))

/** Follows a batch until it is final (`wallet_getCallsStatus` every second, 120 s at most). */
export const waitForCallsFn = Atom.family((_key: string) => walletRuntimeAtom.fn((id: string) => waitForCalls(id)))
