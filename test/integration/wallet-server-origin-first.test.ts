/**
 * A page of another origin learns nothing from the wallet server but that it is refused: on every route of the
 * declared API (read from the declaration, so a route added later is checked too), a request with a foreign `Origin`
 * is 403 `origin_not_allowed` before anything else is looked at — whether it names a project or not, and whether its
 * bearer token is missing, made up or a live session's. Against a real server and database (PGlite), with a session
 * opened by a passkey (software authenticator). Farcaster's relay route is the one without the check: a Farcaster
 * client, not a page of the frame's origin, calls it.
 */
import { randomBytes } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Database, startDatabase } from "../../server/src/db/index"
import { WalletServerApi } from "../../server/src/embedded/WalletServerApi"
import { startWalletServer, type WalletServerInfo } from "../../server/src/embedded/server/index"
import { routesOf } from "../../server/src/http/app"
import type { Started } from "../../server/src/lib/Started"
import { SoftAuthenticator } from "./support/softAuthenticator"
import { walletApi } from "./support/walletServerClient"

const FOREIGN = "https://evil.example"
const refused = { status: 403, body: { code: "origin_not_allowed", error: "Unauthorized: origin not allowed" } }
let db: Started<Database>
let server: Started<WalletServerInfo>
let liveToken = ""

beforeAll(async () => {
  db = await startDatabase()
  server = await startWalletServer({ masterKey: randomBytes(32), smtp: { port: 1 }, database: db.info, chains: { evm: [] }, publicHost: "localhost" })
  // A live session, made with a new passkey from the server's own origin.
  const client = walletApi(server.info.url)
  const key = new SoftAuthenticator({ origin: server.info.publicUrl, rpId: "localhost" })
  const started = await client.call("POST", "/api/passkey/start", { projectId: client.projectId, deviceId: client.deviceId, mode: "create", hostOrigin: "http://127.0.0.1:5173" })
  const state = new URL(started.body["uri"] as string).searchParams.get("state") ?? ""
  const read = await client.call("POST", "/api/passkey/options", { projectId: client.projectId, state })
  await client.call("POST", "/api/passkey/verify", { projectId: client.projectId, state, response: key.register(read.body["options"] as Record<string, unknown>) })
  const finished = await client.call("POST", "/api/passkey/finish", { projectId: client.projectId, deviceId: client.deviceId, state })
  liveToken = finished.body["token"] as string
  expect((await client.call("GET", "/api/user", undefined, { token: liveToken })).status).toBe(200)
}, 60_000)

afterAll(async () => {
  await server?.stop()
  await db?.stop()
})

/** A request as a foreign page's script would send it (fetch sets `Origin`), with or without a project and a token. */
const foreignCall = async (method: string, path: string, request: { readonly projectId?: string; readonly token?: string }) => {
  const url = new URL(path, server.info.url)
  if (request.projectId !== undefined) url.searchParams.set("projectId", request.projectId)
  const response = await fetch(url, {
    method,
    headers: {
      origin: FOREIGN,
      "content-type": "application/json",
      ...(request.projectId === undefined ? {} : { "x-project-id": request.projectId }),
      ...(request.token === undefined ? {} : { authorization: `Bearer ${request.token}` })
    },
    ...(method === "GET" ? {} : { body: JSON.stringify(request.projectId === undefined ? {} : { projectId: request.projectId }) }),
    signal: AbortSignal.timeout(15_000)
  })
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}

const checked = routesOf(WalletServerApi).filter((route) => route.path !== "/v1/channel/authenticate")

const requests = [
  { name: "no project, no token", request: {} },
  { name: "an unknown project", request: { projectId: "no-such-project" } },
  { name: "a known project, no token", request: { projectId: "devstack-project" } },
  { name: "a made-up token", request: { projectId: "devstack-project", token: "made-up" } },
  { name: "a live session's token", request: { projectId: "devstack-project", token: "live" } }
] as const

describe("another origin's page", () => {
  it("the API's routes, but Farcaster's relay, are all checked", () => {
    expect(checked.length).toBe(routesOf(WalletServerApi).length - 1)
    expect(checked).toContainEqual({ method: "GET", path: "/api/user" })
  })

  describe.each(checked)("$method $path", ({ method, path }) => {
    it.each(requests)("with $name: 403 origin_not_allowed", async ({ request }) => {
      const token = "token" in request ? (request.token === "live" ? liveToken : request.token) : undefined
      expect(await foreignCall(method, path, { ...request, ...(token === undefined ? {} : { token }) })).toEqual(refused)
    })
  })

  it("the server's own origin without a token is still told to log in (401), as before", async () => {
    const client = walletApi(server.info.url)
    expect(await client.call("GET", "/api/user", undefined, { headers: { origin: server.info.publicUrl } })).toEqual({
      status: 401,
      body: { code: "unauthorized", error: "Not logged in: the session token is missing" }
    })
  })
})
