/**
 * The wallet server's long-polls (the device link's wait, `POST /api/login/device`, and Farcaster's status,
 * `POST /api/farcaster/status`) against a real wallet server and database (PGlite): one network address holds at
 * most `visitorLimits.longPolls` of each waiting at once and the process at most `longPollsInProcess`; past them a
 * 429 `rate_limited` says when the first wait ends. A poll gives its place back however it ends: answered (its link
 * opened, its channel signed, its bound reached on the server's clock), failed (its channel gone), or its client gone.
 * Each test opens one more poll than fits, all at once: whichever arrives last is the one refused, and it answers at
 * once while the others wait.
 */
import { randomBytes, randomUUID } from "node:crypto"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { TestClock } from "effect/testing"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import { type Database, startDatabase } from "../../server/src/db/index"
import { startWalletServer, type WalletServerInfo } from "../../server/src/embedded/server/index"
import { FARCASTER_POLL_MS } from "../../server/src/embedded/server/handlers"
import { newToken, tokenHash } from "../../server/src/embedded/server/keys"
import * as store from "../../server/src/embedded/server/store"
import type { Started } from "../../server/src/lib/Started"
import { makeWalletApi } from "../../server/src/embedded/frame/apiClient"
import { FRAME_STORAGE_KEYS, makeFrame, makeMemoryStorage } from "../../server/src/embedded/frame/frameLogic"
import type { FrameResponse } from "../../src/domain/Frame"

const LONG_POLLS = 3
const WAIT_MS = 20_000
const PROJECT = "devstack-project"
let db: Started<Database>
let server: Started<WalletServerInfo>
// The server's clock: it moves only when a test moves it, so a refusal's wait is exact and a poll's bound ends at once.
let clock: TestClock.TestClock
const now = () => clock.currentTimeMillisUnsafe()

beforeAll(async () => {
  db = await startDatabase()
  clock = await Effect.runPromise(Effect.scoped(TestClock.make({ warningDelay: "1 day" })))
  await Effect.runPromise(clock.setTime(Date.now()))
  server = await startWalletServer({ ...common(), visitorLimits: { longPolls: LONG_POLLS } })
}, 60_000)

/** What every server of these tests shares: the database and the clock; no mail leaves. */
const common = () => ({ masterKey: randomBytes(32), smtp: { port: 1 }, sendMail: async () => {}, database: db.info, chains: { evm: [] }, clock, now })

afterAll(async () => {
  await server?.stop()
  await db?.stop()
})

type Reply = { readonly status: number; readonly retryAfter: string | null; readonly body: Record<string, unknown> }

/** A request held open by the server: its answer (or `"gone"` once its client left), whether it came, and the client leaving. */
interface Poll {
  readonly answer: Promise<Reply | "gone">
  readonly answered: () => boolean
  readonly leave: () => void
}

const poll = (target: Started<WalletServerInfo>, path: string, body: Record<string, unknown>, headers: Record<string, string> = {}): Poll => {
  const client = new AbortController()
  let answered = false
  const answer = fetch(new URL(path, target.info.url), {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify({ projectId: PROJECT, ...body }),
    signal: client.signal
  })
    .then(async (response): Promise<Reply> => {
      const text = await response.text()
      return { status: response.status, retryAfter: response.headers.get("retry-after"), body: text === "" ? {} : (JSON.parse(text) as Record<string, unknown>) }
    })
    .catch((error: unknown) => {
      if (client.signal.aborted) return "gone" as const
      throw error
    })
    .finally(() => {
      answered = true
    })
  return { answer, answered: () => answered, leave: () => client.abort() }
}

/** The first of `polls` to answer, and which it is. */
const firstAnswer = (polls: ReadonlyArray<Poll>) => Promise.race(polls.map((p, index) => p.answer.then((answer) => ({ index, answer }))))

const refusal = (where: "from your network" | "on the wallet server", seconds: number): Reply => ({
  status: 429,
  retryAfter: String(seconds),
  body: { code: "rate_limited", error: `Too many logins are waiting ${where}. Please try again after ${seconds} seconds.`, retryAfterSeconds: seconds }
})

/** A user with `count` devices, each waiting for its mailed link (as a login from a new device leaves it). */
const userWithNewDevices = async (count: number) => {
  const userId = randomUUID()
  const email = `long-polls-${userId}@example.com`
  await db.info.run(store.insertUser({ id: userId, email }, new Date(now())))
  const devices: Array<{ readonly deviceId: string; readonly token: string }> = []
  for (let i = 0; i < count; i++) {
    const device = { deviceId: `long-poll-${randomBytes(8).toString("hex")}`, token: newToken() }
    await db.info.run(store.setDeviceLink(userId, device.deviceId, tokenHash(device.token), new Date(now()), new Date(now() + 10 * 60_000)))
    devices.push(device)
  }
  return { email, devices }
}

