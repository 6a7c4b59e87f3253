/**
 * The embedded wallet's frame logic (server/src/embedded/frame/frameLogic.ts) over a fake wallet server: whom it
 * answers (parent window, exact allowed origin, strict messages), what each request answers, and that neither the
 * session token nor a key ever leaves the frame.
 */
import { Result } from "effect"
import { describe, expect, it, vi } from "vitest"
import { decodeFrameResponse, type FrameResponse } from "../../../src/domain/Frame"
import type { ApiErrorCode, WalletUser } from "../../../server/src/embedded/api"
import { type FrameSigningApi, type SplitKeysApi, type WalletApi, WalletApiError } from "../../../server/src/embedded/frame/apiClient"
import { createSplitKey, type SplitShares } from "../../../server/src/embedded/frame/keyShares"
import { deviceSecretKey, deviceShareKey } from "../../../server/src/embedded/frame/SplitKeys"
import type { KeyFamily, KeyShare } from "../../../server/src/embedded/sharesApi"
import { Effect } from "effect"
import { recoverMessageAddress, type Hex } from "viem"
import {
  chainOf,
  FRAME_STORAGE_KEYS,
  type FrameQuery,
  type FrameStorage,
  makeFrame,
  parseFrameQuery,
  type SecureViews,
  type SecureViewTheme
} from "../../../server/src/embedded/frame/frameLogic"

const HOST = "http://127.0.0.1:5173"
const SOLANA = "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1"
const TOKEN = "session-token-0123456789abcdefghijklmnopqrstuv"
const USER: WalletUser & { readonly evmAddress: string; readonly solanaAddress: string } = {
  email: "visitor@example.test",
  evmAddress: "0x1111111111111111111111111111111111111111",
  solanaAddress: "9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin"
}

const fail = (message: string, code: ApiErrorCode) => Promise.reject(new WalletApiError(message, code, code === "unauthorized" ? 401 : 400))

const SMART = "0x5c79bFa868786f3eDFb155b77A4E640707Ca0b2c"

/** A wallet server in memory: the calls it got, and answers a test can change. */
const makeFakeServer = () => {
  const calls: Array<{ readonly name: string; readonly args: ReadonlyArray<unknown> }> = []
  const state = {
    allowedOrigins: "loopback" as "loopback" | ReadonlyArray<string>,
    knownProject: true,
    email: USER.email as string | null,
    social: undefined as WalletUser["social"],
    sessions: new Set<string>(),
    // An answer per call: verified or not, or a refusal.
    deviceAnswers: [] as Array<boolean | WalletApiError>,
    deviceWaitedMs: undefined as number | undefined,
    rpcResult: "0xsignature" as unknown,
    farcasterAnswers: [] as Array<"pending" | "completed" | "expired" | WalletApiError>,
    // The chains where the server makes smart accounts, and whether the user's is deployed.
    smartAccountChains: undefined as ReadonlyArray<string> | undefined,
    smartDeployed: false,
    // The user's split eip155 key, when a test gives them one: the server lists it and hands out its server share.
    split: undefined as SplitShares | undefined,
    // Whether the user has keys already (split, with USER's addresses) or is new: the frame then makes them at the login.
    newUser: false,
    // The keys the frame made and handed the server (storeSplit with `create`), by family.
    made: new Map<KeyFamily, { readonly address: string; readonly splitId: string; readonly server: KeyShare }>(),
    // Run as a split arrives, before it is kept (another device's split landing first, a server that cannot be reached).
    beforeStoreSplit: (_family: KeyFamily): Promise<void> => Promise.resolve(),
    loginEmail: (): Promise<{ readonly action: "VERIFY_DEVICE" | "VERIFY_OTP" }> => Promise.resolve({ action: "VERIFY_OTP" })
  }
  const record = (name: string, ...args: ReadonlyArray<unknown>) => calls.push({ name, args })
  // The split keys the server lists: the test's eip155 split, those the frame made, else USER's for a user of before.
  const listed = () =>
    (["eip155", "solana"] as const).flatMap((family) => {
      const kdf = { name: "device" as const, salt: "" }
      const made = state.made.get(family)
      if (made !== undefined) return [{ family, address: made.address, splitId: made.splitId, recoveryKdf: kdf }]
      if (family === "eip155" && state.split !== undefined) return [{ family, address: state.split.address, splitId: state.split.splitId, recoveryKdf: kdf }]
      if (state.newUser) return []
      return [{ family, address: family === "eip155" ? USER.evmAddress : USER.solanaAddress, splitId: `before-${family}`, recoveryKdf: kdf }]
    })
  const session = (token: string) => (state.sessions.has(token) ? undefined : fail("Your session has ended: log in again.", "unauthorized"))
  const api: WalletApi & SplitKeysApi & FrameSigningApi = {
    storeCalls: () => fail("not asked here", "internal"),
    spendPermission: () => fail("not asked here", "internal"),
    refundPermission: () => fail("not asked here", "internal"),
    splitKeys: (token) => session(token) ?? Promise.resolve({ userId: "user-1", keys: listed(), passkeyRpId: "localhost" }),
    serverShare: (token, family) => {
      record("serverShare")
      const made = state.made.get(family)
      if (made !== undefined) return session(token) ?? Promise.resolve({ share: made.server })
      return session(token) ?? (state.split === undefined ? fail("none", "no_key_split") : Promise.resolve({ share: state.split.server }))
    },
    storeSplit: (token, body) => {
      record("storeSplit", body.server.family, body.create)
      if (session(token) !== undefined) return fail("Your session has ended: log in again.", "unauthorized")
      if (body.create !== true) return fail("not asked here", "internal")
      return state.beforeStoreSplit(body.server.family).then(() => {
        if (listed().some((key) => key.family === body.server.family)) return fail("This account has a key already", "key_exists")
        state.made.set(body.server.family, { address: body.server.address, splitId: body.server.splitId, server: body.server })
        return { splitId: body.server.splitId, rotated: false }
      })
    },
    recovery: () => fail("not asked here", "internal"),
    exportStart: () => fail("not asked here", "internal"),
    exportConfirm: () => fail("not asked here", "internal"),
    exportShare: () => fail("not asked here", "internal"),
    legacyKey: (token, family) => {
      record("legacyKey", family)
      return session(token) ?? fail(`This account's ${family} key is split already: the server holds no copy of it`, "no_legacy_key")
    },
    project: (projectId) => {
      record("project", projectId)
      return state.knownProject ? Promise.resolve({ projectId, allowedOrigins: state.allowedOrigins }) : fail("Unknown project", "unknown_project")
    },
    chains: () =>
      Promise.resolve({
        chains: ["eip155:31337", "eip155:31338", SOLANA],
        ...(state.smartAccountChains === undefined ? {} : { smartAccountChains: state.smartAccountChains })
      }),
    loginEmail: (body) => {
      record("loginEmail", body)
      return state.loginEmail()
    },
    loginDevice: (body) => {
      record("loginDevice", body)
      const next = state.deviceAnswers.shift() ?? false
      if (next instanceof WalletApiError) return Promise.reject(next)
      return Promise.resolve({ verified: next, ...(state.deviceWaitedMs === undefined ? {} : { waitedMs: state.deviceWaitedMs }) })
    },
    loginOtp: (body) => {
      record("loginOtp", body)
      if (body.otp !== "123456") return fail("Invalid code: 4 attempts left", "invalid_code")
      state.sessions.add(TOKEN)
      return Promise.resolve({ token: TOKEN })
    },
    logout: (token) => {
      record("logout", token)
      state.sessions.delete(token)
      return Promise.resolve()
    },
    user: (token) => {
      record("user", token)
      return (
        session(token) ??
        Promise.resolve({
          email: state.email,
          ...Object.fromEntries(listed().map((key) => [key.family === "eip155" ? "evmAddress" : "solanaAddress", key.address])),
          ...(state.social === undefined ? {} : { social: state.social })
        })
      )
    },
    updateEmail: (token, newEmail) => {
      record("updateEmail", newEmail)
      return session(token) ?? Promise.resolve({ action: "VERIFY_PRIMARY_OTP" as const })
    },
    updateEmailPrimary: (token, otp) => {
      record("updateEmailPrimary", otp)
      return session(token) ?? Promise.resolve({ action: "VERIFY_SECONDARY_OTP" as const })
    },
    updateEmailSecondary: (token, otp) => {
      record("updateEmailSecondary", otp)
      if (session(token) !== undefined) return fail("Your session has ended: log in again.", "unauthorized")
      state.email = "new@example.test"
      return Promise.resolve({ email: state.email })
    },
    rpc: (token, body) => {
      record("rpc", body)
      if (body.method === "wallet_getSmartAccount") return session(token) ?? Promise.resolve({ result: { address: SMART, deployed: state.smartDeployed } })
      return session(token) ?? Promise.resolve({ result: state.rpcResult })
    },
    socialStart: (body) => {
      record("socialStart", body)
      return Promise.resolve({ uri: `https://idp.example.test/auth?state=s1&provider=${body.provider}` })
    },
    farcasterChannel: (body) => {
      record("farcasterChannel", body)
      return Promise.resolve({ channelToken: "channel-1", url: "farcaster://connect?channelToken=channel-1&nonce=n0nce1234", nonce: "n0nce1234", expiresAt: 1_000 })
    },
    farcasterStatus: (body) => {
      record("farcasterStatus", body)
      const next = state.farcasterAnswers.shift() ?? "pending"
      if (next instanceof WalletApiError) return Promise.reject(next)
      if (next === "expired") return fail("The Farcaster sign-in expired: try again", "channel_expired")
      if (next === "pending") return Promise.resolve({ state: "pending" as const })
      state.sessions.add(TOKEN)
      state.email = null
      state.social = { provider: "farcaster", username: "alice" }
      return Promise.resolve({ state: "completed" as const, token: TOKEN, fid: "20001", username: "alice" })
    },
    passkeyStart: (body) => {
      record("passkeyStart", body)
      return Promise.resolve({ uri: `https://frame.test/frame/passkey?projectId=${body.projectId}&state=p1` })
    },
    passkeyFinish: (body) => {
      record("passkeyFinish", body)
      if (body.state !== "p1") return fail("This passkey request was not started here, was answered already or has expired: try again", "invalid_state")
      state.sessions.add(TOKEN)
      state.email = null
      return Promise.resolve({ token: TOKEN, created: true })
    },
    // The passkey page's calls: never the frame's.
    passkeyOptions: () => fail("not the frame's call", "internal"),
    passkeyVerify: () => fail("not the frame's call", "internal"),
    socialFinish: (body) => {
      record("socialFinish", body)
      if (!body.uri.includes("state=s1")) return fail("This login was not started here, was used already or has expired: try again", "invalid_state")
      state.sessions.add(TOKEN)
      state.email = null
      state.social = { provider: "github", username: "octo" }
      return Promise.resolve({ token: TOKEN, provider: "github" as const, username: "octo" })
    }
  }
  return { api, calls, state }
}

