/**
 * Our dapp client against hostile or broken input, over a fake relay in memory (a WebSocket class of our own that
 * answers the `irn_*` methods, or never answers) with the test playing the wallet by hand: each bad input is refused
 * with a typed error or reported as a problem, and the session stays as it was.
 */
import { describe, expect, it } from "@effect/vitest"
import { Clock, Effect, Exit, Fiber, PubSub } from "effect"
import * as KeyValueStore from "effect/persistence/KeyValueStore"
import { TestClock } from "effect/testing"
import { agree } from "../../../../src/services/walletconnect/protocol/engine"
import { generateKeyPair, seal, unseal } from "../../../../src/services/walletconnect/protocol/crypto"
import { makeDappClient } from "../../../../src/services/walletconnect/protocol/dapp"
import type { SocketConstructor, SocketLike } from "../../../../src/services/walletconnect/protocol/relay"
import { parsePairingUri } from "../../../../src/services/walletconnect/protocol/uri"

/** A relay in memory: what clients publish, who follows which topic, and a switch to stop answering. */
const makeFakeRelay = () => {
  const published: Array<{ readonly topic: string; readonly message: string; readonly tag: number }> = []
  const sockets = new Set<FakeSocketLike>()
  const world = { silent: false }
  interface FakeSocketLike extends SocketLike {
    readonly topics: Set<string>
    frame(text: string): void
  }
  class FakeSocket implements FakeSocketLike {
    readyState = 0
    onopen: ((event: unknown) => void) | null = null
    onclose: ((event: { readonly code?: number; readonly reason?: string }) => void) | null = null
    onerror: ((event: unknown) => void) | null = null
    onmessage: ((event: { readonly data: unknown }) => void) | null = null
    readonly topics = new Set<string>()
    constructor(readonly url: string) {
      sockets.add(this)
      queueMicrotask(() => {
        this.readyState = 1
        this.onopen?.({})
      })
    }
    frame(text: string) {
      queueMicrotask(() => this.onmessage?.({ data: text }))
    }
    send(data: string) {
      const request = JSON.parse(data) as { id: number; method?: string; params?: Record<string, unknown> }
      if (request.method === undefined || world.silent) return
      const params = request.params ?? {}
      let result: unknown = true
      if (request.method === "irn_subscribe") this.topics.add(String(params["topic"]))
      if (request.method === "irn_batchSubscribe") for (const topic of params["topics"] as Array<string>) this.topics.add(topic)
      if (request.method === "irn_publish") published.push({ topic: String(params["topic"]), message: String(params["message"]), tag: Number(params["tag"]) })
      if (request.method === "irn_batchFetchMessages") result = { messages: [], hasMore: false }
      this.frame(JSON.stringify({ id: request.id, jsonrpc: "2.0", result }))
    }
    close() {
      this.readyState = 3
      sockets.delete(this)
    }
  }
  let nextId = 1
  return {
    WebSocket: FakeSocket as unknown as SocketConstructor,
    published,
    world,
    /** Delivers a message on a topic to the clients that follow it. */
    deliver: (topic: string, message: string) => {
      for (const socket of sockets) {
        if (socket.topics.has(topic)) socket.frame(JSON.stringify({ id: nextId++, jsonrpc: "2.0", method: "irn_subscription", params: { id: "s", data: { topic, message, publishedAt: 0, tag: 0 } } }))
      }
    },
    /** Sends a raw frame to every client. */
    raw: (text: string) => {
      for (const socket of sockets) socket.frame(text)
    }
  }
}

type FakeRelay = ReturnType<typeof makeFakeRelay>

const store = () => Effect.provide(Effect.service(KeyValueStore.KeyValueStore), KeyValueStore.layerMemory)
const metadata = { name: "Dapp", description: "Dapp", url: "http://127.0.0.1", icons: [] }
const proposed = { eip155: { chains: ["eip155:1"], methods: ["personal_sign"], events: ["accountsChanged", "chainChanged"] } }

/** Waits (in real time, a few ms) until the fake relay saw what `see` looks for. */
const seen = <A>(see: () => A | undefined): Effect.Effect<A> =>
  Effect.gen(function* () {
    for (let i = 0; i < 500; i++) {
      const found = see()
      if (found !== undefined) return found
      yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 2)))
    }
    return yield* Effect.die(new Error("the fake relay never saw it"))
  })

/** Makes a dapp client on the fake relay and pairs it; the test answers as the wallet. */
const paired = (relay: FakeRelay, settleNamespaces: Record<string, unknown> = { eip155: { accounts: ["eip155:1:0xabc"], methods: ["personal_sign"], events: ["accountsChanged"] } }) =>
  Effect.gen(function* () {
    const client = yield* makeDappClient({ relayUrl: "ws://relay.test", projectId: "p", metadata, store: yield* store(), WebSocket: relay.WebSocket })
    const pairing = yield* client.pair({ optionalNamespaces: proposed, expiresAt: (yield* Clock.currentTimeMillis) + 240_000 })
    const { topic, symKey } = parsePairingUri(pairing.uri)!
    const approval = yield* Effect.forkChild(pairing.approval)
    const proposal = yield* seen(() => relay.published.find((p) => p.topic === topic && p.tag === 1100))
    const request = JSON.parse(unseal(symKey, proposal.message) as string) as { id: number; params: { proposer: { publicKey: string } } }
    const wallet = generateKeyPair()
    const session = agree(wallet.privateKey, request.params.proposer.publicKey)
    relay.deliver(topic, seal(symKey, JSON.stringify({ id: request.id, jsonrpc: "2.0", result: { relay: { protocol: "irn" }, responderPublicKey: wallet.publicKey } })))
    const settle = { relay: { protocol: "irn" }, namespaces: settleNamespaces, controller: { publicKey: wallet.publicKey, metadata }, expiry: 2_000_000_000 }
    // The settle comes once the dapp follows the session topic.
    yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 20)))
    relay.deliver(session.topic, seal(session.symKey, JSON.stringify({ id: 77, jsonrpc: "2.0", method: "wc_sessionSettle", params: settle })))
    const outcome = yield* Fiber.await(approval)
    return { client, outcome, session }
  })