const deviceWait = (email: string, deviceId: string, waitMs = WAIT_MS, target = server, headers: Record<string, string> = {}) =>
  poll(target, "/api/login/device", { deviceId, email, waitMs }, headers)

/** A Farcaster channel of `deviceId` no client has signed yet, as `POST /api/farcaster/channel` leaves it, good for `ttlMs`. */
const newChannel = async (deviceId: string, ttlMs = 10 * 60_000) => {
  const token = newToken()
  const terms = { domain: new URL(server.info.publicUrl).host, siweUri: server.info.publicUrl }
  await db.info.run(store.insertFarcasterChannel(tokenHash(token), { projectId: PROJECT, deviceId, nonce: randomBytes(12).toString("hex"), ...terms }, new Date(now()), new Date(now() + ttlMs)))
  return token
}

/** Moves the server's clock on, a Farcaster poll's interval at a time, until `p` has read its channel again and answered. */
const readAgainUntilAnswered = (p: Poll) =>
  vi.waitFor(
    async () => {
      await Effect.runPromise(clock.adjust(FARCASTER_POLL_MS))
      expect(p.answered()).toBe(true)
    },
    { timeout: 10_000, interval: 50 }
  )

/** Moves the server's clock past the polls' bound until every one of `polls` has answered (each a bounded wait). */
const endByTheirBound = (polls: ReadonlyArray<Poll>) =>
  vi.waitFor(
    async () => {
      await Effect.runPromise(clock.adjust(WAIT_MS))
      expect(polls.every((p) => p.answered())).toBe(true)
    },
    { timeout: 10_000, interval: 20 }
  )

describe("the device link's long-poll", () => {
  it("holds at most the limit per address: one more is refused at once with when the first wait ends; a poll answered, ended by its bound or whose client left gives its place back", async () => {
    const { email, devices } = await userWithNewDevices(LONG_POLLS + 2)
    const spare = devices[LONG_POLLS + 1] as (typeof devices)[number]
    const first = devices.slice(0, LONG_POLLS + 1).map((device) => deviceWait(email, device.deviceId))
    const refused = await firstAnswer(first)
    expect(refused.answer).toEqual(refusal("from your network", 20))
    const waiting = first.filter((_, index) => index !== refused.index)
    const refusedDevice = devices[refused.index] as (typeof devices)[number]
    const [linked, left, ...others] = waiting as [Poll, Poll, ...Array<Poll>]

    // Answered: the link of its device is opened.
    const linkedDevice = devices[first.indexOf(linked)] as (typeof devices)[number]
    const page = await fetch(new URL(`/api/device/verify?projectId=${PROJECT}&token=${linkedDevice.token}`, server.info.url))
    expect(page.status).toBe(200)
    expect(await linked.answer).toEqual({ status: 200, retryAfter: null, body: { verified: true } })
    // Its place is free: of two polls sent at once, one waits in it and the other is refused.
    const second = [deviceWait(email, refusedDevice.deviceId), deviceWait(email, spare.deviceId)]
    const refusedAgain = await firstAnswer(second)
    expect(refusedAgain.answer).toMatchObject({ status: 429, body: { code: "rate_limited" } })
    const taken = second[1 - refusedAgain.index] as Poll

    // Its client left: the server lets the place go once it sees the connection closed.
    left.leave()
    expect(await left.answer).toBe("gone")
    await vi.waitFor(async () => expect((await deviceWait(email, spare.deviceId, 0).answer) as Reply).toMatchObject({ status: 200, body: { verified: false } }), {
      timeout: 10_000,
      interval: 20
    })
    const third = [deviceWait(email, refusedDevice.deviceId), deviceWait(email, spare.deviceId)]
    const refusedThird = await firstAnswer(third)
    expect(refusedThird.answer).toMatchObject({ status: 429, body: { code: "rate_limited" } })

    // Ended by its bound on the server's clock: each waiting poll answers not verified, and every place is free again.
    const stillWaiting = [...others, taken, third[1 - refusedThird.index] as Poll]
    expect(stillWaiting).toHaveLength(LONG_POLLS)
    await endByTheirBound(stillWaiting)
    for (const p of stillWaiting) expect(await p.answer).toMatchObject({ status: 200, body: { verified: false } })
    const after = Array.from({ length: LONG_POLLS + 1 }, () => deviceWait(email, spare.deviceId))
    expect((await firstAnswer(after)).answer).toEqual(refusal("from your network", 20))
    await endByTheirBound(after)
  })
})

