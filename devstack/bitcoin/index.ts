/**
 * The devstack's Bitcoin part: the in-process regtest node of `Chain.ts` behind an HTTP API in the shape of
 * Esplora's (the API of mempool.space and blockstream.info, so the runtime's bip122 adapter reads mainnet and the
 * local stack with the same code), plus a few `/regtest/…` routes for tests (mine, fund). At start it funds the dev
 * keys (`keys.ts`). Blocks are mined every `blockIntervalMs` while transactions wait (and on demand). See README.md.
 */
import type { IncomingMessage, ServerResponse } from "node:http"
import { Address, OutScript } from "@scure/btc-signer"
import { listenHttp } from "../../server/src/lib/httpServer"
import type { Started } from "../../server/src/lib/Started"
import { Chain, MIN_RELAY_FEE_RATE, type OutputRecord, TransactionRejected } from "./Chain"
import { type BitcoinDevKey, devBitcoinKey, REGTEST, REGTEST_CAIP_NETWORK_ID, REGTEST_GENESIS_HASH } from "./keys"

export { REGTEST, REGTEST_CAIP_NETWORK_ID, REGTEST_GENESIS_HASH, REGTEST_WALLET_CHAIN, devBitcoinKey, type BitcoinDevKey } from "./keys"
export { Chain, TransactionRejected } from "./Chain"

/** Options of the regtest node. */
export interface BitcoinOptions {
  /** HTTP port; absent or 0 takes a free one from the OS. */
  readonly port?: number
  /** How many dev key sets to fund at start (default 3). */
  readonly fundedKeys?: number
  /**
   * A block is mined this often while the mempool holds transactions (default 2000 ms); 0 mines only on demand
   * (`POST /regtest/mine`, `chain.mine()`).
   */
  readonly blockIntervalMs?: number
}

/** What a running regtest node exposes. */
export interface BitcoinInfo {
  /** The Esplora-style API base (`{url}/address/{address}/utxo`, `POST {url}/tx`…). */
  readonly url: string
  /** `bip122:0f9188f13cb7b2c71f2a335e3a4fc328`: regtest's genesis hash prefix, the same on every run. */
  readonly caipNetworkId: string
  /** The dev key sets funded at start: each payment address holds 2 × 50 BTC, each ordinals address 0.001 BTC. */
  readonly funded: ReadonlyArray<BitcoinDevKey>
  /** The node itself, for tests in the same process. */
  readonly chain: Chain
}

/** What each funded payment address gets at start, in two outputs (so a wallet can spend twice before a block). */
export const FUNDED_PAYMENT_OUTPUT_SATS = 50n * 100_000_000n
/** What each funded ordinals address gets at start. */
export const FUNDED_ORDINALS_SATS = 100_000n

const MAX_BODY_BYTES = 1_000_000
const MAX_BLOCKS_PER_CALL = 100

const CORS_HEADERS = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "GET, POST, OPTIONS",
  "access-control-allow-headers": "*",
  "access-control-max-age": "86400"
}

class HttpFailure extends Error {
  constructor(
    readonly status: number,
    message: string
  ) {
    super(message)
  }
}

const addressCoder = Address(REGTEST)

const scriptOfAddress = (address: string): Uint8Array => {
  try {
    return OutScript.encode(addressCoder.decode(address))
  } catch (error) {
    throw new HttpFailure(400, `Invalid Bitcoin address ${address} for regtest: ${error instanceof Error ? error.message : String(error)}`)
  }
}

const addressOfScript = (script: Uint8Array): string | undefined => {
  try {
    return addressCoder.encode(OutScript.decode(script))
  } catch {
    return undefined
  }
}

const readBody = (request: IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    const chunks: Array<Buffer> = []
    let size = 0
    request.on("data", (chunk: Buffer) => {
      size += chunk.length
      if (size > MAX_BODY_BYTES) {
        reject(new HttpFailure(413, `Request body over ${MAX_BODY_BYTES} bytes`))
        request.destroy()
      } else chunks.push(chunk)
    })
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")))
    request.on("error", reject)
  })

const statusOf = (chain: Chain, txid: string) => {
  const block = chain.transaction(txid)?.block
  return block === undefined
    ? { confirmed: false }
    : { confirmed: true, block_height: block.height, block_hash: block.hash, block_time: block.time }
}

