/**
 * Serves the test wallet page at `/test-wallet/` (and `/test-wallet/wc`, where WalletConnect deep links land) from
 * the services server: the built HTML with the page's config written into it, and its hashed assets.
 */
import { readFile } from "node:fs/promises"
import { join } from "node:path"
import { Effect } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { escapeHtml, HTML_CONTENT_TYPE, htmlDocument } from "../../../server/src/lib/html"
import { devSolanaKey } from "../../solana/keys"
import type { PageBuild, PageBuilder } from "./build"
import { configScriptTag, type PageAccount, type PageConfig } from "./config"
import { localNetworkName } from "../../evm/chains"
import { localSolana } from "../../../src/domain/networks"

/** What the services server knows of the running stack; the page's config is made from it. */
export interface PageStack {
  /** The WalletConnect relay, or null when the stack runs without it. */
  readonly relayUrl: string | null
  readonly projectId: string
  /** anvil's dev accounts. */
  readonly accounts: ReadonlyArray<PageAccount>
  readonly chains: ReadonlyArray<{ readonly chainId: number; readonly caipNetworkId: string; readonly rpcUrl: string }>
  /** The Solana part, when it runs. */
  readonly solana?: { readonly caipNetworkId: string; readonly rpcUrl: string } | undefined
}

// The dev keys the Solana part funds when started with its defaults.
const SOLANA_DEV_KEYS = 3

/** The page's config for `stack`: networks named as the product names them ("Local Chain A", "Local Solana"), and the Solana dev keys. */
export const pageConfigOf = (stack: PageStack): PageConfig => ({
  relayUrl: stack.relayUrl,
  projectId: stack.projectId,
  accounts: stack.accounts,
  chains: stack.chains.map((chain) => ({
    chainId: chain.chainId,
    caipNetworkId: chain.caipNetworkId,
    name: localNetworkName(chain.chainId),
    rpcUrl: chain.rpcUrl
  })),
  solana:
    stack.solana === undefined
      ? null
      : {
          caipNetworkId: stack.solana.caipNetworkId,
          name: localSolana.name,
          rpcUrl: stack.solana.rpcUrl,
          accounts: Array.from({ length: SOLANA_DEV_KEYS }, (_, index) => {
            const key = devSolanaKey(index)
            return { index, address: key.address, secretKey: key.secretKey }
          })
        }
})

const contentTypes: Readonly<Record<string, string>> = {
  js: "text/javascript; charset=utf-8",
  css: "text/css; charset=utf-8",
  svg: "image/svg+xml",
  png: "image/png",
  woff2: "font/woff2",
  map: "application/json; charset=utf-8"
}

// The page's own origin plus the loopback services it talks to; nothing else may load or be reached.
const contentSecurityPolicy = (config: PageConfig): string => {
  const connect = [
    "'self'",
    ...(config.relayUrl === null ? [] : [config.relayUrl]),
    ...config.chains.map((chain) => chain.rpcUrl),
    ...(config.solana === null ? [] : [config.solana.rpcUrl])
  ]
  return [
    "default-src 'self'",
    // The Polkadot keyring's sr25519 and ed25519 are WebAssembly, compiled from bytes in the bundle.
    "script-src 'self' 'wasm-unsafe-eval'",
    `connect-src ${connect.join(" ")}`,
    "img-src 'self' data:",
    "frame-src 'none'",
    "object-src 'none'",
    "base-uri 'none'"
  ].join("; ")
}

/**
 * The routes of the test wallet page, as a layer of the services' router. Each visit serves the build of the page's
 * sources as they are then (built on the first visit after a change: a reload shows an edit). `stack` is read per
 * request.
 */
export const testWalletRoutes = (builder: PageBuilder, stack: () => PageStack) => {
  // Per build, not per hash: a version built again (after its folder was replaced) is read again.
  const html = new WeakMap<PageBuild, Promise<string>>()
  const pageHandler = async (url: URL): Promise<HttpServerResponse.HttpServerResponse> => {
    try {
      const page = builder.latest()
      let source = html.get(page)
      if (source === undefined) {
        source = page.ready.then(() => readFile(join(page.dir, "index.html"), "utf8"))
        html.set(page, source)
      }
      const text = await source
      const current = pageConfigOf(stack())
      const uri = url.searchParams.get("uri")
      // A deep link's URI is in the field from the start (the script then pairs with it), so it is seen even without script.
      const withUri = uri === null ? text : text.replace('id="uri"', `id="uri" value="${escapeHtml(uri)}"`)
      return HttpServerResponse.text(withUri.replace("</head>", `${configScriptTag(current)}</head>`), {
        contentType: HTML_CONTENT_TYPE,
        headers: { "cache-control": "no-store", "content-security-policy": contentSecurityPolicy(current) }
      })
    } catch (error) {
      // The reason is shown instead of a blank page.
      const body = htmlDocument(
        "Devstack test wallet",
        `<p>The test wallet page could not be built:</p><pre>${escapeHtml(error instanceof Error ? error.message : String(error))}</pre><p>Build it alone with <code>npx tsx devstack/wallet/page/build.ts</code> to see more.</p>`
      )
      return HttpServerResponse.text(body, { status: 500, contentType: HTML_CONTENT_TYPE })
    }
  }
  const noAsset = (file: string) => HttpServerResponse.jsonUnsafe({ error: `No test wallet asset ${file}` }, { status: 404 })
  const assetHandler = async (file: string): Promise<HttpServerResponse.HttpServerResponse> => {
    // Path parameters arrive URL-decoded: only plain file names may reach the file system.
    const extension = /^[\w.-]+\.(\w+)$/.exec(file)?.[1]
    const type = extension === undefined || file.includes("..") ? undefined : contentTypes[extension]
    if (type === undefined) return noAsset(file)
    const page = builder.latest()
    try {
      await page.ready
      const body = await readFile(join(page.dir, "assets", file))
      // File names carry a content hash: they never change.
      return HttpServerResponse.uint8Array(body, { contentType: type, headers: { "cache-control": "public, max-age=31536000, immutable" } })
    } catch {
      return noAsset(file)
    }
  }
  const servePage = Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
    Effect.promise(() => pageHandler(new URL(request.url, "http://server")))
  )
  return HttpRouter.addAll([
    HttpRouter.route("GET", "/test-wallet/", servePage),
    HttpRouter.route("GET", "/test-wallet/wc", servePage),
    HttpRouter.route(
      "GET",
      "/test-wallet/assets/:file",
      Effect.flatMap(HttpRouter.params, (params) => Effect.promise(() => assetHandler(params["file"] ?? "")))
    )
  ])
}
