/**
 * The wallet server's limits per visitor (`server/src/embedded/server/visitorLimits.ts`) against a real database
 * (PGlite) shared by two server processes, as behind a load balancer: the passkey routes together, Farcaster's
 * channel relay, the starts of a social or Farcaster login together, and the export's confirmation routes together each count a network address's requests per
 * sliding minute wherever they arrive, requests sent at once included, and past the limit answer 429 `rate_limited`
 * with when to try again, which lets the visitor in; the limit's worth at the end of one minute does not come again at
 * the start of the next.
 * Behind a proxy the server is told of, each visitor it forwards is counted on its own. The count under requests at
 * once, and the sweep of counts that weigh no more, also on a throw-away Postgres (`../support/postgres.ts`).
 */
import { randomBytes, randomUUID } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Database, startDatabase } from "../../server/src/db/index"
import { startWalletServer, type WalletServerInfo } from "../../server/src/embedded/server/index"
import { VISITOR_LIMIT_WINDOW_MS } from "../../server/src/embedded/server/visitorLimits"
import { newToken, tokenHash } from "../../server/src/embedded/server/keys"
import * as store from "../../server/src/embedded/server/store"
import type { Started } from "../../server/src/lib/Started"
import { pruneBatch } from "../../server/src/embedded/server/prune"
import { type RunningPostgres, startPostgres } from "../support/postgres"
import { walletApi } from "./support/walletServerClient"
import { makeWalletApi } from "../../server/src/embedded/frame/apiClient"
import { FRAME_STORAGE_KEYS, makeFrame, makeMemoryStorage } from "../../server/src/embedded/frame/frameLogic"
import type { FrameResponse } from "../../src/domain/Frame"

const HOST = "http://127.0.0.1:5173"
const PASSKEY_LIMIT = 4
const RELAY_LIMIT = 3
const LOGIN_START_LIMIT = 3
const KEY_EXPORT_LIMIT = 3
let db: Started<Database>
let servers: ReadonlyArray<Started<WalletServerInfo>> = []
// The servers' clock: each test starts two minutes after the last, where the last one's counts weigh nothing.
let clock = Date.now()

beforeAll(async () => {
  db = await startDatabase()
  const options = {
    masterKey: randomBytes(32),
    smtp: { port: 1 },
    database: db.info,
    chains: { evm: [] },
    now: () => clock,
    visitorLimits: { passkey: PASSKEY_LIMIT, farcasterRelay: RELAY_LIMIT, loginStart: LOGIN_START_LIMIT, keyExport: KEY_EXPORT_LIMIT }
  }
  servers = await Promise.all([startWalletServer(options), startWalletServer(options)])
}, 60_000)

afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()))
  await db?.stop()
})

const nextTest = () => {
  clock += 2 * VISITOR_LIMIT_WINDOW_MS
}

/** A request as any HTTP client sends it: the status, the JSON body and the `Retry-After` header. */
const post = async (server: Started<WalletServerInfo>, path: string, body: Record<string, unknown>, headers: Record<string, string> = {}) => {
  const response = await fetch(new URL(path, server.info.url), {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(15_000)
  })
  return { status: response.status, retryAfter: response.headers.get("retry-after"), body: (await response.json()) as Record<string, unknown> }
}

const startPasskey = (server: Started<WalletServerInfo>, headers: Record<string, string> = {}) =>
  post(server, "/api/passkey/start", { projectId: "devstack-project", deviceId: `device-${randomBytes(6).toString("hex")}`, mode: "create", hostOrigin: HOST }, headers)

// A limit's worth sent at one moment weighs on the next minute by the part of it left: one more fits once they weigh
// one less, (limit - 1) / limit of a minute into the next one: 75 s after them for a limit of 4, 80 s for 3.
const refusal = (seconds: number) => ({
  status: 429,
  retryAfter: String(seconds),
  body: { code: "rate_limited", error: `Too many attempts from your network. Please try again after ${seconds} seconds.`, retryAfterSeconds: seconds }
})

