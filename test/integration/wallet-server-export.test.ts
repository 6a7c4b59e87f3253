/**
 * Showing a private key after a fresh confirmation (issue 30, item 4), against the real wallet server, database (PGlite)
 * and mail sink, with the frame's own SplitKeys driven from node: an email user confirms with the code mailed for it
 * (a wrong one says the tries left, a used one and one expired by the server's clock are refused; asked again within
 * the mail's 30 s after a code confirmed an export, no mail goes and the answer says no code waits), a passkey user with
 * a new assertion from a software authenticator (a replayed one is refused, and so is another session's ceremony);
 * an account with neither with a login of the last 5 minutes (past them refused in words); the grant gives the
 * export's server share once, only to the session that confirmed and for the family it named. One confirmation covers
 * the families asked (both keys after one code), with a grant of its own per family; none for a family not asked.
 */
import { randomBytes, randomUUID } from "node:crypto"
import { Effect, Layer } from "effect"
import { privateKeyToAccount } from "viem/accounts"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Database, startDatabase } from "../../server/src/db/index"
import { makeWalletApi } from "../../server/src/embedded/frame/apiClient"
import { makeMemoryStorage } from "../../server/src/embedded/frame/frameLogic"
import { DeviceShares, ShareServer, SplitKeys } from "../../server/src/embedded/frame/SplitKeys"
import { EXPORT_FRESH_LOGIN_MS, EXPORT_GRANT_TTL_MS } from "../../server/src/embedded/server/exportGrants"
import { CODE_TTL_MS, MAIL_COOLDOWN_MS, SESSION_TTL_MS } from "../../server/src/embedded/server/handlers"
import { newToken, tokenHash } from "../../server/src/embedded/server/keys"
import * as store from "../../server/src/embedded/server/store"
import { startWalletServer, type WalletServerInfo } from "../../server/src/embedded/server/index"
import type { KeyFamily } from "../../server/src/embedded/sharesApi"
import type { Started } from "../../server/src/lib/Started"
import { type MailInfo, startMail } from "../../devstack/mail/index"
import { fromBase58, toBase58 } from "../../src/domain/encoding"
import { SoftAuthenticator } from "./support/softAuthenticator"
import { exportGrant, exportGrants, logIn, newestCode, walletApi } from "./support/walletServerClient"

let clock = Date.now()
let mail: Started<MailInfo>
let db: Started<Database>
let server: Started<WalletServerInfo>
let emails = 0

beforeAll(async () => {
  ;[mail, db] = await Promise.all([startMail(), startDatabase()])
  server = await startWalletServer({
    masterKey: randomBytes(32),
    smtp: { port: mail.info.smtpPort },
    database: db.info,
    chains: { evm: [] },
    publicHost: "localhost",
    now: () => clock,
    // Every test's requests come from this one address within the same minutes.
    visitorLimits: { passkey: 1000, keyExport: 1000 }
  })
})

afterAll(async () => {
  await server?.stop()
  await Promise.all([db?.stop(), mail?.stop()])
})

type Client = ReturnType<typeof walletApi>

/** The frame's SplitKeys over the real API for the session `token`, with this device's storage. */
const splitKeys = (token: string, storage = makeMemoryStorage()) =>
  SplitKeys.layer.pipe(
    Layer.provide(
      Layer.mergeAll(DeviceShares.layerStorage(storage), ShareServer.layerApi(makeWalletApi({ fetch, baseUrl: server.info.url, projectId: "devstack-project" }), () => token))
    )
  )
const withKeys = <A, E>(layer: ReturnType<typeof splitKeys>, use: (keys: SplitKeys["Service"]) => Effect.Effect<A, E>) =>
  Effect.runPromise(Effect.flatMap(Effect.service(SplitKeys), use).pipe(Effect.provide(layer)))
const failureOf = <A, E extends { readonly message: string }>(layer: ReturnType<typeof splitKeys>, use: (keys: SplitKeys["Service"]) => Effect.Effect<A, E>) =>
  withKeys(layer, (keys) => Effect.map(Effect.flip(use(keys)), (error) => error.message))

