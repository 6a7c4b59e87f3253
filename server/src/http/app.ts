/**
 * One HTTP server of the hosted services, as a host runs it: an `HttpRouter` app (the HTTP API's groups and plain
 * routes) served by Node on a loopback or configured address, with what every route shares —
 * - CORS for the origins some project allows;
 * - a body limit (413) and, through Node, bounds on receiving a request, so a stalled client is cut off;
 * - `GET /healthz` (alive) and `GET /readyz` (its dependencies answer, e.g. the database and its migrations);
 * - a JSON access log line per request through Effect's Logger (off unless asked: the tests start many servers);
 * - behind proxies it is told of, the client's address from `X-Forwarded-For`;
 * - on stop, the requests in flight finish (up to a bound) before the listener closes.
 */
import { createServer } from "node:http"
import { NodeHttpServer } from "@effect/platform-node"
import { ByteSize, Cause, Duration, Effect, type FileSystem, Layer, Logger, ManagedRuntime, type Path } from "effect"
import { type Etag, Headers, HttpIncomingMessage, HttpMiddleware, type HttpPlatform, HttpRouter, HttpServer, HttpServerRequest, HttpServerResponse } from "effect/http"
import { identity } from "effect/Function"
import { IpNetwork } from "effect/net"
import { isDatabaseDown, RETRY_AFTER_SECONDS, unavailable } from "./middleware"

/** What Node's HTTP server provides the app besides the router (what `HttpApiBuilder.layer` asks for). */
export type NodeHttpServices = Etag.Generator | FileSystem.FileSystem | HttpPlatform.HttpPlatform | Path.Path

/** How one HTTP server behaves at its edges. */
export interface HttpAppOptions {
  /** Port to listen on (0: one the OS chooses). */
  readonly port: number
  /** Address to listen on (default 127.0.0.1). */
  readonly host?: string | undefined
  /** Largest request body in bytes (default 1 MB); a larger one is refused with 413. */
  readonly maxBodyBytes?: number | undefined
  /** Bound on receiving a whole request, headers and body, in ms (default 30000): a client that stalls is cut off. */
  readonly requestTimeoutMs?: number | undefined
  /** Bound on receiving the headers, in ms (default 10000). */
  readonly headersTimeoutMs?: number | undefined
  /** How long a stop waits for requests in flight, in ms (default 10000). */
  readonly drainMs?: number | undefined
  /** Origins that may call from a browser (CORS). */
  readonly corsOrigin: (origin: string) => boolean
  /** Whether the server can serve now (`/readyz`): e.g. the database answers and its migrations ran. */
  readonly ready?: Effect.Effect<boolean> | undefined
  /** A JSON access log line per request (default off). */
  readonly accessLog?: boolean | undefined
  /**
   * The proxies in front of the server, as CIDR networks (default none): a request from one of them is taken to come
   * from the address its `X-Forwarded-For` names (Effect's `xForwardedHeaders`), not from the proxy.
   */
  readonly trustedProxies?: ReadonlyArray<string> | undefined
  /** The routes served (asked once the app is built), so that a known path asked with another method is a 405, not a 404. */
  readonly routes?: (() => ReadonlyArray<{ readonly method: string; readonly path: string }>) | undefined
}

/** The method and path of every endpoint of an HTTP API declaration. */
export const routesOf = (api: {
  readonly groups: Readonly<Record<string, { readonly endpoints: Readonly<Record<string, { readonly method: string; readonly path: string }>> }>>
}): ReadonlyArray<{ readonly method: string; readonly path: string }> =>
  Object.values(api.groups).flatMap((group) =>
    Object.values(group.endpoints).map((endpoint) => ({ method: endpoint.method, path: endpoint.path }))
  )

// The methods a path is served with, from route patterns (`:name` segments match one segment).
const methodsFor = (routes: () => ReadonlyArray<{ readonly method: string; readonly path: string }>) => {
  let known: ReadonlyArray<{ readonly method: string; readonly pattern: RegExp }> | undefined
  const compile = () => routes().map(({ method, path }) => ({
    method,
    pattern: new RegExp(`^${path.replace(/\/+$/, "").replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/:[A-Za-z_]\w*/g, "[^/]+")}/?$`)
  }))
  return (pathname: string) => {
    known ??= compile()
    return [...new Set(known.filter(({ pattern }) => pattern.test(pathname)).map(({ method }) => method))]
  }
}

/** A running HTTP server. */
export interface RunningHttpApp {
  readonly url: string
  readonly port: number
  /** Stops accepting, lets requests in flight finish (bounded), then closes. Idempotent. */
  readonly stop: () => Promise<void>
}

const health = (ready: Effect.Effect<boolean> | undefined) =>
  Layer.mergeAll(
    HttpRouter.add("GET", "/healthz", HttpServerResponse.jsonUnsafe({ status: "ok" })),
    HttpRouter.add(
      "GET",
      "/readyz",
      Effect.map(ready ?? Effect.succeed(true), (ok) =>
        ok
          ? HttpServerResponse.jsonUnsafe({ status: "ready" })
          : HttpServerResponse.jsonUnsafe(
              { status: "unavailable", error: "The service's dependencies are not ready" },
              { status: 503, headers: { "retry-after": String(RETRY_AFTER_SECONDS) } }
            )
      )
    )
  ).pipe(Layer.provide(HttpRouter.disableLogger))

