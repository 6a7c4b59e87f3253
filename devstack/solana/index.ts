import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import { type Address, isAddress } from "@solana/kit"
import { WebSocketServer, type WebSocket } from "ws"
import type { Started } from "../../server/src/lib/Started"
import { createDevToken, type SolanaTokenInfo } from "./devToken"
import { devSolanaKey } from "./keys"
import { GENESIS_HASH, Ledger, type TransactionRecord } from "./Ledger"
import { createRpc, encodeAccount, RpcError, SolanaRpcCode, type SolanaRpc, stringifyJson } from "./rpc"
import { listenOnLoopback } from "../../server/src/lib/httpServer"

export { GENESIS_HASH } from "./Ledger"
export { transferSolInstruction } from "./keys"
export type { SolanaTokenInfo } from "./devToken"

/** CAIP-2 id of the local Solana network: `solana:` and the first 32 characters of its genesis hash. */
export const SOLANA_DEVSTACK_CAIP_NETWORK_ID = `solana:${GENESIS_HASH.slice(0, 32)}`

/** Options of the local Solana JSON-RPC. */
export interface SolanaOptions {
  /** HTTP port (the websocket takes the next one); absent takes a free pair from the OS. */
  readonly port?: number
  /** How many dev keys to fund (3 by default; `devSolanaKey(0…n-1)`, the same on every run), each with 1000 SOL. */
  readonly fundedKeys?: number
  /** Receives one line per request error; silent when absent. */
  readonly log?: (line: string) => void
}

/** What a running Solana RPC exposes. */
export interface SolanaInfo {
  readonly rpcUrl: string
  readonly wsUrl: string
  /** The dev keys funded at start with 1000 SOL each (the same on every run); `secretKey` is base58 of 64 bytes. */
  readonly funded: ReadonlyArray<{ readonly address: string; readonly secretKey: string }>
  /** `solana:<first 32 characters of the genesis hash>`, the same on every run. */
  readonly caipNetworkId: string
  /** SPL tokens created at start (WSUSD, 6 decimals; 10000 to each funded key), at the same mint address on every run. */
  readonly tokens: ReadonlyArray<SolanaTokenInfo>
}

const FUNDED_LAMPORTS = 1000n * 1_000_000_000n
const MAX_BODY_BYTES = 5 * 1024 * 1024
const PORT_ATTEMPTS = 20

const CORS_HEADERS = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "POST, GET, OPTIONS",
  "access-control-allow-headers": "*",
  "access-control-max-age": "86400"
}

const errorBody = (id: unknown, code: number, message: string, data?: unknown) => ({
  jsonrpc: "2.0",
  error: data === undefined ? { code, message } : { code, message, data },
  id: id ?? null
})

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/** Answers one JSON-RPC request object; `malformed` marks requests that are not JSON-RPC at all. */
const answer = async (
  rpc: SolanaRpc,
  request: unknown,
  log: (line: string) => void
): Promise<{ readonly body: unknown; readonly malformed: boolean }> => {
  if (!isRecord(request) || typeof request.method !== "string") {
    const id = isRecord(request) ? request.id : null
    return { body: errorBody(id, SolanaRpcCode.invalidRequest, "Invalid request: expected a JSON-RPC 2.0 request object with a method"), malformed: true }
  }
  const id = request.id ?? null
  try {
    return { body: { jsonrpc: "2.0", result: await rpc.call(request.method, request.params), id }, malformed: false }
  } catch (error) {
    if (error instanceof RpcError) return { body: errorBody(id, error.code, error.message, error.data), malformed: false }
    const message = error instanceof Error ? error.message : String(error)
    log(`solana: ${request.method} failed: ${message}`)
    return { body: errorBody(id, SolanaRpcCode.internal, `Internal error: ${message}`), malformed: false }
  }
}

const readBody = (request: IncomingMessage): Promise<string | undefined> =>
  new Promise((resolve, reject) => {
    const chunks: Array<Buffer> = []
    let size = 0
    request.on("data", (chunk: Buffer) => {
      size += chunk.length
      if (size > MAX_BODY_BYTES) {
        resolve(undefined)
        request.destroy()
        return
      }
      chunks.push(chunk)
    })
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")))
    request.on("error", reject)
  })

