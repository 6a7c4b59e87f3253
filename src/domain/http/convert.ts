/**
 * Swaps (spec 7.4's `/v1/convert/*`) as an HTTP API group: the tokens of a network, quotes, the router's allowance,
 * gas prices, and the swap and approve transactions to send. Declared whole so that clients and the OpenAPI document
 * know them; a server without a swap provider answers each with a 501 (`server/src/services/swaps/`).
 */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import {
  BuildApproveQuery,
  BuildSwapTransactionBody,
  GasPriceQuery,
  GasPriceResponse,
  ProjectQuery,
  SwapAllowanceQuery,
  SwapAllowanceResponse,
  SwapQuotesQuery,
  SwapQuotesResponse,
  SwapTokensQuery,
  SwapTokensResponse,
  SwapTransactionResponse
} from "../Api"
import { BadGateway, BadRequest, NotImplemented } from "./errors"
import { ProjectAuth } from "./middleware"

/**
 * What a swap endpoint fails with: 400 for a request the provider refuses in words ('Network not supported for
 * Swaps', a token not listed, an amount of 0, a swap the chain would refuse now), 502 when its market could not be
 * read, 501 on a server without a swap provider.
 */
const SwapErrors = [BadRequest, BadGateway, NotImplemented] as const

/** The swap endpoints. */
export const ConvertGroup = HttpApiGroup.make("convert")
  .add(
    HttpApiEndpoint.get("tokens", "/v1/convert/tokens", { query: SwapTokensQuery, success: SwapTokensResponse, error: SwapErrors }).annotate(
      OpenApi.Summary,
      "The tokens tradable on a network"
    )
  )
  .add(
    HttpApiEndpoint.get("quotes", "/v1/convert/quotes", { query: SwapQuotesQuery, success: SwapQuotesResponse, error: SwapErrors }).annotate(
      OpenApi.Summary,
      "Quotes for selling an amount of one token for another, best first"
    )
  )
  .add(
    HttpApiEndpoint.get("allowance", "/v1/convert/allowance", {
      query: SwapAllowanceQuery,
      success: SwapAllowanceResponse,
      error: SwapErrors
    }).annotate(OpenApi.Summary, "How much of a token the swap router may spend for the account")
  )
  .add(
    HttpApiEndpoint.get("gasPrice", "/v1/convert/gas-price", { query: GasPriceQuery, success: GasPriceResponse, error: SwapErrors }).annotate(
      OpenApi.Summary,
      "Gas prices for a standard, fast and instant inclusion"
    )
  )
  .add(
    HttpApiEndpoint.post("buildTransaction", "/v1/convert/build-transaction", {
      query: ProjectQuery,
      payload: BuildSwapTransactionBody,
      success: SwapTransactionResponse,
      error: SwapErrors
    }).annotate(OpenApi.Summary, "The transaction that makes the swap")
  )
  .add(
    HttpApiEndpoint.get("buildApprove", "/v1/convert/build-approve", {
      query: BuildApproveQuery,
      success: SwapTransactionResponse,
      error: SwapErrors
    }).annotate(OpenApi.Summary, "The transaction that lets the swap router spend the token sold")
  )
  .middleware(ProjectAuth)