// The failure body of every API here (`{ error, code }`), for a path no route serves (404) or not with this method (405).
const notFound = (methodsOf: (pathname: string) => ReadonlyArray<string>) =>
  HttpRouter.add("*", "*", (request) => {
    const pathname = new URL(request.url, "http://server").pathname
    const allowed = methodsOf(pathname)
    return Effect.succeed(
      allowed.length > 0
        ? HttpServerResponse.jsonUnsafe(
            { error: `Method ${request.method} is not allowed on ${pathname}`, code: "method_not_allowed" },
            { status: 405, headers: { allow: allowed.join(", ") } }
          )
        : HttpServerResponse.jsonUnsafe({ error: `No endpoint ${request.method} ${pathname}`, code: "not_found" }, { status: 404 })
    )
  })

// Every body the services take is JSON, whatever its content type says: pages send analytics as `text/plain` (a
// "simple" request, without a CORS preflight), as the hosted services accept.
const jsonBodies = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.flatMap(Effect.service(HttpServerRequest.HttpServerRequest), (request) => {
    const type = request.headers["content-type"] ?? ""
    if (request.method !== "POST" || type.includes("json") || type.startsWith("multipart/")) return effect
    const headers = Headers.set(request.headers, "content-type", "application/json")
    return Effect.provideService(effect, HttpServerRequest.HttpServerRequest, request.modify({ headers }))
  })

// Any route whose database cannot be reached answers 503 with `Retry-After` (the declared API does so in its
// RequestErrors middleware; this covers the plain routes too), so a restarting Postgres costs retries, not 500s.
const databaseDownIs503 = <E, R>(effect: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>) =>
  Effect.catchCause(effect, (cause) =>
    isDatabaseDown(Cause.squash(cause))
      ? Effect.succeed(unavailable("The service's database cannot be reached; try again"))
      : Effect.failCause(cause)
  )

/** Serves `app` (route layers on `HttpRouter`) as described by `options`; resolves once it listens. */
export const startHttpApp = async <E>(
  app: Layer.Layer<never, E, HttpRouter.HttpRouter | HttpServer.HttpServer | NodeHttpServices>,
  options: HttpAppOptions
): Promise<RunningHttpApp> => {
  const maxBody = ByteSize.bytes(options.maxBodyBytes ?? 1_000_000)
  const trustedProxies = (options.trustedProxies ?? []).map(IpNetwork.fromStringUnsafe)
  const forwarded = trustedProxies.length === 0 ? identity : HttpMiddleware.xForwardedHeaders({ trustedProxies })
  const edges = HttpRouter.middleware(
    (effect) =>
      effect.pipe(
        databaseDownIs503,
        jsonBodies,
        Effect.provideService(HttpIncomingMessage.MaxBodySize, maxBody),
        HttpMiddleware.cors({
          allowedOrigins: options.corsOrigin,
          allowedMethods: ["GET", "POST", "DELETE", "OPTIONS"],
          allowedHeaders: ["content-type", "x-project-id", "x-sdk-type", "x-sdk-version", "authorization"],
          maxAge: 600
        }),
        forwarded
      ),
    { global: true }
  )
  const served = HttpRouter.serve(Layer.mergeAll(app, health(options.ready), notFound(methodsFor(options.routes ?? (() => []))), edges), {
    disableLogger: options.accessLog !== true,
    disableListenLog: true,
    // CAIP-10 accounts are path segments, and a Bitcoin one is over the router's default 100 characters.
    routerConfig: { maxParamLength: 512 }
  })
  const node = NodeHttpServer.layer(
    () =>
      createServer({
        requestTimeout: options.requestTimeoutMs ?? 30_000,
        headersTimeout: Math.min(options.headersTimeoutMs ?? 10_000, options.requestTimeoutMs ?? 30_000),
        // How often Node checks the two bounds above (its default, 30 s, would let a stalled client stay that long).
        connectionsCheckingInterval: 1_000
      }),
    { port: options.port, host: options.host ?? "127.0.0.1", gracefulShutdownTimeout: Duration.millis(options.drainMs ?? 10_000) }
  )
  const layer = served.pipe(
    Layer.provideMerge(node),
    Layer.provide(options.accessLog === true ? Logger.layer([Logger.consoleJson]) : Layer.empty)
  )
  const runtime = ManagedRuntime.make(layer)
  try {
    const server = await runtime.runPromise(Effect.service(HttpServer.HttpServer))
    const address = server.address
    if (address._tag === "UnixPathAddress") throw new Error("the HTTP server did not listen on a TCP address")
    const host = options.host ?? "127.0.0.1"
    const url = `http://${host.includes(":") ? `[${host}]` : host}:${address.port}`
    let stopping: Promise<void> | undefined
    return { url, port: address.port, stop: () => (stopping ??= runtime.dispose()) }
  } catch (error) {
    await runtime.dispose()
    throw error
  }
}
