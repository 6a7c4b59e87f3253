/**
 * The wallet server's OpenID Connect client (`server/src/embedded/server/social.ts`) against a fake provider given as
 * its transport (discovery, JWKS and token endpoint answered in memory, ID tokens signed here with RS256): a good ID
 * token logs in, and each bad one is refused — signed by another key, expired, or with another nonce, audience or
 * issuer — as is a callback whose state is not the login's. Plain OAuth 2 profiles decode per provider.
 */
import { createHash, generateKeyPairSync, type KeyObject, sign } from "node:crypto"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Redacted } from "effect"
import {
  authorizationUrl,
  completeLogin,
  makeProviderMetadataCache,
  PROVIDER_METADATA_TTL_MS,
  secretsOf,
  type SocialClientConfig
} from "../../../server/src/embedded/server/social"

const ISSUER = "https://idp.unit.test"
const CLIENT = "wallet-client"
const REDIRECT = "https://frame.unit.test/social/callback"
const masterKey = new Uint8Array(32).fill(7)
const secrets = secretsOf(masterKey, "state-of-this-login")
const NOW = Date.now()

const b64 = (value: unknown) => Buffer.from(typeof value === "string" ? value : JSON.stringify(value)).toString("base64url")
const keyOf = () => generateKeyPairSync("rsa", { modulusLength: 2048 })
const good = keyOf()
const other = keyOf()

const idToken = (key: KeyObject, claims: Record<string, unknown>) => {
  const body = `${b64({ alg: "RS256", kid: "k1", typ: "JWT" })}.${b64(claims)}`
  return `${body}.${sign("sha256", Buffer.from(body), key).toString("base64url")}`
}

const claimsNow = (extra: Record<string, unknown> = {}) => ({
  iss: ISSUER,
  aud: CLIENT,
  sub: "subject-1",
  preferred_username: "alice",
  nonce: secrets.nonce,
  iat: Math.floor(NOW / 1000),
  exp: Math.floor(NOW / 1000) + 300,
  ...extra
})

// The provider: its metadata, its JWKS (the good key only), and a token endpoint answering `token`.
const provider = (token: string, seen: Array<string> = []) => async (url: string, init: RequestInit): Promise<Response> => {
  const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json" } })
  const path = new URL(url).pathname
  seen.push(path)
  if (path === "/.well-known/openid-configuration") {
    return json({
      issuer: ISSUER,
      authorization_endpoint: `${ISSUER}/auth`,
      token_endpoint: `${ISSUER}/token`,
      jwks_uri: `${ISSUER}/jwks`,
      id_token_signing_alg_values_supported: ["RS256"]
    })
  }
  if (path === "/jwks") return json({ keys: [{ ...good.publicKey.export({ format: "jwk" }), kid: "k1", alg: "RS256", use: "sig" }] })
  if (path === "/token") {
    const body = new URLSearchParams(String(init.body))
    // PKCE: the verifier sent is the one derived from the state.
    expect(body.get("code_verifier")).toBe(secrets.codeVerifier)
    expect(body.get("client_secret")).toBe("s3cret")
    return json({ access_token: "at", token_type: "Bearer", expires_in: 300, id_token: token })
  }
  return new Response("not found", { status: 404 })
}

const config: SocialClientConfig = { issuer: ISSUER, clientId: CLIENT, clientSecret: Redacted.make("s3cret") }
const callback = (state = secrets.state) => new URL(`${REDIRECT}?code=the-code&state=${state}`)

const login = (token: string, opts: { readonly state?: string; readonly now?: number } = {}) =>
  completeLogin("google", config, callback(opts.state), REDIRECT, secrets, { fetch: provider(token), now: () => opts.now ?? NOW })

const refusal = (token: string, opts: { readonly state?: string; readonly now?: number } = {}) =>
  login(token, opts).pipe(
    Effect.flip,
    Effect.map((error) => ({ kind: error.kind, message: error.message }))
  )

