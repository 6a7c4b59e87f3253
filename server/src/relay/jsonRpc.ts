// Frames of the relay's JSON-RPC. Client ids are 19-digit numbers, beyond what a double holds,
// so replies carry the id as the raw text the client sent rather than a parsed number.

const WHITESPACE = new Set([" ", "\t", "\n", "\r"])
const ID_TOKEN = /^(?:-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|"(?:[^"\\]|\\.)*"|null)/

const skipWhitespace = (text: string, from: number): number => {
  let i = from
  while (i < text.length && WHITESPACE.has(text.charAt(i))) i++
  return i
}

/** Index of the quote closing the string that opens at `from`, or -1. */
const closingQuote = (text: string, from: number): number => {
  for (let i = from + 1; i < text.length; i++) {
    const c = text.charAt(i)
    if (c === "\\") i++
    else if (c === '"') return i
  }
  return -1
}

/** The raw text of the top-level `"id"` member of a JSON object text, exactly as sent. */
export const rawId = (text: string): string | undefined => {
  const start = skipWhitespace(text, 0)
  if (text.charAt(start) !== "{") return undefined
  let depth = 0
  let keyExpected = false
  for (let i = start; i < text.length; i++) {
    const c = text.charAt(i)
    if (c === '"') {
      const end = closingQuote(text, i)
      if (end < 0) return undefined
      if (depth === 1 && keyExpected) {
        keyExpected = false
        const colon = skipWhitespace(text, end + 1)
        if (text.charAt(colon) !== ":") return undefined
        if (text.slice(i + 1, end) === "id") {
          return ID_TOKEN.exec(text.slice(skipWhitespace(text, colon + 1)))?.[0]
        }
        i = colon
      } else {
        i = end
      }
    } else if (c === "{" || c === "[") {
      depth++
      keyExpected = c === "{" && depth === 1
    } else if (c === "}" || c === "]") {
      depth--
    } else if (c === "," && depth === 1) {
      keyExpected = true
    }
  }
  return undefined
}

/** A JSON-RPC success reply echoing `id` verbatim. */
export const resultFrame = (id: string, result: unknown): string =>
  `{"id":${id},"jsonrpc":"2.0","result":${JSON.stringify(result)}}`

/** A JSON-RPC error reply echoing `id` verbatim (`null` when the request could not be read). */
export const errorFrame = (id: string, code: number, message: string): string =>
  `{"id":${id},"jsonrpc":"2.0","error":${JSON.stringify({ code, message })}}`

/** Standard JSON-RPC error codes the relay answers with. */
export const RpcErrorCode = {
  parse: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internal: -32603
} as const

/** Bad params of a request; its message goes back to the client. */
export class InvalidParams extends Error {
  override readonly name = "InvalidParams"
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/** The params object of a request, or InvalidParams. */
export const paramsObject = (params: unknown): Record<string, unknown> => {
  if (!isRecord(params)) throw new InvalidParams("params must be an object")
  return params
}

/** A required non-empty string member of params. */
export const stringParam = (params: Record<string, unknown>, key: string): string => {
  const value = params[key]
  if (typeof value !== "string" || value.length === 0) throw new InvalidParams(`params.${key} must be a non-empty string`)
  return value
}

/** An optional string member of params. */
export const optionalStringParam = (params: Record<string, unknown>, key: string): string | undefined => {
  const value = params[key]
  if (value === undefined || value === null) return undefined
  if (typeof value !== "string") throw new InvalidParams(`params.${key} must be a string`)
  return value
}

/** An optional finite number member of params. */
export const optionalNumberParam = (params: Record<string, unknown>, key: string): number | undefined => {
  const value = params[key]
  if (value === undefined || value === null) return undefined
  if (typeof value !== "number" || !Number.isFinite(value)) throw new InvalidParams(`params.${key} must be a number`)
  return value
}

/** A required array of non-empty strings member of params. */
export const topicsParam = (params: Record<string, unknown>, key: string): ReadonlyArray<string> => {
  const value = params[key]
  if (!Array.isArray(value) || !value.every((t): t is string => typeof t === "string" && t.length > 0)) {
    throw new InvalidParams(`params.${key} must be an array of non-empty strings`)
  }
  return value
}

/** What a frame from a client is, once read. */
export type Incoming =
  | { readonly kind: "request"; readonly id: string; readonly method: string; readonly params: unknown }
  | { readonly kind: "notification" }
  | { readonly kind: "response"; readonly id: unknown; readonly ok: boolean }
  | { readonly kind: "invalid"; readonly id: string; readonly code: number; readonly message: string }

/** Reads one text frame as a JSON-RPC request, notification or response; never throws. */
export const readFrame = (text: string): Incoming => {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return { kind: "invalid", id: "null", code: RpcErrorCode.parse, message: "Parse error" }
  }
  if (!isRecord(value)) {
    return { kind: "invalid", id: "null", code: RpcErrorCode.invalidRequest, message: "Invalid Request" }
  }
  const id = "id" in value ? (rawId(text) ?? "null") : undefined
  if (typeof value.method === "string") {
    if (id === undefined) return { kind: "notification" }
    return { kind: "request", id, method: value.method, params: value.params }
  }
  if (id !== undefined && ("result" in value || "error" in value)) {
    return { kind: "response", id: value.id, ok: "result" in value }
  }
  return { kind: "invalid", id: id ?? "null", code: RpcErrorCode.invalidRequest, message: "Invalid Request" }
}
