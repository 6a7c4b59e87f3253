/**
 * Sign-in sessions (spec 7.4, with our extensions: the nonces and keeping a session) as an HTTP API group, under
 * `/v1/sessions/{CAIP-10 account}`. `POST /v1/sessions/nonce` (one-click sign-in, where the account is known only once
 * the wallet answers) is a literal path: the router prefers it to `/v1/sessions/:address`.
 */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import {
  AddSessionBody,
  ProjectQuery,
  RemoteSiwxSession,
  RevokeSessionBody,
  RevokeSessionResponse,
  SessionNonceResponse,
  SessionsPath,
  SessionsResponse
} from "../Api"
import { BadGateway, BadRequest, Forbidden, NotFound } from "./errors"
import { ProjectAuth } from "./middleware"

/** The session endpoints. */
export const SessionsGroup = HttpApiGroup.make("sessions")
  .add(
    HttpApiEndpoint.post("anyAccountNonce", "/v1/sessions/nonce", { query: ProjectQuery, success: SessionNonceResponse }).annotate(
      OpenApi.Summary,
      "Our extension: a nonce bound to no account, which each account may use once within its 10 minutes (one-click sign-in)"
    )
  )
  .add(
    HttpApiEndpoint.post("nonce", "/v1/sessions/:address/nonce", {
      params: SessionsPath,
      query: ProjectQuery,
      success: SessionNonceResponse,
      error: BadRequest
    }).annotate(OpenApi.Summary, "Our extension: a nonce for the account's next sign-in message, accepted once within 10 minutes")
  )
  .add(
    HttpApiEndpoint.post("add", "/v1/sessions/:address", {
      params: SessionsPath,
      query: ProjectQuery,
      payload: AddSessionBody,
      success: RemoteSiwxSession,
      error: [BadRequest, Forbidden, BadGateway]
    }).annotate(
      OpenApi.Summary,
      "Our extension: keeps a signed sign-in message as a session once its text, nonce, times and signature hold"
    )
  )
  .add(
    HttpApiEndpoint.get("list", "/v1/sessions/:address", {
      params: SessionsPath,
      query: ProjectQuery,
      success: SessionsResponse,
      error: BadRequest
    }).annotate(OpenApi.Summary, "The account's sessions that are neither expired nor revoked")
  )
  .add(
    HttpApiEndpoint.post("revoke", "/v1/sessions/:address/revoke", {
      params: SessionsPath,
      query: ProjectQuery,
      payload: RevokeSessionBody,
      success: RevokeSessionResponse,
      error: [BadRequest, Forbidden, NotFound]
    }).annotate(OpenApi.Summary, "Revokes a session, given the proof of holding it (its revocation key, or its signature)")
  )
  .middleware(ProjectAuth)
