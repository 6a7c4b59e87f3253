/**
 * The embedded wallet's server (issue 14) against the real mail sink and a real database (PGlite): login by email
 * code, device verification by mailed link, the code's limits (10 minutes, 5 tries, 30 s between mails), sessions,
 * the email update in two codes, no key made by the server (the frame makes them, as the tests do with its own code),
 * a restart on the same data directory, and the project check. Signing is in the frame: wallet-frame-signing.test.ts.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { randomBytes } from "node:crypto"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Database, startDatabase } from "../../server/src/db/index"
import { deviceShareKey } from "../../server/src/embedded/frame/SplitKeys"
import { makeWalletApi, WalletApiError } from "../../server/src/embedded/frame/apiClient"
import { startWalletServer, type WalletServerInfo } from "../../server/src/embedded/server/index"
import type { Started } from "../../server/src/lib/Started"
import { type MailInfo, startMail } from "../../devstack/mail/index"
import { logIn, logInWithKeys, makeKeysAsFrame, newestCode, walletApi } from "./support/walletServerClient"

const MINUTE = 60_000
let clock = Date.now()
const masterKey = randomBytes(32)
let mail: Started<MailInfo>
let db: Started<Database>
let server: Started<WalletServerInfo>
let emails = 0
const freshEmail = (what: string) => `${what}-${++emails}-${Date.now()}@example.test`

beforeAll(async () => {
  ;[mail, db] = await Promise.all([startMail(), startDatabase()])
  server = await startWalletServer({
    masterKey,
    smtp: { port: mail.info.smtpPort },
    database: db.info,
    chains: { evm: [] },
    now: () => clock
  })
})

afterAll(async () => {
  await server?.stop()
  await Promise.all([db?.stop(), mail?.stop()])
})

const api = (opts?: Parameters<typeof walletApi>[1]) => walletApi(server.info.url, opts)

describe("login with a mailed code", () => {
  it("a new email gets VERIFY_OTP and a 6-digit code by mail; the code opens a session, whose two addresses are of the keys the frame makes then", async () => {
    const client = api()
    const email = freshEmail("new")
    expect(await client.loginEmail(`  ${email.toUpperCase()} `)).toEqual({ status: 200, body: { action: "VERIFY_OTP" } })
    const message = mail.info.messages(email)[0]
    // The code is in the subject and the text; one code.
    expect(new Set(message?.codes)).toEqual(new Set([message?.codes[0]]))
    expect(message?.codes[0]).toMatch(/^\d{6}$/)
    const reply = await client.loginOtp(email, message?.codes[0] ?? "")
    expect(reply.status).toBe(200)
    const token = reply.body["token"] as string
    // The server made no key: until the frame makes them, the user has no address, and no request can need one.
    expect(await client.call("GET", "/api/user", undefined, { token })).toEqual({ status: 200, body: { email } })
    expect(await client.call("POST", "/api/rpc", { chainId: "eip155:31337", method: "eth_accounts" }, { token })).toEqual({
      status: 400,
      body: { code: "no_key", error: "This wallet has no key yet: log in again so the wallet makes it" }
    })
    const keys = await makeKeysAsFrame(server.info.url, token)
    expect((await client.call("GET", "/api/user", undefined, { token })).body).toEqual({ email, evmAddress: keys.evmAddress, solanaAddress: keys.solanaAddress })
  })

  it("a wrong code answers invalid_code with the tries left; the 5th wrong one ends the code (too_many_attempts), even for the right code", async () => {
    const client = api()
    const email = freshEmail("wrong")
    await client.loginEmail(email)
    const code = newestCode(mail.info, email, 0)
    const wrong = code === "000000" ? "111111" : "000000"
    for (const left of [4, 3, 2, 1]) {
      expect(await client.loginOtp(email, wrong)).toEqual({
        status: 400,
        body: { code: "invalid_code", attemptsLeft: left, error: expect.stringContaining(`${left}`) }
      })
    }
    const fifth = await client.loginOtp(email, wrong)
    expect(fifth.status).toBe(429)
    expect(fifth.body).toMatchObject({ code: "too_many_attempts", attemptsLeft: 0 })
    expect((await client.loginOtp(email, code)).body["code"]).toBe("too_many_attempts")
    // A new code (after the lockout the used-up code started: a minute for the first) works again.
    clock += 60_000
    const before = mail.info.messages(email).length
    await client.loginEmail(email)
    expect((await client.loginOtp(email, newestCode(mail.info, email, before))).status).toBe(200)
  })

  it("a code expires 10 minutes after it was sent", async () => {
    const client = api()
    const email = freshEmail("expiry")
    await client.loginEmail(email)
    const code = newestCode(mail.info, email, 0)
    clock += 10 * MINUTE
    expect(await client.loginOtp(email, code)).toEqual({ status: 400, body: { code: "code_expired", error: expect.any(String) } })
  })

  it("a second code within 30 s is refused with 'Please try again after N seconds'; after 30 s it is sent", async () => {
    const client = api()
    const email = freshEmail("cooldown")
    await client.loginEmail(email)
    clock += 7_000
    const again = await client.loginEmail(email)
    expect(again).toEqual({
      status: 429,
      body: { code: "rate_limited", error: "Please try again after 23 seconds", retryAfterSeconds: 23 }
    })
    expect(mail.info.messages(email)).toHaveLength(1)
    clock += 23_000
    expect(await client.loginEmail(email)).toEqual({ status: 200, body: { action: "VERIFY_OTP" } })
    expect(mail.info.messages(email)).toHaveLength(2)
  })
})

describe("a known email on a new device", () => {
  it("gets VERIFY_DEVICE and a link; the long-poll answers verified once the link is opened, then the code logs in", async () => {
    const email = freshEmail("device")
    const first = api()
    await logIn(first, mail.info, email)
    clock += 31_000
    const second = api()
    const before = mail.info.messages(email).length
    expect(await second.loginEmail(email)).toEqual({ status: 200, body: { action: "VERIFY_DEVICE" } })
    const linkMail = mail.info.messages(email)[0]
    expect(mail.info.messages(email)).toHaveLength(before + 1)
    const link = /http:\/\/\S+\/api\/device\/verify\?\S+/.exec(linkMail?.text ?? "")?.[0]
    expect(link).toBeDefined()
    // Before the link is opened: not verified at the bound, and a code is refused for this device.
    expect(await second.loginDevice(email, 200)).toEqual({ status: 200, body: { verified: false, waitedMs: expect.any(Number) } })
    expect((await second.loginOtp(email, "123456")).body["code"]).toBe("device_not_verified")
    const waiting = second.loginDevice(email, 20_000)
    const page = await fetch(link ?? "")
    expect(page.status).toBe(200)
    expect(await page.text()).toContain("Device verified")
    expect(await waiting).toEqual({ status: 200, body: { verified: true } })
    const code = newestCode(mail.info, email, before + 1)
    const session = await second.loginOtp(email, code)
    expect(session.status).toBe(200)
    // The link is single use.
    expect((await fetch(link ?? "")).status).toBe(400)
    // The device is remembered: next time it gets a code straight away.
    clock += 31_000
    expect(await second.loginEmail(email)).toEqual({ status: 200, body: { action: "VERIFY_OTP" } })
  })
})

describe("the device link's page", () => {
  it("follows the host's theme the frame passed with the login (SYNC_THEME): dark when it was dark, light otherwise", async () => {
    const email = freshEmail("theme")
    await logIn(api(), mail.info, email)
    const pageOf = async (themeMode: "dark" | undefined) => {
      clock += 31_000
      const client = api()
      const before = mail.info.messages(email).length
      const asked = await client.call("POST", "/api/login/email", { projectId: client.projectId, deviceId: client.deviceId, email, ...(themeMode === undefined ? {} : { themeMode }) })
      expect(asked.body).toEqual({ action: "VERIFY_DEVICE" })
      expect(mail.info.messages(email)).toHaveLength(before + 1)
      const link = /http:\/\/\S+\/api\/device\/verify\?\S+/.exec(mail.info.messages(email)[0]?.text ?? "")?.[0] ?? ""
      const page = await fetch(link)
      expect(page.status).toBe(200)
      return page.text()
    }
    const dark = await pageOf("dark")
    expect(dark).toContain("Device verified")
    expect(dark).toContain("body{background:#141519;color:#e4e7e7}")
    expect(await pageOf(undefined)).not.toContain("#141519")
  })
})

describe("sessions", () => {
  it("logout ends the session: /api/user answers 401 afterwards; no token and an expired session are 401 too", async () => {
    const client = api()
    const email = freshEmail("logout")
    const token = await logIn(client, mail.info, email)
    expect((await client.call("GET", "/api/user", undefined, { token })).status).toBe(200)
    expect(await client.call("POST", "/api/logout", {}, { token })).toEqual({ status: 200, body: { ok: true } })
    expect(await client.call("GET", "/api/user", undefined, { token })).toEqual({
      status: 401,
      body: { code: "unauthorized", error: expect.any(String) }
    })
    expect((await client.call("GET", "/api/user")).body["code"]).toBe("unauthorized")
    expect((await client.call("GET", "/api/user", undefined, { token: "not-a-token" })).status).toBe(401)

    clock += 31_000
    const later = await logIn(client, mail.info, email)
    expect((await client.call("GET", "/api/user", undefined, { token: later })).status).toBe(200)
    clock += 8 * 24 * 60 * MINUTE
    expect((await client.call("GET", "/api/user", undefined, { token: later })).status).toBe(401)
  })
})

describe("updating the email", () => {
  it("takes a code to the current email, then one to the new; the new email logs in to the same wallet, the old one is a new user", async () => {
    const client = api()
    const oldEmail = freshEmail("old")
    const newEmail = freshEmail("new-address")
    const { token } = await logInWithKeys(client, mail.info, oldEmail, server.info.url)
    const before = (await client.call("GET", "/api/user", undefined, { token })).body
    clock += 31_000

    const oldCount = mail.info.messages(oldEmail).length
    expect(await client.call("POST", "/api/email/update", { newEmail }, { token })).toEqual({
      status: 200,
      body: { action: "VERIFY_PRIMARY_OTP" }
    })
    const primary = newestCode(mail.info, oldEmail, oldCount)
    expect((await client.call("POST", "/api/email/update/secondary", { otp: primary }, { token })).body["code"]).toBe("bad_request")
    expect(await client.call("POST", "/api/email/update/primary", { otp: primary }, { token })).toEqual({
      status: 200,
      body: { action: "VERIFY_SECONDARY_OTP" }
    })
    const secondary = newestCode(mail.info, newEmail, 0)
    expect(await client.call("POST", "/api/email/update/secondary", { otp: secondary }, { token })).toEqual({
      status: 200,
      body: { email: newEmail }
    })
    expect((await client.call("GET", "/api/user", undefined, { token })).body).toEqual({ ...before, email: newEmail })

    clock += 31_000
    const again = await logIn(client, mail.info, newEmail)
    expect((await client.call("GET", "/api/user", undefined, { token: again })).body).toEqual({ ...before, email: newEmail })
    // The old email no longer finds the wallet: logging in with it makes another user.
    const old = await logInWithKeys(api(), mail.info, oldEmail, server.info.url)
    const other = (await client.call("GET", "/api/user", undefined, { token: old.token })).body
    expect(other["evmAddress"]).not.toBe(before["evmAddress"])
  })

  it("an email of another wallet is refused: email_taken", async () => {
    const client = api()
    const taken = freshEmail("taken")
    await logIn(api(), mail.info, taken)
    const token = await logIn(client, mail.info, freshEmail("mine"))
    expect(await client.call("POST", "/api/email/update", { newEmail: taken }, { token })).toEqual({
      status: 409,
      body: { code: "email_taken", error: expect.any(String) }
    })
  })
})

describe("keys at rest", () => {
  it("the server makes no key: a new user's keys, made in the frame, leave it only its sealed share; no share, token or code in the clear", async () => {
    const client = api()
    const email = freshEmail("keys")
    const { token, evmAddress, solanaAddress, storage } = await logInWithKeys(client, mail.info, email, server.info.url)
    const dump = await db.info.run(
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const tables = ["wallet_users", "wallet_keys", "wallet_key_shares", "wallet_devices", "wallet_codes", "wallet_sessions"]
        const all: Array<string> = []
        for (const table of tables) all.push(JSON.stringify(yield* sql`SELECT * FROM ${sql(table)}`, (_, v: unknown) =>
          v instanceof Uint8Array ? Buffer.from(v).toString("hex") : typeof v === "bigint" ? v.toString() : v))
        const keys = yield* sql`SELECT k.family FROM wallet_keys k JOIN wallet_users u ON u.id = k.user_id WHERE u.email = ${email}`
        const shares = yield* sql<{ readonly family: string; readonly address: string }>`SELECT s.family, s.address FROM wallet_key_shares s
          JOIN wallet_users u ON u.id = s.user_id WHERE u.email = ${email} ORDER BY s.family`
        const users = yield* sql<{ readonly id: string }>`SELECT id FROM wallet_users WHERE email = ${email}`
        return { all: all.join("\n"), keys, shares, userId: users[0]?.id ?? "" }
      })
    )
    expect(dump.keys).toEqual([])
    expect(dump.shares).toEqual([
      { family: "eip155", address: evmAddress },
      { family: "solana", address: solanaAddress }
    ])
    // The device's share of each key is nowhere on the server, in base64 or hex.
    for (const family of ["eip155", "solana"] as const) {
      const device = JSON.parse(storage.getItem(deviceShareKey(dump.userId, family)) ?? "{}") as { readonly share?: string }
      expect(device.share).toBeDefined()
      expect(dump.all).not.toContain(device.share)
      expect(dump.all).not.toContain(Buffer.from(device.share ?? "", "base64").toString("hex"))
    }
    expect(dump.all).not.toContain(token)
    const code = mail.info.messages(email)[0]?.codes[0] ?? ""
    expect(dump.all).not.toMatch(new RegExp(`"${code}"`))
  })
})

describe("projects and methods", () => {
  it("an unknown projectId is 401 'Unauthorized: invalid key'; another page's origin is 403; an unknown method is method_not_allowed", async () => {
    const stranger = api({ projectId: "no-such-project" })
    expect(await stranger.loginEmail(freshEmail("stranger"))).toEqual({
      status: 401,
      body: { code: "unknown_project", error: "Unauthorized: invalid key" }
    })
    expect((await stranger.call("GET", "/api/chains")).status).toBe(401)
    const client = api()
    const foreign = await client.call("POST", "/api/login/email", { projectId: client.projectId, deviceId: client.deviceId, email: freshEmail("x") }, {
      headers: { origin: "https://evil.example" }
    })
    expect(foreign).toEqual({ status: 403, body: { code: "origin_not_allowed", error: "Unauthorized: origin not allowed" } })
    const own = await client.call("GET", "/api/chains", undefined, { headers: { origin: server.info.url } })
    expect(own).toEqual({ status: 200, body: { chains: [] } })
    expect(await client.call("GET", "/api/project?projectId=devstack-origin-locked")).toEqual({
      status: 200,
      body: { projectId: "devstack-origin-locked", allowedOrigins: ["https://app.example"] }
    })

    const { token } = await logInWithKeys(client, mail.info, freshEmail("methods"), server.info.url)
    expect(await client.call("POST", "/api/rpc", { chainId: "eip155:31337", method: "eth_accounts" }, { token })).toEqual({
      status: 400,
      body: { code: "bad_request", error: "The wallet server does not run the chain eip155:31337" }
    })
    expect((await client.call("POST", "/api/rpc", { chainId: "eip155:31337", method: "eth_accounts" })).status).toBe(401)
    expect((await client.call("POST", "/api/login/email", { projectId: client.projectId, deviceId: "short", email: "a@b.c" })).body["code"]).toBe(
      "bad_request"
    )
  })
})

describe("the declared API", () => {
  it("serves its OpenAPI document: every route, the bearer session, the failure body, Retry-After on 429", async () => {
    const response = await fetch(`${server.info.url}/openapi.json`)
    expect(response.status).toBe(200)
    const doc = (await response.json()) as {
      readonly openapi: string
      readonly paths: Record<string, Record<string, { readonly security?: unknown; readonly responses: Record<string, { readonly headers?: Record<string, unknown> }> }>>
      readonly components: { readonly securitySchemes: Record<string, unknown> }
    }
    expect(doc.openapi).toMatch(/^3\.1\./)
    expect(Object.keys(doc.paths).sort()).toEqual(
      [
        "/api/calls",
        "/api/chains",
        "/api/device/verify",
        "/api/email/update",
        "/api/email/update/primary",
        "/api/email/update/secondary",
        "/api/farcaster/channel",
        "/api/farcaster/status",
        "/api/keys",
        "/api/keys/export/confirm",
        "/api/keys/export/share",
        "/api/keys/export/start",
        "/api/keys/legacy",
        "/api/keys/recovery",
        "/api/keys/server-share",
        "/api/keys/split",
        "/api/login/device",
        "/api/login/email",
        "/api/login/otp",
        "/api/logout",
        "/api/passkey/finish",
        "/api/passkey/options",
        "/api/passkey/start",
        "/api/passkey/verify",
        "/api/permissions/refund",
        "/api/permissions/spend",
        "/api/project",
        "/api/rpc",
        "/api/social/finish",
        "/api/social/start",
        "/api/user",
        "/v1/channel/authenticate"
      ].sort()
    )
    expect(doc.components.securitySchemes).toEqual({ bearer: { type: "http", scheme: "Bearer" } })
    expect(doc.paths["/api/user"]?.["get"]?.security).toEqual([{ bearer: [] }])
    expect(doc.paths["/api/login/email"]?.["post"]?.security).toEqual([])
    const loginEmail = doc.paths["/api/login/email"]?.["post"]?.responses ?? {}
    expect(Object.keys(loginEmail)).toEqual(expect.arrayContaining(["200", "400", "401", "403", "413", "429", "500", "503"]))
    expect(Object.keys(loginEmail["429"]?.headers ?? {})).toEqual(["retry-after"])
  })

  it("a login body with an unknown field or a wrong type is a 400 bad_request naming the field; nothing is mailed", async () => {
    const client = api()
    const email = freshEmail("strict")
    const body = { projectId: client.projectId, deviceId: client.deviceId, email }
    expect(await client.call("POST", "/api/login/email", { ...body, referrer: "x" })).toEqual({
      status: 400,
      body: { code: "bad_request", error: expect.stringMatching(/^Invalid body: .*excess property.*\["referrer"\]/) }
    })
    expect(await client.call("POST", "/api/login/email", { ...body, email: 42 })).toEqual({
      status: 400,
      body: { code: "bad_request", error: expect.stringMatching(/^Invalid body: Expected string.*\["email"\]/) }
    })
    expect(await client.call("POST", "/api/login/otp", { ...body, otp: 123456 })).toEqual({
      status: 400,
      body: { code: "bad_request", error: expect.stringMatching(/^Invalid body: Expected string.*\["otp"\]/) }
    })
    expect((await client.call("GET", "/api/chains?chain=1")).body).toEqual({
      code: "bad_request",
      error: expect.stringMatching(/^Invalid query: .*excess property.*\["chain"\]/)
    })
    const notJson = await fetch(`${server.info.url}/api/login/email`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-project-id": client.projectId },
      body: `{"projectId":"${client.projectId}","email":`
    })
    expect(notJson.status).toBe(400)
    expect(await notJson.json()).toEqual({ code: "bad_request", error: "Invalid body: it is not valid JSON" })
    expect(mail.info.messages(email)).toEqual([])
  })

  it("a body over the server's limit is refused with 413 payload_too_large, with or without the projectId in a header", async () => {
    const client = api()
    const email = `${"a".repeat(1_100_000)}@example.test`
    const body = JSON.stringify({ projectId: client.projectId, deviceId: client.deviceId, email })
    for (const headers of [{}, { "x-project-id": client.projectId }]) {
      const response = await fetch(`${server.info.url}/api/login/email`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body
      })
      expect(response.status).toBe(413)
      expect(await response.json()).toEqual({ code: "payload_too_large", error: "The request body is larger than 1000000 bytes" })
    }
  })

  it("a 429 carries Retry-After, the seconds of its body", async () => {
    const client = api()
    const email = freshEmail("retry-after")
    await client.loginEmail(email)
    clock += 12_000
    const again = await fetch(`${server.info.url}/api/login/email`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ projectId: client.projectId, deviceId: client.deviceId, email })
    })
    expect(again.status).toBe(429)
    expect(again.headers.get("retry-after")).toBe("18")
    expect(await again.json()).toEqual({ code: "rate_limited", error: "Please try again after 18 seconds", retryAfterSeconds: 18 })
  })

  it("the frame's client, derived from the declaration, logs in, reads the user and gets the server's own words on a failure", async () => {
    const email = freshEmail("derived")
    const deviceId = `derived-${Date.now()}-abcdefgh`
    const frameApi = makeWalletApi({ fetch, baseUrl: server.info.url, projectId: "devstack-project" })
    expect(await frameApi.project("devstack-origin-locked")).toEqual({ projectId: "devstack-origin-locked", allowedOrigins: ["https://app.example"] })
    expect(await frameApi.chains()).toEqual({ chains: [] })
    expect(await frameApi.loginEmail({ projectId: "devstack-project", deviceId, email })).toEqual({ action: "VERIFY_OTP" })
    const refused = await frameApi.loginEmail({ projectId: "devstack-project", deviceId, email }).catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(WalletApiError)
    expect(refused).toMatchObject({ code: "rate_limited", status: 429, message: expect.stringMatching(/^Please try again after \d+ seconds$/) })
    const wrong = await frameApi.loginOtp({ projectId: "devstack-project", deviceId, email, otp: "abc" }).catch((error: unknown) => error)
    expect(wrong).toMatchObject({ code: "invalid_code", status: 400, message: "The code is not right: 4 tries left" })
    const { token } = await frameApi.loginOtp({ projectId: "devstack-project", deviceId, email, otp: newestCode(mail.info, email, 0) })
    const user = await frameApi.user(token)
    expect(user.email).toBe(email)
    await makeKeysAsFrame(server.info.url, token)
    const rpc = await frameApi.rpc(token, { chainId: "eip155:31337", method: "eth_accounts" }).catch((error: unknown) => error)
    expect(rpc).toMatchObject({ code: "bad_request", status: 400, message: "The wallet server does not run the chain eip155:31337" })
    await frameApi.logout(token)
    expect(await frameApi.user(token).catch((error: unknown) => error)).toMatchObject({ code: "unauthorized", status: 401 })
    const stranger = makeWalletApi({ fetch, baseUrl: server.info.url, projectId: "no-such-project" })
    expect(await stranger.chains().catch((error: unknown) => error)).toMatchObject({
      code: "unknown_project",
      status: 401,
      message: "Unauthorized: invalid key"
    })
    const nowhere = makeWalletApi({ fetch, baseUrl: "http://127.0.0.1:1", projectId: "devstack-project" })
    expect(await nowhere.chains().catch((error: unknown) => error)).toMatchObject({
      code: undefined,
      status: 0,
      message: expect.stringMatching(/^The wallet server could not be reached/)
    })
  })
})

describe("a restart on the same data directory", () => {
  it("keeps the user and its addresses under the same master key; another master key refuses to start", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "wallet-server-"))
    try {
      const key = randomBytes(32)
      const options = { masterKey: key, smtp: { port: mail.info.smtpPort }, database: { dataDir }, chains: { evm: [] } }
      const email = freshEmail("restart")
      const first = await startWalletServer(options)
      const client = walletApi(first.info.url)
      const { token } = await logInWithKeys(client, mail.info, email, first.info.url)
      const before = await client.call("GET", "/api/user", undefined, { token })
      await first.stop()

      // Started past the 30 s cool-down, so the same email may ask for a new code at once.
      const second = await startWalletServer({ ...options, now: () => Date.now() + 31_000 })
      try {
        const again = walletApi(second.info.url, { deviceId: client.deviceId })
        expect(await again.call("GET", "/api/user", undefined, { token })).toEqual(before)
        const newToken = await logIn(again, mail.info, email)
        expect(await again.call("GET", "/api/user", undefined, { token: newToken })).toEqual(before)
      } finally {
        await second.stop()
      }
      await expect(startWalletServer({ ...options, masterKey: randomBytes(32) })).rejects.toThrow(
        /cannot be decrypted: the wallet server's master key is not the one it was encrypted with/
      )
    } finally {
      rmSync(dataDir, { recursive: true, force: true })
    }
  })
})