const memoryStorage = (): FrameStorage & { readonly items: Map<string, string> } => {
  const items = new Map<string, string>()
  return {
    items,
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, value),
    removeItem: (key) => void items.delete(key)
  }
}

const PARENT = { window: "parent" }
const OTHER_WINDOW = { window: "other" }

const setup = (
  opts: { readonly parentOrigin?: string | undefined; readonly query?: Partial<FrameQuery>; readonly deviceWaitMs?: number; readonly storageTravels?: boolean; readonly secureViews?: SecureViews } = {}
) => {
  const server = makeFakeServer()
  const storage = memoryStorage()
  const posted: Array<{ readonly message: FrameResponse; readonly origin: string }> = []
  const logs: Array<string> = []
  let clock = 0
  const slept: Array<number> = []
  const frame = makeFrame({
    api: server.api,
    storage,
    post: (message, origin) => posted.push({ message, origin }),
    parentOrigin: "parentOrigin" in opts ? opts.parentOrigin : HOST,
    isParent: (source) => source === PARENT,
    query: { projectId: "devstack-project", chainId: 31337, version: "1.2.3", enableLogger: true, ...opts.query },
    randomId: () => "device-0123456789abcdef",
    // Each reading moves the clock a second on, so a device wait ends after a bounded number of calls.
    now: () => (clock += 1_000),
    // A wait passes on the same clock, at once.
    sleep: (ms) => {
      slept.push(ms)
      clock += ms
      return Promise.resolve()
    },
    log: (text) => logs.push(text),
    ...(opts.deviceWaitMs === undefined ? {} : { deviceWaitMs: opts.deviceWaitMs }),
    ...(opts.storageTravels === undefined ? {} : { storageTravels: opts.storageTravels }),
    ...(opts.secureViews === undefined ? {} : { secureViews: opts.secureViews })
  })
  let n = 0
  /** Sends a request from the parent at HOST and returns the reply it got. */
  const ask = async (type: string, payload?: unknown) => {
    const id = `req-${++n}`
    const before = posted.length
    await frame.receive({ data: payload === undefined ? { id, type: `@wr-app/${type}` } : { id, type: `@wr-app/${type}`, payload }, origin: HOST, source: PARENT })
    // Only this request's reply: another request still waiting may be answered meanwhile.
    const replies = posted.slice(before).filter((p) => "id" in p.message && p.message.id === id)
    expect(replies).toHaveLength(1)
    const reply = replies[0]!
    expect(reply.origin).toBe(HOST)
    return reply.message as FrameResponse & { readonly payload?: unknown }
  }
  const login = async () => {
    expect((await ask("CONNECT_EMAIL", { email: USER.email })).type).toBe("@wr-frame/CONNECT_EMAIL_SUCCESS")
    expect((await ask("CONNECT_OTP", { otp: "123456" })).type).toBe("@wr-frame/CONNECT_OTP_SUCCESS")
  }
  return { frame, server, storage, posted, logs, ask, login, slept }
}

// Whatever happened, no posted message carries the token or anything shaped like a private key.
const expectNothingSecret = (posted: ReadonlyArray<{ readonly message: FrameResponse }>) => {
  for (const { message } of posted) {
    const text = JSON.stringify(message)
    expect(text).not.toContain(TOKEN)
    expect(text).not.toMatch(/0x[0-9a-fA-F]{64}(?![0-9a-fA-F])/)
    expect(message.type).not.toBe("@wr-frame/SESSION_UPDATE")
    expect(Result.isSuccess(decodeFrameResponse(message))).toBe(true)
  }
}

describe("frame start", () => {
  it("posts READY once, with the version, to the exact loopback parent origin, and keeps a device id", async () => {
    const t = setup()
    expect(await t.frame.start()).toEqual({ ready: true, parentOrigin: HOST })
    expect(t.posted).toEqual([{ message: { type: "@wr-frame/READY", payload: { version: "1.2.3" } }, origin: HOST }])
    expect(t.storage.items.get(FRAME_STORAGE_KEYS.deviceId)).toBe("device-0123456789abcdef")
    expect(t.server.calls[0]).toEqual({ name: "project", args: ["devstack-project"] })
  })

  it("keeps a device id made before", async () => {
    const t = setup()
    t.storage.setItem(FRAME_STORAGE_KEYS.deviceId, "kept-device-id-0123456789")
    await t.frame.start()
    await t.ask("CONNECT_EMAIL", { email: USER.email ?? "" })
    expect(t.server.calls.find((c) => c.name === "loginEmail")?.args[0]).toMatchObject({ deviceId: "kept-device-id-0123456789" })
  })

  it("posts nothing and answers nothing for a parent origin the project does not allow", async () => {
    const t = setup()
    t.server.state.allowedOrigins = ["https://app.example"]
    const start = await t.frame.start()
    expect(start.ready).toBe(false)
    await t.frame.receive({ data: { id: "a1", type: "@wr-app/IS_CONNECTED" }, origin: HOST, source: PARENT })
    expect(t.posted).toEqual([])
    expect(t.logs.join("\n")).toContain("http://127.0.0.1:5173 is not an allowed origin of project devstack-project")
  })

  it("answers an exact allowed origin of a locked project", async () => {
    const t = setup({ parentOrigin: "https://app.example" })
    t.server.state.allowedOrigins = ["https://app.example"]
    expect((await t.frame.start()).ready).toBe(true)
    expect(t.posted[0]?.origin).toBe("https://app.example")
  })

  it("posts nothing for an unknown project, or when the parent's origin is unknown", async () => {
    const unknown = setup()
    unknown.server.state.knownProject = false
    expect((await unknown.frame.start()).ready).toBe(false)
    expect(unknown.posted).toEqual([])
    for (const parentOrigin of [undefined, "null"]) {
      const t = setup({ parentOrigin })
      expect((await t.frame.start()).ready).toBe(false)
      expect(t.posted).toEqual([])
    }
  })

  it("a non-loopback origin is not let in by a loopback project", async () => {
    const t = setup({ parentOrigin: "https://evil.example" })
    expect((await t.frame.start()).ready).toBe(false)
    expect(t.posted).toEqual([])
  })

  it("logs only when enableLogger is on", async () => {
    const t = setup({ query: { enableLogger: false } })
    t.server.state.allowedOrigins = ["https://app.example"]
    await t.frame.start()
    expect(t.logs).toEqual([])
  })
})

