/**
 * Limits per visitor on the wallet server's routes anyone may call before logging in and that cost the server more
 * than a lookup: the passkey ceremony (a row per start, a signature check per answer), Farcaster's channel relay
 * (a chain read per signed message), the starts of a social or Farcaster login (a row each), and the confirmation of a
 * key's export (a mail, a signature check). Requests are counted per route and per network address in the database
 * (`wallet_rate_limits`), shared by every process of the server, like the email's mail cool-down; past the limit a
 * request is a 429 `rate_limited` saying when to try again, and is not counted. The minute slides: the count is this
 * window's requests plus the last window's weighed by the part of it still within the last minute (the weighted
 * two-window counter), so the limit's worth at the end of one window and again at the start of the next is refused,
 * where two fixed windows would let twice the limit through in a few seconds.
 *
 * The long-polls (the device link's wait and Farcaster's status) are bounded differently: by how many wait at once,
 * per network address and route, and in the whole process. That count is kept in the process's memory, not in the
 * database: a waiting poll holds one of this process's connections and reads the database on this process's timer,
 * so what it costs is this process's, and the count must fall the moment the poll ends however it ends (answered,
 * failed, or its client gone), which a process that dies mid-wait could never write to a shared count.
 */
import { Clock, Effect, Option } from "effect"
import { HttpServerRequest } from "effect/http"
import { WalletTooManyRequests } from "../WalletServerApi"
import * as store from "./store"
import { runQuery, type WalletServerDeps } from "./WalletServerEnv"

/** What one network address may do on each limited group of routes, and what the process holds at once. */
export interface VisitorLimits {
  /** Requests per minute on `POST /api/passkey/start`, `/options`, `/verify` and `/finish` together (a login takes one of each). */
  readonly passkey: number
  /** Requests per minute on `POST /v1/channel/authenticate` (a Farcaster client posts one per sign-in). */
  readonly farcasterRelay: number
  /** Requests per minute on `POST /api/social/start` and `POST /api/farcaster/channel` together (a login starts one). */
  readonly loginStart: number
  /** Requests per minute on `POST /api/keys/export/start`, `/confirm` and `/share` together (showing a key takes one of each). */
  readonly keyExport: number
  /** Long-polls waiting at once on each of `POST /api/login/device` and `POST /api/farcaster/status` (a login waits on one). */
  readonly longPolls: number
  /** Long-polls waiting at once in the whole process, every address and both routes together. */
  readonly longPollsInProcess: number
}

/** The groups of routes counted per minute. */
export type RequestGroup = "passkey" | "farcasterRelay" | "loginStart" | "keyExport"

/** The long-polls, each counted on its own. */
export type LongPollRoute = "deviceLink" | "farcasterStatus"

/**
 * The limits without configuration: a visitor retrying a few logins a minute, in a few tabs, never meets them; 200
 * waits read the database at most 400 times a second.
 */
export const DEFAULT_VISITOR_LIMITS: VisitorLimits = {
  passkey: 40,
  farcasterRelay: 20,
  loginStart: 30,
  keyExport: 30,
  longPolls: 4,
  longPollsInProcess: 200
}

/** The window requests are counted in: a minute, sliding (the last window weighs by the part of it left). */
export const VISITOR_LIMIT_WINDOW_MS = 60_000

const limitsOf = (deps: WalletServerDeps): VisitorLimits => ({ ...DEFAULT_VISITOR_LIMITS, ...deps.visitorLimits })

// Node always knows the peer; a request without one (no socket) is counted with every other such request.
const visitorAddress = Effect.map(Effect.service(HttpServerRequest.HttpServerRequest), (request) => Option.getOrElse(request.remoteAddress, () => "unknown"))

const tooMany = (error: (seconds: number) => string, untilMs: number, nowMs: number) => {
  const seconds = Math.max(1, Math.ceil((untilMs - nowMs) / 1000))
  return new WalletTooManyRequests({ code: "rate_limited", error: error(seconds), retryAfterSeconds: seconds })
}

/**
 * When (ms) one more request fits `limit` under `count`, weighed as `store.countRequest` weighs it: the earliest such
 * moment. Any later one fits too (the weight only falls while nothing is counted), so a `Retry-After` from it is true.
 */