const sum = (outputs: ReadonlyArray<OutputRecord>): number => Number(outputs.reduce((total, output) => total + output.amount, 0n))

/**
 * Esplora's address stats: `chain_stats` counts what blocks fund and spend, `mempool_stats` what waiting
 * transactions fund and spend; the balance is funded minus spent over both.
 */
const addressStats = (chain: Chain, address: string) => {
  const outputs = chain.outputsOf(address)
  const inBlock = (txid: string | undefined) => txid !== undefined && chain.transaction(txid)?.block !== undefined
  const part = (funded: ReadonlyArray<OutputRecord>, spent: ReadonlyArray<OutputRecord>) => ({
    funded_txo_count: funded.length,
    funded_txo_sum: sum(funded),
    spent_txo_count: spent.length,
    spent_txo_sum: sum(spent),
    tx_count: new Set([...funded.map((output) => output.txid), ...spent.map((output) => output.spentBy)]).size
  })
  const spent = outputs.filter((output) => output.spentBy !== undefined)
  return {
    address,
    chain_stats: part(
      outputs.filter((output) => inBlock(output.txid)),
      spent.filter((output) => inBlock(output.spentBy))
    ),
    mempool_stats: part(
      outputs.filter((output) => !inBlock(output.txid)),
      spent.filter((output) => !inBlock(output.spentBy))
    )
  }
}

const numberParam = (value: unknown, fallback: number): number => {
  if (value === undefined) return fallback
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 1 || value > MAX_BLOCKS_PER_CALL) {
    throw new HttpFailure(400, `blocks must be a whole number from 1 to ${MAX_BLOCKS_PER_CALL}`)
  }
  return value
}

const parseJson = (text: string): Record<string, unknown> => {
  if (text.trim() === "") return {}
  try {
    const value: unknown = JSON.parse(text)
    if (typeof value === "object" && value !== null && !Array.isArray(value)) return value as Record<string, unknown>
  } catch {
    // Falls through to the error below.
  }
  throw new HttpFailure(400, "The body must be a JSON object")
}

/** The answer to one request: a JSON value, or text (Esplora answers txids, heights and errors as text). */
type Reply = { readonly json: unknown } | { readonly text: string; readonly status?: number }

const route = async (chain: Chain, request: IncomingMessage, url: URL, info: () => Omit<BitcoinInfo, "chain">): Promise<Reply> => {
  const method = request.method ?? "GET"
  const parts = url.pathname.split("/").filter((part) => part !== "")
  const [first, second, third] = parts
  if (method === "GET") {
    if (parts.length === 0) {
      return { text: "Wallet Runtime devstack: a regtest node with an Esplora-style API. See devstack/bitcoin/README.md.\n" }
    }
    if (first === "blocks" && second === "tip" && third === "height" && parts.length === 3) return { text: String(chain.height) }
    if (first === "blocks" && second === "tip" && third === "hash" && parts.length === 3) return { text: chain.tipHash }
    if (first === "block-height" && second !== undefined && parts.length === 2) {
      const block = /^\d+$/.test(second) ? chain.block(Number(second)) : undefined
      if (block === undefined) throw new HttpFailure(404, "Block not found")
      return { text: block.hash }
    }
    if (first === "fee-estimates" && parts.length === 1) {
      // A quiet regtest: the next block at 2 sat/vB, later ones at the relay minimum.
      return { json: { "1": 2, "2": 2, "3": 1.5, "6": MIN_RELAY_FEE_RATE, "144": MIN_RELAY_FEE_RATE } }
    }
    if (first === "address" && second !== undefined) {
      scriptOfAddress(second)
      if (parts.length === 2) return { json: addressStats(chain, second) }
      if (third === "utxo" && parts.length === 3) {
        return {
          json: chain.unspentOf(second).map((output) => ({
            txid: output.txid,
            vout: output.vout,
            value: Number(output.amount),
            status: statusOf(chain, output.txid)
          }))
        }
      }
    }
    if (first === "tx" && second !== undefined && /^[0-9a-f]{64}$/.test(second)) {
      const record = chain.transaction(second)
      if (record === undefined) throw new HttpFailure(404, "Transaction not found")
      if (parts.length === 3 && third === "status") return { json: statusOf(chain, second) }
      if (parts.length === 3 && third === "hex") return { text: record.hex }
      if (parts.length === 2) {
        return { json: { txid: record.txid, fee: Number(record.fee), weight: record.vsize * 4, status: statusOf(chain, second) } }
      }
    }
    if (first === "regtest" && second === "info" && parts.length === 2) {
      const { url: base, caipNetworkId, funded } = info()
      return { json: { url: base, caipNetworkId, genesisHash: REGTEST_GENESIS_HASH, height: chain.height, mempool: chain.mempoolTxids, funded } }
    }
  }
  if (method === "POST") {
    if (first === "tx" && parts.length === 1) {
      const body = await readBody(request)
      try {
        return { text: chain.submit(body) }
      } catch (error) {
        if (error instanceof TransactionRejected) {
          // Esplora's words for a node's refusal: the bitcoind RPC error, as text.
          throw new HttpFailure(400, `sendrawtransaction RPC error: ${JSON.stringify({ code: error.code, message: error.message })}`)
        }
        throw error
      }
    }
    if (first === "regtest" && second === "mine" && parts.length === 2) {
      const body = parseJson(await readBody(request))
      const blocks = chain.mine(numberParam(body["blocks"], 1))
      return { json: { height: chain.height, blocks: blocks.map((block) => ({ height: block.height, hash: block.hash, txids: block.txids })) } }
    }
    if (first === "regtest" && second === "faucet" && parts.length === 2) {
      const body = parseJson(await readBody(request))
      const address = body["address"]
      const amount = body["amount"]
      if (typeof address !== "string") throw new HttpFailure(400, "address must be a regtest address")
      if (typeof amount !== "string" || !/^[1-9][0-9]{0,15}$/.test(amount)) throw new HttpFailure(400, "amount must be satoshis as decimal text")
      const txid = chain.fund([{ script: scriptOfAddress(address), amount: BigInt(amount) }])
      return { json: { txid, height: chain.height } }
    }
  }
  throw new HttpFailure(404, `No route ${method} ${url.pathname}`)
}

