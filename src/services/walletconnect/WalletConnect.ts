/**
 * WalletConnect: the remote-protocol connector, one session for every family it serves (eip155 and solana). It is
 * listed at once; its session code (`./session`, with our sign client) is fetched with `import()` only when
 * the visitor chooses WalletConnect or a stored session is restored. It owns the pairing URI the views show (it
 * lives 4 minutes and is replaced 10 s before it expires, by the Clock) and the session. Each family's adapter
 * reaches the session through a provider of its own kind: an EIP-1193 facade for eip155, a SolanaProvider for solana.
 */
import { Context, Effect, Layer, PubSub, Scope, Semaphore, Stream, SubscriptionRef } from "effect"
import type { Alert } from "../../domain/alerts"
import type { HostOptions } from "../../domain/Options"
import { walletErrorOf } from "../../domain/walletErrors"
import { Config, networksOf } from "../Config"
import type { Connector, WalletEvent } from "../connectors/Connector"
import {
  type OneClickSignIn,
  type PairingState,
  type WalletConnectSession,
  type WalletConnectSettings,
  WALLET_CONNECT_NAMESPACES,
  WalletConnectRequestFailed
} from "./types"

export {
  type OneClickFields,
  type OneClickSigned,
  type OneClickSignIn,
  type PairingState,
  type WalletConnectSettings,
  WalletConnectRequestFailed
} from "./types"

/** The connector id of WalletConnect, in every family it serves. */
export const WALLET_CONNECT_CONNECTOR_ID = "walletConnect"

/**
 * WalletConnect's mark as visitors know it (the white bridge on its blue tile), drawn here as a `data:` URL: the row
 * shows it at once and nothing is fetched for it.
 */
