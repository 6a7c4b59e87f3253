/**
 * The pieces of the local explorer's pages (`explorer.ts`): the page shell with a small style sheet (a label above
 * its value on a phone, long hashes wrapping), fields, links between pages, and the refusal pages. Text from a
 * request or a chain is escaped here; values put into links are checked by the caller first.
 */
import { WELL_KNOWN_NETWORKS } from "../../../src/domain/networks"
import { HttpServerResponse } from "effect/http"
import { escapeHtml, HTML_CONTENT_TYPE, htmlDocument } from "../lib/html"
import type { EvmChainState, ServicesState, SolanaState } from "./state"

/** Where the services server serves the explorer: a network's explorer URL is `{services}/explorer/{caip2}`. */
export const EXPLORER_PATH = "/explorer"

/** A network the explorer shows: one of the stack's EVM chains or its Solana network. */
export type ExplorerNetwork =
  | { readonly kind: "evm"; readonly caip2: string; readonly name: string; readonly chain: EvmChainState }
  | { readonly kind: "solana"; readonly caip2: string; readonly name: string; readonly solana: SolanaState }

const nameOf = (caip2: string) => WELL_KNOWN_NETWORKS.find((network) => network.caipNetworkId === caip2)?.name ?? caip2

/** The networks of the running stack, EVM chains first. */
export const explorerNetworks = (state: ServicesState): ReadonlyArray<ExplorerNetwork> => [
  ...state.evm.map((chain): ExplorerNetwork => ({ kind: "evm", caip2: chain.caipNetworkId, name: chain.name ?? nameOf(chain.caipNetworkId), chain })),
  ...(state.solana === undefined
    ? []
    : [{ kind: "solana" as const, caip2: state.solana.caipNetworkId, name: state.solana.name ?? nameOf(state.solana.caipNetworkId), solana: state.solana }])
]

/** The path of a network's page, or of a page under it (`tx/{hash}`, `address/{address}`…). */
export const explorerPath = (network: { readonly caip2: string }, ...parts: ReadonlyArray<string>): string =>
  [EXPLORER_PATH, network.caip2, ...parts].join("/")

// A phone first: every field is its label above its value; from 40rem the labels stand in a column beside them.
const CSS = [
  "h1{font-size:1.4rem;margin:.5rem 0 1rem}h2{font-size:1.1rem;margin:1.5rem 0 .5rem}",
  "nav{font-size:.875rem;color:#57606a;overflow-wrap:anywhere}nav a{color:inherit}",
  "a{color:#0b57d0}dl{margin:0}dt{color:#57606a;font-size:.8125rem;margin-top:.75rem}dd{margin:0;overflow-wrap:anywhere}",
  "@media (min-width:40rem){dl{display:grid;grid-template-columns:9rem 1fr;gap:.5rem 1rem}dt{margin:0;font-size:inherit}}",
  ".mono{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.875rem;overflow-wrap:anywhere}",
  ".ok{color:#1a7f37;font-weight:600}.failed{color:#cf222e;font-weight:600}.pending{color:#9a6700;font-weight:600}",
  "ul.rows{list-style:none;padding:0;margin:0}ul.rows li{border-top:1px solid #d0d7de;padding:.5rem 0;overflow-wrap:anywhere}",
  ".muted{color:#57606a;font-size:.875rem}img{max-width:100%;height:auto;border-radius:8px}",
  "form{display:flex;flex-wrap:wrap;gap:.5rem;margin:1rem 0}form label{flex-basis:100%}input{flex:1 1 14rem;min-width:0;font:inherit;padding:.375rem .5rem}",
  "button{font:inherit;padding:.375rem .75rem}"
].join("")

// The pages run no script and load nothing but their own images; they are never framed, nor cached (a pending
// transaction's page changes when it is mined).
const HEADERS: Readonly<Record<string, string>> = {
  "content-security-policy":
    "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "cache-control": "no-store"
}

