/** A scripted HttpClient for unit tests: records every request and answers as the test says. */
import { Effect, Layer } from "effect"
import * as HttpClient from "effect/http/HttpClient"
import * as HttpClientError from "effect/http/HttpClientError"
import * as HttpClientResponse from "effect/http/HttpClientResponse"

/** A request as the fake saw it. */
export interface RecordedRequest {
  readonly method: string
  readonly url: URL
  /** The JSON body, parsed, when there was one. */
  readonly body: unknown
}

/** How the fake answers: a status with a JSON or text body, a transport failure, or never. */
export type FakeAnswer =
  | { readonly status: number; readonly json?: unknown; readonly text?: string }
  | "unreachable"
  | "hang"

/** A fake HttpClient layer and the requests it received. */
export interface FakeHttp {
  readonly requests: Array<RecordedRequest>
  readonly layer: Layer.Layer<HttpClient.HttpClient>
  /** Requests whose path is `path` (e.g. `/getWallets`). */
  readonly to: (path: string) => ReadonlyArray<RecordedRequest>
}

const bodyOf = (request: { readonly body: { readonly _tag: string; readonly body?: unknown } }): unknown => {
  if (request.body._tag !== "Uint8Array" || !(request.body.body instanceof Uint8Array)) return undefined
  return JSON.parse(new TextDecoder().decode(request.body.body))
}

/** Makes a fake whose answers come from `answer`. */
export const makeFakeHttp = (answer: (request: RecordedRequest) => FakeAnswer): FakeHttp => {
  const requests: Array<RecordedRequest> = []
  const client = HttpClient.make((request, url) =>
    Effect.suspend(() => {
      const recorded: RecordedRequest = { method: request.method, url, body: bodyOf(request) }
      requests.push(recorded)
      const reply = answer(recorded)
      if (reply === "hang") return Effect.never
      if (reply === "unreachable") {
        return Effect.fail(
          new HttpClientError.HttpClientError({
            reason: new HttpClientError.TransportError({ request, description: "connection refused" })
          })
        )
      }
      const isJson = reply.text === undefined
      const response = new Response(isJson ? JSON.stringify(reply.json ?? {}) : reply.text, {
        status: reply.status,
        headers: { "content-type": isJson ? "application/json" : "text/plain" }
      })
      return Effect.succeed(HttpClientResponse.fromWeb(request, response))
    })
  )
  return {
    requests,
    layer: Layer.succeed(HttpClient.HttpClient)(client),
    to: (path) => requests.filter((request) => request.url.pathname === path)
  }
}
