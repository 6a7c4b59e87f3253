/**
 * The catalogue's `GET /getWallets` (its pages, searches and featured wallets), made without effect/http-api from the
 * declaration's own parts: its path (`GET_WALLETS_PATH`), its query encoded by `GetWalletsQuery` and its answer decoded
 * from JSON by `GetWalletsResponse`, through the bounded client every service answer goes through. The derived client
 * would cost the modal's first open, whose first request this is, one more chunk fetched in series (http-api's client)
 * and ~0.3 MiB more heap; `test/unit/services/catalogueWallets.test.ts` holds this call to the URL HttpApiClient derives.
 */
import { Effect, Schema } from "effect"
import { GET_WALLETS_PATH, GetWalletsQuery, GetWalletsResponse } from "../domain/ApiCatalogue"
import { boundedClient, type ServicesClientOptions, withinExchange } from "./boundedServiceClient"
import { boundedCall, ServiceAnswerInvalid, type ServiceError } from "./serviceHttp"

// As HttpApiClient does: the query encoded to the strings of a URL, the answer's JSON decoded by the endpoint's Schema.
const encodeQuery = Schema.encodeEffect(GetWalletsQuery)
const decodeAnswer = Schema.decodeUnknownEffect(Schema.fromJsonString(Schema.toCodecJson(GetWalletsResponse)))

/** The catalogue's pages at `options.baseUrl`: the entries for a query, or why they could not be had. */
export const makeGetWallets = (options: ServicesClientOptions) => {
  const client = boundedClient(options)
  return (query: GetWalletsQuery): Effect.Effect<GetWalletsResponse, ServiceError> =>
    boundedCall(options.baseUrl, (exchange) =>
      withinExchange(
        Effect.gen(function* () {
          const response = yield* client.get(GET_WALLETS_PATH, { urlParams: yield* encodeQuery(query) })
          // The declaration's only answer is a 200; another 2xx is not it (the derived client refuses it too).
          if (response.status !== 200) {
            return yield* new ServiceAnswerInvalid({ url: response.request.url, issue: `undeclared status code ${response.status}` })
          }
          return yield* decodeAnswer(yield* response.text)
        }),
        exchange,
        options.baseUrl
      )
    )
}
