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
import { lazyFront } from "./lazyFront"
import { initialSendState, type SendService, type SendState } from "./sendState"
import type { WalletActions } from "./WalletActions"

/** The send form. */
export class Send extends Context.Service<Send, SendService>()("wallet-runtime/Send") {
  /**
   * The form over the account's portfolio, its chain and its wallet. Its state exists from the start (the views read
   * it); the code that runs it is fetched on first use, with the services it needs taken now.
   */
  static readonly layer = Layer.effect(Send)(
    Effect.gen(function* () {
      const state = yield* SubscriptionRef.make<SendState>(initialSendState)
      const { front } = yield* lazyFront<SendService, Connection | Networks | Portfolio | BlockchainApi | ChainAdapters | WalletActions | Modal | Scope.Scope, "state">(
        Effect.flatMap(
          Effect.promise(() => import("./SendLive")),
          (module) => module.makeSend(state)
        ),
        { open: 1, prepare: 0, reload: 0, choose: 1, setAmount: 1, setReceiver: 1, useMax: 0, review: 0, confirm: 0, finish: 0 }
      )
      return { ...front, state }
    })
  )
}
