/**
 * The local on-ramp page: a card-payment form on an origin of its own (no real payment is taken). The services'
 * local on-ramp provider (`server/src/services/onramp/local.ts`) sends visitors here with the order in the query
 * (address, network, asset, fiat and crypto amounts); confirming the form sends the crypto amount from the liquidity
 * account (the on-ramp's "treasury", funded at start) to the visitor's address on that local chain, and the services'
 * history shows it as an on-ramp deposit. `?decline=1`-style tricks are not offered: a card number of 12–19 digits,
 * an expiry and a CVC are all it checks.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { type Address, createWalletClient, encodeFunctionData, http, isAddress, parseUnits, publicActions } from "viem"
import type { Started } from "../../server/src/lib/Started"
import { erc20Abi } from "../evm/abis"
import { devChain } from "../evm/chains"
import type { EvmChain } from "../evm/index"
import { liquidityAccount } from "../evm/uniswap"

/** What the page exposes. */
export interface OnrampPageInfo {
  /** The page's URL (ends with `/`). */
  readonly url: string
}

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

const page = (title: string, body: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)} — Local On-ramp</title>
<style>
body{font:16px/1.4 system-ui,sans-serif;margin:0;background:#f4f5f7;color:#111}
main{max-width:420px;margin:24px auto;padding:24px;background:#fff;border-radius:16px;box-shadow:0 2px 12px #0002}
h1{font-size:22px;margin:0 0 8px}label{display:block;font-weight:600;margin:12px 0 4px}
input{width:100%;box-sizing:border-box;min-height:44px;padding:0 12px;border:1px solid #888;border-radius:8px;font:inherit}
button{margin-top:16px;width:100%;min-height:44px;border:0;border-radius:8px;background:#1f4fd6;color:#fff;font:inherit;font-weight:700}
.row{display:flex;gap:12px}.row>div{flex:1}dl{display:grid;grid-template-columns:auto 1fr;gap:4px 12px}dd{margin:0;text-align:right;font-weight:600}
.note{color:#555;font-size:14px}.error{color:#a00;font-weight:600}
</style></head><body><main>${body}</main></body></html>`

const send = (res: ServerResponse, status: number, html: string) =>
  res.writeHead(status, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" }).end(html)

const readBody = (req: IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    let text = ""
    req.setEncoding("utf8")
    req.on("data", (chunk: string) => {
      text += chunk
      if (text.length > 10_000) req.destroy(new Error("body too large"))
    })
    req.on("end", () => resolve(text))
    req.on("error", reject)
  })

interface Order {
  readonly address: Address
  readonly network: string
  readonly asset: string
  readonly crypto: string
  readonly fiat: string
}

/** Starts the page on 127.0.0.1 (port 0: one the OS chooses), delivering on `chains`. */
export const startOnrampPage = async (opts: { readonly chains: ReadonlyArray<EvmChain> }): Promise<Started<OnrampPageInfo>> => {
  const orderOf = (params: URLSearchParams): Order | string => {
    const address = params.get("address") ?? ""
    const network = params.get("network") ?? ""
    const asset = params.get("asset") ?? ""
    const crypto = params.get("crypto") ?? ""
    if (!isAddress(address)) return "The order names no wallet address to deliver to."
    if (!opts.chains.some((c) => c.caipNetworkId === network)) return `The network ${network} is not one this on-ramp delivers on.`
    if (!/^\d+(\.\d+)?$/.test(crypto) || Number(crypto) <= 0) return "The order names no amount to buy."
    return { address, network, asset, crypto, fiat: params.get("fiat") ?? "" }
  }
  const deliver = async (order: Order): Promise<string> => {
    const chain = opts.chains.find((c) => c.caipNetworkId === order.network)
    if (chain === undefined) throw new Error("unknown network")
    const wallet = createWalletClient({ account: liquidityAccount, chain: devChain(chain.chainId, chain.rpcUrl), transport: http(chain.rpcUrl) }).extend(publicActions)
    const token = chain.contracts.tokens.find((t) => t.symbol === order.asset)
    const hash =
      order.asset === "ETH"
        ? await wallet.sendTransaction({ to: order.address, value: parseUnits(order.crypto, 18) })
        : token === undefined
          ? undefined
          : await wallet.sendTransaction({
              to: token.address,
              data: encodeFunctionData({ abi: erc20Abi, functionName: "transfer", args: [order.address, parseUnits(order.crypto, token.decimals)] })
            })
    if (hash === undefined) throw new Error(`${order.asset} is not sold here`)
    const receipt = await wallet.waitForTransactionReceipt({ hash, pollingInterval: 50, timeout: 20_000 })
    if (receipt.status !== "success") throw new Error("the delivery reverted")
    return hash
  }
  const form = (order: Order, params: URLSearchParams, problem?: string) =>
    page(
      "Pay by card",
      `<h1>Buy ${escape(order.crypto)} ${escape(order.asset)}</h1>
<p class="note">Local On-ramp of the development stack: no payment is taken.</p>
<dl><dt>Deliver to</dt><dd>${escape(order.address.slice(0, 6))}…${escape(order.address.slice(-4))}</dd>
<dt>Network</dt><dd>${escape(order.network)}</dd>${order.fiat === "" ? "" : `<dt>You pay</dt><dd>${escape(order.fiat)}</dd>`}</dl>
${problem === undefined ? "" : `<p class="error" role="alert">${escape(problem)}</p>`}
<form method="post" action="./pay?${escape(params.toString())}">
<label for="name">Name on card</label><input id="name" name="name" autocomplete="cc-name" required>
<label for="card">Card number</label><input id="card" name="card" inputmode="numeric" autocomplete="cc-number" required>
<div class="row"><div><label for="expiry">Expiry (MM/YY)</label><input id="expiry" name="expiry" autocomplete="cc-exp" required></div>
<div><label for="cvc">CVC</label><input id="cvc" name="cvc" inputmode="numeric" autocomplete="cc-csc" required></div></div>
<button type="submit">Pay and receive ${escape(order.asset)}</button></form>`
    )
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://onramp")
    const order = orderOf(url.searchParams)
    if (req.method === "GET" && url.pathname === "/") {
      if (typeof order === "string") return send(res, 400, page("Order not understood", `<h1>Order not understood</h1><p>${escape(order)}</p>`))
      return send(res, 200, form(order, url.searchParams))
    }
    if (req.method === "POST" && url.pathname === "/pay") {
      if (typeof order === "string") return send(res, 400, page("Order not understood", `<h1>Order not understood</h1><p>${escape(order)}</p>`))
      void readBody(req)
        .then(async (text) => {
          const fields = new URLSearchParams(text)
          const card = (fields.get("card") ?? "").replace(/\s/g, "")
          if (!/^\d{12,19}$/.test(card) || !/^\d{2}\/\d{2}$/.test(fields.get("expiry") ?? "") || !/^\d{3,4}$/.test(fields.get("cvc") ?? "")) {
            return send(res, 400, form(order, url.searchParams, "Check the card number (12 to 19 digits), the expiry (MM/YY) and the CVC."))
          }
          const hash = await deliver(order)
          send(
            res,
            200,
            page(
              "Payment complete",
              `<h1>Payment complete</h1><p role="status">${escape(order.crypto)} ${escape(order.asset)} sent to your wallet.</p><p class="note">Transaction <code>${hash}</code>. You can close this window.</p>`
            )
          )
        })
        .catch((error: unknown) => send(res, 500, page("Delivery failed", `<h1>Delivery failed</h1><p>${escape(String(error))}</p>`)))
      return
    }
    send(res, 404, page("Not found", "<h1>Not found</h1>"))
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return {
    info: { url: `http://127.0.0.1:${port}/` },
    stop: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}
