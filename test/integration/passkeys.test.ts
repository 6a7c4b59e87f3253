/**
 * Passkey login on the wallet server (issue 30, item 3) against a real database (PGlite), with a software
 * authenticator (P-256, attestation `none`) answering as a browser would: a new passkey makes a user with the same
 * embedded wallet as an email user, the passkey logs that user in again on another device, and what is refused —
 * a replayed assertion, another origin or RP ID, an unknown passkey, a counter gone back, a ceremony of another
 * device, used, or expired by the server's clock. The RP ID follows `passkeyRpId`.
 */
import { randomBytes } from "node:crypto"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Database, startDatabase } from "../../server/src/db/index"
import { startWalletServer, type WalletServerInfo } from "../../server/src/embedded/server/index"
import type { Started } from "../../server/src/lib/Started"
import { SoftAuthenticator } from "./support/softAuthenticator"
import { makeKeysAsFrame, walletApi } from "./support/walletServerClient"

const HOST = "http://127.0.0.1:5173"
let db: Started<Database>
let server: Started<WalletServerInfo>
let ownDomain: Started<WalletServerInfo>
// How far the server's clock is ahead of the real one.
let ahead = 0

beforeAll(async () => {
  db = await startDatabase()
  // Every test's ceremonies come from this one address within a minute: more than a visitor's limit (tested in
  // wallet-server-visitor-limits.test.ts).
  const base = { masterKey: randomBytes(32), smtp: { port: 1 }, database: db.info, chains: { evm: [] }, visitorLimits: { passkey: 1000 } }
  ;[server, ownDomain] = await Promise.all([
    startWalletServer({ ...base, publicHost: "localhost", now: () => Date.now() + ahead }),
    // A host serving the frame from a name under its own domain, its passkeys under the domain itself.
    startWalletServer({ ...base, publicUrl: "https://wallet.host.example", passkeyRpId: "host.example" })
  ])
})

afterAll(async () => {
  await Promise.all([server?.stop(), ownDomain?.stop()])
  await db?.stop()
})

/** Rows of a query on the servers' database. */
const rows = <A extends object>(query: (sql: SqlClient.SqlClient) => Effect.Effect<ReadonlyArray<A>, unknown>) =>
  db.info.run(Effect.flatMap(Effect.service(SqlClient.SqlClient), query))

type Client = ReturnType<typeof walletApi>
const api = (url = server.info.url): Client => walletApi(url)
const frameOrigin = () => server.info.publicUrl
const authenticator = (claims = { origin: frameOrigin(), rpId: "localhost" }) => new SoftAuthenticator(claims)

/** Starts a ceremony as the frame does and reads its options as the passkey page does. */
const begin = async (client: Client, mode: "create" | "login", extra: Record<string, unknown> = {}) => {
  const started = await client.call("POST", "/api/passkey/start", { projectId: client.projectId, deviceId: client.deviceId, mode, hostOrigin: HOST, ...extra })
  expect(started.status, JSON.stringify(started.body)).toBe(200)
  const uri = new URL(started.body["uri"] as string)
  const state = uri.searchParams.get("state") ?? ""
  const read = await client.call("POST", "/api/passkey/options", { projectId: client.projectId, state })
  expect(read.status, JSON.stringify(read.body)).toBe(200)
  return { uri, state, read: read.body, options: read.body["options"] as Record<string, unknown> }
}

const verify = (client: Client, state: string, response: Record<string, unknown>) =>
  client.call("POST", "/api/passkey/verify", { projectId: client.projectId, state, response })

const finish = (client: Client, state: string) => client.call("POST", "/api/passkey/finish", { projectId: client.projectId, deviceId: client.deviceId, state })

const addressOf = async (client: Client, token: string) => (await client.call("GET", "/api/user", undefined, { token })).body

/** A user made with a new passkey: the authenticator holding it, the session's token and the user's EVM address. */
const register = async () => {
  const key = authenticator()
  const client = api()
  const { state, options } = await begin(client, "create")
  expect((await verify(client, state, key.register(options))).status).toBe(200)
  const done = await finish(client, state)
  expect(done.body["created"]).toBe(true)
  // The frame makes the new user's keys after the login (frameKeys.ts); the server made none.
  const token = done.body["token"] as string
  return { key, token, address: (await makeKeysAsFrame(server.info.url, token)).evmAddress }
}

