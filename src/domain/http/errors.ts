/**
 * The failures every hosted service answers with, as HTTP API error schemas (`effect/http-api`): one declaration
 * that the server encodes, the clients decode and the OpenAPI document lists. JSON failures are `{ error }` in the
 * visitor's words, each class at its own status (so the status tells which one it is); the two authorisation
 * failures are the hosted service's plain-text bodies, which the modal maps onto its alerts (spec 8).
 */
import { Schema } from "effect"
import { HttpApiSchema } from "effect/http-api"
import { UNAUTHORIZED_INVALID_KEY, UNAUTHORIZED_ORIGIN_NOT_ALLOWED } from "../ApiShared"

/** 400: the request is malformed; `error` names the part and field (`Invalid query: … at ["page"]`). */
export class BadRequest extends Schema.Error<BadRequest>("BadRequest")({ error: Schema.String }, { httpApiStatus: 400 }) {}

/** 403 (JSON): the caller may not do this (a nonce not theirs, a signature not the account's). */
export class Forbidden extends Schema.Error<Forbidden>("Forbidden")({ error: Schema.String }, { httpApiStatus: 403 }) {}

/** 404: nothing at this address. */
export class NotFound extends Schema.Error<NotFound>("NotFound")({ error: Schema.String }, { httpApiStatus: 404 }) {}

/** 413: the request body is larger than the server takes. */
export class PayloadTooLarge extends Schema.Error<PayloadTooLarge>("PayloadTooLarge")(
  { error: Schema.String },
  { httpApiStatus: 413 }
) {}

/** 502: a chain or upstream the answer depends on could not be reached. */
export class BadGateway extends Schema.Error<BadGateway>("BadGateway")({ error: Schema.String }, { httpApiStatus: 502 }) {}

/**
 * 503: the service cannot answer now (its database is restarting, or the answer took longer than the route's time
 * limit); sent with a `Retry-After` header in seconds. Nothing was changed: the request can be sent again.
 */
export class Unavailable extends Schema.Error<Unavailable>("Unavailable")({ error: Schema.String }, { httpApiStatus: 503 }) {}

/**
 * 501: this server does not offer the feature (swaps, on-ramp); the endpoint is declared so that clients and the
 * OpenAPI document know it, and a server that adds the feature answers it.
 */
export class NotImplemented extends Schema.Error<NotImplemented>("NotImplemented")(
  { error: Schema.String },
  { httpApiStatus: 501 }
) {}

/** 401 (plain text `Unauthorized: invalid key`): the projectId is unknown; the modal shows 'Invalid Project ID'. */
export const InvalidKey = Schema.Literal(UNAUTHORIZED_INVALID_KEY).pipe(HttpApiSchema.status(401), HttpApiSchema.asText())

/**
 * 403 (plain text `Unauthorized: origin not allowed`): the page's origin is not one its project allows; the modal
 * shows 'Invalid App Configuration'.
 */
export const OriginNotAllowed = Schema.Literal(UNAUTHORIZED_ORIGIN_NOT_ALLOWED).pipe(
  HttpApiSchema.status(403),
  HttpApiSchema.asText()
)
