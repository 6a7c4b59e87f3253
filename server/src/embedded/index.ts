/**
 * The embedded wallet: the wallet server with the frame site's routes beside its API, so the frame's origin is the
 * server's (locally `http://localhost:{port}`: its own port, and another host name than the demo's 127.0.0.1, so no
 * other local page shares the frame's storage). In the local stack it
 * shares the services' database, mails through the stack's SMTP sink, and signs on the stack's chains.
 */
import { randomBytes } from "node:crypto"
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { dirname } from "node:path"
import type { Database } from "../db/index"
import type { Started } from "../lib/Started"
import type { DevProject } from "../services/projects"
import { makeFramePageBuilder } from "./frame/build"
import { frameSiteRoutes } from "./frame/routes"
import { startWalletServer, type WalletServerOptions } from "./server/index"
import type { WalletChains } from "./server/rpc"

/** What the embedded part exposes. */
export interface EmbeddedInfo {
  /** Where the server listens (`http://{host}:{port}`). */
  readonly url: string
  /** The frame origin as browsers reach it (the runtime's `endpoints.frame`); the frame page is `{publicUrl}/frame`. */
  readonly publicUrl: string
}

/** What the embedded part needs of the rest of the stack. */
export interface EmbeddedOptions {
  readonly database: Database
  readonly smtp: { readonly host: string; readonly port: number }
  readonly chains: WalletChains
  /** The master key sealing the users' keys; a new random one (fine for a database gone at stop) by default. */
  readonly masterKey?: Uint8Array
  /** Build the frame page at start (the CLI does); otherwise on its first visit. */
  readonly buildFrameAtStart?: boolean
  /** The folder the frame page is built into, an absolute path (default the local stack's, `frameBuildRoot`). */
  readonly frameBuildDir?: string
  /** Port to listen on (0 or absent: the OS chooses). */
  readonly port?: number
  /** Address to listen on (default 127.0.0.1). */
  readonly host?: string
  /** The frame origin as browsers reach it (default the server's own address): device links and the origin check use it. */
  readonly publicUrl?: string
  /** Without `publicUrl`: the host name browsers use, on the server's port (the local stack: `localhost`). */
  readonly publicHost?: string
  /** The projects whose hosts may embed the frame (default the devstack's). */
  readonly projects?: ReadonlyArray<DevProject>
  /**
   * The wallet server's sender, mail client, HTTP limits, clock, fresh-login bound, passkeys' RP ID and limits per
   * visitor (its options of the same names).
   */
  readonly server?: Pick<WalletServerOptions, "from" | "sendMail" | "http" | "clock" | "freshLoginMs" | "passkeyRpId" | "visitorLimits">
  /** Sign In With Farcaster: the chain and id registry of fids' custody addresses; no Farcaster login without it. */
  readonly farcaster?: WalletServerOptions["farcaster"]
}

/**
 * The master key kept in `path` (64 hex digits, readable by its owner only), made on first use: a PGlite data
 * directory kept across restarts needs the same key at every start to open the keys it holds.
 */
export const masterKeyFile = (path: string): Uint8Array => {
  if (existsSync(path)) {
    const hex = readFileSync(path, "utf8").trim()
    if (!/^[0-9a-f]{64}$/i.test(hex)) throw new Error(`${path} does not hold a master key (64 hex digits)`)
    return Buffer.from(hex, "hex")
  }
  const key = randomBytes(32)
  mkdirSync(dirname(path), { recursive: true })
  writeFileSync(path, `${key.toString("hex")}\n`, { mode: 0o600 })
  chmodSync(path, 0o600)
  return key
}

/** Starts the wallet server with the frame site (on 127.0.0.1 unless `host` says otherwise). */
export const startEmbedded = async (opts: EmbeddedOptions): Promise<Started<EmbeddedInfo>> => {
  const builder = makeFramePageBuilder(opts.frameBuildDir)
  try {
    if (opts.buildFrameAtStart === true) builder.latest()
    const server = await startWalletServer({
      ...opts.server,
      masterKey: opts.masterKey ?? randomBytes(32),
      smtp: opts.smtp,
      chains: opts.chains,
      database: opts.database,
      ...(opts.port === undefined ? {} : { port: opts.port }),
      ...(opts.host === undefined ? {} : { host: opts.host }),
      ...(opts.publicUrl === undefined ? {} : { publicUrl: opts.publicUrl }),
      ...(opts.publicHost === undefined ? {} : { publicHost: opts.publicHost }),
      ...(opts.projects === undefined ? {} : { projects: opts.projects }),
      ...(opts.farcaster === undefined ? {} : { farcaster: opts.farcaster }),
      extraRoutes: frameSiteRoutes({ builder, ...(opts.projects === undefined ? {} : { projects: opts.projects }) })
    })
    return {
      info: { url: server.info.url, publicUrl: server.info.publicUrl },
      stop: () => Promise.all([server.stop(), builder.stop()]).then(() => undefined)
    }
  } catch (error) {
    await builder.stop()
    throw error
  }
}