describe("a new passkey, then logging in with it", () => {
  it("creates a user with an embedded wallet, keeps the passkey with PRF enabled, and logs the same user in on another device", async () => {
    const key = authenticator()
    const client = api()
    const { uri, state, read, options } = await begin(client, "create", { themeMode: "dark" })
    // The passkey page is on the frame origin; the ceremony remembers the host page and its theme.
    expect(uri.origin + uri.pathname).toBe(`${frameOrigin()}/frame/passkey`)
    expect(read).toMatchObject({ mode: "create", hostOrigin: HOST, themeMode: "dark" })
    expect(options).toMatchObject({
      rp: { id: "localhost" },
      attestation: "none",
      authenticatorSelection: { residentKey: "required", userVerification: "required" },
      extensions: { prf: {} }
    })
    expect(options["challenge"]).toMatch(/^[\w-]{43}$/)
    expect((await verify(client, state, key.register(options))).body).toEqual({ verified: true })
    const created = await finish(client, state)
    expect(created.status).toBe(200)
    expect(created.body["created"]).toBe(true)
    await makeKeysAsFrame(server.info.url, created.body["token"] as string)
    const user = await addressOf(client, created.body["token"] as string)
    expect(user).toMatchObject({ email: null })
    expect(user["evmAddress"]).toMatch(/^0x[0-9a-fA-F]{40}$/)
    expect(user["solanaAddress"]).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/)
    // No email to change: it says why.
    expect(await client.call("POST", "/api/email/update", { newEmail: "ada@example.test" }, { token: created.body["token"] as string })).toEqual({
      status: 400,
      body: { code: "bad_request", error: "This wallet was made by a social login or a passkey and has no email to change" }
    })
    const stored = await rows((sql) => sql`SELECT prf_enabled, transports, counter::int AS counter FROM wallet_passkeys WHERE credential_id = ${key.id}`)
    expect(stored).toEqual([{ prf_enabled: true, transports: "internal", counter: 0 }])

    const other = api()
    const login = await begin(other, "login")
    expect(login.options).toMatchObject({ rpId: "localhost", userVerification: "required" })
    expect(login.options["allowCredentials"] ?? []).toEqual([])
    expect((await verify(other, login.state, key.assert(login.options))).status).toBe(200)
    const again = await finish(other, login.state)
    expect(again.body["created"]).toBe(false)
    expect(await addressOf(other, again.body["token"] as string)).toEqual(user)
  })
})