export const nextFitsAt = (count: store.WindowCount, limit: number, windowMs: number): number => {
  const start = count.windowStart.getTime()
  // Within the stored window: its requests and one more, with the window before it weighed by what of it is left.
  if (count.hits + 1 <= limit) {
    if (count.previousHits === 0) return start
    const at = start + windowMs - Math.floor(((limit - count.hits - 1) * windowMs) / count.previousHits)
    if (at < start + windowMs) return Math.max(start, at)
  }
  // Within the window after it: one request, with the stored window's weighed.
  if (count.hits === 0) return start + windowMs
  return Math.max(start + windowMs, start + 2 * windowMs - Math.floor(((limit - 1) * windowMs) / count.hits))
}

/**
 * Counts this request against the limit of `group` for the request's network address, in a sliding minute; past
 * it, a 429 `rate_limited` with `Retry-After` (the request is not counted then).
 */
export const limitVisitor = Effect.fn("WalletServer.limitVisitor")(function* (deps: WalletServerDeps, group: RequestGroup) {
  const address = yield* visitorAddress
  const limit = limitsOf(deps)[group]
  const at = deps.now()
  const refused = yield* runQuery(deps, store.countRequest(`${group}:${address}`, new Date(at), VISITOR_LIMIT_WINDOW_MS, limit))
  if (refused === undefined) return
  return yield* tooMany(
    (seconds) => `Too many attempts from your network. Please try again after ${seconds} seconds.`,
    nextFitsAt(refused, limit, VISITOR_LIMIT_WINDOW_MS),
    at
  )
})

interface LongPollPlace {
  /** When the poll's wait is over at the latest (ms, the server's clock). */
  readonly endsAt: number
}

/** The long-polls waiting in one process, by route and address, and all together. */
export interface LongPollPlaces {
  /** The places taken, by `route:address`; a key with none is removed. */
  readonly byKey: Map<string, Set<LongPollPlace>>
  /** Every place taken in the process. */
  readonly all: Set<LongPollPlace>
}

/** A process's long-polls, none waiting: made once per server, shared by its routes. */
export const makeLongPollPlaces = (): LongPollPlaces => ({ byKey: new Map(), all: new Set() })

const earliestEnd = (places: Iterable<LongPollPlace>) => Math.min(...Array.from(places, (place) => place.endsAt))

/**
 * Runs `wait`, a long-poll of `route` that ends within `waitMs`, in one of the places of the request's network
 * address and of the process; when none is free, a 429 `rate_limited` whose `Retry-After` is when the first of
 * those waiting ends. The place is given back however `wait` ends: answered, failed, or interrupted (the client gone).
 * `wait` runs on the server's clock (`deps.clock`), the one its place's end is counted on, so that end is when it ends.
 */
export const holdLongPoll = <A, E, R>(deps: WalletServerDeps, route: LongPollRoute, waitMs: number, wait: Effect.Effect<A, E, R>) =>
  Effect.gen(function* () {
    const key = `${route}:${yield* visitorAddress}`
    const limits = limitsOf(deps)
    const { byKey, all } = deps.longPollPlaces
    const take = Effect.suspend(() => {
      const now = deps.now()
      const mine = byKey.get(key) ?? new Set<LongPollPlace>()
      const full =
        mine.size >= limits.longPolls
          ? { until: earliestEnd(mine), words: "Too many logins are waiting from your network" }
          : all.size >= limits.longPollsInProcess
            ? { until: earliestEnd(all), words: "Too many logins are waiting on the wallet server" }
            : undefined
      if (full !== undefined) return Effect.fail(tooMany((seconds) => `${full.words}. Please try again after ${seconds} seconds.`, full.until, now))
      const place: LongPollPlace = { endsAt: now + waitMs }
      mine.add(place)
      byKey.set(key, mine)
      all.add(place)
      return Effect.succeed(place)
    })
    const onServerClock = deps.clock === undefined ? wait : Effect.provideService(wait, Clock.Clock, deps.clock)
    return yield* Effect.acquireUseRelease(take, () => onServerClock, (place) =>
      Effect.sync(() => {
        all.delete(place)
        const mine = byKey.get(key)
        mine?.delete(place)
        if (mine?.size === 0) byKey.delete(key)
      })
    )
  })
