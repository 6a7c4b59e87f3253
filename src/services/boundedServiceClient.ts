/**
 * The modal's rules for every answer of the hosted services, as an HttpClient: the base URL is put first, the body is
 * read within a size cap, a non-2xx answer is 'HTTP status code: N' with the start of its body (the authorisation
 * texts raise their alerts), a transport failure is ServiceUnreachable and an answer that is not the declared one
 * ServiceAnswerInvalid. Both ways of calling the services go through it: the clients derived from the declaration
 * (`servicesApiClient.ts`) and the calls the modal makes on its first open without them (`declaredCall`: the
 * catalogue's pages, `catalogueWallets.ts`, and analytics' config and events, `analyticsCalls.ts`). This module brings
 * no effect/http-api, so those calls do not fetch it.
 */
import { Context, Effect, Schema } from "effect"
import * as HttpClient from "effect/http/HttpClient"
import type * as HttpClientError from "effect/http/HttpClientError"
import * as HttpClientRequest from "effect/http/HttpClientRequest"
import * as HttpClientResponse from "effect/http/HttpClientResponse"
import { type Alert, alertForServiceError } from "../domain/alerts"
import { HttpStatusError } from "../domain/errors"
import { bodyProblemText, readBytesCapped, readTextCapped } from "./httpBody"
import { type Exchange, ServiceAnswerInvalid, type ServiceError, ServiceUnreachable } from "./serviceHttp"

/** Error bodies are kept this long at most (they end up in logs and error values). */
const MAX_ERROR_BODY = 300
/** At most this much of an error answer is read: the start is all that is kept. */
const MAX_ERROR_BODY_READ = 64 * 1024

/**
 * One call's exchange, as the bounded client reads it: the address its request went to, once it went. An answer the
 * declaration refuses, or a time-out, names that address; a call whose request never went out failed on the request
 * itself.
 */
export class ServiceExchange extends Context.Service<ServiceExchange, Exchange>()(
  "wallet-runtime/ServiceExchange"
) {}

/** The bounded HttpClient: the modal's rules for an answer, as failures of its own. */
type BoundedClient = HttpClient.HttpClient.With<HttpClientError.HttpClientError | ServiceError, ServiceExchange>

/** Where the services are and what reaches them. */
export interface ServicesClientOptions {
  /** The service's base URL (it may carry a path prefix). */
  readonly baseUrl: string
  readonly client: HttpClient.HttpClient
  /** Raises the alert an authorisation answer names ('Invalid Project ID', 'Invalid App Configuration'). */
  readonly raiseAlert: (alert: Alert) => Effect.Effect<unknown>
}

const statusError = (
  response: HttpClientResponse.HttpClientResponse,
  raiseAlert: ServicesClientOptions["raiseAlert"]
): Effect.Effect<never, HttpStatusError> =>
  Effect.gen(function* () {
    const text = yield* readTextCapped(response, MAX_ERROR_BODY_READ).pipe(Effect.orElseSucceed(() => ""))
    const body = text.slice(0, MAX_ERROR_BODY)
    const alert = alertForServiceError(body)
    if (alert !== undefined) yield* raiseAlert(alert)
    return yield* new HttpStatusError({ status: response.status, ...(body.length > 0 ? { body } : {}) })
  })

/**
 * The HttpClient the services are called through: a 2xx answer is read whole within the cap and handed on as if it had
 * just arrived, so no decoding ever reads an unbounded body; any other answer fails here with its status, before the
 * declaration's error Schemas would see it.
 */
export const boundedClient = (options: ServicesClientOptions): BoundedClient =>
  // The base URL is put first, so the HttpClient given (a host's, with its own request steps) sees whole addresses;
  // HttpApiClient's `baseUrl` would add it after them.
  HttpClient.transform(HttpClient.mapRequestInput(options.client, HttpClientRequest.prependUrl(options.baseUrl)), (answer, request) =>
    Effect.gen(function* () {
      const exchange = yield* ServiceExchange
      exchange.url = request.url
      const response = yield* Effect.mapError(answer, (error) => new ServiceUnreachable({ url: request.url, reason: error.message }))
      if (response.status < 200 || response.status >= 300) return yield* statusError(response, options.raiseAlert)
      const body = yield* readBytesCapped(response).pipe(
        Effect.mapError((problem) =>
          problem._tag === "TooLarge"
            ? new ServiceAnswerInvalid({ url: request.url, issue: bodyProblemText(problem) })
            : new ServiceUnreachable({ url: request.url, reason: bodyProblemText(problem) })
        )
      )
      // A 204 or 205 cannot carry a body (`Response` throws); whether one is acceptable is the declaration's call.
      const noContent = response.status === 204 || response.status === 205
      return HttpClientResponse.fromWeb(
        request,
        new Response(noContent ? null : body, { status: response.status, headers: response.headers })
      )
    })
  )

const isServiceError = (error: unknown): error is ServiceError =>
  error instanceof HttpStatusError || error instanceof ServiceUnreachable || error instanceof ServiceAnswerInvalid

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error))

/**
 * What a call through the bounded client failed with, as a ServiceError. The bounded client has already turned
 * transport failures and non-2xx answers into ServiceErrors, so once the request went out anything else is a 2xx
 * answer the declaration refuses (a body its Schema rejects, a status or content type it does not declare). Before, it
 * is a request the declaration refuses (a parameter its Schema rejects): it was not sent, as a request that cannot be
 * made never was.
 */
const serviceErrorOf = (error: unknown, exchange: Exchange, baseUrl: string): ServiceError =>
  isServiceError(error)
    ? error
    : exchange.url === undefined
      ? new ServiceUnreachable({ url: baseUrl, reason: `request not sent, the services' API refuses it: ${messageOf(error)}` })
      : new ServiceAnswerInvalid({ url: exchange.url, issue: messageOf(error) })

/**
 * Runs one call through the bounded client within `exchange`: every failure comes out as a ServiceError (see
 * `serviceErrorOf`).
 */
export const withinExchange = <A, R>(
  call: Effect.Effect<A, unknown, R>,
  exchange: Exchange,
  baseUrl: string
): Effect.Effect<A, ServiceError, Exclude<R, ServiceExchange>> =>
  call.pipe(
    Effect.mapError((error) => serviceErrorOf(error, exchange, baseUrl)),
    Effect.provideService(ServiceExchange, exchange)
  )

/**
 * One endpoint of the declaration asked as HttpApiClient asks it, without it: the request (its query and body encoded
 * by the endpoint's Schemas, or the reason it cannot be made) through the bounded client, and the endpoint's only
 * declared answer, a 200, decoded from JSON by `answer`. Every failure is a ServiceError (see `withinExchange`); the
 * caller puts the call within a `boundedCall`.
 */
export const declaredCall = <A, I>(options: ServicesClientOptions, answer: Schema.Codec<A, I>) => {
  const client = boundedClient(options)
  const decodeAnswer = Schema.decodeUnknownEffect(Schema.fromJsonString(Schema.toCodecJson(answer)))
  return (request: Effect.Effect<HttpClientRequest.HttpClientRequest, unknown>, exchange: Exchange): Effect.Effect<A, ServiceError> =>
    withinExchange(
      Effect.gen(function* () {
        const response = yield* client.execute(yield* request)
        // Another 2xx is not the declared answer (the derived client refuses it too).
        if (response.status !== 200) {
          return yield* new ServiceAnswerInvalid({ url: response.request.url, issue: `undeclared status code ${response.status}` })
        }
        return yield* decodeAnswer(yield* response.text)
      }),
      exchange,
      options.baseUrl
    )
}
