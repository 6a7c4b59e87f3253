/**
 * The modal's clients of the hosted services, derived from their one declaration (`domain/http/ServicesApi`) with
 * effect/http-api's HttpApiClient: each endpoint's path, params, query and body encoding and the decoding of its answer
 * come from the declaration, so no route is written twice. Under it, the bounded HttpClient (`boundedServiceClient.ts`)
 * keeps the modal's rules for every answer, the same the modal's own calls of the catalogue's pages and of analytics go
 * through.
 *
 * This module brings effect/http-api with it: `serviceCalls.ts` fetches it with `import()` on the first call of a
 * derived client (balances, names, sessions), so it is not in the runtime's core a page loads before the visitor's
 * first click, nor on the modal's first open (the catalogue's pages and analytics are asked without it,
 * `catalogueWallets.ts`, `analyticsCalls.ts`). Each
 * group's declaration is a module of its own, fetched and built on that group's first call, so a page does not build
 * the declarations of the groups it never calls.
 */
import { Effect } from "effect"
import type * as HttpClientError from "effect/http/HttpClientError"
import { type HttpApi, HttpApiClient, type HttpApiGroup } from "effect/http-api"
import type { ServicesApi } from "../domain/http/ServicesApi"
import { servicesApiOf } from "../domain/http/servicesApiOf"
import { boundedClient, type ServiceExchange, type ServicesClientOptions, withinExchange } from "./boundedServiceClient"
import type { ServiceError } from "./serviceHttp"

type Groups = typeof ServicesApi extends HttpApi.HttpApi<infer _Id, infer G> ? G : never

/** The name of a group of the services' API (`catalogue`, `analytics`, …). */
export type ServiceGroupId = HttpApiGroup.Identifier<Groups>

/** The client of one group of the services' API: a method per endpoint, taking its params, query and payload. */
export type ServiceGroup<Id extends ServiceGroupId> = HttpApiClient.Client.Group<
  HttpApiGroup.WithIdentifier<Groups, Id>,
  HttpClientError.HttpClientError | ServiceError,
  ServiceExchange
>

/**
 * None of the API's middlewares has a client side (they check what the server receives), so a client needs no
 * middleware service; were one to need it, this names it and the build below stops compiling.
 */
type NoClientMiddleware = [HttpApiGroup.MiddlewareClient<Groups>] extends [never]
  ? never
  : "a middleware of the services' API needs a client side: provide it to the group clients"

/** The derived clients of one service, ready to call. */
export interface ServicesClient {
  /** Runs `f` with the client of `group`, within `exchange`; every failure comes out as a ServiceError. */
  readonly call: <Id extends ServiceGroupId, A>(
    group: Id,
    f: (client: ServiceGroup<Id>) => Effect.Effect<A, unknown, ServiceExchange>,
    exchange: ServiceExchange["Service"]
  ) => Effect.Effect<A, ServiceError>
}

/**
 * Where each group's declaration is: fetched on the group's first call. (The API's own middleware is added to it by
 * `servicesApiOf`, as in `ServicesApi`; the client's type is that group's in `ServicesApi`.)
 */
const declarations: { readonly [Id in ServiceGroupId]: () => Promise<HttpApiGroup.Constraint & { readonly identifier: Id }> } = {
  catalogue: () => import("../domain/http/catalogue").then((m) => m.CatalogueGroup),
  images: () => import("../domain/http/catalogue").then((m) => m.ImagesGroup),
  analytics: () => import("../domain/http/catalogue").then((m) => m.AnalyticsGroup),
  blockchain: () => import("../domain/http/blockchain").then((m) => m.BlockchainGroup),
  names: () => import("../domain/http/names").then((m) => m.NamesGroup),
  sessions: () => import("../domain/http/sessions").then((m) => m.SessionsGroup),
  rpcProxy: () => import("../domain/http/rpcProxy").then((m) => m.RpcProxyGroup),
  convert: () => import("../domain/http/convert").then((m) => m.ConvertGroup),
  onramp: () => import("../domain/http/onramp").then((m) => m.OnrampGroup)
}

/**
 * The clients of the service at `options.baseUrl`. A group's client is built on its first call and kept: building
 * walks the declaration and compiles its Schemas, which the groups a page never calls do not pay for.
 */
export const makeServicesClient = (options: ServicesClientOptions): ServicesClient => {
  const httpClient = boundedClient(options)
  // Keyed by group name: the map cannot say that each value is its key's client, the one place that sets it does.
  const groups = new Map<ServiceGroupId, unknown>()
  const groupClient = <Id extends ServiceGroupId>(group: Id): Effect.Effect<ServiceGroup<Id>> => {
    const known = groups.get(group)
    if (known !== undefined) return Effect.succeed(known as ServiceGroup<Id>)
    // The group's client is typed as that group's in ServicesApi (the API of one group has only it), which TypeScript
    // cannot follow through the lazily fetched declaration; NoClientMiddleware checks the client requirements of every
    // group at once.
    return Effect.promise(declarations[group]).pipe(
      Effect.flatMap(
        (declared) =>
          HttpApiClient.group(servicesApiOf(declared), { group: declared.identifier as never, httpClient }) as unknown as Effect.Effect<
            ServiceGroup<Id>,
            never,
            NoClientMiddleware
          >
      ),
      Effect.tap((client) => Effect.sync(() => groups.set(group, client)))
    )
  }
  const call: ServicesClient["call"] = (group, f, exchange) =>
    withinExchange(Effect.flatMap(groupClient(group), f), exchange, options.baseUrl)
  return { call }
}
