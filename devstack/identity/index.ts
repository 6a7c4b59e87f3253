/**
 * The local identity providers: one issuer per social provider (google, x, discord, github, apple, facebook), each
 * an `oidc-provider` (panva, OpenID Certified) on its own loopback port, with a small login page where the test user
 * picks an account or types a name. google and apple are OpenID Connect (discovery, ID tokens signed by the issuer's
 * own RSA key, served at its JWKS); x, discord, github and facebook are used as plain OAuth 2 by the wallet server, so
 * each also answers its provider's own userinfo shape at its provider's path (GitHub `GET /user` → `{ id, login }`,
 * Discord `GET /api/users/@me` → `{ id, username }`, X `GET /2/users/me` → `{ data: { id, username, name } }`,
 * Facebook `GET /me` → `{ id, name }`), for the access tokens the same issuer gave.
 *
 * The client each provider knows is the project's (`clientId`, `clientSecret`), with the redirect URI the wallet
 * server gives later (`setRedirectUri`): the providers start before the wallet server, whose config names them.
 */
import { generateKeyPairSync, randomBytes } from "node:crypto"
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { Redacted } from "effect"
import Provider, { interactionPolicy } from "oidc-provider"
import MemoryAdapter from "oidc-provider/lib/adapters/memory_adapter.js"
import LRU from "oidc-provider/lib/helpers/lru.js"
import { SOCIAL_PROVIDERS } from "../../src/domain/validation"
import type { SocialProvider } from "../../src/domain/Account"
import { escapeHtml, HTML_CONTENT_TYPE, htmlDocument } from "../../server/src/lib/html"
import type { Started } from "../../server/src/lib/Started"
import type { SocialClientConfig } from "../../server/src/embedded/server/social"
import { type DevProject, isLoopbackOrigin } from "../../server/src/services/projects"

/** The accounts each login page offers to pick (any other name can be typed). */
export const TEST_ACCOUNTS = ["alice", "bob"] as const

/** One running provider. */
export interface IdentityProviderInfo {
  readonly provider: SocialProvider
  /** `oidc`: the wallet server uses discovery and ID tokens; `oauth`: endpoints and the provider-shaped userinfo. */
  readonly kind: "oidc" | "oauth"
  /** The issuer, `http://127.0.0.1:{port}`. */
  readonly issuer: string
  /** What the wallet server's project config says for it (the secret as `Redacted`). */
  readonly client: SocialClientConfig
}

/** What the identity part exposes. */
export interface IdentityInfo {
  readonly providers: Readonly<Record<SocialProvider, IdentityProviderInfo>>
  /** The wallet server's callback, registered with every provider (`{frame origin}/social/callback`). */
  readonly setRedirectUri: (uri: string) => void
}

const OAUTH_USERINFO: Readonly<Partial<Record<SocialProvider, { readonly path: string; readonly shape: (id: string) => unknown }>>> = {
  github: { path: "/user", shape: (id) => ({ id: numericId(id), login: id }) },
  discord: { path: "/api/users/@me", shape: (id) => ({ id: String(numericId(id)), username: id }) },
  x: { path: "/2/users/me", shape: (id) => ({ data: { id: String(numericId(id)), username: id, name: id } }) },
  facebook: { path: "/me", shape: (id) => ({ id: String(numericId(id)), name: id }) }
}

const OAUTH_SCOPES: Readonly<Partial<Record<SocialProvider, ReadonlyArray<string>>>> = {
  github: ["read:user"],
  discord: ["identify"],
  x: ["users.read", "tweet.read"],
  facebook: ["public_profile"]
}

// A stable number per name, as GitHub, Discord, X and Facebook give numeric ids.
const numericId = (name: string): number => {
  let hash = 7
  for (const char of name) hash = (hash * 31 + char.charCodeAt(0)) % 2_147_483_647
  return hash
}

const ACCOUNT = /^[a-z0-9][a-z0-9._-]{0,38}$/

