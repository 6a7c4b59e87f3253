/**
 * Account names (spec 7.4) as an HTTP API group: a name's record, an address's names, suggestions, and registering a
 * name with a signed message. Their refusals are the hosted name service's `{ reasons: [{ description }] }` bodies
 * (the client shows the first description), each kind at its own status.
 */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiMiddleware, OpenApi } from "effect/http-api"
import {
  NamePath,
  NameRecordResponse,
  NameSuggestionsQuery,
  NameSuggestionsResponse,
  ProjectQuery,
  RegisterNameBody,
  ReverseNamesPath,
  ReverseNamesResponse
} from "../Api"
import { ProjectAuth } from "./middleware"

const reasons = { reasons: Schema.NonEmptyArray(Schema.Struct({ description: Schema.String })) }

/** The body of a name refusal with one reason. */
export const nameRefusal = (description: string) => ({ reasons: [{ description }] as const })

/** 400: the registration, name, zone, coin type, chain, message or timestamp is not one this service takes. */
export class NameBadRequest extends Schema.Error<NameBadRequest>("NameBadRequest")(reasons, { httpApiStatus: 400 }) {}

/** 401: the signature is not the address's signature of the message. */
export class NameUnauthorized extends Schema.Error<NameUnauthorized>("NameUnauthorized")(reasons, { httpApiStatus: 401 }) {}

/** 404: no one holds the name. */
export class NameNotFound extends Schema.Error<NameNotFound>("NameNotFound")(reasons, { httpApiStatus: 404 }) {}

/** 409: someone holds the name already. */
export class NameConflict extends Schema.Error<NameConflict>("NameConflict")(reasons, { httpApiStatus: 409 }) {}

/**
 * A registration body that fails its Schema is refused in the name service's words (`Invalid registration: …`, a
 * 400 with `reasons`), as every other refusal of the name routes is.
 */
export class NamePayloadErrors extends HttpApiMiddleware.Service<NamePayloadErrors>()("wallet-runtime/http/NamePayloadErrors", {
  error: NameBadRequest
}) {}

/** The name endpoints; a name is `label.{zone}`, looked up by full name or label. */
export const NamesGroup = HttpApiGroup.make("names")
  .add(
    HttpApiEndpoint.get("record", "/v1/profile/account/:name", {
      params: NamePath,
      query: ProjectQuery,
      success: NameRecordResponse,
      error: NameNotFound
    }).annotate(OpenApi.Summary, "A name's record: the address it points to per coin type, and its attributes (404 when free)")
  )
  .add(
    HttpApiEndpoint.get("reverse", "/v1/profile/reverse/:address", {
      params: ReverseNamesPath,
      query: ProjectQuery,
      success: ReverseNamesResponse
    }).annotate(OpenApi.Summary, "The names of an address, its own name (the newest registered) first")
  )
  .add(
    HttpApiEndpoint.get("suggestions", "/v1/profile/suggestions/:name", {
      params: NamePath,
      query: NameSuggestionsQuery,
      success: NameSuggestionsResponse,
      error: NameBadRequest
    }).annotate(OpenApi.Summary, "The name asked (taken or not) and free variants of it, under the zone")
  )
  .add(
    HttpApiEndpoint.post("register", "/v1/profile/account", {
      query: ProjectQuery,
      payload: RegisterNameBody,
      success: NameRecordResponse,
      error: [NameBadRequest, NameUnauthorized, NameConflict]
    })
      .middleware(NamePayloadErrors)
      .annotate(
        OpenApi.Summary,
        "Registers a name: the JSON message {name, attributes, timestamp} signed by the address, checked on the chain of the coin type"
      )
  )
  .middleware(ProjectAuth)
