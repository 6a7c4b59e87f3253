/**
 * The hosted services' HTTP API (spec 7.3 and 7.4, with our extensions), declared once with `effect/http-api`: the
 * server implements it (`server/`), the modal's clients are derived from it, and the server serves its OpenAPI
 * document at `/openapi.json`. Every route decodes its input with these Schemas and refuses unknown fields.
 */
import { HttpApi, OpenApi } from "effect/http-api"
import { AnalyticsGroup, CatalogueGroup, ImagesGroup } from "./catalogue"
import { RequestErrors } from "./middleware"

/** The hosted services' API. */
export const ServicesApi = HttpApi.make("services")
  .add(CatalogueGroup, ImagesGroup, AnalyticsGroup)
  .middleware(RequestErrors)
  .annotate(HttpApi.PayloadParseOptions, { onExcessProperty: "error", errors: "all" })
  .annotate(HttpApi.QueryParseOptions, { onExcessProperty: "error", errors: "all" })
  .annotate(OpenApi.Title, "Wallet Runtime services")
  .annotate(
    OpenApi.Description,
    "The services Wallet Runtime's modal calls: wallet catalogue and images, analytics, blockchain data, names, sign-in sessions and the RPC proxy."
  )