/** A user logged in by email whose eip155 key the frame made at this login (as frameKeys.ts does): its session and device. */
const emailUser = async () => {
  const client = walletApi(server.info.url)
  const email = `export-${++emails}-${Date.now()}@example.test`
  const token = await logIn(client, mail.info, email)
  const device = splitKeys(token)
  const split = await withKeys(device, (keys) => keys.create("eip155", { _tag: "device", secret: new Uint8Array(randomBytes(32)) }))
  return { client, email, token, device, address: split.address }
}

const start = (client: Client, token: string, ...families: ReadonlyArray<KeyFamily>) => client.call("POST", "/api/keys/export/start", { families }, { token })
const confirm = (client: Client, token: string, family: KeyFamily | ReadonlyArray<KeyFamily>, proof: Record<string, unknown>) =>
  client.call("POST", "/api/keys/export/confirm", { families: typeof family === "string" ? [family] : family, proof }, { token })
/** The one grant a confirmation of one family gave. */
const onlyGrant = (confirmed: { readonly body: Record<string, unknown> }) => {
  const grants = confirmed.body["grants"] as ReadonlyArray<{ readonly grant: string }>
  expect(grants).toHaveLength(1)
  return grants[0]?.grant ?? ""
}
const exportShare = (client: Client, token: string, family: KeyFamily, grant: string) =>
  client.call("POST", "/api/keys/export/share", { family, grant }, { token })

const NOT_CONFIRMED = {
  status: 403,
  body: {
    code: "export_not_confirmed",
    error: "Confirm it is you again to show this key: the confirmation was used already, has expired, or is for another key or login"
  }
}

