/**
 * The page every social provider sends the visitor back to, `GET /social/callback` on the frame origin. It uses
 * nothing up: it looks up the login its `state` started (to know the host page), then hands its own address to the
 * host page — by `postMessage` to the popup's opener at exactly the host's origin (the modal then closes the popup and
 * sends the address to the frame with CONNECT_SOCIAL), or, without an opener (the redirect fallback and the mini-app mode), by sending the
 * browser back to the host page with `?result_uri=<this address>`. A `state` this server did not start, or one used
 * or expired, gets a page saying so and nothing else.
 */
import { createHash } from "node:crypto"
import { Effect, Layer } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { escapeHtml, HTML_CONTENT_TYPE, htmlDocument, pageSecurityHeaders } from "../../lib/html"
import * as store from "./store"
import { tokenHash } from "./keys"
import { runQuery, WalletServerEnv } from "./WalletServerEnv"

/** The type of the message the callback page posts to the host page. */
export const SOCIAL_CALLBACK_MESSAGE = "wallet-runtime/social-callback"

// One script for every callback: what differs (the host's origin, the page to return to) is read from the JSON block,
// so the page's CSP can allow exactly this script by its hash.
const script = `(() => {
  const data = JSON.parse(document.getElementById("wr-social").textContent);
  const uri = location.href;
  if (window.opener !== null && !window.opener.closed) {
    window.opener.postMessage({ type: ${JSON.stringify(SOCIAL_CALLBACK_MESSAGE)}, uri }, data.hostOrigin);
    // The page that opened the popup closes it once it has the message: closing here could be seen before the message.
    document.getElementById("wr-social-status").textContent = "You are logged in: this window can be closed.";
  } else if (typeof data.returnTo === "string") {
    const back = new URL(data.returnTo);
    back.searchParams.set("result_uri", uri);
    location.replace(back.href);
  } else {
    document.getElementById("wr-social-status").textContent = "Go back to the page you were logging in on.";
  }
})();`

const scriptHash = `'sha256-${createHash("sha256").update(script).digest("base64")}'`

// Its one script only where the login goes on; never framed.
const headers = (withScript: boolean) =>
  pageSecurityHeaders({ script: withScript ? scriptHash : "'none'", style: "'unsafe-inline'", frameAncestors: "'none'" })

/** The host's dark theme (SYNC_THEME) for the wallet server's pages: the social callback, the device link's page. */
export const DARK_PAGE_CSS = "body{background:#141519;color:#e4e7e7}"

/**
 * The callback page for a login started from `hostOrigin`, going back to `returnTo` when there is no popup, in the
 * host's theme when the frame knew it.
 */
export const callbackPage = (hostOrigin: string, returnTo: string | null, themeMode: "light" | "dark" | null = null): string => {
  const data = JSON.stringify({ hostOrigin, returnTo }).replace(/</g, "\\u003c")
  return htmlDocument(
    "Logging in…",
    `<p id="wr-social-status" role="status">Finishing your login…</p><script type="application/json" id="wr-social">${data}</script><script>${script}</script>`,
    themeMode === "dark" ? { css: DARK_PAGE_CSS } : {}
  )
}

const refusedPage = htmlDocument(
  "This login cannot go on",
  `<p>${escapeHtml("The login was not started here, was finished already or has expired. Close this window and log in again.")}</p>`
)

/** `GET /social/callback`, beside the wallet server's API (it answers HTML to a browser, not JSON). */
export const socialCallbackLayer = Layer.unwrap(
  Effect.map(Effect.service(WalletServerEnv), (deps) =>
    HttpRouter.add(
      "GET",
      "/social/callback",
      Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest
    const state = new URL(request.url, "http://server").searchParams.get("state")
    const login = state === null || state === "" ? undefined : yield* runQuery(deps, store.pendingSocialLogin(tokenHash(state), new Date(deps.now())))
    if (login === undefined) return HttpServerResponse.text(refusedPage, { status: 400, contentType: HTML_CONTENT_TYPE, headers: headers(false) })
    return HttpServerResponse.text(callbackPage(login.host_origin, login.return_to, login.theme_mode), { contentType: HTML_CONTENT_TYPE, headers: headers(true) })
      })
    )
  )
)

/** The route as the server lists it (for its 405 answers). */
export const socialCallbackRoutes = [{ method: "GET", path: "/social/callback" }] as const
