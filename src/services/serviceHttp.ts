/**
 * What every call to the hosted services (wallet catalogue, blockchain API, analytics) shares: the SDK's name and
 * version they are told, the time bound of one call, and how a call fails — 'HTTP status code: N' for a non-OK answer
 * (spec 7.7, `HttpStatusError`), the service unreachable, or its answer not the declared one. The calls themselves go
 * through the clients derived from the services' declaration (`serviceCalls.ts`), or the modal's own calls of the
 * catalogue's pages and of analytics (`catalogueWallets.ts`, `analyticsCalls.ts`); all read
 * answers through `boundedServiceClient.ts`.
 */
import { Effect, Layer, Schema } from "effect"
import * as HttpClient from "effect/http/HttpClient"
import * as HttpClientError from "effect/http/HttpClientError"
import type { HttpStatusError } from "../domain/errors"
import { TaggedError } from "../domain/taggedError"

/** The SDK type sent to the catalogue (`st`) and the image endpoints. */
export const SDK_TYPE = "wallet-runtime"
/** The SDK version sent to the catalogue (`sv`). */
export const SDK_VERSION = "0.1.0"

/** A service whose whole answer (headers and body) has not arrived after this long is treated as unreachable. */
export const SERVICE_REQUEST_TIMEOUT_MS = 10_000

/**
 * The service could not be reached: offline, refused, blocked by the browser, or no answer in time; or the request
 * could not be made (one the services' declaration refuses is never sent).
 */
export class ServiceUnreachable extends TaggedError<ServiceUnreachable>()("ServiceUnreachable", {
  url: Schema.String,
  reason: Schema.String
}) {
  override get message() {
    return `Could not reach ${this.url}: ${this.reason}`
  }
}

/** The service answered 2xx with a body that is not the declared answer (not JSON, or not of its Schema). */
export class ServiceAnswerInvalid extends TaggedError<ServiceAnswerInvalid>()("ServiceAnswerInvalid", {
  url: Schema.String,
  issue: Schema.String
}) {
  override get message() {
    return `Unexpected answer from ${this.url}: ${this.issue}`
  }
}

/** Why a call to a hosted service failed. */
export type ServiceError = HttpStatusError | ServiceUnreachable | ServiceAnswerInvalid

/** One call's exchange: the address its request went to, once it went (set by the bounded client, `boundedServiceClient.ts`). */
export interface Exchange {
  url: string | undefined
}

/**
 * One call to a hosted service, whichever way it is made: its whole exchange (its code's fetch on a first call, the
 * headers and the body) bounded by SERVICE_REQUEST_TIMEOUT_MS, so a service that stalls fails the call and the caller's
 * fallback follows; and no trace headers, which would turn every simple GET into a CORS preflight the hosted services
 * need not allow.
 */
export const boundedCall = <A>(baseUrl: string, call: (exchange: Exchange) => Effect.Effect<A, ServiceError>): Effect.Effect<A, ServiceError> =>
  Effect.suspend(() => {
    const exchange: Exchange = { url: undefined }
    return call(exchange).pipe(
      Effect.timeoutOrElse({
        duration: SERVICE_REQUEST_TIMEOUT_MS,
        orElse: () =>
          Effect.fail(new ServiceUnreachable({ url: exchange.url ?? baseUrl, reason: `no answer in ${SERVICE_REQUEST_TIMEOUT_MS} ms` }))
      }),
      Effect.provideService(HttpClient.TracerPropagationEnabled, false)
    )
  })

/**
 * Calls through a module of calls fetched with `import()` on the first call and kept (`load` fetches it and makes the
 * calls): each call, that fetch included, is one `boundedCall`. Only calls that loaded are kept: a page that could not
 * fetch them (a network blip) tries again on the next call.
 */
export const lazyCalls = <Calls>(baseUrl: string, load: () => Promise<Calls>) => {
  let loaded: Calls | undefined
  const calls = Effect.suspend(() =>
    loaded !== undefined
      ? Effect.succeed(loaded)
      : Effect.tryPromise({
        try: load,
        catch: (cause) => new ServiceUnreachable({ url: baseUrl, reason: `its client could not be loaded: ${String(cause)}` })
      }).pipe(Effect.map((made) => (loaded ??= made)))
  )
  return <A>(call: (calls: Calls, exchange: Exchange) => Effect.Effect<A, ServiceError>): Effect.Effect<A, ServiceError> =>
    boundedCall(baseUrl, (exchange) => Effect.flatMap(calls, (made) => call(made, exchange)))
}

/** Joins a base URL (which may carry a path prefix) and a path starting with `/`. */
export const serviceUrl = (baseUrl: string, path: string): string => `${baseUrl.replace(/\/+$/, "")}${path}`

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