describe("an email user confirms with a mailed code", () => {
  it("the right code gives a grant whose one export is the key of the address; the grant and the code are good once", async () => {
    const user = await emailUser()
    const grant = await exportGrant(user.client, mail.info, user, "eip155")
    expect(mail.info.messages(user.email)[0]?.text).toContain("show your wallet's private key")
    const key = await withKeys(user.device, (keys) => keys.exportKey("eip155", grant))
    expect(privateKeyToAccount(key as `0x${string}`).address).toBe(user.address)
    // Used: neither the grant nor the code gives another.
    expect(await exportShare(user.client, user.token, "eip155", grant)).toEqual(NOT_CONFIRMED)
    const code = newestCode(mail.info, user.email, 0)
    expect(await confirm(user.client, user.token, "eip155", { method: "code", otp: code })).toEqual({
      status: 400,
      body: { code: "invalid_code", error: "No code is waiting for this email: ask for a new one" }
    })
    // Without any grant, the frame's export is refused in words and shows nothing.
    expect(await failureOf(user.device, (keys) => keys.exportKey("eip155", "made-up"))).toBe(NOT_CONFIRMED.body.error)
  })

  it("a wrong code says the tries left and gives nothing; asked again within 30 s no mail goes and the wait is said", async () => {
    const user = await emailUser()
    const before = mail.info.messages(user.email).length
    expect((await start(user.client, user.token, "eip155")).status).toBe(200)
    expect(await confirm(user.client, user.token, "eip155", { method: "code", otp: "000000" })).toEqual({
      status: 400,
      body: { code: "invalid_code", error: "The code is not right: 4 tries left", attemptsLeft: 4 }
    })
    clock += 10_000
    expect(await start(user.client, user.token, "eip155")).toEqual({ status: 200, body: { method: "code", email: user.email, resendInSeconds: 20, codeWaiting: true } })
    expect(mail.info.messages(user.email).length).toBe(before + 1)
    clock += MAIL_COOLDOWN_MS
    expect((await start(user.client, user.token, "eip155")).body).toMatchObject({ method: "code", resendInSeconds: 30 })
    expect(mail.info.messages(user.email).length).toBe(before + 2)
  })

  it("exported again within 30 s of the code that confirmed the last export: no mail, no code said to wait, and once the 30 s are over a new code confirms the next export", async () => {
    const user = await emailUser()
    const before = mail.info.messages(user.email).length
    const first = await exportGrant(user.client, mail.info, user, "eip155")
    expect(privateKeyToAccount((await withKeys(user.device, (keys) => keys.exportKey("eip155", first))) as `0x${string}`).address).toBe(user.address)
    clock += 2_000
    // The code mailed 2 s ago confirmed the first export: nothing is left to enter, and no mail goes before the 30 s.
    expect(await start(user.client, user.token, "eip155")).toEqual({ status: 200, body: { method: "code", email: user.email, resendInSeconds: 28, codeWaiting: false } })
    expect(mail.info.messages(user.email).length).toBe(before + 1)
    clock += 27_000
    expect((await start(user.client, user.token, "eip155")).body).toMatchObject({ resendInSeconds: 1, codeWaiting: false })
    expect(mail.info.messages(user.email).length).toBe(before + 1)
    // The cool-down over: a new code is mailed, and it confirms a second export of the same key, its grant good once.
    clock += 1_000
    const second = await exportGrant(user.client, mail.info, user, "eip155")
    expect(mail.info.messages(user.email).length).toBe(before + 2)
    expect(privateKeyToAccount((await withKeys(user.device, (keys) => keys.exportKey("eip155", second))) as `0x${string}`).address).toBe(user.address)
    expect(await exportShare(user.client, user.token, "eip155", second)).toEqual(NOT_CONFIRMED)
  })

  it("a code past its 10 minutes by the server's clock is refused; a grant past its minutes too", async () => {
    const user = await emailUser()
    const before = mail.info.messages(user.email).length
    expect((await start(user.client, user.token, "eip155")).status).toBe(200)
    const otp = newestCode(mail.info, user.email, before)
    clock += CODE_TTL_MS + 1_000
    expect(await confirm(user.client, user.token, "eip155", { method: "code", otp })).toEqual({
      status: 400,
      body: { code: "code_expired", error: "The code has expired: ask for a new one" }
    })
    const grant = await exportGrant(user.client, mail.info, user, "eip155")
    clock += EXPORT_GRANT_TTL_MS + 1_000
    expect(await exportShare(user.client, user.token, "eip155", grant)).toEqual(NOT_CONFIRMED)
  })

  it("a grant is refused to another session of the same user and for the other family, and stays good for its own", async () => {
    const user = await emailUser()
    // Both families split, so the other family's refusal is the grant's binding, not a missing key.
    await withKeys(user.device, (keys) => keys.create("solana", { _tag: "device", secret: new Uint8Array(randomBytes(32)) }))
    clock += MAIL_COOLDOWN_MS
    const grant = await exportGrant(user.client, mail.info, user, "eip155")
    // Another login of the same user (another device): its session does not carry this grant.
    const other = walletApi(server.info.url, { deviceId: user.client.deviceId })
    clock += MAIL_COOLDOWN_MS
    const otherToken = await logIn(other, mail.info, user.email)
    expect(await exportShare(other, otherToken, "eip155", grant)).toEqual(NOT_CONFIRMED)
    expect(await exportShare(user.client, user.token, "solana", grant)).toEqual(NOT_CONFIRMED)
    const answer = await exportShare(user.client, user.token, "eip155", grant)
    expect(answer.status).toBe(200)
    expect(answer.body["share"]).toMatchObject({ role: "server", family: "eip155", address: user.address })
  })

  it("a user with no split key of the family hears so before any code is mailed", async () => {
    const user = await emailUser()
    const before = mail.info.messages(user.email).length
    expect(await start(user.client, user.token, "solana")).toEqual({
      status: 404,
      body: { code: "no_key_split", error: "This account has no solana split key yet" }
    })
    expect(mail.info.messages(user.email).length).toBe(before)
  })
})

