/**
 * Swap: the swap form of the account in front (spec 1 "swap tokens", 7.4's `/v1/convert/*`) and every decision it
 * takes: the tokens offered (the swappable list with the visitor's balances), the amount checked before any request,
 * quotes asked 300 ms after the last keystroke and again every 15 s, the approval when the router's allowance is short,
 * the swap built at spec 9's 1 % slippage, sent through WalletActions and followed to its end — in its own scope, so
 * closing the modal never cuts it short. Its state is a SubscriptionRef the Swap view renders; its implementation
 * (`SwapLive.ts`) is fetched the first time the form is used, so a page that never swaps never loads it.
 */
import { Context, Effect, Layer, Scope, SubscriptionRef } from "effect"
import type { Analytics } from "./Analytics"
import type { BlockchainApi } from "./BlockchainApi"
import type { Connection } from "./Connection"
import type { Modal } from "./Modal"
import type { Networks } from "./Networks"
import type { Portfolio } from "./Portfolio"
import { lazyFront } from "./lazyFront"
import { initialSwapState, type SwapService, type SwapState } from "./swapState"
import type { WalletActions } from "./WalletActions"

/** The swap form. */
export class Swap extends Context.Service<Swap, SwapService>()("wallet-runtime/Swap") {
  /** The form; its state exists from the start, the code that runs it is fetched on first use. */
  static readonly layer = Layer.effect(Swap)(
    Effect.gen(function* () {
      const state = yield* SubscriptionRef.make<SwapState>(initialSwapState)
      const { live, front } = yield* lazyFront<SwapService, Connection | Networks | Portfolio | BlockchainApi | WalletActions | Modal | Analytics | Scope.Scope, "state" | "warm">(
        Effect.flatMap(
          Effect.promise(() => import("./formsLive").then((forms) => forms.loadSwapLive())),
          (module) => module.makeSwap(state)
        ),
        { open: 0, prepare: 0, choose: 1, flip: 0, setAmount: 1, useMax: 0, refresh: 0, approve: 0, swap: 0, reset: 0 }
      )
      const scope = yield* Effect.scope
      return { ...front, state, warm: Effect.asVoid(Effect.forkIn(Effect.ignore(live), scope)) }
    })
  )
}
