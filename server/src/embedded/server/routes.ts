/**
 * The wallet server's routes (contract: `../api.ts`): login by email (a one-time code, or first a mailed link for a
 * device the email never used), sessions by bearer token, the user's addresses, email updates in two codes, signing
 * on the chains it runs, and the project's allowed origins. Every failure is an `ApiFailure` body.
 */
import { randomUUID } from "node:crypto"
import { EventEmitter } from "node:events"
import { Effect, Result, Schema } from "effect"
import type { SqlClient } from "effect/sql"
import type { Database } from "../../db/index"
import { escapeHtml, htmlPage } from "../../lib/html"
import { type AnyRoute, HttpError, RawReply, type RequestContext, route } from "../../lib/router"
import { type DevProject, isLoopbackOrigin, unauthorizedTexts } from "../../services/projects"
import {
  ChainsResponse,
  LoginDeviceRequest,
  LoginDeviceResponse,
  LoginEmailRequest,
  LoginEmailResponse,
  LoginOtpRequest,
  LoginOtpResponse,
  LogoutResponse,
  ProjectResponse,
  RpcRequest,
  RpcResponse,
  UpdateEmailOtpRequest,
  UpdateEmailPrimaryResponse,
  UpdateEmailRequest,
  UpdateEmailResponse,
  UpdateEmailSecondaryResponse,
  UserResponse,
  type WalletUser
} from "../api"
import { ApiError } from "./errors"
import {
  codeHash,
  type KeyFamily,
  newCode,
  newEvmKey,
  newSolanaKey,
  newToken,
  openKey,
  sameHash,
  sealKey,
  tokenHash
} from "./keys"
import { type WalletChains, walletRpc } from "./rpc"
import * as store from "./store"

/** A code is good for 10 minutes after it was sent. */
export const CODE_TTL_MS = 10 * 60_000
/** Wrong tries a code allows; the last one ends it. */
export const CODE_MAX_ATTEMPTS = 5
/** The least time between two login mails to one email. */
export const MAIL_COOLDOWN_MS = 30_000
/** How long a device link is good for. */
export const DEVICE_LINK_TTL_MS = 10 * 60_000
/** How long a session lasts. */
export const SESSION_TTL_MS = 7 * 24 * 60 * 60_000
const DEVICE_WAIT_DEFAULT_MS = 20_000
const DEVICE_WAIT_MAX_MS = 25_000
// The long-poll also reads the database this often, for a link opened on another instance of the server.
const DEVICE_POLL_MS = 1_000

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
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

const normalEmail = (email: string): string => {
  const normal = email.trim().toLowerCase()
  if (!EMAIL.test(normal) || normal.length > 254) throw new ApiError(400, "bad_request", "Please enter a valid email address")
  return normal
}

const decodeOrFail = <A>(schema: Schema.Codec<A, unknown>, what: string, input: unknown): A => {
  const result = Schema.decodeUnknownResult(schema)(input, { errors: "all" })
  if (Result.isFailure(result)) {
    throw new ApiError(400, "bad_request", `Invalid ${what}: ${result.failure.message.replace(/\s*\n\s*/g, " ")}`)
  }
  return result.success
}

const failureReply = (error: unknown): RawReply => {
  const failure =
    error instanceof ApiError
      ? error
      : error instanceof HttpError
        ? new ApiError(error.status, "bad_request", error.message)
        : new ApiError(500, "internal", `Internal error: ${error instanceof Error ? error.message : String(error)}`)
  return new RawReply("application/json; charset=utf-8", JSON.stringify(failure.body()), failure.status, {
    ...(failure.extra.retryAfterSeconds === undefined ? {} : { "retry-after": String(failure.extra.retryAfterSeconds) })
  })
}

