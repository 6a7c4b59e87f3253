/**
 * The wallet server's handlers (the API is `../WalletServerApi.ts`): login by email (a one-time code, or first a
 * mailed link for a device the email never used), sessions by bearer token, the user's addresses, email updates in
 * two codes, the chains' pass-through for the frame (which signs; the server signs nothing), and the project's
 * allowed origins. Every failure is one of the API's
 * declared errors, whose body is an `ApiFailure`.
 */
import { randomUUID } from "node:crypto"
import { Effect, PubSub, Schedule, Schema } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import type { SqlClient } from "effect/sql"
import { escapeHtml, htmlDocument } from "../../lib/html"
import { SocialLogin, SocialProvider } from "../../../../src/domain/Account"
import type { ApiProject } from "../../../../src/domain/http/middleware"
import { originAllowed } from "../../services/projects"
import type { WalletUser } from "../api"
import {
  WalletBadGateway,
  WalletBadRequest,
  WalletConflict,
  WalletForbidden,
  WalletInternalError,
  WalletProject,
  WalletServerApi,
  WalletSession,
  WalletTooManyRequests
} from "../WalletServerApi"
import { ApiError } from "../wallet/errors"
import { rpcFailure } from "./errors"
import { DARK_PAGE_CSS } from "./socialCallback"
import { codeHash, type KeyFamily, newCode, newToken, sameHash, tokenHash } from "./keys"
import { walletRpc } from "../wallet/walletRpc"
import { rpcChainsOf } from "./rpc"
import { channelUrl, FARCASTER_CHANNEL_TTL_MS, farcasterConnector, type FarcasterRefused, newChannelNonce, verifyFarcasterSignIn } from "./farcaster"
import { authorizationUrl, completeLogin, makeProviderMetadataCache, secretsOf, type SocialIdentity, type SocialLoginError } from "./social"
import * as callsStore from "./callsStore"
import * as shareStore from "./shareStore"
import { grantStoreOf, refundGrant } from "./permissionStore"
import * as store from "./store"
import { holdLongPoll, limitVisitor } from "./visitorLimits"
import { runQuery, type WalletServerDeps, WalletServerEnv } from "./WalletServerEnv"

/** A code is good for 10 minutes after it was sent. */
export const CODE_TTL_MS = 10 * 60_000
/** Wrong tries a code allows; the last one ends it. */
export const CODE_MAX_ATTEMPTS = 5
/** The least time between two login mails to one email. */
export const MAIL_COOLDOWN_MS = 30_000
/**
 * How long an email gets no new code after 5 wrong guesses (across its codes) since its last right one; doubled at each
 * further 5.
 */
export const LOCKOUT_BASE_MS = 60_000
/** The longest lockout. */
export const LOCKOUT_MAX_MS = 24 * 60 * 60_000
/** How long a device link is good for. */
export const DEVICE_LINK_TTL_MS = 10 * 60_000
/** How long a session lasts. */
export const SESSION_TTL_MS = 7 * 24 * 60 * 60_000
/** How long a route may take to answer before it is a 503 (the device long-poll holds at most 25 s). */
export const ROUTE_TIMEOUT_MS = 30_000
const DEVICE_WAIT_DEFAULT_MS = 20_000
const DEVICE_WAIT_MAX_MS = 25_000
// The long-poll also reads the database this often, for a link opened on another instance of the server.
const DEVICE_POLL_MS = 1_000

// What mail servers take without SMTPUTF8 (our mailer does not ask for it): a dot-atom of RFC 5321's printable ASCII
// before the `@`, host-name labels after it (letters, digits, inner hyphens), a top-level label of letters or `xn--`,
// no final dot. Nothing else: no controls (NUL, U+0085), no invisible characters, no quotes or brackets in the domain.
const ATOM = "[a-z0-9!#$%&'*+/=?^_`{|}~-]+"
const LABEL = "[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?"
const EMAIL = new RegExp(`^${ATOM}(?:\\.${ATOM})*@(?:${LABEL}\\.)+(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$`)

const sameOrigin = (url: string, origin: string): boolean => {
  try {
    return new URL(url).origin === new URL(origin).origin
  } catch {
    return false
  }
}

// What each mailed code is for, in the mail's words.
const CODE_PURPOSE_WORDS: Record<store.CodePurpose, string> = {
  login: "log in to your wallet",
  "update-primary": "confirm changing your wallet's email",
  "update-secondary": "confirm your new wallet email",
  export: "show your wallet's private key"
}

const badRequest = (error: string) => new WalletBadRequest({ code: "bad_request", error })

/**
 * The host page a login (social, passkey) is started from: an origin the project allows, as its origin (a 400 naming
 * it otherwise). The login's answer goes back to exactly this origin.
 */