describe("which messages are answered", () => {
  it("drops messages from another window, another origin, or before the start", async () => {
    const t = setup()
    await t.frame.receive({ data: { id: "early", type: "@wr-app/IS_CONNECTED" }, origin: HOST, source: PARENT })
    await t.frame.start()
    await t.frame.receive({ data: { id: "w1", type: "@wr-app/IS_CONNECTED" }, origin: HOST, source: OTHER_WINDOW })
    await t.frame.receive({ data: { id: "o1", type: "@wr-app/IS_CONNECTED" }, origin: "http://localhost:5173", source: PARENT })
    await t.frame.receive({ data: { id: "o2", type: "@wr-app/IS_CONNECTED" }, origin: "http://127.0.0.1:5174", source: PARENT })
    expect(t.posted.map((p) => p.message.type)).toEqual(["@wr-frame/READY"])
  })

  it("drops malformed messages without throwing", async () => {
    const t = setup()
    await t.frame.start()
    const malformed: ReadonlyArray<unknown> = [
      null,
      "@wr-app/IS_CONNECTED",
      42,
      { type: "@wr-app/IS_CONNECTED" },
      { id: "x1", type: "@wr-app/NOT_A_REQUEST" },
      { id: "x2", type: "@w3m-app/IS_CONNECTED" },
      { id: "bad id with spaces", type: "@wr-app/IS_CONNECTED" },
      { id: "x3", type: "@wr-app/IS_CONNECTED", extra: true },
      JSON.parse('{"id":"x4","type":"@wr-app/IS_CONNECTED","__proto__":{"polluted":true}}'),
      { id: "x5", type: "@wr-app/CONNECT_EMAIL", payload: { email: "not an email" } },
      { id: "x6", type: "@wr-app/CONNECT_OTP", payload: { otp: "12" } },
      { id: "x7", type: "@wr-app/RPC_REQUEST", payload: { method: "" } }
    ]
    for (const data of malformed) await expect(t.frame.receive({ data, origin: HOST, source: PARENT })).resolves.toBeUndefined()
    expect(t.posted.map((p) => p.message.type)).toEqual(["@wr-frame/READY"])
    // Still answering afterwards.
    expect((await t.ask("IS_CONNECTED")).payload).toEqual({ isConnected: false })
  })
})

describe("email login", () => {
  it("CONNECT_EMAIL answers the server's action, CONNECT_OTP keeps the token in storage and posts none of it", async () => {
    const t = setup()
    await t.frame.start()
    expect(await t.ask("CONNECT_EMAIL", { email: USER.email })).toEqual({ id: "req-1", type: "@wr-frame/CONNECT_EMAIL_SUCCESS", payload: { action: "VERIFY_OTP" } })
    expect(await t.ask("CONNECT_OTP", { otp: "123456" })).toEqual({ id: "req-2", type: "@wr-frame/CONNECT_OTP_SUCCESS" })
    expect(t.storage.items.get(FRAME_STORAGE_KEYS.token)).toBe(TOKEN)
    expect(t.server.calls.find((c) => c.name === "loginOtp")?.args[0]).toEqual({
      projectId: "devstack-project",
      deviceId: "device-0123456789abcdef",
      email: USER.email,
      otp: "123456"
    })
    expect((await t.ask("IS_CONNECTED")).payload).toEqual({ isConnected: true })
    expectNothingSecret(t.posted)
  })

  it("server failures become _ERROR in the server's words", async () => {
    const t = setup()
    await t.frame.start()
    t.server.state.loginEmail = () => fail("Please try again after 23 seconds", "rate_limited")
    expect(await t.ask("CONNECT_EMAIL", { email: USER.email })).toEqual({
      id: "req-1",
      type: "@wr-frame/CONNECT_EMAIL_ERROR",
      payload: { message: "Please try again after 23 seconds" }
    })
    t.server.state.loginEmail = () => Promise.resolve({ action: "VERIFY_OTP" })
    await t.ask("CONNECT_EMAIL", { email: USER.email ?? "" })
    expect((await t.ask("CONNECT_OTP", { otp: "654321" })).payload).toEqual({ message: "Invalid code: 4 attempts left" })
    expect(t.storage.items.has(FRAME_STORAGE_KEYS.token)).toBe(false)
  })

  it("CONNECT_OTP or CONNECT_DEVICE without an email first is an error", async () => {
    const t = setup()
    await t.frame.start()
    expect((await t.ask("CONNECT_OTP", { otp: "123456" })).type).toBe("@wr-frame/CONNECT_OTP_ERROR")
    expect((await t.ask("CONNECT_DEVICE")).type).toBe("@wr-frame/CONNECT_DEVICE_ERROR")
    expect(t.server.calls.filter((c) => c.name === "loginOtp" || c.name === "loginDevice")).toEqual([])
  })

  it("CONNECT_DEVICE asks the server again until the device is verified", async () => {
    const t = setup()
    await t.frame.start()
    t.server.state.loginEmail = () => Promise.resolve({ action: "VERIFY_DEVICE" })
    expect((await t.ask("CONNECT_EMAIL", { email: USER.email })).payload).toEqual({ action: "VERIFY_DEVICE" })
    t.server.state.deviceAnswers = [false, false, true]
    expect(await t.ask("CONNECT_DEVICE")).toEqual({ id: "req-2", type: "@wr-frame/CONNECT_DEVICE_SUCCESS" })
    const waits = t.server.calls.filter((c) => c.name === "loginDevice").map((c) => (c.args[0] as { waitMs: number }).waitMs)
    expect(waits).toHaveLength(3)
    for (const waitMs of waits) expect(waitMs).toBeLessThanOrEqual(25_000)
  })

  it("CONNECT_DEVICE answers an error within its bound when the device stays unverified (the host asks again)", async () => {
    const t = setup({ deviceWaitMs: 5_000 })
    await t.frame.start()
    await t.ask("CONNECT_EMAIL", { email: USER.email ?? "" })
    const reply = await t.ask("CONNECT_DEVICE")
    expect(reply.type).toBe("@wr-frame/CONNECT_DEVICE_ERROR")
    expect(reply.payload).toEqual({ message: "This device is not verified yet: open the link in the email we sent you, then try again." })
    // The fake clock moves 1 s per reading: a 5 s bound allows a few calls, not an endless loop.
    expect(t.server.calls.filter((c) => c.name === "loginDevice").length).toBeLessThanOrEqual(5)
  })

  it("CONNECT_DEVICE counts the wait the server says it made (its clock may run ahead of this one)", async () => {
    const t = setup()
    await t.frame.start()
    await t.ask("CONNECT_EMAIL", { email: USER.email ?? "" })
    // Each answer says the server waited 20 s, while this clock moves 1 s a reading: 25 s are up after two calls.
    t.server.state.deviceWaitedMs = 20_000
    const reply = await t.ask("CONNECT_DEVICE")
    expect(reply.type).toBe("@wr-frame/CONNECT_DEVICE_ERROR")
    expect(t.server.calls.filter((c) => c.name === "loginDevice").map((c) => (c.args[0] as { waitMs: number }).waitMs)).toEqual([25_000, 5_000])
  })
  it("CONNECT_DEVICE waits out a refusal that says when to ask again (429 rate_limited, 503 unavailable) within its bound, then asks again", async () => {
    const t = setup()
    await t.frame.start()
    t.server.state.loginEmail = () => Promise.resolve({ action: "VERIFY_DEVICE" })
    await t.ask("CONNECT_EMAIL", { email: USER.email })
    t.server.state.deviceAnswers = [
      new WalletApiError("Too many logins are waiting from your network: please try again after 6 seconds", "rate_limited", 429, undefined, 6),
      new WalletApiError("The wallet's database cannot be reached; try again", "unavailable", 503, undefined, 2),
      true
    ]
    expect(await t.ask("CONNECT_DEVICE")).toEqual({ id: "req-2", type: "@wr-frame/CONNECT_DEVICE_SUCCESS" })
    expect(t.slept).toEqual([6_000, 2_000])
    // What was waited counts against the step (with the second each reading of this clock adds): each call asks the
    // server to wait only what is left of it.
    const waits = t.server.calls.filter((c) => c.name === "loginDevice").map((c) => (c.args[0] as { waitMs: number }).waitMs)
    expect(waits).toEqual([25_000, 18_000, 15_000])
  })

  it("CONNECT_DEVICE refused for longer than its step has left says when to try again in the visitor's words; a refusal that gives no time is not waited", async () => {
    const t = setup()
    await t.frame.start()
    await t.ask("CONNECT_EMAIL", { email: USER.email })
    t.server.state.deviceAnswers = [
      new WalletApiError("Too many logins are waiting from your network: please try again after 20 seconds", "rate_limited", 429, undefined, 20),
      new WalletApiError("Too many logins are waiting on the wallet server: please try again after 9 seconds", "rate_limited", 429, undefined, 9)
    ]
    expect((await t.ask("CONNECT_DEVICE")).payload).toEqual({
      message: "The wallet is busy with other logins right now. Please try again after 9 seconds.",
      code: "busy",
      retryAfterSeconds: 9
    })
    expect(t.slept).toEqual([20_000])
    t.server.state.deviceAnswers = [new WalletApiError("The wallet's database cannot be reached; try again", "unavailable", 503, undefined, 30)]
    expect((await t.ask("CONNECT_DEVICE")).payload).toEqual({ message: "The wallet is busy right now. Please try again after 30 seconds.", code: "busy", retryAfterSeconds: 30 })
    t.server.state.deviceAnswers = [new WalletApiError("Too many wrong codes: ask for a new one", "too_many_attempts", 429)]
    expect((await t.ask("CONNECT_DEVICE")).payload).toEqual({ message: "Too many wrong codes: ask for a new one" })
    expect(t.slept).toEqual([20_000])
  })

  it("a refusal for now carries its code: the mail's own limit (email_rate_limited) apart from a network's too many tries (rate_limited)", async () => {
    const t = setup()
    await t.frame.start()
    const limited = (message: string, seconds: number) => Promise.reject(new WalletApiError(message, "rate_limited", 429, undefined, seconds))
    t.server.state.loginEmail = () => limited("Please try again after 23 seconds", 23)
    expect((await t.ask("CONNECT_EMAIL", { email: USER.email })).payload).toEqual({
      message: "Please try again after 23 seconds",
      code: "email_rate_limited",
      retryAfterSeconds: 23
    })
    const tooMany = "Too many attempts from your network. Please try again after 41 seconds."
    Object.assign(t.server.api, { socialStart: () => limited(tooMany, 41), farcasterChannel: () => limited(tooMany, 41) })
    for (const asked of [await t.ask("GET_SOCIAL_REDIRECT_URI", { provider: "google" }), await t.ask("GET_FARCASTER_URI")]) {
      expect(asked.payload).toEqual({ message: tooMany, code: "rate_limited", retryAfterSeconds: 41 })
    }
    // Any other failure carries no code.
    t.server.state.loginEmail = () => fail("Please enter a valid email address (email)", "bad_request")
    expect((await t.ask("CONNECT_EMAIL", { email: USER.email })).payload).toEqual({ message: "Please enter a valid email address (email)" })
  })

  it("CONNECT_FARCASTER waits out a refusal within its step and keeps the channel; one longer than the step is pending, and the next ask goes on", async () => {
    const t = setup()
    await t.frame.start()
    await t.ask("GET_FARCASTER_URI")
    const busy = (seconds: number) =>
      new WalletApiError(`Too many logins are waiting from your network: please try again after ${seconds} seconds`, "rate_limited", 429, undefined, seconds)
    t.server.state.farcasterAnswers.push(busy(5), "pending", busy(30), "completed")
    expect((await t.ask("CONNECT_FARCASTER")).payload).toEqual({ pending: true })
    expect((await t.ask("CONNECT_FARCASTER")).payload).toEqual({ pending: true })
    expect((await t.ask("CONNECT_FARCASTER")).payload).toEqual({ userName: "alice" })
    // 5 s waited, then the rest of the step asked; 30 s asked with 25 s of step: the step waited, then pending.
    expect(t.slept).toEqual([5_000, 25_000])
    expect(t.server.calls.filter((c) => c.name === "farcasterStatus").map((c) => (c.args[0] as { waitMs: number }).waitMs)).toEqual([25_000, 19_000, 25_000, 25_000])
    expectNothingSecret(t.posted)
  })
})

