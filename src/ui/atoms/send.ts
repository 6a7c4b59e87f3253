/**
 * Atoms of the Send and Receive views: the send form's state (from the Send service) and its actions — open it (on
 * an NFT), prepare it for the account in front, choose, type, Max, review, confirm, finish.
 */
import { Effect } from "effect"
import * as AsyncResult from "effect/reactivity/AsyncResult"
import type * as Atom from "effect/reactivity/Atom"
import { Send } from "../../services/Send"
import type { SendStart, SendState } from "../../services/sendState"
import { mapAtom, stateAtom, walletRuntimeAtom } from "./runtime"

/** The send form's state, as the service holds it. */
const sendStateAtom = stateAtom(Effect.map(Send, (send) => send.state))

/** The send form, or `undefined` while the runtime starts. */
export const sendAtom: Atom.Atom<SendState | undefined> = mapAtom(sendStateAtom, (result) => AsyncResult.getOrElse(result, () => undefined))

/** Opens a fresh send form for the account in front, on an NFT when given. */
export const openSendFn = walletRuntimeAtom.fn((start: SendStart) => Effect.flatMap(Send, (send) => send.open(start)))

/** Starts the form when it is not the account in front's (the Send view was opened another way). */
export const prepareSendFn = walletRuntimeAtom.fn((_: void) => Effect.flatMap(Send, (send) => send.prepare))

/** Reads what the account can send again. */
export const reloadSendFn = walletRuntimeAtom.fn((_: void) => Effect.flatMap(Send, (send) => send.reload))

/** Chooses what to send, by its id. */
export const chooseSendAssetFn = walletRuntimeAtom.fn((assetId: string) => Effect.flatMap(Send, (send) => send.choose(assetId)))

/** The amount as the visitor types it. */
export const setSendAmountFn = walletRuntimeAtom.fn((text: string) => Effect.flatMap(Send, (send) => send.setAmount(text)))

/** The receiver (an address or a name) as the visitor types it. */
export const setSendReceiverFn = walletRuntimeAtom.fn((text: string) => Effect.flatMap(Send, (send) => send.setReceiver(text)))

/** Fills in the most that can be sent. */
export const sendMaxFn = walletRuntimeAtom.fn((_: void) => Effect.flatMap(Send, (send) => send.useMax))

/** Checks the form and opens the review when it passes. */
export const reviewSendFn = walletRuntimeAtom.fn((_: void) => Effect.flatMap(Send, (send) => send.review))

/** Sends the reviewed transfer (again, after a failure). */
export const confirmSendFn = walletRuntimeAtom.fn((_: void) => Effect.flatMap(Send, (send) => send.confirm))

/** Ends a send: a fresh form, back on the account. */
export const finishSendFn = walletRuntimeAtom.fn((_: void) => Effect.flatMap(Send, (send) => send.finish))
