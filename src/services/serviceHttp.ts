/**
 * Calls to the hosted services (wallet catalogue, blockchain API, analytics): JSON answers decoded with the
 * Schemas of `domain/Api.ts`, failures as typed errors with the spec's texts ('HTTP status code: N'), and the
 * authorisation answers ('Unauthorized: origin not allowed', 'Unauthorized: invalid key') raised as alerts.
 * Requests carry no custom headers, so a browser sends them without a CORS preflight where it can.
 */
import { Effect, Layer, Schema } from "effect"
import * as HttpClient from "effect/http/HttpClient"
import * as HttpClientError from "effect/http/HttpClientError"
import * as HttpClientRequest from "effect/http/HttpClientRequest"
import type * as HttpClientResponse from "effect/http/HttpClientResponse"
import { type Alert, alertForServiceError } from "../domain/alerts"
import { HttpStatusError } from "../domain/errors"
import { bodyProblemText, readTextCapped } from "./httpBody"

/** The SDK type sent to the catalogue (`st`) and the image endpoints. */
export const SDK_TYPE = "wallet-runtime"
/** The SDK version sent to the catalogue (`sv`). */
export const SDK_VERSION = "0.1.0"

/** A service whose whole answer (headers and body) has not arrived after this long is treated as unreachable. */
export const SERVICE_REQUEST_TIMEOUT_MS = 10_000

/** Error bodies are kept this long at most (they end up in logs and error values). */
const MAX_ERROR_BODY = 300
/** At most this much of an error answer is read: the start is all that is kept. */
const MAX_ERROR_BODY_READ = 64 * 1024

/** The service could not be reached: offline, refused, blocked by the browser, or no answer in time. */
export class ServiceUnreachable extends Schema.TaggedError<ServiceUnreachable>()("ServiceUnreachable", {
  url: Schema.String,
  reason: Schema.String
}) {
  override get message() {
    return `Could not reach ${this.url}: ${this.reason}`
  }
}

/** The service answered 2xx with a body that is not the expected JSON. */
export class ServiceAnswerInvalid extends Schema.TaggedError<ServiceAnswerInvalid>()("ServiceAnswerInvalid", {
  url: Schema.String,
  issue: Schema.String
}) {
  override get message() {
    return `Unexpected answer from ${this.url}: ${this.issue}`
  }
}

/** Why a call to a hosted service failed. */
export type ServiceError = HttpStatusError | ServiceUnreachable | ServiceAnswerInvalid

/** Query parameters; `undefined` values are left out. */
export type ServiceQuery = Readonly<Record<string, string | undefined>>

/** One call: method, path under the service's base URL, query and (for POST) a JSON body. */
export interface ServiceCall {
  readonly method: "GET" | "POST"
  readonly path: string
  readonly query?: ServiceQuery | undefined
  readonly body?: unknown
}

/** Joins a base URL (which may carry a path prefix) and a path starting with `/`. */
export const serviceUrl = (baseUrl: string, path: string): string => `${baseUrl.replace(/\/+$/, "")}${path}`

const definedParams = (query: ServiceQuery | undefined): Record<string, string> => {
  const params: Record<string, string> = {}
  for (const [key, value] of Object.entries(query ?? {})) if (value !== undefined) params[key] = value
  return params
}

/** Makes a request of the call (no headers beyond what the body needs). */
export const serviceRequest = (baseUrl: string, call: ServiceCall): HttpClientRequest.HttpClientRequest => {
  const url = serviceUrl(baseUrl, call.path)
  const urlParams = definedParams(call.query)
  return call.method === "GET"
    ? HttpClientRequest.get(url, { urlParams })
    : HttpClientRequest.post(url, { urlParams }).pipe(HttpClientRequest.bodyJsonUnsafe(call.body ?? {}))
}

/** A client of one hosted service. */
export interface ServiceClient {
  /** Sends a call and decodes its JSON answer with `schema`. */
  readonly json: <A>(call: ServiceCall, schema: Schema.Codec<A, unknown>) => Effect.Effect<A, ServiceError>
}

/**
 * A client of the service at `baseUrl`. The whole exchange — headers and body — has one time bound, and bodies are
 * capped in size, so a service that stalls or floods fails the call (and the caller's fallback follows). A non-OK
 * answer fails with 'HTTP status code: N' (keeping the start of its body); when that body is one of the
 * authorisation texts, `raiseAlert` is called with the matching alert.
 */
export const makeServiceClient = (options: {
  readonly baseUrl: string
  readonly client: HttpClient.HttpClient
  readonly raiseAlert: (alert: Alert) => Effect.Effect<unknown>
}): ServiceClient => {
  const statusError = (response: HttpClientResponse.HttpClientResponse): Effect.Effect<never, HttpStatusError> =>
    Effect.gen(function* () {
      const text = yield* readTextCapped(response, MAX_ERROR_BODY_READ).pipe(Effect.orElseSucceed(() => ""))
      const body = text.slice(0, MAX_ERROR_BODY)
      const alert = alertForServiceError(body)
      if (alert !== undefined) yield* options.raiseAlert(alert)
      return yield* new HttpStatusError({ status: response.status, ...(body.length > 0 ? { body } : {}) })
    })

  const json = <A>(call: ServiceCall, schema: Schema.Codec<A, unknown>): Effect.Effect<A, ServiceError> => {
    const url = serviceUrl(options.baseUrl, call.path)
    const decode = Schema.decodeUnknownEffect(Schema.fromJsonString(schema))
    const exchange = options.client.execute(serviceRequest(options.baseUrl, call)).pipe(
      Effect.mapError((error) => new ServiceUnreachable({ url, reason: error.message })),
      Effect.flatMap((response): Effect.Effect<string, ServiceError> =>
        response.status >= 200 && response.status < 300
          ? readTextCapped(response).pipe(
            Effect.mapError((problem) =>
              problem._tag === "TooLarge"
                ? new ServiceAnswerInvalid({ url, issue: bodyProblemText(problem) })
                : new ServiceUnreachable({ url, reason: bodyProblemText(problem) })
            )
          )
          : statusError(response)
      ),
      Effect.timeoutOrElse({
        duration: SERVICE_REQUEST_TIMEOUT_MS,
        orElse: () => Effect.fail(new ServiceUnreachable({ url, reason: `no answer in ${SERVICE_REQUEST_TIMEOUT_MS} ms` }))
      }),
      // Trace headers would turn every simple GET into a CORS preflight the hosted services need not allow.
      Effect.provideService(HttpClient.TracerPropagationEnabled, false)
    )
    return exchange.pipe(
      Effect.flatMap((text) => decode(text).pipe(Effect.mapError((error) => new ServiceAnswerInvalid({ url, issue: error.message }))))
    )
  }

  return { json }
}

/** An HttpClient that reaches nothing: every request fails as a transport error (tests, SSR, offline hosts). */
export const offlineHttpClient: HttpClient.HttpClient = HttpClient.make((request) =>
  Effect.fail(
    new HttpClientError.HttpClientError({
      reason: new HttpClientError.TransportError({ request, description: "offline: no network in this environment" })
    })
  )
)

/** The offline HttpClient as a layer: the default of test layers, so tests never reach the network by accident. */
export const offlineHttpClientLayer: Layer.Layer<HttpClient.HttpClient> = Layer.succeed(HttpClient.HttpClient)(offlineHttpClient)