describe("Farcaster's status long-poll", () => {
  it("is counted apart from the device link's; a poll that fails (its channel gone) or is answered (signed) gives its place back", async () => {
    const { email, devices } = await userWithNewDevices(1)
    const device = devices[0] as (typeof devices)[number]
    // The address's device polls are all waiting: they take none of Farcaster's places.
    const deviceWaits = Array.from({ length: LONG_POLLS }, () => deviceWait(email, device.deviceId))
    const farcasterDevice = `farcaster-${randomBytes(8).toString("hex")}`
    const channels = await Promise.all(Array.from({ length: LONG_POLLS + 2 }, () => newChannel(farcasterDevice)))
    const status = (channelToken: string) => poll(server, "/api/farcaster/status", { deviceId: farcasterDevice, channelToken, waitMs: WAIT_MS })
    const first = channels.slice(0, LONG_POLLS + 1).map(status)
    const refused = await firstAnswer(first)
    expect(refused.answer).toEqual(refusal("from your network", 20))
    expect(deviceWaits.some((p) => p.answered())).toBe(false)

    // Failed: its channel is gone while it waits (read again every 500 ms of the server's clock).
    const failing = first.find((_, index) => index !== refused.index) as Poll
    const gone = channels[first.indexOf(failing)] as string
    await db.info.run(
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        yield* sql`DELETE FROM wallet_farcaster_channels WHERE token_hash = ${tokenHash(gone)}`
      })
    )
    await readAgainUntilAnswered(failing)
    expect(await failing.answer).toMatchObject({ status: 400, body: { code: "invalid_state" } })
    const second = [status(channels[refused.index] as string), status(channels[LONG_POLLS + 1] as string)]
    const refusedAgain = await firstAnswer(second)
    expect(refusedAgain.answer).toMatchObject({ status: 429, body: { code: "rate_limited" } })

    // Answered: a Farcaster client signs its channel; the poll opens a session and its place is free.
    const taken = second[1 - refusedAgain.index] as Poll
    const secondChannels = [channels[refused.index], channels[LONG_POLLS + 1]] as [string, string]
    const takenChannel = secondChannels[1 - refusedAgain.index] as string
    await db.info.run(store.signFarcasterChannel(tokenHash(takenChannel), { fid: "4242", username: "long-poll" }, new Date(now())))
    await readAgainUntilAnswered(taken)
    expect(await taken.answer).toMatchObject({ status: 200, body: { state: "completed", fid: "4242" } })
    const probe = await poll(server, "/api/farcaster/status", { deviceId: farcasterDevice, channelToken: secondChannels[refusedAgain.index] as string, waitMs: 0 }).answer
    expect(probe).toMatchObject({ status: 200, body: { state: "pending" } })

    for (const p of [...first, ...second]) p.leave()
    await endByTheirBound(deviceWaits)
  })

  it("waits on the server's clock, as the device link's does: moved past the bound, each poll answers pending and gives its place back, so a refusal's wait is the whole bound again", async () => {
    const deviceId = `farcaster-${randomBytes(8).toString("hex")}`
    // Good for a day: however often the clock is moved past a bound, the channels wait unsigned, not expired.
    const channels = await Promise.all(Array.from({ length: LONG_POLLS + 1 }, () => newChannel(deviceId, 24 * 60 * 60_000)))
    const status = (channelToken: string) => poll(server, "/api/farcaster/status", { deviceId, channelToken, waitMs: WAIT_MS })
    const first = channels.map(status)
    const refused = await firstAnswer(first)
    expect(refused.answer).toEqual(refusal("from your network", 20))
    // The bound reached on the server's clock (the real one barely moved): every waiting poll answers, unsigned.
    const waiting = first.filter((_, index) => index !== refused.index)
    await endByTheirBound(waiting)
    for (const p of waiting) expect(await p.answer).toMatchObject({ status: 200, body: { state: "pending" } })
    // Their places are free: the limit's worth wait again, and one more hears the whole bound, not what was left of
    // the waits the clock moved past.
    const again = channels.map(status)
    expect((await firstAnswer(again)).answer).toEqual(refusal("from your network", 20))
    await endByTheirBound(again)
  })
})

