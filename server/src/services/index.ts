import { Effect, Layer, Schema } from "effect"
import { HttpRouter, HttpServer } from "effect/http"
import type { Address } from "viem"
import { NFTS_PAGE_SIZE } from "../../../src/domain/Api"
import { CaipNetworkId } from "../../../src/domain/Caip"
import type { ApiProject } from "../../../src/domain/http/middleware"
import { type Database, type DatabaseOptions, migrationsApplied, startDatabase } from "../db/index"
import { type HttpAppOptions, routesOf, type RunningHttpApp, startHttpApp } from "../http/app"
import { ServicesApi } from "../../../src/domain/http/ServicesApi"
import { Projects } from "../http/middleware"
import { rpcUpstream } from "../lib/rpcUpstream"
import type { Started } from "../lib/Started"
import { isLoopbackOrigin } from "./projects"
import { recordedEventsRoutes, servicesApiLayer, servicesApiLayerWith } from "./api"
import { Catalogue, ServicesDatabase } from "./catalogueApi"
import { fixedPrices, type PriceSource } from "./prices"
import type { TokenInfo } from "./chains"
import { bundledCatalogue, type CatalogueWallet } from "./catalogue"
import { explorerRoutes } from "./explorer"
import { EXPLORER_PATH } from "./explorerHtml"
import { ChainIndex } from "./indexer"
import { defaultNames, type NamesConfig } from "./names"
import { pageRoutes } from "./pages"
import type { DevProject } from "./projects"
import { type EvmChainState, ServicesContext, type ServicesState } from "./state"
import { TokenRegistry } from "./tokens"
import { SwapProvider, type SwapProviderShape } from "./swaps/SwapProvider"
import { OnrampProvider, type OnrampProviderShape } from "./onramp/OnrampProvider"
import { uniswapV2Provider } from "./swaps/uniswapV2"

/** A collection (ERC-721) the services name. */
export interface CollectionInfo {
  readonly address: Address
  readonly name: string
  readonly symbol: string
}

/**
 * An EVM chain the services serve: where to read it, and the contracts they name (tokens; on the local chains a
 * collectible and a spam one, which a host's chains do not have).
 */
export interface ServicesEvmChain {
  /**
   * Where the history the services index (in their database, shared by every process on it) starts when the database
   * has none for this chain yet (default `"genesis"`, the local chains): `"head"` for a public chain, whose past is not
   * indexed — its history shows what happened since the first process indexed it.
   */
  readonly history?: "genesis" | "head"
  readonly chainId: number
  readonly caipNetworkId: CaipNetworkId
  readonly rpcUrl: string
  /** More URLs of the same chain, tried in order when `rpcUrl` fails at the transport level (`lib/rpcUpstream.ts`). */
  readonly fallbackRpcUrls?: ReadonlyArray<string>
  /** The chain's name in the explorer's pages (default: its well-known name, else its CAIP-2 id). */
  readonly name?: string
  readonly contracts: {
    readonly tokens: ReadonlyArray<TokenInfo & { readonly address: Address }>
    readonly collectible?: CollectionInfo
    /** An ERC-721 on the spam list: its NFTs are flagged `is_spam`. */
    readonly spamCollectible?: CollectionInfo
  }
  /**
   * Swaps on this chain through a Uniswap v2 Router02 (the local provider, `swaps/uniswapV2.ts`), trading the native
   * coin and `contracts.tokens`. Without it (and without `swapProvider`), the chain gets 'Network not supported for Swaps'.
   */
  readonly swap?: { readonly uniswapV2Router: Address }
}

