import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http"
import { Result, Schema } from "effect"
import { ApiError } from "../../../src/domain/Api"
import { type DevProject, isLoopbackOrigin, originAllowed, unauthorizedTexts } from "../services/projects"

/** A failure a handler raises on purpose: sent as `{ error }` JSON, or as plain text for the authorisation texts. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly format: "json" | "text" = "json"
  ) {
    super(message)
  }
}

/** A response a handler builds itself (images, pages, proxied bodies) instead of a Schema-encoded value. */
export class RawReply {
  constructor(
    readonly contentType: string,
    readonly body: string | Uint8Array,
    readonly status = 200,
    readonly headers: Readonly<Record<string, string>> = {}
  ) {}
}

/** What a handler receives: the decoded path params, query and body, and the caller. */
export interface RequestContext<P, Q, B> {
  readonly params: P
  readonly query: Q
  readonly body: B
  /** The project of the projectId, for routes with `auth: "project"`. */
  readonly project: DevProject | undefined
  readonly origin: string | undefined
  readonly url: URL
  /** The request's headers (names lower case), e.g. `authorization` for routes that take a bearer token. */
  readonly headers: IncomingHttpHeaders
}

type Method = "GET" | "POST" | "DELETE"

/** One endpoint: its Schemas (decode in, encode out) and its handler. */
export interface Route<P, Q, B, R> {
  readonly method: Method | ReadonlyArray<Method>
  /** A path with `:name` segments, e.g. `/v1/account/:address/balance`. */
  readonly path: string
  /**
   * `project`: a known projectId (query `projectId`, header `x-project-id` or body `projectId`) from an allowed
   * origin is required; `optional`: checked the same way when given, not required (images used as `<img src>`).
   */
  readonly auth: "project" | "optional" | "none"
  readonly params?: Schema.Codec<P, unknown>
  readonly query?: Schema.Codec<Q, unknown>
  readonly body?: Schema.Codec<B, unknown>
  readonly response?: Schema.Codec<R, unknown>
  readonly handler: (ctx: RequestContext<P, Q, B>) => Promise<R | RawReply>
}

/** A route with its types erased, as the router stores it. */
export interface AnyRoute {
  readonly method: Method | ReadonlyArray<Method>
  readonly path: string
  readonly auth: "project" | "optional" | "none"
  readonly params?: Schema.Codec<unknown, unknown>
  readonly query?: Schema.Codec<unknown, unknown>
  readonly body?: Schema.Codec<unknown, unknown>
  readonly response?: Schema.Codec<unknown, unknown>
  readonly handler: (ctx: RequestContext<unknown, unknown, unknown>) => Promise<unknown>
}

/** Declares a route; the Schemas fix the handler's types. */
export const route = <P = undefined, Q = undefined, B = undefined, R = unknown>(spec: Route<P, Q, B, R>): AnyRoute =>
  spec as unknown as AnyRoute

const oneLine = (text: string) => text.replace(/\s*\n\s*/g, " ")

const decode = (what: string, schema: Schema.Codec<unknown, unknown> | undefined, input: unknown): unknown => {
  if (schema === undefined) return undefined
  const result = Schema.decodeUnknownResult(schema)(input, { errors: "all" })
  if (Result.isFailure(result)) throw new HttpError(400, `Invalid ${what}: ${oneLine(result.failure.message)}`)
  return result.success
}

const matchPath = (pattern: string, pathname: string): Record<string, string> | undefined => {
  const want = pattern.split("/")
  const got = pathname.split("/")
  if (want.length !== got.length) return undefined
  const params: Record<string, string> = {}
  for (let i = 0; i < want.length; i++) {
    const w = want[i] ?? ""
    const g = got[i] ?? ""
    if (w.startsWith(":")) {
      if (g === "") return undefined
      try {
        params[w.slice(1)] = decodeURIComponent(g)
      } catch {
        return undefined
      }
    } else if (w !== g) return undefined
  }
  return params
}

/**
 * Orders routes so that, of two whose paths both match a request, the one with a literal segment where the other has
 * a `:param` comes first (`/v1/sessions/nonce` before `/v1/sessions/:address`): the order routes are listed in does
 * not decide which one serves. A stable sort: routes of the same shape keep the order they are listed in.
 */
export const bySpecificity = (routes: ReadonlyArray<AnyRoute>): ReadonlyArray<AnyRoute> => {
  const shape = (route: AnyRoute) => route.path.split("/").map((segment) => (segment.startsWith(":") ? 1 : 0))
  return [...routes].sort((a, b) => {
    const x = shape(a)
    const y = shape(b)
    // Paths of different lengths never match the same request: length first keeps the order total.
    if (x.length !== y.length) return x.length - y.length
    for (let i = 0; i < x.length; i++) {
      const difference = (x[i] ?? 0) - (y[i] ?? 0)
      if (difference !== 0) return difference
    }
    return 0
  })
}

const maxBodyBytes = 1_000_000

