/**
 * The embedded wallet's frame site in Chromium: a host page on one loopback origin embeds `/frame` from the wallet
 * server's origin (mail sink, PGlite, anvil and the wallet server with the frame site's routes all real) and drives
 * the frame protocol with raw postMessage. The frame says READY once, logs in by email with the code from the mail
 * sink, gives the user's addresses, signs with personal_sign (verified with viem), refuses a rejected method, ignores
 * a malformed message, signs out; a page whose origin the project does not allow gets nothing; and neither the
 * session token nor a private key ever reaches the host page.
 */
import { randomBytes } from "node:crypto"
import { Buffer } from "node:buffer"
import type { Frame, Page } from "playwright-core"
import { verifyMessage } from "viem"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startDatabase, type Database } from "../../server/src/db/index"
import { findUserByEmail, keysOf } from "../../server/src/embedded/server/store"
import { startWalletServer } from "../../server/src/embedded/server/index"
import { makeFramePageBuilder } from "../../server/src/embedded/frame/build"
import { FRAME_STORAGE_KEYS } from "../../server/src/embedded/frame/frameLogic"
import { frameSiteRoutes } from "../../server/src/embedded/frame/routes"
import { startEvm, type EvmInfo } from "../../devstack/evm/index"
import { listenHttp, type LocalHttpServer } from "../../server/src/lib/httpServer"
import type { PageBuilder } from "../../server/src/lib/pageBuild"
import type { Started } from "../../server/src/lib/Started"
import { type MailInfo, startMail } from "../../devstack/mail/index"
import { type Browser, launchBrowser } from "./support/browser"

// The host page: embeds the frame named in its query and records every message any window posts to it.
const HOST_HTML = `<!doctype html><html><head><meta charset="utf-8"><title>Host</title></head><body><script>
window.received = [];
window.receivedFrom = [];
const frameUrl = new URLSearchParams(location.search).get("frame");
const frameOrigin = new URL(frameUrl).origin;
window.addEventListener("message", (event) => {
  window.received.push(event.data);
  window.receivedFrom.push(event.origin);
});
const iframe = document.createElement("iframe");
iframe.id = "wallet-frame";
iframe.src = frameUrl;
window.frameLoaded = new Promise((resolve) => iframe.addEventListener("load", () => resolve(true), { once: true }));
document.body.appendChild(iframe);
window.send = (message) => iframe.contentWindow.postMessage(message, frameOrigin);
</script></body></html>`

let mail: Started<MailInfo>
let db: Started<Database>
let evm: Started<EvmInfo>
let wallet: Awaited<ReturnType<typeof startWalletServer>>
let builder: PageBuilder
let host: LocalHttpServer
let browser: Browser
const masterKey = new Uint8Array(randomBytes(32))

beforeAll(async () => {
  ;[mail, db, evm] = await Promise.all([startMail(), startDatabase(), startEvm({ chainIds: [31337] })])
  builder = makeFramePageBuilder()
  wallet = await startWalletServer({
    masterKey,
    smtp: { host: "127.0.0.1", port: mail.info.smtpPort },
    database: db.info,
    chains: { evm: evm.info.chains.map((chain) => ({ caipNetworkId: chain.caipNetworkId, rpcUrl: chain.rpcUrl })) },
    extraRoutes: frameSiteRoutes({ builder })
  })
  await builder.latest().ready
  host = await listenHttp()
  host.handle((_req, res) => {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" })
    res.end(HOST_HTML)
  })
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
  await host?.stop()
  await wallet?.stop()
  await builder?.stop()
  await Promise.all([evm?.stop(), db?.stop(), mail?.stop()])
})

type Message = { readonly id?: string; readonly type?: string; readonly payload?: unknown }

const frameUrl = (projectId: string) =>
  `${wallet.info.url}/frame?projectId=${projectId}&chainId=31337&version=9.9.9&enableLogger=true`