describe("the process's ceiling", () => {
  it("refuses a poll past the long-polls the whole process holds, whoever sends it, saying when the first wait ends", async () => {
    // Behind a proxy it trusts (loopback here), the server tells visitors apart by X-Forwarded-For.
    const proxied = await startWalletServer({
      ...common(),
      visitorLimits: { longPolls: 2, longPollsInProcess: 3 },
      http: { trustedProxies: ["127.0.0.0/8", "::1/128"] }
    })
    const polls: Array<Poll> = []
    try {
      const { email, devices } = await userWithNewDevices(1)
      const device = (devices[0] as (typeof devices)[number]).deviceId
      const from = (visitor: string) => deviceWait(email, device, WAIT_MS, proxied, { "x-forwarded-for": visitor })
      // Two visitors, each within its own limit of 2: the process holds 3 of their 4.
      polls.push(from("198.51.100.7"), from("198.51.100.7"), from("198.51.100.8"), from("198.51.100.8"))
      expect((await firstAnswer(polls)).answer).toEqual(refusal("on the wallet server", 20))
      const third = from("198.51.100.9")
      polls.push(third)
      expect(await third.answer).toEqual(refusal("on the wallet server", 20))
      // The per-process count is the process's own: the other server, on the same database, still has room.
      const elsewhere = deviceWait(email, device, 0)
      expect(await elsewhere.answer).toMatchObject({ status: 200, body: { verified: false } })
      await endByTheirBound(polls)
    } finally {
      for (const p of polls) p.leave()
      await proxied.stop()
    }
  })
})

