/**
 * The catalogue, image and analytics groups of the services' HTTP API (`src/domain/http/catalogue.ts`): a page of the
 * wallet catalogue, the generated SVG images, the project's analytics setting, and the analytics sink, which keeps
 * every event in the database (table `analytics_events`).
 */
import { Context, Effect, Schema } from "effect"
import { HttpServerRequest, HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { SqlClient } from "effect/sql"
import { AnalyticsEvent } from "../../../src/domain/Api"
import { NotFound } from "../../../src/domain/http/errors"
import { CurrentProject } from "../../../src/domain/http/middleware"
import { ServicesApi } from "../../../src/domain/http/ServicesApi"
import type { Database } from "../db/index"
import { type CatalogueWallet, queryCatalogue } from "./catalogue"
import { iconSvg, initials, nftSvg } from "./images"

/** The wallet catalogue a server serves. */
export class Catalogue extends Context.Service<Catalogue, ReadonlyArray<CatalogueWallet>>()("wallet-runtime-server/Catalogue") {}

/** The services' database (names, sessions, analytics, the embedded wallet's users). */
export class ServicesDatabase extends Context.Service<ServicesDatabase, Database>()("wallet-runtime-server/ServicesDatabase") {}

/** Runs a query on the services' database; a database failure is a defect (the API answers it with a 503). */
export const query = <A, E>(db: Database, effect: Effect.Effect<A, E, SqlClient.SqlClient>) =>
  Effect.promise(() => db.run(effect))

const svg = (body: string) =>
  HttpServerResponse.text(body, { contentType: "image/svg+xml", headers: { "cache-control": "public, max-age=86400" } })

const currencySymbols: Readonly<Record<string, string>> = { USD: "$", EUR: "€", GBP: "£", JPY: "¥" }

/** `GET /getWallets`. */
export const CatalogueGroupLive = HttpApiBuilder.group(ServicesApi, "catalogue", (handlers) =>
  Effect.map(Effect.service(Catalogue), (catalogue) =>
    handlers.handle("getWallets", ({ query: q }) => Effect.succeed(queryCatalogue(catalogue, q)))
  )
)

/** The image endpoints: drawn from their id (wallet icons by the catalogue's `image_id`). */
export const ImagesGroupLive = HttpApiBuilder.group(ServicesApi, "images", (handlers) =>
  Effect.gen(function* () {
    const catalogue = yield* Catalogue
    const byImageId = new Map(catalogue.map((wallet) => [wallet.entry.image_id, wallet.entry]))
    return handlers
      .handle("walletImage", ({ params }) => {
        const entry = byImageId.get(params.id)
        return entry === undefined
          ? Effect.fail(new NotFound({ error: `No wallet image with id ${params.id}` }))
          : Effect.succeed(svg(iconSvg(entry.id, initials(entry.name))))
      })
      .handle("assetImage", ({ params }) => {
        // Network logos, avatars (`avatar-{name}`) and NFT previews (`nft-{chain}-{contract}-{id}`) are all drawn from their id.
        const nft = /^nft-\d+-0x[0-9a-fA-F]{40}-(\d+)$/.exec(params.id)
        if (nft) return Effect.succeed(svg(nftSvg(params.id, `#${(nft[1] ?? "").slice(0, 6)}`)))
        const avatar = /^avatar-(.+)$/.exec(params.id)
        const label = avatar ? initials(avatar[1] ?? "") : initials(params.id)
        return Effect.succeed(svg(iconSvg(params.id, label.slice(0, 4), avatar ? "circle" : "square")))
      })
      .handle("currencyImage", ({ params }) =>
        Effect.succeed(svg(iconSvg(params.id, currencySymbols[params.id.toUpperCase()] ?? params.id.slice(0, 3).toUpperCase(), "circle")))
      )
      .handle("tokenImage", ({ params }) =>
        Effect.succeed(
          svg(iconSvg(params.id, params.id.startsWith("0x") ? params.id.slice(2, 4).toUpperCase() : params.id.slice(0, 4).toUpperCase(), "circle"))
        )
      )
  })
)

const encodeEvent = Schema.encodeSync(AnalyticsEvent)

/** `GET /getAnalyticsConfig` and `POST /e`. */
export const AnalyticsGroupLive = HttpApiBuilder.group(ServicesApi, "analytics", (handlers) =>
  Effect.map(Effect.service(ServicesDatabase), (db) =>
  handlers
    .handle("config", () => Effect.map(Effect.service(CurrentProject), (project) => ({ isAnalyticsEnabled: project?.analyticsEnabled ?? false })))
    .handle("event", ({ payload }) =>
      Effect.gen(function* () {
        const project = yield* CurrentProject
        const request = yield* HttpServerRequest.HttpServerRequest
        const event = JSON.stringify(encodeEvent(payload))
        yield* query(
          db,
          Effect.flatMap(Effect.service(SqlClient.SqlClient), (sql) =>
            sql`INSERT INTO analytics_events (project_id, origin, event, received_at)
                VALUES (${project?.projectId ?? ""}, ${request.headers["origin"] ?? null}, ${event}::jsonb, now())`
          )
        )
        return { accepted: true }
      })
    )
  )
)
