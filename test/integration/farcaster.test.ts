/**
 * Sign In With Farcaster on the wallet server (issue 27) against a real anvil holding the devstack's id registry
 * stand-in and a real database (PGlite): a channel for one device, the test client's message (viem's
 * `createSiweMessage`, signed with the fid's custody key) posted to the channel's relay, the status long-poll opening
 * one session for the fid's user (the same wallet as an email user, the same user next time), and what is refused: a
 * key that is not the fid's custody key, a message claiming another fid, a replay (on the same channel or another),
 * a channel of another device, a channel past its expiry, and Farcaster on a server that is not set up for it.
 */
import { randomBytes } from "node:crypto"
import { privateKeyToAccount } from "viem/accounts"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Database, startDatabase } from "../../server/src/db/index"
import { startWalletServer, type WalletServerInfo } from "../../server/src/embedded/server/index"
import { FARCASTER_CHANNEL_TTL_MS } from "../../server/src/embedded/server/farcaster"
import type { Started } from "../../server/src/lib/Started"
import { startAnvil, type AnvilInfo } from "../../devstack/evm/anvil"
import {
  deployFarcasterRegistry,
  FARCASTER_STRANGER_KEY,
  FARCASTER_TEST_USERS,
  postToRelay,
  readChannelLink,
  signChannel
} from "../../devstack/farcaster/index"
import { makeKeysAsFrame, walletApi } from "./support/walletServerClient"

let anvil: Started<AnvilInfo>
let db: Started<Database>
let server: Started<WalletServerInfo>
let bare: Started<WalletServerInfo>
// The wallet server's clock: a test moves it past a channel's expiry.
let skewMs = 0

const [alice, bob] = FARCASTER_TEST_USERS as [(typeof FARCASTER_TEST_USERS)[number], (typeof FARCASTER_TEST_USERS)[number]]

beforeAll(async () => {
  ;[anvil, db] = await Promise.all([startAnvil({ chainId: 31337 }), startDatabase()])
  const registry = await deployFarcasterRegistry(31337, anvil.info.rpcUrl)
  const common = { masterKey: randomBytes(32), smtp: { port: 1 }, database: db.info, chains: { evm: [] } } as const
  ;[server, bare] = await Promise.all([
    startWalletServer({ ...common, farcaster: registry, now: () => Date.now() + skewMs }),
    startWalletServer(common)
  ])
}, 60_000)

afterAll(async () => {
  await Promise.all([server?.stop(), bare?.stop()])
  await Promise.all([db?.stop(), anvil?.stop()])
})

const openChannel = async (client: ReturnType<typeof walletApi>) => {
  const opened = await client.call("POST", "/api/farcaster/channel", { projectId: client.projectId, deviceId: client.deviceId })
  expect(opened.status).toBe(200)
  const request = readChannelLink(opened.body["url"] as string)
  if (request === undefined) throw new Error(`not a channel link: ${String(opened.body["url"])}`)
  return { request, body: opened.body }
}

const status = (client: ReturnType<typeof walletApi>, channelToken: string, waitMs = 0) =>
  client.call("POST", "/api/farcaster/status", { projectId: client.projectId, deviceId: client.deviceId, channelToken, waitMs })

