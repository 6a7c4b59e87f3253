/**
 * The wallet server deletes what anyone may start once it can no longer be used (`server/src/embedded/server/prune.ts`),
 * against a real database (PGlite): passkey ceremonies, Farcaster channels, social logins, one-time codes and
 * sessions an hour past their expiry by the server's clock, and the visitor limits' counts of windows that are over, swept while the server
 * runs; what is still good, or expired less than an hour ago, stays. A sweep's statements each delete a bounded batch.
 */
import { randomBytes } from "node:crypto"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Database, startDatabase } from "../../server/src/db/index"
import { startWalletServer, type WalletServerInfo } from "../../server/src/embedded/server/index"
import { CODE_TTL_MS, SESSION_TTL_MS, SOCIAL_LOGIN_TTL_MS } from "../../server/src/embedded/server/handlers"
import { PRUNE_GRACE_MS, pruneBatch } from "../../server/src/embedded/server/prune"
import { PASSKEY_CEREMONY_TTL_MS } from "../../server/src/embedded/server/passkeys"
import { EXPORT_GRANT_TTL_MS } from "../../server/src/embedded/server/exportGrants"
import * as shareStore from "../../server/src/embedded/server/shareStore"
import * as store from "../../server/src/embedded/server/store"
import type { Started } from "../../server/src/lib/Started"
import { SoftAuthenticator } from "./support/softAuthenticator"
import { walletApi } from "./support/walletServerClient"

const HOST = "http://127.0.0.1:5173"
let db: Started<Database>
let server: Started<WalletServerInfo>
// The server's clock: moved past expiries.
let clock = Date.now()

beforeAll(async () => {
  db = await startDatabase()
  server = await startWalletServer({
    masterKey: randomBytes(32),
    smtp: { port: 1 },
    database: db.info,
    chains: { evm: [] },
    now: () => clock,
    // Channels are opened without reading the chain: nothing answers at this address, and nothing needs to.
    farcaster: { rpcUrl: "http://127.0.0.1:1", idRegistry: "0x00000000Fc6c5F01Fc30151999387Bb99A9f489b" },
    pruneEveryMs: 200,
    visitorLimits: { passkey: 1000 }
  })
}, 60_000)

afterAll(async () => {
  await server?.stop()
  await db?.stop()
})

const query = <A>(effect: (sql: SqlClient.SqlClient) => Effect.Effect<A, unknown>) => db.info.run(Effect.flatMap(Effect.service(SqlClient.SqlClient), effect))

const countOf = async (table: string) => {
  const [row] = await query((sql) => sql<{ readonly n: number }>`SELECT count(*)::int AS n FROM ${sql(table)}`)
  return row?.n ?? 0
}

const rowsLeft = async () => ({
  ceremonies: await countOf("wallet_passkey_ceremonies"),
  channels: await countOf("wallet_farcaster_channels"),
  socialLogins: await countOf("wallet_social_logins"),
  limitCounts: await countOf("wallet_rate_limits"),
  exportGrants: await countOf("wallet_export_grants")
})

const startCeremony = async (client: ReturnType<typeof walletApi>) => {
  const started = await client.call("POST", "/api/passkey/start", { projectId: client.projectId, deviceId: client.deviceId, mode: "login", hostOrigin: HOST })
  expect(started.status, JSON.stringify(started.body)).toBe(200)
  return new URL(started.body["uri"] as string).searchParams.get("state") ?? ""
}

const openChannel = async (client: ReturnType<typeof walletApi>) => {
  const opened = await client.call("POST", "/api/farcaster/channel", { projectId: client.projectId, deviceId: client.deviceId })
  expect(opened.status, JSON.stringify(opened.body)).toBe(200)
  return opened.body["channelToken"] as string
}

// An export's grant made at `at` (a few minutes' life), as a confirmation leaves it.
const insertExportGrant = (at: number) =>
  db.info.run(
    shareStore.insertExportGrants([{ grantHash: randomBytes(32).toString("hex"), family: "eip155" }], { sessionHash: "session", userId: "user" }, new Date(at), new Date(at + EXPORT_GRANT_TTL_MS))
  )

const insertSocialLogin = (at: number) =>
  db.info.run(
    store.insertSocialLogin(
      randomBytes(32).toString("hex"),
      { project_id: "devstack-project", device_id: "device-prune-test-01", provider: "google", host_origin: HOST, return_to: null, theme_mode: null },
      new Date(at),
      new Date(at + SOCIAL_LOGIN_TTL_MS)
    )
  )