describe("one confirmation for the keys of both families", () => {
  /** An email user with both keys split, as the frame makes them at login. */
  const userWithBothKeys = async () => {
    const user = await emailUser()
    const solana = await withKeys(user.device, (keys) => keys.create("solana", { _tag: "device", secret: new Uint8Array(randomBytes(32)) }))
    return { ...user, solanaAddress: solana.address }
  }
  const solanaAddressOf = (key: string) => toBase58(fromBase58(key)?.slice(32) ?? new Uint8Array())

  it("one mailed code confirms both: a grant of its own per family, each showing its family's key once and no other's", async () => {
    const user = await userWithBothKeys()
    const before = mail.info.messages(user.email).length
    expect(await start(user.client, user.token, "eip155", "solana")).toEqual({
      status: 200,
      body: { method: "code", email: user.email, resendInSeconds: 30, codeWaiting: true }
    })
    const confirmed = await confirm(user.client, user.token, ["eip155", "solana"], { method: "code", otp: newestCode(mail.info, user.email, before) })
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200)
    expect(confirmed.body["expiresInSeconds"]).toBe(EXPORT_GRANT_TTL_MS / 1000)
    const grants = confirmed.body["grants"] as ReadonlyArray<{ readonly family: KeyFamily; readonly grant: string }>
    expect(grants.map((grant) => grant.family)).toEqual(["eip155", "solana"])
    const [evmGrant, solanaGrant] = grants.map((grant) => grant.grant) as [string, string]
    expect(evmGrant).not.toBe(solanaGrant)
    // One code for both: a single mail went.
    expect(mail.info.messages(user.email).length).toBe(before + 1)
    // Each grant is its family's: the other family's share is refused with it, and the refusal does not use it up.
    expect(await exportShare(user.client, user.token, "solana", evmGrant)).toEqual(NOT_CONFIRMED)
    expect(await exportShare(user.client, user.token, "eip155", solanaGrant)).toEqual(NOT_CONFIRMED)
    const evmKey = await withKeys(user.device, (keys) => keys.exportKey("eip155", evmGrant))
    expect(privateKeyToAccount(evmKey as `0x${string}`).address).toBe(user.address)
    const solanaKey = await withKeys(user.device, (keys) => keys.exportKey("solana", solanaGrant))
    expect(solanaAddressOf(solanaKey)).toBe(user.solanaAddress)
    // Each good once.
    expect(await exportShare(user.client, user.token, "eip155", evmGrant)).toEqual(NOT_CONFIRMED)
    expect(await exportShare(user.client, user.token, "solana", solanaGrant)).toEqual(NOT_CONFIRMED)
  })

  it("a confirmation of one family gives no grant of the other, whose key stays unshown", async () => {
    const user = await userWithBothKeys()
    clock += MAIL_COOLDOWN_MS
    const grants = await exportGrants(user.client, mail.info, user, ["eip155"])
    expect(Object.keys(grants)).toEqual(["eip155"])
    expect(await exportShare(user.client, user.token, "solana", grants.eip155 ?? "")).toEqual(NOT_CONFIRMED)
    expect(await failureOf(user.device, (keys) => keys.exportKey("solana", grants.eip155 ?? ""))).toBe(NOT_CONFIRMED.body.error)
  })

  it("an account confirming with its recent login confirms both at once too", async () => {
    const id = randomUUID()
    await db.info.run(store.insertSocialUser(id, { provider: "google", subject: id, username: "grace" }, new Date(clock)))
    const token = newToken()
    await db.info.run(store.insertSession(tokenHash(token), id, `device-${id}`, new Date(clock), new Date(clock + SESSION_TTL_MS)))
    const device = splitKeys(token)
    await withKeys(device, (keys) => keys.create("eip155", { _tag: "device", secret: new Uint8Array(randomBytes(32)) }))
    await withKeys(device, (keys) => keys.create("solana", { _tag: "device", secret: new Uint8Array(randomBytes(32)) }))
    const client = walletApi(server.info.url)
    expect((await start(client, token, "eip155", "solana")).body).toEqual({ method: "login", withinMinutes: 5 })
    const confirmed = await confirm(client, token, ["solana", "eip155"], { method: "login" })
    expect((confirmed.body["grants"] as ReadonlyArray<{ readonly family: string }>).map((grant) => grant.family)).toEqual(["solana", "eip155"])
  })

  it("the families asked are checked: none, one twice, or one unknown is a bad request; one without a split key is said before any code is mailed", async () => {
    const user = await emailUser()
    const before = mail.info.messages(user.email).length
    const refusals = [
      // In the server's words, naming the field and what it must hold.
      { families: [], error: 'Invalid body: families must list one or both key families ("eip155", "solana"), each once at ["families"]' },
      { families: ["eip155", "eip155"], error: 'Invalid body: families must list one or both key families ("eip155", "solana"), each once at ["families"]' },
      { families: ["eip155", "bitcoin"], error: 'Invalid body: Expected "eip155" | "solana" at ["families"][1]' }
    ]
    for (const { families, error } of refusals) {
      for (const route of ["start", "confirm"] as const) {
        const body = route === "start" ? { families } : { families, proof: { method: "code", otp: "123456" } }
        expect(await user.client.call("POST", `/api/keys/export/${route}`, body, { token: user.token })).toEqual({ status: 400, body: { code: "bad_request", error } })
      }
    }
    expect(await start(user.client, user.token, "eip155", "solana")).toEqual({
      status: 404,
      body: { code: "no_key_split", error: "This account has no solana split key yet" }
    })
    expect(mail.info.messages(user.email).length).toBe(before)
  })
})

