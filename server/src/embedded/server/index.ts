/**
 * The embedded wallet's server (issue 14): users, one-time codes, devices, sessions and each user's EVM and Solana
 * keys (sealed under a master key), behind the HTTP API of `../api.ts`. It runs on the frame site's origin: the frame
 * site's own routes are mounted beside it (`extraRoutes`).
 *
 * @example
 * const server = await startWalletServer({ masterKey, smtp: { host: "127.0.0.1", port }, chains: { evm: [] } })
 * // server.info.url: POST {url}/api/login/email …
 * await server.stop()
 */
import { type Database, type DatabaseOptions, startDatabase } from "../../db/index"
import { listenHttp } from "../../lib/httpServer"
import { type AnyRoute, makeRouter } from "../../lib/router"
import type { Started } from "../../lib/Started"
import { sendMail } from "../../mail/send"
import { type DevProject, devProjects } from "../../services/projects"
import { checkMasterKey } from "./keys"
import type { WalletChains } from "./rpc"
import { checkMasterKeyOpens, walletServerRoutes } from "./routes"

export { walletServerRoutes, type WalletServerDeps } from "./routes"
export type { WalletChains } from "./rpc"

/** How to start the wallet server. */
export interface WalletServerOptions {
  /** Port on 127.0.0.1 (0 or absent: the OS chooses). */
  readonly port?: number
  /** 32 bytes sealing the users' keys: the same key must be given at every start on the same database. */
  readonly masterKey: Uint8Array
  /** The SMTP server the codes and device links go through (the devstack's sink). */
  readonly smtp: { readonly host?: string; readonly port: number }
  /** The sender of those mails (default `wallet@devstack.local`). */
  readonly from?: string
  readonly chains: WalletChains
  /** A running database (its owner stops it), or where to start one (stopped with the server; default: PGlite in memory). */
  readonly database?: Database | DatabaseOptions
  readonly projects?: ReadonlyArray<DevProject>
  /** Where the server is reached from browsers (default its own `http://127.0.0.1:{port}`): device links point here. */
  readonly publicUrl?: string
  /** More routes on the same server (the frame site's pages). */
  readonly extraRoutes?: ReadonlyArray<AnyRoute>
  /** The clock in ms (default `Date.now`): tests move it past cool-downs and expiry. */
  readonly now?: () => number
}

/** What a running wallet server exposes. */
export interface WalletServerInfo {
  /** `http://127.0.0.1:{port}`. */
  readonly url: string
  readonly port: number
  readonly publicUrl: string
  readonly database: Database
}

/** Starts the wallet server on 127.0.0.1; fails when the master key cannot open the keys the database holds. */
export const startWalletServer = async (opts: WalletServerOptions): Promise<Started<WalletServerInfo>> => {
  const masterKey = checkMasterKey(new Uint8Array(opts.masterKey))
  const given = opts.database !== undefined && "run" in opts.database ? opts.database : undefined
  const db = given === undefined ? await startDatabase(opts.database as DatabaseOptions | undefined) : undefined
  const database = given ?? db?.info
  if (database === undefined) throw new Error("unreachable: no database")
  let http: Awaited<ReturnType<typeof listenHttp>> | undefined
  try {
    await checkMasterKeyOpens(database, masterKey)
    http = await listenHttp(opts.port)
    const publicUrl = opts.publicUrl ?? http.url
    const smtp = opts.smtp
    const from = opts.from ?? "wallet@devstack.local"
    const projects = opts.projects ?? devProjects
    const routes = walletServerRoutes({
      database,
      projects,
      masterKey,
      chains: opts.chains,
      publicUrl,
      now: opts.now ?? Date.now,
      sendMail: (mail) => sendMail({ ...(smtp.host === undefined ? {} : { host: smtp.host }), port: smtp.port, from, ...mail })
    })
    http.handle(makeRouter([...routes, ...(opts.extraRoutes ?? [])], projects))
    const server = http
    let stopping: Promise<void> | undefined
    return {
      info: { url: server.url, port: server.port, publicUrl, database },
      stop: () => {
        stopping ??= server.stop().then(() => db?.stop())
        return stopping
      }
    }
  } catch (error) {
    await http?.stop()
    await db?.stop()
    throw error
  }
}