describe("pruning expired rows", () => {
  it("deletes ceremonies, channels, social logins and export grants an hour past their expiry and the counts of windows over; keeps the rest", async () => {
    const client = walletApi(server.info.url)
    // Started now: gone once the clock is past their expiry and the hour after it.
    const oldState = await startCeremony(client)
    await startCeremony(client)
    await openChannel(client)
    await insertSocialLogin(clock)
    await insertExportGrant(clock)
    // A Farcaster client's message: counted for this address (the count whose window is over after the move; the
    // passkey routes' and the login starts' begin a new window then).
    const posted = await client.call("POST", "/v1/channel/authenticate", { channelToken: "unknown", message: "m", signature: "0x00", fid: 1 })
    expect(posted.body["code"]).toBe("invalid_state")
    // Counts for this address: the passkey routes, the login starts (the channel), the relay.
    expect(await rowsLeft()).toEqual({ ceremonies: 2, channels: 1, socialLogins: 1, limitCounts: 3, exportGrants: 1 })

    // Past the longest of their lives (the social login's 10 minutes) and the hour after.
    clock += SOCIAL_LOGIN_TTL_MS + PRUNE_GRACE_MS + 1_000
    // Started now: still good; and one expired just now, within its hour.
    const freshState = await startCeremony(client)
    await openChannel(client)
    await insertSocialLogin(clock)
    await insertSocialLogin(clock - 11 * 60_000)
    await insertExportGrant(clock - 4 * 60_000)

    await expect.poll(rowsLeft, { timeout: 10_000 }).toEqual({ ceremonies: 1, channels: 1, socialLogins: 2, limitCounts: 2, exportGrants: 1 })
    const options = (state: string) => client.call("POST", "/api/passkey/options", { projectId: client.projectId, state })
    expect((await options(freshState)).status).toBe(200)
    expect((await options(oldState)).body["code"]).toBe("invalid_state")
  })

  it("deletes one-time codes and sessions an hour past their expiry; a live session stays and still opens", async () => {
    // A session of a new passkey user, made as the frame makes it.
    const client = walletApi(server.info.url)
    const key = new SoftAuthenticator({ origin: server.info.publicUrl, rpId: new URL(server.info.publicUrl).hostname })
    const state = await (async () => {
      const started = await client.call("POST", "/api/passkey/start", { projectId: client.projectId, deviceId: client.deviceId, mode: "create", hostOrigin: HOST })
      return new URL(started.body["uri"] as string).searchParams.get("state") ?? ""
    })()
    const read = await client.call("POST", "/api/passkey/options", { projectId: client.projectId, state })
    expect((await client.call("POST", "/api/passkey/verify", { projectId: client.projectId, state, response: key.register(read.body["options"] as Record<string, unknown>) })).status).toBe(200)
    const token = (await client.call("POST", "/api/passkey/finish", { projectId: client.projectId, deviceId: client.deviceId, state })).body["token"] as string
    const email = `prune-${Date.now()}@example.test`
    await db.info.run(store.insertCode(email, "login", "hash", new Date(clock), new Date(clock + CODE_TTL_MS)))
    const counts = async () => ({ codes: await countOf("wallet_codes"), sessions: await countOf("wallet_sessions") })
    expect(await counts()).toEqual({ codes: 1, sessions: 1 })

    // The code is long gone; the session is still good.
    clock += CODE_TTL_MS + PRUNE_GRACE_MS + 1_000
    await expect.poll(counts, { timeout: 10_000 }).toEqual({ codes: 0, sessions: 1 })
    expect((await client.call("GET", "/api/user", undefined, { token })).status).toBe(200)

    clock += SESSION_TTL_MS + PRUNE_GRACE_MS
    await expect.poll(counts, { timeout: 10_000 }).toEqual({ codes: 0, sessions: 0 })
    expect((await client.call("GET", "/api/user", undefined, { token })).body["code"]).toBe("unauthorized")
  })

  it("each statement deletes at most its batch", async () => {
    // A database of its own, which no server sweeps meanwhile.
    const own = await startDatabase()
    try {
      const dayAgo = clock - 24 * 60 * 60_000
      for (let i = 0; i < 5; i++) {
        await own.info.run(
          Effect.flatMap(Effect.service(SqlClient.SqlClient), (sql) =>
            sql`INSERT INTO wallet_passkey_ceremonies (state_hash, project_id, device_id, mode, host_origin, challenge, user_handle, created_at, expires_at)
              VALUES (${`old-${i}`}, 'devstack-project', 'device-prune-test-01', 'login', ${HOST}, 'c', '', ${new Date(dayAgo)}, ${new Date(dayAgo + PASSKEY_CEREMONY_TTL_MS)})`
          )
        )
      }
      const batches = []
      for (let i = 0; i < 4; i++) batches.push((await own.info.run(pruneBatch(new Date(clock), 2))).wallet_passkey_ceremonies)
      expect(batches).toEqual([2, 2, 1, 0])
    } finally {
      await own.stop()
    }
  })
})