describe("the passkey routes", () => {
  it("count one address's requests on every server together: past the limit a 429 says when to try again, and the next minute lets it in", async () => {
    nextTest()
    const [a, b] = servers as [Started<WalletServerInfo>, Started<WalletServerInfo>]
    const first = await startPasskey(a)
    expect(first.status).toBe(200)
    const state = new URL(first.body["uri"] as string).searchParams.get("state")
    // The passkey page's read of the ceremony counts as much as a start, on the other server.
    expect((await post(b, "/api/passkey/options", { projectId: "devstack-project", state })).status).toBe(200)
    expect((await startPasskey(b)).status).toBe(200)
    expect((await startPasskey(a)).status).toBe(200)

    // The 4 weigh on the next minute as much as is left of theirs: one more fits 75 s after them.
    clock += 15_000
    expect(await startPasskey(b)).toEqual(refusal(60))
    // Every passkey route is refused alike, nothing read or written, and a refusal is not counted.
    expect(await post(a, "/api/passkey/options", { projectId: "devstack-project", state })).toEqual(refusal(60))
    expect(await post(a, "/api/passkey/finish", { projectId: "devstack-project", deviceId: "device-finish-0001", state })).toEqual(refusal(60))

    clock += 60_000
    const again = await post(a, "/api/passkey/options", { projectId: "devstack-project", state })
    expect(again.status).toBe(200)
    expect(again.body["mode"]).toBe("create")
  })

  it("of 12 starts sent at once to both servers, exactly the limit's worth are let through", async () => {
    nextTest()
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => startPasskey(servers[i % 2] as Started<WalletServerInfo>)))
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(PASSKEY_LIMIT)
    expect(answers.filter((answer) => answer.status === 429)).toHaveLength(12 - PASSKEY_LIMIT)
  })

  it("a refusal within the limit (an unknown ceremony) counts too: guessing states is no cheaper than starting ceremonies", async () => {
    nextTest()
    const client = walletApi((servers[0] as Started<WalletServerInfo>).info.url)
    for (let i = 0; i < PASSKEY_LIMIT; i++) {
      expect((await client.call("POST", "/api/passkey/options", { projectId: client.projectId, state: `guess-${i}` })).body["code"]).toBe("invalid_state")
    }
    expect((await client.call("POST", "/api/passkey/options", { projectId: client.projectId, state: "guess-last" })).body["code"]).toBe("rate_limited")
  })
})

describe("a sliding minute", () => {
  it("the limit's worth at the end of one minute and a burst at the start of the next: the burst is refused until the first ones weigh less, and Retry-After says exactly when", async () => {
    nextTest()
    const [a, b] = servers as [Started<WalletServerInfo>, Started<WalletServerInfo>]
    expect((await startPasskey(a)).status).toBe(200)
    clock += 55_000
    for (let i = 1; i < PASSKEY_LIMIT; i++) expect((await startPasskey(i % 2 === 0 ? a : b)).status).toBe(200)
    // 62 s after the first: a counter that starts afresh each minute would take the limit's worth again, 8 in 7 s.
    clock += 7_000
    // The 4 of the last minute weigh 4 × 58/60 (the part of their minute still within the last 60 s): with one more,
    // 4.87. One more fits once they weigh 3 (4 × 45/60), 13 s from now; a refused request is not counted, so each says so.
    const burst = []
    for (let i = 0; i < PASSKEY_LIMIT; i++) burst.push(await startPasskey(i % 2 === 0 ? a : b))
    expect(burst).toEqual(Array.from({ length: PASSKEY_LIMIT }, () => refusal(13)))
    // Waiting what it said lets the visitor in.
    clock += 13_000
    expect((await startPasskey(b)).status).toBe(200)
  })
})

describe("Farcaster's channel relay", () => {
  it("takes a limited number of messages per minute from one address, whatever they carry", async () => {
    nextTest()
    const message = { channelToken: "no-such-channel", message: "m", signature: "0x00", fid: 1 }
    const [a, b] = servers as [Started<WalletServerInfo>, Started<WalletServerInfo>]
    for (let i = 0; i < RELAY_LIMIT; i++) {
      // This server is not set up for Farcaster: refused, but counted.
      expect((await post(i % 2 === 0 ? a : b, "/v1/channel/authenticate", message)).body["code"]).toBe("farcaster_not_configured")
    }
    expect(await post(b, "/v1/channel/authenticate", message)).toEqual(refusal(80))
    // The passkey routes keep their own count.
    expect((await startPasskey(a)).status).toBe(200)
  })
})

