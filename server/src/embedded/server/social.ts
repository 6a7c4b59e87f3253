/**
 * The wallet server as an OpenID Connect / OAuth 2 client of the social identity providers (google, x, discord,
 * github, apple, facebook), on `oauth4webapi` (panva): the authorization code flow with PKCE (S256), `state` and
 * `nonce`. A provider configured with an `issuer` is OpenID Connect: its metadata comes from discovery, the ID token
 * is required and verified against the issuer's JWKS (signature, `iss`, `aud`, `exp`, `nonce`), and the user is its
 * `sub`. A provider configured with endpoints is plain OAuth 2: the profile comes from its userinfo endpoint, in the
 * provider's own shape (GitHub's `{ id, login }`, Discord's `{ id, username }`, X's `{ data: { id, username } }`,
 * Facebook's `{ id, name }`). Either way the user is keyed by provider plus subject.
 *
 * The PKCE verifier and the nonce are not stored: both are an HMAC of the `state` under the server's master key, so
 * the database keeps only the state's hash.
 */
import { createHmac } from "node:crypto"
import * as oauth from "oauth4webapi"
import { Data, Effect, Redacted, Schema } from "effect"
import type { SocialProvider } from "../../../../src/domain/Account"

/** How the host configured one provider for one project: its issuer (OIDC) or its endpoints (plain OAuth 2). */
export interface SocialClientConfig {
  /** OpenID Connect: the issuer, whose `/.well-known/openid-configuration` gives the rest. */
  readonly issuer?: string
  /** Plain OAuth 2 (without `issuer`): the authorization, token and userinfo endpoints. */
  readonly authorizationEndpoint?: string
  readonly tokenEndpoint?: string
  readonly userinfoEndpoint?: string
  readonly clientId: string
  readonly clientSecret: Redacted.Redacted<string>
  /** The scopes asked for; each provider's usual ones by default ({@link defaultScopes}). */
  readonly scopes?: ReadonlyArray<string>
}

/** The scopes asked of each provider when the configuration names none. */
export const defaultScopes: Readonly<Record<SocialProvider, { readonly oidc: ReadonlyArray<string>; readonly oauth: ReadonlyArray<string> }>> = {
  google: { oidc: ["openid", "email", "profile"], oauth: ["profile"] },
  apple: { oidc: ["openid", "email", "name"], oauth: ["name"] },
  x: { oidc: ["openid", "profile"], oauth: ["users.read", "tweet.read"] },
  discord: { oidc: ["openid", "identify"], oauth: ["identify"] },
  github: { oidc: ["openid", "profile"], oauth: ["read:user"] },
  facebook: { oidc: ["openid", "public_profile"], oauth: ["public_profile"] }
}

/** Why a social login was refused: `invalid` (the callback or the provider's answer fails a check), `unavailable`. */
export class SocialLoginError extends Data.TaggedError("SocialLoginError")<{
  readonly kind: "invalid" | "unavailable"
  readonly message: string
}> {}

/** Who logged in: the provider's subject and a name to show. */
export interface SocialIdentity {
  readonly subject: string
  readonly username: string
}

/** What ties a callback to the login that started it: the state, and what the server derives from it. */
export interface SocialSecrets {
  readonly state: string
  readonly nonce: string
  readonly codeVerifier: string
}

const b64url = (bytes: Buffer) => bytes.toString("base64url")

/** The nonce and PKCE verifier of `state` (43 url-safe characters each), derived under the master key. */
export const secretsOf = (masterKey: Uint8Array, state: string): SocialSecrets => ({
  state,
  nonce: b64url(createHmac("sha256", masterKey).update(`social-nonce|${state}`).digest()),
  codeVerifier: b64url(createHmac("sha256", masterKey).update(`social-pkce|${state}`).digest())
})

const isLoopbackUrl = (text: string | undefined): boolean => {
  if (text === undefined) return false
  const host = new URL(text).hostname
  return host === "127.0.0.1" || host === "localhost" || host === "[::1]"
}

