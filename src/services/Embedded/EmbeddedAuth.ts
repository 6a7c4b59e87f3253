/**
 * The embedded wallet's AUTH connector: one connector serving eip155 and solana through one email login, listed by
 * the Connectors registry (never as a wallet row: the Connect view shows the email field for it). It is small: the
 * frame, its bridge and the families' providers are fetched the first time they are needed (the visitor chose email,
 * or an embedded session is restored). Unsafe requests wait on an approval gate that the EmbeddedWallet service
 * (above the connectors, with the modal) sets.
 */
import { Context, Deferred, Effect, Layer, Option, PubSub, Scope, Stream } from "effect"
import type { Account, EmbeddedAccountType } from "../../domain/Account"
import type { ChainNamespace } from "../../domain/Caip"
import { EmailLoginDependencyFailed, SomethingWentWrong } from "../../domain/errors"
import { offeredSocials } from "../../domain/validation"
import { Config, namespacesOf } from "../Config"
import type { Connector, WalletEvent } from "../connectors/Connector"
import { Storage } from "../Storage/Storage"
import type { ApprovalGate, FrameBridgeService, FrameLoadFailure } from "./authState"
import { forgetLogin } from "./loginCache"

export type { ApprovalGate, ApprovalRequest, FrameBridgeService, FrameLoadFailure } from "./authState"

/** The AUTH connector's id (stored with a session, so a reload restores it). */
export const EMBEDDED_CONNECTOR_ID = "embedded"

/** The families the embedded wallet serves. */
export const EMBEDDED_NAMESPACES: ReadonlyArray<ChainNamespace> = ["eip155", "solana"]

/** The embedded wallet's connector and frame. */
export class EmbeddedAuth extends Context.Service<
  EmbeddedAuth,
  {
    readonly connector: Connector
    /** The frame's bridge, loading the frame on first use (bounded: a frame that never says READY fails). */
    readonly frame: Effect.Effect<FrameBridgeService, FrameLoadFailure>
    /** Whether the frame was loaded in this page (sign-out needs no frame that never loaded). */
    readonly frameLoaded: Effect.Effect<boolean>
    /** Waits, without loading it, until the frame was loaded and said READY; then its bridge. */
    readonly whenLoaded: Effect.Effect<FrameBridgeService>
    /**
     * Puts the embedded wallet's EVM account of `type` in front (the Account view's switch); its accounts afterwards,
     * the one in front first. Fails with the frame's words.
     */
    readonly setPreferredAccount: (type: EmbeddedAccountType) => Effect.Effect<ReadonlyArray<Account>, { readonly message: string }>
    /**
     * Sets the approval gate (the EmbeddedWallet service does, once, when it is built): the embedded wallet's flows,
     * fetched and built when first run.
     */
    readonly setGate: (gate: Effect.Effect<ApprovalGate>) => Effect.Effect<void>
  }
>()("wallet-runtime/EmbeddedAuth") {
  /**
   * The AUTH connector of a host offering email login (`features.email`, and eip155 or solana among its networks);
   * no service otherwise (read it with `Effect.serviceOption`).
   */
  static readonly layer: Layer.Layer<never, never, Config | Storage> = Layer.effectContext(
    Effect.suspend(() => EmbeddedAuth.make).pipe(
      Effect.map(Option.match({ onNone: () => Context.empty(), onSome: (service) => Context.make(EmbeddedAuth, service) }))
    )
  )

  /** The connector and its frame, over the host's configuration; none when the host offers no email login. */
  static readonly make: Effect.Effect<
    Option.Option<Context.Service.Shape<typeof EmbeddedAuth>>,
    never,
    Config | Storage | Scope.Scope
  > = Effect.gen(function* () {
    const config = yield* Config
    const storage = yield* Storage
    const families = namespacesOf(config).filter((namespace) => EMBEDDED_NAMESPACES.includes(namespace))
    // Email login, a passkey, or any social login (the mini-app's OS is not known here: the Connect view filters by it).
    const logins = config.features.email || config.features.passkey || offeredSocials(config.features.socials, undefined).length > 0
    if (!logins || families.length === 0) return Option.none()
    const scope = yield* Effect.scope
    const events = yield* PubSub.unbounded<WalletEvent>()
    let gate: Effect.Effect<ApprovalGate> | undefined
    let loaded = false
    const ready = yield* Deferred.make<FrameBridgeService>()
    const live = yield* Effect.cached(
      Effect.tryPromise({ try: () => import("./authLive"), catch: () => new EmailLoginDependencyFailed() }).pipe(
        Effect.flatMap((module) =>
          module.makeAuthLive({
            config,
            storage,
            gate: () => gate,
            emit: (event) => PubSub.publish(events, event).pipe(Effect.asVoid)
          })
        ),
        Effect.tap((auth) => Effect.andThen(Effect.sync(() => (loaded = true)), Deferred.succeed(ready, auth.bridge))),
        Effect.provideService(Scope.Scope, scope)
      )
    )
    const loadedForConnect = Effect.mapError(live, (error) => new SomethingWentWrong({ reason: error.message }))
    const connector: Connector = {
      info: {
        id: EMBEDDED_CONNECTOR_ID,
        name: "Email",
        type: "AUTH",
        chain: families[0]!,
        chains: config.networks.filter((network) => families.includes(network.chainNamespace)).map((network) => network.caipNetworkId)
      },
      namespaces: families,
      memberIds: [],
      connect: (networks) => Effect.flatMap(loadedForConnect, (auth) => auth.connect(networks)),
      // A frame that cannot load is no session to restore: the login is forgotten with it.
      reconnect: (networks) =>
        Effect.flatMap(Effect.tapError(loadedForConnect, () => forgetLogin(storage)), (auth) => auth.reconnect(networks)),
      // Signing out needs the frame only if this page loaded it; the login cache is forgotten either way.
      disconnect: Effect.suspend(() =>
        loaded
          ? Effect.flatMap(Effect.orDie(live), (auth) => auth.disconnect)
          : forgetLogin(storage)
      ),
      events: Stream.fromPubSub(events)
    }
    return Option.some({
      connector,
      frame: Effect.map(live, (auth) => auth.bridge),
      frameLoaded: Effect.sync(() => loaded),
      whenLoaded: Deferred.await(ready),
      setPreferredAccount: (type: EmbeddedAccountType) => Effect.flatMap(loadedForConnect, (auth) => auth.setPreferredAccount(type)),
      setGate: (next: Effect.Effect<ApprovalGate>) => Effect.sync(() => void (gate = next))
    })
  })
}
