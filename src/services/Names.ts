/**
 * Names: registering an account name for the account in front and every decision it takes (spec points 2, 4, 5, 8
 * and 9). It checks what the visitor types against the rules (at least 4 letters, digits or hyphens, ENSIP-15), asks
 * the name's availability and suggestions under the suffix 300 ms after the last keystroke (the latest input wins),
 * and registers: RegisterAccountNameSuccess first, the name message signed by the wallet, `POST /v1/profile/account`;
 * on failure back on RegisterAccountName with the service's description or 'Error registering name {name}'. Names are
 * for EVM accounts on chains whose id is below 2147483648. Its state is a SubscriptionRef the views render; its code
 * (and the ENSIP-15 tables) is fetched the first time the form is used.
 */
import { Context, Effect, Layer, Scope, SubscriptionRef } from "effect"
import type { BlockchainApi } from "./BlockchainApi"
import { Config } from "./Config"
import type { Connection } from "./Connection"
import type { Modal } from "./Modal"
import { lazyFront } from "./lazyFront"
import { initialNamesState, type NamesService, type NamesState } from "./namesState"
import type { Networks } from "./Networks"
import type { Notifications } from "./Notifications"
import type { WalletActions } from "./WalletActions"

/** The name-registration form. */
export class Names extends Context.Service<Names, NamesService>()("wallet-runtime/Names") {
  /**
   * The form over the account in front, its wallet and the names endpoints. Its state exists from the start (the
   * views and the account's name read it); the code that runs it is fetched on first use, with the services it needs
   * taken now.
   */
  static readonly layer = Layer.effect(Names)(
    Effect.gen(function* () {
      const config = yield* Config
      const state = yield* SubscriptionRef.make<NamesState>(initialNamesState(config.nameSuffix))
      const revision = yield* SubscriptionRef.make(0)
      const { front } = yield* lazyFront<NamesService, Connection | Networks | BlockchainApi | WalletActions | Modal | Notifications | Scope.Scope, "state" | "revision">(
        Effect.flatMap(
          Effect.promise(() => import("./NamesLive")),
          (module) => module.makeNames(state, revision)
        ),
        { open: 0, prepare: 0, setInput: 1, choose: 1, register: 1, finish: 0 }
      )
      return { ...front, state, revision }
    })
  )
}
