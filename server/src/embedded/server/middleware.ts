/**
 * The implementations of the wallet server's middlewares (declared in `../WalletServerApi.ts`): the project and
 * origin check, the bearer session, and the failures every route shares, each answered with the `ApiFailure` body.
 */
import { Cause, type Duration, Effect, Layer, Redacted, Result } from "effect"
import { HttpIncomingMessage, HttpServerError, HttpServerRequest } from "effect/http"
import { HttpApiError } from "effect/http-api"
import { isDatabaseDown, requestSchemaFailure, RETRY_AFTER_SECONDS } from "../../http/middleware"
import { unauthorizedTexts } from "../../services/projects"
import {
  ProjectCheck,
  SessionAuth,
  WalletBadRequest,
  WalletForbidden,
  WalletInternalError,
  WalletPayloadTooLarge,
  WalletProject,
  WalletRequestErrors,
  WalletSession,
  WalletUnauthorized,
  WalletUnavailable
} from "../WalletServerApi"
import { tokenHash } from "./keys"
import * as store from "./store"
import { isOwnOrigin, runQuery, WalletServerEnv } from "./WalletServerEnv"

// A request body the server could not read: larger than its limit (413), or not JSON (400).
const unreadableBody = (error: unknown) =>
  Effect.gen(function* () {
    if (!HttpServerError.isHttpServerError(error) || error.reason._tag !== "RequestParseError") return undefined
    if (error.reason.reason !== "BodyTooLarge") return new WalletBadRequest({ code: "bad_request", error: "Invalid body: it is not valid JSON" })
    const limit = yield* HttpIncomingMessage.MaxBodySize
    return new WalletPayloadTooLarge({
      code: "payload_too_large",
      error: `The request body is larger than ${limit === undefined ? "the server takes" : `${Number(limit)} bytes`}`
    })
  })

// The projectId of a request: a login route's JSON body, else the query parameter, else the header.
const projectIdOf = Effect.gen(function* () {
  const request = yield* HttpServerRequest.HttpServerRequest
  if (request.method === "POST" && (request.headers["content-type"] ?? "").includes("json")) {
    // The body is read once and kept: the route's own decoding reads the same bytes.
    const body = yield* Effect.result(request.json)
    if (Result.isFailure(body)) {
      const unreadable = yield* unreadableBody(body.failure)
      if (unreadable !== undefined) return yield* Effect.fail(unreadable)
    } else if (typeof body.success === "object" && body.success !== null && "projectId" in body.success) {
      const { projectId } = body.success
      if (typeof projectId === "string") return projectId
    }
  }
  const fromQuery = new URL(request.url, "http://server").searchParams.get("projectId")
  return fromQuery ?? request.headers["x-project-id"]
})

/** {@link ProjectCheck}: no page of another origin than the server's own (checked first), and a known projectId. */
export const ProjectCheckLive = Layer.effect(ProjectCheck)(
  Effect.gen(function* () {
    const deps = yield* WalletServerEnv
    const ownOrigin = isOwnOrigin(deps.publicUrl)
    return (handler) =>
      Effect.gen(function* () {
        const request = yield* HttpServerRequest.HttpServerRequest
        // The origin first: a page of another origin learns nothing else, neither which projects exist nor whether
        // its request or token would do (the session check runs after this one).
        const origin = request.headers["origin"]
        if (origin !== undefined && !ownOrigin(origin)) {
          return yield* new WalletForbidden({ code: "origin_not_allowed", error: unauthorizedTexts.originNotAllowed })
        }
        const projectId = yield* projectIdOf
        if (projectId === undefined || projectId === "") {
          return yield* new WalletBadRequest({
            code: "bad_request",
            error: "Missing projectId: pass it in the body, the query parameter projectId or the header x-project-id"
          })
        }
        const project = deps.projects.find((candidate) => candidate.projectId === projectId)
        if (project === undefined) return yield* new WalletUnauthorized({ code: "unknown_project", error: unauthorizedTexts.invalidKey })
        return yield* Effect.provideService(handler, WalletProject, project)
      })
  })
)

/** {@link SessionAuth}: the bearer token of a session that is neither ended nor expired. */
export const SessionAuthLive = Layer.effect(SessionAuth)(
  Effect.gen(function* () {
    const deps = yield* WalletServerEnv
    return {
      bearer: (handler, { credential }) =>
        Effect.gen(function* () {
          const token = Redacted.value(credential)
          if (token === "") {
            return yield* new WalletUnauthorized({ code: "unauthorized", error: "Not logged in: the session token is missing" })
          }
          const hash = tokenHash(token)
          const user = yield* runQuery(deps, store.sessionUser(hash, new Date(deps.now())))
          if (user === undefined) return yield* new WalletUnauthorized({ code: "unauthorized", error: "The session is over: log in again" })
          return yield* Effect.provideService(handler, WalletSession, { userId: user.id, email: user.email, tokenHash: hash })
        })
    }
  })
)

const unavailable = (error: string) => new WalletUnavailable({ code: "unavailable", error, retryAfterSeconds: RETRY_AFTER_SECONDS })

// A route's failure as the API answers it: a request that fails its Schemas names the field, a database failure asks
// for a retry, and anything unexpected is a 500 in words; the declared failures are left as they are.
const answerFailure = <E>(
  cause: Cause.Cause<E>
): Effect.Effect<never, E | WalletBadRequest | WalletPayloadTooLarge | WalletInternalError | WalletUnavailable> =>
  Effect.gen(function* () {
    const error: unknown = Cause.squash(cause)
    const invalid = requestSchemaFailure(error)
    if (invalid !== undefined) return yield* new WalletBadRequest({ code: "bad_request", error: invalid })
    if (HttpApiError.HttpApiPayloadTooLarge.is(error)) return yield* new WalletPayloadTooLarge({ code: "payload_too_large", error: error.message })
    // The route's decoding reads a JSON body as a defect when it cannot: too large, or not JSON.
    const unreadable = yield* unreadableBody(error)
    if (unreadable !== undefined) return yield* Effect.fail(unreadable)
    if (isDatabaseDown(error)) return yield* unavailable("The wallet's database cannot be reached; try again")
    if (Cause.hasFails(cause) || Cause.hasInterruptsOnly(cause)) return yield* Effect.failCause(cause)
    return yield* new WalletInternalError({ code: "internal", error: `Internal error: ${error instanceof Error ? error.message : String(error)}` })
  })

/** {@link WalletRequestErrors}, with each route given `timeout` to answer (503 `unavailable` past it). */
export const walletRequestErrorsLayer = (options: { readonly timeout: Duration.Input }) =>
  Layer.succeed(WalletRequestErrors)((handler) =>
    handler.pipe(
      Effect.timeoutOrElse({
        duration: options.timeout,
        orElse: () => Effect.fail(unavailable("The wallet server took too long to answer; try again"))
      }),
      Effect.catchCause(answerFailure)
    )
  )