export const allowedHostOrigin = (project: ApiProject, hostOrigin: string): Effect.Effect<string, WalletBadRequest> =>
  !originAllowed(project, hostOrigin) || hostOrigin === "null"
    ? Effect.fail(badRequest(`${hostOrigin} is not an origin of this app`))
    : Effect.succeed(new URL(hostOrigin).origin)
const internal = (error: string) => new WalletInternalError({ code: "internal", error })

/** The email of the request's `field`, trimmed and in lower case; a 400 naming the field when mail cannot reach it. */
const normalEmail = (email: string, field: "email" | "newEmail" = "email"): Effect.Effect<string, WalletBadRequest> => {
  const normal = email.trim().toLowerCase()
  return !EMAIL.test(normal) || normal.length > 254 || normal.indexOf("@") > 64
    ? Effect.fail(badRequest(`Please enter a valid email address (${field})`))
    : Effect.succeed(normal)
}

/** The rules every step shares: the mail cool-down, the codes, the user's keys, over the server's database. */
export const makeSteps = (deps: WalletServerDeps) => {
  const run = <A, E>(effect: Effect.Effect<A, E, SqlClient.SqlClient>) => runQuery(deps, effect)
  const at = () => new Date(deps.now())
  const sendMail = (mail: { readonly to: string; readonly subject: string; readonly text: string }) =>
    // A mail that cannot be sent is the server's failure: the visitor cannot fix it by changing the request.
    Effect.tryPromise({ try: () => deps.sendMail(mail), catch: (cause) => internal(`The mail could not be sent: ${cause instanceof Error ? cause.message : String(cause)}`) })

  const tooManyWrongCodes = (until: Date) => {
    const seconds = Math.max(1, Math.ceil((until.getTime() - deps.now()) / 1000))
    return new WalletTooManyRequests({
      code: "too_many_attempts",
      error: `Too many wrong codes: please try again after ${seconds} seconds`,
      retryAfterSeconds: seconds
    })
  }

  /** Refuses a new code while the email is locked out by codes it used up. */
  const notLockedOut = Effect.fn("WalletServer.notLockedOut")(function* (email: string) {
    const until = yield* run(store.lockedUntil(email, at()))
    if (until !== undefined) return yield* tooManyWrongCodes(until)
  })

  /**
   * Claims the mail of `kind` to `email` (one per 30 s, whatever arrives at once) and runs `send`; a mail that fails
   * gives the claim back. A claim held is 'Please try again after N seconds'.
   */
  const withMailClaim = <A, E, R>(email: string, kind: string, send: Effect.Effect<A, E, R>) =>
    Effect.gen(function* () {
      const sentAt = at()
      const held = yield* run(store.claimMail(email, kind, sentAt, MAIL_COOLDOWN_MS))
      if (held !== undefined) {
        const seconds = Math.max(1, Math.ceil((held.getTime() + MAIL_COOLDOWN_MS - deps.now()) / 1000))
        return yield* new WalletTooManyRequests({ code: "rate_limited", error: `Please try again after ${seconds} seconds`, retryAfterSeconds: seconds })
      }
      return yield* send.pipe(Effect.onError(() => run(store.releaseMailClaim(email, kind, sentAt))))
    })

  const mailCode = Effect.fn("WalletServer.mailCode")(function* (email: string, purpose: store.CodePurpose) {
    const code = newCode()
    const sentAt = deps.now()
    const id = yield* run(store.insertCode(email, purpose, codeHash(deps.masterKey, email, purpose, code), new Date(sentAt), new Date(sentAt + CODE_TTL_MS)))
    const what = CODE_PURPOSE_WORDS[purpose]
    yield* sendMail({
      to: email,
      subject: `Your wallet code: ${code}`,
      text: `Your code to ${what} is ${code}.\nIt expires in 10 minutes. If you did not ask for it, ignore this mail.`
    }).pipe(Effect.onError(() => (id === undefined ? Effect.void : run(store.deleteCode(id)))))
  })

  /**
   * Checks the newest code of `purpose` for `email`; uses it up when right. Each guess takes one of the code's tries
   * before it is compared (one statement), so guesses sent at once are never compared more than 5 times; every 5th
   * wrong guess of the email, across its codes, locks it out of new codes for a while ({@link LOCKOUT_BASE_MS},
   * growing).
   */
  const checkCode = Effect.fn("WalletServer.checkCode")(function* (email: string, purpose: store.CodePurpose, otp: string) {
    const row = yield* run(store.latestCode(email, purpose))
    if (row === undefined || row.used_at !== null) {
      return yield* new WalletBadRequest({ code: "invalid_code", error: "No code is waiting for this email: ask for a new one" })
    }
    const tooMany = new WalletTooManyRequests({ code: "too_many_attempts", error: "Too many wrong codes: ask for a new one", attemptsLeft: 0 })
    if (row.attempts >= CODE_MAX_ATTEMPTS) return yield* tooMany
    if (row.expires_at.getTime() <= deps.now()) {
      return yield* new WalletBadRequest({ code: "code_expired", error: "The code has expired: ask for a new one" })
    }
    const tries = yield* run(store.takeTry(row.id, CODE_MAX_ATTEMPTS, at()))
    if (tries === undefined) return yield* tooMany
    if (!sameHash(codeHash(deps.masterKey, email, purpose, otp.trim()), row.code_hash)) {
      // Counted per email too, across its codes: 4 guesses on each new code add up as 5 on one do.
      yield* run(store.countWrongGuess(email, at(), { perLock: CODE_MAX_ATTEMPTS, baseMs: LOCKOUT_BASE_MS, maxMs: LOCKOUT_MAX_MS }))
      const attemptsLeft = Math.max(0, CODE_MAX_ATTEMPTS - tries)
      if (attemptsLeft === 0) return yield* tooMany
      return yield* new WalletBadRequest({
        code: "invalid_code",
        error: `The code is not right: ${attemptsLeft} ${attemptsLeft === 1 ? "try" : "tries"} left`,
        attemptsLeft
      })
    }
    if (!(yield* run(store.useCode(row.id, at())))) {
      return yield* new WalletBadRequest({ code: "invalid_code", error: "This code was used already: ask for a new one" })
    }
    yield* run(store.clearLockout(email))
  })

  // The user's address of each family: of the split key, or of the key the server sealed before keys were split (until
  // the frame splits it). None between a new user's login and the frame's making of the keys (frameKeys.ts).
  const keysOf = Effect.fn("WalletServer.keysOf")(function* (userId: string) {
    const [sealed, splits] = yield* Effect.all([run(store.keysOf(userId)), run(shareStore.splitKeysOf(userId))])
    const addressOf = (family: KeyFamily): string | undefined =>
      (splits.find((k) => k.family === family) ?? sealed.find((k) => k.family === family))?.address
    return { evm: addressOf("eip155"), solana: addressOf("solana") }
  })

  const walletUser = Effect.fn("WalletServer.walletUser")(function* (user: { readonly userId: string; readonly email: string | null }) {
    const keys = yield* keysOf(user.userId)
    const social = user.email === null ? yield* run(store.socialIdentityOf(user.userId)) : undefined
    const provider = social === undefined ? undefined : Schema.decodeUnknownOption(SocialLogin)(social.provider)
    const answer: WalletUser = {
      email: user.email,
      ...(keys.evm === undefined ? {} : { evmAddress: keys.evm }),
      ...(keys.solana === undefined ? {} : { solanaAddress: keys.solana }),
      ...(social === undefined || provider === undefined || provider._tag === "None" ? {} : { social: { provider: provider.value, username: social.username } })
    }
    return answer
  })

  const makeUser = Effect.fn("WalletServer.makeUser")(function* (email: string) {
    const id = randomUUID()
    if (yield* run(store.insertUser({ id, email }, at()))) return { id, email }
    // Two first logins of one email raced: the other one made the user.
    const existing = yield* run(store.findUserByEmail(email))
    if (existing === undefined) return yield* internal("The user could not be made")
    return existing
  })

  /** The user of a provider's subject, made at its first login (its keys are made in the frame, frameKeys.ts). */
  const socialUser = Effect.fn("WalletServer.socialUser")(function* (provider: string, identity: SocialIdentity) {
    const known = yield* run(store.findSocialUser(provider, identity.subject))
    if (known !== undefined) {
      yield* run(store.renameSocialUser(provider, identity.subject, identity.username))
      return known
    }
    const id = randomUUID()
    if (yield* run(store.insertSocialUser(id, { provider, ...identity }, at()))) return id
    // Two first logins of one subject raced: the other one made the user.
    const existing = yield* run(store.findSocialUser(provider, identity.subject))
    if (existing === undefined) return yield* internal("The user could not be made")
    return existing
  })

  /** Opens a session of `userId` on the device: its bearer token. */
  const openSession = Effect.fn("WalletServer.openSession")(function* (userId: string, deviceId: string) {
    const token = newToken()
    const now = deps.now()
    yield* run(store.insertSession(tokenHash(token), userId, deviceId, new Date(now), new Date(now + SESSION_TTL_MS)))
    return token
  })

  return { run, at, sendMail, notLockedOut, withMailClaim, mailCode, checkCode, keysOf, walletUser, makeUser, socialUser, openSession }
}