const loginPage = (provider: SocialProvider, uid: string, error?: string): string =>
  htmlDocument(
    `Log in to ${provider} (local test provider)`,
    `${error === undefined ? "" : `<p role="alert">${escapeHtml(error)}</p>`}
<p>This is the local stand-in for ${escapeHtml(provider)}: pick a test account, or type any name.</p>
<form method="post" action="/interaction/${escapeHtml(uid)}/login">
${TEST_ACCOUNTS.map((name) => `<button type="submit" name="account" value="${name}">Continue as ${name}</button>`).join(" ")}
</form>
<form method="post" action="/interaction/${escapeHtml(uid)}/login">
<label for="account">Account name</label> <input id="account" name="account" autocomplete="off" pattern="[a-z0-9][a-z0-9._\\-]{0,38}" required>
<button type="submit">Log in</button>
</form>
<form method="post" action="/interaction/${escapeHtml(uid)}/abort"><button type="submit">Cancel</button></form>`,
    { css: "button{font:inherit;padding:.5rem 1rem;margin:.25rem 0}input{font:inherit;padding:.4rem}" }
  )

const readForm = (req: IncomingMessage): Promise<URLSearchParams> =>
  new Promise((resolve, reject) => {
    let body = ""
    req.setEncoding("utf8")
    req.on("data", (chunk: string) => {
      body += chunk
      if (body.length > 10_000) req.destroy(new Error("form too large"))
    })
    req.on("end", () => resolve(new URLSearchParams(body)))
    req.on("error", reject)
  })

const send = (res: ServerResponse, status: number, type: string, body: string) => {
  res.writeHead(status, { "content-type": type, "cache-control": "no-store" })
  res.end(body)
}

const listen = (server: Server): Promise<number> =>
  new Promise((resolve, reject) => {
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port))
  })

const startOne = async (provider: SocialProvider, redirectUri: () => string): Promise<Started<IdentityProviderInfo>> => {
  let handler: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => send(res, 503, "text/plain", "starting")
  const server = createServer((req, res) => handler(req, res))
  const port = await listen(server)
  const issuer = `http://127.0.0.1:${port}`
  const oauthShape = OAUTH_USERINFO[provider]
  const kind = oauthShape === undefined ? "oidc" : "oauth"
  const clientId = `wallet-runtime-${provider}`
  const clientSecret = randomBytes(24).toString("base64url")
  const store = new LRU({ maxSize: 1000 })
  // The one client: the project's, with the wallet server's callback as its only redirect URI.
  class Adapter extends MemoryAdapter {
    constructor(model: string) {
      super(model, store)
    }
    override async find(id: string) {
      if (this.model !== "Client") return super.find(id)
      if (id !== clientId) return undefined
      return {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [redirectUri()],
        response_types: ["code"],
        grant_types: ["authorization_code"],
        token_endpoint_auth_method: "client_secret_post"
      }
    }
  }
  // The test user picks an account at every login (no single sign-on across logins): the login prompt is asked
  // unless this very interaction just answered it.
  const policy = interactionPolicy.base()
  policy.get("login")?.checks.add(
    new interactionPolicy.Check("test_login_every_time", "the local test provider asks for the account every time", (ctx) =>
      ctx.oidc.result?.["login"] === undefined ? interactionPolicy.Check.REQUEST_PROMPT : interactionPolicy.Check.NO_NEED_TO_PROMPT
    )
  )
  const key = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ format: "jwk" })
  const oidc = new Provider(issuer, {
    adapter: Adapter,
    jwks: { keys: [{ ...key, kid: `${provider}-1`, alg: "RS256", use: "sig" }] },
    cookies: { keys: [randomBytes(32).toString("hex")] },
    findAccount: async (_ctx: unknown, sub: string) => ({
      accountId: sub,
      claims: async () => ({ sub, preferred_username: sub, name: sub, email: `${sub}@${provider}.test` })
    }),
    claims: { openid: ["sub"], profile: ["name", "preferred_username"], email: ["email"] },
    scopes: ["openid", "profile", "email", ...(OAUTH_SCOPES[provider] ?? []), "name"],
    features: { devInteractions: { enabled: false } },
    pkce: { required: () => true },
    routes: { userinfo: "/userinfo" },
    interactions: { policy, url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    ttl: { AccessToken: 600, AuthorizationCode: 60, IdToken: 600, Interaction: 600, Session: 600, Grant: 600 },
    renderError: async (ctx: { type: string; body: string }, out: { error: string; error_description?: string }) => {
      ctx.type = "html"
      ctx.body = htmlDocument(`${provider} (local test provider): ${out.error}`, `<p>${escapeHtml(out.error_description ?? out.error)}</p>`)
    }
  })
  const callback = oidc.callback()

  const interaction = async (req: IncomingMessage, res: ServerResponse, path: string) => {
    const match = /^\/interaction\/([\w-]+)(\/login|\/abort)?$/.exec(path)
    if (match === null) return send(res, 404, "text/plain", "not found")
    const [, uid = "", action] = match
    if (action === undefined && req.method === "GET") {
      await oidc.interactionDetails(req, res)
      return send(res, 200, HTML_CONTENT_TYPE, loginPage(provider, uid))
    }
    if (req.method !== "POST") return send(res, 405, "text/plain", "method not allowed")
    const details = await oidc.interactionDetails(req, res)
    const form = await readForm(req)
    if (action === "/abort") {
      return oidc.interactionFinished(req, res, { error: "access_denied", error_description: "The user cancelled the login" }, { mergeWithLastSubmission: false })
    }
    const account = (form.get("account") ?? "").trim().toLowerCase()
    if (!ACCOUNT.test(account)) return send(res, 400, HTML_CONTENT_TYPE, loginPage(provider, uid, "Type a name of letters, digits, '.', '_' or '-'."))
    const params = details.params as { client_id: string; scope?: string }
    const grant = new oidc.Grant({ accountId: account, clientId: params.client_id })
    grant.addOIDCScope(params.scope ?? "")
    const grantId = await grant.save()
    return oidc.interactionFinished(req, res, { login: { accountId: account }, consent: { grantId } }, { mergeWithLastSubmission: false })
  }

  const userinfo = async (req: IncomingMessage, res: ServerResponse) => {
    const bearer = /^Bearer (\S+)$/.exec(req.headers.authorization ?? "")?.[1]
    const token = bearer === undefined ? undefined : await oidc.AccessToken.find(bearer)
    if (token === undefined || oauthShape === undefined) return send(res, 401, "application/json", JSON.stringify({ message: "Bad credentials" }))
    return send(res, 200, "application/json", JSON.stringify(oauthShape.shape(token.accountId)))
  }

  handler = (req, res) => {
    const path = new URL(req.url ?? "/", issuer).pathname
    const done = path.startsWith("/interaction/")
      ? interaction(req, res, path)
      : oauthShape !== undefined && path === oauthShape.path && req.method === "GET"
        ? userinfo(req, res)
        : Promise.resolve(callback(req, res))
    done.catch((error: unknown) => {
      if (!res.headersSent) send(res, 400, HTML_CONTENT_TYPE, htmlDocument("This login cannot go on", `<p>${escapeHtml(error instanceof Error ? error.message : String(error))}</p>`))
    })
  }

  const client: SocialClientConfig =
    kind === "oidc"
      ? { issuer, clientId, clientSecret: redacted(clientSecret) }
      : {
          authorizationEndpoint: `${issuer}/auth`,
          tokenEndpoint: `${issuer}/token`,
          userinfoEndpoint: `${issuer}${oauthShape?.path ?? "/userinfo"}`,
          clientId,
          clientSecret: redacted(clientSecret)
        }
  let stopping: Promise<void> | undefined
  return {
    info: { provider, kind, issuer, client },
    stop: () => {
      stopping ??= new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      })
      return stopping
    }
  }
}

