/**
 * Our dapp client against hostile or broken input, over a fake relay in memory (a WebSocket class of our own that
 * answers the `irn_*` methods, or never answers) with the test playing the wallet by hand: each bad input is refused
 * with a typed error or reported as a problem, and the session stays as it was.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Fiber, PubSub } from "effect"
import { TestClock } from "effect/testing"
import { generateKeyPair, seal, unseal } from "../../../../src/services/walletconnect/protocol/crypto"
import { dappOn, makeFakeRelay, paired, proposed, seen } from "./fakeRelay"

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
      relay.deliver(session.topic, seal((yield* generateKeyPair).privateKey, "{}"))
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
      const problems = yield* PubSub.subscribe(client.problems)
      relay.deliver(session.topic, seal(session.symKey, JSON.stringify({ id: id + 1, jsonrpc: "2.0", result: "0xforged" })))
      expect((yield* PubSub.take(problems))._tag).toBe("PeerMessageInvalid")
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

  it.effect("a relay that never answers: the URI is made at once, and the pairing fails after the bounded wait (10 s), not never", () =>
    Effect.gen(function* () {
      const relay = makeFakeRelay()
      relay.world.silent = true
      const client = yield* dappOn(relay)
      const pairing = yield* client.pair({ optionalNamespaces: proposed, expiresAt: 240_000 })
      expect(pairing.uri).toMatch(/^wc:[0-9a-f]{64}@2\?/)
      const approval = yield* Effect.forkChild(pairing.approval)
      // The client has asked the relay to subscribe the pairing's topic (and gets no answer).
      yield* seen(() => relay.received.includes("irn_subscribe"))
      yield* TestClock.adjust("10 seconds")
      const exit = yield* Fiber.await(approval)
      expect(JSON.stringify(exit)).toContain("RelayUnavailable")
    }).pipe(Effect.scoped)
  )
})

