/**
 * WalletConnect: the remote-protocol connector. It owns the universal provider (loaded with `import()` only when the
 * visitor chooses WalletConnect or a stored session is restored), the pairing URI the views show (it lives 4 minutes
 * and is replaced 10 s before it expires, by the Clock), and the session. The eip155 adapter reaches the session
 * through `provider`, an EIP-1193 facade, like any other wallet.
 */
import { Clock, Context, Data, Deferred, Effect, Exit, Fiber, FiberSet, Layer, PubSub, Scope, Semaphore, Stream, SubscriptionRef } from "effect"
import { type Alert, alertForServiceError } from "../../domain/alerts"
import { PAIRING_EXPIRY_MARGIN_MS, PAIRING_LIFETIME_MS } from "../../domain/constants"
import { WalletConnectConnectorMissing } from "../../domain/errors"
import type { CaipNetwork } from "../../domain/Network"
import type { HostOptions } from "../../domain/Options"
import type { ConnectorInfo } from "../../domain/Wallet"
import { Config, networksOf } from "../Config"
import type { Eip1193Provider } from "../eip155/eip1193"
import { proposalNamespaces } from "./namespaces"

/** The connector id of WalletConnect, in every family it serves. */
export const WALLET_CONNECT_CONNECTOR_ID = "walletConnect"

/** Where the pairing stands, for the QR code and the links of the views. */
export type PairingState =
  | { readonly _tag: "Idle" }
  /** The library loads or the relay is asked for a pairing: no URI to show yet. */
  | { readonly _tag: "Pairing" }
  /** A URI to show; it is replaced at `expiresAt` (epoch ms, 10 s before its real expiry). */
  | { readonly _tag: "Ready"; readonly uri: string; readonly expiresAt: number }
  | { readonly _tag: "Failed"; readonly message: string }

/** How the universal provider is made, beyond the options (tests run several clients in one process). */
export interface WalletConnectSettings {
  /** Keeps this client's stored data apart from other clients on the same storage. */
  readonly customStoragePrefix?: string
  /** Where the client keeps its sessions (Node needs one; browsers use IndexedDB). */
  readonly storageOptions?: { readonly database?: string }
  /** The universal provider's log level. */
  readonly logger?: string
}

/** A request on the session failed: the wallet's code (5000 when the visitor refused) and message, as EIP-1193 has them. */
export class WalletConnectRequestFailed extends Data.TaggedError("WalletConnectRequestFailed")<{
  readonly code: number | undefined
  readonly message: string
}> {}

/** The part of the universal provider used here (its own types fail under exactOptionalPropertyTypes). */
interface UniversalProviderLike {
  session?: { readonly topic: string; readonly namespaces: Record<string, { readonly accounts: Array<string> }> } | undefined
  readonly client: {
    readonly core: { readonly relayer: { readonly on: (event: string, listener: (error: unknown) => void) => unknown } }
  }
  request<T = unknown>(args: { method: string; params?: unknown }, chain?: string): Promise<T>
  connect(params: { optionalNamespaces: Record<string, unknown> }): Promise<unknown>
  disconnect(): Promise<void>
  cleanupPendingPairings(options?: { deletePairings?: boolean }): Promise<void>
  on(event: string, listener: (...args: Array<any>) => void): void
}