describe("smart accounts", () => {
  it("names the networks, lists both accounts with their types, and puts the smart account in front once chosen", async () => {
    const t = setup()
    t.server.state.smartAccountChains = ["eip155:31337"]
    await t.frame.start()
    await t.login()
    expect((await t.ask("GET_SMART_ACCOUNT_ENABLED_NETWORKS")).payload).toEqual({ smartAccountEnabledNetworks: [31337] })
    expect((await t.ask("INIT_SMART_ACCOUNT")).type).toBe("@wr-frame/INIT_SMART_ACCOUNT_SUCCESS")
    expect((await t.ask("GET_USER", { chainId: 31337 })).payload).toMatchObject({
      address: USER.evmAddress,
      accounts: [
        { address: USER.evmAddress, type: "eoa" },
        { address: SMART, type: "smartAccount" }
      ],
      preferredAccountType: "eoa",
      smartAccountDeployed: false
    })

    expect((await t.ask("SET_PREFERRED_ACCOUNT", { type: "smartAccount" })).payload).toEqual({ type: "smartAccount", address: SMART })
    t.server.state.smartDeployed = true
    expect((await t.ask("GET_USER", { chainId: 31337 })).payload).toMatchObject({
      address: SMART,
      accounts: [
        { address: SMART, type: "smartAccount" },
        { address: USER.evmAddress, type: "eoa" }
      ],
      preferredAccountType: "smartAccount",
      smartAccountDeployed: true
    })
    // The site sees the smart account, and a send without a from goes from it.
    t.server.state.rpcResult = "0xhash"
    expect((await t.ask("RPC_REQUEST", { method: "eth_accounts" })).payload).toEqual([SMART])
    // It is signed in the frame, from the smart account (this fake server's smart address is not the key's own, which
    // the frame's signer computes: its refusal names the `from` the frame filled in); the server is never asked to send.
    expect((await t.ask("RPC_REQUEST", { method: "eth_sendTransaction", params: [{ to: USER.evmAddress, value: "0x1" }] })).payload).toEqual({
      message: `The address ${SMART} is not this wallet's account`
    })
    expect(t.server.calls.some((c) => c.name === "rpc" && (c.args[0] as { method: string }).method === "eth_sendTransaction")).toBe(false)

    // A network without smart accounts: the EOA alone, and a refusal in words to choose the smart account there.
    await t.ask("SWITCH_NETWORK", { chainId: 31338 })
    expect((await t.ask("GET_USER", { chainId: 31338 })).payload).toMatchObject({ address: USER.evmAddress, accounts: [{ address: USER.evmAddress, type: "eoa" }] })
    expect((await t.ask("SET_PREFERRED_ACCOUNT", { type: "smartAccount" })).payload).toEqual({ message: "Smart accounts are not available on this network (eip155:31338)." })

    await t.ask("SWITCH_NETWORK", { chainId: 31337 })
    expect((await t.ask("SET_PREFERRED_ACCOUNT", { type: "eoa" })).payload).toEqual({ type: "eoa", address: USER.evmAddress })
    expect((await t.ask("GET_USER", { chainId: 31337 })).payload).toMatchObject({ address: USER.evmAddress, preferredAccountType: "eoa" })
    expectNothingSecret(t.posted)
  })
})

