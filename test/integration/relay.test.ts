import { randomUUID } from "node:crypto"
import { SignClient } from "@walletconnect/sign-client"
import type { SessionTypes } from "@walletconnect/types"
import { buildApprovedNamespaces, getSdkError } from "@walletconnect/utils"
import { type Hex, stringToHex, verifyMessage } from "viem"
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import WebSocket from "ws"
import { startRelay } from "../../server/src/relay"
import type { Started } from "../../server/src/lib/Started"
import type { RelayInfo } from "../../server/src/relay"
import { initTestWalletKit } from "./support/walletKit"
import { RELAY_AUTH_REFUSED } from "../../server/src/relay/auth"
import { authenticated, rawClient } from "./support/relayRawClient"
import { generateClientSeed } from "../../src/services/walletconnect/protocol/relayJwt"

// Without it, WalletConnect's Verify waits forever for the hosted verify server (offline here).
process.env.IS_VITEST = "true"

const CHAIN = "eip155:31337"
const REJECT_ME = "please reject this"
const metadata = (name: string) => ({ name, description: `${name} under test`, url: "http://127.0.0.1", icons: [] })

interface Pair {
  readonly dapp: InstanceType<typeof SignClient>
  readonly session: SessionTypes.Struct
  readonly wallet: Awaited<ReturnType<typeof initTestWalletKit>>
  readonly address: Hex
  readonly close: () => Promise<void>
}

/** An independent dapp client (sign-client 2.21.8) and wallet client (walletkit 1.2.10), paired into a session on eip155:31337 through `relayUrl`. */
const pairThrough = async (relayUrl: string): Promise<Pair> => {
  const account = privateKeyToAccount(generatePrivateKey())
  const dapp = await SignClient.init({
    projectId: "devstack",
    relayUrl,
    logger: "silent",
    metadata: metadata("Dapp"),
    customStoragePrefix: `dapp-${randomUUID()}`,
    storageOptions: { database: ":memory:" }
  })
  const wallet = await initTestWalletKit(relayUrl)

  wallet.on("session_proposal", ({ id, params }) => {
    const namespaces = buildApprovedNamespaces({
      proposal: params,
      supportedNamespaces: {
        eip155: {
          chains: [CHAIN],
          methods: ["personal_sign"],
          events: ["accountsChanged", "chainChanged"],
          accounts: [`${CHAIN}:${account.address}`]
        }
      }
    })
    void wallet.approveSession({ id, namespaces })
  })
  wallet.on("session_request", ({ topic, id, params }) => {
    const [message] = params.request.params as [Hex, Hex]
    const respond = async () => {
      if (message === stringToHex(REJECT_ME)) {
        await wallet.respondSessionRequest({
          topic,
          response: { id, jsonrpc: "2.0", error: getSdkError("USER_REJECTED") }
        })
        return
      }
      const signature = await account.signMessage({ message: { raw: message } })
      await wallet.respondSessionRequest({ topic, response: { id, jsonrpc: "2.0", result: signature } })
    }
    void respond()
  })
  const { uri, approval } = await dapp.connect({
    optionalNamespaces: { eip155: { chains: [CHAIN], methods: ["personal_sign"], events: ["accountsChanged", "chainChanged"] } }
  })
  if (uri === undefined) throw new Error("a pairing URI was expected")
  await wallet.pair({ uri })
  const session = await approval()

  const close = async () => {
    await dapp.core.relayer.transportClose().catch(() => {})
    await wallet.core.relayer.transportClose().catch(() => {})
    dapp.core.heartbeat.stop()
    wallet.core.heartbeat.stop()
  }
  return { dapp, session, wallet, address: account.address, close }
}

const personalSign = (pair: Pair, message: string): Promise<Hex> =>
  pair.dapp.request<Hex>({ topic: pair.session.topic, chainId: CHAIN, request: { method: "personal_sign", params: [stringToHex(message), pair.address] } })

