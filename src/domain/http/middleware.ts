/**
 * The middlewares of the hosted services' API, declared with their failures so that the OpenAPI document and the
 * derived clients know every answer a route can give. Their implementations live in the server.
 */
import { Context } from "effect"
import { HttpApiMiddleware } from "effect/http-api"
import { BadRequest, InvalidKey, OriginNotAllowed, PayloadTooLarge, Unavailable } from "./errors"

/** A project a services server knows: its id, the origins allowed to use it, and whether it takes analytics. */
export interface ApiProject {
  readonly projectId: string
  /** `loopback`: any http(s) origin on 127.0.0.1, localhost or [::1]; otherwise the exact origins allowed. */
  readonly allowedOrigins: "loopback" | ReadonlyArray<string>
  readonly analyticsEnabled: boolean
}

/** The project of the request, for the routes behind {@link ProjectAuth} (`undefined` when an optional one is absent). */
export class CurrentProject extends Context.Service<CurrentProject, ApiProject | undefined>()(
  "wallet-runtime/http/CurrentProject"
) {}

/**
 * Every service route: the projectId (query `projectId`, header `x-project-id`, or `projectId` in a JSON body) must
 * be a known project's (401 `Unauthorized: invalid key`), used from an origin it allows (403 `Unauthorized: origin
 * not allowed`); missing, it is a 400.
 */
export class ProjectAuth extends HttpApiMiddleware.Service<ProjectAuth, { provides: CurrentProject }>()(
  "wallet-runtime/http/ProjectAuth",
  { error: [InvalidKey, OriginNotAllowed, BadRequest] }
) {}

/** Images used as `<img src>`: a projectId is not required, but one that is given is checked like {@link ProjectAuth}. */
export class OptionalProjectAuth extends HttpApiMiddleware.Service<OptionalProjectAuth, { provides: CurrentProject }>()(
  "wallet-runtime/http/OptionalProjectAuth",
  { error: [InvalidKey, OriginNotAllowed, BadRequest] }
) {}

/**
 * Every route of the API: a request that fails its Schemas is a 400 naming the part and the field, a body over the
 * server's limit a 413, and a route that cannot answer now (database down, over its time limit) a 503 with
 * `Retry-After`.
 */
export class RequestErrors extends HttpApiMiddleware.Service<RequestErrors>()("wallet-runtime/http/RequestErrors", {
  error: [BadRequest, PayloadTooLarge, Unavailable]
}) {}
