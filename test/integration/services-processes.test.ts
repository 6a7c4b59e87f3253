/**
 * Stateless service processes: two server processes (the server command, components `services` and `wallet`) on one
 * real Postgres (test/support/postgres.ts) and one master-key file, as a host runs them behind a load balancer. What
 * one process hands out the other accepts: a sign-in nonce from process 1 is redeemed on process 2 and the session is
 * listed by 1 (and the nonce cannot be used again on 1); a name registered on 1 is found on 2; an email code mailed
 * by wallet server 1 logs in on wallet server 2, whose session token wallet server 1 takes; the mail cool-down started
 * on 1 holds on 2.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Schema } from "effect"
import { SMTPServer } from "smtp-server"
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type AnvilInfo, startAnvil } from "../../devstack/evm/anvil"
import { makeFramePageBuilder } from "../../server/src/embedded/frame/build"
import type { Started } from "../../server/src/lib/Started"
import { NameMessageJson } from "../../src/domain/Names"
import type { CaipNetworkId } from "../../src/domain/Caip"
import { formatSiwxMessage } from "../../src/domain/siwxMessage"
import { type RunningPostgres, startPostgres } from "../support/postgres"
import { type ServerProcess, startServerProcess } from "./support/serverProcesses"

const PROJECT = "devstack"
const CHAIN = "eip155:31337" as CaipNetworkId
const WAIT_MS = 15_000

let postgres: RunningPostgres
let anvil: Started<AnvilInfo>
let smtp: { readonly port: number; readonly mailTo: (to: string, after: number) => Promise<string>; readonly count: (to: string) => number; readonly close: () => Promise<void> }
let one: ServerProcess
let two: ServerProcess
const folder = mkdtempSync(join(tmpdir(), "wr-services-processes-"))

/** An SMTP sink that keeps each mail's text by recipient. */
const startSmtp = async () => {
  const mails: Array<{ readonly to: ReadonlyArray<string>; readonly data: string }> = []
  const waiting = new Set<() => void>()
  const server = new SMTPServer({
    logger: false,
    disabledCommands: ["STARTTLS", "AUTH"],
    authOptional: true,
    onData(stream, session, callback) {
      const chunks: Array<Buffer> = []
      stream.on("data", (chunk: Buffer) => chunks.push(chunk))
      stream.on("end", () => {
        mails.push({ to: session.envelope.rcptTo.map((rcpt) => rcpt.address), data: Buffer.concat(chunks).toString("utf8") })
        for (const wake of waiting) wake()
        callback()
      })
    }
  })
  server.on("error", () => undefined)
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()))
  const address = server.server.address()
  const to = (address: string) => mails.filter((mail) => mail.to.includes(address))
  return {
    port: typeof address === "object" && address !== null ? address.port : 0,
    count: (address: string) => to(address).length,
    /** The text of the mail to `address` after the first `after` ones, within the bound. */
    mailTo: (address: string, after: number) =>
      new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no mail to ${address} within ${WAIT_MS} ms`)), WAIT_MS)
        const check = () => {
          const found = to(address)[after]
          if (found === undefined) return
          clearTimeout(timer)
          waiting.delete(check)
          resolve(found.data)
        }
        waiting.add(check)
        check()
      }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}

beforeAll(async () => {
  const frameDir = join(folder, "frame")
  const frame = makeFramePageBuilder(frameDir)
  await Promise.all([
    // The wallet component builds its frame page at start; built once here, both processes find it built.
    frame.latest().ready.finally(() => frame.stop()),
    startPostgres().then((started) => (postgres = started)),
    startAnvil({ chainId: 31337 }).then((started) => (anvil = started)),
    startSmtp().then((started) => (smtp = started))
  ])
  const env = (createMasterKey: boolean) => ({
    DATABASE_URL: postgres.url,
    WALLET_RUNTIME_CHAINS: JSON.stringify({ [CHAIN]: { name: "Local chain", rpcUrls: [anvil.info.rpcUrl] } }),
    WALLET_RUNTIME_WALLET_MASTER_KEY_FILE: join(folder, "master-key"),
    WALLET_RUNTIME_WALLET_CREATE_MASTER_KEY: String(createMasterKey),
    WALLET_RUNTIME_WALLET_FRAME_BUILD_DIR: frameDir,
    WALLET_RUNTIME_SMTP_HOST: "127.0.0.1",
    WALLET_RUNTIME_SMTP_PORT: String(smtp.port),
    WALLET_RUNTIME_SMTP_SECURITY: "none",
    WALLET_RUNTIME_SMTP_FROM: "wallet@host.example"
  })
  // The first makes the master key; the second reads the same file, as a host's shared secret.
  one = await startServerProcess(["services", "wallet"], env(true))
  two = await startServerProcess(["services", "wallet"], env(false))
}, 180_000)

afterAll(async () => {
  await Promise.all([one?.stop(), two?.stop()].map((stopping) => stopping?.catch(() => undefined)))
  await Promise.all([postgres?.stop(), anvil?.stop(), smtp?.close()])
  rmSync(folder, { recursive: true, force: true })
}, 60_000)

const call = async (base: string | undefined, method: "GET" | "POST", path: string, body?: unknown, headers: Record<string, string> = {}) => {
  const response = await fetch(`${base}${path}${path.includes("?") ? "&" : "?"}projectId=${PROJECT}`, {
    method,
    headers: { "content-type": "application/json", "x-project-id": PROJECT, ...headers },
    signal: AbortSignal.timeout(WAIT_MS),
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  const text = await response.text()
  return { status: response.status, body: (text === "" ? {} : JSON.parse(text)) as Record<string, unknown> }
}
const services = (process: ServerProcess) => process.urls["services"]
const wallet = (process: ServerProcess) => process.urls["wallet"]

describe("two service processes on one Postgres", () => {
  it("completes on process 2 a sign-in started on process 1, and process 1 lists the session and refuses the nonce again", async () => {
    const account = privateKeyToAccount(generatePrivateKey())
    const caip = `${CHAIN}:${account.address}`
    const nonce = await call(services(one), "POST", `/v1/sessions/${caip}/nonce`)
    expect(nonce.status).toBe(200)
    const data = {
      domain: "127.0.0.1:5173",
      uri: "http://127.0.0.1:5173/",
      version: "1",
      chainId: CHAIN,
      accountAddress: account.address,
      nonce: String(nonce.body["nonce"]),
      issuedAt: new Date().toISOString(),
      expirationTime: new Date(Date.now() + 3_600_000).toISOString(),
      statement: "Sign in across processes"
    }
    const text = formatSiwxMessage(data)
    if (text._tag === "Failure") throw new Error(text.failure)
    const body = { data, message: text.success, signature: await account.signMessage({ message: text.success }) }

    const added = await call(services(two), "POST", `/v1/sessions/${caip}`, body)
    expect(added.status).toBe(200)
    const listed = await call(services(one), "GET", `/v1/sessions/${caip}`)
    expect(listed).toMatchObject({ status: 200, body: { sessions: [expect.objectContaining({ message: text.success })] } })
    const again = await call(services(one), "POST", `/v1/sessions/${caip}`, body)
    expect(again.status).toBe(403)
    expect(String(again.body["error"])).toMatch(/already used/)
  }, 60_000)

  it("finds on process 2 a name registered on process 1", async () => {
    const account = privateKeyToAccount(generatePrivateKey())
    const name = `cross-${account.address.slice(2, 10).toLowerCase()}.wallet-runtime.id`
    const message = Schema.encodeSync(NameMessageJson)({ name, attributes: {}, timestamp: Math.floor(Date.now() / 1000) })
    const registered = await call(services(one), "POST", "/v1/profile/account", {
      coin_type: 0x8000_0000 + 31337,
      address: account.address,
      message,
      signature: await account.signMessage({ message })
    })
    expect(registered.status).toBe(200)
    expect(await call(services(two), "GET", `/v1/profile/account/${encodeURIComponent(name)}`)).toMatchObject({ status: 200, body: { name } })
  }, 60_000)

  it("logs in on wallet server 2 with the code wallet server 1 mailed; 1 takes 2's session, and 1's cool-down holds on 2", async () => {
    const email = `cross-${Date.now()}@example.test`
    const deviceId = `device-${Date.now()}-0123456789`
    const asked = await call(wallet(one), "POST", "/api/login/email", { projectId: PROJECT, deviceId, email })
    expect(asked).toMatchObject({ status: 200, body: { action: "VERIFY_OTP" } })
    const mail = await smtp.mailTo(email, 0)
    const code = /Your wallet code: (\d{6})/.exec(mail)?.[1]
    expect(code).toMatch(/^\d{6}$/)

    // Asked again, on the other process, within the cool-down: refused, no second mail.
    const tooSoon = await call(wallet(two), "POST", "/api/login/email", { projectId: PROJECT, deviceId, email })
    expect(tooSoon.status).toBe(429)

    const loggedIn = await call(wallet(two), "POST", "/api/login/otp", { projectId: PROJECT, deviceId, email, otp: code })
    expect(loggedIn.status).toBe(200)
    const token = String(loggedIn.body["token"])
    const me = await call(wallet(one), "GET", "/api/user", undefined, { authorization: `Bearer ${token}` })
    expect(me).toMatchObject({ status: 200, body: expect.objectContaining({ email }) })
    expect(smtp.count(email)).toBe(1)
  }, 60_000)
})