const redacted = (secret: string) => Redacted.make(secret)

/** Starts the six providers on loopback (port 0 each). */
export const startIdentityProviders = async (): Promise<Started<IdentityInfo>> => {
  let redirect = "http://127.0.0.1:0/social/callback"
  const started: Array<Started<IdentityProviderInfo>> = []
  try {
    for (const provider of SOCIAL_PROVIDERS) started.push(await startOne(provider, () => redirect))
  } catch (error) {
    await Promise.all(started.map((s) => s.stop()))
    throw error
  }
  const providers = Object.fromEntries(started.map((s) => [s.info.provider, s.info])) as Record<SocialProvider, IdentityProviderInfo>
  return {
    info: {
      providers,
      setRedirectUri: (uri) => {
        redirect = uri
      }
    },
    stop: () => Promise.all(started.map((s) => s.stop())).then(() => undefined)
  }
}

/** The `socials` of a project for these providers. */
export const socialsOf = (info: IdentityInfo): Readonly<Record<SocialProvider, SocialClientConfig>> =>
  Object.fromEntries(Object.values(info.providers).map((p) => [p.provider, p.client])) as Record<SocialProvider, SocialClientConfig>

/** `projects` with these providers configured on every one for local pages (the others stay without). */
export const withSocials = (info: IdentityInfo, projects: ReadonlyArray<DevProject>): ReadonlyArray<DevProject> =>
  projects.map((project) =>
    project.allowedOrigins === "loopback" || project.allowedOrigins.every(isLoopbackOrigin) ? { ...project, socials: socialsOf(info) } : project
  )
