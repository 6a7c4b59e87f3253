/**
 * Atoms of the Swap view: the swap form's state (from the Swap service) and its actions — open it, prepare it for the
 * account in front, choose the tokens, flip them, type the amount, Max, refresh the quote, approve, swap, start again.
 */
import { Effect } from "effect"
import * as AsyncResult from "effect/reactivity/AsyncResult"
import * as Atom from "effect/reactivity/Atom"
import { Swap } from "../../services/Swap"
import type { SwapState } from "../../services/swapState"
import { laterServiceRuntime, laterStateAtom } from "./laterServices"
import { mapAtom } from "./runtime"

// The form's service is built when one of these atoms is first read, not with the runtime.
const swapRuntime = laterServiceRuntime(Swap.layer)

const swapStateAtom = laterStateAtom(swapRuntime, Effect.map(Swap, (swap) => swap.state))

/** The swap form, or `undefined` while the runtime starts. */
export const swapAtom: Atom.Atom<SwapState | undefined> = mapAtom(swapStateAtom, (result) => AsyncResult.getOrElse(result, () => undefined))

/** Fetches the swap form's code ahead of a click. */
export const warmSwapFn = swapRuntime.fn((_: void) => Effect.flatMap(Swap, (swap) => swap.warm))

/** Opens a fresh swap form for the account in front. */
export const openSwapFn = swapRuntime.fn((_: void) => Effect.flatMap(Swap, (swap) => swap.open))

/** Starts the form when it is not the account in front's. */
export const prepareSwapFn = swapRuntime.fn((_: void) => Effect.flatMap(Swap, (swap) => swap.prepare))

/** Chooses the token sold or bought. */
export const chooseSwapTokenFn = swapRuntime.fn((choice: { readonly side: "from" | "to"; readonly address: string }) =>
  Effect.flatMap(Swap, (swap) => swap.choose(choice.side, choice.address))
)

/** Swaps the sold and bought tokens. */
export const flipSwapFn = swapRuntime.fn((_: void) => Effect.flatMap(Swap, (swap) => swap.flip))

/** The amount as the visitor types it. */
export const setSwapAmountFn = swapRuntime.fn((text: string) => Effect.flatMap(Swap, (swap) => swap.setAmount(text)))

/** Fills in the most that can be sold. */
export const swapMaxFn = swapRuntime.fn((_: void) => Effect.flatMap(Swap, (swap) => swap.useMax))

/** Asks the quote again now. */
export const refreshSwapQuoteFn = swapRuntime.fn((_: void) => Effect.flatMap(Swap, (swap) => swap.refresh))

/** Lets the swap spend the token sold. */
export const approveSwapFn = swapRuntime.fn((_: void) => Effect.flatMap(Swap, (swap) => swap.approve))

/** Makes the swap quoted. */
export const makeSwapFn = swapRuntime.fn((_: void) => Effect.flatMap(Swap, (swap) => swap.swap))

/** A fresh form after a swap. */
export const resetSwapFn = swapRuntime.fn((_: void) => Effect.flatMap(Swap, (swap) => swap.reset))
