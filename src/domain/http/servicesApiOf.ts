/**
 * The hosted services' API made of some of its groups, with the API's own middleware and annotations: `ServicesApi`
 * is this of every group, and a client that calls one group builds only that group's declaration (each group is a
 * module of its own), so a page pays for the declarations of the groups it calls, not for all of them.
 */
import { HttpApi, type HttpApiGroup, OpenApi } from "effect/http-api"
import { RequestErrors } from "./middleware"

/** The services' API of `groups`, refusing unknown query and body fields, behind `RequestErrors`. */
export const servicesApiOf = <const Groups extends readonly [HttpApiGroup.Constraint, ...Array<HttpApiGroup.Constraint>]>(...groups: Groups) =>
  HttpApi.make("services")
    .add(...groups)
    .middleware(RequestErrors)
    .annotate(HttpApi.PayloadParseOptions, { onExcessProperty: "error", errors: "all" })
    .annotate(HttpApi.QueryParseOptions, { onExcessProperty: "error", errors: "all" })
    .annotate(OpenApi.Title, "Wallet Runtime services")
    .annotate(
      OpenApi.Description,
      "The services Wallet Runtime's modal calls: wallet catalogue and images, analytics, blockchain data, names, sign-in sessions, the RPC proxy, swaps and on-ramp (declared; a server without their providers answers them with 501)."
    )