describe("Sign In With Farcaster", () => {
  it("a channel's link names its token, nonce, domain and URI; the custody key's message signs it; the status opens one session for the fid's user", async () => {
    const client = walletApi(server.info.url)
    const { request, body } = await openChannel(client)
    expect(request.channelToken).toBe(body["channelToken"])
    expect(request.nonce).toMatch(/^[A-Za-z0-9]{24}$/)
    expect(request.domain).toBe(new URL(server.info.publicUrl).host)
    expect(body["expiresAt"]).toBeGreaterThan(Date.now())
    expect((await status(client, request.channelToken)).body).toEqual({ state: "pending" })

    // The long-poll is answered once the client signs, while it waits.
    const waiting = status(client, request.channelToken, 20_000)
    const signed = await signChannel(request, alice.fid, alice.custodyKey)
    const posted = await postToRelay(server.info.url, { channelToken: request.channelToken, ...signed, fid: alice.fid, username: alice.username })
    expect(posted).toEqual({ status: 200, body: { state: "completed", fid: String(alice.fid), username: "alice" } })
    const done = await waiting
    expect(done.status).toBe(200)
    expect(done.body).toMatchObject({ state: "completed", fid: String(alice.fid), username: "alice" })
    const token = done.body["token"] as string
    // The frame makes the new user's keys after the login (frameKeys.ts); the server made none.
    await makeKeysAsFrame(server.info.url, token)
    const user = await client.call("GET", "/api/user", undefined, { token })
    expect(user.status).toBe(200)
    expect(user.body).toMatchObject({ email: null, social: { provider: "farcaster", username: "alice" } })
    expect(user.body["evmAddress"]).toMatch(/^0x[0-9a-fA-F]{40}$/)

    // Used up: asking again opens no second session.
    expect((await status(client, request.channelToken)).body).toMatchObject({ code: "invalid_state" })

    // The same fid next time is the same user (same wallet).
    const again = walletApi(server.info.url)
    const next = await openChannel(again)
    await postToRelay(server.info.url, { channelToken: next.request.channelToken, ...(await signChannel(next.request, alice.fid, alice.custodyKey)), fid: alice.fid, username: "alice" })
    const second = await status(again, next.request.channelToken)
    const secondUser = await again.call("GET", "/api/user", undefined, { token: second.body["token"] as string })
    expect(secondUser.body["evmAddress"]).toBe(user.body["evmAddress"])
  })

  it("refuses a key that is not the fid's custody key, and a custody key claiming another fid; the channel stays open for the right one", async () => {
    const client = walletApi(server.info.url)
    const { request } = await openChannel(client)
    const stranger = await signChannel(request, alice.fid, FARCASTER_STRANGER_KEY)
    const refused = await postToRelay(server.info.url, { channelToken: request.channelToken, ...stranger, fid: alice.fid })
    expect(refused.status).toBe(400)
    expect(refused.body["code"]).toBe("farcaster_refused")
    expect(refused.body["error"]).toMatch(new RegExp(`${privateKeyToAccount(FARCASTER_STRANGER_KEY).address}.*fid ${alice.fid}`, "i"))

    // Bob's key signing for alice's fid.
    const impostor = await signChannel(request, alice.fid, bob.custodyKey)
    expect((await postToRelay(server.info.url, { channelToken: request.channelToken, ...impostor, fid: alice.fid })).body["code"]).toBe("farcaster_refused")
    // Bob's own message, posted as if it were alice's.
    const claimed = await signChannel(request, bob.fid, bob.custodyKey)
    const mismatch = await postToRelay(server.info.url, { channelToken: request.channelToken, ...claimed, fid: alice.fid })
    expect(mismatch.body).toMatchObject({ code: "farcaster_refused", error: `The message is signed for fid ${bob.fid}, not ${alice.fid}` })
    // A signature over another text.
    const tampered = { ...claimed, message: claimed.message.replace("Farcaster Auth", "Farcaster Auth ") }
    expect((await postToRelay(server.info.url, { channelToken: request.channelToken, ...tampered, fid: bob.fid })).status).toBe(400)

    expect((await status(client, request.channelToken)).body).toEqual({ state: "pending" })
    expect((await postToRelay(server.info.url, { channelToken: request.channelToken, ...claimed, fid: bob.fid, username: bob.username })).status).toBe(200)
    expect((await status(client, request.channelToken)).body).toMatchObject({ state: "completed", username: "bob" })
  })

  it("refuses a replay: the same message again on its channel, and on another channel (another nonce)", async () => {
    const client = walletApi(server.info.url)
    const first = await openChannel(client)
    const signed = await signChannel(first.request, alice.fid, alice.custodyKey)
    expect((await postToRelay(server.info.url, { channelToken: first.request.channelToken, ...signed, fid: alice.fid })).status).toBe(200)
    const replay = await postToRelay(server.info.url, { channelToken: first.request.channelToken, ...signed, fid: alice.fid })
    expect(replay.body).toMatchObject({ code: "farcaster_refused", error: "This sign-in link was signed already" })

    const other = await openChannel(client)
    const elsewhere = await postToRelay(server.info.url, { channelToken: other.request.channelToken, ...signed, fid: alice.fid })
    expect(elsewhere.status).toBe(400)
    expect(elsewhere.body["error"]).toMatch(/nonce/i)
    expect((await status(client, other.request.channelToken)).body).toEqual({ state: "pending" })
  })

  it("a channel is this device's only, and over at its expiry", async () => {
    const owner = walletApi(server.info.url)
    const { request } = await openChannel(owner)
    const thief = walletApi(server.info.url)
    expect((await status(thief, request.channelToken)).body).toMatchObject({ code: "invalid_state" })

    skewMs = FARCASTER_CHANNEL_TTL_MS + 1_000
    try {
      const late = await postToRelay(server.info.url, { channelToken: request.channelToken, ...(await signChannel(request, alice.fid, alice.custodyKey)), fid: alice.fid })
      expect(late.body).toMatchObject({ code: "channel_expired", error: "This sign-in link has expired" })
      expect((await status(owner, request.channelToken)).body).toMatchObject({ code: "channel_expired", error: "The Farcaster sign-in expired: try again" })
    } finally {
      skewMs = 0
    }
  })

  it("a wallet server without Farcaster says so", async () => {
    const client = walletApi(bare.info.url)
    const opened = await client.call("POST", "/api/farcaster/channel", { projectId: client.projectId, deviceId: client.deviceId })
    expect(opened.body).toMatchObject({ code: "farcaster_not_configured", error: "Log in with Farcaster is not set up on this wallet server" })
  })
})