describe("the user, chains and requests", () => {
  it("GET_USER gives the EVM address on eip155 chains and the Solana address on a solana chain", async () => {
    const t = setup()
    await t.frame.start()
    await t.login()
    for (const chainId of [1, 31337, "eip155:31337"]) {
      expect((await t.ask("GET_USER", { chainId })).payload).toEqual({
        email: USER.email,
        address: USER.evmAddress,
        chainId,
        accounts: [{ address: USER.evmAddress, type: "eoa" }],
        preferredAccountType: "eoa",
        smartAccountDeployed: false,
        recovery: "device",
        // USER's keys were split on another device: this one holds no share of them.
        needsRecovery: true
      })
    }
    expect((await t.ask("GET_USER", { chainId: SOLANA })).payload).toMatchObject({
      address: USER.solanaAddress,
      chainId: SOLANA,
      accounts: [{ address: USER.solanaAddress, type: "eoa" }]
    })
    // Without a chain: the last chosen one.
    expect((await t.ask("GET_USER", {})).payload).toMatchObject({ address: USER.solanaAddress })
    expect((await t.ask("GET_USER", { chainId: "bip122:000000000019d6689c085ae165831e93" })).type).toBe("@wr-frame/GET_USER_ERROR")
    expectNothingSecret(t.posted)
  })

  it("GET_USER before a login is an error", async () => {
    const t = setup()
    await t.frame.start()
    expect((await t.ask("GET_USER", {})).payload).toEqual({ message: "Not connected: log in with your email first." })
  })

  it("a new user's keys are made in the frame at the login, before it is answered; a user with split keys gets none", async () => {
    const t = setup()
    t.server.state.newUser = true
    await t.frame.start()
    await t.login()
    // Each family: the server held nothing sealed, so the frame made the key and handed the server its share as new.
    expect(t.server.calls.filter((c) => c.name === "legacyKey").map((c) => c.args[0])).toEqual(["eip155", "solana"])
    expect(t.server.calls.filter((c) => c.name === "storeSplit").map((c) => c.args)).toEqual([
      ["eip155", true],
      ["solana", true]
    ])
    const evm = t.server.state.made.get("eip155")!.address
    const solana = t.server.state.made.get("solana")!.address
    for (const family of ["eip155", "solana"] as const) {
      expect(JSON.parse(t.storage.getItem(deviceShareKey("user-1", family))!)).toMatchObject({ role: "device", family })
      expect(t.storage.getItem(deviceSecretKey("user-1", family))).not.toBeNull()
    }
    expect(t.logs.join("\n")).toContain("keys eip155 created, solana created")
    expect((await t.ask("GET_USER", {})).payload).toMatchObject({ address: evm, recovery: "device" })
    expect((await t.ask("GET_USER", { chainId: SOLANA })).payload).toMatchObject({ address: solana })
    // The next login finds them split: nothing is made again.
    await t.login()
    expect(t.server.calls.filter((c) => c.name === "storeSplit")).toHaveLength(2)
    expectNothingSecret(t.posted)
  })

  it("where the frame's storage travels to the server (cookies), the keys are made too, their device share and secret sealed under the session", async () => {
    const t = setup({ storageTravels: true })
    t.server.state.newUser = true
    await t.frame.start()
    await t.login()
    const evm = t.server.state.made.get("eip155")!.address
    // Nothing readable in the cookie: not the share's JSON, nor a 32-byte secret in base64.
    const share = t.storage.getItem(deviceShareKey("user-1", "eip155"))!
    expect(share).not.toContain("device")
    expect(() => JSON.parse(share)).toThrow()
    expect(t.storage.getItem(deviceSecretKey("user-1", "eip155"))!.length).toBeGreaterThan(44)
    // The user is asked to protect the wallet (the recovery share is under the device secret), and can sign now.
    expect((await t.ask("GET_USER", {})).payload).toMatchObject({ address: evm, recovery: "device" })
    const signature = (await t.ask("RPC_REQUEST", { method: "personal_sign", params: ["0x68656c6c6f", evm] })).payload as Hex
    expect(await recoverMessageAddress({ message: "hello", signature })).toBe(evm)
  })

  it("two devices making a new user's key at once: the server keeps the first, the other device keeps nothing of its own", async () => {
    const t = setup()
    t.server.state.newUser = true
    const other = await Effect.runPromise(createSplitKey("user-1", "eip155"))
    // Another device's key lands between this one's reading of the list and its split.
    t.server.state.beforeStoreSplit = async (family) => {
      if (family === "eip155" && !t.server.state.made.has("eip155")) {
        t.server.state.made.set("eip155", { address: other.address, splitId: other.splitId, server: other.server })
      }
    }
    await t.frame.start()
    await t.login()
    expect(t.server.state.made.get("eip155")!.address).toBe(other.address)
    expect(t.storage.getItem(deviceShareKey("user-1", "eip155"))).toBeNull()
    expect(t.storage.getItem(deviceSecretKey("user-1", "eip155"))).toBeNull()
    expect(t.logs.join("\n")).toContain("keys solana created")
    // The user's address is the first split's; signing here needs recovery, said in words.
    expect((await t.ask("GET_USER", {})).payload).toMatchObject({ address: other.address })
    expect((await t.ask("RPC_REQUEST", { method: "personal_sign", params: ["0x68656c6c6f", other.address] })).payload).toEqual({
      message: "This device has no share of the eip155 key: recover it with your password or passkey"
    })
  })

  it("a login whose keys cannot be made is refused in words, and the next request makes them", async () => {
    const t = setup()
    t.server.state.newUser = true
    t.server.state.beforeStoreSplit = () => fail("The wallet server cannot be reached", "unavailable")
    await t.frame.start()
    expect((await t.ask("CONNECT_EMAIL", { email: USER.email })).type).toBe("@wr-frame/CONNECT_EMAIL_SUCCESS")
    expect((await t.ask("CONNECT_OTP", { otp: "123456" })).payload).toEqual({
      message: "Your wallet's keys could not be made ready: The wallet server cannot be reached. Please log in again."
    })
    // Never an empty address: the user is asked for once the keys are made.
    t.server.state.beforeStoreSplit = () => Promise.resolve()
    expect((await t.ask("GET_USER", {})).payload).toMatchObject({ address: t.server.state.made.get("eip155")!.address })
  })

  it("with a split key, signs in the frame: the key made of the device share and the server's, the server asked for its share and not to sign", async () => {
    const t = setup()
    const split = await Effect.runPromise(createSplitKey("user-1", "eip155"))
    t.server.state.split = split
    t.storage.setItem(deviceShareKey("user-1", "eip155"), JSON.stringify(split.device))
    await t.frame.start()
    await t.login()
    // The user's reply says what protects the recovery share: this device's secret, so far.
    expect((await t.ask("GET_USER", {})).payload).toMatchObject({ address: split.address, recovery: "device" })
    const reply = await t.ask("RPC_REQUEST", { method: "personal_sign", params: ["0x68656c6c6f", split.address] })
    expect(reply.type).toBe("@wr-frame/RPC_REQUEST_SUCCESS")
    expect(await recoverMessageAddress({ message: "hello", signature: reply.payload as Hex })).toBe(split.address)
    expect(t.server.calls.filter((c) => c.name === "serverShare")).toHaveLength(1)
    expect(t.server.calls.some((c) => c.name === "rpc" && (c.args[0] as { method: string }).method === "personal_sign")).toBe(false)
    // Without its device share this device cannot sign, and says how to get one back; the server is not asked to.
    t.storage.removeItem(deviceShareKey("user-1", "eip155"))
    expect(await t.ask("RPC_REQUEST", { method: "personal_sign", params: ["0x68656c6c6f", split.address] })).toMatchObject({
      type: "@wr-frame/RPC_REQUEST_ERROR",
      payload: { message: "This device has no share of the eip155 key: recover it with your password or passkey" }
    })
    expect(t.server.calls.some((c) => c.name === "rpc" && (c.args[0] as { method: string }).method === "personal_sign")).toBe(false)
    expectNothingSecret(t.posted)
  })

  it("the user's reply says when this device needs recovery: no device share here, one of an older split, or one sealed under another session", async () => {
    const t = setup()
    const split = await Effect.runPromise(createSplitKey("user-1", "eip155"))
    t.server.state.split = split
    // Only the eip155 key is the test's: the frame makes the solana one at the login, so its share is here.
    t.server.state.newUser = true
    await t.frame.start()
    await t.login()
    // A new device: no share of the key here.
    expect((await t.ask("GET_USER", {})).payload).toMatchObject({ address: split.address, recovery: "device", needsRecovery: true })
    // The share of this split: the device signs, and the field is absent.
    t.storage.setItem(deviceShareKey("user-1", "eip155"), JSON.stringify(split.device))
    expect((await t.ask("GET_USER", {})).payload).not.toHaveProperty("needsRecovery")
    // A share of the split before a recovery elsewhere (the server's split id moved on): retired, so recovery again.
    const newer = await Effect.runPromise(createSplitKey("user-1", "eip155"))
    t.server.state.split = { ...split, splitId: newer.splitId, server: newer.server }
    expect((await t.ask("GET_USER", {})).payload).toMatchObject({ needsRecovery: true })
    // Where the frame's storage is its cookies, a share sealed under another session opens not: recovery.
    const cookies = setup({ storageTravels: true })
    cookies.server.state.split = split
    cookies.server.state.newUser = true
    cookies.storage.setItem(deviceShareKey("user-1", "eip155"), JSON.stringify(split.device))
    await cookies.frame.start()
    await cookies.login()
    expect((await cookies.ask("GET_USER", {})).payload).toMatchObject({ needsRecovery: true })
    expectNothingSecret([...t.posted, ...cookies.posted])
  })

  it("keeps the current chain per family: GET_CHAIN_ID, SWITCH_NETWORK and where RPC_REQUEST goes", async () => {
    const t = setup()
    t.server.state.newUser = true
    await t.frame.start()
    await t.login()
    const evm = t.server.state.made.get("eip155")!.address
    expect((await t.ask("GET_CHAIN_ID")).payload).toEqual({ chainId: 31337 })
    expect((await t.ask("SWITCH_NETWORK", { chainId: 31338 })).payload).toEqual({ chainId: 31338 })
    expect((await t.ask("GET_CHAIN_ID")).payload).toEqual({ chainId: 31338 })
    // Signing happens in the frame with the keys it made at the login; the server is asked only for the chain's methods.
    const signature = (await t.ask("RPC_REQUEST", { method: "personal_sign", params: ["0x68656c6c6f", evm] })).payload as Hex
    expect(await recoverMessageAddress({ message: "hello", signature })).toBe(evm)
    expect((await t.ask("RPC_REQUEST", { method: "solana_signMessage", params: { message: "Cn8eVZg" } })).type).toBe("@wr-frame/RPC_REQUEST_SUCCESS")
    await t.ask("SWITCH_NETWORK", { chainId: SOLANA })
    expect((await t.ask("GET_CHAIN_ID")).payload).toEqual({ chainId: SOLANA })
    // eip155 methods still go to the eip155 chain chosen before.
    await t.ask("RPC_REQUEST", { method: "eth_blockNumber" })
    expect(t.server.calls.filter((c) => c.name === "rpc").map((c) => c.args[0])).toEqual([{ chainId: "eip155:31338", method: "eth_blockNumber" }])
    expect((await t.ask("SWITCH_NETWORK", { chainId: "polkadot:e143f23803ac50e8f6f8e62695d1ce9e" })).type).toBe("@wr-frame/SWITCH_NETWORK_ERROR")
  })

  it("refuses a method the embedded wallet rejects, without asking the server", async () => {
    const t = setup()
    await t.frame.start()
    await t.login()
    for (const method of ["eth_sign", "wallet_addEthereumChain", "debug_traceTransaction"]) {
      expect(await t.ask("RPC_REQUEST", { method, params: [] })).toMatchObject({
        type: "@wr-frame/RPC_REQUEST_ERROR",
        payload: { message: "Requested RPC call is not allowed" }
      })
    }
    expect(t.server.calls.filter((c) => c.name === "rpc")).toEqual([])
  })

  it("a reply that would carry the session token is withheld", async () => {
    const t = setup()
    await t.frame.start()
    await t.login()
    t.server.state.rpcResult = { leaked: TOKEN }
    const reply = await t.ask("RPC_REQUEST", { method: "eth_call", params: [] })
    expect(reply.type).toBe("@wr-frame/RPC_REQUEST_ERROR")
    expectNothingSecret(t.posted)
  })

  it("SIGN_OUT logs out and forgets the token; a session the server ended is forgotten too", async () => {
    const t = setup()
    await t.frame.start()
    await t.login()
    expect(await t.ask("SIGN_OUT")).toEqual({ id: "req-3", type: "@wr-frame/SIGN_OUT_SUCCESS" })
    expect(t.server.calls.find((c) => c.name === "logout")?.args).toEqual([TOKEN])
    expect(t.storage.items.has(FRAME_STORAGE_KEYS.token)).toBe(false)
    expect((await t.ask("IS_CONNECTED")).payload).toEqual({ isConnected: false })

    await t.login()
    t.server.state.sessions.clear()
    expect((await t.ask("IS_CONNECTED")).payload).toEqual({ isConnected: false })
    expect(t.storage.items.has(FRAME_STORAGE_KEYS.token)).toBe(false)
    expect((await t.ask("RPC_REQUEST", { method: "personal_sign", params: [] })).payload).toEqual({ message: "Not connected: log in with your email first." })
  })

  it("updates the email in two codes; AWAIT_UPDATE_EMAIL answers the new email", async () => {
    const t = setup()
    await t.frame.start()
    await t.login()
    expect((await t.ask("UPDATE_EMAIL", { email: "new@example.test" })).payload).toEqual({ action: "VERIFY_PRIMARY_OTP" })
    const awaiting = t.frame.receive({ data: { id: "await-1", type: "@wr-app/AWAIT_UPDATE_EMAIL" }, origin: "http://127.0.0.1:5173", source: PARENT })
    expect(await t.ask("UPDATE_EMAIL_PRIMARY_OTP", { otp: "111111" })).toEqual({ id: "req-4", type: "@wr-frame/UPDATE_EMAIL_PRIMARY_OTP_SUCCESS" })
    expect((await t.ask("UPDATE_EMAIL_SECONDARY_OTP", { otp: "222222" })).payload).toEqual({ newEmail: "new@example.test" })
    await awaiting
    expect(t.posted.find((p) => "id" in p.message && p.message.id === "await-1")?.message).toEqual({
      id: "await-1",
      type: "@wr-frame/AWAIT_UPDATE_EMAIL_SUCCESS",
      payload: { email: "new@example.test" }
    })
    expect((await t.ask("AWAIT_UPDATE_EMAIL")).payload).toEqual({ email: "new@example.test" })
  })

  it("social login: GET_SOCIAL_REDIRECT_URI starts it for the parent's exact origin; CONNECT_SOCIAL finishes it and answers the user with provider and name", async () => {
    const t = setup()
    await t.frame.start()
    const redirect = await t.ask("GET_SOCIAL_REDIRECT_URI", { provider: "github", returnTo: `${HOST}/page` })
    expect(redirect).toMatchObject({ type: "@wr-frame/GET_SOCIAL_REDIRECT_URI_SUCCESS", payload: { uri: "https://idp.example.test/auth?state=s1&provider=github" } })
    expect(t.server.calls.find((c) => c.name === "socialStart")?.args[0]).toEqual({
      projectId: "devstack-project",
      deviceId: "device-0123456789abcdef",
      provider: "github",
      hostOrigin: HOST,
      returnTo: `${HOST}/page`
    })
    const refused = await t.ask("CONNECT_SOCIAL", { uri: "https://frame.test/social/callback?code=c&state=forged" })
    expect(refused).toMatchObject({ type: "@wr-frame/CONNECT_SOCIAL_ERROR", payload: { message: expect.stringContaining("not started here") } })
    expect(t.storage.items.has(FRAME_STORAGE_KEYS.token)).toBe(false)
    const done = await t.ask("CONNECT_SOCIAL", { uri: "https://frame.test/social/callback?code=c&state=s1" })
    expect(done).toMatchObject({
      type: "@wr-frame/CONNECT_SOCIAL_SUCCESS",
      payload: { email: null, address: USER.evmAddress, chainId: 31337, username: "octo", socialProvider: "github" }
    })
    expect((await t.ask("IS_CONNECTED")).payload).toEqual({ isConnected: true })
    expect((await t.ask("GET_USER", {})).payload).toMatchObject({ username: "octo", socialProvider: "github" })
    expectNothingSecret(t.posted)
  })

  it("passkey login: GET_PASSKEY_URI starts a ceremony for the parent's exact origin and theme; CONNECT_PASSKEY opens its session once", async () => {
    const t = setup()
    await t.frame.start()
    expect((await t.ask("CONNECT_PASSKEY")).payload).toEqual({ message: "No passkey login is waiting: start again." })
    await t.ask("SYNC_THEME", { themeMode: "dark" })
    const started = await t.ask("GET_PASSKEY_URI", { mode: "create" })
    expect(started).toMatchObject({ type: "@wr-frame/GET_PASSKEY_URI_SUCCESS", payload: { uri: "https://frame.test/frame/passkey?projectId=devstack-project&state=p1" } })
    expect(t.server.calls.find((c) => c.name === "passkeyStart")?.args[0]).toEqual({
      projectId: "devstack-project",
      deviceId: "device-0123456789abcdef",
      mode: "create",
      hostOrigin: HOST,
      themeMode: "dark"
    })
    const done = await t.ask("CONNECT_PASSKEY")
    expect(done).toMatchObject({ type: "@wr-frame/CONNECT_PASSKEY_SUCCESS", payload: { email: null, address: USER.evmAddress, chainId: 31337 } })
    expect(t.server.calls.find((c) => c.name === "passkeyFinish")?.args[0]).toEqual({ projectId: "devstack-project", deviceId: "device-0123456789abcdef", state: "p1" })
    expect((await t.ask("IS_CONNECTED")).payload).toEqual({ isConnected: true })
    // The ceremony is the frame's once: a second CONNECT_PASSKEY has none to finish.
    expect((await t.ask("CONNECT_PASSKEY")).type).toBe("@wr-frame/CONNECT_PASSKEY_ERROR")
    // The host's theme given with the request wins over the one SYNC_THEME left.
    await t.ask("GET_PASSKEY_URI", { mode: "login", themeMode: "light" })
    expect(t.server.calls.filter((c) => c.name === "passkeyStart")[1]?.args[0]).toMatchObject({ mode: "login", themeMode: "light" })
    expectNothingSecret(t.posted)
  })

  it("keeps the host's theme (SYNC_THEME): the social login it starts next is shown in it", async () => {
    const t = setup()
    await t.frame.start()
    expect((await t.ask("SYNC_DAPP_DATA", { sdkVersion: "4", projectId: "devstack-project", sdkType: "wallet-runtime", metadata: { name: "Shop", description: "", url: HOST, icons: [] } })).type).toBe(
      "@wr-frame/SYNC_DAPP_DATA_SUCCESS"
    )
    expect((await t.ask("SYNC_THEME", { themeMode: "dark" })).type).toBe("@wr-frame/SYNC_THEME_SUCCESS")
    await t.ask("GET_SOCIAL_REDIRECT_URI", { provider: "google" })
    expect(t.server.calls.find((c) => c.name === "socialStart")?.args[0]).toMatchObject({ provider: "google", themeMode: "dark" })
    // The device link's page follows it too: the theme goes with the email login.
    await t.ask("CONNECT_EMAIL", { email: "visitor@example.test" })
    expect(t.server.calls.find((c) => c.name === "loginEmail")?.args[0]).toMatchObject({ email: "visitor@example.test", themeMode: "dark" })
    await t.ask("SYNC_THEME", { themeMode: "light" })
    await t.ask("GET_SOCIAL_REDIRECT_URI", { provider: "x" })
    expect(t.server.calls.filter((c) => c.name === "socialStart")[1]?.args[0]).toMatchObject({ provider: "x", themeMode: "light" })
  })

  it("answers the requests it has nothing to do for, and refuses smart accounts in words", async () => {
    const t = setup()
    await t.frame.start()
    await t.login()
    expect((await t.ask("SYNC_THEME", { themeMode: "dark" })).type).toBe("@wr-frame/SYNC_THEME_SUCCESS")
    expect((await t.ask("SYNC_DAPP_DATA", { sdkVersion: "1", projectId: "devstack-project", sdkType: "wr" })).type).toBe("@wr-frame/SYNC_DAPP_DATA_SUCCESS")
    expect((await t.ask("RELOAD")).type).toBe("@wr-frame/RELOAD_SUCCESS")
    expect((await t.ask("GET_SMART_ACCOUNT_ENABLED_NETWORKS")).payload).toEqual({ smartAccountEnabledNetworks: [] })
    expect((await t.ask("SET_PREFERRED_ACCOUNT", { type: "eoa" })).payload).toEqual({ type: "eoa", address: USER.evmAddress })
    expect((await t.ask("SET_PREFERRED_ACCOUNT", { type: "smartAccount" })).payload).toEqual({ message: "Smart accounts are not available on this wallet server." })
    expectNothingSecret(t.posted)
  })

  it("Farcaster: the channel's link, pending while unsigned, then the session kept (never posted) and the user's name", async () => {
    const t = setup()
    await t.frame.start()
    const refused = await t.ask("CONNECT_FARCASTER")
    expect(refused.payload).toEqual({ message: "No Farcaster sign-in is waiting: start again." })
    expect((await t.ask("GET_FARCASTER_URI")).payload).toEqual({ url: "farcaster://connect?channelToken=channel-1&nonce=n0nce1234", expiresAt: 1_000 })
    t.server.state.farcasterAnswers.push("pending", "completed")
    expect((await t.ask("CONNECT_FARCASTER")).payload).toEqual({ pending: true })
    expect(t.server.calls.find((c) => c.name === "farcasterStatus")?.args[0]).toMatchObject({ channelToken: "channel-1", waitMs: 25_000 })
    expect((await t.ask("CONNECT_FARCASTER")).payload).toEqual({ userName: "alice" })
    const user = await t.ask("GET_USER", {})
    expect(user.payload).toMatchObject({ email: null, socialProvider: "farcaster", username: "alice" })
    // The channel is used up: a second connect has nothing to wait for.
    expect((await t.ask("CONNECT_FARCASTER")).type).toBe("@wr-frame/CONNECT_FARCASTER_ERROR")
    expectNothingSecret(t.posted)
  })

  it("Farcaster: an expired channel is said in the server's words and forgotten", async () => {
    const t = setup()
    await t.frame.start()
    await t.ask("GET_FARCASTER_URI")
    t.server.state.farcasterAnswers.push("expired")
    expect((await t.ask("CONNECT_FARCASTER")).payload).toEqual({ message: "The Farcaster sign-in expired: try again" })
    expect((await t.ask("CONNECT_FARCASTER")).payload).toEqual({ message: "No Farcaster sign-in is waiting: start again." })
    expect((await t.ask("IS_CONNECTED")).payload).toEqual({ isConnected: false })
  })
})

