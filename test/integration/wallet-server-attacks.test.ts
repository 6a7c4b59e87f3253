/**
 * The embedded wallet's server under the attacks of issue 32, against the real mail sink and each database it runs
 * on (the embedded PGlite and a throw-away Postgres, `../support/postgres.ts`): one-time-code guesses sent at once,
 * a lockout per email across codes, cool-downs under concurrent requests, emails a mail server refuses, and the
 * answers of the declared API to bodies and routes it does not take.
 */
import { randomBytes } from "node:crypto"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Database, startDatabase } from "../../server/src/db/index"
import { startWalletServer, type WalletServerInfo } from "../../server/src/embedded/server/index"
import type { Started } from "../../server/src/lib/Started"
import { type MailInfo, startMail } from "../../devstack/mail/index"
import { type RunningPostgres, startPostgres } from "../support/postgres"
import { logIn, newestCode, walletApi } from "./support/walletServerClient"

let clock = Date.now()
let mail: Started<MailInfo>
let emails = 0
const freshEmail = (what: string) => `${what}-${++emails}-${Date.now()}@example.test`

beforeAll(async () => {
  mail = await startMail()
})
afterAll(async () => {
  await mail?.stop()
})

const databases: ReadonlyArray<{ readonly name: string; readonly start: () => Promise<{ readonly db: Started<Database>; readonly stop: () => Promise<void> }> }> = [
  {
    name: "PGlite",
    start: async () => {
      const db = await startDatabase()
      return { db, stop: () => db.stop() }
    }
  },
  {
    name: "Postgres",
    start: async () => {
      const postgres: RunningPostgres = await startPostgres()
      const db = await startDatabase({ url: postgres.url })
      return {
        db,
        stop: async () => {
          await db.stop()
          await postgres.stop()
        }
      }
    }
  }
]

