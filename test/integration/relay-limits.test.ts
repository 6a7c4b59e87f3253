/**
 * The relay's bounds per connection, on a real relay with small limits: a client flooding publishes is refused with
 * JSON-RPC error -32005 while another client's publish on the same relay is accepted and delivered, and a second
 * connection of the same client id shares its allowance; a message over
 * the size limit is refused (-32602) and one at the limit passes; subscribing to 10,000 topics from one socket is
 * refused whole (-32005) and the socket still works.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Started } from "../../server/src/lib/Started"
import { type RelayInfo, RELAY_LIMIT_EXCEEDED, startRelay } from "../../server/src/relay"
import { rawClient } from "./support/relayRawClient"
import { generateClientSeed } from "../../src/services/walletconnect/protocol/relayJwt"
import { startServerProcess } from "./support/serverProcesses"

// A refill so slow (one publish per 100 s) that no test here sees one, however slow the machine: the counts are exact.
const LIMITS = { publishesPerSecond: 0.01, publishBurst: 10, maxMessageChars: 1000, maxTopicsPerConnection: 1000 }

let relay: Started<RelayInfo>
let nextId = 1_700_000_000_000_000_000n
const id = () => String(nextId++)
// 19-digit ids, written as the raw number text real clients send.
const request = (rid: string, method: string, params: unknown) => `{"id":${rid},"jsonrpc":"2.0","method":"${method}","params":${JSON.stringify(params)}}`

beforeAll(async () => {
  relay = await startRelay({ limits: LIMITS })
})

afterAll(async () => {
  await relay?.stop()
})

describe("the relay's limits per connection", () => {
  it("refuses a flooding client with -32005 and keeps serving another client on the same relay", async () => {
    const flooder = await rawClient(relay.info.url)
    const other = await rawClient(relay.info.url)
    const subscriber = await rawClient(relay.info.url)
    const sid = id()
    expect(await subscriber.call(sid, request(sid, "irn_subscribe", { topic: "others-topic" }))).toContain('"result"')

    // Twice the burst at once: the first ones pass, the rest are refused with words.
    const replies = await Promise.all(
      Array.from({ length: 2 * LIMITS.publishBurst }, (_, n) => {
        const rid = id()
        return flooder.call(rid, request(rid, "irn_publish", { topic: "flood", message: `flood ${n}`, ttl: 300, tag: 1 }))
      })
    )
    const refused = replies.filter((reply) => reply.includes(`"code":${RELAY_LIMIT_EXCEEDED}`))
    expect(refused.length).toBe(LIMITS.publishBurst)
    expect(refused[0]).toContain("Rate limit exceeded")
    expect(replies.filter((reply) => reply.includes('"result":true')).length).toBe(LIMITS.publishBurst)

    // Meanwhile another client publishes: accepted, and delivered.
    const pid = id()
    expect(await other.call(pid, request(pid, "irn_publish", { topic: "others-topic", message: "not the flooder", ttl: 300, tag: 1 }))).toContain('"result":true')
    const delivered = await subscriber.next((frame) => frame.includes('"method":"irn_subscription"'))
    expect(JSON.parse(delivered)).toMatchObject({ params: { data: { topic: "others-topic", message: "not the flooder" } } })

    await Promise.all([flooder.close(), other.close(), subscriber.close()])
  })

  it("counts one allowance per client id, over all its connections", async () => {
    const seed = generateClientSeed()
    const first = await rawClient(relay.info.url, seed)
    const second = await rawClient(relay.info.url, seed)
    const stranger = await rawClient(relay.info.url)
    const publish = (client: typeof first, text: string) => {
      const rid = id()
      return client.call(rid, request(rid, "irn_publish", { topic: "shared", message: text, ttl: 300, tag: 1 }))
    }
    // The first connection spends the whole burst, one at a time: each passes.
    for (let n = 0; n < LIMITS.publishBurst; n++) expect(await publish(first, `first ${n}`)).toContain('"result":true')
    // The same id on another connection has nothing left; another id has its own.
    expect(await publish(second, "second")).toContain(`"code":${RELAY_LIMIT_EXCEEDED}`)
    expect(await publish(stranger, "stranger")).toContain('"result":true')
    await Promise.all([first.close(), second.close(), stranger.close()])
  })

  it("refuses a message over the size limit and takes one at the limit", async () => {
    const client = await rawClient(relay.info.url)
    const over = id()
    const tooBig = await client.call(over, request(over, "irn_publish", { topic: "size", message: "x".repeat(LIMITS.maxMessageChars + 1), ttl: 300, tag: 1 }))
    expect(tooBig).toContain('"code":-32602')
    expect(tooBig).toContain(`Message too large: ${LIMITS.maxMessageChars + 1} characters, at most ${LIMITS.maxMessageChars}`)
    const at = id()
    expect(await client.call(at, request(at, "irn_publish", { topic: "size", message: "y".repeat(LIMITS.maxMessageChars), ttl: 300, tag: 1 }))).toContain(
      '"result":true'
    )
    await client.close()
  })

  it("refuses 10,000 topics from one socket whole, and the socket keeps working", async () => {
    const client = await rawClient(relay.info.url)
    const many = id()
    const topics = Array.from({ length: 10_000 }, (_, n) => `topic-${n}`)
    const reply = await client.call(many, request(many, "irn_batchSubscribe", { topics }))
    expect(reply).toContain(`"code":${RELAY_LIMIT_EXCEEDED}`)
    expect(reply).toContain(`Too many topics: a connection may follow at most ${LIMITS.maxTopicsPerConnection}`)
    const one = id()
    expect(await client.call(one, request(one, "irn_subscribe", { topic: "topic-1" }))).toMatch(/"result":"[0-9a-f]{64}"/)
    await client.close()
  })
})

describe("the relay's limits from the server's configuration", () => {
  it("the server command gives the relay the limits its variables set: the burst and the message size", async () => {
    const server = await startServerProcess(["relay"], {
      WALLET_RUNTIME_LIMITS_RELAY_PUBLISHES_PER_SECOND: "0.01",
      WALLET_RUNTIME_LIMITS_RELAY_PUBLISH_BURST: "3",
      WALLET_RUNTIME_LIMITS_RELAY_MAX_MESSAGE_CHARS: "100"
    })
    try {
      const client = await rawClient(server.urls["relay"] ?? "")
      const publish = (message: string) => {
        const rid = id()
        return client.call(rid, request(rid, "irn_publish", { topic: "configured", message, ttl: 300, tag: 1 }))
      }
      const tooLong = await publish("x".repeat(101))
      expect(tooLong).toContain("Message too large: 101 characters, at most 100")
      const replies = [await publish("one"), await publish("two"), await publish("three"), await publish("four")]
      // The refused long message took no token: three pass, the fourth is past the burst of 3.
      expect(replies.map((reply) => reply.includes('"result":true'))).toEqual([true, true, true, false])
      expect(replies[3]).toContain(`"code":${RELAY_LIMIT_EXCEEDED}`)
      await client.close()
    } finally {
      await server.stop()
    }
  })
})