/** The page's secure views, faked: what was opened, and the visitor's ending of the view open now. */
const fakeSecureViews = () => {
  const opened: Array<{ readonly kind: string; readonly themeMode: string | undefined; readonly accent: string | number | undefined }> = []
  // Each theme handed to the views after one opened (a SYNC_THEME while it shows).
  const themed: Array<SecureViewTheme> = []
  let end: ((outcome: "done" | "cancelled") => void) | undefined
  let shown: ReadonlyArray<string> = []
  // The views' code arrives when the test says (`arrive`), or at once unless `slow`.
  let slow = false
  const waiting: Array<() => void> = []
  const views: SecureViews = {
    load: () => (slow ? new Promise<void>((resolve) => void waiting.push(resolve)) : Promise.resolve()),
    open: (kind, theme) =>
      new Promise((resolve) => {
        opened.push({ kind, ...theme })
        end = resolve
      }),
    theme: (theme) => void themed.push(theme),
    close: () => end?.("cancelled"),
    withheld: () => shown
  }
  return {
    views,
    opened,
    themed,
    finish: (outcome: "done" | "cancelled") => end?.(outcome),
    show: (key: string) => void (shown = [key]),
    slowLoad: () => void (slow = true),
    arrive: () => {
      slow = false
      for (const resolve of waiting.splice(0)) resolve()
    }
  }
}

