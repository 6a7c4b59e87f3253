/**
 * The embedded wallet's server (issue 14): users, one-time codes, devices, sessions and each user's EVM and Solana
 * keys (sealed under a master key), behind the HTTP API of `../WalletServerApi.ts`, served by `../../http/app.ts`
 * (body limit, time-outs, `/healthz`, `/readyz`, drain on stop) with its OpenAPI document at `/openapi.json`. It runs
 * on the frame site's origin: the frame site's own routes are mounted beside it (`extraRoutes`).
 *
 * @example
 * const server = await startWalletServer({ masterKey, smtp: { host: "127.0.0.1", port }, chains: { evm: [] } })
 * // server.info.url: POST {url}/api/login/email …
 * await server.stop()
 */
import { type Clock, Effect, Layer } from "effect"
import { type HttpRouter, HttpServer } from "effect/http"
import { type Database, type DatabaseOptions, migrationsApplied, startDatabase } from "../../db/index"
import { type HttpAppOptions, routesOf, type RunningHttpApp, startHttpApp } from "../../http/app"
import type { Started } from "../../lib/Started"
import { sendMail } from "../../mail/send"
import { type DevProject, devProjects } from "../../services/projects"
import { WalletServerApi } from "../WalletServerApi"
import { walletServerApiLayer } from "./apiLayer"
import { socialCallbackLayer, socialCallbackRoutes } from "./socialCallback"
import type { FarcasterConfig } from "./farcaster"
import { checkMasterKey, MasterKeyMismatch, openBytes, openKey } from "./keys"
import { shareAad } from "./shares"
import * as shareStore from "./shareStore"
import type { WalletChains } from "./rpc"
import { PRUNE_EVERY_MS, sweepForever } from "./prune"
import * as store from "./store"
import { makeLongPollPlaces, type VisitorLimits } from "./visitorLimits"
import { isOwnOrigin, type WalletServerDeps, WalletServerEnv } from "./WalletServerEnv"

export type { WalletChains } from "./rpc"
export type { WalletServerDeps } from "./WalletServerEnv"
export type { FarcasterConfig } from "./farcaster"

/** Plain routes served beside the API (the frame site's page and assets), and what they are for the 405 answer. */
export interface ExtraRoutes {
  readonly layer: Layer.Layer<never, never, HttpRouter.HttpRouter>
  readonly routes: ReadonlyArray<{ readonly method: string; readonly path: string }>
}

/** How to start the wallet server. */
export interface WalletServerOptions {
  /** Port to listen on (0 or absent: the OS chooses). */
  readonly port?: number
  /** Address to listen on (default 127.0.0.1). */
  readonly host?: string
  /** 32 bytes sealing the users' keys: the same key must be given at every start on the same database. */
  readonly masterKey: Uint8Array
  /** The SMTP server the codes and device links go through (the devstack's sink). */
  readonly smtp: { readonly host?: string; readonly port: number }
  /** The sender of those mails (default `wallet@devstack.local`). */
  readonly from?: string
  /** Sends the mails instead of the plain SMTP client (no TLS, no auth) to `smtp`: e.g. one with TLS and a login. */
  readonly sendMail?: WalletServerDeps["sendMail"]
  /**
   * The HTTP server's limits (body size, time-outs on receiving a request, drain time on stop), access log and the
   * proxies in front of it (app.ts defaults).
   */
  readonly http?: Pick<HttpAppOptions, "maxBodyBytes" | "requestTimeoutMs" | "headersTimeoutMs" | "drainMs" | "accessLog" | "trustedProxies">
  readonly chains: WalletChains
  /** A running database (its owner stops it), or where to start one (stopped with the server; default: PGlite in memory). */
  readonly database?: Database | DatabaseOptions
  readonly projects?: ReadonlyArray<DevProject>
  /**
   * Where the server is reached from browsers (default its own `http://{host}:{port}`): device links point here, and
   * a browser request from any other origin is refused.
   */
  readonly publicUrl?: string
  /**
   * Without `publicUrl`: the host name browsers reach the server by, on its own port (default the listening address).
   * The local stack says `localhost` while its pages are on 127.0.0.1, so the frame's storage is its own.
   */
  readonly publicHost?: string
  /** More routes on the same server (the frame site's pages: `frameSiteRoutes` of `../frame/routes.ts`). */
  readonly extraRoutes?: ExtraRoutes
  /** The clock in ms (default `Date.now`, moved on as far as `clock` is): tests move it past cool-downs and expiry. */
  readonly now?: () => number
  /**
   * The server's clock (default the system's): the long-polls (the device link's, Farcaster's status) wait on it, and `now` runs ahead of the real
   * time by as much as it was moved. A browser test passes a TestClock and moves it past the 30 s cool-down and the
   * 20 s device wait at once.
   */
  readonly clock?: Clock.Clock
  /** How the server reaches the social providers (default the global fetch). */
  readonly socialFetch?: (url: string, init: RequestInit) => Promise<Response>
  /** Sign In With Farcaster: the chain and id registry of fids' custody addresses; no Farcaster login without it. */
  readonly farcaster?: FarcasterConfig
  /** How recent a login must be for the split-key shares to be given out or replaced (default 10 minutes). */
  readonly freshLoginMs?: number
  /**
   * The passkeys' relying party ID (default the host name of `publicUrl`): the host's own domain where the host serves
   * the frame from a name under it, so its users' passkeys outlive any vendor.
   */
  readonly passkeyRpId?: string
  /**
   * Requests per minute a network address may make on the passkey, Farcaster relay, login start and key export
   * routes, and long-polls it and the whole process may hold at once (429 past them).
   */
  readonly visitorLimits?: Partial<VisitorLimits>
  /** How often expired ceremonies, channels, logins and limit counts are deleted (default 5 minutes; also at start). */
  readonly pruneEveryMs?: number
}

