/**
 * Social login on the wallet server (issue 27) against the devstack's real identity providers (oidc-provider, one
 * issuer per provider on loopback) and a real database (PGlite): the authorization code flow with PKCE for each of the
 * six providers (google and apple as OpenID Connect with ID tokens checked against the issuer's JWKS; x, discord,
 * github and facebook as plain OAuth 2 with their userinfo shapes), users keyed by provider plus subject with the same
 * wallet as an email user, the callback page, and what is refused: a wrong or reused state, a state of another
 * device, a provider the project does not configure, a host origin the project does not allow.
 */
import { randomBytes } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { SOCIAL_PROVIDERS } from "../../src/domain/validation"
import { type Database, startDatabase } from "../../server/src/db/index"
import { startWalletServer, type WalletServerInfo } from "../../server/src/embedded/server/index"
import type { Started } from "../../server/src/lib/Started"
import type { DevProject } from "../../server/src/services/projects"
import { type IdentityInfo, socialsOf, startIdentityProviders } from "../../devstack/identity/index"
import { loginAtProvider } from "./support/identityProvider"
import { makeKeysAsFrame, walletApi } from "./support/walletServerClient"

const HOST = "http://127.0.0.1:5173"
let idps: Started<IdentityInfo>
let db: Started<Database>
let server: Started<WalletServerInfo>
let callbackPrefix = ""

beforeAll(async () => {
  ;[idps, db] = await Promise.all([startIdentityProviders(), startDatabase()])
  const projects: ReadonlyArray<DevProject> = [
    { projectId: "social-project", description: "every provider", allowedOrigins: "loopback", analyticsEnabled: false, socials: socialsOf(idps.info) },
    { projectId: "no-socials", description: "none", allowedOrigins: "loopback", analyticsEnabled: false }
  ]
  server = await startWalletServer({ masterKey: randomBytes(32), smtp: { port: 1 }, database: db.info, chains: { evm: [] }, projects })
  callbackPrefix = `${server.info.url}/social/callback`
  idps.info.setRedirectUri(callbackPrefix)
})

afterAll(async () => {
  await server?.stop()
  await Promise.all([db?.stop(), idps?.stop()])
})

const api = (projectId = "social-project") => walletApi(server.info.url, { projectId })

const start = async (client: ReturnType<typeof api>, provider: string, extra: Record<string, unknown> = {}) =>
  client.call("POST", "/api/social/start", { projectId: client.projectId, deviceId: client.deviceId, provider, hostOrigin: HOST, ...extra })

const finish = (client: ReturnType<typeof api>, uri: string) =>
  client.call("POST", "/api/social/finish", { projectId: client.projectId, deviceId: client.deviceId, uri })

describe("each provider logs a user in", () => {
  for (const provider of SOCIAL_PROVIDERS) {
    it(`${provider}: PKCE and state in the authorization URI, the login page, a session for the user it names, the same user next time`, async () => {
      const client = api()
      const started = await start(client, provider)
      expect(started.status).toBe(200)
      const uri = new URL(started.body["uri"] as string)
      expect(uri.origin).toBe(idps.info.providers[provider].issuer)
      expect(uri.searchParams.get("code_challenge_method")).toBe("S256")
      expect(uri.searchParams.get("code_challenge")).toMatch(/^[\w-]{43}$/)
      expect(uri.searchParams.get("redirect_uri")).toBe(callbackPrefix)
      // OpenID Connect providers get a nonce; plain OAuth 2 ones do not.
      expect(uri.searchParams.has("nonce")).toBe(idps.info.providers[provider].kind === "oidc")
      const account = `user-${provider}`
      const callback = await loginAtProvider(uri.href, account, callbackPrefix)
      // The callback page hands the address to the host's exact origin.
      const page = await fetch(callback)
      expect(page.status).toBe(200)
      expect(await page.text()).toContain(JSON.stringify(HOST).slice(1, -1))
      const done = await finish(client, callback.href)
      expect(done.status, JSON.stringify(done.body)).toBe(200)
      expect(done.body).toMatchObject({ provider, username: account })
      // The frame makes the new user's keys after the login (frameKeys.ts); the server made none.
      await makeKeysAsFrame(server.info.url, done.body["token"] as string, undefined, client.projectId)
      const user = await client.call("GET", "/api/user", undefined, { token: done.body["token"] as string })
      expect(user.status).toBe(200)
      expect(user.body).toMatchObject({ email: null, social: { provider, username: account } })
      expect(user.body["evmAddress"]).toMatch(/^0x[0-9a-fA-F]{40}$/)
      expect(user.body["solanaAddress"]).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/)

      // The same subject on another device is the same user (same addresses).
      const other = api()
      const again = await loginAtProvider((await start(other, provider)).body["uri"] as string, account, callbackPrefix)
      const second = await finish(other, again.href)
      expect(second.status).toBe(200)
      const sameUser = await other.call("GET", "/api/user", undefined, { token: second.body["token"] as string })
      expect(sameUser.body["evmAddress"]).toBe(user.body["evmAddress"])
    })
  }

  it("one name at two providers is two users (keyed by provider plus subject)", async () => {
    const addressAt = async (provider: string) => {
      const client = api()
      const callback = await loginAtProvider((await start(client, provider)).body["uri"] as string, "same-name", callbackPrefix)
      const done = await finish(client, callback.href)
      return (await makeKeysAsFrame(server.info.url, done.body["token"] as string, undefined, client.projectId)).evmAddress
    }
    expect(await addressAt("google")).not.toBe(await addressAt("github"))
  })
})

