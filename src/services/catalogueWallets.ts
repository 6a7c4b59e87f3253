/**
 * The catalogue's `GET /getWallets` (its pages, searches and featured wallets), made without effect/http-api from the
 * declaration's own parts: its path (`GET_WALLETS_PATH`), its query encoded by `GetWalletsQuery` and its answer decoded
 * from JSON by `GetWalletsResponse`, through the bounded client every service answer goes through (`declaredCall`).
 * The derived client would cost the modal's first open, whose first request this is, one more chunk fetched in series
 * (http-api's client) and ~0.3 MiB more heap; `test/unit/services/catalogueWallets.test.ts` holds this call to the
 * URL HttpApiClient derives.
 */
import { Effect, Schema } from "effect"
import * as HttpClientRequest from "effect/http/HttpClientRequest"
import { GET_WALLETS_PATH, GetWalletsQuery, GetWalletsResponse } from "../domain/ApiCatalogue"
import { declaredCall, type ServicesClientOptions } from "./boundedServiceClient"
import { boundedCall, type ServiceError } from "./serviceHttp"

// As HttpApiClient does: the query encoded to the strings of a URL.
const encodeQuery = Schema.encodeEffect(GetWalletsQuery)

/** The catalogue's pages at `options.baseUrl`: the entries for a query, or why they could not be had. */
export const makeGetWallets = (options: ServicesClientOptions) => {
  const ask = declaredCall(options, GetWalletsResponse)
  return (query: GetWalletsQuery): Effect.Effect<GetWalletsResponse, ServiceError> =>
    boundedCall(options.baseUrl, (exchange) =>
      ask(Effect.map(encodeQuery(query), (urlParams) => HttpClientRequest.get(GET_WALLETS_PATH, { urlParams })), exchange)
    )
}