const openHost = async (page: Page, projectId: string, hostOrigin = host.url) => {
  await page.goto(`${hostOrigin}/?frame=${encodeURIComponent(frameUrl(projectId))}`)
  await page.evaluate(() => (window as unknown as { frameLoaded: Promise<boolean> }).frameLoaded)
}

const received = (page: Page): Promise<ReadonlyArray<Message>> =>
  page.evaluate(() => (window as unknown as { received: ReadonlyArray<Message> }).received)

let nextId = 0
/** Posts a request to the frame and waits for the reply with its id. */
const ask = async (page: Page, type: string, payload?: unknown): Promise<Message> => {
  const id = `e2e-${++nextId}`
  const message = payload === undefined ? { id, type: `@wr-app/${type}` } : { id, type: `@wr-app/${type}`, payload }
  await page.evaluate((m) => (window as unknown as { send: (m: unknown) => void }).send(m), message)
  const handle = await page.waitForFunction(
    (want) => (window as unknown as { received: ReadonlyArray<Message> }).received.find((m) => m?.id === want),
    id,
    { timeout: 30_000 }
  )
  return (await handle.jsonValue()) as Message
}

const walletFrame = (page: Page): Frame => {
  const frame = page.frames().find((f) => f.url().startsWith(`${wallet.info.url}/frame`))
  if (frame === undefined) throw new Error("the wallet frame is not in the page")
  return frame
}

