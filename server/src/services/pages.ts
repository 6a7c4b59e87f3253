/**
 * The services' own index page, for people: what the server is, the endpoints of the HTTP API as declared
 * (`src/domain/http`, each with its OpenAPI summary), the OpenAPI document, and the pages served beside the API. It
 * names no project unless told to (the local stack's are public; a host's are its own business).
 */
import { Context } from "effect"
import { HttpRouter, HttpServerResponse } from "effect/http"
import { OpenApi } from "effect/http-api"
import { ServicesApi } from "../../../src/domain/http/ServicesApi"
import { escapeHtml, HTML_CONTENT_TYPE, htmlDocument } from "../lib/html"

const apiEndpoints: ReadonlyArray<readonly [string, string]> = Object.values(ServicesApi.groups).flatMap((group) =>
  Object.values(group.endpoints).map(
    (endpoint) => [`${endpoint.method} ${endpoint.path}`, Context.getOrUndefined(endpoint.annotations, OpenApi.Summary) ?? ""] as const
  )
)

const table = (rows: ReadonlyArray<readonly [string, string]>) =>
  `<table>${rows.map(([path, what]) => `<tr><td><code>${escapeHtml(path)}</code></td><td>${escapeHtml(what)}</td></tr>`).join("")}</table>`

/** What the index page says beyond the API: the projectIds to use (when they may be shown), and the pages served beside the API. */
export interface IndexPage {
  readonly projectIds?: ReadonlyArray<string>
  /** Pages and helpers served beside the API: a path (and method) and what it is. */
  readonly others: ReadonlyArray<readonly [string, string]>
}

/** The index page at `/`. */
export const pageRoutes = (opts: IndexPage) => [
  HttpRouter.route(
    "GET",
    "/",
    HttpServerResponse.text(
      htmlDocument(
        "Wallet Runtime services",
        [
          "<p>The hosted services of Wallet Runtime's modal: the wallet catalogue, the blockchain API (balances, " +
            "history, NFTs, prices, names, sign-in sessions), the RPC proxy and the analytics sink. Every call names " +
            "one of this server's projects (<code>projectId</code>) and comes from an origin the project allows.</p>",
          opts.projectIds === undefined ? "" : `<p>ProjectIds: ${opts.projectIds.map((id) => `<code>${escapeHtml(id)}</code>`).join(", ")}</p>`,
          `<h2>The HTTP API</h2><p>Described by <a href="/openapi.json"><code>/openapi.json</code></a> (OpenAPI 3.1).</p>`,
          table(apiEndpoints),
          opts.others.length === 0 ? "" : `<h2>Pages</h2>${table(opts.others)}`
        ].join("")
      ),
      { contentType: HTML_CONTENT_TYPE }
    )
  )
]
