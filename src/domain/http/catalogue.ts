/**
 * The wallet catalogue, its images and the analytics sink (spec 7.3), as HTTP API groups. The catalogue and
 * analytics need a project; the images are used as `<img src>`, so a projectId is checked only when given.
 */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import {
  AnalyticsConfig,
  AnalyticsEvent,
  AnalyticsEventAccepted,
  GET_ANALYTICS_CONFIG_PATH,
  GET_WALLETS_PATH,
  GetWalletsQuery,
  GetWalletsResponse,
  ImagePath,
  ImageQuery,
  POST_ANALYTICS_EVENT_PATH
} from "../ApiCatalogue"
import { ProjectQuery } from "../ApiShared"
import { NotFound } from "./errors"
import { OptionalProjectAuth, ProjectAuth } from "./middleware"

/** An SVG image (the catalogue's generated wallet, asset, currency and token images). */
export const SvgImage = Schema.String.pipe(HttpApiSchema.asText({ contentType: "image/svg+xml" }))

/** `GET /getWallets`: a page of the wallet catalogue, filtered and searched. */
export const CatalogueGroup = HttpApiGroup.make("catalogue")
  .add(
    HttpApiEndpoint.get("getWallets", GET_WALLETS_PATH, { query: GetWalletsQuery, success: GetWalletsResponse }).annotate(
      OpenApi.Summary,
      "A page of the wallet catalogue (40 by default, at most 100), filtered by ids, networks and badge, and searched by name"
    )
  )
  .middleware(ProjectAuth)

const image = <const Name extends string, const Path extends `/${string}`>(name: Name, path: Path, summary: string) =>
  HttpApiEndpoint.get(name, path, { params: ImagePath, query: ImageQuery, success: SvgImage, error: NotFound }).annotate(
    OpenApi.Summary,
    summary
  )

/** The image endpoints: a wallet's icon by its `image_id`, network and NFT images, currency and token icons. */
export const ImagesGroup = HttpApiGroup.make("images")
  .add(image("walletImage", "/getWalletImage/:id", "A wallet's icon, by the catalogue entry's image_id"))
  .add(image("assetImage", "/public/getAssetImage/:id", "A network logo, an avatar (avatar-{name}) or an NFT preview (nft-{chain}-{contract}-{id})"))
  .add(image("currencyImage", "/public/getCurrencyImage/:id", "A fiat currency's icon"))
  .add(image("tokenImage", "/public/getTokenImage/:id", "A token's icon, by symbol or contract address"))
  .middleware(OptionalProjectAuth)

/** `GET /getAnalyticsConfig` (whether the project takes events) and `POST /e` (one event). */
export const AnalyticsGroup = HttpApiGroup.make("analytics")
  .add(
    HttpApiEndpoint.get("config", GET_ANALYTICS_CONFIG_PATH, { query: ProjectQuery, success: AnalyticsConfig }).annotate(
      OpenApi.Summary,
      "Whether the project takes analytics events"
    )
  )
  .add(
    HttpApiEndpoint.post("event", POST_ANALYTICS_EVENT_PATH, { query: ProjectQuery, payload: AnalyticsEvent, success: AnalyticsEventAccepted }).annotate(
      OpenApi.Summary,
      "One analytics event, kept for the project"
    )
  )
  .middleware(ProjectAuth)
