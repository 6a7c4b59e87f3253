/** A fake HttpClient, as a Layer, that answers JSON-RPC per URL as a test scripts it (for the RpcTransport unit tests). */
import { Clock, Effect, Layer } from "effect"
import * as HttpClient from "effect/http/HttpClient"
import * as HttpClientError from "effect/http/HttpClientError"
import * as HttpClientResponse from "effect/http/HttpClientResponse"

/** Methods the transport pings with. */
const PING_METHODS = ["eth_blockNumber", "getHealth"]

/** One JSON-RPC call the fake received, with the test time. */
export interface Seen {
  readonly url: string
  readonly method: string
  readonly at: number
}

/**
 * How a scripted endpoint behaves now: answer after `delayMs`, answer an HTTP status, refuse, never answer, answer
 * pings but never other calls, or answer 200 with a body that never ends (`flood`: a megabyte at a time).
 */
export type Behaviour =
  | { readonly kind: "answer"; readonly delayMs: number }
  | { readonly kind: "status"; readonly status: number }
  | { readonly kind: "refuse" }
  | { readonly kind: "hang" }
  | { readonly kind: "hang-calls" }
  | { readonly kind: "flood" }

interface JsonRpcCall {
  readonly id: number
  readonly method: string
}

/** A fake HttpClient (a Layer) answering JSON-RPC per URL as scripted; it logs every call with the TestClock time. */
export const fakeHttp = (initial: Record<string, Behaviour>) => {
  const behaviours = new Map(Object.entries(initial))
  const seen: Array<Seen> = []
  const requests: Array<{ readonly url: string; readonly methods: ReadonlyArray<string>; readonly batch: boolean }> = []
  const client = HttpClient.make((request, url) =>
    Effect.gen(function* () {
      const text = request.body._tag === "Uint8Array" ? new TextDecoder().decode(request.body.body) : ""
      const parsed = JSON.parse(text) as JsonRpcCall | ReadonlyArray<JsonRpcCall>
      const calls = Array.isArray(parsed) ? parsed : [parsed as JsonRpcCall]
      requests.push({ url: url.toString(), methods: calls.map((call) => call.method), batch: Array.isArray(parsed) })
      const at = yield* Clock.currentTimeMillis
      for (const call of calls) seen.push({ url: url.toString(), method: call.method, at })
      const scripted = behaviours.get(url.toString()) ?? { kind: "refuse" }
      const onlyPings = calls.every((call) => PING_METHODS.includes(call.method))
      const behaviour: Exclude<Behaviour, { kind: "hang-calls" }> =
        scripted.kind === "hang-calls" ? (onlyPings ? { kind: "answer", delayMs: 5 } : { kind: "hang" }) : scripted
      switch (behaviour.kind) {
        case "refuse":
          return yield* new HttpClientError.HttpClientError({
            reason: new HttpClientError.TransportError({ request, cause: new TypeError("fetch failed") })
          })
        case "hang":
          return yield* Effect.never
        case "flood": {
          const megabyte = new Uint8Array(1024 * 1024).fill(0x20)
          const endless = new ReadableStream<Uint8Array>({ pull: (controller) => controller.enqueue(megabyte) })
          return HttpClientResponse.fromWeb(request, new Response(endless, { status: 200 }))
        }
        case "status":
          return HttpClientResponse.fromWeb(request, new Response("busy", { status: behaviour.status }))
        case "answer": {
          if (behaviour.delayMs > 0) yield* Effect.sleep(behaviour.delayMs)
          const answer = (call: JsonRpcCall) => ({ jsonrpc: "2.0", id: call.id, result: `${call.method}@${url}` })
          const body = Array.isArray(parsed) ? calls.map(answer) : answer(parsed as JsonRpcCall)
          return HttpClientResponse.fromWeb(request, new Response(JSON.stringify(body), { status: 200 }))
        }
      }
    })
  )
  return {
    layer: Layer.succeed(HttpClient.HttpClient)(client),
    seen,
    /** Every HTTP request: its URL, the methods it carried, and whether it was a batch. */
    requests,
    set: (url: string, behaviour: Behaviour) => behaviours.set(url, behaviour),
    pings: (url: string) => seen.filter((call) => call.url === url && call.method === "eth_blockNumber").length
  }
}

/** What `fakeHttp` gives: the layer and the log. */
export type FakeHttp = ReturnType<typeof fakeHttp>

/** Answers after `delayMs` of test time. */
export const answerIn = (delayMs: number): Behaviour => ({ kind: "answer", delayMs })
