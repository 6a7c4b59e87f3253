/** A scripted HttpClient for unit tests: records every request and answers as the test says. */
import { Effect, Layer } from "effect"
import * as HttpClient from "effect/http/HttpClient"
import * as HttpClientError from "effect/http/HttpClientError"
import * as HttpClientResponse from "effect/http/HttpClientResponse"
import type { Alert } from "../../../src/domain/alerts"
import type { ServicesClientOptions } from "../../../src/services/boundedServiceClient"

/** A request as the fake saw it. */
export interface RecordedRequest {
  readonly method: string
  readonly url: URL
  /** The request's headers, as the client set them. */
  readonly headers: Readonly<Record<string, string>>
  /** The JSON body, parsed, when there was one. */
  readonly body: unknown
  /** The body's content type, when there was a body. */
  readonly contentType: string | undefined
}

/**
 * How the fake answers: a status with a JSON or text body, a transport failure, never, headers then a body that
 * never ends (`stall-body`), or a 200 whose body streams `bytes` bytes (optionally declaring `declared` as its length).
 */
export type FakeAnswer =
  | { readonly status: number; readonly json?: unknown; readonly text?: string }
  | { readonly status: number; readonly stallBody: true }
  | { readonly status: number; readonly bytes: number; readonly declared?: number }
  | "unreachable"
  | "hang"

/** Chunks of the streamed bodies (64 KiB of spaces, valid JSON whitespace). */
const CHUNK = new Uint8Array(64 * 1024).fill(0x20)

/** A body that sends `[` and then nothing, without ever ending. */
const stalledBody = () => new ReadableStream<Uint8Array>({ start: (controller) => controller.enqueue(new Uint8Array([0x5b])) })

/** A body of `bytes` bytes, made chunk by chunk as it is read; `pulled` counts the chunks read. */
const streamedBody = (bytes: number, pulled: { count: number }) => {
  let left = bytes
  return new ReadableStream<Uint8Array>({
    pull: (controller) => {
      if (left <= 0) return controller.close()
      const chunk = CHUNK.subarray(0, Math.min(left, CHUNK.length))
      left -= chunk.length
      pulled.count++
      controller.enqueue(chunk)
    }
  })
}

/** A fake HttpClient layer and the requests it received. */
export interface FakeHttp {
  readonly requests: Array<RecordedRequest>
  readonly layer: Layer.Layer<HttpClient.HttpClient>
  /** Requests whose path is `path` (e.g. `/getWallets`). */
  readonly to: (path: string) => ReadonlyArray<RecordedRequest>
  /** How many chunks of streamed bodies were read. */
  readonly pulled: { count: number }
}

const bodyOf = (request: { readonly body: { readonly _tag: string; readonly body?: unknown } }): unknown => {
  if (request.body._tag !== "Uint8Array" || !(request.body.body instanceof Uint8Array)) return undefined
  return JSON.parse(new TextDecoder().decode(request.body.body))
}

/** Makes a fake whose answers come from `answer`. */
export const makeFakeHttp = (answer: (request: RecordedRequest) => FakeAnswer): FakeHttp => {
  const requests: Array<RecordedRequest> = []
  const pulled = { count: 0 }
  const client = HttpClient.make((request, url) =>
    Effect.suspend(() => {
      const recorded: RecordedRequest = {
        method: request.method,
        url,
        headers: { ...request.headers },
        body: bodyOf(request),
        contentType: request.body._tag === "Empty" ? undefined : request.body.contentType
      }
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
      if ("stallBody" in reply) return Effect.succeed(HttpClientResponse.fromWeb(request, new Response(stalledBody(), { status: reply.status })))
      if ("bytes" in reply) {
        const headers: Record<string, string> = reply.declared === undefined ? {} : { "content-length": String(reply.declared) }
        return Effect.succeed(HttpClientResponse.fromWeb(request, new Response(streamedBody(reply.bytes, pulled), { status: reply.status, headers })))
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
    to: (path) => requests.filter((request) => request.url.pathname === path),
    pulled
  }
}

/**
 * One service at `baseUrl` whose every answer is `reply`, as the services' clients take it: their options, the fake's
 * requests, and the alerts raised (their short messages).
 */
export const fakeService = (baseUrl: string, reply: FakeAnswer) =>
  Effect.gen(function* () {
    const http = makeFakeHttp(() => reply)
    const alerts: Array<string> = []
    const options: ServicesClientOptions = {
      baseUrl,
      client: yield* Effect.provide(Effect.service(HttpClient.HttpClient), http.layer),
      raiseAlert: (alert: Alert) => Effect.sync(() => alerts.push(alert.shortMessage))
    }
    return { options, http, alerts }
  })
