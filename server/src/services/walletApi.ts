import { Schema } from "effect"
import {
  AnalyticsConfig,
  AnalyticsEvent,
  AnalyticsEventAccepted,
  GetWalletsQuery,
  GetWalletsResponse,
  ImagePath,
  ImageQuery,
  ProjectQuery
} from "../../../src/domain/Api"
import { type CatalogueWallet, queryCatalogue } from "./catalogue"
import { iconSvg, initials, nftSvg } from "./images"
import { HttpError, RawReply, route } from "../lib/router"

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

const EventsQuery = Schema.Struct({ projectId: Schema.optionalKey(Schema.String) })

const maxEvents = 10_000

const svg = (body: string) =>
  new RawReply("image/svg+xml", body, 200, { "cache-control": "public, max-age=86400" })

const currencySymbols: Readonly<Record<string, string>> = { USD: "$", EUR: "€", GBP: "£", JPY: "¥" }

/** The wallet-catalogue, image and analytics endpoints of spec 7.3, and the test-only event log. */
export const walletApiRoutes = (catalogue: ReadonlyArray<CatalogueWallet>) => {
  const events: Array<RecordedEvent> = []
  const byImageId = new Map(catalogue.map((wallet) => [wallet.entry.image_id, wallet.entry]))
  return [
    route({
      method: "GET",
      path: "/getWallets",
      auth: "project",
      query: GetWalletsQuery,
      response: GetWalletsResponse,
      handler: async ({ query }) => queryCatalogue(catalogue, query)
    }),
    route({
      method: "GET",
      path: "/getWalletImage/:id",
      auth: "optional",
      params: ImagePath,
      query: ImageQuery,
      handler: async ({ params }) => {
        const entry = byImageId.get(params.id)
        if (entry === undefined) throw new HttpError(404, `No wallet image with id ${params.id}`)
        return svg(iconSvg(entry.id, initials(entry.name)))
      }
    }),
    route({
      method: "GET",
      path: "/public/getAssetImage/:id",
      auth: "optional",
      params: ImagePath,
      query: ImageQuery,
      handler: async ({ params }) => {
        // Network logos, avatars (`avatar-{name}`) and NFT previews (`nft-{chain}-{contract}-{id}`) are all drawn from their id.
        const nft = /^nft-\d+-0x[0-9a-fA-F]{40}-(\d+)$/.exec(params.id)
        if (nft) return svg(nftSvg(params.id, `#${(nft[1] ?? "").slice(0, 6)}`))
        const avatar = /^avatar-(.+)$/.exec(params.id)
        const label = avatar ? initials(avatar[1] ?? "") : initials(params.id)
        return svg(iconSvg(params.id, label.slice(0, 4), avatar ? "circle" : "square"))
      }
    }),
    route({
      method: "GET",
      path: "/public/getCurrencyImage/:id",
      auth: "optional",
      params: ImagePath,
      query: ImageQuery,
      handler: async ({ params }) =>
        svg(iconSvg(params.id, currencySymbols[params.id.toUpperCase()] ?? params.id.slice(0, 3).toUpperCase(), "circle"))
    }),
    route({
      method: "GET",
      path: "/public/getTokenImage/:id",
      auth: "optional",
      params: ImagePath,
      query: ImageQuery,
      handler: async ({ params }) =>
        svg(iconSvg(params.id, params.id.startsWith("0x") ? params.id.slice(2, 4).toUpperCase() : params.id.slice(0, 4).toUpperCase(), "circle"))
    }),
    route({
      method: "GET",
      path: "/getAnalyticsConfig",
      auth: "project",
      query: ProjectQuery,
      response: AnalyticsConfig,
      handler: async ({ project }) => ({ isAnalyticsEnabled: project?.analyticsEnabled ?? false })
    }),
    route({
      method: "POST",
      path: "/e",
      auth: "project",
      query: ProjectQuery,
      body: AnalyticsEvent,
      response: AnalyticsEventAccepted,
      handler: async ({ body, project, origin }) => {
        if (events.length >= maxEvents) events.shift()
        events.push({ receivedAt: Date.now(), projectId: project?.projectId ?? "", origin: origin ?? null, event: body })
        return { accepted: true }
      }
    }),
    route({
      method: "GET",
      path: "/__events",
      auth: "none",
      query: EventsQuery,
      response: RecordedEvents,
      handler: async ({ query }) => ({
        events: query.projectId === undefined ? events : events.filter((e) => e.projectId === query.projectId)
      })
    }),
    route({
      method: "DELETE",
      path: "/__events",
      auth: "none",
      response: RecordedEvents,
      handler: async () => ({ events: events.splice(0, events.length) })
    })
  ]
}