describe("a passkey user confirms with a new assertion", () => {
  const HOST = "http://127.0.0.1:5173"
  const authenticator = () => new SoftAuthenticator({ origin: server.info.publicUrl, rpId: "localhost" })

  /** A user made with a new passkey, logged in, keys split in the frame. */
  const passkeyUser = async () => {
    const key = authenticator()
    const client = walletApi(server.info.url)
    const begun = await client.call("POST", "/api/passkey/start", { projectId: client.projectId, deviceId: client.deviceId, mode: "create", hostOrigin: HOST })
    const state = new URL(begun.body["uri"] as string).searchParams.get("state") ?? ""
    const options = (await client.call("POST", "/api/passkey/options", { projectId: client.projectId, state })).body["options"] as Record<string, unknown>
    expect((await client.call("POST", "/api/passkey/verify", { projectId: client.projectId, state, response: key.register(options) })).status).toBe(200)
    const token = (await client.call("POST", "/api/passkey/finish", { projectId: client.projectId, deviceId: client.deviceId, state })).body["token"] as string
    const device = splitKeys(token)
    const split = await withKeys(device, (keys) => keys.create("eip155", { _tag: "device", secret: new Uint8Array(randomBytes(32)) }))
    return { key, client, token, device, address: split.address }
  }

  it("the assertion gives a grant and the key; replayed, it is refused; another session's ceremony is refused; the login's routes refuse an export's ceremony", async () => {
    const user = await passkeyUser()
    const started = await start(user.client, user.token, "eip155")
    expect(started.body).toMatchObject({ method: "passkey", options: { rpId: "localhost", userVerification: "required" } })
    const state = started.body["state"] as string
    // The login's page cannot answer an export's ceremony.
    expect((await user.client.call("POST", "/api/passkey/options", { projectId: user.client.projectId, state })).body["code"]).toBe("invalid_state")
    const assertion = user.key.assert(started.body["options"] as Record<string, unknown>)
    const confirmed = await confirm(user.client, user.token, "eip155", { method: "passkey", state, response: assertion })
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200)
    const key = await withKeys(user.device, (keys) => keys.exportKey("eip155", onlyGrant(confirmed)))
    expect(privateKeyToAccount(key as `0x${string}`).address).toBe(user.address)

    // The same answer again: on its own ceremony, and on a new one.
    expect((await confirm(user.client, user.token, "eip155", { method: "passkey", state, response: assertion })).body["code"]).toBe("invalid_state")
    const next = await start(user.client, user.token, "eip155")
    expect((await confirm(user.client, user.token, "eip155", { method: "passkey", state: next.body["state"], response: assertion })).body["code"]).toBe(
      "passkey_refused"
    )

    // A ceremony started by another session (the same user logged in again elsewhere) is not this session's.
    const elsewhere = await start(user.client, user.token, "eip155")
    const otherClient = walletApi(server.info.url)
    const login = await otherClient.call("POST", "/api/passkey/start", { projectId: otherClient.projectId, deviceId: otherClient.deviceId, mode: "login", hostOrigin: HOST })
    const loginState = new URL(login.body["uri"] as string).searchParams.get("state") ?? ""
    const loginOptions = (await otherClient.call("POST", "/api/passkey/options", { projectId: otherClient.projectId, state: loginState })).body["options"] as Record<string, unknown>
    expect((await otherClient.call("POST", "/api/passkey/verify", { projectId: otherClient.projectId, state: loginState, response: user.key.assert(loginOptions) })).status).toBe(200)
    const otherToken = (await otherClient.call("POST", "/api/passkey/finish", { projectId: otherClient.projectId, deviceId: otherClient.deviceId, state: loginState })).body[
      "token"
    ] as string
    const answer = user.key.assert(elsewhere.body["options"] as Record<string, unknown>)
    expect(await confirm(otherClient, otherToken, "eip155", { method: "passkey", state: elsewhere.body["state"], response: answer })).toEqual({
      status: 400,
      body: { code: "invalid_state", error: "This passkey request was not started here, was answered already or has expired: ask again" }
    })
    // A code is not how this account confirms.
    expect((await confirm(user.client, user.token, "eip155", { method: "code", otp: "123456" })).status).toBe(400)
  })

  it("one assertion confirms both keys: a grant of its own per family, each showing its family's key once and no other's; the assertion confirms nothing more", async () => {
    const user = await passkeyUser()
    const solana = await withKeys(user.device, (keys) => keys.create("solana", { _tag: "device", secret: new Uint8Array(randomBytes(32)) }))
    const started = await start(user.client, user.token, "eip155", "solana")
    expect(started.body).toMatchObject({ method: "passkey", options: { rpId: "localhost", userVerification: "required" } })
    const state = started.body["state"] as string
    const assertion = user.key.assert(started.body["options"] as Record<string, unknown>)
    const confirmed = await confirm(user.client, user.token, ["eip155", "solana"], { method: "passkey", state, response: assertion })
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200)
    const grants = confirmed.body["grants"] as ReadonlyArray<{ readonly family: KeyFamily; readonly grant: string }>
    expect(grants.map((grant) => grant.family)).toEqual(["eip155", "solana"])
    const [evmGrant, solanaGrant] = grants.map((grant) => grant.grant) as [string, string]
    // Each grant is its family's: refused for the other one without being used up.
    expect(await exportShare(user.client, user.token, "solana", evmGrant)).toEqual(NOT_CONFIRMED)
    expect(await exportShare(user.client, user.token, "eip155", solanaGrant)).toEqual(NOT_CONFIRMED)
    const evmKey = await withKeys(user.device, (keys) => keys.exportKey("eip155", evmGrant))
    expect(privateKeyToAccount(evmKey as `0x${string}`).address).toBe(user.address)
    const solanaKey = await withKeys(user.device, (keys) => keys.exportKey("solana", solanaGrant))
    expect(toBase58(fromBase58(solanaKey)?.slice(32) ?? new Uint8Array())).toBe(solana.address)
    // Each good once, and the assertion gives no second pair of grants.
    expect(await exportShare(user.client, user.token, "eip155", evmGrant)).toEqual(NOT_CONFIRMED)
    expect(await exportShare(user.client, user.token, "solana", solanaGrant)).toEqual(NOT_CONFIRMED)
    expect((await confirm(user.client, user.token, ["eip155", "solana"], { method: "passkey", state, response: assertion })).body["code"]).toBe("invalid_state")
  })

  it("answered in the frame's view embedded in the host's page, the assertion is taken from a page of an origin the project allows, not from another; the login's own page takes no embedded answer", async () => {
    const user = await passkeyUser()
    const inFrame = (topOrigin: string) => ({ ...user.key.claims, topOrigin })
    const elsewhere = await start(user.client, user.token, "eip155")
    const fromOther = user.key.assert(elsewhere.body["options"] as Record<string, unknown>, inFrame("https://other.example"))
    expect(await confirm(user.client, user.token, "eip155", { method: "passkey", state: elsewhere.body["state"], response: fromOther })).toEqual({
      status: 400,
      body: { code: "passkey_refused", error: "Your passkey could not be verified: try again" }
    })
    const started = await start(user.client, user.token, "eip155")
    const fromHost = user.key.assert(started.body["options"] as Record<string, unknown>, inFrame(HOST))
    const confirmed = await confirm(user.client, user.token, "eip155", { method: "passkey", state: started.body["state"], response: fromHost })
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200)
    const key = await withKeys(user.device, (keys) => keys.exportKey("eip155", onlyGrant(confirmed)))
    expect(privateKeyToAccount(key as `0x${string}`).address).toBe(user.address)

    // The login's passkey page is a window of its own: an answer made in a frame is not its.
    const login = await user.client.call("POST", "/api/passkey/start", { projectId: user.client.projectId, deviceId: user.client.deviceId, mode: "login", hostOrigin: HOST })
    const state = new URL(login.body["uri"] as string).searchParams.get("state") ?? ""
    const options = (await user.client.call("POST", "/api/passkey/options", { projectId: user.client.projectId, state })).body["options"] as Record<string, unknown>
    expect((await user.client.call("POST", "/api/passkey/verify", { projectId: user.client.projectId, state, response: user.key.assert(options, inFrame(HOST)) })).body).toEqual({
      code: "passkey_refused",
      error: "Your passkey could not be verified: try again"
    })
  })
})