describe("our dapp client against bad input", () => {
  it.effect("a settle granting a namespace that was not proposed is refused, and no session is made", () =>
    Effect.gen(function* () {
      const relay = makeFakeRelay()
      const { client, outcome } = yield* paired(relay, { solana: { accounts: ["solana:abc:xyz"], methods: [], events: [] } })
      expect(Exit.isFailure(outcome)).toBe(true)
      expect(JSON.stringify(outcome)).toContain("PeerMessageInvalid")
      expect(client.session()).toBeUndefined()
    }).pipe(Effect.scoped)
  )

  it.effect("a settle with an account on a chain that was not proposed is refused", () =>
    Effect.gen(function* () {
      const relay = makeFakeRelay()
      const { client, outcome } = yield* paired(relay, { eip155: { accounts: ["eip155:5:0xabc"], methods: [], events: [] } })
      expect(JSON.stringify(outcome)).toContain("chain not proposed")
      expect(client.session()).toBeUndefined()
    }).pipe(Effect.scoped)
  )

  it.effect("hostile frames, an envelope that fails to open, an event outside the session and an answer to no request are reported; the session stays", () =>
    Effect.gen(function* () {
      const relay = makeFakeRelay()
      const { client, outcome, session } = yield* paired(relay)
      expect(Exit.isSuccess(outcome)).toBe(true)
      const before = client.session()
      const problems = yield* PubSub.subscribe(client.problems)
      const events = yield* PubSub.subscribe(client.events)
      relay.raw("not json")
      relay.raw(JSON.stringify({ id: 5, jsonrpc: "2.0", method: "irn_subscription", params: { id: "s", data: { topic: 42 } } }))
      relay.raw(JSON.stringify({ id: 999_999, jsonrpc: "2.0", result: true }))
      relay.deliver(session.topic, seal(generateKeyPair().privateKey, "{}"))
      relay.deliver(
        session.topic,
        seal(session.symKey, JSON.stringify({ id: 78, jsonrpc: "2.0", method: "wc_sessionEvent", params: { chainId: "eip155:1", event: { name: "accountsChanged", data: ["eip155:5:0xdef"] } } }))
      )
      relay.deliver(session.topic, seal(session.symKey, JSON.stringify({ id: 123, jsonrpc: "2.0", result: "0xsigned" })))
      const tags: Array<string> = []
      for (let i = 0; i < 6; i++) tags.push((yield* PubSub.take(problems))._tag)
      expect(tags.sort()).toEqual(["EnvelopeUnreadable", "PeerMessageInvalid", "PeerMessageInvalid", "RelayFrameInvalid", "RelayFrameInvalid", "RelayFrameInvalid"])
      expect(yield* PubSub.remaining(events)).toBe(0)
      expect(client.session()).toEqual(before)
    }).pipe(Effect.scoped)
  )

  it.effect("an answer with the wrong id does not answer the request; the wait ends after its bound (5 minutes)", () =>
    Effect.gen(function* () {
      const relay = makeFakeRelay()
      const { client, session } = yield* paired(relay)
      const asked = yield* Effect.forkChild(client.request({ method: "personal_sign", params: ["0x00", "0xabc"], chainId: "eip155:1" }))
      const sent = yield* seen(() => relay.published.find((p) => p.topic === session.topic && p.tag === 1108))
      const { id } = JSON.parse(unseal(session.symKey, sent.message) as string) as { id: number }
      relay.deliver(session.topic, seal(session.symKey, JSON.stringify({ id: id + 1, jsonrpc: "2.0", result: "0xforged" })))
      yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 20)))
      expect(asked.pollUnsafe()).toBeUndefined()
      yield* TestClock.adjust("300 seconds")
      const exit = yield* Fiber.await(asked)
      expect(JSON.stringify(exit)).toContain("NoAnswer")
      expect(client.session()?.topic).toBe(session.topic)
    }).pipe(Effect.scoped)
  )

  it.effect("a request on a chain outside the session fails at once with a typed error", () =>
    Effect.gen(function* () {
      const relay = makeFakeRelay()
      const { client } = yield* paired(relay)
      const exit = yield* Effect.exit(client.request({ method: "personal_sign", params: [], chainId: "eip155:5" }))
      expect(JSON.stringify(exit)).toContain("SessionUnavailable")
    }).pipe(Effect.scoped)
  )

  it.effect("a relay that never answers: pairing fails after the bounded wait (10 s), not never", () =>
    Effect.gen(function* () {
      const relay = makeFakeRelay()
      relay.world.silent = true
      const client = yield* makeDappClient({ relayUrl: "ws://relay.test", projectId: "p", metadata, store: yield* store(), WebSocket: relay.WebSocket })
      const pairing = yield* Effect.forkChild(client.pair({ optionalNamespaces: proposed, expiresAt: 240_000 }))
      yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 20)))
      yield* TestClock.adjust("10 seconds")
      const exit = yield* Fiber.await(pairing)
      expect(JSON.stringify(exit)).toContain("RelayUnavailable")
    }).pipe(Effect.scoped)
  )
})