/** What the services server needs to know about the rest of the stack. */
export interface ServicesOptions {
  readonly port?: number
  /** Address to listen on (default 127.0.0.1). */
  readonly host?: string
  /**
   * Where browsers reach the server (behind a TLS proxy), without a trailing `/`: the URLs the answers carry (images,
   * the explorer) start with it. Default: the listen address, `http://{host}:{port}`.
   */
  readonly publicUrl?: string
  /** How long a declared route may take before it answers 503 (default `ROUTE_TIMEOUT_MS`). */
  readonly routeTimeoutMs?: number
  /** How long one upstream RPC URL is given to answer before the next is tried (default `RPC_ATTEMPT_TIMEOUT_MS`). */
  readonly rpcAttemptTimeoutMs?: number
  readonly evm?: { readonly chains: ReadonlyArray<ServicesEvmChain> }
  /** The Solana network: its RPC (the stack's or any other) and the tokens to name (the stack's WSUSD). */
  readonly solana?: {
    readonly caipNetworkId: string
    readonly rpcUrl: string
    /** More URLs of the same network, tried in order when `rpcUrl` fails at the transport level. */
    readonly fallbackRpcUrls?: ReadonlyArray<string>
    /** The network's name in the explorer's pages (default: its well-known name, else its CAIP-2 id). */
    readonly name?: string
    readonly tokens?: ReadonlyArray<TokenInfo>
  }
  /**
   * The wallet catalogue of `/getWallets` (default: the library's bundled list, `bundledCatalogue()`), or a function
   * making it once the server's URL is known (the local stack's generated one serves its icons itself).
   */
  readonly catalogue?: ReadonlyArray<CatalogueWallet> | ((baseUrl: string) => ReadonlyArray<CatalogueWallet>)
  /** The names' suffix and seed names (default `defaultNames`: `.wallet-runtime.id`, no seed names). */
  readonly names?: NamesConfig
  /** More routes on the same server (the devstack's test wallet page), made once its URL is known. */
  readonly extraRoutes?: (baseUrl: string) => Layer.Layer<never, never, HttpRouter.HttpRouter>
  /** The extra routes' rows on the index page: a path (and method) and what it is. */
  readonly extraPages?: ReadonlyArray<readonly [string, string]>
  /** Stops what the extra routes started (a page build in progress), after the server. */
  readonly stopExtra?: () => Promise<void>
  /** Transactions per history page (default 20). */
  readonly historyPageSize?: number
  /** NFTs per page of `/v1/account/{address}/nfts` (default `NFTS_PAGE_SIZE`). */
  readonly nftPageSize?: number
  /** The projects (their ids, allowed origins and analytics setting). */
  readonly projects: ReadonlyArray<DevProject>
  /**
   * The database of names and sign-in sessions (`devstack/db`): PGlite in `dataDir` (kept across restarts), a real
   * Postgres at `url`, or (absent) an empty PGlite in memory, gone at stop; the services start and stop it. Or a
   * running `Database` someone else started (and stops): `startDevstack` starts it beside the chains.
   */
  readonly database?: DatabaseOptions | Database
  /** The services' clock in ms (default `Date.now`): tests move it to expire nonces and sessions. */
  readonly now?: () => number
  /** Where USD prices come from (default: none, every token valued 0; the local stack passes `LOCAL_USD_PRICES`). */
  readonly prices?: PriceSource
  /**
   * Who makes swaps (`/v1/convert/*`): a host's own provider (its key kept on the server). Default: the Uniswap v2
   * provider over the EVM chains that have `swap`; with none, the swap endpoints answer 501.
   */
  readonly swapProvider?: SwapProviderShape
  /**
   * Who sells crypto (`/v1/onramp/*`, `/v1/generators/onrampurl`): the local stack's provider, or a host's. Without
   * it, those endpoints answer 501. Transfers from its `depositors` are on-ramp deposits in the history.
   */
  readonly onrampProvider?: OnrampProviderShape
  /** The HTTP server's limits: body size, time-outs on receiving a request, drain time on stop (app.ts defaults). */
  readonly http?: Pick<HttpAppOptions, "maxBodyBytes" | "requestTimeoutMs" | "headersTimeoutMs" | "drainMs" | "accessLog">
  /** Serve `GET /__events` and `DELETE /__events`, the analytics events received (the local stack's test helpers; never in production). */
  readonly recordedEvents?: boolean
  /** List the projectIds on the index page at `/` (the local stack's, which are public); a host's are its own business. */
  readonly listProjectsOnIndex?: boolean
}