/** How long a provider's discovered metadata, and the JWKS read with it, are used before they are read again. */
export const PROVIDER_METADATA_TTL_MS = 10 * 60_000

/** A provider's metadata as cached: when it was read, and the JWKS cache `oauth4webapi` keeps beside it. */
interface CachedProvider {
  readonly server: oauth.AuthorizationServer
  readonly readAt: number
  readonly jwks: oauth.JWKSCacheInput
}

/**
 * The wallet server's cache of each issuer's discovery document and JWKS, so a login does not fetch them again: an
 * entry lasts {@link PROVIDER_METADATA_TTL_MS} by the server's clock (its JWKS also at most oauth4webapi's 300 s,
 * and is read again at once when a token names a key it lacks); a failed read is not kept. One entry per configured
 * issuer, so it is bounded by the configuration.
 */
export interface ProviderMetadataCache {
  readonly get: (issuer: string, now: number) => CachedProvider | undefined
  readonly set: (issuer: string, server: oauth.AuthorizationServer, now: number) => CachedProvider
}

/** An empty {@link ProviderMetadataCache} whose entries last `ttlMs`. */
export const makeProviderMetadataCache = (ttlMs: number = PROVIDER_METADATA_TTL_MS): ProviderMetadataCache => {
  const entries = new Map<string, CachedProvider>()
  return {
    get: (issuer, now) => {
      const entry = entries.get(issuer)
      if (entry === undefined || now - entry.readAt >= ttlMs || now < entry.readAt) {
        entries.delete(issuer)
        return undefined
      }
      return entry
    },
    set: (issuer, server, now) => {
      const entry: CachedProvider = { server, readAt: now, jwks: {} }
      entries.set(issuer, entry)
      return entry
    }
  }
}

/** What each call to the provider needs: plain http only for a provider on loopback (the local stack's). */
export interface SocialTransport {
  /** The fetch to reach the provider with (default the global one). */
  readonly fetch?: (url: string, init: RequestInit) => Promise<Response>
  /** The server's clock in ms: ID tokens' `exp` and `iat` are judged by it, and the cache's entries age by it. */
  readonly now: () => number
  /** Where discovery documents and JWKS are kept between logins; without it, every login reads them. */
  readonly cache?: ProviderMetadataCache
}

const optionsFor = (config: SocialClientConfig, transport: SocialTransport) => {
  const insecure = isLoopbackUrl(config.issuer ?? config.authorizationEndpoint)
  return {
    ...(insecure ? { [oauth.allowInsecureRequests]: true } : {}),
    ...(transport.fetch === undefined
      ? {}
      : { [oauth.customFetch]: (url: string, init: oauth.CustomFetchOptions<string, unknown>) => transport.fetch!(url, init as RequestInit) }),
    signal: AbortSignal.timeout(10_000)
  }
}

const isOidc = (config: SocialClientConfig): boolean => config.issuer !== undefined

const scopesOf = (provider: SocialProvider, config: SocialClientConfig): string =>
  (config.scopes ?? (isOidc(config) ? defaultScopes[provider].oidc : defaultScopes[provider].oauth)).join(" ")

const reason = (cause: unknown): string => (cause instanceof Error ? cause.message : String(cause))