describe("the frame, refused a long-poll for now", () => {
  const HOST = "http://127.0.0.1:5173"
  let withFarcaster: Started<WalletServerInfo>

  beforeAll(async () => {
    // Farcaster's channel can be opened here (the registry is read only when a message is signed, which these tests
    // write to the database as the relay would).
    withFarcaster = await startWalletServer({
      ...common(),
      visitorLimits: { longPolls: 1 },
      farcaster: { rpcUrl: "http://127.0.0.1:9", idRegistry: "0x00000000Fc6c5F01Fc30151999387Bb99A9f489b" }
    })
  }, 60_000)
  afterAll(async () => {
    await withFarcaster?.stop()
  })

  /**
   * The frame's logic as its page runs it, against `withFarcaster` from the host page at HOST; its clock is the
   * server's, and a wait moves that clock on (then lets `settle` finish: what the wait was for).
   */
  const frameOn = async (deviceId: string, settle: () => Promise<unknown> = async () => {}) => {
    const storage = makeMemoryStorage()
    storage.setItem(FRAME_STORAGE_KEYS.deviceId, deviceId)
    const posted: Array<FrameResponse> = []
    const slept: Array<number> = []
    const frame = makeFrame({
      api: makeWalletApi({ fetch, baseUrl: withFarcaster.info.url, projectId: PROJECT }),
      storage,
      post: (message) => posted.push(message),
      parentOrigin: HOST,
      isParent: (source) => source === "parent",
      query: { projectId: PROJECT, chainId: undefined, version: undefined, enableLogger: false },
      randomId: () => deviceId,
      now,
      sleep: async (ms) => {
        slept.push(ms)
        await Effect.runPromise(clock.adjust(ms))
        await settle()
      },
      log: () => undefined
    })
    expect((await frame.start()).ready).toBe(true)
    let n = 0
    const ask = async (type: string) => {
      const id = `frame-${++n}`
      await frame.receive({ data: { id, type: `@wr-app/${type}` }, origin: HOST, source: "parent" })
      return posted.find((message) => "id" in message && message.id === id) as FrameResponse & { readonly payload?: unknown }
    }
    return { storage, ask, slept }
  }

  it("CONNECT_DEVICE waits out the refusal's Retry-After, asks again and is answered once the link is opened: the server's refusal never reaches the host", async () => {
    const { email, devices } = await userWithNewDevices(2)
    const [other, mine] = devices as [(typeof devices)[number], (typeof devices)[number]]
    // Another login from the same network holds the one place for 20 s of the server's clock.
    const held = deviceWait(email, other.deviceId, WAIT_MS, withFarcaster)
    await vi.waitFor(async () => expect((await deviceWait(email, mine.deviceId, 0, withFarcaster).answer) as Reply).toMatchObject({ status: 429 }), {
      timeout: 10_000,
      interval: 20
    })
    const frame = await frameOn(mine.deviceId, () => held.answer)
    frame.storage.setItem(FRAME_STORAGE_KEYS.pendingEmail, email)
    const reply = frame.ask("CONNECT_DEVICE")
    // Once the frame waited out the refusal (the held wait ended by its bound) and waits again, the visitor opens the link.
    await vi.waitFor(() => expect(frame.slept).toEqual([20_000]), { timeout: 10_000, interval: 20 })
    expect((await held.answer) as Reply).toMatchObject({ status: 200, body: { verified: false } })
    const page = await fetch(new URL(`/api/device/verify?projectId=${PROJECT}&token=${mine.token}`, withFarcaster.info.url))
    expect(page.status).toBe(200)
    expect(await reply).toEqual({ id: "frame-1", type: "@wr-frame/CONNECT_DEVICE_SUCCESS" })
  })

  it("CONNECT_DEVICE refused for as long as its step lasts says when to try again, in the visitor's words", async () => {
    const { email, devices } = await userWithNewDevices(2)
    const [other, mine] = devices as [(typeof devices)[number], (typeof devices)[number]]
    // The held wait lasts the server's longest (25 s): the frame's whole step.
    const held = deviceWait(email, other.deviceId, 25_000, withFarcaster)
    await vi.waitFor(async () => expect((await deviceWait(email, mine.deviceId, 0, withFarcaster).answer) as Reply).toMatchObject({ status: 429 }), {
      timeout: 10_000,
      interval: 20
    })
    const frame = await frameOn(mine.deviceId)
    frame.storage.setItem(FRAME_STORAGE_KEYS.pendingEmail, email)
    expect(await frame.ask("CONNECT_DEVICE")).toEqual({
      id: "frame-1",
      type: "@wr-frame/CONNECT_DEVICE_ERROR",
      payload: { message: "The wallet is busy with other logins right now. Please try again after 25 seconds.", code: "busy", retryAfterSeconds: 25 }
    })
    expect(frame.slept).toEqual([])
    held.leave()
    expect(await held.answer).toBe("gone")
  })

  /** A frame whose Farcaster sign-in is open, and another channel of its device waiting `waitMs` in the one place. */
  const farcasterHeld = async (waitMs: number, whileWaiting: (channelToken: string) => Promise<unknown>) => {
    const deviceId = `farcaster-frame-${randomBytes(8).toString("hex")}`
    const other = await newChannel(deviceId, 24 * 60 * 60_000)
    const held = poll(withFarcaster, "/api/farcaster/status", { deviceId, channelToken: other, waitMs })
    let channelToken = ""
    // A wait of the frame ends once the held one has (by its bound, on the clock the wait moved), and what
    // `whileWaiting` does meanwhile is done.
    const frame = await frameOn(deviceId, async () => {
      await held.answer
      await whileWaiting(channelToken)
    })
    const opened = await frame.ask("GET_FARCASTER_URI")
    expect(opened.type, JSON.stringify(opened.payload)).toBe("@wr-frame/GET_FARCASTER_URI_SUCCESS")
    channelToken = new URL((opened.payload as { readonly url: string }).url).searchParams.get("channelToken") ?? ""
    await vi.waitFor(
      async () => expect((await poll(withFarcaster, "/api/farcaster/status", { deviceId, channelToken, waitMs: 0 }).answer) as Reply).toMatchObject({ status: 429 }),
      { timeout: 10_000, interval: 20 }
    )
    return { frame, held, channelToken: () => channelToken }
  }
  const sign = (channelToken: string, username: string) =>
    db.info.run(store.signFarcasterChannel(tokenHash(channelToken), { fid: "5151", username }, new Date(now())))

  it("CONNECT_FARCASTER waits out the refusal within its step and asks again, keeping the channel: signed meanwhile, it completes", async () => {
    const { frame, held } = await farcasterHeld(WAIT_MS, (channelToken) => sign(channelToken, "patient"))
    expect(await frame.ask("CONNECT_FARCASTER")).toEqual({ id: "frame-2", type: "@wr-frame/CONNECT_FARCASTER_SUCCESS", payload: { userName: "patient" } })
    expect(frame.slept).toEqual([20_000])
    expect((await held.answer) as Reply).toMatchObject({ status: 200, body: { state: "pending" } })
    expect(frame.storage.getItem(FRAME_STORAGE_KEYS.token)).not.toBeNull()
  })

  it("CONNECT_FARCASTER refused for as long as its step lasts answers pending after it, keeping the channel: the host's next ask completes", async () => {
    const { frame, channelToken } = await farcasterHeld(25_000, async () => {})
    expect(await frame.ask("CONNECT_FARCASTER")).toEqual({ id: "frame-2", type: "@wr-frame/CONNECT_FARCASTER_SUCCESS", payload: { pending: true } })
    expect(frame.slept).toEqual([25_000])
    await sign(channelToken(), "later")
    expect(await frame.ask("CONNECT_FARCASTER")).toEqual({ id: "frame-3", type: "@wr-frame/CONNECT_FARCASTER_SUCCESS", payload: { userName: "later" } })
  })
})
