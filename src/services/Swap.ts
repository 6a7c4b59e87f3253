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
import { initialSwapState, type SwapService, type SwapState } from "./swapState"
import type { WalletActions } from "./WalletActions"

/** The swap form. */
export class Swap extends Context.Service<Swap, SwapService>()("wallet-runtime/Swap") {
  /** The form; its state exists from the start, the code that runs it is fetched on first use. */
  static readonly layer = Layer.effect(Swap)(
    Effect.gen(function* () {
      const services = yield* Effect.context<Connection | Networks | Portfolio | BlockchainApi | WalletActions | Modal | Analytics>()
      const scope = yield* Effect.scope
      const state = yield* SubscriptionRef.make<SwapState>(initialSwapState)
      const live = yield* Effect.cached(
        Effect.promise(() => import("./SwapLive")).pipe(
          Effect.flatMap((module) => module.makeSwap(state)),
          Effect.provideContext(services),
          Effect.provideService(Scope.Scope, scope)
        )
      )
      const via = <A>(use: (form: SwapService) => Effect.Effect<A>) => Effect.flatMap(live, use)
      return {
        state,
        warm: Effect.asVoid(Effect.forkIn(Effect.ignore(live), scope)),
        open: via((form) => form.open),
        prepare: via((form) => form.prepare),
        choose: (side: "from" | "to", address: string) => via((form) => form.choose(side, address)),
        flip: via((form) => form.flip),
        setAmount: (text: string) => via((form) => form.setAmount(text)),
        useMax: via((form) => form.useMax),
        refresh: via((form) => form.refresh),
        approve: via((form) => form.approve),
        swap: via((form) => form.swap),
        reset: via((form) => form.reset)
      }
    })
  )
}