const serverOf = (config: SocialClientConfig, transport: SocialTransport): Effect.Effect<CachedProvider, SocialLoginError> => {
  if (config.issuer === undefined) {
    const { authorizationEndpoint, tokenEndpoint, userinfoEndpoint } = config
    if (authorizationEndpoint === undefined || tokenEndpoint === undefined || userinfoEndpoint === undefined) {
      return Effect.fail(new SocialLoginError({ kind: "unavailable", message: "The provider is configured without an issuer nor its endpoints" }))
    }
    return Effect.succeed({
      server: {
        issuer: new URL(authorizationEndpoint).origin,
        authorization_endpoint: authorizationEndpoint,
        token_endpoint: tokenEndpoint,
        userinfo_endpoint: userinfoEndpoint
      },
      readAt: transport.now(),
      jwks: {}
    })
  }
  const issuer = config.issuer
  const known = transport.cache?.get(issuer, transport.now())
  if (known !== undefined) return Effect.succeed(known)
  return Effect.tryPromise({
    try: async () => {
      const url = new URL(issuer)
      const response = await oauth.discoveryRequest(url, { ...optionsFor(config, transport), algorithm: "oidc" })
      return oauth.processDiscoveryResponse(url, response)
    },
    catch: (cause) => new SocialLoginError({ kind: "unavailable", message: `The provider's metadata could not be read: ${reason(cause)}` })
  }).pipe(
    Effect.map((server) => transport.cache?.set(issuer, server, transport.now()) ?? { server, readAt: transport.now(), jwks: {} })
  )
}

/** The provider's authorization URL for a login started with `secrets`, coming back to `redirectUri`. */
export const authorizationUrl = Effect.fn("Social.authorizationUrl")(function* (
  provider: SocialProvider,
  config: SocialClientConfig,
  redirectUri: string,
  secrets: SocialSecrets,
  transport: SocialTransport
) {
  const { server } = yield* serverOf(config, transport)
  if (server.authorization_endpoint === undefined) {
    return yield* new SocialLoginError({ kind: "unavailable", message: "The provider names no authorization endpoint" })
  }
  const challenge = yield* Effect.promise(() => oauth.calculatePKCECodeChallenge(secrets.codeVerifier))
  const url = new URL(server.authorization_endpoint)
  url.searchParams.set("client_id", config.clientId)
  url.searchParams.set("redirect_uri", redirectUri)
  url.searchParams.set("response_type", "code")
  url.searchParams.set("scope", scopesOf(provider, config))
  url.searchParams.set("state", secrets.state)
  url.searchParams.set("code_challenge", challenge)
  url.searchParams.set("code_challenge_method", "S256")
  if (isOidc(config)) url.searchParams.set("nonce", secrets.nonce)
  return url
})

// The profile each plain-OAuth provider's userinfo answers, and the subject and name in it.
const profileOf: Readonly<Record<SocialProvider, (body: unknown) => SocialIdentity | undefined>> = (() => {
  const decode = <S extends Schema.Top & { readonly DecodingServices: never }>(schema: S, pick: (value: S["Type"]) => SocialIdentity) =>
    (body: unknown): SocialIdentity | undefined => {
      const decoded = Schema.decodeUnknownOption(schema)(body)
      return decoded._tag === "Some" ? pick(decoded.value) : undefined
    }
  const Id = Schema.Union([Schema.String, Schema.Finite]).pipe(Schema.check(Schema.makeFilter((id: string | number) => String(id) !== "")))
  const oidcLike = decode(
    Schema.Struct({ sub: Schema.NonEmptyString, preferred_username: Schema.optionalKey(Schema.String), name: Schema.optionalKey(Schema.String), email: Schema.optionalKey(Schema.String) }),
    (p) => ({ subject: p.sub, username: p.preferred_username ?? p.name ?? p.email ?? p.sub })
  )
  return {
    google: oidcLike,
    apple: oidcLike,
    github: decode(Schema.Struct({ id: Id, login: Schema.NonEmptyString }), (p) => ({ subject: String(p.id), username: p.login })),
    discord: decode(Schema.Struct({ id: Id, username: Schema.NonEmptyString }), (p) => ({ subject: String(p.id), username: p.username })),
    x: decode(Schema.Struct({ data: Schema.Struct({ id: Id, username: Schema.NonEmptyString }) }), (p) => ({ subject: String(p.data.id), username: p.data.username })),
    facebook: decode(Schema.Struct({ id: Id, name: Schema.NonEmptyString }), (p) => ({ subject: String(p.id), username: p.name }))
  }
})()