/** What the running services server exposes. */
export interface ServicesInfo {
  /** `http://127.0.0.1:{port}` (or the `publicUrl` given): the catalogue, the blockchain service and the RPC proxy (`{url}/v1/`). */
  readonly url: string
  readonly port: number
  readonly projects: ReadonlyArray<DevProject>
}

/** The services' state for their routes, once the server's URL is known. */
const servicesState = (opts: ServicesOptions, baseUrl: string, db: Database, prices = opts.prices ?? fixedPrices({})): ServicesState => {
  const attempts = opts.rpcAttemptTimeoutMs === undefined ? {} : { attemptTimeoutMs: opts.rpcAttemptTimeoutMs }
  const upstream = (chain: { readonly rpcUrl: string; readonly fallbackRpcUrls?: ReadonlyArray<string> }) =>
    rpcUpstream([chain.rpcUrl, ...(chain.fallbackRpcUrls ?? [])], attempts)
  const evmState = (chain: ServicesEvmChain): EvmChainState => {
    const rpc = upstream(chain)
    return {
      chainId: chain.chainId,
      caipNetworkId: chain.caipNetworkId,
      rpc,
      ...(chain.name === undefined ? {} : { name: chain.name }),
      index: new ChainIndex(chain.chainId, rpc, db, chain.history ?? "genesis"),
      tokens: new TokenRegistry(rpc, [
        ...chain.contracts.tokens,
        ...[chain.contracts.collectible, chain.contracts.spamCollectible].flatMap((collection) =>
          collection === undefined ? [] : [{ ...collection, decimals: undefined }]
        )
      ]),
      listedTokens: chain.contracts.tokens.map((token) => token.address),
      spamContracts: new Set(chain.contracts.spamCollectible === undefined ? [] : [chain.contracts.spamCollectible.address.toLowerCase()])
    }
  }
  return {
    baseUrl,
    evm: (opts.evm?.chains ?? []).map(evmState),
    solana:
      opts.solana === undefined
        ? undefined
        : {
            caipNetworkId: Schema.decodeSync(CaipNetworkId)(opts.solana.caipNetworkId),
            rpc: upstream(opts.solana),
            ...(opts.solana.name === undefined ? {} : { name: opts.solana.name }),
            tokens: opts.solana.tokens ?? [],
            baseUrl,
            prices
          },
    names: opts.names ?? defaultNames,
    historyPageSize: opts.historyPageSize ?? 20,
    nftPageSize: opts.nftPageSize ?? NFTS_PAGE_SIZE,
    db,
    now: opts.now ?? Date.now,
    prices,
    // EVM addresses compare in lower case, Solana's as they are.
    onrampDepositors: new Set((opts.onrampProvider?.depositors ?? []).map((d) => (d.startsWith("0x") ? d.toLowerCase() : d)))
  }
}

/** The origins a browser may call from (CORS): those some project allows. */
export const corsOriginOf =
  (projects: ReadonlyArray<ApiProject>) =>
  (origin: string): boolean =>
    projects.some((project) => (project.allowedOrigins === "loopback" ? isLoopbackOrigin(origin) : project.allowedOrigins.includes(origin)))

/**
 * Starts the one HTTP server of the wallet catalogue (spec 7.3), the blockchain service (7.4) and the RPC proxy (7.2),
 * on 127.0.0.1 at `port` (0: one the OS chooses), with its database (started and stopped here unless one is given).
 */
