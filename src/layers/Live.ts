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
import type { HostOptions } from "../domain/Options"
import { type ChainAdapter, ChainAdapters, lazyAdapter, type ReadRpc } from "../services/ChainAdapter"
import { Config, namespacesOf } from "../services/Config"
import type { Connector } from "../services/connectors/Connector"
import { type ConnectorSource, Connectors } from "../services/connectors/Connectors"
import { browserEip155Source } from "../services/connectors/eip6963"
import { EmbeddedAuth } from "../services/Embedded/EmbeddedAuth"
import { Platform } from "../services/Platform"
import { RpcTransport } from "../services/RpcTransport/RpcTransport"
import { hasStoredConnection } from "../services/Storage/paths"
import { Storage } from "../services/Storage/Storage"
import { WalletConnect } from "../services/walletconnect/WalletConnect"
import { walletConnectAlertsLayer, walletConnectSignInLayer } from "../services/walletconnect/wiring"
import { baseLayer, type BaseServices } from "./Base"
import type { AdapterDeps, LazyFamily } from "./LiveFamilies"

/** What a runtime can be given instead of the page's own: its connectors and adapters (a host's, or fakes). */
export interface EnvironmentOverrides {
  readonly connectors?: ReadonlyArray<Connector> | undefined
  readonly adapters?: ReadonlyArray<ChainAdapter> | undefined
}

// eip155's adapter module (and viem) is fetched the first time an EVM wallet is used; the other families' wiring, with
// their modules, comes with LiveFamilies.ts, fetched only for hosts that configure one of them.
const loadAdapter = (namespace: ChainNamespace, deps: AdapterDeps): Promise<ChainAdapter> =>
  namespace === "eip155"
    ? import("../services/eip155/Eip155Adapter").then((m) => m.makeEip155Adapter(deps))
    : import("./LiveFamilies").then((m) => m.makeAdapter(namespace, deps))

/** The adapters of the configured families, reading through the RPC transport. */
const familyAdapters = Effect.gen(function* () {
  const config = yield* Config
  const transport = yield* RpcTransport
  const reads: ReadRpc = (network, method, params) => transport.request(network, { method, params })
  const http = yield* HttpClient.HttpClient
  const tokenOf = (network: CaipNetwork) => config.tokens?.[network.caipNetworkId]
  return namespacesOf(config).map((namespace) => lazyAdapter(namespace, () => loadAdapter(namespace, { reads, tokenOf, http, options: config })))
})

// The families whose discovery is fetched beside the start, in the order the registry merges their wallets.
const LAZY_DISCOVERIES: ReadonlyArray<LazyFamily> = ["solana", "polkadot", "bip122"]

/**
 * A family's wallets, listed as its discovery module arrives (the registry lists them as it lists wallets that
 * register late): the start does not wait for the fetch, and a fetch that fails lists none and says why in the log.
 */
const lazySource = (family: LazyFamily, options: HostOptions): Effect.Effect<ConnectorSource, never, Scope.Scope> =>
  Effect.gen(function* () {
    const connectors = yield* SubscriptionRef.make<ReadonlyArray<Connector>>([])
    yield* Effect.tryPromise(() => import("./LiveFamilies").then((m) => m.discover(family, options))).pipe(
      Effect.flatMap((source) => source),
      Effect.flatMap((source) => SubscriptionRef.changes(source).pipe(Stream.runForEach((list) => SubscriptionRef.set(connectors, list)))),
      Effect.catch((error) => Effect.logWarning(`${family} wallets cannot be listed: ${String(error)}`)),
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
    // The embedded wallet's AUTH connector, when the host offers email login (the Connect view's email field).
    Effect.flatMap(Effect.serviceOption(EmbeddedAuth), (auth) =>
      SubscriptionRef.make<ReadonlyArray<Connector>>(auth._tag === "Some" ? [auth.value.connector] : [])
    ),
    ...(families.includes("eip155") ? [browserEip155Source({ enableEIP6963: options.enableEIP6963 })] : []),
    ...LAZY_DISCOVERIES.filter((family) => families.includes(family)).map((family) => lazySource(family, options))
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
const startAfterPaintUnlessRestoring = (services: Layer.Layer<BaseServices>): Layer.Layer<BaseServices> =>
  hasStoredConnection() ? services : Layer.unwrap(afterFirstPaint.pipe(Effect.as(services)))

/**
 * The services built at start, live in a browser (storage falls back to memory where localStorage is unavailable):
 * the React runtime's; `liveLayer` (`Core.ts`) adds the Swap and Buy forms. `overrides` replaces the page's connectors
 * or the family adapters.
 */
export const liveBaseLayer = (
  options: HostOptions,
  overrides: EnvironmentOverrides = {},
  alerts: ReadonlyArray<Alert> = []
): Layer.Layer<BaseServices> => {
  const config = Config.layer(options)
  const transport = RpcTransport.layer.pipe(Layer.provide(config), Layer.provide(FetchHttpClient.layer))
  const walletConnect = WalletConnect.layer.pipe(Layer.provide(config))
  const embeddedAuth = EmbeddedAuth.layer.pipe(Layer.provide(config), Layer.provide(Storage.layerBrowser))
  const connectors = (
    overrides.connectors !== undefined ? Connectors.layer(overrides.connectors) : Connectors.layerFrom(connectorSources(options))
  ).pipe(Layer.provide(walletConnect), Layer.provide(embeddedAuth), Layer.provide(config))
  const adapters = (
    overrides.adapters !== undefined ? ChainAdapters.layer(overrides.adapters) : ChainAdapters.layerFrom(familyAdapters)
  ).pipe(Layer.provide(transport), Layer.provide(config), Layer.provide(FetchHttpClient.layer))
  return startAfterPaintUnlessRestoring(
    Layer.mergeAll(walletConnectAlertsLayer, walletConnectSignInLayer).pipe(
      Layer.provideMerge(
        baseLayer(
          Layer.mergeAll(
            Storage.layerBrowser,
            Platform.layerBrowserWith(options.miniApp),
            config,
            connectors,
            adapters,
            transport,
            FetchHttpClient.layer,
            walletConnect,
            overrides.connectors !== undefined ? Layer.empty : embeddedAuth
          ),
          alerts
        )
      )
    )
  )
}