/** `POST /api/login/email`, `/api/login/device`, `/api/login/otp` and the mailed link's page `GET /api/device/verify`. */
export const LoginGroupLive = HttpApiBuilder.group(WalletServerApi, "login", (handlers) =>
  Effect.gen(function* () {
    const deps = yield* WalletServerEnv
    const steps = makeSteps(deps)
    const { run } = steps
    // `userId/deviceId` of each device verified by its link here, for the long-polls waiting on it.
    const verified = yield* PubSub.unbounded<string>()

    // Whether the device is verified within `waitMs`: told by this server's link page, or seen in the database (on the
    // server's clock, which holdLongPoll gives it).
    const waitVerified = (userId: string, deviceId: string, waitMs: number) =>
      Effect.scoped(
        Effect.gen(function* () {
          const subscription = yield* PubSub.subscribe(verified)
          const heard = PubSub.take(subscription).pipe(Effect.repeat({ until: (event) => event === `${userId}/${deviceId}` }))
          const seen = run(store.findDevice(userId, deviceId)).pipe(
            Effect.repeat({ until: (device) => device?.verified_at != null, schedule: Schedule.spaced(DEVICE_POLL_MS) })
          )
          return yield* Effect.raceFirst(heard, seen).pipe(
            Effect.as(true),
            Effect.timeoutOrElse({ duration: waitMs, orElse: () => Effect.succeed(false) })
          )
        })
      )

    return handlers
      .handle(
        "email",
        Effect.fn("WalletServer.loginEmail")(function* ({ payload }) {
          const email = yield* normalEmail(payload.email)
          yield* steps.notLockedOut(email)
          // The login's code and its device link share one cool-down.
          return yield* steps.withMailClaim(
            email,
            "login",
            Effect.gen(function* () {
              const user = yield* run(store.findUserByEmail(email))
              const device = user === undefined ? undefined : yield* run(store.findDevice(user.id, payload.deviceId))
              if (user === undefined || device?.verified_at != null) {
                yield* steps.mailCode(email, "login")
                return { action: "VERIFY_OTP" as const }
              }
              const token = newToken()
              const sentAt = deps.now()
              yield* run(
                store.setDeviceLink(user.id, payload.deviceId, tokenHash(token), new Date(sentAt), new Date(sentAt + DEVICE_LINK_TTL_MS), payload.themeMode ?? null)
              )
              const link = new URL("/api/device/verify", deps.publicUrl)
              link.searchParams.set("projectId", payload.projectId)
              link.searchParams.set("token", token)
              yield* steps.sendMail({
                to: email,
                subject: "Verify your device to log in to your wallet",
                text: `Someone is logging in to your wallet from a new device. If it is you, open this link to verify the device:\n${link.href}\nThe link expires in 10 minutes. If it was not you, ignore this mail.`
              })
              return { action: "VERIFY_DEVICE" as const }
            })
          )
        })
      )
      .handle(
        "verifyDevice",
        Effect.fn("WalletServer.verifyDevice")(function* ({ query }) {
          const device = yield* run(store.verifyDeviceByToken(tokenHash(query.token), steps.at()))
          if (device === undefined) {
            return yield* Effect.fail(
              htmlDocument("This link cannot verify a device", "<p>It was used already or has expired. Log in again to get a new one.</p>")
            )
          }
          yield* PubSub.publish(verified, `${device.user_id}/${device.device_id}`)
          return htmlDocument(
            "Device verified",
            `<p>Your device is verified. Go back to the page you were logging in on: a code is on its way to your mail.</p><p><small>${escapeHtml(
              new Date(deps.now()).toUTCString()
            )}</small></p>`,
            // In the host's theme (SYNC_THEME) when the link was asked for, as the social callback page is.
            device.link_theme_mode === "dark" ? { css: DARK_PAGE_CSS } : {}
          )
        })
      )
      .handle(
        "device",
        Effect.fn("WalletServer.loginDevice")(function* ({ payload }) {
          const email = yield* normalEmail(payload.email)
          const user = yield* run(store.findUserByEmail(email))
          const device = user === undefined ? undefined : yield* run(store.findDevice(user.id, payload.deviceId))
          if (user === undefined || device === undefined) {
            return yield* badRequest("No device verification is waiting: start with POST /api/login/email")
          }
          const waitMs = Math.max(0, Math.min(payload.waitMs ?? DEVICE_WAIT_DEFAULT_MS, DEVICE_WAIT_MAX_MS))
          const began = deps.now()
          const isVerified = device.verified_at !== null || (yield* holdLongPoll(deps, "deviceLink", waitMs, waitVerified(user.id, payload.deviceId, waitMs)))
          // How long it waited by the server's clock: the frame counts its own wait with it.
          if (!isVerified) return { verified: false, waitedMs: Math.max(0, deps.now() - began) }
          // The code follows the verification once: calls within the cool-down (at once or repeated) mail no other.
          yield* steps.notLockedOut(email)
          yield* steps.withMailClaim(
            email,
            `device:${payload.deviceId}`,
            Effect.andThen(steps.mailCode(email, "login"), run(store.touchMailClaim(email, "login", steps.at())))
          ).pipe(
            Effect.catch((refused) => (refused instanceof WalletTooManyRequests && refused.code === "rate_limited" ? Effect.void : Effect.fail(refused)))
          )
          return { verified: true }
        })
      )
      .handle(
        "otp",
        Effect.fn("WalletServer.loginOtp")(function* ({ payload }) {
          const email = yield* normalEmail(payload.email)
          const existing = yield* run(store.findUserByEmail(email))
          if (existing !== undefined) {
            const device = yield* run(store.findDevice(existing.id, payload.deviceId))
            if (device?.verified_at == null) {
              return yield* new WalletForbidden({ code: "device_not_verified", error: "This device is not verified yet: open the link mailed to you" })
            }
          }
          yield* steps.checkCode(email, "login", payload.otp)
          const user = existing ?? (yield* steps.makeUser(email))
          yield* run(store.markDeviceVerified(user.id, payload.deviceId, steps.at()))
          const token = newToken()
          const now = deps.now()
          yield* run(store.insertSession(tokenHash(token), user.id, payload.deviceId, new Date(now), new Date(now + SESSION_TTL_MS)))
          return { token }
        })
      )
  })
)