/** Starts the regtest node on 127.0.0.1 and funds the dev keys. */
export const startBitcoin = async (options: BitcoinOptions = {}): Promise<Started<BitcoinInfo>> => {
  const chain = new Chain(REGTEST_GENESIS_HASH, addressOfScript)
  const funded = Array.from({ length: options.fundedKeys ?? 3 }, (_, index) => devBitcoinKey(index))
  if (funded.length > 0) {
    chain.fund(
      funded.flatMap((key) => [
        { script: scriptOfAddress(key.paymentAddress), amount: FUNDED_PAYMENT_OUTPUT_SATS },
        { script: scriptOfAddress(key.paymentAddress), amount: FUNDED_PAYMENT_OUTPUT_SATS },
        { script: scriptOfAddress(key.ordinalsAddress), amount: FUNDED_ORDINALS_SATS }
      ])
    )
  }
  const server = await listenHttp(options.port ?? 0)
  const info = { url: server.url, caipNetworkId: REGTEST_CAIP_NETWORK_ID, funded }
  server.handle((request: IncomingMessage, response: ServerResponse) => {
    if (request.method === "OPTIONS") {
      response.writeHead(204, CORS_HEADERS).end()
      return
    }
    const url = new URL(request.url ?? "/", server.url)
    route(chain, request, url, () => info).then(
      (reply) => {
        if (response.headersSent) return
        if ("json" in reply) response.writeHead(200, { ...CORS_HEADERS, "content-type": "application/json" }).end(JSON.stringify(reply.json))
        else response.writeHead(reply.status ?? 200, { ...CORS_HEADERS, "content-type": "text/plain; charset=utf-8" }).end(reply.text)
      },
      (error: unknown) => {
        if (response.headersSent) return
        const status = error instanceof HttpFailure ? error.status : 500
        response
          .writeHead(status, { ...CORS_HEADERS, "content-type": "text/plain; charset=utf-8" })
          .end(error instanceof Error ? error.message : String(error))
      }
    )
  })
  const interval = options.blockIntervalMs ?? 2000
  const timer = interval > 0 ? setInterval(() => chain.mempoolTxids.length > 0 && chain.mine(), interval) : undefined
  timer?.unref()
  return {
    info: { ...info, chain },
    stop: async () => {
      if (timer !== undefined) clearInterval(timer)
      await server.stop()
    }
  }
}
