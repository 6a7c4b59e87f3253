/**
 * The services' HTTP API as the server serves it: every declared group with its handlers and middlewares, and
 * the OpenAPI document at `/openapi.json` (derived from the same declaration as the modal's clients).
 */
import { Effect, Layer, Schema } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { SqlClient } from "effect/sql"
import { AnalyticsEvent } from "../../../src/domain/Api"
import { ServicesApi } from "../../../src/domain/http/ServicesApi"
import { namePayloadErrorsLayer, OptionalProjectAuthLive, ProjectAuthLive, requestErrorsLayer } from "../http/middleware"
import type { Database } from "../db/index"
import { BlockchainGroupLive } from "./blockchain"
import { AnalyticsGroupLive, CatalogueGroupLive, ImagesGroupLive, query } from "./catalogueApi"
import { NamesGroupLive } from "./namesApi"
import { RpcProxyGroupLive } from "./rpcProxy"
import { SessionsGroupLive } from "./sessions"
import { OnrampGroupLive } from "./onramp/onrampApi"
import { ConvertGroupLive } from "./swaps/convertApi"

/** How long a route may take to answer before it is a 503. */
export const ROUTE_TIMEOUT_MS = 30_000


const groups = Layer.mergeAll(
  CatalogueGroupLive,
  ImagesGroupLive,
  AnalyticsGroupLive,
  BlockchainGroupLive,
  NamesGroupLive,
  SessionsGroupLive,
  RpcProxyGroupLive,
  ConvertGroupLive,
  OnrampGroupLive
)

/** {@link servicesApiLayer} with each route given `routeTimeoutMs` to answer. */
export const servicesApiLayerWith = (routeTimeoutMs: number) =>
  HttpApiBuilder.layer(ServicesApi, { openapiPath: "/openapi.json" }).pipe(
    Layer.provide(
      groups.pipe(
        Layer.provide(
          Layer.mergeAll(ProjectAuthLive, OptionalProjectAuthLive, namePayloadErrorsLayer, requestErrorsLayer({ timeout: routeTimeoutMs }))
        )
      )
    )
  )

/**
 * The declared API on the app's router, with `/openapi.json`. Needs the `Projects`, `Catalogue`, `ServicesDatabase`,
 * `ServicesContext` and `SwapProvider` (and the `OnrampProvider` when the server has one).
 */
export const servicesApiLayer = servicesApiLayerWith(ROUTE_TIMEOUT_MS)

/** An analytics event as the services recorded it, for tests to read back from `GET /__events`. */
export const RecordedEvent = Schema.Struct({
  receivedAt: Schema.Number,
  projectId: Schema.String,
  origin: Schema.NullOr(Schema.String),
  event: AnalyticsEvent
})
/** An analytics event as recorded. */
export type RecordedEvent = typeof RecordedEvent.Type

/** Answer of `GET /__events`. */
export const RecordedEvents = Schema.Struct({ events: Schema.Array(RecordedEvent) })

const Row = Schema.Struct({
  received_at: Schema.Union([Schema.Date, Schema.DateTimeUtcFromString]),
  project_id: Schema.String,
  origin: Schema.NullOr(Schema.String),
  event: Schema.Unknown
})

const readEvents = (db: Database, projectId: string | null, clear: boolean) =>
  query(
    db,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const rows =
        projectId === null
          ? yield* sql`SELECT received_at, project_id, origin, event FROM analytics_events ORDER BY id`
          : yield* sql`SELECT received_at, project_id, origin, event FROM analytics_events WHERE project_id = ${projectId} ORDER BY id`
      if (clear) yield* sql`DELETE FROM analytics_events`
      return rows
    })
  ).pipe(
    Effect.map((rows) =>
      rows.map((row) => {
        const decoded = Schema.decodeUnknownSync(Row)(row)
        const at = decoded.received_at
        return {
          receivedAt: at instanceof Date ? at.getTime() : at.epochMilliseconds,
          projectId: decoded.project_id,
          origin: decoded.origin,
          event: Schema.decodeUnknownSync(AnalyticsEvent)(typeof decoded.event === "string" ? JSON.parse(decoded.event) : decoded.event)
        }
      })
    ),
    Effect.map((events) => HttpServerResponse.jsonUnsafe(Schema.encodeSync(RecordedEvents)({ events })))
  )

/** `GET /__events` (`?projectId=`) and `DELETE /__events`: the analytics events received, for the local stack's tests. */
export const recordedEventsRoutes = (db: Database) =>
  Layer.mergeAll(
    HttpRouter.add("GET", "/__events", (request: HttpServerRequest.HttpServerRequest) =>
      readEvents(db, new URL(request.url, "http://server").searchParams.get("projectId"), false)
    ),
    HttpRouter.add("DELETE", "/__events", readEvents(db, null, true))
  )