/** A social login is good for this long after it starts. */
export const SOCIAL_LOGIN_TTL_MS = 10 * 60_000

/** Where every provider sends the visitor back: on the frame origin. */
export const socialRedirectUri = (publicUrl: string): string => new URL("/social/callback", publicUrl).href

const stateOf = (uri: string): { readonly url: URL; readonly state: string } | undefined => {
  try {
    const url = new URL(uri)
    const state = url.searchParams.get("state")
    return state === null || state === "" ? undefined : { url, state }
  } catch {
    return undefined
  }
}

const socialFailure = (error: SocialLoginError) =>
  error.kind === "invalid"
    ? new WalletBadRequest({ code: "social_refused", error: error.message })
    : new WalletBadGateway({ code: "rpc_error", error: error.message })

/** `POST /api/social/start` and `POST /api/social/finish`: the wallet server as the project's OIDC / OAuth 2 client. */
export const SocialGroupLive = HttpApiBuilder.group(WalletServerApi, "social", (handlers) =>
  Effect.gen(function* () {
    const deps = yield* WalletServerEnv
    const steps = makeSteps(deps)
    const { run } = steps
    const redirectUri = socialRedirectUri(deps.publicUrl)
    // One cache per server: each issuer's discovery document and JWKS are read once per PROVIDER_METADATA_TTL_MS.
    const transport = { now: deps.now, cache: makeProviderMetadataCache(), ...(deps.socialFetch === undefined ? {} : { fetch: deps.socialFetch }) }
    const clientOf = (projectId: string, provider: SocialProvider) => {
      const config = deps.projects.find((p) => p.projectId === projectId)?.socials?.[provider]
      return config === undefined
        ? Effect.fail(new WalletBadRequest({ code: "provider_not_configured", error: `Log in with ${provider} is not set up for this app` }))
        : Effect.succeed(config)
    }
    return handlers
      .handle(
        "start",
        Effect.fn("WalletServer.socialStart")(function* ({ payload }) {
          yield* limitVisitor(deps, "loginStart")
          const project = yield* WalletProject
          const config = yield* clientOf(project.projectId, payload.provider)
          const hostOrigin = yield* allowedHostOrigin(project, payload.hostOrigin)
          if (payload.returnTo !== undefined && !sameOrigin(payload.returnTo, payload.hostOrigin)) {
            return yield* badRequest("returnTo must be a page of the host's origin")
          }
          const state = newToken()
          const now = deps.now()
          yield* run(
            store.insertSocialLogin(
              tokenHash(state),
              {
                project_id: project.projectId,
                device_id: payload.deviceId,
                provider: payload.provider,
                host_origin: hostOrigin,
                return_to: payload.returnTo ?? null,
                theme_mode: payload.themeMode ?? null
              },
              new Date(now),
              new Date(now + SOCIAL_LOGIN_TTL_MS)
            )
          )
          const url = yield* authorizationUrl(payload.provider, config, redirectUri, secretsOf(deps.masterKey, state), transport).pipe(
            Effect.mapError(socialFailure)
          )
          return { uri: url.href }
        })
      )
      .handle(
        "finish",
        Effect.fn("WalletServer.socialFinish")(function* ({ payload }) {
          const project = yield* WalletProject
          const callback = stateOf(payload.uri)
          const refused = new WalletBadRequest({ code: "invalid_state", error: "This login was not started here, was used already or has expired: try again" })
          if (callback === undefined || !sameOrigin(callback.url.href, deps.publicUrl) || callback.url.pathname !== "/social/callback") return yield* refused
          // Used up before anything else: a second try with the same state, right or wrong, finds nothing.
          const login = yield* run(store.useSocialLogin(tokenHash(callback.state), project.projectId, payload.deviceId, steps.at()))
          if (login === undefined) return yield* refused
          const provider = Schema.decodeUnknownOption(SocialProvider)(login.provider)
          if (provider._tag === "None") return yield* refused
          const config = yield* clientOf(project.projectId, provider.value)
          const identity = yield* completeLogin(provider.value, config, callback.url, redirectUri, secretsOf(deps.masterKey, callback.state), transport).pipe(
            Effect.mapError(socialFailure)
          )
          const userId = yield* steps.socialUser(provider.value, identity)
          const token = newToken()
          const now = deps.now()
          yield* run(store.insertSession(tokenHash(token), userId, payload.deviceId, new Date(now), new Date(now + SESSION_TTL_MS)))
          return { token, provider: provider.value, username: identity.username }
        })
      )
  })
)

