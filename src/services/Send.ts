/**
 * Send: the send form of the account in front and every decision it takes (spec points 5, 7.7 and 8). It lists what
 * can be sent (the native coin and tokens of the account's portfolio, priced in USD, or read from the chain when the
 * service has none; or the NFT the visitor chose in the NFTs tab), holds what the visitor typed, looks a receiver's
 * name up through the names endpoints (300 ms after the last keystroke), fills Max (the native coin less its fee),
 * checks every rule of spec 5 and the gas check against a fee estimated from the chain, opens the review, then sends
 * through WalletActions and follows the transaction to its end — in its own scope, so closing the modal never cuts
 * it short. Its state is a SubscriptionRef the views render; failures are kept as typed errors, put in the visitor's
 * words by the views' one map.
 */
import { Context, Effect, Layer, Scope, SubscriptionRef } from "effect"
import type { BlockchainApi } from "./BlockchainApi"
import type { ChainAdapters } from "./ChainAdapter"
import type { Connection } from "./Connection"
import type { Modal } from "./Modal"
import type { Networks } from "./Networks"
import type { Portfolio } from "./Portfolio"
import { initialSendState, type SendService, type SendStart, type SendState } from "./sendState"
import type { WalletActions } from "./WalletActions"

/** The send form. */
export class Send extends Context.Service<Send, SendService>()("wallet-runtime/Send") {
  /**
   * The form over the account's portfolio, its chain and its wallet. Its state exists from the start (the views read
   * it); the code that runs it is fetched on first use, with the services it needs taken now.
   */
  static readonly layer = Layer.effect(Send)(
    Effect.gen(function* () {
      const services = yield* Effect.context<Connection | Networks | Portfolio | BlockchainApi | ChainAdapters | WalletActions | Modal>()
      const scope = yield* Effect.scope
      const state = yield* SubscriptionRef.make<SendState>(initialSendState)
      const live = yield* Effect.cached(
        Effect.promise(() => import("./SendLive")).pipe(
          Effect.flatMap((module) => module.makeSend(state)),
          Effect.provideContext(services),
          Effect.provideService(Scope.Scope, scope)
        )
      )
      const via = <A>(use: (form: SendService) => Effect.Effect<A>) => Effect.flatMap(live, use)
      return {
        state,
        open: (start?: SendStart) => via((form) => form.open(start)),
        prepare: via((form) => form.prepare),
        reload: via((form) => form.reload),
        choose: (assetId: string) => via((form) => form.choose(assetId)),
        setAmount: (text: string) => via((form) => form.setAmount(text)),
        setReceiver: (text: string) => via((form) => form.setReceiver(text)),
        useMax: via((form) => form.useMax),
        review: via((form) => form.review),
        confirm: via((form) => form.confirm),
        finish: via((form) => form.finish)
      }
    })
  )
}
