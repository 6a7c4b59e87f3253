/**
 * Calls to the hosted services (analytics, blockchain API) through the clients derived from their one declaration
 * (`servicesApiClient.ts`). That module brings effect/http-api and the declaration, so it is fetched with `import()` on
 * the first call (balances once connected, analytics when the host turns it on) and kept for the runtime's life: a
 * page's first click carries neither. The catalogue's pages, asked when the modal first opens, do not come this way
 * (`catalogueWallets.ts`): the first open's critical path then has one chunk fewer and ~0.3 MiB less heap. Each call —
 * the client's first fetch included — is one `boundedCall`: one time bound, no trace headers.
 */
import { Effect } from "effect"
import type { ServiceExchange, ServicesClientOptions } from "./boundedServiceClient"
import type { ServiceGroup, ServiceGroupId, ServicesClient } from "./servicesApiClient"
import { boundedCall, type ServiceError, ServiceUnreachable } from "./serviceHttp"

/** Calls to one hosted service. */
export interface ServiceCalls {
  /**
   * Calls endpoints of one group of the services' API; every failure is a ServiceError.
   *
   * @example
   * calls.call("analytics", (analytics) => analytics.config({ query: { projectId: "p1" } }))
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
    boundedCall(options.baseUrl, (exchange) => load.pipe(Effect.flatMap((client) => client.call(group, f, exchange))))

  return { call }
}
