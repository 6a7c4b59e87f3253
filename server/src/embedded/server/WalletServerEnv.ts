/**
 * What the wallet server's handlers and middlewares need, as one service given at build time: its database, projects,
 * mail, master key, chains, public URL and clock.
 */
import { type Clock, Context, Effect } from "effect"
import type { SqlClient } from "effect/sql"
import type { Database } from "../../db/index"
import { isLoopbackOrigin } from "../../services/projects"
import type { DevProject } from "../../services/projects"
import type { FarcasterConfig } from "./farcaster"
import type { WalletChains } from "./rpc"
import type { LongPollPlaces, VisitorLimits } from "./visitorLimits"

/** What the wallet server's routes need. */
export interface WalletServerDeps {
  readonly database: Database
  readonly projects: ReadonlyArray<DevProject>
  /** Sends one plain-text mail. */
  readonly sendMail: (mail: { readonly to: string; readonly subject: string; readonly text: string }) => Promise<void>
  /** 32 bytes: seals the keys, keys the code HMACs. */
  readonly masterKey: Uint8Array
  readonly chains: WalletChains
  /** Where the server is reached (its own origin, the frame's): the device links point here. */
  readonly publicUrl: string
  /** The clock in ms (tests move it for cool-downs and expiry). */
  readonly now: () => number
  /** The clock the long-polls wait on (default the system's): a test's TestClock ends their waits at once. */
  readonly clock?: Clock.Clock
  /** How the server reaches the social providers (default the global fetch). */
  readonly socialFetch?: (url: string, init: RequestInit) => Promise<Response>
  /** Sign In With Farcaster: where fids' custody addresses are read; no Farcaster login without it. */
  readonly farcaster?: FarcasterConfig
  /** How recent a login must be for the split-key shares to be given out or replaced (default 10 minutes). */
  readonly freshLoginMs?: number
  /** The passkeys' relying party ID (default the host name of `publicUrl`): a registrable suffix of that host name. */
  readonly passkeyRpId?: string
  /** What a network address may do on the limited routes, and the long-polls the process holds (defaults in `./visitorLimits.ts`). */
  readonly visitorLimits?: Partial<VisitorLimits>
  /** This process's long-polls waiting now (one per server, shared by its routes). */
  readonly longPollPlaces: LongPollPlaces
}

/** The wallet server's {@link WalletServerDeps}. */
export class WalletServerEnv extends Context.Service<WalletServerEnv, WalletServerDeps>()("wallet-runtime-server/WalletServerEnv") {}

/**
 * Runs a query on the wallet server's database. A database failure is a defect: the API answers it 503 with
 * `Retry-After` (nothing was written), any other failure of the query 500.
 */
export const runQuery = <A, E>(deps: WalletServerDeps, effect: Effect.Effect<A, E, SqlClient.SqlClient>): Effect.Effect<A> =>
  Effect.promise(() => deps.database.run(effect))

/**
 * Whether `origin` is the server's own: its public origin, or (for a server on loopback) any loopback name of the
 * same port, as the frame page may be opened by either.
 */
export const isOwnOrigin = (publicUrl: string) => {
  const own = new URL(publicUrl)
  return (origin: string): boolean => {
    if (origin === own.origin) return true
    if (!isLoopbackOrigin(origin) || !isLoopbackOrigin(own.origin)) return false
    return new URL(origin).port === own.port
  }
}