describe("WalletConnect relay", () => {
  let relay: Started<RelayInfo>
  const pairs: Array<Pair> = []

  beforeAll(async () => {
    relay = await startRelay()
  })

  afterAll(async () => {
    for (const pair of pairs) await pair.close()
    await relay.stop()
  })

  it("pairs a dapp and a wallet into a session, and the wallet signs what the dapp asks", async () => {
    const pair = await pairThrough(relay.info.url)
    pairs.push(pair)

    const session = pair.session
    expect(session?.namespaces.eip155?.accounts).toEqual([`${CHAIN}:${pair.address}`])

    const signature = await personalSign(pair, "hello from the dapp")
    expect(await verifyMessage({ address: pair.address, message: "hello from the dapp", signature })).toBe(true)
  })

  it("brings a wallet's rejection to the dapp as code 5000", async () => {
    const pair = await pairThrough(relay.info.url)
    pairs.push(pair)

    await expect(personalSign(pair, REJECT_ME)).rejects.toMatchObject({ code: 5000 })
  })

  it("keeps the session working across a restart of the relay", async () => {
    const pair = await pairThrough(relay.info.url)
    pairs.push(pair)
    // No waiting for reconnection: the request may reach the relay before the wallet is back, and the mailbox holds it.
    await relay.info.restart()

    const signature = await personalSign(pair, "after the restart")
    expect(await verifyMessage({ address: pair.address, message: "after the restart", signature })).toBe(true)
  })
})

describe("WalletConnect relay protocol", () => {
  let relay: Started<RelayInfo>

  beforeAll(async () => {
    relay = await startRelay()
  })

  afterAll(async () => {
    await relay.stop()
  })

  it("echoes 19-digit request ids exactly and answers malformed frames with errors instead of crashing", async () => {
    const client = await rawClient(relay.info.url)

    client.socket.send("this is not json")
    expect(JSON.parse(await client.next((f) => f.includes('"code":-32700')))).toMatchObject({ id: null })
    client.socket.send("[1, 2, 3]")
    expect(JSON.parse(await client.next((f) => f.includes('"code":-32600')))).toMatchObject({ id: null })
    client.socket.send(Buffer.from([0xff, 0x00, 0x13]), { binary: true })
    await client.next((f) => f.includes('"code":-32600'))

    const id = "1712345678901234567"
    const unknown = await client.call(id, `{"id":${id},"jsonrpc":"2.0","method":"irn_nothing","params":{}}`)
    expect(unknown).toContain('"code":-32601')
    const badParams = await client.call(id, `{"id":${id},"jsonrpc":"2.0","method":"irn_subscribe","params":{"topic":42}}`)
    expect(badParams).toContain('"code":-32602')
    const subscribed = await client.call(id, `{"id":${id},"jsonrpc":"2.0","method":"irn_subscribe","params":{"topic":"t1"}}`)
    expect(subscribed).toMatch(new RegExp(`^\\{"id":${id},"jsonrpc":"2.0","result":"[0-9a-f]{64}"\\}$`))

    await client.close()
  })

  it("delivers to late subscribers from the mailbox, never back to the publisher, and only until acknowledged", async () => {
    const publisher = await rawClient(relay.info.url)
    await publisher.call("1", `{"id":1,"jsonrpc":"2.0","method":"irn_subscribe","params":{"topic":"box"}}`)
    const published = await publisher.call(
      "2",
      `{"id":2,"jsonrpc":"2.0","method":"irn_publish","params":{"topic":"box","message":"m1","ttl":300,"tag":1108}}`
    )
    expect(JSON.parse(published)).toMatchObject({ result: true })

    const late = await rawClient(relay.info.url)
    await late.call("3", `{"id":3,"jsonrpc":"2.0","method":"irn_subscribe","params":{"topic":"box"}}`)
    const delivery = JSON.parse(await late.next((f) => f.includes('"irn_subscription"')))
    expect(delivery.params.data).toMatchObject({ topic: "box", message: "m1", tag: 1108 })
    expect(typeof delivery.params.data.publishedAt).toBe("number")
    late.socket.send(JSON.stringify({ id: delivery.id, jsonrpc: "2.0", result: true }))

    // A message published after this one reaches the late subscriber, which never sees m1 twice.
    await publisher.call(
      "4",
      `{"id":4,"jsonrpc":"2.0","method":"irn_publish","params":{"topic":"box","message":"m2","ttl":300,"tag":1108}}`
    )
    const second = JSON.parse(await late.next((f) => f.includes('"irn_subscription"')))
    expect(second.params.data.message).toBe("m2")
    expect(publisher.frames.some((f) => f.includes("irn_subscription"))).toBe(false)

    const fetched = await late.call(
      "5",
      `{"id":5,"jsonrpc":"2.0","method":"irn_batchFetchMessages","params":{"topics":["box"]}}`
    )
    // m1 was acknowledged; m2 was not yet, so a fetch still hands it over.
    expect(JSON.parse(fetched).result).toMatchObject({ messages: [{ topic: "box", message: "m2" }], hasMore: false })

    await publisher.close()
    await late.close()
  })

  it("keeps undelivered messages across its own restart", async () => {
    const publisher = await rawClient(relay.info.url)
    await publisher.call(
      "1",
      `{"id":1,"jsonrpc":"2.0","method":"irn_publish","params":{"topic":"kept","message":"survivor","ttl":300,"tag":1108}}`
    )
    const dropped = new Promise((resolve) => publisher.socket.once("close", resolve))
    await relay.info.restart()
    await dropped

    const late = await rawClient(relay.info.url)
    await late.call("2", `{"id":2,"jsonrpc":"2.0","method":"irn_subscribe","params":{"topic":"kept"}}`)
    const delivery = JSON.parse(await late.next((f) => f.includes('"irn_subscription"')))
    expect(delivery.params.data).toMatchObject({ topic: "kept", message: "survivor" })
    await late.close()
  })
})

