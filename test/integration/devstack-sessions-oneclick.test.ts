/**
 * One-click sign-in on the devstack services (issue 13): the nonce bound to no account (`POST /v1/sessions/nonce`,
 * our extension), used once per account, and the texts WalletConnect's one-click auth makes wallets sign. The CACAO
 * is built and formatted here with WalletConnect's own functions (`populateAuthPayload`, `formatMessage` — what
 * WalletKit's `formatAuthMessage` calls — and `buildAuthObject`), exactly as a WalletKit wallet answers
 * `wc_sessionAuthenticate`, then kept through the real services server, anvil and PGlite.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { AuthTypes } from "@walletconnect/types"
import { buildAuthObject, createEncodedRecap, formatMessage, populateAuthPayload } from "@walletconnect/utils"
import { Result, Schema } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts"
import { type EvmInfo, startEvm } from "../../devstack/evm/index"
import type { Started } from "../../server/src/lib/Started"
import { type ServicesInfo, startServices } from "../../devstack/services"
import { RemoteSiwxSession, SessionNonceResponse, SessionsResponse } from "../../src/domain/Api"
import { formatSiwxMessage, parseSiwxMessage } from "../../src/domain/siwxMessage"
import { EIP155_METHODS } from "../../src/services/walletconnect/namespaces"

const PROJECT = "devstack-project"
const MINUTE = 60_000
const CHAINS = ["eip155:31337", "eip155:31338"]

let evm: Started<EvmInfo>
let services: Started<ServicesInfo> | undefined
const root = mkdtempSync(join(tmpdir(), "wallet-runtime-oneclick-"))
let offset = 0
const now = () => Date.now() + offset
const start = async () => {
  services = await startServices({ evm: evm.info, database: { dataDir: join(root, "pglite") }, now })
}

beforeAll(async () => {
  evm = await startEvm({ chainIds: [31337, 31338] })
  await start()
})

afterAll(async () => {
  await services?.stop()
  await evm?.stop()
  rmSync(root, { recursive: true, force: true })
})

const call = (method: "GET" | "POST", path: string, body?: unknown) =>
  fetch(`${services?.info.url}${path}`, {
    method,
    headers: { "content-type": "application/json", "x-project-id": PROJECT },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
const anyNonce = async () => {
  const response = await call("POST", "/v1/sessions/nonce")
  expect(response.status).toBe(200)
  return Schema.decodeUnknownSync(SessionNonceResponse)(await response.json())
}
const sessionsOf = async (account: string) =>
  Schema.decodeUnknownSync(SessionsResponse)(await (await call("GET", `/v1/sessions/${account}`)).json()).sessions
const add = (account: string, body: unknown) => call("POST", `/v1/sessions/${account}`, body)
const refused = async (response: Response, status: number, words: RegExp) => {
  expect(response.status).toBe(status)
  expect(((await response.json()) as { error: string }).error).toMatch(words)
}

/** The request a dapp's sign client sends for `wc_sessionAuthenticate` (its `authPayload`), as `authenticate` builds it. */
const dappRequest = (nonce: string, statement = "Sign in to Wallet Runtime demo"): AuthTypes.PayloadParams => ({
  type: "caip122",
  chains: CHAINS,
  statement,
  aud: "http://127.0.0.1:5173",
  domain: "127.0.0.1:5173",
  version: "1",
  nonce,
  iat: new Date(now()).toISOString(),
  exp: new Date(now() + 7 * 24 * 60 * MINUTE).toISOString(),
  resources: [createEncodedRecap("eip155", "request", [...EIP155_METHODS])]
})

/** A WalletKit wallet's answer: one CACAO per chain it supports, each its signed text; `address` as the wallet writes it. */
const walletAnswer = async (request: AuthTypes.PayloadParams, key = generatePrivateKey(), write = (address: string) => address) => {
  const account = privateKeyToAccount(key)
  const payload = populateAuthPayload({ authPayload: request, chains: CHAINS, methods: ["personal_sign", "eth_sendTransaction"] })
  return Promise.all(
    CHAINS.map(async (chain) => {
      const iss = `did:pkh:${chain}:${write(account.address)}`
      const message = formatMessage(payload, iss)
      const cacao = buildAuthObject(payload, { t: "eip191", s: await account.signMessage({ message }) }, iss)
      return { address: account.address, chain, message, cacao }
    })
  )
}

/** What the runtime sends for a signed CACAO: the data read from the text, the text, the signature. */
const bodyOf = (signed: { readonly message: string; readonly cacao: AuthTypes.Cacao }) => {
  const data = parseSiwxMessage(signed.message)
  if (Result.isFailure(data)) throw new Error(data.failure)
  return { data: data.success, message: signed.message, signature: signed.cacao.s.s }
}

