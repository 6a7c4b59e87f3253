/**
 * The server under bad input and faults, on the real stack: a body over the limit is refused in words, a client that
 * stalls is cut off, and a Postgres that restarts under load costs 503s with `Retry-After` — never a 500 — after
 * which the services and the wallet server answer again by themselves, with every name, sign-in session and
 * embedded user written before the restart still there. The database is a real Postgres (`test/support/postgres.ts`).
 */
import { connect } from "node:net"
import { Schema } from "effect"
import type { Hex } from "viem"
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { EvmChain } from "../../devstack/evm/index"
import { type DevstackInfo, startDevstack } from "../../devstack/main"
import { type ServicesInfo, startServices } from "../../devstack/services"
import type { Started } from "../../server/src/lib/Started"
import { startWalletServer, type WalletServerInfo } from "../../server/src/embedded/server/index"
import { NameRecordResponse, SessionNonceResponse, SessionsResponse } from "../../src/domain/Api"
import type { CaipNetworkId } from "../../src/domain/Caip"
import { NameMessageJson } from "../../src/domain/Names"
import { formatSiwxMessage } from "../../src/domain/siwxMessage"
import { type RunningPostgres, startPostgres } from "../support/postgres"
import { logIn, walletApi } from "./support/walletServerClient"

const PROJECT = "devstack-project"
// Small bounds on receiving a request, so that a stalled client is cut off within the test's patience.
const REQUEST_TIMEOUT_MS = 1_500
const HEADERS_TIMEOUT_MS = 1_000

let postgres: RunningPostgres
let stack: Started<DevstackInfo>
let services: Started<ServicesInfo>
let wallet: Started<WalletServerInfo>
let chain: EvmChain

beforeAll(async () => {
  postgres = await startPostgres()
  stack = await startDevstack({ parts: ["evm", "mail"] })
  const evm = stack.info.evm
  const mail = stack.info.mail
  const first = evm?.chains[0]
  if (evm === undefined || mail === undefined || first === undefined) throw new Error("the EVM and mail parts did not start")
  chain = first
  services = await startServices({
    evm,
    database: { url: postgres.url },
    http: { requestTimeoutMs: REQUEST_TIMEOUT_MS, headersTimeoutMs: HEADERS_TIMEOUT_MS }
  })
  wallet = await startWalletServer({
    masterKey: new Uint8Array(32).fill(7),
    smtp: { host: mail.smtpHost, port: mail.smtpPort },
    chains: { evm: [{ caipNetworkId: chain.caipNetworkId, rpcUrl: chain.rpcUrl }] },
    database: { url: postgres.url }
  })
})

afterAll(async () => {
  await Promise.allSettled([wallet?.stop(), services?.stop()])
  await Promise.allSettled([stack?.stop(), postgres?.stop()])
})

const url = (path: string) => `${services.info.url}${path}${path.includes("?") ? "&" : "?"}projectId=${PROJECT}`
const post = (path: string, body?: unknown) =>
  fetch(url(path), {
    method: "POST",
    headers: { "content-type": "application/json" },
    ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) })
  })

/** Resolves with what a raw connection received once the server closed it; rejects after `boundMs`. */
const untilClosed = (send: string, boundMs: number): Promise<string> =>
  new Promise((resolve, reject) => {
    let received = ""
    const socket = connect(services.info.port, "127.0.0.1", () => socket.write(send))
    const bound = setTimeout(() => {
      socket.destroy()
      reject(new Error(`the server kept a stalled connection open for more than ${boundMs} ms`))
    }, boundMs)
    socket.on("data", (chunk: Buffer) => {
      received += chunk.toString("latin1")
    })
    socket.on("close", () => {
      clearTimeout(bound)
      resolve(received)
    })
    socket.on("error", () => undefined)
  })

describe("bad input at the edge", () => {
  it("refuses a body over the limit with 413 and words, and keeps serving", async () => {
    const event = { eventId: "x".repeat(1_200_000), url: "http://127.0.0.1/", domain: "127.0.0.1", timestamp: 1, props: { event: "MODAL_OPEN" } }
    const refused = await post("/e", event)
    expect(refused.status).toBe(413)
    expect(await refused.json()).toEqual({ error: "The request body is larger than this server accepts" })
    expect((await fetch(url("/getWallets"))).status).toBe(200)
  })

  it("cuts off a client that stalls in its headers or its body, and keeps serving the others", async () => {
    const headers = await untilClosed(`GET /getWallets?projectId=${PROJECT} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: `, 10_000)
    const body = await untilClosed(
      `POST /e?projectId=${PROJECT} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 400\r\n\r\n{"eventId":`,
      10_000
    )
    // Node answers 408 Request Timeout when it can, or closes the connection: either way the client is let go.
    for (const received of [headers, body]) expect(received === "" || received.startsWith("HTTP/1.1 408")).toBe(true)
    expect((await fetch(url("/getWallets"))).status).toBe(200)
  })
})

