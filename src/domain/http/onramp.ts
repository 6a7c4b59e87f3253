/**
 * Buying crypto (spec 7.4's on-ramp endpoints) as an HTTP API group: the provider's page for a purchase, what can be
 * paid with and bought, and a quote. Declared whole so that clients and the OpenAPI document know them; a server
 * without an on-ramp provider answers each with a 501.
 */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { OnrampOptions, OnrampQuote, OnrampQuoteBody, OnrampUrlBody, OnrampUrlResponse, ProjectQuery } from "../Api"
import { BadRequest, NotImplemented } from "./errors"
import { ProjectAuth } from "./middleware"

/** The on-ramp endpoints. */
export const OnrampGroup = HttpApiGroup.make("onramp")
  .add(
    HttpApiEndpoint.post("url", "/v1/generators/onrampurl", {
      query: ProjectQuery,
      payload: OnrampUrlBody,
      success: OnrampUrlResponse,
      error: [BadRequest, NotImplemented]
    }).annotate(OpenApi.Summary, "The on-ramp provider's page for buying to the wallets given")
  )
  .add(
    HttpApiEndpoint.get("options", "/v1/onramp/options", { query: ProjectQuery, success: OnrampOptions, error: [BadRequest, NotImplemented] }).annotate(
      OpenApi.Summary,
      "The currencies that can be paid with and bought, and the provider's fee range"
    )
  )
  .add(
    HttpApiEndpoint.post("quote", "/v1/onramp/quote", {
      query: ProjectQuery,
      payload: OnrampQuoteBody,
      success: OnrampQuote,
      error: [BadRequest, NotImplemented]
    }).annotate(OpenApi.Summary, "What a purchase costs in all, fees included")
  )
  .middleware(ProjectAuth)
