/**
 * The JSON-RPC of WalletConnect's sign and pairing protocols (specs: sign/rpc-methods, core/pairing/rpc-methods): the
 * relay tag and TTL of each method's request, answer and refusal, request ids, and the shape of a message. Pure.
 */

/** The relay options of one direction of a method: how long the relay keeps it, and its tag. */
export interface PublishOptions {
  readonly ttl: number
  readonly tag: number
}

interface MethodOptions {
  readonly req: PublishOptions
  readonly res: PublishOptions
  readonly reject?: PublishOptions
}

const FIVE_MINUTES = 300
const ONE_DAY = 86_400
const ONE_HOUR = 3600
const THIRTY_SECONDS = 30

/** Each method's tags and TTLs, as the specs give them. */
export const METHODS = {
  wc_sessionPropose: { req: { ttl: FIVE_MINUTES, tag: 1100 }, res: { ttl: FIVE_MINUTES, tag: 1101 }, reject: { ttl: FIVE_MINUTES, tag: 1120 } },
  wc_sessionSettle: { req: { ttl: FIVE_MINUTES, tag: 1102 }, res: { ttl: FIVE_MINUTES, tag: 1103 } },
  wc_sessionUpdate: { req: { ttl: ONE_DAY, tag: 1104 }, res: { ttl: ONE_DAY, tag: 1105 } },
  wc_sessionExtend: { req: { ttl: ONE_DAY, tag: 1106 }, res: { ttl: ONE_DAY, tag: 1107 } },
  wc_sessionRequest: { req: { ttl: FIVE_MINUTES, tag: 1108 }, res: { ttl: FIVE_MINUTES, tag: 1109 } },
  wc_sessionEvent: { req: { ttl: FIVE_MINUTES, tag: 1110 }, res: { ttl: FIVE_MINUTES, tag: 1111 } },
  wc_sessionDelete: { req: { ttl: ONE_DAY, tag: 1112 }, res: { ttl: ONE_DAY, tag: 1113 } },
  wc_sessionPing: { req: { ttl: THIRTY_SECONDS, tag: 1114 }, res: { ttl: THIRTY_SECONDS, tag: 1115 } },
  wc_sessionAuthenticate: { req: { ttl: ONE_HOUR, tag: 1116 }, res: { ttl: ONE_HOUR, tag: 1117 }, reject: { ttl: FIVE_MINUTES, tag: 1118 } },
  wc_pairingDelete: { req: { ttl: ONE_DAY, tag: 1000 }, res: { ttl: ONE_DAY, tag: 1001 } },
  wc_pairingPing: { req: { ttl: THIRTY_SECONDS, tag: 1002 }, res: { ttl: THIRTY_SECONDS, tag: 1003 } }
} as const satisfies Record<string, MethodOptions>

/** A method of the protocols. */
export type Method = keyof typeof METHODS

/** Whether `name` is a method of the protocols. */
export const isMethod = (name: unknown): name is Method => typeof name === "string" && Object.hasOwn(METHODS, name)

/** The answer to a request nobody here registered: an error, on tag 0 (the pairing spec's "unsupported methods"). */
export const UNSUPPORTED: PublishOptions = { ttl: ONE_DAY, tag: 0 }

let lastId = 0
/**
 * A JSON-RPC id as WalletConnect peers make them: milliseconds × 1000 plus a counter, increasing within a client,
 * below 2^53 so every peer reads it exactly.
 */
export const nextRpcId = (now: number): number => {
  lastId = Math.max(lastId + 1, now * 1000)
  return lastId
}

/** A JSON-RPC request between peers. */
export interface RpcRequest {
  readonly id: number
  readonly jsonrpc: "2.0"
  readonly method: string
  readonly params: unknown
}

/** A JSON-RPC error object. */
export interface RpcError {
  readonly code: number
  readonly message: string
}

/** A JSON-RPC answer between peers. */
export type RpcResponse =
  | { readonly id: number; readonly jsonrpc: "2.0"; readonly result: unknown }
  | { readonly id: number; readonly jsonrpc: "2.0"; readonly error: RpcError }

/** A message between peers, once opened and read. */
export type PeerMessage = ({ readonly kind: "request" } & RpcRequest) | ({ readonly kind: "response" } & RpcResponse)

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value)

/** Reads an opened message as a request or an answer; `undefined` when it is neither (it is then dropped). */
export const readPeerMessage = (text: string): PeerMessage | undefined => {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return undefined
  }
  if (!isRecord(value) || typeof value["id"] !== "number" || !Number.isSafeInteger(value["id"])) return undefined
  const id = value["id"]
  if (typeof value["method"] === "string") return { kind: "request", id, jsonrpc: "2.0", method: value["method"], params: value["params"] }
  if ("result" in value) return { kind: "response", id, jsonrpc: "2.0", result: value["result"] }
  const error = value["error"]
  if (isRecord(error)) {
    const code = typeof error["code"] === "number" ? error["code"] : -32603
    const message = typeof error["message"] === "string" ? error["message"] : "Unknown error"
    return { kind: "response", id, jsonrpc: "2.0", error: { code, message } }
  }
  return undefined
}

/** The errors the sign protocol names (spec: sign/error-codes), as peers send them. */
export const SDK_ERRORS = {
  USER_REJECTED: { code: 5000, message: "User rejected." },
  USER_DISCONNECTED: { code: 6000, message: "User disconnected." },
  UNSUPPORTED_CHAINS: { code: 5100, message: "Unsupported chains." },
  UNSUPPORTED_METHODS: { code: 5101, message: "Unsupported methods." },
  UNSUPPORTED_EVENTS: { code: 5102, message: "Unsupported events." },
  UNSUPPORTED_ACCOUNTS: { code: 5103, message: "Unsupported accounts." },
  UNSUPPORTED_NAMESPACE_KEY: { code: 5104, message: "Unsupported namespace key." },
  EXPIRED: { code: 8000, message: "Request expired." },
  METHOD_NOT_FOUND: { code: -32601, message: "Method not found." }
} as const satisfies Record<string, RpcError>