describe("the callback page", () => {
  it("is shown in the host's theme the frame passed on (dark), and allows only its own script", async () => {
    const client = api()
    const callback = await loginAtProvider((await start(client, "google", { themeMode: "dark" })).body["uri"] as string, "alice", callbackPrefix)
    const page = await fetch(callback)
    const html = await page.text()
    expect(html).toContain("background:#141519")
    expect(page.headers.get("content-security-policy")).toMatch(/script-src 'sha256-[A-Za-z0-9+/=]+'/)
    expect(page.headers.get("referrer-policy")).toBe("no-referrer")
    const light = await loginAtProvider((await start(client, "google")).body["uri"] as string, "alice", callbackPrefix)
    expect(await (await fetch(light)).text()).not.toContain("background:#141519")
  })
})

describe("what is refused", () => {
  it("a reused state: the second finish is invalid_state and opens no session", async () => {
    const client = api()
    const callback = await loginAtProvider((await start(client, "google")).body["uri"] as string, "alice", callbackPrefix)
    expect((await finish(client, callback.href)).status).toBe(200)
    const again = await finish(client, callback.href)
    expect(again).toEqual({ status: 400, body: { code: "invalid_state", error: expect.stringContaining("used already") } })
    // The callback page no longer hands it on either.
    expect((await fetch(callback)).status).toBe(400)
  })

  it("a wrong state (changed in the callback address) is invalid_state, and the login it changed still works once", async () => {
    const client = api()
    const callback = await loginAtProvider((await start(client, "discord")).body["uri"] as string, "alice", callbackPrefix)
    const forged = new URL(callback)
    forged.searchParams.set("state", "x".repeat(43))
    expect((await finish(client, forged.href)).body["code"]).toBe("invalid_state")
    expect((await fetch(forged)).status).toBe(400)
    expect((await finish(client, callback.href)).status).toBe(200)
  })

  it("a state started on another device is invalid_state (and used up: it cannot be replayed on its own device)", async () => {
    const owner = api()
    const thief = api()
    const callback = await loginAtProvider((await start(owner, "apple")).body["uri"] as string, "alice", callbackPrefix)
    expect((await finish(thief, callback.href)).body["code"]).toBe("invalid_state")
    expect((await finish(owner, callback.href)).status).toBe(200)
  })

  it("a callback address of another origin is invalid_state", async () => {
    const client = api()
    const callback = await loginAtProvider((await start(client, "x")).body["uri"] as string, "alice", callbackPrefix)
    const elsewhere = new URL(callback.pathname + callback.search, "http://127.0.0.1:1")
    expect((await finish(client, elsewhere.href)).body["code"]).toBe("invalid_state")
  })

  it("the provider's own refusal (the user cancels) is social_refused with its words", async () => {
    const client = api()
    const started = await start(client, "google")
    const cancelled = new URL(callbackPrefix)
    const state = new URL(started.body["uri"] as string).searchParams.get("state") ?? ""
    cancelled.searchParams.set("error", "access_denied")
    cancelled.searchParams.set("error_description", "The user cancelled the login")
    cancelled.searchParams.set("state", state)
    cancelled.searchParams.set("iss", idps.info.providers.google.issuer)
    expect(await finish(client, cancelled.href)).toEqual({
      status: 400,
      body: { code: "social_refused", error: "The provider refused the login: The user cancelled the login" }
    })
  })

  it("a provider the project does not configure is provider_not_configured; an origin it does not allow is refused", async () => {
    expect((await start(api("no-socials"), "google")).body["code"]).toBe("provider_not_configured")
    const foreign = await start(api(), "google", { hostOrigin: "https://evil.example" })
    expect(foreign).toEqual({ status: 400, body: { code: "bad_request", error: "https://evil.example is not an origin of this app" } })
    const away = await start(api(), "google", { returnTo: "https://evil.example/page" })
    expect(away.body).toEqual({ code: "bad_request", error: "returnTo must be a page of the host's origin" })
  })
})