/** Makes the wallet server's routes (mount them with `makeRouter`; they check projects themselves). */
export const walletServerRoutes = (deps: WalletServerDeps): ReadonlyArray<AnyRoute> => {
  const { database, masterKey } = deps
  const run = <A, E>(effect: Effect.Effect<A, E, SqlClient.SqlClient>) => database.run(effect)
  const at = () => new Date(deps.now())
  const publicOrigin = new URL(deps.publicUrl).origin
  const publicPort = new URL(deps.publicUrl).port
  const verified = new EventEmitter()
  verified.setMaxListeners(0)

  // The frame page calls from the server's own origin, whichever loopback name it was opened by; other pages may not.
  const ownOrigin = (origin: string) => {
    if (origin === publicOrigin) return true
    try {
      return isLoopbackOrigin(origin) && new URL(origin).port === publicPort
    } catch {
      return false
    }
  }

  const checkProject = (ctx: RequestContext<unknown, unknown, unknown>): DevProject => {
    const body = ctx.body
    const header = ctx.headers["x-project-id"]
    const fromBody =
      typeof body === "object" && body !== null && "projectId" in body && typeof body.projectId === "string" ? body.projectId : undefined
    const projectId = ctx.url.searchParams.get("projectId") ?? (typeof header === "string" ? header : undefined) ?? fromBody
    if (projectId === undefined || projectId === "") {
      throw new ApiError(400, "bad_request", "Missing projectId: pass it in the body, the query parameter projectId or the header x-project-id")
    }
    const project = deps.projects.find((p) => p.projectId === projectId)
    if (project === undefined) throw new ApiError(401, "unknown_project", unauthorizedTexts.invalidKey)
    if (ctx.origin !== undefined && !ownOrigin(ctx.origin)) {
      throw new ApiError(403, "origin_not_allowed", unauthorizedTexts.originNotAllowed)
    }
    return project
  }

  const sessionToken = (ctx: RequestContext<unknown, unknown, unknown>): string => {
    const header = ctx.headers.authorization
    const match = typeof header === "string" ? /^Bearer\s+(\S+)$/i.exec(header) : null
    if (match?.[1] === undefined) throw new ApiError(401, "unauthorized", "Not logged in: the session token is missing")
    return match[1]
  }

  const sessionOf = async (ctx: RequestContext<unknown, unknown, unknown>) => {
    const token = sessionToken(ctx)
    const hash = tokenHash(token)
    const user = await run(store.sessionUser(hash, at()))
    if (user === undefined) throw new ApiError(401, "unauthorized", "The session is over: log in again")
    return { user, hash }
  }

  /** A route of the API: project checked, body decoded, failures as `ApiFailure`. */
  const apiRoute = <B, R>(spec: {
    readonly method: "GET" | "POST"
    readonly path: string
    readonly body?: Schema.Codec<B, unknown>
    readonly response: Schema.Codec<R, unknown>
    readonly handler: (ctx: RequestContext<unknown, unknown, unknown>, body: B) => Promise<R>
  }): AnyRoute =>
    route<undefined, undefined, unknown, R>({
      method: spec.method,
      path: spec.path,
      auth: "none",
      // Read any JSON; the Schema is applied here, so a bad body is an ApiFailure too.
      ...(spec.method === "POST" ? { body: Schema.Unknown } : {}),
      response: spec.response,
      handler: async (ctx) => {
        try {
          const erased = ctx as RequestContext<unknown, unknown, unknown>
          checkProject(erased)
          const body = spec.body === undefined ? (undefined as B) : decodeOrFail(spec.body, "body", ctx.body)
          return await spec.handler(erased, body)
        } catch (error) {
          return failureReply(error)
        }
      }
    })

  const cooldown = async (email: string, purpose: store.CodePurpose = "login") => {
    const last = await run(store.lastLoginMailAt(email, purpose))
    if (last === undefined) return
    const wait = last.getTime() + MAIL_COOLDOWN_MS - deps.now()
    if (wait > 0) {
      const seconds = Math.ceil(wait / 1000)
      throw new ApiError(429, "rate_limited", `Please try again after ${seconds} seconds`, { retryAfterSeconds: seconds })
    }
  }

  const mailCode = async (email: string, purpose: store.CodePurpose) => {
    const code = newCode()
    const sentAt = deps.now()
    await run(store.insertCode(email, purpose, codeHash(masterKey, email, purpose, code), new Date(sentAt), new Date(sentAt + CODE_TTL_MS)))
    const what =
      purpose === "login" ? "log in to your wallet" : purpose === "update-primary" ? "confirm changing your wallet's email" : "confirm your new wallet email"
    await deps.sendMail({
      to: email,
      subject: `Your wallet code: ${code}`,
      text: `Your code to ${what} is ${code}.\nIt expires in 10 minutes. If you did not ask for it, ignore this mail.`
    })
  }

  /** Checks the newest code of `purpose` for `email`; consumes it when right. */
  const checkCode = async (email: string, purpose: store.CodePurpose, otp: string) => {
    const row = await run(store.latestCode(email, purpose))
    if (row === undefined || row.used_at !== null) {
      throw new ApiError(400, "invalid_code", "No code is waiting for this email: ask for a new one")
    }
    if (row.attempts >= CODE_MAX_ATTEMPTS) {
      throw new ApiError(429, "too_many_attempts", "Too many wrong codes: ask for a new one", { attemptsLeft: 0 })
    }
    if (row.expires_at.getTime() <= deps.now()) throw new ApiError(400, "code_expired", "The code has expired: ask for a new one")
    if (!sameHash(codeHash(masterKey, email, purpose, otp.trim()), row.code_hash)) {
      const attempts = await run(store.countWrongTry(row.id))
      const attemptsLeft = Math.max(0, CODE_MAX_ATTEMPTS - attempts)
      if (attemptsLeft === 0) {
        throw new ApiError(429, "too_many_attempts", "Too many wrong codes: ask for a new one", { attemptsLeft: 0 })
      }
      throw new ApiError(400, "invalid_code", `The code is not right: ${attemptsLeft} ${attemptsLeft === 1 ? "try" : "tries"} left`, {
        attemptsLeft
      })
    }
    if (!(await run(store.useCode(row.id, at())))) {
      throw new ApiError(400, "invalid_code", "This code was used already: ask for a new one")
    }
  }

  const walletUser = async (user: store.UserRow): Promise<WalletUser> => {
    const keys = await run(store.keysOf(user.id))
    const address = (family: KeyFamily) => {
      const key = keys.find((k) => k.family === family)
      if (key === undefined) throw new ApiError(500, "internal", `The user has no ${family} key`)
      return key.address
    }
    return { email: user.email, evmAddress: address("eip155"), solanaAddress: address("solana") }
  }

  const makeUser = async (email: string): Promise<store.UserRow> => {
    const id = randomUUID()
    const evm = newEvmKey()
    const sol = newSolanaKey()
    const keys: Array<store.KeyRow> = [
      { family: "eip155", address: evm.address, ...sealKey(masterKey, id, "eip155", evm.secret) },
      { family: "solana", address: sol.address, ...sealKey(masterKey, id, "solana", sol.secret) }
    ]
    evm.secret.fill(0)
    sol.secret.fill(0)
    const made = await run(store.insertUser({ id, email }, keys, at()))
    if (made) return { id, email }
    // Two first logins of one email raced: the other one made the user.
    const existing = await run(store.findUserByEmail(email))
    if (existing === undefined) throw new ApiError(500, "internal", "The user could not be made")
    return existing
  }

  const waitVerified = (userId: string, deviceId: string, waitMs: number): Promise<boolean> =>
    new Promise((resolve, reject) => {
      const event = `${userId}/${deviceId}`
      let done = false
      const finish = (value: boolean | Error) => {
        if (done) return
        done = true
        clearTimeout(timer)
        clearInterval(poll)
        verified.off(event, onVerified)
        if (value instanceof Error) reject(value)
        else resolve(value)
      }
      const check = () =>
        run(store.findDevice(userId, deviceId)).then(
          (device) => {
            if (device?.verified_at != null) finish(true)
          },
          (error: unknown) => finish(error instanceof Error ? error : new Error(String(error)))
        )
      const onVerified = () => finish(true)
      verified.on(event, onVerified)
      const timer = setTimeout(() => finish(false), waitMs)
      const poll = setInterval(check, DEVICE_POLL_MS)
      void check()
    })

  return [
    apiRoute({
      method: "POST",
      path: "/api/login/email",
      body: LoginEmailRequest,
      response: LoginEmailResponse,
      handler: async (_ctx, body) => {
        const email = normalEmail(body.email)
        await cooldown(email)
        const user = await run(store.findUserByEmail(email))
        const device = user === undefined ? undefined : await run(store.findDevice(user.id, body.deviceId))
        if (user === undefined || device?.verified_at != null) {
          await mailCode(email, "login")
          return { action: "VERIFY_OTP" as const }
        }
        const token = newToken()
        const sentAt = deps.now()
        await run(store.setDeviceLink(user.id, body.deviceId, tokenHash(token), new Date(sentAt), new Date(sentAt + DEVICE_LINK_TTL_MS)))
        const link = new URL("/api/device/verify", deps.publicUrl)
        link.searchParams.set("projectId", body.projectId)
        link.searchParams.set("token", token)
        await deps.sendMail({
          to: email,
          subject: "Verify your device to log in to your wallet",
          text: `Someone is logging in to your wallet from a new device. If it is you, open this link to verify the device:\n${link.href}\nThe link expires in 10 minutes. If it was not you, ignore this mail.`
        })
        return { action: "VERIFY_DEVICE" as const }
      }
    }),
    apiRoute({
      method: "GET",
      path: "/api/device/verify",
      response: Schema.Unknown,
      handler: async (ctx) => {
        const token = ctx.url.searchParams.get("token") ?? ""
        const device = token === "" ? undefined : await run(store.verifyDeviceByToken(tokenHash(token), at()))
        if (device === undefined) {
          const page = htmlPage("This link cannot verify a device", "<p>It was used already or has expired. Log in again to get a new one.</p>")
          return new RawReply(page.contentType, page.body, 400)
        }
        verified.emit(`${device.user_id}/${device.device_id}`)
        return htmlPage(
          "Device verified",
          `<p>Your device is verified. Go back to the page you were logging in on: a code is on its way to your mail.</p><p><small>${escapeHtml(
            new Date(deps.now()).toUTCString()
          )}</small></p>`
        )
      }
    }),
    apiRoute({
      method: "POST",
      path: "/api/login/device",
      body: LoginDeviceRequest,
      response: LoginDeviceResponse,
      handler: async (_ctx, body) => {
        const email = normalEmail(body.email)
        const user = await run(store.findUserByEmail(email))
        const device = user === undefined ? undefined : await run(store.findDevice(user.id, body.deviceId))
        if (user === undefined || device === undefined) {
          throw new ApiError(400, "bad_request", "No device verification is waiting: start with POST /api/login/email")
        }
        const waitMs = Math.max(0, Math.min(body.waitMs ?? DEVICE_WAIT_DEFAULT_MS, DEVICE_WAIT_MAX_MS))
        const isVerified = device.verified_at !== null || (await waitVerified(user.id, body.deviceId, waitMs))
        if (!isVerified) return { verified: false }
        // The code follows the verification once: a repeated call within the cool-down does not mail another.
        const last = await run(store.latestCode(email, "login"))
        const fresh = last !== undefined && last.used_at === null && last.sent_at.getTime() + MAIL_COOLDOWN_MS > deps.now()
        if (!fresh) await mailCode(email, "login")
        return { verified: true }
      }
    }),
    apiRoute({
      method: "POST",
      path: "/api/login/otp",
      body: LoginOtpRequest,
      response: LoginOtpResponse,
      handler: async (_ctx, body) => {
        const email = normalEmail(body.email)
        const existing = await run(store.findUserByEmail(email))
        if (existing !== undefined) {
          const device = await run(store.findDevice(existing.id, body.deviceId))
          if (device?.verified_at == null) {
            throw new ApiError(403, "device_not_verified", "This device is not verified yet: open the link mailed to you")
          }
        }
        await checkCode(email, "login", body.otp)
        const user = existing ?? (await makeUser(email))
        await run(store.markDeviceVerified(user.id, body.deviceId, at()))
        const token = newToken()
        const now = deps.now()
        await run(store.insertSession(tokenHash(token), user.id, body.deviceId, new Date(now), new Date(now + SESSION_TTL_MS)))
        return { token }
      }
    }),
    apiRoute({
      method: "POST",
      path: "/api/logout",
      response: LogoutResponse,
      handler: async (ctx) => {
        const { hash } = await sessionOf(ctx)
        await run(store.endSession(hash, at()))
        return { ok: true as const }
      }
    }),
    apiRoute({
      method: "GET",
      path: "/api/user",
      response: UserResponse,
      handler: async (ctx) => walletUser((await sessionOf(ctx)).user)
    }),
    apiRoute({
      method: "POST",
      path: "/api/email/update",
      body: UpdateEmailRequest,
      response: UpdateEmailResponse,
      handler: async (ctx, body) => {
        const { user } = await sessionOf(ctx)
        const newEmail = normalEmail(body.newEmail)
        if (newEmail === user.email) throw new ApiError(400, "bad_request", "The new email is the current one")
        if ((await run(store.findUserByEmail(newEmail))) !== undefined) {
          throw new ApiError(409, "email_taken", "This email is used by another wallet")
        }
        await cooldown(user.email, "update-primary")
        await run(store.startEmailUpdate(user.id, newEmail, at()))
        await mailCode(user.email, "update-primary")
        return { action: "VERIFY_PRIMARY_OTP" as const }
      }
    }),
    apiRoute({
      method: "POST",
      path: "/api/email/update/primary",
      body: UpdateEmailOtpRequest,
      response: UpdateEmailPrimaryResponse,
      handler: async (ctx, body) => {
        const { user } = await sessionOf(ctx)
        const update = await run(store.pendingEmailUpdate(user.id))
        if (update?.step !== "primary") throw new ApiError(400, "bad_request", "No email change is waiting for this code: start again")
        await checkCode(user.email, "update-primary", body.otp)
        await run(store.emailUpdateToSecondary(update.id))
        await mailCode(update.new_email, "update-secondary")
        return { action: "VERIFY_SECONDARY_OTP" as const }
      }
    }),
    apiRoute({
      method: "POST",
      path: "/api/email/update/secondary",
      body: UpdateEmailOtpRequest,
      response: UpdateEmailSecondaryResponse,
      handler: async (ctx, body) => {
        const { user } = await sessionOf(ctx)
        const update = await run(store.pendingEmailUpdate(user.id))
        if (update?.step !== "secondary") throw new ApiError(400, "bad_request", "No email change is waiting for this code: start again")
        await checkCode(update.new_email, "update-secondary", body.otp)
        if (!(await run(store.finishEmailUpdate(update.id, user.id, update.new_email)))) {
          throw new ApiError(409, "email_taken", "This email is used by another wallet")
        }
        return { email: update.new_email }
      }
    }),
    apiRoute({
      method: "POST",
      path: "/api/rpc",
      body: RpcRequest,
      response: RpcResponse,
      handler: async (ctx, body) => {
        const { user } = await sessionOf(ctx)
        const keys = await run(store.keysOf(user.id))
        const keyOf = (family: KeyFamily) => {
          const key = keys.find((k) => k.family === family)
          if (key === undefined) throw new ApiError(500, "internal", `The user has no ${family} key`)
          return key
        }
        const result = await walletRpc(
          deps.chains,
          {
            evmAddress: keyOf("eip155").address,
            solanaAddress: keyOf("solana").address,
            openKey: async (family) => openKey(masterKey, user.id, family, keyOf(family))
          },
          body
        )
        return { result }
      }
    }),
    apiRoute({
      method: "GET",
      path: "/api/project",
      response: ProjectResponse,
      handler: async (ctx) => {
        const project = checkProject(ctx)
        return { projectId: project.projectId, allowedOrigins: project.allowedOrigins }
      }
    }),
    apiRoute({
      method: "GET",
      path: "/api/chains",
      response: ChainsResponse,
      handler: async () => ({
        chains: [...deps.chains.evm.map((c) => c.caipNetworkId), ...(deps.chains.solana === undefined ? [] : [deps.chains.solana.caipNetworkId])]
      })
    })
  ]
}

/** Throws when the database holds keys the master key cannot open: a server with the wrong key must not start. */
export const checkMasterKeyOpens = async (database: Database, masterKey: Uint8Array): Promise<void> => {
  const any = await database.run(store.anyKey())
  if (any === undefined) return
  openKey(masterKey, any.userId, any.key.family, any.key).fill(0)
}
