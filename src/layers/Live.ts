/**
 * The browser environment: localStorage, the page's platform, fetch, the host's options, the connectors of every
 * configured family (EIP-6963 and injected wallets, Wallet Standard wallets, WalletConnect) and the chain adapters,
 * each family's code fetched on first use.
 */
import { Effect, Layer, type Scope, Stream, SubscriptionRef } from "effect"
import * as FetchHttpClient from "effect/http/FetchHttpClient"
import * as HttpClient from "effect/http/HttpClient"
import type { Alert } from "../domain/alerts"
import type { ChainNamespace } from "../domain/Caip"
import type { CaipNetwork } from "../domain/Network"
import type { HostOptions, TokenOption } from "../domain/Options"
import { type ChainAdapter, ChainAdapters, lazyAdapter, type ReadRpc } from "../services/ChainAdapter"
import { Config, namespacesOf } from "../services/Config"
import type { Connector } from "../services/connectors/Connector"
import { type ConnectorSource, Connectors } from "../services/connectors/Connectors"
import { browserEip155Source } from "../services/connectors/eip6963"
import { Platform } from "../services/Platform"
import { RpcTransport } from "../services/RpcTransport/RpcTransport"
import { hasStoredConnection } from "../services/Storage/paths"
import { Storage } from "../services/Storage/Storage"
import { WalletConnect } from "../services/walletconnect/WalletConnect"
import { walletConnectAlertsLayer, walletConnectSignInLayer } from "../services/walletconnect/wiring"
import { coreLayer, type WalletServices } from "./Core"

/** What a runtime can be given instead of the page's own: its connectors and adapters (a host's, or fakes). */
export interface EnvironmentOverrides {
  readonly connectors?: ReadonlyArray<Connector> | undefined
  readonly adapters?: ReadonlyArray<ChainAdapter> | undefined
}

/** What a family's adapter is made with. */
interface AdapterDeps {
  readonly reads: ReadRpc
  readonly tokenOf: (network: CaipNetwork) => TokenOption | undefined
  /** HTTP, for families whose nodes are read over REST rather than JSON-RPC (bip122's Esplora-style APIs). */
  readonly http: HttpClient.HttpClient
  /** A network's own endpoints: the host's `customRpcUrls` for it first, then its RPC URLs. */
  readonly rpcUrlsOf: (network: CaipNetwork) => ReadonlyArray<string>
}

// Each family's adapter module (and its chain library) is fetched the first time a wallet of that family is used.
const ADAPTERS: Partial<Record<ChainNamespace, (deps: AdapterDeps) => Promise<ChainAdapter>>> = {
  eip155: (deps) => import("../services/eip155/Eip155Adapter").then((m) => m.makeEip155Adapter(deps)),
  solana: (deps) => import("../services/solana/SolanaAdapter").then((m) => m.makeSolanaAdapter(deps)),
  polkadot: () => import("../services/polkadot/PolkadotAdapter").then((m) => m.makePolkadotAdapter()),
  bip122: (deps) =>
    import("../services/bip122/BitcoinAdapter").then((m) => m.makeBitcoinAdapter({ http: deps.http, apiUrlsOf: deps.rpcUrlsOf }))
}

/** The adapters of the configured families, reading through the RPC transport. */
const familyAdapters = Effect.gen(function* () {
  const config = yield* Config
  const transport = yield* RpcTransport
  const reads: ReadRpc = (network, method, params) => transport.request(network, { method, params })
  const http = yield* HttpClient.HttpClient
  const rpcUrlsOf = (network: CaipNetwork) => [
    ...new Set([...(config.customRpcUrls?.[network.caipNetworkId] ?? []).map((entry) => entry.url), ...network.rpcUrls.default.http])
  ]
  return namespacesOf(config).flatMap((namespace) => {
    const load = ADAPTERS[namespace]
    const tokenOf = (network: CaipNetwork) => config.tokens?.[network.caipNetworkId]
    return load === undefined ? [] : [lazyAdapter(namespace, () => load({ reads, tokenOf, http, rpcUrlsOf }))]
  })
})

/**
 * The page's Solana wallets: the Wallet Standard discovery is fetched only for hosts that configure Solana, beside
 * the start (the registry lists them as they arrive, as it lists wallets that register late).
 */
const solanaSource: Effect.Effect<ConnectorSource, never, Scope.Scope> = Effect.gen(function* () {
  const connectors = yield* SubscriptionRef.make<ReadonlyArray<Connector>>([])
  yield* Effect.tryPromise(() => import("../services/connectors/walletStandard")).pipe(
    Effect.flatMap((module) => module.browserSolanaSource),
    Effect.flatMap((source) => SubscriptionRef.changes(source).pipe(Stream.runForEach((list) => SubscriptionRef.set(connectors, list)))),
    Effect.catch((error) => Effect.logWarning(`Solana wallets cannot be listed: ${String(error)}`)),
    Effect.forkScoped
  )
  return connectors
})

/**
 * The page's Polkadot wallets: the `injectedWeb3` discovery is fetched only for hosts that configure Polkadot, beside
 * the start. Extensions show the host's name (or the page's host) when they ask the visitor to let the site in.
 */
