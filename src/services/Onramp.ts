/**
 * Onramp: the Buy form of the account in front (spec 1 "buy crypto through an on-ramp", 7.4's on-ramp endpoints):
 * what can be bought on its network and paid with, the fiat amount within the provider's limits, a quote 300 ms after
 * the last keystroke with the provider's page for it, and, once the visitor opened that page, a watch on the balance
 * until the coins arrive — bounded, ending in 'Not received yet' with a way to check again. Its implementation
 * (`OnrampLive.ts`) is fetched the first time the form is used.
 */
import { Context, Effect, Layer, Scope, SubscriptionRef } from "effect"
import type { Analytics } from "./Analytics"
import type { BlockchainApi } from "./BlockchainApi"
import type { Connection } from "./Connection"
import type { Modal } from "./Modal"
import type { Networks } from "./Networks"
import { initialOnrampState, type OnrampService, type OnrampState } from "./onrampState"
import type { Portfolio } from "./Portfolio"

/** The Buy form. */
export class Onramp extends Context.Service<Onramp, OnrampService>()("wallet-runtime/Onramp") {
  /** The form; its state exists from the start, the code that runs it is fetched on first use. */
  static readonly layer = Layer.effect(Onramp)(
    Effect.gen(function* () {
      const services = yield* Effect.context<Connection | Networks | Portfolio | BlockchainApi | Modal | Analytics>()
      const scope = yield* Effect.scope
      const state = yield* SubscriptionRef.make<OnrampState>(initialOnrampState)
      const live = yield* Effect.cached(
        Effect.promise(() => import("./OnrampLive")).pipe(
          Effect.flatMap((module) => module.makeOnramp(state)),
          Effect.provideContext(services),
          Effect.provideService(Scope.Scope, scope)
        )
      )
      const via = <A>(use: (form: OnrampService) => Effect.Effect<A>) => Effect.flatMap(live, use)
      return {
        state,
        open: via((form) => form.open),
        prepare: via((form) => form.prepare),
        chooseAsset: (symbol: string) => via((form) => form.chooseAsset(symbol)),
        chooseCurrency: (currency: string) => via((form) => form.chooseCurrency(currency)),
        setAmount: (text: string) => via((form) => form.setAmount(text)),
        started: via((form) => form.started),
        checkAgain: via((form) => form.checkAgain)
      }
    })
  )
}