// The status long-poll holds at most this long, and reads the channel this often.
const FARCASTER_WAIT_DEFAULT_MS = 20_000
const FARCASTER_WAIT_MAX_MS = 25_000
/** How often Farcaster's status long-poll reads its channel again (on the server's clock). */
export const FARCASTER_POLL_MS = 500

const farcasterRefusal = (error: FarcasterRefused) =>
  error.kind === "invalid"
    ? new WalletBadRequest({ code: "farcaster_refused", error: error.message })
    : new WalletBadGateway({ code: "rpc_error", error: error.message })

/** `POST /api/farcaster/channel` and `POST /api/farcaster/status`: Sign In With Farcaster's channel for the frame. */
export const FarcasterGroupLive = HttpApiBuilder.group(WalletServerApi, "farcaster", (handlers) =>
  Effect.gen(function* () {
    const deps = yield* WalletServerEnv
    const steps = makeSteps(deps)
    const { run } = steps
    const terms = { domain: new URL(deps.publicUrl).host, siweUri: new URL(deps.publicUrl).href }
    const invalidChannel = new WalletBadRequest({ code: "invalid_state", error: "This Farcaster sign-in was not started here or was used already: try again" })
    const expired = new WalletBadRequest({ code: "channel_expired", error: "The Farcaster sign-in expired: try again" })
    return handlers
      .handle(
        "channel",
        Effect.fn("WalletServer.farcasterChannel")(function* ({ payload }) {
          yield* limitVisitor(deps, "loginStart")
          const project = yield* WalletProject
          if (deps.farcaster === undefined) {
            return yield* new WalletBadRequest({ code: "farcaster_not_configured", error: "Log in with Farcaster is not set up on this wallet server" })
          }
          const channelToken = newToken()
          const nonce = newChannelNonce()
          const now = deps.now()
          const expiresAt = new Date(now + FARCASTER_CHANNEL_TTL_MS)
          yield* run(
            store.insertFarcasterChannel(tokenHash(channelToken), { projectId: project.projectId, deviceId: payload.deviceId, nonce, ...terms }, new Date(now), expiresAt)
          )
          return { channelToken, url: channelUrl(channelToken, { nonce, ...terms }, expiresAt), nonce, expiresAt: expiresAt.getTime() }
        })
      )
      .handle(
        "status",
        Effect.fn("WalletServer.farcasterStatus")(function* ({ payload }) {
          const project = yield* WalletProject
          const hash = tokenHash(payload.channelToken)
          const waitMs = Math.max(0, Math.min(payload.waitMs ?? FARCASTER_WAIT_DEFAULT_MS, FARCASTER_WAIT_MAX_MS))
          const read = run(store.farcasterChannel(hash))
          const first = yield* read
          if (first === undefined || first.project_id !== project.projectId || first.device_id !== payload.deviceId || first.used_at !== null) {
            return yield* invalidChannel
          }
          // Signed now, or within the wait; an unsigned channel past its expiry is over.
          const channel =
            first.signed_at !== null
              ? first
              : yield* holdLongPoll(
                  deps,
                  "farcasterStatus",
                  waitMs,
                  read.pipe(
                    Effect.repeat({
                      until: (row) => row === undefined || row.signed_at !== null || row.expires_at.getTime() <= deps.now(),
                      schedule: Schedule.spaced(FARCASTER_POLL_MS)
                    }),
                    Effect.timeoutOrElse({ duration: waitMs, orElse: () => Effect.succeed(first) })
                  )
                )
          if (channel === undefined) return yield* invalidChannel
          if (channel.signed_at === null) {
            if (channel.expires_at.getTime() <= deps.now()) return yield* expired
            return { state: "pending" as const }
          }
          const signer = yield* run(store.useFarcasterChannel(hash, project.projectId, payload.deviceId, steps.at()))
          if (signer === undefined) return yield* invalidChannel
          const userId = yield* steps.socialUser("farcaster", { subject: signer.fid, username: signer.username })
          const token = newToken()
          const now = deps.now()
          yield* run(store.insertSession(tokenHash(token), userId, payload.deviceId, new Date(now), new Date(now + SESSION_TTL_MS)))
          return { state: "completed" as const, token, fid: signer.fid, username: signer.username }
        })
      )
  })
)