/** The WalletConnect connector. */
export class WalletConnect extends Context.Service<
  WalletConnect,
  {
    /** The connector as the eip155 family lists it; `undefined` when no projectId is configured. */
    readonly connector: ConnectorInfo | undefined
    /** The pairing URI and its expiry, for the views. */
    readonly pairing: SubscriptionRef.SubscriptionRef<PairingState>
    /** The session's eip155 side as an EIP-1193 provider (requests on the session, events of the wallet). */
    readonly provider: Eip1193Provider
    /**
     * Pairs with a wallet (or finds the open session): the URI appears in `pairing`, is replaced while no wallet
     * pairs, and the eip155 accounts of the session are returned. Fails with the connector missing (no projectId).
     */
    readonly pair: (network?: CaipNetwork) => Effect.Effect<ReadonlyArray<string>, WalletConnectConnectorMissing | WalletConnectRequestFailed>
    /** The URI, replaced first when it has expired: what a view shows or a deep link carries. */
    readonly freshUri: Effect.Effect<string | undefined>
    /** Replaces the URI now (the visitor pressed Retry). */
    readonly replaceUri: Effect.Effect<void>
    /** Stops pairing (the visitor left the view); a later `pair` starts again. */
    readonly cancel: Effect.Effect<void>
    /** Ends the session (the wallet is told) and clears the pairings. */
    readonly disconnect: Effect.Effect<void>
    /** Alerts raised by relay errors (origin not allowed, invalid key, token not yet valid), each once. */
    readonly alerts: Stream.Stream<Alert>
    /** Whether the universal provider was loaded (it must not be before the visitor chooses WalletConnect). */
    readonly loaded: Effect.Effect<boolean>
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

const errorOf = (error: unknown): { readonly code: number | undefined; readonly message: string } => {
  const record = typeof error === "object" && error !== null ? (error as Record<string, unknown>) : {}
  const code = typeof record["code"] === "number" ? record["code"] : undefined
  const message = typeof record["message"] === "string" ? record["message"] : String(error)
  return { code, message }
}

const chainReferenceOf = (value: unknown): number | undefined => {
  const text = typeof value === "number" ? String(value) : typeof value === "string" ? value : ""
  const reference = text.includes(":") ? text.slice(text.lastIndexOf(":") + 1) : text
  if (/^0x[0-9a-fA-F]+$/.test(reference)) return Number.parseInt(reference, 16)
  return /^\d+$/.test(reference) ? Number(reference) : undefined
}

const addressOf = (caipAccount: string): string => caipAccount.slice(caipAccount.lastIndexOf(":") + 1)

const defaultMetadata = (): NonNullable<HostOptions["metadata"]> => {
  const origin = typeof location === "undefined" ? "http://127.0.0.1" : location.origin
  const name = typeof document === "undefined" || document.title === "" ? origin : document.title
  return { name, description: name, url: origin, icons: [] }
}

/** Makes the connector; the universal provider is loaded on first need and lives as long as the scope. */
export const makeWalletConnect = (
  options: HostOptions,
  settings: WalletConnectSettings
): Effect.Effect<WalletConnect["Service"], never, Scope.Scope> =>
  Effect.gen(function* () {
    const projectId = options.projectId?.trim() ?? ""
    const eip155Networks = networksOf(options, "eip155")
    const connector: ConnectorInfo | undefined =
      projectId === "" || eip155Networks.length === 0
        ? undefined
        : {
            id: WALLET_CONNECT_CONNECTOR_ID,
            name: "WalletConnect",
            type: "WALLET_CONNECT",
            chain: "eip155",
            chains: eip155Networks.map((network) => network.caipNetworkId)
          }
    const pairing = yield* SubscriptionRef.make<PairingState>({ _tag: "Idle" })
    const alerts = yield* PubSub.unbounded<Alert>()
    const scope = yield* Effect.scope
    const runPromise = yield* FiberSet.makeRuntimePromise<never>()
    const listeners = new Map<string, Set<(...args: Array<unknown>) => void>>()
    const raised = new Set<string>()
    let universal: UniversalProviderLike | undefined
    let onUri: ((uri: string) => void) | undefined
    let onRefused: ((error: WalletConnectRequestFailed) => void) | undefined
    let running: Fiber.Fiber<ReadonlyArray<string>, WalletConnectConnectorMissing | WalletConnectRequestFailed> | undefined
    let runningToken: object | undefined
    let restart: Deferred.Deferred<void> | undefined

    const emit = (event: string, ...args: Array<unknown>) => {
      for (const listener of listeners.get(event) ?? []) listener(...args)
    }

    const reportError = (error: unknown) => {
      const alert = alertForServiceError(errorOf(error).message)
      if (alert === undefined) return
      // The relay refuses this app: the pairing under way cannot succeed, so it fails now instead of waiting.
      onRefused?.(new WalletConnectRequestFailed({ code: undefined, message: errorOf(error).message }))
      if (raised.has(alert.id)) return
      raised.add(alert.id)
      Effect.runSync(PubSub.publish(alerts, alert))
    }

    const fail = (error: unknown) => {
      reportError(error)
      const { code, message } = errorOf(error)
      return new WalletConnectRequestFailed({ code, message })
    }

    const init = Effect.gen(function* () {
      if (connector === undefined) return yield* new WalletConnectConnectorMissing()
      const { UniversalProvider } = yield* Effect.tryPromise({
        try: () => import("@walletconnect/universal-provider"),
        catch: (error) => new WalletConnectRequestFailed({ code: undefined, message: `Unable to load WalletConnect: ${errorOf(error).message}` })
      })
      const metadata = options.metadata ?? defaultMetadata()
      const provider = yield* Effect.tryPromise({
        try: () =>
          UniversalProvider.init({
            projectId,
            relayUrl: options.endpoints.relay,
            metadata: { ...metadata, icons: [...metadata.icons] },
            logger: settings.logger ?? (options.debug ? "info" : "silent"),
            telemetryEnabled: false,
            ...(settings.customStoragePrefix !== undefined ? { customStoragePrefix: settings.customStoragePrefix } : {}),
            ...(settings.storageOptions !== undefined ? { storageOptions: { ...settings.storageOptions } } : {})
          }) as Promise<unknown> as Promise<UniversalProviderLike>,
        catch: fail
      })
      provider.on("display_uri", (uri: string) => onUri?.(uri))
      provider.on("accountsChanged", (accounts: Array<string>) => emit("accountsChanged", accounts.map(addressOf)))
      provider.on("chainChanged", (chain: unknown) => {
        const chainId = chainReferenceOf(chain)
        if (chainId !== undefined) emit("chainChanged", chainId)
      })
      provider.on("disconnect", (error: unknown) => {
        emit("disconnect", error)
        Effect.runFork(SubscriptionRef.set(pairing, { _tag: "Idle" }))
      })
      provider.client.core.relayer.on("relayer_error", reportError)
      universal = provider
      yield* Scope.addFinalizer(
        scope,
        Effect.promise(async () => {
          const core = (provider.client as unknown as { core: { relayer: { transportClose?: () => Promise<void> }; heartbeat?: { stop?: () => void } } }).core
          await core.relayer.transportClose?.().catch(() => undefined)
          core.heartbeat?.stop?.()
        })
      )
      return provider
    })

    const loading = yield* Semaphore.make(1)
    // Only a loaded provider is kept: a failed load (the chunk or the relay unreachable) is tried again next time.
    const load = Semaphore.withPermit(loading)(Effect.suspend(() => (universal !== undefined ? Effect.succeed(universal) : init)))

    const sessionAccounts = (provider: UniversalProviderLike): ReadonlyArray<string> =>
      (provider.session?.namespaces["eip155"]?.accounts ?? []).map(addressOf).filter((a, i, all) => all.indexOf(a) === i)

    // One pairing attempt: a URI, shown until a wallet approves, or replaced when it expires or on Retry.
    const attempt = (provider: UniversalProviderLike, network: CaipNetwork | undefined) =>
      Effect.gen(function* () {
        const uri = yield* Deferred.make<string>()
        const again = yield* Deferred.make<void>()
        restart = again
        const refused = yield* Deferred.make<never, WalletConnectRequestFailed>()
        onUri = (value) => Deferred.doneUnsafe(uri, Exit.succeed(value))
        onRefused = (error) => Deferred.doneUnsafe(refused, Exit.fail(error))
        yield* SubscriptionRef.set(pairing, { _tag: "Pairing" })
        const expiry = Effect.gen(function* () {
          const value = yield* Deferred.await(uri)
          const now = yield* Clock.currentTimeMillis
          const expiresAt = now + PAIRING_LIFETIME_MS - PAIRING_EXPIRY_MARGIN_MS
          yield* SubscriptionRef.set(pairing, { _tag: "Ready", uri: value, expiresAt })
          yield* Effect.sleep(expiresAt - now)
        })
        const approved = Effect.tryPromise({
          try: () => provider.connect({ optionalNamespaces: proposalNamespaces(options, network) }),
          catch: fail
        })
        return yield* Effect.raceFirst(
          Effect.raceFirst(Effect.as(approved, true), Deferred.await(refused)),
          Effect.as(Effect.raceFirst(expiry, Deferred.await(again)), false)
        )
      })

    const pairOnce = (network: CaipNetwork | undefined) =>
      Effect.gen(function* () {
        const provider = yield* load
        if (provider.session !== undefined && sessionAccounts(provider).length > 0) return sessionAccounts(provider)
        while (!(yield* attempt(provider, network))) {
          yield* Effect.logDebug("WalletConnect pairing URI replaced")
        }
        yield* SubscriptionRef.set(pairing, { _tag: "Idle" })
        // The approved proposal's pairing has served: it is not kept for another session.
        yield* Effect.promise(() => provider.cleanupPendingPairings({ deletePairings: true }))
        return sessionAccounts(provider)
      }).pipe(
        Effect.tapError((error) => SubscriptionRef.set(pairing, { _tag: "Failed", message: error.message })),
        Effect.onInterrupt(() => SubscriptionRef.set(pairing, { _tag: "Idle" })),
        Effect.ensuring(Effect.sync(() => {
          onUri = undefined
          onRefused = undefined
          restart = undefined
        }))
      )

    const pair = Effect.fn("WalletConnect.pair")(function* (network?: CaipNetwork) {
      // A second ask while pairing (Retry, a double render) joins the pairing under way: one URI, one proposal.
      if (running === undefined) {
        const token = {}
        runningToken = token
        running = yield* Effect.forkIn(
          pairOnce(network).pipe(
            Effect.ensuring(Effect.sync(() => {
              if (runningToken === token) running = undefined
            }))
          ),
          scope
        )
      }
      return yield* Fiber.join(running)
    })

    const replaceUri = Effect.suspend(() => (restart === undefined ? Effect.void : Deferred.succeed(restart, undefined))).pipe(
      Effect.asVoid,
      Effect.withSpan("WalletConnect.replaceUri")
    )

    const freshUri = Effect.gen(function* () {
      const state = yield* SubscriptionRef.get(pairing)
      if (state._tag !== "Ready") return undefined
      if ((yield* Clock.currentTimeMillis) < state.expiresAt) return state.uri
      // A sleeping tab may wake after the URI's time: never hand out an expired one.
      yield* replaceUri
      const next = yield* SubscriptionRef.changes(pairing).pipe(
        Stream.filter((s) => s._tag !== "Pairing" && !(s._tag === "Ready" && s.uri === state.uri)),
        Stream.runHead
      )
      return next._tag === "Some" && next.value._tag === "Ready" ? next.value.uri : undefined
    }).pipe(Effect.withSpan("WalletConnect.freshUri"))

    const cancel = Effect.suspend(() => (running === undefined ? Effect.void : Fiber.interrupt(running))).pipe(
      Effect.withSpan("WalletConnect.cancel")
    )

    const disconnect = Effect.gen(function* () {
      yield* cancel
      const provider = universal
      if (provider === undefined) return
      if (provider.session !== undefined) yield* Effect.promise(() => provider.disconnect().catch(() => undefined))
      yield* Effect.promise(() => provider.cleanupPendingPairings({ deletePairings: true }))
      yield* SubscriptionRef.set(pairing, { _tag: "Idle" })
    }).pipe(Effect.withSpan("WalletConnect.disconnect"))

    const currentChain = (provider: UniversalProviderLike) =>
      Effect.tryPromise({ try: () => provider.request<unknown>({ method: "eth_chainId" }), catch: fail }).pipe(
        Effect.map(chainReferenceOf)
      )

    const request = (args: { readonly method: string; readonly params?: unknown }): Effect.Effect<unknown, unknown> => {
      switch (args.method) {
        case "eth_requestAccounts":
          return pair()
        case "eth_accounts":
          // Asked on restore: the library loads only then, and an absent session has no accounts.
          return Effect.map(load, sessionAccounts)
        case "wallet_revokePermissions":
          // For a WalletConnect wallet, the site giving up its permission is the session ending.
          return Effect.as(disconnect, null)
        default:
          return Effect.gen(function* () {
            const provider = yield* load
            if (provider.session === undefined) return yield* new WalletConnectRequestFailed({ code: 4900, message: "WalletConnect session not found" })
            if (args.method === "eth_chainId") return yield* currentChain(provider)
            const chainId = yield* currentChain(provider)
            return yield* Effect.tryPromise({
              try: () =>
                provider.request(
                  args.params === undefined ? { method: args.method } : { method: args.method, params: args.params },
                  chainId === undefined ? undefined : `eip155:${chainId}`
                ),
              catch: fail
            })
          })
      }
    }

    const provider: Eip1193Provider = {
      request: (args) => runPromise(request(args)),
      on: (event, listener) => {
        const set = listeners.get(event) ?? new Set()
        set.add(listener)
        listeners.set(event, set)
      },
      removeListener: (event, listener) => {
        listeners.get(event)?.delete(listener)
      }
    }

    return {
      connector,
      pairing,
      provider,
      pair,
      freshUri,
      replaceUri,
      cancel,
      disconnect,
      alerts: Stream.fromPubSub(alerts),
      loaded: Effect.sync(() => universal !== undefined)
    }
  })
