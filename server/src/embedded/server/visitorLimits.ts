/**
 * Limits per visitor on the wallet server's routes anyone may call before logging in and that cost the server more
 * than a lookup: the passkey ceremony (a row per start, a signature check per answer), Farcaster's channel relay
 * (a chain read per signed message), the starts of a social or Farcaster login (a row each), and the confirmation of a
 * key's export (a mail, a signature check). Requests are counted per route and per network address in the database
 * (`wallet_rate_limits`), shared by every process of the server, like the email's mail cool-down; past the limit a
 * request is a 429 `rate_limited` saying when to try again.
 */
import { Effect, Option } from "effect"
import { HttpServerRequest } from "effect/http"
import { WalletTooManyRequests } from "../WalletServerApi"
import * as store from "./store"
import { runQuery, type WalletServerDeps } from "./WalletServerEnv"

/** Requests one network address may make per minute on each limited group of routes. */
export interface VisitorLimits {
  /** `POST /api/passkey/start`, `/options`, `/verify` and `/finish` together (a login takes one of each). */
  readonly passkey: number
  /** `POST /v1/channel/authenticate` (a Farcaster client posts one per sign-in). */
  readonly farcasterRelay: number
  /** `POST /api/social/start` and `POST /api/farcaster/channel` together (a login starts one). */
  readonly loginStart: number
  /** `POST /api/keys/export/start`, `/confirm` and `/share` together (showing a key takes one of each). */
  readonly keyExport: number
}

/** The limits without configuration: a visitor retrying a few logins a minute never meets them. */
export const DEFAULT_VISITOR_LIMITS: VisitorLimits = { passkey: 40, farcasterRelay: 20, loginStart: 30, keyExport: 30 }

/** The window requests are counted in. */
export const VISITOR_LIMIT_WINDOW_MS = 60_000

/**
 * Counts this request against the limit of `group` for the request's network address; a 429 `rate_limited` with
 * `Retry-After` past it.
 */
export const limitVisitor = Effect.fn("WalletServer.limitVisitor")(function* (deps: WalletServerDeps, group: keyof VisitorLimits) {
  const request = yield* HttpServerRequest.HttpServerRequest
  // Node always knows the peer; a request without one (no socket) is counted with every other such request.
  const address = Option.getOrElse(request.remoteAddress, () => "unknown")
  const limit = { ...DEFAULT_VISITOR_LIMITS, ...deps.visitorLimits }[group]
  const counted = yield* runQuery(deps, store.countRequest(`${group}:${address}`, new Date(deps.now()), VISITOR_LIMIT_WINDOW_MS))
  if (counted.hits <= limit) return
  const seconds = Math.max(1, Math.ceil((counted.windowStart.getTime() + VISITOR_LIMIT_WINDOW_MS - deps.now()) / 1000))
  return yield* new WalletTooManyRequests({
    code: "rate_limited",
    error: `Too many tries from your network: please try again after ${seconds} seconds`,
    retryAfterSeconds: seconds
  })
})
