import { RawReply, route } from "./router"

const escapeHtml = (text: string) =>
  text.replace(/[<>&"]/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;" })[c] ?? c)

/** A minimal HTML page in the devstack's style. */
export const htmlPage = (title: string, body: string): RawReply =>
  new RawReply(
    "text/html; charset=utf-8",
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title><style>body{font:15px/1.5 system-ui,sans-serif;max-width:52rem;margin:2rem auto;padding:0 1rem;color:#1b1f24}code{background:#f1f3f5;padding:0 .25rem;border-radius:4px;word-break:break-all}table{border-collapse:collapse}td,th{padding:.25rem .75rem .25rem 0;text-align:left;vertical-align:top}</style></head><body><h1>${escapeHtml(title)}</h1>${body}</body></html>`
  )

export { escapeHtml }

const endpoints: ReadonlyArray<readonly [string, string]> = [
  ["GET /getWallets?projectId=…&page=&entries=&search=&include=&exclude=&chains=&badge_type=", "wallet catalogue"],
  ["GET /getWalletImage/{id}, /public/getAssetImage/{id}, /public/getCurrencyImage/{id}, /public/getTokenImage/{id}", "SVG images"],
  ["GET /getAnalyticsConfig, POST /e", "analytics (read back with GET /__events, clear with DELETE /__events)"],
  ["GET /v1/supported-chains", "networks of this stack"],
  ["GET /v1/identity/{address}", "name and avatar"],
  ["GET /v1/account/{address}/balance?currency=usd&chainId=", "balances read from the chains"],
  ["GET /v1/account/{address}/history?chainId=&cursor=", "history indexed from the chains' blocks"],
  ["POST /v1/fungible/price", "prices"],
  ["GET|POST /v1/?chainId=…&projectId=…", "JSON-RPC proxy to the local chains"]
]

/** The services' own index page, and a stand-in for the test wallet page until `devstack/wallet/` serves it. */
export const pageRoutes = (opts: { readonly projectIds: ReadonlyArray<string>; readonly servesTestWallet: boolean }) => [
  route({
    method: "GET",
    path: "/",
    auth: "none",
    handler: async () =>
      htmlPage(
        "Devstack services",
        `<p>Dev projectIds: ${opts.projectIds.map((id) => `<code>${escapeHtml(id)}</code>`).join(", ")}</p><table>${endpoints
          .map(([path, what]) => `<tr><td><code>${escapeHtml(path)}</code></td><td>${escapeHtml(what)}</td></tr>`)
          .join("")}</table>`
      )
  }),
  ...(opts.servesTestWallet
    ? ["/test-wallet/", "/test-wallet/wc"].map((path) =>
        route({
          method: "GET",
          path,
          auth: "none",
          handler: async ({ url }) => {
            const uri = url.searchParams.get("uri")
            return htmlPage(
              "Devstack test wallet",
              `<p>The test wallet page is not part of this stack yet.</p>${
                uri === null ? "" : `<p>Pairing URI received:</p><p><code>${escapeHtml(uri)}</code></p>`
              }`
            )
          }
        })
      )
    : [])
]
