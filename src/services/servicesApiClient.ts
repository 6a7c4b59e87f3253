/**
 * The modal's clients of the hosted services, derived from their one declaration (`domain/http/ServicesApi`) with
 * effect/http-api's HttpApiClient: each endpoint's path, params, query and body encoding and the decoding of its answer
 * come from the declaration, so no route is written twice. Under it, an HttpClient keeps the modal's rules for every
 * answer: the body is read within a size cap, a non-2xx answer is 'HTTP status code: N' with the start of its body
 * (the authorisation texts raise their alerts), a transport failure is ServiceUnreachable and an answer the
 * declaration refuses ServiceAnswerInvalid.
 *
 * This module brings effect/http-api with it: `serviceCalls.ts` fetches it with `import()` on the first service call,
 * so it is not in the runtime's core a page loads before the visitor's first click. Each group's declaration is a
 * module of its own, fetched and built on that group's first call (the catalogue at modal open, the blockchain group
 * once an account shows), so a page does not build the declarations of the groups it never calls.
 */
import { Context, Effect } from "effect"
import * as HttpClient from "effect/http/HttpClient"
import type * as HttpClientError from "effect/http/HttpClientError"
import * as HttpClientRequest from "effect/http/HttpClientRequest"
import * as HttpClientResponse from "effect/http/HttpClientResponse"
import { type HttpApi, HttpApiClient, type HttpApiGroup } from "effect/http-api"
import { type Alert, alertForServiceError } from "../domain/alerts"
import { HttpStatusError } from "../domain/errors"
import type { ServicesApi } from "../domain/http/ServicesApi"
import { servicesApiOf } from "../domain/http/servicesApiOf"
import { bodyProblemText, readBytesCapped, readTextCapped } from "./httpBody"
import { ServiceAnswerInvalid, type ServiceError, ServiceUnreachable } from "./serviceHttp"

/** Error bodies are kept this long at most (they end up in logs and error values). */
const MAX_ERROR_BODY = 300
/** At most this much of an error answer is read: the start is all that is kept. */
const MAX_ERROR_BODY_READ = 64 * 1024

type Groups = typeof ServicesApi extends HttpApi.HttpApi<infer _Id, infer G> ? G : never

/** The name of a group of the services' API (`catalogue`, `analytics`, …). */
export type ServiceGroupId = HttpApiGroup.Identifier<Groups>

/**
 * One call's exchange: the address its request went to, once it went. An answer the declaration refuses, or a time-out,
 * names that address; a call whose request never went out failed on the request itself.
 */
export class ServiceExchange extends Context.Service<ServiceExchange, { url: string | undefined }>()(
  "wallet-runtime/ServiceExchange"
) {}

/** The HttpClient under the derived clients: the modal's rules for an answer, as failures of its own. */
type BoundedClient = HttpClient.HttpClient.With<HttpClientError.HttpClientError | ServiceError, ServiceExchange>

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

/** Where the services are and what reaches them. */
export interface ServicesClientOptions {
  /** The service's base URL (it may carry a path prefix). */
  readonly baseUrl: string
  readonly client: HttpClient.HttpClient
  /** Raises the alert an authorisation answer names ('Invalid Project ID', 'Invalid App Configuration'). */
  readonly raiseAlert: (alert: Alert) => Effect.Effect<unknown>
}

/** The derived clients of one service, ready to call. */
export interface ServicesClient {
  /** Runs `f` with the client of `group`, within `exchange`; every failure comes out as a ServiceError. */
  readonly call: <Id extends ServiceGroupId, A>(
    group: Id,
    f: (client: ServiceGroup<Id>) => Effect.Effect<A, unknown, ServiceExchange>,
    exchange: ServiceExchange["Service"]
  ) => Effect.Effect<A, ServiceError>
}

const statusError = (
  response: HttpClientResponse.HttpClientResponse,
  raiseAlert: ServicesClientOptions["raiseAlert"]
): Effect.Effect<never, HttpStatusError> =>
  Effect.gen(function* () {
    const text = yield* readTextCapped(response, MAX_ERROR_BODY_READ).pipe(Effect.orElseSucceed(() => ""))
    const body = text.slice(0, MAX_ERROR_BODY)
    const alert = alertForServiceError(body)
    if (alert !== undefined) yield* raiseAlert(alert)
    return yield* new HttpStatusError({ status: response.status, ...(body.length > 0 ? { body } : {}) })
  })

/**
 * The HttpClient the derived clients use: a 2xx answer is read whole within the cap and handed on as if it had just
 * arrived, so the declaration's decoding never reads an unbounded body; any other answer fails here with its status,
 * before the declaration's error Schemas would see it.
 */
const boundedClient = (options: ServicesClientOptions): BoundedClient =>
  // The base URL is put first, so the HttpClient given (a host's, with its own request steps) sees whole addresses;
  // HttpApiClient's `baseUrl` would add it after them.
  HttpClient.transform(HttpClient.mapRequestInput(options.client, HttpClientRequest.prependUrl(options.baseUrl)), (answer, request) =>
    Effect.gen(function* () {
      const exchange = yield* ServiceExchange
      exchange.url = request.url
      const response = yield* Effect.mapError(answer, (error) => new ServiceUnreachable({ url: request.url, reason: error.message }))
      if (response.status < 200 || response.status >= 300) return yield* statusError(response, options.raiseAlert)
      const body = yield* readBytesCapped(response).pipe(
        Effect.mapError((problem) =>
          problem._tag === "TooLarge"
            ? new ServiceAnswerInvalid({ url: request.url, issue: bodyProblemText(problem) })
            : new ServiceUnreachable({ url: request.url, reason: bodyProblemText(problem) })
        )
      )
      // A 204 or 205 cannot carry a body (`Response` throws); whether one is acceptable is the declaration's call.
      const noContent = response.status === 204 || response.status === 205
      return HttpClientResponse.fromWeb(
        request,
        new Response(noContent ? null : body, { status: response.status, headers: response.headers })
      )
    })
  )

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

const isServiceError = (error: unknown): error is ServiceError =>
  error instanceof HttpStatusError || error instanceof ServiceUnreachable || error instanceof ServiceAnswerInvalid

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error))

/**
 * What a derived client failed with, as a ServiceError. The bounded client has already turned transport failures and
 * non-2xx answers into ServiceErrors, so once the request went out anything else is a 2xx answer the declaration
 * refuses (a body its Schema rejects, a status or content type it does not declare). Before, it is a request the
 * declaration refuses (a parameter its Schema rejects): it was not sent, as a request that cannot be made never was.
 */
const serviceErrorOf = (error: unknown, exchange: ServiceExchange["Service"], baseUrl: string): ServiceError =>
  isServiceError(error)
    ? error
    : exchange.url === undefined
      ? new ServiceUnreachable({ url: baseUrl, reason: `request not sent, the services' API refuses it: ${messageOf(error)}` })
      : new ServiceAnswerInvalid({ url: exchange.url, issue: messageOf(error) })

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
    groupClient(group).pipe(
      Effect.flatMap(f),
      Effect.mapError((error) => serviceErrorOf(error, exchange, options.baseUrl)),
      Effect.provideService(ServiceExchange, exchange)
    )
  return { call }
}