export const startServices = async (opts: ServicesOptions): Promise<Started<ServicesInfo>> => {
  const { database: dbOption } = opts
  const db =
    dbOption !== undefined && "run" in dbOption ? { info: dbOption, stop: () => Promise.resolve() } : await startDatabase(dbOption)
  const { projects } = opts
  let info: ServicesInfo | undefined
  // The plain routes (pages, not part of the API), kept to tell a known path with another method (405) from none (404).
  let pages: ReadonlyArray<HttpRouter.Route> = []
  const routes = () => [...routesOf(ServicesApi), ...pages.map((route) => ({ method: route.method, path: route.path }))]
  // Built once the server listens: the answers name the server's own URL (images, the test wallet page).
  const app = Layer.unwrap(
    Effect.gen(function* () {
      const server = yield* HttpServer.HttpServer
      const port = server.address._tag === "UnixPathAddress" ? 0 : server.address.port
      const host = opts.host ?? "127.0.0.1"
      const baseUrl = opts.publicUrl ?? `http://${host.includes(":") ? `[${host}]` : host}:${port}`
      info = { url: baseUrl, port, projects }
      const state = servicesState(opts, baseUrl, db.info)
      const swapProvider =
        opts.swapProvider ??
        uniswapV2Provider(
          (opts.evm?.chains ?? []).flatMap((chain, i) =>
            chain.swap === undefined
              ? []
              : [{ network: chain.caipNetworkId, rpc: state.evm[i]!.rpc, router: chain.swap.uniswapV2Router, tokens: chain.contracts.tokens }]
          ),
          state.now
        )
      const catalogue = typeof opts.catalogue === "function" ? opts.catalogue(baseUrl) : (opts.catalogue ?? bundledCatalogue())
      const extraRoutes = yield* Effect.try({ try: () => opts.extraRoutes?.(baseUrl) ?? Layer.empty, catch: (error) => error })
      const others: ReadonlyArray<readonly [string, string]> = [
        [
          `GET ${EXPLORER_PATH}/{caip2}/tx/{hash}, /address/{address} (/account/ on Solana), /nft/{contract}/{tokenId}, /token/{contract}`,
          "the block explorer of the served chains: HTML pages read from the chains (GET /explorer lists the networks)"
        ],
        ["GET /healthz, /readyz", "liveness, and readiness (the database answers and its migrations ran)"],
        ...(opts.recordedEvents === true ? [["GET /__events, DELETE /__events", "the analytics events received (test helpers)"] as const] : []),
        ...(opts.extraPages ?? [])
      ]
      pages = [
        ...explorerRoutes(state),
        ...pageRoutes({ ...(opts.listProjectsOnIndex === true ? { projectIds: projects.map((p) => p.projectId) } : {}), others })
      ]
      return Layer.mergeAll(
        (opts.routeTimeoutMs === undefined ? servicesApiLayer : servicesApiLayerWith(opts.routeTimeoutMs)).pipe(
          Layer.provide(Layer.succeed(Catalogue)(catalogue)),
          Layer.provide(Layer.succeed(ServicesDatabase)(db.info)),
          Layer.provide(Layer.succeed(ServicesContext)(state)),
          Layer.provide(Layer.succeed(SwapProvider)(swapProvider)),
          Layer.provide(opts.onrampProvider === undefined ? Layer.empty : Layer.succeed(OnrampProvider)(opts.onrampProvider)),
          Layer.provide(Layer.succeed(Projects)(projects))
        ),
        opts.recordedEvents === true ? recordedEventsRoutes(db.info) : Layer.empty,
        HttpRouter.addAll(pages),
        extraRoutes
      )
    })
  )
  let http: RunningHttpApp
  try {
    http = await startHttpApp(app, {
      ...opts.http,
      port: opts.port ?? 0,
      host: opts.host,
      corsOrigin: corsOriginOf(projects),
      routes,
      ready: Effect.tryPromise(() => migrationsApplied(db.info)).pipe(Effect.orElseSucceed(() => false))
    })
  } catch (error) {
    await Promise.all([db.stop(), opts.stopExtra?.()])
    throw error
  }
  if (info === undefined) throw new Error("the services server did not build its routes")
  const stop = async () => {
    await Promise.all([http.stop(), opts.stopExtra?.()])
    // After the server: no request is left to query it.
    await db.stop()
  }
  return { info, stop }
}
