/**
 * The block explorer of the chains the services serve: plain server-rendered pages, so the explorer links the runtime
 * makes (the Send result, Activity rows, the NFT detail, the account's address) lead somewhere for chains without a
 * public explorer (the local stack's, offline). A host gives
 * a network `blockExplorers.default.url = {services}/explorer/{caip2}` (the demo does, from the stack config its page carries, `#devstack-config`);
 * under it are the usual explorer shapes the runtime builds (`src/domain/portfolioView.ts`, `accountFeatures.ts`):
 * `/tx/{hash}`, `/address/{address}` (and `/account/{address}`, Solana's word), `/nft/{contract}/{tokenId}`, and
 * `/token/{contract}`. Everything is read from the chains' RPC when asked. A path that is not what its place takes
 * is a 400 page, a network, transaction or token the chain does not have a 404 page, an RPC that fails a 502 page.
 */
import { Effect } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { isCaipNetworkId } from "../../../src/domain/Caip"
import { escapeHtml } from "../lib/html"
import { evmAddress, evmAddressPage, evmHash, evmNetworkRows, evmNftPage, evmTokenPage, evmTransactionPage } from "./explorerEvm"
import {
  badInput,
  EXPLORER_PATH,
  type ExplorerNetwork,
  explorerNetworks,
  explorerPage,
  explorerPath,
  fields,
  link,
  mono,
  notFound,
  rpcFailed,
  section
} from "./explorerHtml"
import { solanaAccountPage, solanaAddress, solanaNetworkRows, solanaSignature, solanaTransactionPage } from "./explorerSolana"
import type { ServicesState } from "./state"

/** Finds the network of the path, then builds its page; a chain that does not answer is a 502 page. */
const onNetwork =
  (state: ServicesState, build: (network: ExplorerNetwork) => Promise<HttpServerResponse.HttpServerResponse>) =>
  async (input: string): Promise<HttpServerResponse.HttpServerResponse> => {
    if (!isCaipNetworkId(input)) return badInput("a network id (CAIP-2, like eip155:31337)", input)
    const network = explorerNetworks(state).find((candidate) => candidate.caip2 === input)
    if (network === undefined) {
      return notFound("Network not found", `<p>This explorer shows this server's networks only; not</p><p>${mono(input)}</p>${networkList(state)}`)
    }
    try {
      return await build(network)
    } catch (error) {
      return rpcFailed(network, error)
    }
  }

const networkList = (state: ServicesState) =>
  section(
    "Networks",
    explorerNetworks(state).map((network) => `${link(explorerPath(network), escapeHtml(network.name))} ${mono(network.caip2)}`)
  )

const searchForm = (network: ExplorerNetwork) =>
  [
    `<form method="get" action="${escapeHtml(explorerPath(network, "search"))}" role="search">`,
    `<label for="q" class="muted">A transaction hash or an address</label>`,
    `<input id="q" name="q" autocomplete="off" spellcheck="false" required><button type="submit">Look up</button></form>`
  ].join("")

// Where a searched text leads: a hash or signature to its transaction, an address to its page.
const searchTarget = (network: ExplorerNetwork, text: string): string | undefined => {
  if (network.kind === "evm") {
    if (evmHash(text)) return explorerPath(network, "tx", text)
    const address = evmAddress(text)
    return address === undefined ? undefined : explorerPath(network, "address", address)
  }
  if (solanaSignature(text)) return explorerPath(network, "tx", text)
  return solanaAddress(text) ? explorerPath(network, "account", text) : undefined
}

type Page = (params: Readonly<Record<string, string>>, url: URL) => Promise<HttpServerResponse.HttpServerResponse>

// A page of the explorer at `path`: built from the path's (URL-decoded) parameters and the request's URL. The
// builders answer every failure with a page of their own, so a rejection here is a fault of ours.
const page = (path: `/${string}`, build: Page) =>
  HttpRouter.route(
    "GET",
    path,
    Effect.gen(function* () {
      const request = yield* HttpServerRequest.HttpServerRequest
      const params = yield* HttpRouter.params
      const present: Record<string, string> = {}
      for (const [key, value] of Object.entries(params)) if (value !== undefined) present[key] = value
      return yield* Effect.promise(() => build(present, new URL(request.url, "http://server")))
    })
  )

const param = (params: Readonly<Record<string, string>>, name: string) => params[name] ?? ""

const addressPage =
  (state: ServicesState): Page =>
  (params) =>
    onNetwork(state, (network) =>
      network.kind === "evm" ? evmAddressPage(network, param(params, "address")) : solanaAccountPage(network, param(params, "address"))
    )(param(params, "network"))

/** The explorer's pages on the services server, as routes (plain HTML pages, not part of the HTTP API). */
export const explorerRoutes = (state: ServicesState) => [
  page(EXPLORER_PATH, async () => explorerPage(200, "Explorer", networkList(state))),
  page(`${EXPLORER_PATH}/:network`, (params) =>
    onNetwork(state, async (network) => {
      const rows = network.kind === "evm" ? await evmNetworkRows(network.chain) : await solanaNetworkRows(network)
      return explorerPage(200, network.name, `${fields([["Network id", mono(network.caip2)], ...rows])}${searchForm(network)}`, network)
    })(param(params, "network"))
  ),
  page(`${EXPLORER_PATH}/:network/search`, (params, url) =>
    onNetwork(state, async (network) => {
      const text = (url.searchParams.get("q") ?? "").trim()
      const target = searchTarget(network, text)
      if (target === undefined) return badInput(`a transaction hash or an address on ${network.name}`, text, network)
      return HttpServerResponse.text(`See ${target}`, { status: 302, headers: { location: target } })
    })(param(params, "network"))
  ),
  page(`${EXPLORER_PATH}/:network/tx/:hash`, (params) =>
    onNetwork(state, (network) =>
      network.kind === "evm" ? evmTransactionPage(network, param(params, "hash")) : solanaTransactionPage(network, param(params, "hash"))
    )(param(params, "network"))
  ),
  page(`${EXPLORER_PATH}/:network/address/:address`, addressPage(state)),
  page(`${EXPLORER_PATH}/:network/account/:address`, addressPage(state)),
  page(`${EXPLORER_PATH}/:network/nft/:contract/:tokenId`, (params) =>
    onNetwork(state, async (network) =>
      network.kind === "evm"
        ? evmNftPage(state, network, param(params, "contract"), param(params, "tokenId"))
        : notFound("No NFTs here", `<p>This explorer shows the NFTs of its EVM chains only.</p>`, network)
    )(param(params, "network"))
  ),
  page(`${EXPLORER_PATH}/:network/token/:contract`, (params) =>
    onNetwork(state, async (network) =>
      network.kind === "evm"
        ? evmTokenPage(network, param(params, "contract"))
        : notFound("No token pages here", `<p>This explorer shows the tokens of its EVM chains only; SPL tokens are on their holders' pages.</p>`, network)
    )(param(params, "network"))
  )
]