const httpHandler =
  (rpc: SolanaRpc, log: (line: string) => void) =>
  async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const send = (status: number, body: unknown) => {
      if (response.headersSent) return
      response.writeHead(status, { ...CORS_HEADERS, "content-type": "application/json" }).end(stringifyJson(body))
    }
    if (request.method === "OPTIONS") {
      response.writeHead(204, CORS_HEADERS).end()
      return
    }
    if (request.method === "GET" && request.url === "/health") {
      response.writeHead(200, { ...CORS_HEADERS, "content-type": "text/plain" }).end("ok")
      return
    }
    if (request.method !== "POST") {
      send(405, errorBody(null, SolanaRpcCode.invalidRequest, "Solana JSON-RPC: POST a JSON-RPC 2.0 request"))
      return
    }
    const text = await readBody(request).catch(() => undefined)
    if (text === undefined) {
      send(413, errorBody(null, SolanaRpcCode.invalidRequest, `Request body over ${MAX_BODY_BYTES} bytes`))
      return
    }
    let parsed: unknown
    try {
      parsed = JSON.parse(text)
    } catch {
      send(400, errorBody(null, SolanaRpcCode.parse, "Parse error: the body is not JSON"))
      return
    }
    if (Array.isArray(parsed)) {
      if (parsed.length === 0) {
        send(400, errorBody(null, SolanaRpcCode.invalidRequest, "Invalid request: empty batch"))
        return
      }
      const answers = await Promise.all(parsed.map((item) => answer(rpc, item, log)))
      send(200, answers.map((a) => a.body))
      return
    }
    const { body, malformed } = await answer(rpc, parsed, log)
    send(malformed ? 400 : 200, body)
  }

/** Websocket subscriptions: signature, slot and account notifications. */
const attachSubscriptions = (wss: WebSocketServer, ledger: Ledger, rpc: SolanaRpc): void => {
  let nextSubscription = 1
  wss.on("connection", (socket: WebSocket) => {
    const subscriptions = new Map<number, () => void>()
    const send = (body: unknown) => {
      if (socket.readyState === socket.OPEN) socket.send(stringifyJson(body))
    }
    const notify = (method: string, subscription: number, result: unknown) =>
      send({ jsonrpc: "2.0", method, params: { result, subscription } })

    const subscribe = (method: string, params: ReadonlyArray<unknown>): { id: number; after?: () => void } => {
      const id = nextSubscription++
      switch (method) {
        case "signatureSubscribe": {
          const signature = params[0]
          if (typeof signature !== "string") throw new RpcError(SolanaRpcCode.invalidParams, "Invalid params: signature must be a string")
          const notifySignature = (record: TransactionRecord) => {
            notify("signatureNotification", id, { context: { slot: record.slot }, value: { err: record.err } })
          }
          const landed = ledger.transaction(signature)
          // Already landed: say so at once (after the subscription id), as the subscription ends with its one notification.
          if (landed) return { id, after: () => notifySignature(landed) }
          const off = ledger.onLanded((record) => {
            if (record.signature !== signature) return
            off()
            subscriptions.delete(id)
            notifySignature(record)
          })
          subscriptions.set(id, off)
          return { id }
        }
        case "slotSubscribe": {
          subscriptions.set(
            id,
            ledger.onSlot((slot) => notify("slotNotification", id, { parent: slot - 1n, root: slot, slot }))
          )
          return { id }
        }
        case "accountSubscribe": {
          const address = params[0]
          const config = isRecord(params[1]) ? params[1] : {}
          if (typeof address !== "string" || !isAddress(address)) {
            throw new RpcError(SolanaRpcCode.invalidParams, "Invalid params: expected a base58 address")
          }
          // Fails now, not at the first notification, when the encoding is unsupported.
          encodeAccount(rpc.account(address), config, rpc.decimalsOf)
          subscriptions.set(
            id,
            ledger.onLanded((record) => {
              if (!record.decoded.message.staticAccounts.includes(address)) return
              notify("accountNotification", id, {
                context: { slot: ledger.slot },
                value: encodeAccount(rpc.account(address), config, rpc.decimalsOf)
              })
            })
          )
          return { id }
        }
        default:
          throw new RpcError(SolanaRpcCode.methodNotFound, `Method not found: ${method}`)
      }
    }

    socket.on("message", (data, isBinary) => {
      let request: unknown
      try {
        request = JSON.parse(isBinary ? "" : String(data))
      } catch {
        send(errorBody(null, SolanaRpcCode.parse, "Parse error: the message is not JSON"))
        return
      }
      if (!isRecord(request) || typeof request.method !== "string") {
        send(errorBody(null, SolanaRpcCode.invalidRequest, "Invalid request: expected a JSON-RPC 2.0 request object with a method"))
        return
      }
      // kit's keep-alive `ping` is a notification: no id, no answer.
      if (request.id === undefined) return
      const id = request.id
      const params = Array.isArray(request.params) ? request.params : []
      try {
        if (request.method.endsWith("Unsubscribe")) {
          const subscription = params[0]
          const off = typeof subscription === "number" ? subscriptions.get(subscription) : undefined
          if (!off) throw new RpcError(SolanaRpcCode.invalidParams, "Invalid subscription id.")
          off()
          subscriptions.delete(subscription as number)
          send({ jsonrpc: "2.0", result: true, id })
          return
        }
        const { id: subscription, after } = subscribe(request.method, params)
        send({ jsonrpc: "2.0", result: subscription, id })
        after?.()
      } catch (error) {
        if (error instanceof RpcError) send(errorBody(id, error.code, error.message, error.data))
        else send(errorBody(id, SolanaRpcCode.internal, `Internal error: ${error instanceof Error ? error.message : String(error)}`))
      }
    })
    socket.on("error", () => socket.terminate())
    socket.on("close", () => {
      for (const off of subscriptions.values()) off()
      subscriptions.clear()
    })
  })
}