describe("the starts of a social or Farcaster login", () => {
  it("share one count per address: past it, neither starts, and the passkey routes keep their own", async () => {
    nextTest()
    const [a, b] = servers as [Started<WalletServerInfo>, Started<WalletServerInfo>]
    const social = (server: Started<WalletServerInfo>) =>
      post(server, "/api/social/start", { projectId: "devstack-project", deviceId: "device-limits-test-01", provider: "google", hostOrigin: HOST })
    const farcaster = (server: Started<WalletServerInfo>) => post(server, "/api/farcaster/channel", { projectId: "devstack-project", deviceId: "device-limits-test-01" })
    // Neither is set up on these servers: each start is refused, and counted.
    for (let i = 0; i < LOGIN_START_LIMIT; i++) expect((await (i % 2 === 0 ? social(a) : farcaster(b))).status).toBe(400)
    expect(await social(b)).toEqual(refusal(80))
    expect(await farcaster(a)).toEqual(refusal(80))
    expect((await startPasskey(a)).status).toBe(200)
  })
})

describe("what the visitor reads past a limit", () => {
  it("the frame answers the modal's social, Farcaster and passkey starts in the visitor's words, with the code that starts no email cool-down", async () => {
    nextTest()
    const [a] = servers as [Started<WalletServerInfo>]
    const deviceId = "device-limits-frame-01"
    const storage = makeMemoryStorage()
    storage.setItem(FRAME_STORAGE_KEYS.deviceId, deviceId)
    const posted: Array<FrameResponse> = []
    const frame = makeFrame({
      api: makeWalletApi({ fetch, baseUrl: a.info.url, projectId: "devstack-project" }),
      storage,
      post: (message) => posted.push(message),
      parentOrigin: HOST,
      isParent: (source) => source === "parent",
      query: { projectId: "devstack-project", chainId: undefined, version: undefined, enableLogger: false },
      randomId: () => deviceId,
      now: () => clock,
      sleep: async () => {},
      log: () => undefined
    })
    expect((await frame.start()).ready).toBe(true)
    let n = 0
    const ask = async (type: string, payload?: unknown) => {
      const id = `frame-${++n}`
      await frame.receive({ data: payload === undefined ? { id, type: `@wr-app/${type}` } : { id, type: `@wr-app/${type}`, payload }, origin: HOST, source: "parent" })
      return posted.find((message) => "id" in message && message.id === id)
    }
    for (let i = 0; i < LOGIN_START_LIMIT; i++) {
      await post(a, "/api/farcaster/channel", { projectId: "devstack-project", deviceId })
    }
    for (let i = 0; i < PASSKEY_LIMIT; i++) expect((await startPasskey(a)).status).toBe(200)
    const refused = (name: string, seconds: number) => ({
      id: expect.any(String),
      type: `@wr-frame/${name}_ERROR`,
      payload: { message: `Too many attempts from your network. Please try again after ${seconds} seconds.`, code: "rate_limited", retryAfterSeconds: seconds }
    })
    expect(await ask("GET_SOCIAL_REDIRECT_URI", { provider: "google" })).toEqual(refused("GET_SOCIAL_REDIRECT_URI", 80))
    expect(await ask("GET_FARCASTER_URI")).toEqual(refused("GET_FARCASTER_URI", 80))
    expect(await ask("GET_PASSKEY_URI", { mode: "create" })).toEqual(refused("GET_PASSKEY_URI", 75))
  })
})

describe("the export's confirmation routes", () => {
  it("share one count per address (a session's requests, refused or not): past it, none answers, and the passkey routes keep their own", async () => {
    nextTest()
    const [a, b] = servers as [Started<WalletServerInfo>, Started<WalletServerInfo>]
    // A logged-in user (the login is other tests' business): its session, as a login leaves it.
    const userId = randomUUID()
    await db.info.run(store.insertSocialUser(userId, { provider: "google", subject: userId, username: "limits" }, new Date(clock)))
    const token = newToken()
    await db.info.run(store.insertSession(tokenHash(token), userId, "device-limits-test-01", new Date(clock), new Date(clock + 60 * VISITOR_LIMIT_WINDOW_MS)))
    const session = { authorization: `Bearer ${token}`, "x-project-id": "devstack-project" }
    const exportStart = (server: Started<WalletServerInfo>) => post(server, "/api/keys/export/start", { families: ["eip155"] }, session)
    const exportShare = (server: Started<WalletServerInfo>) => post(server, "/api/keys/export/share", { family: "eip155", grant: "made-up" }, session)
    // This user has no split key and no grant: each is refused, and counted; the limit's worth, then none.
    expect((await exportStart(a)).body["code"]).toBe("no_key_split")
    expect((await exportShare(b)).body["code"]).toBe("export_not_confirmed")
    expect((await post(a, "/api/keys/export/confirm", { families: ["eip155"], proof: { method: "login" } }, session)).status).toBe(200)
    expect(await exportStart(b)).toEqual(refusal(80))
    expect(await exportShare(a)).toEqual(refusal(80))
    expect((await startPasskey(a)).status).toBe(200)
  })
})

