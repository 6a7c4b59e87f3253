/**
 * Siwx: sign-in with the wallet (spec point 4). When the host sets `siwx` (its own backend, or `servicesSiwx()` on
 * our services) or the legacy `siweConfig`, every account put in front — by connecting, restoring after a reload,
 * or switching account or network — is checked for a session; without one the SIWXSignMessage view asks the visitor
 * to sign. Success keeps the session and closes the modal; a refusal stays on the view with 'Signature declined';
 * cancelling disconnects when sign-in is required and otherwise closes; when required, the modal cannot be closed
 * without a session. Its state is a SubscriptionRef the views and hooks render. The code that runs it (message
 * texts, the host's backend at the edge) is fetched only when the host configured sign-in. Where a connector can sign
 * in while it connects (WalletConnect's one-click sign-in), `oneClick` gives it the message fields and keeps what the
 * wallet signed there, so the connect flow's step finds the session and asks nothing: one step instead of two.
 */
import { Context, Effect, Layer, Option, Scope, SubscriptionRef } from "effect"
import type { SiwxSession } from "../../domain/Siwx"
import type { BlockchainApi } from "../BlockchainApi"
import { Config } from "../Config"
import type { ConnectedWallet, Connection } from "../Connection"
import { SignInStep } from "../ConnectFlow"
import type { Modal } from "../Modal"
import type { Platform } from "../Platform"
import type { Storage } from "../Storage/Storage"
import type { WalletActions } from "../WalletActions"
import type { SiwxService, SiwxState } from "./siwxState"

export type { SiwxAccount, SiwxError, SiwxOneClick, SiwxService, SiwxState, SiwxStep } from "./siwxState"

/** Whom the visitor signs in to when the host gave no name. */
const THIS_SITE = "this site"

/** Sign-in. */
export class Siwx extends Context.Service<Siwx, SiwxService>()("wallet-runtime/Siwx") {
  /**
   * Sign-in as the host configured it, and the connect flow's sign-in step. Without `siwx` or `siweConfig` it does
   * nothing and fetches nothing; with one, its code is fetched at start (a restored account is checked) and runs in
   * the runtime's scope.
   */
  static readonly layer: Layer.Layer<
    Siwx | SignInStep,
    never,
    Config | Connection | Modal | WalletActions | BlockchainApi | Storage | Platform
  > = Layer.effectContext(
    Effect.gen(function* () {
      const config = yield* Config
      const configured = config.siwx ?? config.siweConfig
      if (configured === undefined) {
        const state = yield* SubscriptionRef.make<SiwxState>({ required: false, siteName: THIS_SITE, step: { _tag: "Disabled" } })
        const service: SiwxService = {
          state,
          signIn: Effect.void,
          cancel: Effect.void,
          signOut: Effect.void,
          afterConnect: () => Effect.succeed(undefined),
          oneClick: undefined
        }
        // A sign-in step given by the environment (a test's, a host's own layer) stays the one the flow uses.
        const outer = yield* Effect.serviceOption(SignInStep)
        const step = Option.getOrElse(outer, () => ({ afterConnect: () => Effect.succeed(undefined) }))
        return Context.make(Siwx, service).pipe(Context.add(SignInStep, step))
      }
      const services = yield* Effect.context<Config | Connection | Modal | WalletActions | BlockchainApi | Storage | Platform>()
      const scope = yield* Effect.scope
      const state = yield* SubscriptionRef.make<SiwxState>({
        required: false,
        siteName: config.metadata?.name ?? THIS_SITE,
        step: { _tag: "SignedOut" }
      })
      const live = yield* Effect.cached(
        Effect.promise(() => import("./SiwxLive")).pipe(
          Effect.flatMap((module) => module.makeSiwx(state, configured, config.siwx !== undefined ? "siwx" : "siweConfig")),
          Effect.provideContext(services),
          Effect.provideService(Scope.Scope, scope)
        )
      )
      // Started at once, in the background: a restored account is checked without holding the page up.
      yield* Effect.forkIn(live, scope)
      const via = <A, E>(use: (siwx: SiwxService) => Effect.Effect<A, E>) => Effect.flatMap(live, use)
      const service: SiwxService = {
        state,
        signIn: via((siwx) => siwx.signIn),
        cancel: via((siwx) => siwx.cancel),
        signOut: via((siwx) => siwx.signOut),
        afterConnect: (wallet) => via((siwx) => siwx.afterConnect(wallet)),
        oneClick: {
          fields: (chains) => via((siwx) => siwx.oneClick?.fields(chains) ?? Effect.succeed(undefined)),
          keep: (signed) => via((siwx) => siwx.oneClick?.keep(signed) ?? Effect.succeed(0))
        }
      }
      return Context.make(Siwx, service).pipe(
        Context.add(SignInStep, { afterConnect: (wallet: ConnectedWallet) => service.afterConnect(wallet) })
      )
    })
  )
}

/** The session of the account in front, if it is signed in. */
export const sessionOf = (state: SiwxState): Option.Option<SiwxSession> =>
  state.step._tag === "SignedIn" && state.step.session !== undefined ? Option.some(state.step.session) : Option.none()
