/**
 * The local stack's block explorer: plain server-rendered pages of its own chains, so the explorer links the runtime
 * makes (the Send result, Activity rows, the NFT detail, the account's address) lead somewhere offline. A host gives
 * a network `blockExplorers.default.url = {services}/explorer/{caip2}` (the demo does, from `window.__DEVSTACK__`);
 * under it are the usual explorer shapes the runtime builds (`src/domain/portfolioView.ts`, `accountFeatures.ts`):
 * `/tx/{hash}`, `/address/{address}` (and `/account/{address}`, Solana's word), `/nft/{contract}/{tokenId}`, and
 * `/token/{contract}`. Everything is read from the chains' RPC when asked. A path that is not what its place takes
 * is a 400 page, a network, transaction or token the chain does not have a 404 page, an RPC that fails a 502 page.
 */
import { Schema } from "effect"
import { isCaipNetworkId } from "../../../src/domain/Caip"
import { escapeHtml } from "../lib/html"
import { RawReply, route } from "../lib/router"
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

const NetworkPath = Schema.Struct({ network: Schema.String })
const TxPath = Schema.Struct({ network: Schema.String, hash: Schema.String })
const AddressPath = Schema.Struct({ network: Schema.String, address: Schema.String })
const NftPath = Schema.Struct({ network: Schema.String, contract: Schema.String, tokenId: Schema.String })
const TokenPath = Schema.Struct({ network: Schema.String, contract: Schema.String })

/** Finds the network of the path, then builds its page; a chain that does not answer is a 502 page. */
const onNetwork =
  (state: ServicesState, build: (network: ExplorerNetwork) => Promise<RawReply>) =>
  async (input: string): Promise<RawReply> => {
    if (!isCaipNetworkId(input)) return badInput("a network id (CAIP-2, like eip155:31337)", input)
    const network = explorerNetworks(state).find((candidate) => candidate.caip2 === input)
    if (network === undefined) {
      return notFound("Network not found", `<p>This explorer shows the local stack's networks only; not</p><p>${mono(input)}</p>${networkList(state)}`)
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

const addressPage = (state: ServicesState) => (ctx: { readonly params: typeof AddressPath.Type }) =>
  onNetwork(state, (network) =>
    network.kind === "evm" ? evmAddressPage(network, ctx.params.address) : solanaAccountPage(network, ctx.params.address)
  )(ctx.params.network)

/** The explorer's routes on the services server. */
export const explorerRoutes = (state: ServicesState) => [
  route({
    method: "GET",
    path: EXPLORER_PATH,
    auth: "none",
    handler: async () => explorerPage(200, "Local explorer", networkList(state))
  }),
  route({
    method: "GET",
    path: `${EXPLORER_PATH}/:network`,
    auth: "none",
    params: NetworkPath,
    handler: (ctx) =>
      onNetwork(state, async (network) => {
        const rows = network.kind === "evm" ? await evmNetworkRows(network.chain) : await solanaNetworkRows(network)
        return explorerPage(200, network.name, `${fields([["Network id", mono(network.caip2)], ...rows])}${searchForm(network)}`, network)
      })(ctx.params.network)
  }),
  route({
    method: "GET",
    path: `${EXPLORER_PATH}/:network/search`,
    auth: "none",
    params: NetworkPath,
    handler: (ctx) =>
      onNetwork(state, async (network) => {
        const text = (ctx.url.searchParams.get("q") ?? "").trim()
        const target = searchTarget(network, text)
        if (target === undefined) return badInput(`a transaction hash or an address on ${network.name}`, text, network)
        return new RawReply("text/plain; charset=utf-8", `See ${target}`, 302, { location: target })
      })(ctx.params.network)
  }),
  route({
    method: "GET",
    path: `${EXPLORER_PATH}/:network/tx/:hash`,
    auth: "none",
    params: TxPath,
    handler: (ctx) =>
      onNetwork(state, (network) =>
        network.kind === "evm" ? evmTransactionPage(network, ctx.params.hash) : solanaTransactionPage(network, ctx.params.hash)
      )(ctx.params.network)
  }),
  route({ method: "GET", path: `${EXPLORER_PATH}/:network/address/:address`, auth: "none", params: AddressPath, handler: addressPage(state) }),
  route({ method: "GET", path: `${EXPLORER_PATH}/:network/account/:address`, auth: "none", params: AddressPath, handler: addressPage(state) }),
  route({
    method: "GET",
    path: `${EXPLORER_PATH}/:network/nft/:contract/:tokenId`,
    auth: "none",
    params: NftPath,
    handler: (ctx) =>
      onNetwork(state, async (network) =>
        network.kind === "evm"
          ? evmNftPage(state, network, ctx.params.contract, ctx.params.tokenId)
          : notFound("No NFTs here", `<p>This explorer shows the NFTs of its EVM chains only.</p>`, network)
      )(ctx.params.network)
  }),
  route({
    method: "GET",
    path: `${EXPLORER_PATH}/:network/token/:contract`,
    auth: "none",
    params: TokenPath,
    handler: (ctx) =>
      onNetwork(state, async (network) =>
        network.kind === "evm"
          ? evmTokenPage(network, ctx.params.contract)
          : notFound("No token pages here", `<p>This explorer shows the tokens of its EVM chains only; SPL tokens are on their holders' pages.</p>`, network)
      )(ctx.params.network)
  })
]