describe("behind a proxy", () => {
  it("counts each visitor the proxy forwards on its own when the server trusts it, and ignores X-Forwarded-For from anyone else", async () => {
    nextTest()
    // This test's requests come from loopback: for this server, loopback is the load balancer in front of it.
    const proxied = await startWalletServer({
      masterKey: randomBytes(32),
      smtp: { port: 1 },
      database: db.info,
      chains: { evm: [] },
      now: () => clock,
      visitorLimits: { passkey: PASSKEY_LIMIT, farcasterRelay: RELAY_LIMIT, loginStart: LOGIN_START_LIMIT, keyExport: KEY_EXPORT_LIMIT },
      http: { trustedProxies: ["127.0.0.0/8", "::1/128"] }
    })
    try {
      const from = (visitor: string) => ({ "x-forwarded-for": visitor })
      for (let i = 0; i < PASSKEY_LIMIT; i++) expect((await startPasskey(proxied, from("198.51.100.7"))).status).toBe(200)
      expect(await startPasskey(proxied, from("198.51.100.7"))).toEqual(refusal(75))
      // Another visitor behind the same proxy has the whole limit; a spoofed entry before the proxy's is not taken.
      expect((await startPasskey(proxied, from("198.51.100.8"))).status).toBe(200)
      expect(await startPasskey(proxied, from("198.51.100.8, 198.51.100.7"))).toEqual(refusal(75))
    } finally {
      await proxied.stop()
    }
    // A server with no proxy named counts the connection's address, whatever the header claims.
    nextTest()
    const [a] = servers as [Started<WalletServerInfo>]
    for (let i = 0; i < PASSKEY_LIMIT; i++) expect((await startPasskey(a, { "x-forwarded-for": `203.0.113.${i}` })).status).toBe(200)
    expect(await startPasskey(a, { "x-forwarded-for": "203.0.113.99" })).toEqual(refusal(75))
  })
})

describe("on a real Postgres", () => {
  let postgres: RunningPostgres | undefined
  let database: Started<Database> | undefined
  let pair: ReadonlyArray<Started<WalletServerInfo>> = []

  beforeAll(async () => {
    postgres = await startPostgres()
    database = await startDatabase({ url: postgres.url })
    const options = {
      masterKey: randomBytes(32),
      smtp: { port: 1 },
      database: database.info,
      chains: { evm: [] },
      now: () => clock,
      visitorLimits: { passkey: PASSKEY_LIMIT, farcasterRelay: RELAY_LIMIT, loginStart: LOGIN_START_LIMIT, keyExport: KEY_EXPORT_LIMIT }
    }
    pair = await Promise.all([startWalletServer(options), startWalletServer(options)])
  }, 120_000)

  afterAll(async () => {
    await Promise.all(pair.map((server) => server.stop()))
    await database?.stop()
    await postgres?.stop()
  })

  it("of 12 starts at once on two servers, exactly the limit's worth pass; the count is swept once it weighs no more", async () => {
    nextTest()
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => startPasskey(pair[i % 2] as Started<WalletServerInfo>)))
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(PASSKEY_LIMIT)
    expect(answers.filter((answer) => answer.status === 429)).toHaveLength(12 - PASSKEY_LIMIT)
    const sweep = () => (database as Started<Database>).info.run(pruneBatch(new Date(clock), 100))
    expect((await sweep()).wallet_rate_limits).toBe(0)
    // Kept while it weighs on the next minute, then swept.
    clock += VISITOR_LIMIT_WINDOW_MS
    expect((await sweep()).wallet_rate_limits).toBe(0)
    clock += VISITOR_LIMIT_WINDOW_MS
    expect((await sweep()).wallet_rate_limits).toBe(1)
  })
})