/** A page of the explorer: the way back to the explorer and the network over its title. */
export const explorerPage = (
  status: number,
  title: string,
  body: string,
  network?: { readonly caip2: string; readonly name: string }
): HttpServerResponse.HttpServerResponse => {
  const crumbs = [
    `<a href="${EXPLORER_PATH}">Explorer</a>`,
    ...(network === undefined ? [] : [`<a href="${escapeHtml(explorerPath(network))}">${escapeHtml(network.name)}</a>`])
  ]
  const page = htmlDocument(title, body, { css: CSS, nav: `<nav aria-label="Breadcrumb">${crumbs.join(" › ")}</nav>` })
  return HttpServerResponse.text(page, { status, contentType: HTML_CONTENT_TYPE, headers: HEADERS })
}

/** A list of labelled values; each value is HTML already. */
export const fields = (rows: ReadonlyArray<readonly [label: string, html: string]>): string =>
  `<dl>${rows.map(([label, html]) => `<dt>${escapeHtml(label)}</dt><dd>${html}</dd>`).join("")}</dl>`

/** Text in the page's monospace. */
export const mono = (text: string): string => `<span class="mono">${escapeHtml(text)}</span>`

/** A link to another page of the explorer. */
export const link = (path: string, html: string): string => `<a href="${escapeHtml(path)}">${html}</a>`

/** Text in bold: an amount. */
export const strong = (text: string): string => `<strong>${escapeHtml(text)}</strong>`

/** Text in grey: a detail. */
export const muted = (text: string): string => `<span class="muted">${escapeHtml(text)}</span>`

/** A titled list (each item HTML already); without items, `empty` in its place, or nothing when it has none. */
export const section = (title: string, items: ReadonlyArray<string>, empty?: string): string =>
  items.length === 0
    ? empty === undefined
      ? ""
      : `<h2>${escapeHtml(title)}</h2><p class="muted">${escapeHtml(empty)}</p>`
    : `<h2>${escapeHtml(title)}</h2><ul class="rows" aria-label="${escapeHtml(title)}">${items.map((item) => `<li>${item}</li>`).join("")}</ul>`

/** A hash or address shortened to its first 8 and last 6 characters, for lists (the page itself has it in full). */
export const short = (text: string): string => (text.length > 18 ? `${text.slice(0, 8)}…${text.slice(-6)}` : text)

/** A status word: Confirmed, Failed or Pending, coloured. */
export const statusWord = (status: "confirmed" | "failed" | "pending", detail = ""): string => {
  const word = { confirmed: "Confirmed", failed: "Failed", pending: "Pending" }[status]
  const css = status === "confirmed" ? "ok" : status
  return `<span class="${css}" data-status="${status}">${word}</span>${detail === "" ? "" : ` ${muted(detail)}`}`
}

/** A block time (seconds since the epoch) in UTC. */
export const utc = (seconds: number): string => `${new Date(seconds * 1000).toISOString().replace("T", " ").replace(/\.\d+Z$/, "")} UTC`

// What the page repeats of a refused input: enough to recognise it, never a whole request.
const shown = (input: string) => mono(input.length > 120 ? `${input.slice(0, 120)}…` : input)

/** 400: the path holds something that is not what that place of the path takes. */
export const badInput = (what: string, input: string, network?: ExplorerNetwork): HttpServerResponse.HttpServerResponse =>
  explorerPage(400, "Not understood", `<p>This is not ${escapeHtml(what)}:</p><p>${shown(input)}</p>`, network)

/** 404: well formed, but the network or the chain has no such thing. */
export const notFound = (title: string, html: string, network?: ExplorerNetwork): HttpServerResponse.HttpServerResponse =>
  explorerPage(404, title, html, network)

/** 502: the chain's RPC did not answer, or answered something the explorer cannot read. */
export const rpcFailed = (network: ExplorerNetwork, error: unknown): HttpServerResponse.HttpServerResponse =>
  explorerPage(
    502,
    "The chain did not answer",
    `<p>${escapeHtml(network.name)}'s RPC could not be read: ${escapeHtml(error instanceof Error ? error.message : String(error))}</p>`,
    network
  )