const IdTokenClaims = Schema.Struct({
  sub: Schema.NonEmptyString,
  preferred_username: Schema.optionalKey(Schema.String),
  name: Schema.optionalKey(Schema.String),
  email: Schema.optionalKey(Schema.String)
})

const invalid = (message: string) => (cause: unknown) =>
  new SocialLoginError({
    kind: cause instanceof oauth.ResponseBodyError || cause instanceof oauth.AuthorizationResponseError || cause instanceof oauth.OperationProcessingError ? "invalid" : "unavailable",
    message: `${message}: ${reason(cause)}`
  })

/**
 * Finishes a login from the provider's callback URL: checks `state` (and `iss` when the provider sends it),
 * exchanges the code with the PKCE verifier, then verifies the ID token (OIDC) or reads the userinfo (plain OAuth).
 */
export const completeLogin = Effect.fn("Social.completeLogin")(function* (
  provider: SocialProvider,
  config: SocialClientConfig,
  callbackUrl: URL,
  redirectUri: string,
  secrets: SocialSecrets,
  transport: SocialTransport
) {
  const metadata = yield* serverOf(config, transport)
  const server = metadata.server
  const skew = Math.round((transport.now() - Date.now()) / 1000)
  const client: oauth.Client = { client_id: config.clientId, [oauth.clockSkew]: skew }
  const auth = oauth.ClientSecretPost(Redacted.value(config.clientSecret))
  const options = optionsFor(config, transport)
  const params = yield* Effect.try({
    try: () => oauth.validateAuthResponse(server, client, callbackUrl.searchParams, secrets.state),
    catch: (cause) =>
      new SocialLoginError({
        kind: "invalid",
        message:
          cause instanceof oauth.AuthorizationResponseError
            ? `The provider refused the login: ${cause.error_description ?? cause.error}`
            : `The provider's answer does not belong to this login: ${reason(cause)}`
      })
  })
  const response = yield* Effect.tryPromise({
    try: () => oauth.authorizationCodeGrantRequest(server, client, auth, params, redirectUri, secrets.codeVerifier, options),
    catch: invalid("The code could not be exchanged at the provider")
  })
  if (isOidc(config)) {
    const result = yield* Effect.tryPromise({
      try: () => oauth.processAuthorizationCodeResponse(server, client, response, { expectedNonce: secrets.nonce, requireIdToken: true }),
      catch: invalid("The provider's ID token was refused")
    })
    yield* Effect.tryPromise({
      try: () => oauth.validateApplicationLevelSignature(server, response, { ...options, [oauth.jwksCache]: metadata.jwks }),
      catch: invalid("The provider's ID token was refused")
    })
    const claims = yield* Schema.decodeUnknownEffect(IdTokenClaims)(oauth.getValidatedIdTokenClaims(result)).pipe(
      Effect.mapError(() => new SocialLoginError({ kind: "invalid", message: "The provider's ID token has no subject" }))
    )
    return { subject: claims.sub, username: claims.preferred_username ?? claims.name ?? claims.email ?? claims.sub } satisfies SocialIdentity
  }
  const tokens = yield* Effect.tryPromise({
    try: () => oauth.processAuthorizationCodeResponse(server, client, response),
    catch: invalid("The provider's token answer was refused")
  })
  const body = yield* Effect.tryPromise({
    try: async () => {
      const answer = await oauth.userInfoRequest(server, client, tokens.access_token, options)
      if (!answer.ok) throw new oauth.OperationProcessingError(`userinfo answered HTTP ${answer.status}`)
      return (await answer.json()) as unknown
    },
    catch: invalid("The provider's profile could not be read")
  })
  const identity = profileOf[provider](body)
  if (identity === undefined) return yield* new SocialLoginError({ kind: "invalid", message: `The provider's profile is not a ${provider} profile` })
  return identity
})