export const WALLET_CONNECT_ICON = `data:image/svg+xml,${encodeURIComponent(
  `<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96" viewBox="0 0 96 96">` +
    `<rect width="96" height="96" rx="24" fill="#3396FF"/>` +
    `<path fill="#fff" d="M29.4 36.6c10.3-10.1 26.9-10.1 37.2 0l1.2 1.2a1.3 1.3 0 0 1 0 1.8l-4.2 4.1a.6.6 0 0 1-.9 0l-1.7-1.7` +
    `c-7.2-7-18.8-7-26 0l-1.8 1.8a.6.6 0 0 1-.9 0l-4.2-4.1a1.3 1.3 0 0 1 0-1.8zm45.8 8.5 3.8 3.7a1.3 1.3 0 0 1 0 1.8L61.9 67.3` +
    `a1.3 1.3 0 0 1-1.9 0L48.3 55.8a.3.3 0 0 0-.5 0L36 67.3a1.3 1.3 0 0 1-1.9 0L17 50.6a1.3 1.3 0 0 1 0-1.8l3.8-3.7` +
    `a1.3 1.3 0 0 1 1.9 0l11.9 11.6a.3.3 0 0 0 .5 0L46.8 45.1a1.3 1.3 0 0 1 1.9 0l11.9 11.6a.3.3 0 0 0 .5 0l11.9-11.6` +
    `a1.3 1.3 0 0 1 1.9 0z"/></svg>`
)}`

/** The WalletConnect connector. */
export class WalletConnect extends Context.Service<
  WalletConnect,
  {
    /** The connector, serving every configured family WalletConnect can; `undefined` when no projectId is configured. */
    readonly connector: Connector | undefined
    /** The pairing URI and its expiry, for the views. */
    readonly pairing: SubscriptionRef.SubscriptionRef<PairingState>
    /** The URI, replaced first when it has expired: what a view shows or a deep link carries. */
    readonly freshUri: Effect.Effect<string | undefined>
    /** Replaces the URI now (the visitor pressed Retry). */
    readonly replaceUri: Effect.Effect<void>
    /** Stops pairing (the visitor left the view); a later connect starts again. */
    readonly cancel: Effect.Effect<void>
    /** Alerts raised by relay errors (origin not allowed, invalid key, token not yet valid), each once. */
    readonly alerts: Stream.Stream<Alert>
    /** Whether the sign client was loaded (it must not be before the visitor chooses WalletConnect). */
    readonly loaded: Effect.Effect<boolean>
    /**
     * Fetches the session's code ahead of a likely choice (the visitor's pointer or finger on WalletConnect's row): our
     * own files only; the client, and any request to the relay, still wait for the choice. A failed fetch is left for
     * the choice to try again.
     */
    readonly preload: Effect.Effect<void>
    /**
     * Gives the connector the site's sign-in (the runtime does, when the host configured sign-in): pairings then use
     * one-click sign-in where it applies, and the sessions signed there are kept before the connect goes on.
     */
    readonly useSignIn: (signIn: OneClickSignIn) => Effect.Effect<void>
  }
>()("wallet-runtime/WalletConnect") {
  /** The live connector over the host options. */
  static readonly layer: Layer.Layer<WalletConnect, never, Config> = Layer.effect(WalletConnect)(
    Effect.flatMap(Effect.service(Config), (config) => makeWalletConnect(config, {}))
  )

  /** The live connector with client settings (tests: a storage prefix and an in-memory database). */
  static readonly layerWith = (settings: WalletConnectSettings): Layer.Layer<WalletConnect, never, Config> =>
    Layer.effect(WalletConnect)(Effect.flatMap(Effect.service(Config), (config) => makeWalletConnect(config, settings)))
}

/** Makes the connector; its session code (and our sign client) is fetched on the first connect or restore. */
export const makeWalletConnect = (
  options: HostOptions,
  settings: WalletConnectSettings
): Effect.Effect<WalletConnect["Service"], never, Scope.Scope> =>
  Effect.gen(function* () {
    const projectId = options.projectId?.trim() ?? ""
    const served = WALLET_CONNECT_NAMESPACES.filter((namespace) => networksOf(options, namespace).length > 0)
    const pairing = yield* SubscriptionRef.make<PairingState>({ _tag: "Idle" })
    const alerts = yield* PubSub.unbounded<Alert>()
    const events = yield* PubSub.unbounded<WalletEvent>()
    const scope = yield* Effect.scope
    const loading = yield* Semaphore.make(1)
    let session: WalletConnectSession | undefined
    let signIn: OneClickSignIn | undefined

    // One fetch of the session code; a failed one (offline, a new deploy) is tried again next time.
    const loadSession = Semaphore.withPermit(loading)(
      Effect.suspend(() =>
        session !== undefined
          ? Effect.succeed(session)
          : Effect.tryPromise({
              try: () => import("./session"),
              catch: (error) =>
                new WalletConnectRequestFailed({ code: undefined, message: `Unable to load WalletConnect: ${error instanceof Error ? error.message : String(error)}` })
            }).pipe(
              Effect.flatMap((module) => module.makeSession({ options, settings, projectId, served, pairing, alerts, events, signIn: () => signIn })),
              Scope.provide(scope),
              Effect.tap((made) => Effect.sync(() => (session = made)))
            )
      )
    )
    const whenLoaded = <A>(use: (loaded: WalletConnectSession) => Effect.Effect<A>, otherwise: A) =>
      Effect.suspend(() => (session === undefined ? Effect.succeed(otherwise) : use(session)))

    const connector: Connector | undefined =
      projectId === "" || served.length === 0
        ? undefined
        : {
            info: {
              id: WALLET_CONNECT_CONNECTOR_ID,
              name: "WalletConnect",
              type: "WALLET_CONNECT",
              imageUrl: WALLET_CONNECT_ICON,
              chain: served[0]!,
              chains: served.flatMap((namespace) => networksOf(options, namespace).map((network) => network.caipNetworkId))
            },
            namespaces: served,
            memberIds: [],
            connect: (networks) =>
              loadSession.pipe(
                Effect.mapError((error) => walletErrorOf(error.code, error.message)),
                Effect.flatMap((loaded) => loaded.connect(networks)),
                Effect.withSpan("WalletConnect.connect")
              ),
            reconnect: (networks) =>
              loadSession.pipe(
                Effect.mapError((error) => walletErrorOf(error.code, error.message)),
                Effect.flatMap((loaded) => loaded.reconnect(networks)),
                Effect.withSpan("WalletConnect.reconnect")
              ),
            disconnect: whenLoaded((loaded) => loaded.disconnect, undefined).pipe(Effect.withSpan("WalletConnect.disconnect")),
            events: Stream.fromPubSub(events)
          }

    return {
      connector,
      pairing,
      freshUri: whenLoaded((loaded) => loaded.freshUri, undefined),
      replaceUri: whenLoaded((loaded) => loaded.replaceUri, undefined),
      cancel: whenLoaded((loaded) => loaded.cancel, undefined),
      alerts: Stream.fromPubSub(alerts),
      loaded: whenLoaded((loaded) => loaded.loaded, false),
      preload: connector === undefined ? Effect.void : Effect.ignore(loadSession).pipe(Effect.withSpan("WalletConnect.preload")),
      useSignIn: (given) =>
        Effect.sync(() => {
          signIn = given
        })
    }
  })