const polkadotSource = (options: HostOptions): Effect.Effect<ConnectorSource, never, Scope.Scope> =>
  Effect.gen(function* () {
    const connectors = yield* SubscriptionRef.make<ReadonlyArray<Connector>>([])
    const appName = options.metadata?.name ?? (typeof location === "undefined" ? "Wallet Runtime" : location.host)
    yield* Effect.tryPromise(() => import("../services/connectors/injectedWeb3")).pipe(
      Effect.flatMap((module) => module.browserPolkadotSource({ appName })),
      Effect.flatMap((source) => SubscriptionRef.changes(source).pipe(Stream.runForEach((list) => SubscriptionRef.set(connectors, list)))),
      Effect.catch((error) => Effect.logWarning(`Polkadot wallets cannot be listed: ${String(error)}`)),
      Effect.forkScoped
    )
    return connectors
  })

/**
 * The page's Bitcoin wallets (Wallet Standard `bitcoin:` features, sats-connect providers): their discovery is
 * fetched only for hosts that configure bip122, beside the start; the host's default account type goes first.
 */
const bitcoinSource = (options: HostOptions): Effect.Effect<ConnectorSource, never, Scope.Scope> =>
  Effect.gen(function* () {
    const connectors = yield* SubscriptionRef.make<ReadonlyArray<Connector>>([])
    yield* Effect.tryPromise(() => import("../services/connectors/bitcoin")).pipe(
      Effect.flatMap((module) => module.browserBitcoinSource({ accountType: options.defaultAccountTypes.bip122 })),
      Effect.flatMap((source) => SubscriptionRef.changes(source).pipe(Stream.runForEach((list) => SubscriptionRef.set(connectors, list)))),
      Effect.catch((error) => Effect.logWarning(`Bitcoin wallets cannot be listed: ${String(error)}`)),
      Effect.forkScoped
    )
    return connectors
  })

/** The page's wallets for the configured families, WalletConnect first (spec point 9 orders connectors). */
const connectorSources = (options: HostOptions) => {
  const families = namespacesOf(options)
  const walletConnect = Effect.flatMap(WalletConnect, (service) =>
    SubscriptionRef.make<ReadonlyArray<Connector>>(service.connector !== undefined ? [service.connector] : [])
  )
  const sources: ReadonlyArray<Effect.Effect<ConnectorSource, never, Scope.Scope | WalletConnect>> = [
    walletConnect,
    ...(families.includes("eip155") ? [browserEip155Source({ enableEIP6963: options.enableEIP6963 })] : []),
    ...(families.includes("solana") ? [solanaSource] : []),
    ...(families.includes("polkadot") ? [polkadotSource(options)] : []),
    ...(families.includes("bip122") ? [bitcoinSource(options)] : [])
  ]
  return sources
}

// The latest a first-time visitor's services wait for the page to paint (a tab in the background paints no frame).
const PAINT_WAIT_BOUND_MS = 100

/**
 * Waits until the page has painted once (the frame after the first render, then the task after it), at most
 * PAINT_WAIT_BOUND_MS; at once where there are no frames (a server, a worker).
 */
const afterFirstPaint: Effect.Effect<void> = Effect.callback<void>((resume) => {
  if (typeof requestAnimationFrame !== "function") return resume(Effect.void)
  let done = false
  const finish = () => {
    if (done) return
    done = true
    resume(Effect.void)
  }
  let next: ReturnType<typeof setTimeout> | undefined
  const frame = requestAnimationFrame(() => {
    next = setTimeout(finish, 0)
  })
  const bound = setTimeout(finish, PAINT_WAIT_BOUND_MS)
  return Effect.sync(() => {
    done = true
    cancelAnimationFrame(frame)
    clearTimeout(bound)
    if (next !== undefined) clearTimeout(next)
  })
})

/**
 * A first-time visitor's page paints its buttons before the services are built (building them takes tens of
 * milliseconds of script): what they would show, "Connect wallet", is what the page shows meanwhile. A visitor with
 * a session to restore gets the services during the first render, so the button never shows "Connect wallet"
 * before "Reconnecting…".
 */
const startAfterPaintUnlessRestoring = (services: Layer.Layer<WalletServices>): Layer.Layer<WalletServices> =>
  hasStoredConnection() ? services : Layer.unwrap(afterFirstPaint.pipe(Effect.as(services)))

/**
 * Every service, live in a browser (storage falls back to memory where localStorage is unavailable). `overrides`
 * replaces the page's connectors or the family adapters.
 */
export const liveLayer = (
  options: HostOptions,
  overrides: EnvironmentOverrides = {},
  alerts: ReadonlyArray<Alert> = []
): Layer.Layer<WalletServices> => {
  const config = Config.layer(options)
  const transport = RpcTransport.layer.pipe(Layer.provide(config), Layer.provide(FetchHttpClient.layer))
  const walletConnect = WalletConnect.layer.pipe(Layer.provide(config))
  const connectors = (
    overrides.connectors !== undefined ? Connectors.layer(overrides.connectors) : Connectors.layerFrom(connectorSources(options))
  ).pipe(Layer.provide(walletConnect), Layer.provide(config))
  const adapters = (
    overrides.adapters !== undefined ? ChainAdapters.layer(overrides.adapters) : ChainAdapters.layerFrom(familyAdapters)
  ).pipe(Layer.provide(transport), Layer.provide(config), Layer.provide(FetchHttpClient.layer))
  return startAfterPaintUnlessRestoring(
    Layer.mergeAll(walletConnectAlertsLayer, walletConnectSignInLayer).pipe(
      Layer.provideMerge(
        coreLayer(
          Layer.mergeAll(Storage.layerBrowser, Platform.layerBrowser, config, connectors, adapters, transport, FetchHttpClient.layer, walletConnect),
          alerts
        )
      )
    )
  )
}
