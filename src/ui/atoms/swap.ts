/**
 * Atoms of the Swap view: the swap form's state (from the Swap service) and its actions — open it, prepare it for the
 * account in front, choose the tokens, flip them, type the amount, Max, refresh the quote, approve, swap, start again.
 */
import { Effect } from "effect"
import * as AsyncResult from "effect/reactivity/AsyncResult"
import * as Atom from "effect/reactivity/Atom"
import { Swap } from "../../services/Swap"
import type { SwapState } from "../../services/swapState"
import { mapAtom, stateAtom, walletRuntimeAtom } from "./runtime"

const swapStateAtom = stateAtom(Effect.map(Swap, (swap) => swap.state))

/** The swap form, or `undefined` while the runtime starts. */
export const swapAtom: Atom.Atom<SwapState | undefined> = mapAtom(swapStateAtom, (result) => AsyncResult.getOrElse(result, () => undefined))

/** Fetches the swap form's code ahead of a click. */
export const warmSwapFn = walletRuntimeAtom.fn((_: void) => Effect.flatMap(Swap, (swap) => swap.warm))

/** Opens a fresh swap form for the account in front. */
export const openSwapFn = walletRuntimeAtom.fn((_: void) => Effect.flatMap(Swap, (swap) => swap.open))

/** Starts the form when it is not the account in front's. */
export const prepareSwapFn = walletRuntimeAtom.fn((_: void) => Effect.flatMap(Swap, (swap) => swap.prepare))

/** Chooses the token sold or bought. */
export const chooseSwapTokenFn = walletRuntimeAtom.fn((choice: { readonly side: "from" | "to"; readonly address: string }) =>
  Effect.flatMap(Swap, (swap) => swap.choose(choice.side, choice.address))
)

/** Swaps the sold and bought tokens. */
export const flipSwapFn = walletRuntimeAtom.fn((_: void) => Effect.flatMap(Swap, (swap) => swap.flip))

/** The amount as the visitor types it. */
export const setSwapAmountFn = walletRuntimeAtom.fn((text: string) => Effect.flatMap(Swap, (swap) => swap.setAmount(text)))

/** Fills in the most that can be sold. */
export const swapMaxFn = walletRuntimeAtom.fn((_: void) => Effect.flatMap(Swap, (swap) => swap.useMax))

/** Asks the quote again now. */
export const refreshSwapQuoteFn = walletRuntimeAtom.fn((_: void) => Effect.flatMap(Swap, (swap) => swap.refresh))

/** Lets the swap spend the token sold. */
export const approveSwapFn = walletRuntimeAtom.fn((_: void) => Effect.flatMap(Swap, (swap) => swap.approve))

/** Makes the swap quoted. */
export const makeSwapFn = walletRuntimeAtom.fn((_: void) => Effect.flatMap(Swap, (swap) => swap.swap))

/** A fresh form after a swap. */
export const resetSwapFn = walletRuntimeAtom.fn((_: void) => Effect.flatMap(Swap, (swap) => swap.reset))