describe.each(databases)("on $name", ({ start }) => {
  let database: Awaited<ReturnType<typeof start>>
  let server: Started<WalletServerInfo>

  beforeAll(async () => {
    database = await start()
    server = await startWalletServer({
      masterKey: randomBytes(32),
      smtp: { port: mail.info.smtpPort },
      database: database.db.info,
      chains: { evm: [] },
      now: () => clock
    })
  }, 120_000)

  afterAll(async () => {
    await server?.stop()
    await database?.stop()
  })

  const api = (opts?: Parameters<typeof walletApi>[1]) => walletApi(server.info.url, opts)
  const storedCodes = () =>
    database.db.info.run(
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const [row] = yield* sql<{ readonly n: number }>`SELECT count(*)::int AS n FROM wallet_codes`
        return row?.n ?? 0
      })
    )

  it("30 guesses of one code sent at once: only 5 are weighed, so the right one sent 12th is refused", async () => {
    const client = api()
    const email = freshEmail("burst")
    await client.loginEmail(email)
    const code = newestCode(mail.info, email, 0)
    const wrong = (i: number) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, "0")
    const guesses = Array.from({ length: 30 }, (_, i) => (i === 11 ? code : wrong(i)))
    const answers = await Promise.all(guesses.map((otp) => client.loginOtp(email, otp)))
    expect(answers[11]).toMatchObject({ status: 429, body: { code: "too_many_attempts", attemptsLeft: 0 } })
    expect(answers.filter((a) => a.status === 200)).toEqual([])
    // Five tries were counted, the rest refused before they were compared; the code is over.
    expect(answers.filter((a) => a.status === 400).map((a) => a.body["attemptsLeft"]).sort()).toEqual([1, 2, 3, 4])
    expect(answers.filter((a) => a.status === 429)).toHaveLength(26)
    expect((await client.loginOtp(email, code)).body["code"]).toBe("too_many_attempts")
  })

  it("a used-up code locks the email out of new codes, for longer at each code used up; the right code clears it", async () => {
    const client = api()
    const email = freshEmail("lockout")
    const exhaust = async (before: number) => {
      const code = newestCode(mail.info, email, before)
      const wrong = code === "000000" ? "111111" : "000000"
      for (let i = 0; i < 5; i++) await client.loginOtp(email, wrong)
      return code
    }
    await client.loginEmail(email)
    await exhaust(0)
    // Past the 30 s cool-down, no new code yet: the first lock is a minute.
    clock += 31_000
    const locked = await client.loginEmail(email)
    expect(locked).toEqual({
      status: 429,
      body: { code: "too_many_attempts", error: "Too many wrong codes: please try again after 29 seconds", retryAfterSeconds: 29 }
    })
    expect(mail.info.messages(email)).toHaveLength(1)
    clock += 29_000
    expect(await client.loginEmail(email)).toEqual({ status: 200, body: { action: "VERIFY_OTP" } })
    await exhaust(1)
    // The second lock is two minutes.
    clock += 61_000
    expect(await client.loginEmail(email)).toMatchObject({ status: 429, body: { code: "too_many_attempts", retryAfterSeconds: 59 } })
    clock += 59_000
    expect((await client.loginEmail(email)).status).toBe(200)
    expect((await client.loginOtp(email, newestCode(mail.info, email, 2))).status).toBe(200)
    // A login clears the count: the next used-up code locks for a minute again.
    clock += 31_000
    await client.loginEmail(email)
    await exhaust(3)
    clock += 31_000
    expect(await client.loginEmail(email)).toMatchObject({ status: 429, body: { retryAfterSeconds: 29 } })
  })

  it("wrong guesses count across codes: 4 on one code and 1 on the next lock the email out as 5 on one code do", async () => {
    const client = api()
    const email = freshEmail("spread")
    await client.loginEmail(email)
    const first = newestCode(mail.info, email, 0)
    for (let i = 0; i < 4; i++) expect((await client.loginOtp(email, first === "000000" ? "111111" : "000000")).status).toBe(400)
    clock += 31_000
    expect((await client.loginEmail(email)).status).toBe(200)
    const second = newestCode(mail.info, email, 1)
    expect((await client.loginOtp(email, second === "000000" ? "111111" : "000000")).body).toMatchObject({ code: "invalid_code", attemptsLeft: 4 })
    clock += 31_000
    expect(await client.loginEmail(email)).toMatchObject({ status: 429, body: { code: "too_many_attempts", retryAfterSeconds: 29 } })
  })

  it("200 logins of one new email at once mail 1 code; the others are told to wait", async () => {
    const email = freshEmail("crowd")
    const answers = await Promise.all(Array.from({ length: 200 }, () => api().loginEmail(email)))
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1)
    expect(answers.filter((a) => a.status === 429 && a.body["code"] === "rate_limited")).toHaveLength(199)
    expect(mail.info.messages(email)).toHaveLength(1)
  })

  it("100 checks of one verified device at once mail 1 code", async () => {
    const email = freshEmail("device-crowd")
    const first = api()
    await logIn(first, mail.info, email)
    clock += 31_000
    const second = api()
    expect(await second.loginEmail(email)).toEqual({ status: 200, body: { action: "VERIFY_DEVICE" } })
    const link = /http:\/\/\S+\/api\/device\/verify\?\S+/.exec(mail.info.messages(email)[0]?.text ?? "")?.[0] ?? ""
    expect((await fetch(link)).status).toBe(200)
    const before = mail.info.messages(email).length
    const answers = await Promise.all(Array.from({ length: 100 }, () => second.loginDevice(email, 0)))
    expect(answers.every((a) => a.status === 200 && a.body["verified"] === true)).toBe(true)
    expect(mail.info.messages(email)).toHaveLength(before + 1)
  })

  it.each([
    ["a trailing '--", "visitor@example.test'--"],
    ["a trailing >", "visitor@example.test>"],
    ["U+0085", "visi\u0085tor@example.test"],
    ["a zero-width space", "visi\u200btor@example.test"],
    ["a trailing dot", "visitor@example.test."],
    ["a NUL byte", "visi\u0000tor@example.test"],
    ["a letter outside ASCII (no SMTPUTF8 here)", "jürgen@example.test"]
  ])("an email with %s is a 400 naming the field; nothing is stored or mailed", async (_, email) => {
    const client = api()
    const codes = await storedCodes()
    const answer = await client.loginEmail(email)
    expect(answer).toEqual({ status: 400, body: { code: "bad_request", error: expect.stringMatching(/\(email\)$/) } })
    expect(await storedCodes()).toBe(codes)
    expect(mail.info.messages(email)).toEqual([])
    const token = await logIn(client, mail.info, freshEmail("owner"))
    const update = await client.call("POST", "/api/email/update", { newEmail: email }, { token })
    expect(update).toEqual({ status: 400, body: { code: "bad_request", error: expect.stringMatching(/\(newEmail\)$/) } })
  })

  it("a 10 MB body is a 413; malformed JSON, an unknown route and a wrong method answer the failure body with its code", async () => {
    const client = api()
    const big = await fetch(`${server.info.url}/api/login/email`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ projectId: client.projectId, deviceId: client.deviceId, email: `${"a".repeat(10_000_000)}@example.test` })
    })
    expect(big.status).toBe(413)
    expect(await big.json()).toMatchObject({ code: "payload_too_large" })
    const malformed = await fetch(`${server.info.url}/api/login/otp`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-project-id": client.projectId },
      body: "{"
    })
    expect(malformed.status).toBe(400)
    expect(await malformed.json()).toMatchObject({ code: "bad_request" })
    const missing = await fetch(`${server.info.url}/api/no-such-route`)
    expect(missing.status).toBe(404)
    expect(await missing.json()).toEqual({ code: "not_found", error: "No endpoint GET /api/no-such-route" })
    const wrongMethod = await fetch(`${server.info.url}/api/login/email`)
    expect(wrongMethod.status).toBe(405)
    expect(wrongMethod.headers.get("allow")).toBe("POST")
    expect(await wrongMethod.json()).toEqual({ code: "method_not_allowed", error: "Method GET is not allowed on /api/login/email" })
  })
})