describe("an account with neither email nor passkey (a social login) confirms with its recent login", () => {
  /**
   * A social user and its session as the social login leaves them (written to the database here: the provider's
   * round trip is social-login.test.ts's), its eip155 key made and split in the frame.
   */
  const socialUser = async () => {
    const id = randomUUID()
    await db.info.run(store.insertSocialUser(id, { provider: "google", subject: id, username: "ada" }, new Date(clock)))
    const token = newToken()
    await db.info.run(store.insertSession(tokenHash(token), id, `device-${id}`, new Date(clock), new Date(clock + SESSION_TTL_MS)))
    const device = splitKeys(token)
    const { address } = await withKeys(device, (keys) => keys.create("eip155", { _tag: "device", secret: new Uint8Array(randomBytes(32)) }))
    return { client: walletApi(server.info.url), token, device, address }
  }

  it("within 5 minutes of the login the export is granted; past them it is refused in words; a code is not its way", async () => {
    const user = await socialUser()
    expect(await start(user.client, user.token, "eip155")).toEqual({ status: 200, body: { method: "login", withinMinutes: 5 } })
    expect(await confirm(user.client, user.token, "eip155", { method: "code", otp: "123456" })).toEqual({
      status: 400,
      body: { code: "bad_request", error: "This account has no email to send a code to" }
    })
    const confirmed = await confirm(user.client, user.token, "eip155", { method: "login" })
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200)
    const key = await withKeys(user.device, (keys) => keys.exportKey("eip155", onlyGrant(confirmed)))
    expect(privateKeyToAccount(key as `0x${string}`).address).toBe(user.address)
    clock += EXPORT_FRESH_LOGIN_MS + 1_000
    expect(await confirm(user.client, user.token, "eip155", { method: "login" })).toEqual({
      status: 403,
      body: { code: "fresh_login_required", error: "Log in again to show your key: this needs a login within the last 5 minutes" }
    })
  })

  it("an email user cannot skip its code by claiming a recent login", async () => {
    const user = await emailUser()
    expect(await confirm(user.client, user.token, "eip155", { method: "login" })).toEqual({
      status: 400,
      body: { code: "bad_request", error: "This account confirms with its code or passkey, not with its login" }
    })
  })
})
