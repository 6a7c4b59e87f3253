/**
 * Our dapp client through a session's and a pairing's life, over the relay in memory with the test playing the
 * wallet by hand (time by TestClock): the wallet's own wc_sessionUpdate and wc_sessionExtend, kept when they keep to
 * the proposal and to seven days and refused otherwise; the wallet's pairing ping and delete; a pairing's expiry (4
 * minutes, replaced 10 s before it, spec 4); and Verify: each proposal and request registered under the SHA-256 of its
 * text before it is published, and never waited for beyond its bound.
 */
import { createHash } from "node:crypto"
import { describe, expect, it } from "@effect/vitest"
import { Clock, Deferred, Effect, Exit, Fiber, Option, PubSub, Stream, SubscriptionRef } from "effect"
import * as KeyValueStore from "effect/persistence/KeyValueStore"
import { TestClock } from "effect/testing"
import { decodeOptionsSync } from "../../../../src/domain/Options"
import { localChainA } from "../../../../src/domain/networks"
import { seal, unseal } from "../../../../src/services/walletconnect/protocol/crypto"
import { VERIFY_REGISTER_WITHIN_MS } from "../../../../src/services/walletconnect/protocol/dapp"
import { parsePairingUri } from "../../../../src/services/walletconnect/protocol/uri"
import { validationOf } from "../../../../src/services/walletconnect/protocol/verify"
import { makeWalletConnect, type PairingState } from "../../../../src/services/walletconnect/WalletConnect"
import { dappOn, makeFakeRelay, openedOn, paired, proposed, seen } from "./fakeRelay"

const request = (id: number, method: string, params: unknown) => JSON.stringify({ id, jsonrpc: "2.0", method, params })

describe("the wallet's own changes to the session", () => {
  it.effect("wc_sessionUpdate within the proposal is kept (stored, told) and answered; one granting a chain not proposed is refused and changes nothing", () =>
    Effect.gen(function* () {
      const relay = makeFakeRelay()
      const { client, session } = yield* paired(relay)
      expect(client.session()?.namespaces["eip155"]?.accounts).toEqual(["eip155:1:0xabc"])
      const events = yield* PubSub.subscribe(client.events)

      const added = { eip155: { accounts: ["eip155:1:0xabc", "eip155:1:0xdef"], methods: ["personal_sign"], events: ["accountsChanged"] } }
      relay.deliver(session.topic, seal(session.symKey, request(201, "wc_sessionUpdate", { namespaces: added })))
      expect(yield* openedOn(relay, session.topic, session.symKey, 1105)).toMatchObject({ id: 201, result: true, ttl: 86_400 })
      const told = yield* PubSub.take(events)
      expect(told._tag === "SessionUpdated" && told.session.namespaces).toEqual(added)
      expect(client.session()?.namespaces).toEqual(added)

      const outside = { eip155: { accounts: ["eip155:5:0xabc"], methods: ["personal_sign"], events: [] } }
      relay.deliver(session.topic, seal(session.symKey, request(202, "wc_sessionUpdate", { namespaces: outside })))
      const refused = yield* seen(() => relay.published.filter((p) => p.topic === session.topic && p.tag === 1105)[1])
      expect(JSON.parse(unseal(session.symKey, refused.message) as string)).toMatchObject({ id: 202, error: { code: 5104 } })
      expect(client.session()?.namespaces).toEqual(added)
      expect(yield* PubSub.remaining(events)).toBe(0)
    }).pipe(Effect.scoped)
  )

  it.effect("wc_sessionExtend to a later expiry within seven days is kept and answered; one beyond seven days, or earlier, is refused; one naming none counts seven days", () =>
    Effect.gen(function* () {
      const relay = makeFakeRelay()
      // The session the wallet settles expires at 2_000_000_000 (s): six days from now.
      const now = 2_000_000_000 - 6 * 86_400
      yield* TestClock.setTime(now * 1000)
      const { client, session } = yield* paired(relay, undefined)
      const before = client.session()!.expiry
      expect(before).toBe(2_000_000_000)

      relay.deliver(session.topic, seal(session.symKey, request(301, "wc_sessionExtend", { expiry: now + 8 * 86_400 })))
      expect(yield* openedOn(relay, session.topic, session.symKey, 1107)).toMatchObject({ id: 301, error: { code: -32602 } })
      expect(client.session()!.expiry).toBe(before)

      const later = now + 7 * 86_400
      relay.deliver(session.topic, seal(session.symKey, request(302, "wc_sessionExtend", { expiry: later })))
      const answered = yield* seen(() => relay.published.filter((p) => p.topic === session.topic && p.tag === 1107)[1])
      expect(JSON.parse(unseal(session.symKey, answered.message) as string)).toMatchObject({ id: 302, result: true })
      expect(client.session()!.expiry).toBe(later)

      relay.deliver(session.topic, seal(session.symKey, request(303, "wc_sessionExtend", { expiry: later - 60 })))
      const earlier = yield* seen(() => relay.published.filter((p) => p.topic === session.topic && p.tag === 1107)[2])
      expect(JSON.parse(unseal(session.symKey, earlier.message) as string)).toMatchObject({ id: 303, error: { code: -32602 } })
      expect(client.session()!.expiry).toBe(later)

      // WalletConnect's own sign-client (2.21) names no expiry: seven days from now, counted here.
      yield* TestClock.adjust("1 hour")
      relay.deliver(session.topic, seal(session.symKey, request(304, "wc_sessionExtend", {})))
      const counted = yield* seen(() => relay.published.filter((p) => p.topic === session.topic && p.tag === 1107)[3])
      expect(JSON.parse(unseal(session.symKey, counted.message) as string)).toMatchObject({ id: 304, result: true })
      expect(client.session()!.expiry).toBe(now + 3600 + 7 * 86_400)
    }).pipe(Effect.scoped)
  )

  it.effect("wc_sessionDelete is answered before the session is forgotten", () =>
    Effect.gen(function* () {
      const relay = makeFakeRelay()
      const { client, session } = yield* paired(relay)
      relay.deliver(session.topic, seal(session.symKey, request(401, "wc_sessionDelete", { code: 6000, message: "User disconnected." })))
      expect(yield* openedOn(relay, session.topic, session.symKey, 1113)).toMatchObject({ id: 401, result: true })
      yield* seen(() => client.session() === undefined && !relay.follows(session.topic))
    }).pipe(Effect.scoped)
  )
})