/** `POST /v1/channel/authenticate`: a Farcaster client signs a channel with the fid's custody key. */
export const FarcasterRelayGroupLive = HttpApiBuilder.group(WalletServerApi, "farcasterRelay", (handlers) =>
  Effect.gen(function* () {
    const deps = yield* WalletServerEnv
    const steps = makeSteps(deps)
    const { run } = steps
    const connector = deps.farcaster === undefined ? undefined : farcasterConnector(deps.farcaster)
    return handlers.handle(
      "authenticate",
      Effect.fn("WalletServer.farcasterAuthenticate")(function* ({ payload }) {
        yield* limitVisitor(deps, "farcasterRelay")
        if (connector === undefined) {
          return yield* new WalletBadRequest({ code: "farcaster_not_configured", error: "Log in with Farcaster is not set up on this wallet server" })
        }
        const hash = tokenHash(payload.channelToken)
        const channel = yield* run(store.farcasterChannel(hash))
        if (channel === undefined) return yield* new WalletBadRequest({ code: "invalid_state", error: "This sign-in link is not known here" })
        if (channel.signed_at !== null) return yield* new WalletBadRequest({ code: "farcaster_refused", error: "This sign-in link was signed already" })
        if (channel.expires_at.getTime() <= deps.now()) return yield* new WalletBadRequest({ code: "channel_expired", error: "This sign-in link has expired" })
        const signed = yield* verifyFarcasterSignIn(connector, { nonce: channel.nonce, domain: channel.domain, siweUri: channel.siwe_uri }, payload).pipe(
          Effect.mapError(farcasterRefusal)
        )
        if (signed.fid !== String(payload.fid)) {
          return yield* new WalletBadRequest({ code: "farcaster_refused", error: `The message is signed for fid ${signed.fid}, not ${payload.fid}` })
        }
        const username = (payload.username ?? "").trim() || (payload.displayName ?? "").trim() || `fid:${signed.fid}`
        // One statement: of two good messages at once, one signs the channel.
        if (!(yield* run(store.signFarcasterChannel(hash, { fid: signed.fid, username }, steps.at())))) {
          return yield* new WalletBadRequest({ code: "farcaster_refused", error: "This sign-in link was signed already" })
        }
        return { state: "completed" as const, fid: signed.fid, username }
      })
    )
  })
)