describe("one-click sign-in on the services", () => {
  it("POST /v1/sessions/nonce gives a fresh nonce bound to no account, for 10 minutes, beside the per-account one", async () => {
    const before = now()
    const first = await anyNonce()
    const second = await anyNonce()
    expect(first.nonce).toMatch(/^[A-Za-z0-9]{16,64}$/)
    expect(second.nonce).not.toBe(first.nonce)
    expect(Date.parse(first.expiresAt) - before).toBeGreaterThanOrEqual(10 * MINUTE - 1_000)
    expect(Date.parse(first.expiresAt) - before).toBeLessThanOrEqual(10 * MINUTE + 1_000)
    // The per-account nonce is still served at its own path.
    const account = `eip155:31337:${privateKeyToAccount(generatePrivateKey()).address}`
    expect((await call("POST", `/v1/sessions/${account}/nonce`)).status).toBe(200)
    // `nonce` is not an account: asking its sessions is a bad path, not a list.
    await refused(await call("GET", "/v1/sessions/nonce"), 400, /Invalid path/)
  })

  it("keeps the CACAO texts a WalletKit wallet signs (ReCap statement, Resources line) for every chain, each account once", async () => {
    const { nonce } = await anyNonce()
    const answers = await walletAnswer(dappRequest(nonce))
    for (const answer of answers) {
      // The text WalletConnect formats is the EIP-4361 text of its own data, byte for byte.
      const body = bodyOf(answer)
      expect(formatSiwxMessage(body.data)).toEqual(Result.succeed(answer.message))
      expect(body.data.statement).toMatch(/^Sign in to Wallet Runtime demo I further authorize the stated URI to perform the following actions on my behalf: \(1\) 'request': 'eth_sendTransaction', 'personal_sign' for 'eip155'\.$/)
      expect(body.data.resources?.[0]).toMatch(/^urn:recap:/)
      const account = `${answer.chain}:${answer.address}`
      const response = await add(account, body)
      expect(response.status).toBe(200)
      const session = Schema.decodeUnknownSync(RemoteSiwxSession)(await response.json())
      expect(await sessionsOf(account)).toEqual([session])
      // The same account cannot use that nonce twice.
      await refused(await add(account, body), 403, /already used/)
    }
    // Another address may still use the nonce once (it is bound to no account), but not after its 10 minutes.
    const [other] = await walletAnswer(dappRequest(nonce))
    if (other === undefined) throw new Error("no answer")
    expect((await add(`${other.chain}:${other.address}`, bodyOf(other))).status).toBe(200)
    const late = await anyNonce()
    offset += 10 * MINUTE + 1_000
    const [expired] = await walletAnswer(dappRequest(late.nonce))
    if (expired === undefined) throw new Error("no answer")
    await refused(await add(`${expired.chain}:${expired.address}`, bodyOf(expired)), 403, /expired/)
  })

  it("refuses a CACAO text that is not EIP-4361 (iss with the address in lower case); one without ReCap or statement is", async () => {
    const { nonce } = await anyNonce()
    const [lower] = await walletAnswer(dappRequest(nonce), generatePrivateKey(), (address) => address.toLowerCase())
    if (lower === undefined) throw new Error("no answer")
    expect(Result.isFailure(parseSiwxMessage(lower.message))).toBe(true)
    // Sent with the data the checksummed address gives, the text is not the data's text: refused, nothing kept.
    const data = { ...bodyOf({ ...lower, message: lower.message.replace(lower.address.toLowerCase(), lower.address) }).data }
    await refused(await add(`${lower.chain}:${lower.address}`, { data, message: lower.message, signature: lower.cacao.s.s }), 400, /line 2/)
    expect(await sessionsOf(`${lower.chain}:${lower.address}`)).toEqual([])

    // A wallet that drops the ReCap and the statement still signs EIP-4361 (two blank lines, no statement).
    const { resources: _recap, ...bare } = dappRequest(nonce, "")
    const text = formatMessage(bare, `did:pkh:eip155:31337:${privateKeyToAccount(generatePrivateKey()).address}`)
    const parsed = parseSiwxMessage(text)
    expect(Result.isSuccess(parsed) && parsed.success.statement).toBe(undefined)
    expect(Result.flatMap(parsed, formatSiwxMessage)).toEqual(Result.succeed(text))
  })

  it("an account's use of a nonce bound to none survives a restart of the services", async () => {
    const { nonce } = await anyNonce()
    const [first, second] = await walletAnswer(dappRequest(nonce))
    if (first === undefined || second === undefined) throw new Error("no answers")
    expect((await add(`${first.chain}:${first.address}`, bodyOf(first))).status).toBe(200)
    await services?.stop()
    services = undefined
    await start()
    await refused(await add(`${first.chain}:${first.address}`, bodyOf(first)), 403, /already used/)
    expect((await add(`${second.chain}:${second.address}`, bodyOf(second))).status).toBe(200)
  })
})