describe("the pairing", () => {
  /** A pairing the wallet has scanned (the test reads its proposal), not answered yet. */
  const scanned = (relay: ReturnType<typeof makeFakeRelay>) =>
    Effect.gen(function* () {
      const client = yield* dappOn(relay)
      const pairing = yield* client.pair({ optionalNamespaces: proposed, expiresAt: (yield* Clock.currentTimeMillis) + 240_000 })
      const { topic, symKey } = (yield* parsePairingUri(pairing.uri))!
      const approval = yield* Effect.forkChild(pairing.approval)
      yield* openedOn(relay, topic, symKey, 1100)
      return { approval, topic, symKey }
    })

  it.effect("the wallet's wc_pairingPing is answered on the pairing's topic", () =>
    Effect.gen(function* () {
      const relay = makeFakeRelay()
      const { approval, topic, symKey } = yield* scanned(relay)
      relay.deliver(topic, seal(symKey, request(501, "wc_pairingPing", {})))
      expect(yield* openedOn(relay, topic, symKey, 1003)).toMatchObject({ id: 501, result: true, ttl: 30 })
      expect(approval.pollUnsafe()).toBeUndefined()
    }).pipe(Effect.scoped)
  )

  it.effect("the wallet's wc_pairingDelete is answered, the pairing forgotten, and the connect waiting on it ends with the wallet's reason", () =>
    Effect.gen(function* () {
      const relay = makeFakeRelay()
      const { approval, topic, symKey } = yield* scanned(relay)
      relay.deliver(topic, seal(symKey, request(601, "wc_pairingDelete", { code: 6000, message: "User disconnected." })))
      expect(yield* openedOn(relay, topic, symKey, 1001)).toMatchObject({ id: 601, result: true })
      const exit = yield* Fiber.await(approval)
      expect(Exit.isFailure(exit) && Option.getOrUndefined(Exit.findErrorOption(exit))).toMatchObject({ _tag: "PeerRefused", code: 6000, message: "User disconnected." })
      yield* seen(() => !relay.follows(topic))
    }).pipe(Effect.scoped)
  )

  it.effect("a proposal nobody answers ends when its pairing expires (4 minutes), not before, and its topic is left", () =>
    Effect.gen(function* () {
      const relay = makeFakeRelay()
      const { approval, topic } = yield* scanned(relay)
      yield* TestClock.adjust("239 seconds")
      expect(approval.pollUnsafe()).toBeUndefined()
      yield* TestClock.adjust("1 second")
      const exit = yield* Fiber.await(approval)
      expect(Exit.isFailure(exit) && Option.getOrUndefined(Exit.findErrorOption(exit))?._tag).toBe("NoAnswer")
      yield* seen(() => !relay.follows(topic))
    }).pipe(Effect.scoped)
  )

  it.effect("the connector shows a URI that expires in 4 minutes and replaces it 10 s before: a new pairing, the old one left", () =>
    Effect.gen(function* () {
      const relay = makeFakeRelay()
      const start = 1_900_000_000_000
      yield* TestClock.setTime(start)
      const store = yield* Effect.provide(Effect.service(KeyValueStore.KeyValueStore), KeyValueStore.layerMemory)
      const service = yield* makeWalletConnect(
        decodeOptionsSync({ projectId: "p", networks: [localChainA], endpoints: { relay: "ws://relay.test" } }),
        { storage: store, WebSocket: relay.WebSocket }
      )
      const ready = (not?: string) =>
        SubscriptionRef.changes(service.pairing).pipe(
          Stream.filter((s): s is Extract<PairingState, { _tag: "Ready" }> => s._tag === "Ready" && s.uri !== not),
          Stream.runHead,
          Effect.map(Option.getOrThrow)
        )
      yield* Effect.forkChild(service.connector!.connect([localChainA]))
      const first = yield* ready()
      const firstPairing = (yield* parsePairingUri(first.uri))!
      expect(firstPairing.expiryTimestamp).toBe(start / 1000 + 240)
      expect(first.expiresAt).toBe(start + 230_000)
      // The proposal is at the relay before the clock moves.
      yield* seen(() => relay.published.find((p) => p.topic === firstPairing.topic && p.tag === 1100))
      yield* TestClock.adjust("229 seconds")
      expect(yield* service.freshUri).toBe(first.uri)
      yield* TestClock.adjust("1 second")
      const second = yield* ready(first.uri)
      const secondPairing = (yield* parsePairingUri(second.uri))!
      expect(secondPairing.topic).not.toBe(firstPairing.topic)
      expect(secondPairing.expiryTimestamp).toBe(start / 1000 + 230 + 240)
      expect(second.expiresAt).toBe(start + 230_000 + 230_000)
      yield* seen(() => !relay.follows(firstPairing.topic) && relay.follows(secondPairing.topic))
      yield* service.cancel
    }).pipe(Effect.scoped)
  )
})

