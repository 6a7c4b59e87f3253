/**
 * Swaps (spec 7.4's `/v1/convert/*`) as an HTTP API group: the tokens of a network, quotes, the router's allowance,
 * gas prices, and the swap and approve transactions to send. Declared whole so that clients and the OpenAPI document
 * know them; a server without a swap provider answers each with a 501.
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
import { NotImplemented } from "./errors"
import { ProjectAuth } from "./middleware"

/** The swap endpoints. */
export const ConvertGroup = HttpApiGroup.make("convert")
  .add(
    HttpApiEndpoint.get("tokens", "/v1/convert/tokens", { query: SwapTokensQuery, success: SwapTokensResponse, error: NotImplemented }).annotate(
      OpenApi.Summary,
      "The tokens tradable on a network"
    )
  )
  .add(
    HttpApiEndpoint.get("quotes", "/v1/convert/quotes", { query: SwapQuotesQuery, success: SwapQuotesResponse, error: NotImplemented }).annotate(
      OpenApi.Summary,
      "Quotes for selling an amount of one token for another, best first"
    )
  )
  .add(
    HttpApiEndpoint.get("allowance", "/v1/convert/allowance", {
      query: SwapAllowanceQuery,
      success: SwapAllowanceResponse,
      error: NotImplemented
    }).annotate(OpenApi.Summary, "How much of a token the swap router may spend for the account")
  )
  .add(
    HttpApiEndpoint.get("gasPrice", "/v1/convert/gas-price", { query: GasPriceQuery, success: GasPriceResponse, error: NotImplemented }).annotate(
      OpenApi.Summary,
      "Gas prices for a standard, fast and instant inclusion"
    )
  )
  .add(
    HttpApiEndpoint.post("buildTransaction", "/v1/convert/build-transaction", {
      query: ProjectQuery,
      payload: BuildSwapTransactionBody,
      success: SwapTransactionResponse,
      error: NotImplemented
    }).annotate(OpenApi.Summary, "The transaction that makes the swap")
  )
  .add(
    HttpApiEndpoint.get("buildApprove", "/v1/convert/build-approve", {
      query: BuildApproveQuery,
      success: SwapTransactionResponse,
      error: NotImplemented
    }).annotate(OpenApi.Summary, "The transaction that lets the swap router spend the token sold")
  )
  .middleware(ProjectAuth)