const readBody = (req: IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    const chunks: Array<Buffer> = []
    let size = 0
    req.on("data", (chunk: Buffer) => {
      size += chunk.length
      if (size > maxBodyBytes) {
        reject(new HttpError(413, `Request body is larger than ${maxBodyBytes} bytes`))
        req.destroy()
      } else chunks.push(chunk)
    })
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")))
    req.on("error", reject)
  })

const queryRecord = (url: URL): Record<string, string> => {
  const query: Record<string, string> = {}
  for (const [key, value] of url.searchParams) if (!(key in query)) query[key] = value
  return query
}

const corsHeaders = (req: IncomingMessage): Record<string, string> => {
  const origin = req.headers.origin
  if (origin === undefined || !isLoopbackOrigin(origin)) return {}
  return {
    "access-control-allow-origin": origin,
    "access-control-allow-methods": "GET, POST, DELETE, OPTIONS",
    "access-control-allow-headers": req.headers["access-control-request-headers"] ?? "content-type, x-project-id, x-sdk-type, x-sdk-version",
    "access-control-max-age": "600",
    vary: "Origin"
  }
}

const encodeError = Schema.encodeSync(ApiError)
const jsonError = (status: number, message: string) =>
  new RawReply("application/json; charset=utf-8", JSON.stringify(encodeError({ error: message })), status)

/** A request listener for node:http serving `routes`, with CORS for loopback origins and a JSON 4xx for every bad request. */
export const makeRouter = (listed: ReadonlyArray<AnyRoute>, projects: ReadonlyArray<DevProject>) => {
  const routes = bySpecificity(listed)
  const findProject = (req: IncomingMessage, url: URL, body: unknown, required: boolean): DevProject | undefined => {
    const header = req.headers["x-project-id"]
    const fromBody =
      typeof body === "object" && body !== null && "projectId" in body && typeof body.projectId === "string"
        ? body.projectId
        : undefined
    const projectId = url.searchParams.get("projectId") ?? (typeof header === "string" ? header : undefined) ?? fromBody
    if ((projectId === undefined || projectId === "") && !required) return undefined
    if (projectId === undefined || projectId === "") {
      throw new HttpError(400, "Missing projectId: pass it as the query parameter projectId or the header x-project-id")
    }
    const project = projects.find((p) => p.projectId === projectId)
    if (project === undefined) throw new HttpError(401, unauthorizedTexts.invalidKey, "text")
    if (!originAllowed(project, req.headers.origin)) throw new HttpError(403, unauthorizedTexts.originNotAllowed, "text")
    return project
  }

  const dispatch = async (req: IncomingMessage, url: URL): Promise<RawReply> => {
    const method = req.method ?? "GET"
    let pathMatched = false
    for (const r of routes) {
      const params = matchPath(r.path, url.pathname)
      if (params === undefined) continue
      pathMatched = true
      const methods: ReadonlyArray<string> = typeof r.method === "string" ? [r.method] : r.method
      if (!methods.includes(method)) continue
      let body: unknown
      if (r.body !== undefined) {
        const text = await readBody(req)
        try {
          body = text === "" ? undefined : JSON.parse(text)
        } catch {
          throw new HttpError(400, "Invalid body: not valid JSON")
        }
      }
      const project = r.auth === "none" ? undefined : findProject(req, url, body, r.auth === "project")
      const ctx: RequestContext<unknown, unknown, unknown> = {
        params: decode("path", r.params, params),
        query: decode("query", r.query, queryRecord(url)),
        body: decode("body", r.body, body),
        project,
        origin: req.headers.origin,
        url,
        headers: req.headers
      }
      const result = await r.handler(ctx)
      if (result instanceof RawReply) return result
      const encoded = r.response === undefined ? result : Schema.encodeUnknownSync(r.response)(result)
      return new RawReply("application/json; charset=utf-8", JSON.stringify(encoded))
    }
    if (pathMatched) throw new HttpError(405, `Method ${method} is not allowed on ${url.pathname}`)
    throw new HttpError(404, `No endpoint ${method} ${url.pathname}`)
  }

  return (req: IncomingMessage, res: ServerResponse): void => {
    const cors = corsHeaders(req)
    const send = (reply: RawReply) => {
      if (res.headersSent) return
      res.writeHead(reply.status, { "content-type": reply.contentType, ...cors, ...reply.headers })
      res.end(reply.body)
    }
    if (req.method === "OPTIONS") {
      res.writeHead(204, cors)
      res.end()
      return
    }
    const url = new URL(req.url ?? "/", "http://127.0.0.1")
    dispatch(req, url).then(send, (error: unknown) => {
      if (error instanceof HttpError) {
        send(
          error.format === "text"
            ? new RawReply("text/plain; charset=utf-8", error.message, error.status)
            : jsonError(error.status, error.message)
        )
      } else {
        const message = error instanceof Error ? error.message : String(error)
        send(jsonError(500, `Internal error: ${message}`))
      }
    })
  }
}