const close = (server: Server): Promise<void> =>
  new Promise((resolve) => {
    if (!server.listening) return resolve()
    server.close(() => resolve())
    server.closeAllConnections()
  })

/** Binds HTTP on a port and the websocket on the next; with no port asked, retries until the OS gives a free pair. */
const bindPair = async (
  makeHttp: () => Server,
  makeWs: () => Server,
  port: number | undefined
): Promise<{ http: Server; ws: Server; port: number }> => {
  for (let attempt = 1; ; attempt++) {
    const http = makeHttp()
    const bound = await listenOnLoopback(http, port ?? 0)
    const ws = makeWs()
    try {
      await listenOnLoopback(ws, bound + 1)
      return { http, ws, port: bound }
    } catch (error) {
      await close(http)
      if (port !== undefined || attempt >= PORT_ATTEMPTS) throw error
    }
  }
}

/** Starts a Solana JSON-RPC over litesvm on 127.0.0.1: HTTP on one port, websocket subscriptions on the next. */
export async function startSolana(opts: SolanaOptions = {}): Promise<Started<SolanaInfo>> {
  const log = opts.log ?? (() => {})
  const ledger = new Ledger()
  const rpc = createRpc(ledger)
  const funded = Array.from({ length: opts.fundedKeys ?? 3 }, (_, index) => {
    const key = devSolanaKey(index)
    ledger.fund(key.address, FUNDED_LAMPORTS)
    return { address: key.address as string, secretKey: key.secretKey }
  })
  const tokens = [await createDevToken(ledger, funded.map((key) => key.address as Address))]

  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_BODY_BYTES })
  attachSubscriptions(wss, ledger, rpc)
  const handler = httpHandler(rpc, log)
  const { http, ws, port } = await bindPair(
    () =>
      createServer((request, response) => {
        handler(request, response).catch((error: unknown) => {
          log(`solana: request failed: ${error instanceof Error ? error.message : String(error)}`)
          if (!response.headersSent) response.writeHead(500).end()
        })
      }),
    () => {
      const server = createServer((_request, response) => {
        response.writeHead(426, { "content-type": "text/plain" }).end("Solana JSON-RPC subscriptions: connect with a websocket\n")
      })
      server.on("upgrade", (request, socket, head) => {
        socket.on("error", () => socket.destroy())
        wss.handleUpgrade(request, socket, head, (client) => wss.emit("connection", client, request))
      })
      return server
    },
    opts.port
  )

  let stopped: Promise<void> | undefined
  const stop = (): Promise<void> => {
    stopped ??= (async () => {
      for (const client of wss.clients) client.terminate()
      wss.close()
      await Promise.all([close(http), close(ws)])
    })()
    return stopped
  }

  return {
    info: {
      rpcUrl: `http://127.0.0.1:${port}`,
      wsUrl: `ws://127.0.0.1:${port + 1}`,
      funded,
      caipNetworkId: SOLANA_DEVSTACK_CAIP_NETWORK_ID,
      tokens
    },
    stop
  }
}
