/**
 * Calls to the hosted services (wallet catalogue, analytics, blockchain API) through the clients derived from their
 * one declaration (`servicesApiClient.ts`). That module brings effect/http-api and the declaration, so it is fetched
 * with `import()` on the first call (the catalogue when the modal opens, balances once connected) and kept for the
 * runtime's life: a page's first click carries neither. Each call — the client's first fetch included — has one time
 * bound, and carries no trace headers, so a simple GET needs no CORS preflight.
 */
import { Effect } from "effect"
import * as HttpClient from "effect/http/HttpClient"
import type {
  ServiceExchange,
  ServiceGroup,
  ServiceGroupId,
  ServicesClient,
  ServicesClientOptions
} from "./servicesApiClient"
import { SERVICE_REQUEST_TIMEOUT_MS, type ServiceError, ServiceUnreachable } from "./serviceHttp"

/** Calls to one hosted service. */
export interface ServiceCalls {
  /**
   * Calls endpoints of one group of the services' API; every failure is a ServiceError.
   *
   * @example
   * calls.call("catalogue", (catalogue) => catalogue.getWallets({ query: { page: 1 } }))
   */
  readonly call: <Id extends ServiceGroupId, A>(
    group: Id,
    f: (client: ServiceGroup<Id>) => Effect.Effect<A, unknown, ServiceExchange>
  ) => Effect.Effect<A, ServiceError>
}

/**
 * Calls to the service at `options.baseUrl`. The whole exchange of a call (headers and body) is bounded by
 * SERVICE_REQUEST_TIMEOUT_MS, so a service that stalls fails the call and the caller's fallback follows.
 */
export const makeServiceCalls = (options: ServicesClientOptions): ServiceCalls => {
  let loaded: ServicesClient | undefined
  // Only a client that loaded is kept: a page that could not fetch it (a network blip) tries again on the next call.
  const load = Effect.suspend(() =>
    loaded !== undefined
      ? Effect.succeed(loaded)
      : Effect.tryPromise({
        try: () => import("./servicesApiClient"),
        catch: (cause) => new ServiceUnreachable({ url: options.baseUrl, reason: `its client could not be loaded: ${String(cause)}` })
      }).pipe(Effect.map((module) => (loaded ??= module.makeServicesClient(options))))
  )

  const call: ServiceCalls["call"] = (group, f) =>
    Effect.suspend(() => {
      const exchange: ServiceExchange["Service"] = { url: undefined }
      return load.pipe(
        Effect.flatMap((client) => client.call(group, f, exchange)),
        Effect.timeoutOrElse({
          duration: SERVICE_REQUEST_TIMEOUT_MS,
          orElse: () =>
            Effect.fail(
              new ServiceUnreachable({ url: exchange.url ?? options.baseUrl, reason: `no answer in ${SERVICE_REQUEST_TIMEOUT_MS} ms` })
            )
        }),
        // Trace headers would turn every simple GET into a CORS preflight the hosted services need not allow.
        Effect.provideService(HttpClient.TracerPropagationEnabled, false)
      )
    })

  return { call }
}