describe("WalletConnect relay authentication", () => {
  let relay: Started<RelayInfo>

  beforeAll(async () => {
    relay = await startRelay()
  })

  afterAll(async () => {
    await relay.stop()
  })

  /** How a connection ends: its close code and reason. */
  const closed = (url: string) =>
    new Promise<{ code: number; reason: string }>((resolve) => {
      const socket = new WebSocket(url)
      socket.once("close", (code, reason) => resolve({ code, reason: String(reason) }))
    })

  it("refuses a connection without a JWT, with another key's signature, for another relay, or expired", async () => {
    const url = relay.info.url
    const seed = generateClientSeed()
    const token = new URL(await authenticated(url, seed)).searchParams.get("auth")!
    const [header, payload] = token.split(".")
    const otherSignature = new URL(await authenticated(url)).searchParams.get("auth")!.split(".")[2]
    const cases = [
      [`${url}/?projectId=devstack`, "an auth JWT is required"],
      [`${url}/?auth=${header}.${payload}.${otherSignature}`, "(signature)"],
      [await authenticated(url, seed, { aud: "ws://127.0.0.1:1" }), "(audience)"],
      [await authenticated(url, seed, { now: Date.now() - 2 * 86_400_000 }), "(expired)"]
    ] as const
    for (const [target, words] of cases) {
      const outcome = await closed(target)
      expect(outcome.code).toBe(RELAY_AUTH_REFUSED)
      expect(outcome.reason).toContain(words)
    }
  })

  it("serves a client whose JWT it verified", async () => {
    const client = await rawClient(relay.info.url)
    const reply = await client.call("7", '{"id":7,"jsonrpc":"2.0","method":"irn_subscribe","params":{"topic":"abc"}}')
    expect(JSON.parse(reply)).toMatchObject({ id: 7, result: expect.any(String) })
    await client.close()
  })
})