describe("the frame site, embedded by an allowed loopback page", () => {
  let page: Page
  const email = `visitor-${Date.now().toString(36)}@example.test`

  beforeAll(async () => {
    page = await browser.context.newPage()
    await openHost(page, "devstack-project")
    await page.waitForFunction(() =>
      (window as unknown as { received: ReadonlyArray<Message> }).received.some((m) => m?.type === "@wr-frame/READY")
    )
  })

  afterAll(async () => {
    await page?.close()
  })

  it("serves the page with its security headers", async () => {
    const response = await fetch(frameUrl("devstack-project"))
    expect(response.headers.get("content-security-policy")).toContain("frame-ancestors http://127.0.0.1:* http://localhost:* http://[::1]:*")
    expect(response.headers.get("referrer-policy")).toBe("no-referrer")
    expect(response.headers.get("cache-control")).toBe("no-store")
    const locked = await fetch(frameUrl("devstack-origin-locked"))
    expect(locked.headers.get("content-security-policy")).toContain("frame-ancestors https://app.example")
    const unknown = await fetch(frameUrl("no-such-project"))
    expect(unknown.headers.get("content-security-policy")).toContain("frame-ancestors 'none'")
  })

  it("logs in by email, gives the addresses, signs, refuses, ignores malformed messages, signs out — without leaking the token or a key", async () => {
    const ready = (await received(page)).filter((m) => m.type === "@wr-frame/READY")
    expect(ready).toEqual([{ type: "@wr-frame/READY", payload: { version: "9.9.9" } }])
    expect(new Set(await page.evaluate(() => (window as unknown as { receivedFrom: Array<string> }).receivedFrom))).toEqual(new Set([wallet.info.url]))

    expect(await ask(page, "IS_CONNECTED")).toMatchObject({ type: "@wr-frame/IS_CONNECTED_SUCCESS", payload: { isConnected: false } })
    expect(await ask(page, "CONNECT_EMAIL", { email })).toMatchObject({ type: "@wr-frame/CONNECT_EMAIL_SUCCESS", payload: { action: "VERIFY_OTP" } })
    const code = (await mail.info.waitForMail(email)).codes[0]
    expect(code).toMatch(/^\d{6}$/)
    expect(await ask(page, "CONNECT_OTP", { otp: code })).toMatchObject({ type: "@wr-frame/CONNECT_OTP_SUCCESS" })
    expect(await ask(page, "IS_CONNECTED")).toMatchObject({ payload: { isConnected: true } })

    const evmUser = await ask(page, "GET_USER", { chainId: 31337 })
    expect(evmUser.type).toBe("@wr-frame/GET_USER_SUCCESS")
    const user = evmUser.payload as { address: `0x${string}`; email: string; accounts: Array<{ address: string; type: string }> }
    expect(user.address).toMatch(/^0x[0-9a-fA-F]{40}$/)
    expect(user.email).toBe(email)
    expect(user.accounts).toEqual([{ address: user.address, type: "eoa" }])
    const solanaUser = await ask(page, "GET_USER", { chainId: "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1" })
    expect((solanaUser.payload as { address: string }).address).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/)
    expect(await ask(page, "GET_USER", { chainId: "eip155:31337" })).toMatchObject({ payload: { address: user.address } })

    const text = "Sign in to the frame-site test"
    const signed = await ask(page, "RPC_REQUEST", {
      method: "personal_sign",
      params: [`0x${Buffer.from(text, "utf8").toString("hex")}`, user.address]
    })
    expect(signed.type).toBe("@wr-frame/RPC_REQUEST_SUCCESS")
    const signature = signed.payload as `0x${string}`
    expect(await verifyMessage({ address: user.address, message: text, signature })).toBe(true)
    expect(await verifyMessage({ address: user.address, message: "another message", signature })).toBe(false)

    expect(await ask(page, "RPC_REQUEST", { method: "eth_sign", params: [user.address, "0x00"] })).toEqual({
      id: `e2e-${nextId}`,
      type: "@wr-frame/RPC_REQUEST_ERROR",
      payload: { message: "Requested RPC call is not allowed" }
    })

    // Malformed messages get no answer; the frame still answers the next good one (messages arrive in order).
    const before = (await received(page)).length
    await page.evaluate(() => {
      const send = (window as unknown as { send: (m: unknown) => void }).send
      send({ id: "malformed-1", type: "@wr-app/NOT_A_REQUEST" })
      send({ type: "@wr-app/IS_CONNECTED" })
      send({ id: "malformed-2", type: "@wr-app/IS_CONNECTED", payload: { extra: true } })
      send({ id: "malformed-3", type: "@wr-app/CONNECT_OTP", payload: { otp: "not a code" } })
      send("@wr-app/IS_CONNECTED")
    })
    expect(await ask(page, "IS_CONNECTED")).toMatchObject({ payload: { isConnected: true } })
    const afterMalformed = (await received(page)).slice(before)
    expect(afterMalformed.map((m) => m.id)).toEqual([`e2e-${nextId}`])

    // The token is in the frame origin's storage, and nowhere the host can see.
    const token = await walletFrame(page).evaluate((key) => localStorage.getItem(key), FRAME_STORAGE_KEYS.token)
    expect(token).toEqual(expect.any(String))
    expect(token!.length).toBeGreaterThan(16)
    const userRow = await db.info.run(findUserByEmail(email))
    expect(userRow).toBeDefined()
    // The frame made the new user's keys at this first login: the server holds no key of theirs, and what this device
    // keeps of them (a device share and a device secret per family) stays in the frame's storage.
    expect(await db.info.run(keysOf(userRow!.id))).toEqual([])
    const kept = await walletFrame(page).evaluate(() =>
      Object.keys(localStorage)
        .filter((key) => key.startsWith("wr-frame/device-share/") || key.startsWith("wr-frame/device-secret/"))
        .map((key) => localStorage.getItem(key) ?? "")
    )
    expect(kept).toHaveLength(4)
    const secrets = kept.flatMap((value) => {
      const secret = Buffer.from(value.startsWith("{") ? (JSON.parse(value) as { share: string }).share : value, "base64")
      return [secret.toString("hex"), secret.toString("base64"), secret.toString("base64url")]
    })
    const hostSide = JSON.stringify({
      received: await received(page),
      storage: await page.evaluate(() => Object.entries(localStorage)),
      session: await page.evaluate(() => Object.entries(sessionStorage)),
      cookies: await page.evaluate(() => document.cookie)
    })
    for (const secret of [token!, ...secrets]) expect(hostSide.toLowerCase()).not.toContain(secret.toLowerCase())
    expect((await received(page)).some((m) => m.type === "@wr-frame/SESSION_UPDATE")).toBe(false)

    expect(await ask(page, "SIGN_OUT")).toMatchObject({ type: "@wr-frame/SIGN_OUT_SUCCESS" })
    expect(await ask(page, "IS_CONNECTED")).toMatchObject({ payload: { isConnected: false } })
    expect(await walletFrame(page).evaluate((key) => localStorage.getItem(key), FRAME_STORAGE_KEYS.token)).toBeNull()
    // The ended session is refused by the server too.
    const ended = await fetch(`${wallet.info.url}/api/user`, {
      headers: { authorization: `Bearer ${token}`, "x-project-id": "devstack-project" }
    })
    expect(ended.status).toBe(401)
    expect((await received(page)).filter((m) => m.type === "@wr-frame/READY")).toHaveLength(1)
  })
})