describe("ID tokens", () => {
  it.effect("a token signed by the issuer's key with the right iss, aud, nonce and exp logs the subject in", () =>
    Effect.gen(function* () {
      expect(yield* login(idToken(good.privateKey, claimsNow()))).toEqual({ subject: "subject-1", username: "alice" })
    })
  )

  it.effect("a forged token (signed by another key) is refused", () =>
    Effect.gen(function* () {
      const error = yield* refusal(idToken(other.privateKey, claimsNow()))
      expect(error.kind).toBe("invalid")
      expect(error.message).toMatch(/^The provider's ID token was refused: .*signature/i)
    })
  )

  it.effect("a token whose payload was changed after signing is refused", () =>
    Effect.gen(function* () {
      const [header, , signature] = idToken(good.privateKey, claimsNow()).split(".")
      const error = yield* refusal(`${header}.${b64(claimsNow({ sub: "someone-else" }))}.${signature}`)
      expect(error.message).toMatch(/signature/i)
    })
  )

  it.effect("an expired token is refused (by the server's clock)", () =>
    Effect.gen(function* () {
      const token = idToken(good.privateKey, claimsNow())
      const error = yield* refusal(token, { now: NOW + 10 * 60_000 })
      expect(error.message).toMatch(/"exp"/)
    })
  )

  for (const [claim, value, words] of [
    ["nonce", "another-nonce", /nonce/],
    ["aud", "another-client", /"aud"/],
    ["iss", "https://evil.unit.test", /"iss"/]
  ] as const) {
    it.effect(`a token with another ${claim} is refused`, () =>
      Effect.gen(function* () {
        const error = yield* refusal(idToken(good.privateKey, claimsNow({ [claim]: value })))
        expect(error.kind).toBe("invalid")
        expect(error.message).toMatch(words)
      })
    )
  }

  it.effect("a callback whose state is not this login's is refused before the code is exchanged", () =>
    Effect.gen(function* () {
      const seen: Array<string> = []
      const error = yield* completeLogin("google", config, callback("another-state"), REDIRECT, secrets, {
        fetch: provider(idToken(good.privateKey, claimsNow()), seen),
        now: () => NOW
      }).pipe(Effect.flip)
      expect(error.message).toMatch(/^The provider's answer does not belong to this login/)
      expect(seen).not.toContain("/token")
    })
  )
})

describe("the provider's metadata cache", () => {
  it.effect("discovery and JWKS are read once for many logins, and again once the entry is older than its bound", () =>
    Effect.gen(function* () {
      const seen: Array<string> = []
      const cache = makeProviderMetadataCache()
      let now = NOW
      const transport = { fetch: provider(idToken(good.privateKey, claimsNow()), seen), now: () => now, cache }
      const count = (path: string) => seen.filter((p) => p === path).length
      yield* authorizationUrl("google", config, REDIRECT, secrets, transport)
      yield* completeLogin("google", config, callback(), REDIRECT, secrets, transport)
      now += 60_000
      yield* completeLogin("google", config, callback(), REDIRECT, secrets, transport)
      expect(count("/.well-known/openid-configuration")).toBe(1)
      expect(count("/jwks")).toBe(1)
      expect(count("/token")).toBe(2)
      // Past the bound (the token checked at that time is one of that time).
      now = NOW + PROVIDER_METADATA_TTL_MS
      const later = { ...transport, fetch: provider(idToken(good.privateKey, claimsNow({ iat: Math.floor(now / 1000), exp: Math.floor(now / 1000) + 300 })), seen) }
      yield* completeLogin("google", config, callback(), REDIRECT, secrets, later)
      expect(count("/.well-known/openid-configuration")).toBe(2)
      expect(count("/jwks")).toBe(2)
    })
  )

  it.effect("a failed read is not kept: the next login reads the metadata again", () =>
    Effect.gen(function* () {
      const seen: Array<string> = []
      let down = true
      const flaky = async (url: string, init: RequestInit) => {
        if (down) {
          seen.push("down")
          return new Response("unavailable", { status: 503 })
        }
        return provider(idToken(good.privateKey, claimsNow()), seen)(url, init)
      }
      const transport = { fetch: flaky, now: () => NOW, cache: makeProviderMetadataCache() }
      const error = yield* authorizationUrl("google", config, REDIRECT, secrets, transport).pipe(Effect.flip)
      expect(error.message).toMatch(/^The provider's metadata could not be read/)
      down = false
      const url = yield* authorizationUrl("google", config, REDIRECT, secrets, transport)
      expect(url.origin).toBe(ISSUER)
      expect(seen).toEqual(["down", "/.well-known/openid-configuration"])
    })
  )
})

describe("secrets", () => {
  it("the nonce and PKCE verifier are derived from the state under the master key: another state or key gives others", () => {
    expect(secretsOf(masterKey, "a")).toEqual(secretsOf(masterKey, "a"))
    expect(secretsOf(masterKey, "a").nonce).not.toBe(secretsOf(masterKey, "b").nonce)
    expect(secretsOf(new Uint8Array(32).fill(8), "a").codeVerifier).not.toBe(secretsOf(masterKey, "a").codeVerifier)
    expect(secretsOf(masterKey, "a").codeVerifier).toMatch(/^[\w-]{43}$/)
    expect(createHash("sha256").update(secrets.codeVerifier).digest("base64url")).toHaveLength(43)
  })
})

describe("plain OAuth 2 profiles", () => {
  const oauthConfig: SocialClientConfig = {
    authorizationEndpoint: `${ISSUER}/authorize`,
    tokenEndpoint: `${ISSUER}/token`,
    userinfoEndpoint: `${ISSUER}/userinfo`,
    clientId: CLIENT,
    clientSecret: Redacted.make("s3cret")
  }
  const withProfile = (profile: unknown) => async (url: string, init: RequestInit): Promise<Response> => {
    const path = new URL(url).pathname
    if (path === "/token") return provider("")(url, init).then(async () => new Response(JSON.stringify({ access_token: "at", token_type: "bearer" }), { status: 200, headers: { "content-type": "application/json" } }))
    if (path === "/userinfo") return new Response(JSON.stringify(profile), { status: 200, headers: { "content-type": "application/json" } })
    return new Response("not found", { status: 404 })
  }
  const cases = [
    ["github", { id: 42, login: "octo" }, { subject: "42", username: "octo" }],
    ["discord", { id: "80351110224678912", username: "nelly" }, { subject: "80351110224678912", username: "nelly" }],
    ["x", { data: { id: "2244994945", username: "xdev", name: "X Dev" } }, { subject: "2244994945", username: "xdev" }],
    ["facebook", { id: "10", name: "Face Book" }, { subject: "10", username: "Face Book" }]
  ] as const
  for (const [name, profile, identity] of cases) {
    it.effect(`${name}: its userinfo shape gives the subject and name`, () =>
      Effect.gen(function* () {
        const result = yield* completeLogin(name, oauthConfig, callback(), REDIRECT, secrets, { fetch: withProfile(profile), now: () => NOW })
        expect(result).toEqual(identity)
      })
    )
  }
  it.effect("a profile of another shape (GitHub's answer for discord) is refused", () =>
    Effect.gen(function* () {
      const error = yield* completeLogin("discord", oauthConfig, callback(), REDIRECT, secrets, {
        fetch: withProfile({ id: 42, login: "octo" }),
        now: () => NOW
      }).pipe(Effect.flip)
      expect(error.message).toBe("The provider's profile is not a discord profile")
    })
  )
})
