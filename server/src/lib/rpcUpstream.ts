/**
 * A chain's upstream RPC: one or more URLs of the same chain, asked one at a time. A URL that fails at the transport
 * level — no connection, no answer within the attempt's bound, an HTTP 5xx or 429 — is left for the next one, each
 * URL at most once per request, starting from the last that answered. An answer of the node, a JSON-RPC error
 * included (a revert, -32602…), is the answer: it never moves to another URL. Whether to move on is decided by one
 * pure function, {@link nextStepAfter}.
 *
 * @example
 * const rpc = rpcUpstream(["https://a.example/rpc", "https://b.example/rpc"])
 * const { status, text } = await rpc.post(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_blockNumber" }))
 */

/** How long one URL is given to answer (headers and body) before the next is tried, by default. */
export const RPC_ATTEMPT_TIMEOUT_MS = 10_000

/** What one attempt on one URL came to. */
export type RpcAttempt =
  /** No answer: the connection was refused or reset, the host unknown… */
  | { readonly _tag: "Unreachable"; readonly reason: string }
  /** No whole answer within the attempt's bound. */
  | { readonly _tag: "TimedOut" }
  /** An HTTP answer with this status. */
  | { readonly _tag: "Answered"; readonly status: number }

/** What to do after an attempt: keep its answer, or try the next URL. */
export type RpcNextStep = "answer" | "next"

/**
 * The failover rule: a transport failure (unreachable, timed out, HTTP 5xx, HTTP 429 "too many requests") goes to the
 * next URL; any other answer is the node's, kept as it is — a JSON-RPC error travels in a 200 (or a 4xx), never here.
 */
export const nextStepAfter = (attempt: RpcAttempt): RpcNextStep => {
  switch (attempt._tag) {
    case "Unreachable":
    case "TimedOut":
      return "next"
    case "Answered":
      return attempt.status >= 500 || attempt.status === 429 ? "next" : "answer"
  }
}

/** Every URL of a chain failed at the transport level; `reason` is the last one's, without its URL. */
export class UpstreamUnreachable extends Error {
  constructor(
    /** Why, without the URL (an upstream URL may hold a key: this text may reach a client). */
    readonly reason: string
  ) {
    super(reason)
  }
}

/** The answer of one URL: its HTTP status and body. */
export interface UpstreamAnswer {
  readonly status: number
  readonly text: string
}

/** A chain's upstream RPC URLs, asked with failover. */
export interface RpcUpstream {
  /** The URLs, in the order configured. */
  readonly urls: ReadonlyArray<string>
  /**
   * POSTs a JSON body, moving to the next URL on a transport failure; rejects with {@link UpstreamUnreachable} when
   * every URL failed, or with the abort reason when `signal` aborts (then no other URL is tried).
   */
  readonly post: (body: string, signal?: AbortSignal) => Promise<UpstreamAnswer>
}

// The error's words and its cause's code (ECONNREFUSED…), never the cause's words: they name the host and port.
const wordsOf = (error: unknown): string => {
  const code = error instanceof Error && typeof (error.cause as { readonly code?: unknown } | undefined)?.code === "string"
    ? ` (${String((error.cause as { readonly code: string }).code)})`
    : ""
  return `${error instanceof Error ? error.message : String(error)}${code}`
}

// One POST to one URL, its body read within the same bound.
const attempt = async (url: string, body: string, timeoutMs: number, signal: AbortSignal | undefined) => {
  const bound = AbortSignal.timeout(timeoutMs)
  const both = signal === undefined ? bound : AbortSignal.any([signal, bound])
  try {
    const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body, signal: both })
    const text = await response.text()
    return { attempt: { _tag: "Answered", status: response.status } as RpcAttempt, text }
  } catch (error) {
    if (signal?.aborted === true) throw signal.reason
    return { attempt: bound.aborted ? ({ _tag: "TimedOut" } as RpcAttempt) : ({ _tag: "Unreachable", reason: wordsOf(error) } as RpcAttempt), text: "" }
  }
}

const why = (attempt: RpcAttempt, timeoutMs: number): string =>
  attempt._tag === "Unreachable"
    ? attempt.reason
    : attempt._tag === "TimedOut"
      ? `no answer within ${timeoutMs} ms`
      : `HTTP ${attempt.status}`

/**
 * The upstream of `urls` (at least one), each attempt bounded by `attemptTimeoutMs`. It starts from the URL that
 * answered last, so a dead first URL costs one failed attempt, not one per request.
 */
export const rpcUpstream = (
  urls: ReadonlyArray<string>,
  options: { readonly attemptTimeoutMs?: number } = {}
): RpcUpstream => {
  if (urls.length === 0) throw new Error("an upstream RPC needs at least one URL")
  const timeoutMs = options.attemptTimeoutMs ?? RPC_ATTEMPT_TIMEOUT_MS
  let preferred = 0
  return {
    urls,
    post: async (body, signal) => {
      let last = ""
      for (let i = 0; i < urls.length; i++) {
        const at = (preferred + i) % urls.length
        const { attempt: result, text } = await attempt(urls[at] ?? "", body, timeoutMs, signal)
        if (nextStepAfter(result) === "answer" && result._tag === "Answered") {
          preferred = at
          return { status: result.status, text }
        }
        last = why(result, timeoutMs)
      }
      throw new UpstreamUnreachable(urls.length === 1 ? last : `none of its ${urls.length} RPC URLs answered (the last: ${last})`)
    }
  }
}
