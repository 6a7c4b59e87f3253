/**
 * The browser wiring of the chain families beside eip155 (solana, polkadot, bip122): each one's wallet discovery and
 * adapter. Live.ts fetches this module with `import()` only for hosts that configure one of these families, so an
 * EVM-only host's start carries none of it (nor the references to their chunks); each family's own module, and its
 * chain library, is still fetched from here on first use.
 */
import type { Effect, Scope } from "effect"
import type * as HttpClient from "effect/http/HttpClient"
import type { ChainNamespace } from "../domain/Caip"
import type { CaipNetwork } from "../domain/Network"
import type { HostOptions, TokenOption } from "../domain/Options"
import type { ChainAdapter, ReadRpc } from "../services/ChainAdapter"
import type { ConnectorSource } from "../services/connectors/Connectors"

/** What a family's adapter is made with. */
export interface AdapterDeps {
  readonly reads: ReadRpc
  readonly tokenOf: (network: CaipNetwork) => TokenOption | undefined
  /** HTTP, for families whose nodes are read over REST rather than JSON-RPC (bip122's Esplora-style APIs). */
  readonly http: HttpClient.HttpClient
  /** The host's options (bip122 reads a network's own endpoints from them: its `customRpcUrls` first). */
  readonly options: HostOptions
}

// A network's own endpoints: the host's `customRpcUrls` for it first, then its RPC URLs.
const rpcUrlsOf =
  (options: HostOptions) =>
  (network: CaipNetwork): ReadonlyArray<string> => [
    ...new Set([...(options.customRpcUrls?.[network.caipNetworkId] ?? []).map((entry) => entry.url), ...network.rpcUrls.default.http])
  ]

/** A chain family wired here: every one but eip155, whose wiring is part of the start. */
export type LazyFamily = Exclude<ChainNamespace, "eip155">

// Each family's adapter module (and its chain library) is fetched the first time a wallet of that family is used.
const ADAPTERS: { readonly [N in LazyFamily]: (deps: AdapterDeps) => Promise<ChainAdapter> } = {
  solana: (deps) => import("../services/solana/SolanaAdapter").then((m) => m.makeSolanaAdapter(deps)),
  polkadot: () => import("../services/polkadot/PolkadotAdapter").then((m) => m.makePolkadotAdapter()),
  bip122: (deps) =>
    import("../services/bip122/BitcoinAdapter").then((m) => m.makeBitcoinAdapter({ http: deps.http, apiUrlsOf: rpcUrlsOf(deps.options) }))
}

// Polkadot extensions show the host's name (or the page's host) when they ask the visitor to let the site in; Bitcoin
// wallets list the host's default account type first.
const DISCOVERIES: { readonly [N in LazyFamily]: (options: HostOptions) => Promise<Effect.Effect<ConnectorSource, never, Scope.Scope>> } = {
  solana: () => import("../services/connectors/walletStandard").then((m) => m.browserSolanaSource),
  polkadot: (options) =>
    import("../services/connectors/injectedWeb3").then((m) =>
      m.browserPolkadotSource({ appName: options.metadata?.name ?? (typeof location === "undefined" ? "Wallet Runtime" : location.host) })
    ),
  bip122: (options) =>
    import("../services/connectors/bitcoin").then((m) => m.browserBitcoinSource({ accountType: options.defaultAccountTypes.bip122 }))
}

/** The adapter of `family`, its module fetched now. */
export const makeAdapter = (family: LazyFamily, deps: AdapterDeps): Promise<ChainAdapter> => ADAPTERS[family](deps)

/** The page's wallets of `family`, its discovery module fetched now. */
export const discover = (family: LazyFamily, options: HostOptions): Promise<Effect.Effect<ConnectorSource, never, Scope.Scope>> =>
  DISCOVERIES[family](options)