/** The session routes: logout, the user, the email's change, and `POST /api/rpc`. */
export const SessionGroupLive = HttpApiBuilder.group(WalletServerApi, "session", (handlers) =>
  Effect.gen(function* () {
    const deps = yield* WalletServerEnv
    const steps = makeSteps(deps)
    const { run } = steps
    return handlers
      .handle(
        "logout",
        Effect.fn("WalletServer.logout")(function* () {
          const session = yield* WalletSession
          yield* run(store.endSession(session.tokenHash, steps.at()))
          return { ok: true as const }
        })
      )
      .handle("user", () => Effect.flatMap(Effect.service(WalletSession), steps.walletUser))
      .handle(
        "updateEmail",
        Effect.fn("WalletServer.updateEmail")(function* ({ payload }) {
          const session = yield* WalletSession
          if (session.email === null) return yield* badRequest("This wallet was made by a social login or a passkey and has no email to change")
          const newEmail = yield* normalEmail(payload.newEmail, "newEmail")
          if (newEmail === session.email) return yield* badRequest("The new email is the current one")
          if ((yield* run(store.findUserByEmail(newEmail))) !== undefined) {
            return yield* new WalletConflict({ code: "email_taken", error: "This email is used by another wallet" })
          }
          yield* steps.notLockedOut(session.email)
          yield* steps.withMailClaim(
            session.email,
            "update-primary",
            Effect.andThen(run(store.startEmailUpdate(session.userId, newEmail, steps.at())), steps.mailCode(session.email, "update-primary"))
          )
          return { action: "VERIFY_PRIMARY_OTP" as const }
        })
      )
      .handle(
        "updateEmailPrimary",
        Effect.fn("WalletServer.updateEmailPrimary")(function* ({ payload }) {
          const session = yield* WalletSession
          const update = yield* run(store.pendingEmailUpdate(session.userId))
          if (update?.step !== "primary" || session.email === null) return yield* badRequest("No email change is waiting for this code: start again")
          yield* steps.checkCode(session.email, "update-primary", payload.otp)
          yield* steps.notLockedOut(update.new_email)
          yield* run(store.emailUpdateToSecondary(update.id))
          yield* steps.mailCode(update.new_email, "update-secondary")
          return { action: "VERIFY_SECONDARY_OTP" as const }
        })
      )
      .handle(
        "updateEmailSecondary",
        Effect.fn("WalletServer.updateEmailSecondary")(function* ({ payload }) {
          const session = yield* WalletSession
          const update = yield* run(store.pendingEmailUpdate(session.userId))
          if (update?.step !== "secondary") return yield* badRequest("No email change is waiting for this code: start again")
          yield* steps.checkCode(update.new_email, "update-secondary", payload.otp)
          if (!(yield* run(store.finishEmailUpdate(update.id, session.userId, update.new_email)))) {
            return yield* new WalletConflict({ code: "email_taken", error: "This email is used by another wallet" })
          }
          return { email: update.new_email }
        })
      )
      .handle(
        "rpc",
        Effect.fn("WalletServer.rpc")(function* ({ payload }) {
          const session = yield* WalletSession
          const project = yield* WalletProject
          const { evm, solana } = yield* steps.keysOf(session.userId)
          if (evm === undefined || solana === undefined) {
            return yield* new WalletBadRequest({ code: "no_key", error: "This wallet has no key yet: log in again so the wallet makes it" })
          }
          const result = yield* Effect.tryPromise({
            try: () =>
              walletRpc(
                rpcChainsOf(deps.chains),
                {
                  evmAddress: evm,
                  solanaAddress: solana,
                  // The server holds no whole key (issue 30): every signature is made in the frame (frameRpc.ts).
                  withKey: () => Promise.reject(new ApiError(400, "method_not_allowed", "This wallet signs in its frame, never on the wallet server")),
                  calls: {
                    save: (calls) => deps.database.run(callsStore.insertCalls(session.userId, calls, steps.at())),
                    find: (id) => deps.database.run(callsStore.findCalls(session.userId, id))
                  }
                },
                payload,
                grantStoreOf((effect) => deps.database.run(effect), deps.now, session.userId, project.projectId)
              ),
            catch: (cause) => cause
          }).pipe(
            // The signing code's own refusals are answered as they are; anything else it throws is a defect (500).
            Effect.catch((cause) => (cause instanceof ApiError ? Effect.fail(rpcFailure(cause)) : Effect.die(cause)))
          )
          return { result }
        })
      )
      .handle(
        "storeCalls",
        Effect.fn("WalletServer.storeCalls")(function* ({ payload }) {
          const session = yield* WalletSession
          yield* run(callsStore.insertCalls(session.userId, payload, steps.at()))
          return { ok: true as const }
        })
      )
      .handle(
        "spendPermission",
        Effect.fn("WalletServer.spendPermission")(function* ({ payload }) {
          const session = yield* WalletSession
          const project = yield* WalletProject
          // Counted under the grant's lock with the server's clock, before the frame signs the send.
          const grants = grantStoreOf((effect) => deps.database.run(effect), deps.now, session.userId, project.projectId)
          const use = { to: payload.use.to as `0x${string}`, amount: BigInt(payload.use.amount), token: payload.use.token as `0x${string}` | undefined }
          const coverage = yield* Effect.promise(() =>
            grants.spend({ chainId: payload.chainId, account: payload.account }, payload.context.toLowerCase(), use, Math.floor(deps.now() / 1000))
          )
          if (coverage === undefined) return { coverage: null }
          return { coverage: coverage.covered ? { covered: true as const, spent: coverage.spent.toString(), periodStart: coverage.periodStart } : coverage }
        })
      )
      .handle(
        "refundPermission",
        Effect.fn("WalletServer.refundPermission")(function* ({ payload }) {
          const session = yield* WalletSession
          yield* run(refundGrant(session.userId, payload.context.toLowerCase(), payload.periodStart, BigInt(payload.amount)))
          return { ok: true as const }
        })
      )
  })
)

/** `GET /api/project` (the project's allowed origins) and `GET /api/chains` (the chains the server serves the frame on). */
export const ProjectGroupLive = HttpApiBuilder.group(WalletServerApi, "project", (handlers) =>
  Effect.gen(function* () {
    const deps = yield* WalletServerEnv
    const chains = [...deps.chains.evm.map((c) => c.caipNetworkId), ...(deps.chains.solana === undefined ? [] : [deps.chains.solana.caipNetworkId])]
    // Listed only where there are some: a server without a bundler answers as before.
    const smartAccounts = deps.chains.evm.flatMap((c) =>
      c.smartAccount === undefined ? [] : [{ chainId: c.caipNetworkId, entryPoint: c.smartAccount.entryPoint, factory: c.smartAccount.factory }]
    )
    const smartAccountChains = smartAccounts.map((c) => c.chainId)
    return handlers
      .handle("project", () =>
        Effect.map(Effect.service(WalletProject), (project) => ({ projectId: project.projectId, allowedOrigins: project.allowedOrigins }))
      )
      .handle("chains", () => Effect.succeed(smartAccounts.length === 0 ? { chains } : { chains, smartAccountChains, smartAccounts }))
  })
)
