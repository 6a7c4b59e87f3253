/**
 * A WalletConnect relay in memory for unit tests of our protocol client: a WebSocket class of our own that answers
 * the `irn_*` methods (or, `silent`, never answers), records what clients publish and which topics they follow, and
 * lets the test deliver messages as a wallet would. Plus the test's side of a pairing, played by hand.
 */
import { Clock, Effect, Fiber } from "effect"
import * as KeyValueStore from "effect/persistence/KeyValueStore"
import { agree } from "../../../../src/services/walletconnect/protocol/engine"
import { generateKeyPair, seal, unseal } from "../../../../src/services/walletconnect/protocol/crypto"
import { type DappClientOptions, makeDappClient } from "../../../../src/services/walletconnect/protocol/dapp"
import type { SocketConstructor, SocketLike } from "../../../../src/services/walletconnect/protocol/relay"
import { parsePairingUri } from "../../../../src/services/walletconnect/protocol/uri"

/** A message a client published. */
export interface Published {
  readonly topic: string
  readonly message: string
  readonly tag: number
  readonly ttl: number
}

interface FakeSocketLike extends SocketLike {
  readonly topics: Set<string>
  frame(text: string): void
}

/** A relay in memory: what clients publish, who follows which topic, and a switch to stop answering. */
export const makeFakeRelay = () => {
  const published: Array<Published> = []
  const received: Array<string> = []
  const sockets = new Set<FakeSocketLike>()
  const world = { silent: false }
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
      if (request.method === undefined) return
      received.push(request.method)
      if (world.silent) return
      const params = request.params ?? {}
      let result: unknown = true
      if (request.method === "irn_subscribe") this.topics.add(String(params["topic"]))
      if (request.method === "irn_batchSubscribe") for (const topic of params["topics"] as Array<string>) this.topics.add(topic)
      if (request.method === "irn_unsubscribe") this.topics.delete(String(params["topic"]))
      if (request.method === "irn_publish") {
        published.push({ topic: String(params["topic"]), message: String(params["message"]), tag: Number(params["tag"]), ttl: Number(params["ttl"]) })
      }
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
    /** The methods clients asked, in order (answered or not). */
    received,
    world,
    /** Whether a client follows `topic` now. */
    follows: (topic: string) => [...sockets].some((socket) => socket.topics.has(topic)),
    /** Delivers a message on a topic to the clients that follow it. */
    deliver: (topic: string, message: string) => {
      for (const socket of sockets) {
        if (socket.topics.has(topic)) {
          socket.frame(JSON.stringify({ id: nextId++, jsonrpc: "2.0", method: "irn_subscription", params: { id: "s", data: { topic, message, publishedAt: 0, tag: 0 } } }))
        }
      }
    },
    /** Sends a raw frame to every client. */
    raw: (text: string) => {
      for (const socket of sockets) socket.frame(text)
    }
  }
}

/** A relay in memory. */
export type FakeRelay = ReturnType<typeof makeFakeRelay>

/** A store in memory: one browser profile's localStorage. */
export const memoryStore = () => Effect.provide(Effect.service(KeyValueStore.KeyValueStore), KeyValueStore.layerMemory)

/** The dapp's metadata in these tests. */
export const metadata = { name: "Dapp", description: "Dapp", url: "http://127.0.0.1", icons: [] }

/** What the dapp proposes in these tests. */
export const proposed = { eip155: { chains: ["eip155:1"], methods: ["personal_sign"], events: ["accountsChanged", "chainChanged"] } }

/** Waits (in real time, a few ms at a time, two seconds at most) until `see` finds what it looks for. */
export const seen = <A>(see: () => A | undefined): Effect.Effect<A> =>
  Effect.gen(function* () {
    for (let i = 0; i < 1000; i++) {
      const found = see()
      if (found !== undefined && found !== false) return found
      yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 2)))
    }
    return yield* Effect.die(new Error("never seen"))
  })

/** The message a client published on `topic` with `tag`, opened with `symKey`. */
export const openedOn = (relay: FakeRelay, topic: string, symKey: string, tag: number) =>
  Effect.map(
    seen(() => relay.published.find((p) => p.topic === topic && p.tag === tag)),
    (found) => ({ ...(JSON.parse(unseal(symKey, found.message) as string) as { id: number; method?: string; params: Record<string, unknown>; result?: unknown; error?: unknown }), ttl: found.ttl })
  )

/** A dapp client on the fake relay. */
export const dappOn = (relay: FakeRelay, more: Partial<DappClientOptions> = {}) =>
  Effect.gen(function* () {
    return yield* makeDappClient({ relayUrl: "ws://relay.test", projectId: "p", metadata, store: yield* memoryStore(), WebSocket: relay.WebSocket, ...more })
  })

/**
 * Pairs a dapp client on the fake relay with the test as the wallet: reads the proposal, answers it and settles
 * `settleNamespaces`. Gives the client, the approval's outcome, the pairing's topic and key, and the session's.
 */
export const paired = (
  relay: FakeRelay,
  settleNamespaces: Record<string, unknown> = { eip155: { accounts: ["eip155:1:0xabc"], methods: ["personal_sign"], events: ["accountsChanged"] } },
  more: Partial<DappClientOptions> = {}
) =>
  Effect.gen(function* () {
    const client = yield* dappOn(relay, more)
    const pairing = yield* client.pair({ optionalNamespaces: proposed, expiresAt: (yield* Clock.currentTimeMillis) + 240_000 })
    const { topic, symKey } = (yield* parsePairingUri(pairing.uri))!
    const approval = yield* Effect.forkChild(pairing.approval)
    const request = (yield* openedOn(relay, topic, symKey, 1100)) as unknown as { id: number; params: { proposer: { publicKey: string } } }
    const wallet = yield* generateKeyPair
    const session = yield* agree(wallet.privateKey, request.params.proposer.publicKey)
    relay.deliver(topic, seal(symKey, JSON.stringify({ id: request.id, jsonrpc: "2.0", result: { relay: { protocol: "irn" }, responderPublicKey: wallet.publicKey } })))
    const settle = { relay: { protocol: "irn" }, namespaces: settleNamespaces, controller: { publicKey: wallet.publicKey, metadata }, expiry: 2_000_000_000 }
    // The settle comes once the dapp follows the session topic.
    yield* seen(() => relay.follows(session.topic))
    relay.deliver(session.topic, seal(session.symKey, JSON.stringify({ id: 77, jsonrpc: "2.0", method: "wc_sessionSettle", params: settle })))
    const outcome = yield* Fiber.await(approval)
    return { client, outcome, session, pairing: { topic, symKey } }
  })
