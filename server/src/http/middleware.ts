/**
 * The implementations of the API's middlewares (declared in `src/domain/http/middleware.ts`): the project check, and
 * the request errors every route shares — a Schema failure as a 400 naming the field, a body over the limit as a 413,
 * and a route that cannot answer (database down, over its time limit) as a 503 with `Retry-After`.
 */
import { Cause, Context, type Duration, Effect, Layer } from "effect"
import { HttpServerRequest, HttpServerResponse } from "effect/http"
import { HttpApiError } from "effect/http-api"
import { UNAUTHORIZED_INVALID_KEY, UNAUTHORIZED_ORIGIN_NOT_ALLOWED } from "../../../src/domain/Api"
import { BadRequest, PayloadTooLarge, Unavailable } from "../../../src/domain/http/errors"
import { type ApiProject, CurrentProject, OptionalProjectAuth, ProjectAuth, RequestErrors } from "../../../src/domain/http/middleware"
import { NameBadRequest, NamePayloadErrors, nameRefusal } from "../../../src/domain/http/names"
import { originAllowed } from "../services/projects"

/** The projects a server knows (from its config; the devstack's three in the local stack). */
export class Projects extends Context.Service<Projects, ReadonlyArray<ApiProject>>()("wallet-runtime-server/Projects") {}

/** Seconds a client is asked to wait (`Retry-After`) after a 503. */
export const RETRY_AFTER_SECONDS = 2

const oneLine = (text: string) => text.replace(/\s*\n\s*/g, " ")

// The projectId of a request: the query parameter, else the header, else a `projectId` string in a JSON body.
const projectIdOf = Effect.gen(function* () {
  const request = yield* HttpServerRequest.HttpServerRequest
  const fromQuery = new URL(request.url, "http://server").searchParams.get("projectId")
  if (fromQuery !== null) return fromQuery
  const header = request.headers["x-project-id"]
  if (header !== undefined) return header
  if (request.method !== "POST" || !(request.headers["content-type"] ?? "").includes("json")) return undefined
  // The body is read once and kept: the route's own decoding reads the same bytes.
  const body = yield* request.json.pipe(Effect.orElseSucceed(() => undefined))
  return typeof body === "object" && body !== null && "projectId" in body && typeof body.projectId === "string"
    ? body.projectId
    : undefined
})

const checkProject = (projects: ReadonlyArray<ApiProject>, required: boolean) =>
  Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest
    const projectId = yield* projectIdOf
    if (projectId === undefined || projectId === "") {
      if (!required) return undefined
      return yield* new BadRequest({
        error: "Missing projectId: pass it as the query parameter projectId or the header x-project-id"
      })
    }
    const project = projects.find((candidate) => candidate.projectId === projectId)
    if (project === undefined) return yield* Effect.fail<typeof UNAUTHORIZED_INVALID_KEY>(UNAUTHORIZED_INVALID_KEY)
    if (!originAllowed(project, request.headers["origin"])) {
      return yield* Effect.fail<typeof UNAUTHORIZED_ORIGIN_NOT_ALLOWED>(UNAUTHORIZED_ORIGIN_NOT_ALLOWED)
    }
    return project
  })

/** {@link ProjectAuth}: a known projectId from an allowed origin is required. */
export const ProjectAuthLive = Layer.effect(ProjectAuth)(
  Effect.gen(function* () {
    const projects = yield* Projects
    return (handler) => Effect.flatMap(checkProject(projects, true), (project) => Effect.provideService(handler, CurrentProject, project))
  })
)

/** {@link OptionalProjectAuth}: a projectId that is given is checked; none is fine. */
export const OptionalProjectAuthLive = Layer.effect(OptionalProjectAuth)(
  Effect.gen(function* () {
    const projects = yield* Projects
    return (handler) => Effect.flatMap(checkProject(projects, false), (project) => Effect.provideService(handler, CurrentProject, project))
  })
)

// What a request's Schema failure says, on one line.
const schemaDetail = (error: HttpApiError.HttpApiSchemaError) =>
  error.cause instanceof Error ? oneLine(error.cause.message) : String(error.cause)

// The payload decoder's own words for a body that is not JSON at all (effect/http-api's HttpApiBuilder).
const isUnparsedJson = (error: HttpApiError.HttpApiSchemaError) =>
  error.kind === "Payload" && error.cause instanceof Error && error.cause.message === "Expected a valid JSON body"

/**
 * {@link NamePayloadErrors}: a registration body that fails its Schema is a 400 in the name service's shape,
 * `Invalid registration: …` naming the field; a body that is not JSON at all is left to {@link RequestErrors}.
 */
export const namePayloadErrorsLayer = Layer.succeed(NamePayloadErrors)((handler) =>
  Effect.catchCause(handler, <E>(cause: Cause.Cause<E>): Effect.Effect<never, E | NameBadRequest> => {
    const error: unknown = Cause.squash(cause)
    return HttpApiError.HttpApiSchemaError.is(error) && error.kind === "Payload" && !isUnparsedJson(error)
      ? Effect.fail(new NameBadRequest(nameRefusal(`Invalid registration: ${schemaDetail(error)}`)))
      : Effect.failCause(cause)
  })
)

const isDatabaseDown = (error: unknown): boolean =>
  typeof error === "object" && error !== null && "_tag" in error && error._tag === "SqlError"

/** The 503 answer: the error in words, and when to try again. */
export const unavailable = (error: string) =>
  HttpServerResponse.jsonUnsafe(new Unavailable({ error }), {
    status: 503,
    headers: { "retry-after": String(RETRY_AFTER_SECONDS) }
  })

// What a route's failure becomes: a request Schema failure a 400 naming the field, a body over the limit a 413, a
// database failure a 503; anything else is left as it was.
const answerFailure = <E>(
  cause: Cause.Cause<E>
): Effect.Effect<HttpServerResponse.HttpServerResponse, E | BadRequest | PayloadTooLarge> => {
  const error: unknown = Cause.squash(cause)
  if (HttpApiError.HttpApiSchemaError.is(error) && error.kind !== "Body" && error.kind !== "ResponseHeaders") {
    const part = error.kind === "Params" ? "path" : error.kind === "Payload" ? "body" : error.kind.toLowerCase()
    return Effect.fail(new BadRequest({ error: `Invalid ${part}: ${isUnparsedJson(error) ? "not valid JSON" : schemaDetail(error)}` }))
  }
  if (HttpApiError.HttpApiPayloadTooLarge.is(error)) return Effect.fail(new PayloadTooLarge({ error: error.message }))
  if (isDatabaseDown(error)) return Effect.succeed(unavailable("The service's database cannot be reached; try again"))
  return Effect.failCause(cause)
}

/**
 * {@link RequestErrors}, with each route given `timeout` to answer. A request's Schema failure names its part and
 * field; a database failure (`SqlError`, raised or as a defect) answers 503 rather than 500, so a restarting Postgres
 * costs retries, not errors.
 */
export const requestErrorsLayer = (options: { readonly timeout: Duration.Input }) =>
  Layer.succeed(RequestErrors)((handler) =>
    handler.pipe(
      Effect.timeoutOrElse({
        duration: options.timeout,
        orElse: () => Effect.succeed(unavailable("The service took too long to answer; try again"))
      }),
      Effect.catchCause(answerFailure)
    )
  )
