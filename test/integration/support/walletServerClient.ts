/**
 * A small client of the embedded wallet server's API (`server/src/embedded/WalletServerApi.ts`) over plain `fetch`
 * for integration tests: calls a route as any HTTP client would (status and JSON body as they are on the wire),
 * logs an email in through the real mail sink, and makes a user's keys as the frame does after a login.
 */
import { expect } from "vitest"
import type { MailInfo } from "../../../devstack/mail/index"
import { makeWalletApi } from "../../../server/src/embedded/frame/apiClient"
import { keysAtLogin } from "../../../server/src/embedded/frame/frameKeys"
import { type FrameStorage, makeMemoryStorage } from "../../../server/src/embedded/frame/frameLogic"
import type { KeyFamily } from "../../../server/src/embedded/sharesApi"

/** A reply: status and decoded JSON body. */
export interface ApiReply {
  readonly status: number
  readonly body: Record<string, unknown>
}

/** A client of one wallet server for one project and one device. */
export const walletApi = (url: string, opts: { readonly projectId?: string; readonly deviceId?: string } = {}) => {
  const projectId = opts.projectId ?? "devstack-project"
  const deviceId = opts.deviceId ?? `device-${Math.random().toString(36).slice(2)}-${Date.now()}`
  const call = async (
    method: "GET" | "POST",
    path: string,
    body?: Record<string, unknown>,
    extra: { readonly token?: string; readonly headers?: Record<string, string> } = {}
  ): Promise<ApiReply> => {
    const target = new URL(path, url)
    if (method === "GET" && !target.searchParams.has("projectId")) target.searchParams.set("projectId", projectId)
    const response = await fetch(target, {
      method,
      headers: {
        "content-type": "application/json",
        "x-project-id": projectId,
        ...(extra.token === undefined ? {} : { authorization: `Bearer ${extra.token}` }),
        ...extra.headers
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
    const text = await response.text()
    return { status: response.status, body: text === "" ? {} : (JSON.parse(text) as Record<string, unknown>) }
  }
  return {
    deviceId,
    projectId,
    call,
    loginEmail: (email: string) => call("POST", "/api/login/email", { projectId, deviceId, email }),
    loginDevice: (email: string, waitMs?: number) =>
      call("POST", "/api/login/device", { projectId, deviceId, email, ...(waitMs === undefined ? {} : { waitMs }) }),
    loginOtp: (email: string, otp: string) => call("POST", "/api/login/otp", { projectId, deviceId, email, otp })
  }
}

/** The 6-digit code of the newest mail to `to`, checking it is newer than `before` mails. */
export const newestCode = (mail: MailInfo, to: string, before: number): string => {
  const messages = mail.messages(to)
  expect(messages.length).toBeGreaterThan(before)
  const code = messages[0]?.codes[0]
  expect(code).toMatch(/^\d{6}$/)
  return code ?? ""
}

/** Logs `email` in on the client's device with the mailed code; answers the session token. */
export const logIn = async (client: ReturnType<typeof walletApi>, mail: MailInfo, email: string): Promise<string> => {
  const before = mail.messages(email).length
  const started = await client.loginEmail(email)
  expect(started).toEqual({ status: 200, body: { action: "VERIFY_OTP" } })
  const reply = await client.loginOtp(email, newestCode(mail, email, before))
  expect(reply.status).toBe(200)
  const token = reply.body["token"]
  expect(typeof token).toBe("string")
  return token as string
}

/**
 * Confirms showing the keys of `families` as the frame's export view does, once, with the code mailed to `email`:
 * answers the export's grant of each family.
 */
export const exportGrants = async (
  client: ReturnType<typeof walletApi>,
  mail: MailInfo,
  session: { readonly token: string; readonly email: string },
  families: ReadonlyArray<KeyFamily>
): Promise<Partial<Record<KeyFamily, string>>> => {
  const before = mail.messages(session.email).length
  const started = await client.call("POST", "/api/keys/export/start", { families }, { token: session.token })
  expect(started, JSON.stringify(started.body)).toEqual({ status: 200, body: { method: "code", email: session.email, resendInSeconds: 30, codeWaiting: true } })
  const otp = newestCode(mail, session.email, before)
  const confirmed = await client.call("POST", "/api/keys/export/confirm", { families, proof: { method: "code", otp } }, { token: session.token })
  expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200)
  const grants = confirmed.body["grants"] as ReadonlyArray<{ readonly family: KeyFamily; readonly grant: string }>
  return Object.fromEntries(grants.map(({ family, grant }) => [family, grant]))
}

/** Confirms showing the key of `family` alone (see {@link exportGrants}): answers its grant. */
export const exportGrant = async (
  client: ReturnType<typeof walletApi>,
  mail: MailInfo,
  session: { readonly token: string; readonly email: string },
  family: KeyFamily
): Promise<string> => (await exportGrants(client, mail, session, [family]))[family] ?? ""

/**
 * Makes the user's keys as the frame does after a login (`keysAtLogin` of frameKeys.ts, in node against the real
 * wallet server): the device shares (and device secrets) land in `storage`, the server keeps its shares. Answers the
 * user's two addresses as the server now gives them.
 */
export const makeKeysAsFrame = async (
  url: string,
  token: string,
  storage: FrameStorage = makeMemoryStorage(),
  projectId = "devstack-project"
): Promise<{ readonly evmAddress: string; readonly solanaAddress: string; readonly storage: FrameStorage }> => {
  const api = makeWalletApi({ fetch, baseUrl: url, projectId })
  await keysAtLogin(api, storage, token, false)
  const user = await api.user(token)
  expect(user.evmAddress).toMatch(/^0x[0-9a-fA-F]{40}$/)
  expect(user.solanaAddress).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/)
  return { evmAddress: user.evmAddress ?? "", solanaAddress: user.solanaAddress ?? "", storage }
}

/** Logs `email` in (as {@link logIn}) and makes its keys as the frame does ({@link makeKeysAsFrame}). */
export const logInWithKeys = async (client: ReturnType<typeof walletApi>, mail: MailInfo, email: string, url: string, storage?: FrameStorage) => {
  const token = await logIn(client, mail, email)
  return { token, ...(await makeKeysAsFrame(url, token, storage, client.projectId)) }
}