describe("a Postgres restart under load", () => {
  const signer = privateKeyToAccount(generatePrivateKey())
  const caipNetworkId = () => chain.caipNetworkId as CaipNetworkId
  const account = () => `${caipNetworkId()}:${signer.address}`
  const label = `fault${Date.now().toString(36)}`

  const register = async () => {
    const message = Schema.encodeSync(NameMessageJson)({ name: `${label}.wallet.test`, attributes: {}, timestamp: Math.floor(Date.now() / 1000) })
    return post("/v1/profile/account", {
      coin_type: 0x8000_0000 + chain.chainId,
      address: signer.address,
      message,
      signature: await signer.signMessage({ message })
    })
  }

  const signIn = async () => {
    const nonced = await post(`/v1/sessions/${account()}/nonce`)
    expect(nonced.status).toBe(200)
    const { nonce } = Schema.decodeUnknownSync(SessionNonceResponse)(await nonced.json())
    const data = {
      domain: "127.0.0.1:5173",
      uri: "http://127.0.0.1:5173/",
      version: "1",
      chainId: caipNetworkId(),
      accountAddress: signer.address,
      nonce,
      issuedAt: new Date().toISOString(),
      expirationTime: new Date(Date.now() + 3_600_000).toISOString(),
      statement: "Sign in before the restart"
    }
    const text = formatSiwxMessage(data)
    if (text._tag === "Failure") throw new Error(text.failure)
    const signature: Hex = await signer.signMessage({ message: text.success })
    return post(`/v1/sessions/${account()}`, { data, message: text.success, signature })
  }

  const sessions = async () => {
    const response = await fetch(url(`/v1/sessions/${account()}`))
    return response.status === 200 ? Schema.decodeUnknownSync(SessionsResponse)(await response.json()).sessions : undefined
  }

  it("answers 503 with Retry-After, never 500, recovers by itself, and loses nothing written before", async () => {
    // Written before the restart: a name, a sign-in session and an embedded wallet user.
    expect((await register()).status).toBe(200)
    expect((await signIn()).status).toBe(200)
    const mail = stack.info.mail
    if (mail === undefined) throw new Error("no mail part")
    const email = `fault-${Date.now()}@example.com`
    const client = walletApi(wallet.info.url)
    const token = await logIn(client, mail, email)
    const user = await client.call("GET", "/api/user", undefined, { token })
    expect(user.status).toBe(200)

    // Load: reads and writes on both servers, while Postgres goes down for a while and comes back.
    const statuses: Array<number> = []
    const retryAfter: Array<string | null> = []
    let loading = true
    const worker = async () => {
      while (loading) {
        // A request that gets no answer at all counts as status 0 (and fails the test below).
        const answers = await Promise.all(
          [
            fetch(url(`/v1/sessions/${account()}`)),
            post(`/v1/sessions/${account()}/nonce`),
            fetch(url(`/v1/profile/account/${label}.wallet.test`)),
            fetch(new URL("/api/user", wallet.info.url), {
              headers: { authorization: `Bearer ${token}`, "x-project-id": PROJECT }
            })
          ].map((request) =>
            request.then(
              (response) => ({ status: response.status, retryAfter: response.headers.get("retry-after") }),
              () => ({ status: 0, retryAfter: null })
            )
          )
        )
        for (const answer of answers) {
          statuses.push(answer.status)
          if (answer.status === 503) retryAfter.push(answer.retryAfter)
        }
      }
    }
    const workers = [worker(), worker(), worker()]
    try {
    const countAt = () => statuses.length
    const waitFor = async (done: () => boolean, what: string, boundMs = 20_000) => {
      const deadline = Date.now() + boundMs
      while (!done()) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
    }
    await waitFor(() => countAt() >= 24, "some answers before the restart")
    await postgres.down({ mode: "immediate" })
    const whileDown = countAt()
    await waitFor(() => statuses.slice(whileDown).filter((status) => status === 503).length >= 8, "503s while Postgres is down")
    await postgres.up()
    const afterUp = countAt()
    // Recovered by itself: every kind of request succeeds again, without restarting the servers.
    await waitFor(() => statuses.slice(afterUp).slice(-12).length === 12 && statuses.slice(-12).every((status) => status === 200), "recovery")
    } finally {
      loading = false
      await Promise.all(workers)
    }

    expect(statuses.filter((status) => status >= 500 && status !== 503)).toEqual([])
    expect(statuses.filter((status) => status !== 200 && status !== 503)).toEqual([])
    expect(retryAfter.length).toBeGreaterThanOrEqual(8)
    expect(retryAfter.every((value) => value !== null && Number(value) > 0)).toBe(true)

    // Nothing written before is lost.
    const name = await fetch(url(`/v1/profile/account/${label}.wallet.test`))
    expect(name.status).toBe(200)
    expect(Schema.decodeUnknownSync(NameRecordResponse)(await name.json()).name).toBe(`${label}.wallet.test`)
    expect((await sessions())?.map((session) => session.data.statement)).toContain("Sign in before the restart")
    const again = await client.call("GET", "/api/user", undefined, { token })
    expect(again).toEqual(user)
  })
})
