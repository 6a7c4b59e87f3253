import { Schema } from "effect"
import type { Address } from "viem"
import { NFTS_PAGE_SIZE } from "../../../src/domain/Api"
import { CaipNetworkId } from "../../../src/domain/Caip"
import { type Database, type DatabaseOptions, startDatabase } from "../db/index"
import { listenHttp } from "../lib/httpServer"
import { type AnyRoute, makeRouter } from "../lib/router"
import type { Started } from "../lib/Started"
import type { TokenInfo } from "./chains"
import { blockchainRoutes } from "./blockchain"
import { makeCatalogue } from "./catalogue"
import { explorerRoutes } from "./explorer"
import { ChainIndex } from "./indexer"
import { devNames } from "./names"
import { namesRoutes } from "./namesRoutes"
import { pageRoutes } from "./pages"
import { type DevProject, devProjects } from "./projects"
import { rpcProxyRoutes } from "./rpcProxy"
import { sessionRoutes } from "./sessions"
import type { EvmChainState, ServicesState } from "./state"
import { TokenRegistry } from "./tokens"
import { walletApiRoutes } from "./walletApi"

/** A collection (ERC-721) the services name. */
export interface CollectionInfo {
  readonly address: Address
  readonly name: string
  readonly symbol: string
}

/** An EVM chain the services serve: where to read it, and the contracts they name (tokens, a collectible, a spam one). */
export interface ServicesEvmChain {
  readonly chainId: number
  readonly caipNetworkId: CaipNetworkId
  readonly rpcUrl: string
  readonly contracts: {
    readonly tokens: ReadonlyArray<TokenInfo & { readonly address: Address }>
    readonly collectible: CollectionInfo
    readonly spamCollectible: CollectionInfo
  }
}

/** What the services server needs to know about the rest of the stack. */
export interface ServicesOptions {
  readonly port?: number
  readonly evm?: { readonly chains: ReadonlyArray<ServicesEvmChain>; readonly accounts: ReadonlyArray<{ readonly address: string }> }
  /** The Solana network: its RPC (the stack's or any other) and the tokens to name (the stack's WSUSD). */
  readonly solana?: {
    readonly caipNetworkId: string
    readonly rpcUrl: string
    readonly tokens?: ReadonlyArray<TokenInfo>
  }
  /** The test wallet page the catalogue's test wallet entries link to (ends with `/`; default `{url}/test-wallet/`). */
  readonly testWalletUrl?: string
  /** More routes on the same server (the devstack's test wallet page), made once its URL is known. */
  readonly extraRoutes?: (baseUrl: string) => ReadonlyArray<AnyRoute>
  /** Stops what the extra routes started (a page build in progress), after the server. */
  readonly stopExtra?: () => Promise<void>
  /** Transactions per history page (default 20). */
  readonly historyPageSize?: number
  /** NFTs per page of `/v1/account/{address}/nfts` (default `NFTS_PAGE_SIZE`). */
  readonly nftPageSize?: number
  readonly projects?: ReadonlyArray<DevProject>
  /**
   * The database of names and sign-in sessions (`devstack/db`): PGlite in `dataDir` (kept across restarts), a real
   * Postgres at `url`, or (absent) an empty PGlite in memory, gone at stop; the services start and stop it. Or a
   * running `Database` someone else started (and stops): `startDevstack` starts it beside the chains.
   */
  readonly database?: DatabaseOptions | Database
  /** The services' clock in ms (default `Date.now`): tests move it to expire nonces and sessions. */
  readonly now?: () => number
}

/** What the running services server exposes. */
export interface ServicesInfo {
  /** `http://127.0.0.1:{port}`: the catalogue, the blockchain service and the RPC proxy (`{url}/v1/`). */
  readonly url: string
  readonly port: number
  readonly projects: ReadonlyArray<DevProject>
  readonly testWalletUrl: string
}

/** Starts the one HTTP server of the wallet catalogue (spec 7.3), the blockchain service (7.4) and the RPC proxy (7.2). */
export const startServices = async (opts: ServicesOptions = {}): Promise<Started<ServicesInfo>> => {
  const { database: dbOption } = opts
  const [listening, database] = await Promise.allSettled([
    listenHttp(opts.port),
    dbOption !== undefined && "run" in dbOption
      ? Promise.resolve({ info: dbOption, stop: () => Promise.resolve() })
      : startDatabase(dbOption)
  ])
  if (listening.status === "rejected" || database.status === "rejected") {
    await Promise.allSettled([
      listening.status === "fulfilled" ? listening.value.stop() : undefined,
      database.status === "fulfilled" ? database.value.stop() : undefined
    ])
    throw listening.status === "rejected" ? listening.reason : (database as PromiseRejectedResult).reason
  }
  const http = listening.value
  const db = database.value
  const { port, url: baseUrl } = http
  const projects = opts.projects ?? devProjects
  const testWalletUrl = opts.testWalletUrl ?? `${baseUrl}/test-wallet/`
  const evm = (opts.evm?.chains ?? []).map(
    (chain): EvmChainState => ({
      chainId: chain.chainId,
      caipNetworkId: chain.caipNetworkId,
      rpcUrl: chain.rpcUrl,
      index: new ChainIndex(chain.chainId, chain.rpcUrl),
      tokens: new TokenRegistry(chain.rpcUrl, [
        ...chain.contracts.tokens,
        { ...chain.contracts.collectible, decimals: undefined },
        { ...chain.contracts.spamCollectible, decimals: undefined }
      ]),
      listedTokens: chain.contracts.tokens.map((token) => token.address),
      spamContracts: new Set([chain.contracts.spamCollectible.address.toLowerCase()])
    })
  )
  const state: ServicesState = {
    baseUrl,
    evm,
    solana:
      opts.solana === undefined
        ? undefined
        : {
            caipNetworkId: Schema.decodeSync(CaipNetworkId)(opts.solana.caipNetworkId),
            rpcUrl: opts.solana.rpcUrl,
            tokens: opts.solana.tokens ?? [],
            baseUrl
          },
    names: devNames(opts.evm?.accounts ?? []),
    historyPageSize: opts.historyPageSize ?? 20,
    nftPageSize: opts.nftPageSize ?? NFTS_PAGE_SIZE,
    db: db.info,
    now: opts.now ?? Date.now
  }
  const catalogue = makeCatalogue({
    imageBase: `${baseUrl}/getWalletImage`,
    testWalletUrl,
    ...(state.solana === undefined ? {} : { localSolana: state.solana.caipNetworkId })
  })
  let extraRoutes: ReadonlyArray<AnyRoute>
  try {
    extraRoutes = opts.extraRoutes?.(baseUrl) ?? []
  } catch (error) {
    await Promise.all([http.stop(), db.stop(), opts.stopExtra?.()])
    throw error
  }
  http.handle(
    makeRouter(
      [
        ...walletApiRoutes(catalogue),
        ...blockchainRoutes(state),
        ...namesRoutes(state),
        ...rpcProxyRoutes(state),
        ...sessionRoutes(state),
        ...explorerRoutes(state),
        ...pageRoutes({ projectIds: projects.map((p) => p.projectId) }),
        ...extraRoutes
      ],
      projects
    )
  )
  const stop = async () => {
    await Promise.all([http.stop(), opts.stopExtra?.()])
    // After the server: no request is left to query it.
    await db.stop()
  }
  return { info: { url: baseUrl, port, projects, testWalletUrl }, stop }
}
