import { escapeHtml, htmlPage } from "../lib/html"
import { route } from "../lib/router"

const endpoints: ReadonlyArray<readonly [string, string]> = [
  ["GET /getWallets?projectId=…&page=&entries=&search=&include=&exclude=&chains=&badge_type=", "wallet catalogue"],
  ["GET /getWalletImage/{id}, /public/getAssetImage/{id}, /public/getCurrencyImage/{id}, /public/getTokenImage/{id}", "SVG images"],
  ["GET /getAnalyticsConfig, POST /e", "analytics (read back with GET /__events, clear with DELETE /__events)"],
  ["GET /v1/supported-chains", "networks of this stack"],
  ["GET /v1/identity/{address}", "name and avatar"],
  ["GET /v1/profile/account/{name}", "a name's record (404 when free); names are label.wallet.test"],
  ["GET /v1/profile/reverse/{address}", "the names of an address, its own name first"],
  ["GET /v1/profile/suggestions/{name}?zone=wallet.test", "the name asked (taken or not) and free variants"],
  ["POST /v1/profile/account", "register a name: {coin_type, address, message, signature}, checked on the chain (EOA, ERC-1271, ERC-6492)"],
  ["GET /v1/account/{address}/balance?currency=usd&chainId=", "balances read from the chains"],
  ["GET /v1/account/{address}/history?chainId=&cursor=", "history indexed from the chains' blocks"],
  ["GET /v1/account/{address}/nfts?chainId=&cursor=", "NFTs held now, from the indexed ERC-721 transfers (our extension)"],
  ["POST /v1/fungible/price", "prices"],
  ["POST /v1/sessions/{caipAddress}/nonce", "a single-use nonce for the next sign-in message, 10 minutes (our extension)"],
  ["POST /v1/sessions/{caipAddress}", "keep a signed sign-in message as a session, once checked (our extension)"],
  ["GET /v1/sessions/{caipAddress}", "the account's live sign-in sessions"],
  ["POST /v1/sessions/{caipAddress}/revoke", "revoke a session: pci and its signature"],
  ["GET|POST /v1/?chainId=…&projectId=…", "JSON-RPC proxy to the local chains"],
  [
    "GET /explorer/{caip2}/tx/{hash}, /address/{address} (/account/ on Solana), /nft/{contract}/{tokenId}, /token/{contract}",
    "the local block explorer: HTML pages read from the chains (GET /explorer lists the networks)"
  ],
  ["GET /test-wallet/ (also /test-wallet/wc?uri=wc:…)", "the test wallet page: a WalletConnect wallet with the dev accounts"]
]

/** The services' own index page. */
export const pageRoutes = (opts: { readonly projectIds: ReadonlyArray<string> }) => [
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
  })
]
