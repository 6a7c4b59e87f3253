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
import { lazyFront } from "./lazyFront"
import { initialOnrampState, type OnrampService, type OnrampState } from "./onrampState"
import type { Portfolio } from "./Portfolio"

/** The Buy form. */
export class Onramp extends Context.Service<Onramp, OnrampService>()("wallet-runtime/Onramp") {
  /** The form; its state exists from the start, the code that runs it is fetched on first use. */
  static readonly layer = Layer.effect(Onramp)(
    Effect.gen(function* () {
      const state = yield* SubscriptionRef.make<OnrampState>(initialOnrampState)
      const { front } = yield* lazyFront<OnrampService, Connection | Networks | Portfolio | BlockchainApi | Modal | Analytics | Scope.Scope, "state">(
        Effect.flatMap(
          Effect.promise(() => import("./formsLive").then((forms) => forms.loadOnrampLive())),
          (module) => module.makeOnramp(state)
        ),
        { open: 0, prepare: 0, chooseAsset: 1, chooseCurrency: 1, setAmount: 1, started: 0, checkAgain: 0 }
      )
      return { ...front, state }
    })
  )
}