describe("Verify", () => {
  const sha256 = (text: string) => createHash("sha256").update(text).digest("hex")

  it.effect("each proposal and request is registered under the SHA-256 of its text, before it is published", () =>
    Effect.gen(function* () {
      const relay = makeFakeRelay()
      const registered: Array<{ readonly id: string; readonly publishedBefore: number }> = []
      const verify = { register: (id: string) => Effect.sync(() => void registered.push({ id, publishedBefore: relay.published.length })) }
      const { client, session, pairing } = yield* paired(relay, undefined, { verify })
      const proposal = relay.published.find((p) => p.topic === pairing.topic && p.tag === 1100)!
      expect(registered[0]).toEqual({ id: sha256(unseal(pairing.symKey, proposal.message) as string), publishedBefore: 0 })

      yield* Effect.forkChild(client.request({ method: "personal_sign", params: ["0x00", "0xabc"], chainId: "eip155:1" }))
      const sent = yield* seen(() => relay.published.find((p) => p.topic === session.topic && p.tag === 1108))
      expect(registered).toHaveLength(2)
      expect(registered[1]!.id).toBe(sha256(unseal(session.symKey, sent.message) as string))
      expect(registered[1]!.publishedBefore).toBe(relay.published.indexOf(sent))
    }).pipe(Effect.scoped)
  )

  it.effect("a Verify server that never answers holds a proposal back for its bound (2 s) only", () =>
    Effect.gen(function* () {
      const relay = makeFakeRelay()
      const asked = yield* Deferred.make<void>()
      const verify = { register: () => Effect.andThen(Deferred.succeed(asked, undefined), Effect.never) }
      const client = yield* dappOn(relay, { verify })
      const pairing = yield* client.pair({ optionalNamespaces: proposed, expiresAt: 240_000 })
      const { topic } = (yield* parsePairingUri(pairing.uri))!
      yield* Effect.forkChild(pairing.approval)
      yield* Deferred.await(asked)
      expect(relay.published).toEqual([])
      yield* TestClock.adjust(VERIFY_REGISTER_WITHIN_MS - 1)
      expect(relay.published).toEqual([])
      yield* TestClock.adjust(1)
      yield* seen(() => relay.published.find((p) => p.topic === topic && p.tag === 1100))
    }).pipe(Effect.scoped)
  )

  it("a wallet judges a dapp by the origin Verify names against the URL its metadata claims", () => {
    expect(validationOf("https://app.example/path", { origin: "https://app.example" })).toBe("VALID")
    expect(validationOf("https://app.example", { origin: "https://evil.example" })).toBe("INVALID")
    expect(validationOf("not a url", { origin: "https://app.example" })).toBe("INVALID")
    expect(validationOf("https://app.example", undefined)).toBe("UNKNOWN")
  })
})