/** What a running wallet server exposes. */
export interface WalletServerInfo {
  /** `http://127.0.0.1:{port}`. */
  readonly url: string
  readonly port: number
  readonly publicUrl: string
  readonly database: Database
}

/**
 * Fails when the database holds keys or server shares the master key cannot open: a server with the wrong key must
 * not start (it would hand out shares it cannot open, or refuse every signature).
 */
export const checkMasterKeyOpens = async (database: Database, masterKey: Uint8Array): Promise<void> => {
  const any = await database.run(store.anyKey())
  if (any !== undefined) openKey(masterKey, any.userId, any.key.family, any.key).fill(0)
  const split = await database.run(shareStore.anySplit())
  if (split === undefined) return
  const { family, address, splitId, serverShare } = split.split
  const opened = openBytes(masterKey, shareAad(split.userId, family, address, splitId), serverShare)
  if (opened === undefined) throw new MasterKeyMismatch(family)
  opened.fill(0)
}

/** Starts the wallet server; fails when the master key cannot open the keys the database holds. */
export const startWalletServer = async (opts: WalletServerOptions): Promise<Started<WalletServerInfo>> => {
  const masterKey = checkMasterKey(new Uint8Array(opts.masterKey))
  const given = opts.database !== undefined && "run" in opts.database ? opts.database : undefined
  const db = given === undefined ? await startDatabase(opts.database as DatabaseOptions | undefined) : undefined
  const database = given ?? db?.info
  if (database === undefined) throw new Error("unreachable: no database")
  const host = opts.host ?? "127.0.0.1"
  const smtp = opts.smtp
  const from = opts.from ?? "wallet@devstack.local"
  let publicUrl = opts.publicUrl
  const clock = opts.clock
  const clockAtStart = clock?.currentTimeMillisUnsafe() ?? 0
  // Built once the server listens: without a public URL, the device links and the origin check use its own address.
  const app = Layer.unwrap(
    Effect.gen(function* () {
      const server = yield* HttpServer.HttpServer
      const port = server.address._tag === "UnixPathAddress" ? 0 : server.address.port
      const name = opts.publicHost ?? host
      publicUrl ??= `http://${name.includes(":") ? `[${name}]` : name}:${port}`
      const env = WalletServerEnv.of({
        database,
        projects: opts.projects ?? devProjects,
        masterKey,
        chains: opts.chains,
        publicUrl,
        now: opts.now ?? (clock === undefined ? Date.now : () => Date.now() + clock.currentTimeMillisUnsafe() - clockAtStart),
        ...(clock === undefined ? {} : { clock }),
        ...(opts.socialFetch === undefined ? {} : { socialFetch: opts.socialFetch }),
        ...(opts.farcaster === undefined ? {} : { farcaster: opts.farcaster }),
        ...(opts.freshLoginMs === undefined ? {} : { freshLoginMs: opts.freshLoginMs }),
        ...(opts.passkeyRpId === undefined ? {} : { passkeyRpId: opts.passkeyRpId }),
        ...(opts.visitorLimits === undefined ? {} : { visitorLimits: opts.visitorLimits }),
        longPollPlaces: makeLongPollPlaces(),
        sendMail: opts.sendMail ?? ((mail) => sendMail({ ...(smtp.host === undefined ? {} : { host: smtp.host }), port: smtp.port, from, ...mail }))
      })
      // Ends with the server: its scope is the HTTP app's.
      const pruning = Layer.effectDiscard(Effect.forkScoped(sweepForever(env, opts.pruneEveryMs ?? PRUNE_EVERY_MS)))
      return Layer.mergeAll(
        Layer.mergeAll(walletServerApiLayer, socialCallbackLayer).pipe(Layer.provide(Layer.succeed(WalletServerEnv)(env))),
        pruning,
        opts.extraRoutes?.layer ?? Layer.empty
      )
    })
  )
  let http: RunningHttpApp | undefined
  try {
    await checkMasterKeyOpens(database, masterKey)
    http = await startHttpApp(app, {
      ...opts.http,
      port: opts.port ?? 0,
      host,
      // The API answers only its own origin's pages (the frame's): no other origin is let in by CORS either.
      corsOrigin: (origin) => publicUrl !== undefined && isOwnOrigin(publicUrl)(origin),
      routes: () => [...routesOf(WalletServerApi), ...socialCallbackRoutes, ...(opts.extraRoutes?.routes ?? [])],
      ready: Effect.tryPromise(() => migrationsApplied(database)).pipe(Effect.orElseSucceed(() => false))
    })
    if (publicUrl === undefined) throw new Error("the wallet server did not build its routes")
    const running = http
    const info = { url: running.url, port: running.port, publicUrl, database }
    let stopping: Promise<void> | undefined
    return {
      info,
      stop: () => {
        // After the server: no request is left to query the database.
        stopping ??= running.stop().then(() => db?.stop())
        return stopping
      }
    }
  } catch (error) {
    await http?.stop()
    await db?.stop()
    throw error
  }
}
