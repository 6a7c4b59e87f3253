/**
 * Calls to the hosted services (blockchain API, names, sessions, swaps, on-ramp) through the clients derived from their one declaration
 * (`servicesApiClient.ts`). That module brings effect/http-api and the declaration, so it is fetched with `import()` on
 * the first call (balances once connected, names, sessions, swaps) and kept for the runtime's life: a page's first
 * click carries neither. What the modal asks when it first opens does not come this way: the catalogue's pages
 * (`catalogueWallets.ts`) and analytics' config and events (`analyticsCalls.ts`), so the first open fetches neither
 * http-api nor the declaration. Each call — the client's first fetch included — is one `boundedCall` (`lazyCalls`):
 * one time bound, no trace headers.
 */
import { Effect } from "effect"
import type { ServiceExchange, ServicesClientOptions } from "./boundedServiceClient"
import type { ServiceGroup, ServiceGroupId } from "./servicesApiClient"
import { lazyCalls, type ServiceError } from "./serviceHttp"

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
  const on = lazyCalls(options.baseUrl, () => import("./servicesApiClient").then((module) => module.makeServicesClient(options)))
  const call: ServiceCalls["call"] = (group, f) => on((client, exchange) => client.call(group, f, exchange))
  return { call }
}
