/**
 * The hosted services' HTTP API (spec 7.3 and 7.4, with our extensions), declared once with `effect/http-api`: the
 * server implements it (`server/`), the modal's clients are derived from it, and the server serves its OpenAPI
 * document at `/openapi.json`. Every route decodes its input with these Schemas and refuses unknown fields.
 */
import { HttpApi, OpenApi } from "effect/http-api"
import { BlockchainGroup } from "./blockchain"
import { AnalyticsGroup, CatalogueGroup, ImagesGroup } from "./catalogue"
import { ConvertGroup } from "./convert"
import { RequestErrors } from "./middleware"
import { NamesGroup } from "./names"
import { OnrampGroup } from "./onramp"
import { RpcProxyGroup } from "./rpcProxy"
import { SessionsGroup } from "./sessions"

/** The hosted services' API. */
export const ServicesApi = HttpApi.make("services")
  .add(CatalogueGroup, ImagesGroup, AnalyticsGroup)
  .add(BlockchainGroup, NamesGroup, SessionsGroup, RpcProxyGroup)
  .add(ConvertGroup, OnrampGroup)
  .middleware(RequestErrors)
  .annotate(HttpApi.PayloadParseOptions, { onExcessProperty: "error", errors: "all" })
  .annotate(HttpApi.QueryParseOptions, { onExcessProperty: "error", errors: "all" })
  .annotate(OpenApi.Title, "Wallet Runtime services")
  .annotate(
    OpenApi.Description,
    "The services Wallet Runtime's modal calls: wallet catalogue and images, analytics, blockchain data, names, sign-in sessions, the RPC proxy, swaps and on-ramp (declared; a server without their providers answers them with 501)."
  )