describe("what is refused", () => {
  it("a replayed assertion: on its own ceremony it is invalid_state, on a new one passkey_refused; neither opens a session", async () => {
    const { key } = await register()
    const client = api()
    const first = await begin(client, "login")
    const assertion = key.assert(first.options)
    expect((await verify(client, first.state, assertion)).status).toBe(200)
    expect(await verify(client, first.state, assertion)).toEqual({
      status: 400,
      body: { code: "invalid_state", error: "This passkey request was not started here, was answered already or has expired: try again" }
    })
    const second = await begin(client, "login")
    expect(await verify(client, second.state, assertion)).toEqual({
      status: 400,
      body: { code: "passkey_refused", error: "Your passkey could not be verified: try again" }
    })
    expect((await finish(client, second.state)).body["code"]).toBe("invalid_state")
    // The first ceremony opens one session, once.
    expect((await finish(client, first.state)).status).toBe(200)
    expect((await finish(client, first.state)).body["code"]).toBe("invalid_state")
  })

  it("an answer made for another origin or another RP ID is passkey_refused, at registration and at login", async () => {
    const { key } = await register()
    const client = api()
    const count = () => rows((sql) => sql`SELECT count(*)::int AS n FROM wallet_passkeys`)
    const before = await count()
    for (const claims of [
      { origin: HOST, rpId: "localhost" },
      { origin: frameOrigin(), rpId: "evil.example" }
    ]) {
      const create = await begin(client, "create")
      expect((await verify(client, create.state, authenticator().register(create.options, claims))).body["code"]).toBe("passkey_refused")
      const login = await begin(client, "login")
      expect((await verify(client, login.state, key.assert(login.options, claims))).body["code"]).toBe("passkey_refused")
      expect((await finish(client, login.state)).body["code"]).toBe("invalid_state")
    }
    // Nothing was made for the refused registrations, and the passkey still logs in.
    expect(await count()).toEqual(before)
    const login = await begin(client, "login")
    expect((await verify(client, login.state, key.assert(login.options))).status).toBe(200)
  })

  it("a passkey this server never registered is passkey_unknown", async () => {
    const client = api()
    const login = await begin(client, "login")
    expect(await verify(client, login.state, authenticator().assert(login.options))).toEqual({
      status: 400,
      body: { code: "passkey_unknown", error: "This passkey is not known here: create a new one, or log in another way" }
    })
  })

  it("a signature counter gone back (a cloned authenticator) is passkey_refused", async () => {
    const { key } = await register()
    const client = api()
    for (let i = 0; i < 2; i++) {
      const login = await begin(client, "login")
      expect((await verify(client, login.state, key.assert(login.options))).status).toBe(200)
    }
    key.counter = 0
    const cloned = await begin(client, "login")
    expect((await verify(client, cloned.state, key.assert(cloned.options))).body["code"]).toBe("passkey_refused")
  })

  it("a ceremony finished from another device, or a host origin the project does not allow, is refused", async () => {
    const { key } = await register()
    const owner = api()
    const login = await begin(owner, "login")
    expect((await verify(owner, login.state, key.assert(login.options))).status).toBe(200)
    expect((await finish(api(), login.state)).body["code"]).toBe("invalid_state")
    expect((await finish(owner, login.state)).status).toBe(200)
    const foreign = await owner.call("POST", "/api/passkey/start", {
      projectId: owner.projectId,
      deviceId: owner.deviceId,
      mode: "login",
      hostOrigin: "https://evil.example"
    })
    expect(foreign).toEqual({ status: 400, body: { code: "bad_request", error: "https://evil.example is not an origin of this app" } })
  })

  it("a ceremony past its 5 minutes by the server's clock is invalid_state", async () => {
    const { key } = await register()
    const client = api()
    const login = await begin(client, "login")
    ahead += 5 * 60_000
    try {
      expect((await verify(client, login.state, key.assert(login.options))).body["code"]).toBe("invalid_state")
      expect((await client.call("POST", "/api/passkey/options", { projectId: client.projectId, state: login.state })).body["code"]).toBe("invalid_state")
    } finally {
      ahead -= 5 * 60_000
    }
  })
})

describe("the relying party ID", () => {
  it("is passkeyRpId where set: a host's own domain, the frame on a name under it", async () => {
    const client = api(ownDomain.info.url)
    const create = await begin(client, "create")
    expect(create.options).toMatchObject({ rp: { id: "host.example" } })
    const key = new SoftAuthenticator({ origin: "https://wallet.host.example", rpId: "host.example" })
    expect((await verify(client, create.state, key.register(create.options))).status).toBe(200)
    expect((await finish(client, create.state)).status).toBe(200)
    // A passkey of the frame's own name is another relying party's.
    const login = await begin(client, "login")
    expect((await verify(client, login.state, key.assert(login.options, { origin: "https://wallet.host.example", rpId: "wallet.host.example" }))).body["code"]).toBe(
      "passkey_refused"
    )
  })

  it("is also the recovery passkeys', as the frame reads it from its own server's key list: the frame's host name by default, passkeyRpId where set", async () => {
    const { token } = await register()
    const byDefault = await api().call("GET", "/api/keys", undefined, { token })
    expect(byDefault.status).toBe(200)
    expect(byDefault.body["passkeyRpId"]).toBe(new URL(server.info.publicUrl).hostname)
    expect(byDefault.body["passkeyRpId"]).toBe("localhost")

    const client = api(ownDomain.info.url)
    const create = await begin(client, "create")
    const key = new SoftAuthenticator({ origin: "https://wallet.host.example", rpId: "host.example" })
    expect((await verify(client, create.state, key.register(create.options))).status).toBe(200)
    const configured = await client.call("GET", "/api/keys", undefined, { token: (await finish(client, create.state)).body["token"] as string })
    expect(configured.status).toBe(200)
    expect(configured.body["passkeyRpId"]).toBe("host.example")
  })
})
