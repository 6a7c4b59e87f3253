/**
 * Analytics' two requests (spec 7.3), `GET /getAnalyticsConfig` and `POST /e`, made without effect/http-api from the
 * declaration's own parts: their paths (`GET_ANALYTICS_CONFIG_PATH`, `POST_ANALYTICS_EVENT_PATH`), the query encoded by
 * `ProjectQuery`, the event by `AnalyticsEvent`, and the answers decoded from JSON by `AnalyticsConfig` and
 * `AnalyticsEventAccepted`, through the bounded client every service answer goes through (`declaredCall`). The modal's
 * first open records MODAL_OPEN, so with analytics on both are asked then: through the derived client they cost that
 * open two more waves of chunks before the config's request (http-api's client, then the group's declaration: ~13 KiB
 * gz) and their heap. `Analytics.ts` fetches this module on its first event, which also gives each event its id and
 * the page it was on here, out of the core; `test/unit/services/analyticsCalls.test.ts` holds both requests to what
 * HttpApiClient derives.
 */
import { Effect, Random, Schema } from "effect"
import * as HttpClientRequest from "effect/http/HttpClientRequest"
import {
  AnalyticsConfig,
  AnalyticsEvent,
  AnalyticsEventAccepted,
  type AnalyticsEventProps,
  GET_ANALYTICS_CONFIG_PATH,
  POST_ANALYTICS_EVENT_PATH
} from "../domain/ApiCatalogue"
import { ProjectQuery } from "../domain/ApiShared"
import { declaredCall, type ServicesClientOptions } from "./boundedServiceClient"
import type { Exchange, ServiceError } from "./serviceHttp"

// As HttpApiClient does: the query encoded to the strings of a URL, the event by its Schema, then as JSON text.
const encodeQuery = Schema.encodeEffect(ProjectQuery)
const encodeEvent = Schema.encodeEffect(AnalyticsEvent)

// A v4 UUID from the Random service: `crypto.randomUUID` exists only in secure contexts, and Random is testable.
const uuid = Effect.gen(function* () {
  const bytes: Array<number> = []
  for (let i = 0; i < 16; i++) bytes.push(yield* Random.nextIntBetween(0, 255))
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80
  const hex = bytes.map((b) => b.toString(16).padStart(2, "0")).join("")
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
})

const domainOf = (href: string | undefined): string => {
  if (href === undefined) return ""
  // `URL` is the platform's parser; a page address that does not parse has no domain to report.
  try {
    return new URL(href).hostname
  } catch {
    return ""
  }
}

/** An event as it was when it happened (its data and time); its id and the page it was on are added as it is sent. */
export interface HappenedEvent {
  readonly props: AnalyticsEventProps
  /** Milliseconds since the epoch. */
  readonly timestamp: number
}

/** Analytics' requests to one service; each runs within the caller's `boundedCall` (its `exchange`). */
export interface AnalyticsCalls {
  /** `GET /getAnalyticsConfig`: whether the project takes events. */
  readonly config: (query: ProjectQuery, exchange: Exchange) => Effect.Effect<AnalyticsConfig, ServiceError>
  /** `POST /e`: one event, with a new id and the page's address. */
  readonly event: (query: ProjectQuery, happened: HappenedEvent, exchange: Exchange) => Effect.Effect<unknown, ServiceError>
}

/** Analytics' requests to the service at `options.baseUrl`, for events on the page at `href`. */
export const makeAnalyticsCalls = (options: ServicesClientOptions, href: string | undefined): AnalyticsCalls => {
  const askConfig = declaredCall(options, AnalyticsConfig)
  const askEvent = declaredCall(options, AnalyticsEventAccepted)
  const page = { url: href ?? "", domain: domainOf(href) }
  return {
    config: (query, exchange) =>
      askConfig(Effect.map(encodeQuery(query), (urlParams) => HttpClientRequest.get(GET_ANALYTICS_CONFIG_PATH, { urlParams })), exchange),
    event: (query, happened, exchange) =>
      askEvent(
        Effect.gen(function* () {
          const event: AnalyticsEvent = { eventId: yield* uuid, ...page, timestamp: happened.timestamp, props: happened.props }
          const request = HttpClientRequest.post(POST_ANALYTICS_EVENT_PATH, { urlParams: yield* encodeQuery(query) })
          return yield* HttpClientRequest.bodyJson(request, yield* encodeEvent(event))
        }),
        exchange
      )
  }
}