describe("the frame site, embedded by a page the project does not allow", () => {
  it("the page's CSP stops the embedding: the frame's script never runs", async () => {
    const page = await browser.context.newPage()
    try {
      await openHost(page, "devstack-origin-locked")
      // Blocked by frame-ancestors, the frame holds Chromium's error page, not the frame site.
      const frame = page.frames().find((f) => f !== page.mainFrame())
      expect(frame).toBeDefined()
      expect(frame!.url().startsWith(wallet.info.url)).toBe(false)
      expect(await received(page)).toEqual([])
    } finally {
      await page.close()
    }
  })

  it("without the CSP, the frame itself refuses: no READY and no answer", async () => {
    const page = await browser.context.newPage()
    const logs: Array<string> = []
    page.on("console", (message) => logs.push(message.text()))
    // Stand in for a browser that does not enforce frame-ancestors: the frame's own check must still hold.
    await page.route(
      (url) => url.pathname === "/frame",
      async (route) => {
        const response = await route.fetch()
        const headers = { ...response.headers() }
        delete headers["content-security-policy"]
        await route.fulfill({ response, headers })
      }
    )
    try {
      await openHost(page, "devstack-origin-locked")
      await expect.poll(() => logs.some((l) => l.includes(`${host.url} is not an allowed origin of project devstack-origin-locked`)), { timeout: 15_000 }).toBe(true)
      expect(walletFrame(page).url()).toContain("/frame?projectId=devstack-origin-locked")
      await page.evaluate(() => (window as unknown as { send: (m: unknown) => void }).send({ id: "locked-1", type: "@wr-app/IS_CONNECTED" }))
      await expect.poll(() => logs.some((l) => l.includes("dropped a message: the frame is not ready for this page")), { timeout: 15_000 }).toBe(true)
      expect(await received(page)).toEqual([])
    } finally {
      await page.close()
    }
  })
})

describe("the frame site, embedded cross-site", () => {
  it("a page on localhost embeds the 127.0.0.1 frame cross-site (its localStorage denied): READY and answers go to that exact origin", async () => {
    const page = await browser.context.newPage()
    const errors: Array<string> = []
    page.on("pageerror", (error) => errors.push(error.message))
    try {
      const localhostOrigin = `http://localhost:${host.port}`
      await openHost(page, "devstack-project", localhostOrigin)
      await page.waitForFunction(() =>
        (window as unknown as { received: ReadonlyArray<Message> }).received.some((m) => m?.type === "@wr-frame/READY")
      )
      expect(await ask(page, "GET_CHAIN_ID")).toMatchObject({ type: "@wr-frame/GET_CHAIN_ID_SUCCESS", payload: { chainId: 31337 } })
      expect(await ask(page, "IS_CONNECTED")).toMatchObject({ payload: { isConnected: false } })
      expect(new Set(await page.evaluate(() => (window as unknown as { receivedFrom: Array<string> }).receivedFrom))).toEqual(new Set([wallet.info.url]))
      expect(errors).toEqual([])
    } finally {
      await page.close()
    }
  })
})