describe("secure views", () => {
  it("OPEN_SECURE_VIEW shows the view of its kind in the host's theme, and answers only how it ended", async () => {
    const secure = fakeSecureViews()
    const t = setup({ secureViews: secure.views })
    await t.frame.start()
    await t.login()
    await t.ask("SYNC_THEME", { themeMode: "dark" })
    const reply = t.ask("OPEN_SECURE_VIEW", { kind: "protect" })
    await vi.waitFor(() => expect(secure.opened).toEqual([{ kind: "protect", themeMode: "dark" }]))
    secure.finish("done")
    expect((await reply).payload).toEqual({ outcome: "done" })
    const closed = t.ask("OPEN_SECURE_VIEW", { kind: "export", themeMode: "light" })
    await vi.waitFor(() => expect(secure.opened).toHaveLength(2))
    expect(secure.opened[1]).toEqual({ kind: "export", themeMode: "light" })
    expect((await t.ask("CLOSE_SECURE_VIEW")).type).toBe("@wr-frame/CLOSE_SECURE_VIEW_SUCCESS")
    expect((await closed).payload).toEqual({ outcome: "cancelled" })
    expectNothingSecret(t.posted)
  })

  it("hands the views the host's accent from its last SYNC_THEME; a sync without one gives the frame's own back, and a hostile one is dropped, changing nothing", async () => {
    const secure = fakeSecureViews()
    const t = setup({ secureViews: secure.views })
    await t.frame.start()
    await t.login()
    const openedNow = async () => {
      const reply = t.ask("OPEN_SECURE_VIEW", { kind: "protect" })
      await vi.waitFor(() => expect(secure.opened.length).toBeGreaterThan(0))
      secure.finish("cancelled")
      await reply
      return secure.opened.splice(0)[0]
    }
    await t.ask("SYNC_THEME", { themeMode: "dark", themeVariables: { "--wr-accent": "#e0005a" } })
    expect(await openedNow()).toEqual({ kind: "protect", themeMode: "dark", accent: "#e0005a" })
    // A value that could end its declaration or run something: the message is dropped unanswered, nothing kept of it.
    for (const hostile of ["red;background:url(x)", "expression(alert(1))"]) {
      const before = t.posted.length
      await t.frame.receive({ data: { id: "hostile", type: "@wr-app/SYNC_THEME", payload: { themeVariables: { "--wr-accent": hostile } } }, origin: HOST, source: PARENT })
      expect(t.posted.length).toBe(before)
    }
    expect(await openedNow()).toEqual({ kind: "protect", themeMode: "dark", accent: "#e0005a" })
    await t.ask("SYNC_THEME", { themeMode: "dark" })
    expect(await openedNow()).toEqual({ kind: "protect", themeMode: "dark", accent: undefined })
  })

  it("a theme the host changes while a view shows reaches that view at once, mode and accent; a sync without them gives the system's mode and the frame's accent back; a hostile one reaches nothing", async () => {
    const secure = fakeSecureViews()
    const t = setup({ secureViews: secure.views })
    await t.frame.start()
    await t.login()
    await t.ask("SYNC_THEME", { themeMode: "light", themeVariables: { "--wr-accent": "#e0005a" } })
    const reply = t.ask("OPEN_SECURE_VIEW", { kind: "export" })
    await vi.waitFor(() => expect(secure.opened).toEqual([{ kind: "export", themeMode: "light", accent: "#e0005a" }]))
    secure.themed.splice(0)
    await t.ask("SYNC_THEME", { themeMode: "dark", themeVariables: { "--wr-accent": "#ffe066" } })
    expect(secure.themed).toEqual([{ themeMode: "dark", accent: "#ffe066" }])
    await t.frame.receive({ data: { id: "hostile", type: "@wr-app/SYNC_THEME", payload: { themeVariables: { "--wr-accent": "red;background:url(x)" } } }, origin: HOST, source: PARENT })
    expect(secure.themed).toHaveLength(1)
    await t.ask("SYNC_THEME", {})
    expect(secure.themed[1]).toEqual({ themeMode: undefined, accent: undefined })
    // The view it reached is the one still showing: nothing was opened again.
    expect(secure.opened).toHaveLength(1)
    secure.finish("done")
    expect((await reply).payload).toEqual({ outcome: "done" })
  })

  it("a theme the host syncs while a view's code is on the way is the one it opens in, newer than the mode its request carried", async () => {
    const secure = fakeSecureViews()
    const t = setup({ secureViews: secure.views })
    await t.frame.start()
    await t.login()
    secure.slowLoad()
    const users = () => t.server.calls.filter((c) => c.name === "user").length
    const before = users()
    const reply = t.ask("OPEN_SECURE_VIEW", { kind: "protect", themeMode: "light" })
    // The session checked: the view's code is on the way.
    await vi.waitFor(() => expect(users()).toBe(before + 1))
    await t.ask("SYNC_THEME", { themeMode: "dark", themeVariables: { "--wr-accent": "#ffe066" } })
    secure.arrive()
    await vi.waitFor(() => expect(secure.opened).toEqual([{ kind: "protect", themeMode: "dark", accent: "#ffe066" }]))
    secure.finish("cancelled")
    await reply
  })

  it("a view dropped, or asked for again, while its code is on the way is never shown (the modal mounted it twice at once)", async () => {
    const secure = fakeSecureViews()
    const t = setup({ secureViews: secure.views })
    await t.frame.start()
    await t.login()
    secure.slowLoad()
    const first = t.ask("OPEN_SECURE_VIEW", { kind: "export" })
    await vi.waitFor(() => expect(t.server.calls.filter((c) => c.name === "user").length).toBeGreaterThan(0))
    expect((await t.ask("CLOSE_SECURE_VIEW")).type).toBe("@wr-frame/CLOSE_SECURE_VIEW_SUCCESS")
    const second = t.ask("OPEN_SECURE_VIEW", { kind: "export" })
    const third = t.ask("OPEN_SECURE_VIEW", { kind: "protect" })
    // All three wait for the views' code.
    await vi.waitFor(() => expect(t.server.calls.filter((c) => c.name === "user")).toHaveLength(3))
    secure.arrive()
    await vi.waitFor(() => expect(secure.opened).toEqual([{ kind: "protect", themeMode: undefined }]))
    expect((await first).payload).toEqual({ outcome: "cancelled" })
    expect((await second).payload).toEqual({ outcome: "cancelled" })
    secure.finish("done")
    expect((await third).payload).toEqual({ outcome: "done" })
  })

  it("refuses a secure view before a login, or where the page has none, and shows nothing", async () => {
    const secure = fakeSecureViews()
    const t = setup({ secureViews: secure.views })
    await t.frame.start()
    expect((await t.ask("OPEN_SECURE_VIEW", { kind: "export" })).payload).toEqual({ message: "Not connected: log in with your email first." })
    expect(secure.opened).toEqual([])
    const bare = setup()
    await bare.frame.start()
    await bare.login()
    expect((await bare.ask("OPEN_SECURE_VIEW", { kind: "recover" })).payload).toEqual({ message: "This wallet cannot show that view." })
  })

  it("while a view shows a key, no reply may carry it", async () => {
    const secure = fakeSecureViews()
    const t = setup({ secureViews: secure.views })
    await t.frame.start()
    await t.login()
    const key = `0x${"7f".repeat(32)}`
    secure.show(key)
    t.server.state.rpcResult = { leaked: key }
    expect((await t.ask("RPC_REQUEST", { method: "eth_call", params: [] })).type).toBe("@wr-frame/RPC_REQUEST_ERROR")
    expectNothingSecret(t.posted)
  })
})

describe("helpers", () => {
  it("chainOf reads the host's chain ids", () => {
    expect(chainOf(1)).toEqual({ family: "eip155", caip: "eip155:1" })
    expect(chainOf("31337")).toEqual({ family: "eip155", caip: "eip155:31337" })
    expect(chainOf("eip155:31337")).toEqual({ family: "eip155", caip: "eip155:31337" })
    expect(chainOf(SOLANA)).toEqual({ family: "solana", caip: SOLANA })
    for (const bad of [0, -1, 1.5, "", "eip155:", "eip155:0x1", "bip122:000000000019d6689c085ae165831e93", "solana:0OIl"]) expect(chainOf(bad)).toBeUndefined()
  })

  it("parseFrameQuery reads the frame's address", () => {
    expect(parseFrameQuery("?projectId=p&chainId=31337&version=2.0&enableLogger=true")).toEqual({
      projectId: "p",
      chainId: 31337,
      version: "2.0",
      enableLogger: true
    })
    expect(parseFrameQuery(`?projectId=p&chainId=${SOLANA}`)).toEqual({ projectId: "p", chainId: SOLANA, version: undefined, enableLogger: false })
  })
})
