/**
 * A bridge for the routes not yet declared in the HTTP API (`src/domain/http`): each `route()` of `../lib/router.ts`
 * served as an `HttpRouter` route with the same decoding, project check and answers as before. It goes once every
 * group is declared.
 */
import { Effect, Result, Schema } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { ApiError } from "../../../src/domain/Api"
import { type ApiProject } from "../../../src/domain/http/middleware"
import type { DevProject } from "../services/projects"
import { type AnyRoute, bySpecificity, HttpError, RawReply } from "../lib/router"
import { originAllowed } from "../services/projects"
import { UNAUTHORIZED_INVALID_KEY, UNAUTHORIZED_ORIGIN_NOT_ALLOWED } from "../../../src/domain/Api"

const oneLine = (text: string) => text.replace(/\s*\n\s*/g, " ")

const decode = (what: string, schema: Schema.Codec<unknown, unknown> | undefined, input: unknown): unknown => {
  if (schema === undefined) return undefined
  const result = Schema.decodeUnknownResult(schema)(input, { errors: "all" })
  if (Result.isFailure(result)) throw new HttpError(400, `Invalid ${what}: ${oneLine(result.failure.message)}`)
  return result.success
}

const encodeError = Schema.encodeSync(ApiError)

const reply = (result: RawReply) =>
  HttpServerResponse.raw(result.body, { status: result.status, contentType: result.contentType, headers: result.headers })

const failureReply = (error: unknown) => {
  if (error instanceof HttpError) {
    return error.format === "text"
      ? HttpServerResponse.text(error.message, { status: error.status })
      : HttpServerResponse.jsonUnsafe(encodeError({ error: error.message }), { status: error.status })
  }
  // A database failure is left to RequestErrors' rule (503), everything else is a 500 in words.
  if (typeof error === "object" && error !== null && "_tag" in error && error._tag === "SqlError") throw error
  const message = error instanceof Error ? error.message : String(error)
  return HttpServerResponse.jsonUnsafe(encodeError({ error: `Internal error: ${message}` }), { status: 500 })
}

const findProject = (
  projects: ReadonlyArray<ApiProject>,
  request: HttpServerRequest.HttpServerRequest,
  url: URL,
  body: unknown,
  required: boolean
): ApiProject | undefined => {
  const header = request.headers["x-project-id"]
  const fromBody =
    typeof body === "object" && body !== null && "projectId" in body && typeof body.projectId === "string" ? body.projectId : undefined
  const projectId = url.searchParams.get("projectId") ?? header ?? fromBody
  if ((projectId === undefined || projectId === "") && !required) return undefined
  if (projectId === undefined || projectId === "") {
    throw new HttpError(400, "Missing projectId: pass it as the query parameter projectId or the header x-project-id")
  }
  const project = projects.find((p) => p.projectId === projectId)
  if (project === undefined) throw new HttpError(401, UNAUTHORIZED_INVALID_KEY, "text")
  if (!originAllowed(project, request.headers["origin"])) throw new HttpError(403, UNAUTHORIZED_ORIGIN_NOT_ALLOWED, "text")
  return project
}

/** Serves `routes` (the `lib/router.ts` kind) on the app's `HttpRouter`. */
export const legacyRoutes = (routes: ReadonlyArray<AnyRoute>, projects: ReadonlyArray<ApiProject>) => {
  // The router ignores a trailing slash: `/v1/` and `/v1` are one route.
  const seen = new Set<string>()
  const once = (method: string, path: string) => {
    const key = `${method} ${path.replace(/(.)\/$/, "$1")}`
    if (seen.has(key)) return false
    seen.add(key)
    return true
  }
  return HttpRouter.addAll(
    bySpecificity(routes).flatMap((route) =>
      (typeof route.method === "string" ? [route.method] : route.method).filter((method) => once(method, route.path)).map((method) =>
        HttpRouter.route(
          method,
          route.path as `/${string}`,
          Effect.gen(function* () {
            const request = yield* HttpServerRequest.HttpServerRequest
            const params = yield* HttpRouter.params
            const url = new URL(request.url, "http://server")
            const text = route.body === undefined ? "" : yield* Effect.orDie(request.text)
            const answer = yield* Effect.tryPromise({
              try: async () => {
                let body: unknown
                if (route.body !== undefined && text !== "") {
                  try {
                    body = JSON.parse(text)
                  } catch {
                    throw new HttpError(400, "Invalid body: not valid JSON")
                  }
                }
                const project = route.auth === "none" ? undefined : findProject(projects, request, url, body, route.auth === "project")
                const query: Record<string, string> = {}
                for (const [key, value] of url.searchParams) if (!(key in query)) query[key] = value
                const result = await route.handler({
                  params: decode("path", route.params, params),
                  query: decode("query", route.query, query),
                  body: decode("body", route.body, body),
                  project: project as DevProject | undefined,
                  origin: request.headers["origin"],
                  url,
                  headers: request.headers
                })
                if (result instanceof RawReply) return reply(result)
                const encoded = route.response === undefined ? result : Schema.encodeUnknownSync(route.response)(result)
                return HttpServerResponse.jsonUnsafe(encoded)
              },
              catch: (error) => error
            }).pipe(Effect.catch((error) => Effect.sync(() => failureReply(error))))
            return answer
          })
        )
      )
    )
  )
}
