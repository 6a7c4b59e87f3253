/**
 * Our wallet's side of the protocol (the devstack's test wallet runs on it) over the relay in memory, the test playing
 * the dapp by hand: what waits for the visitor's decision — a proposal, a request — and the pairing it came on are
 * kept across a reload (a new client on the same store), and approving after the reload answers the dapp; what has
 * expired meanwhile, or belongs to a deleted session, is not brought back.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Scope } from "effect"
import * as KeyValueStore from "effect/persistence/KeyValueStore"
import { TestClock } from "effect/testing"
import { agree } from "../../../../src/services/walletconnect/protocol/engine"
import { generateKeyPair, hashKey, randomKey, seal } from "../../../../src/services/walletconnect/protocol/crypto"
import { formatPairingUri } from "../../../../src/services/walletconnect/protocol/uri"
import { makeWalletClient } from "../../../../src/services/walletconnect/protocol/wallet"
import { type FakeRelay, makeFakeRelay, metadata, openedOn, seen } from "./fakeRelay"

const request = (id: number, method: string, params: unknown) => JSON.stringify({ id, jsonrpc: "2.0", method, params })

/** A wallet client on the fake relay and `store`, in a scope of its own (closing it is closing the page). */
const walletOn = (relay: FakeRelay, store: KeyValueStore.KeyValueStore) =>
  Effect.gen(function* () {
    const scope = yield* Scope.make()
    const client = yield* makeWalletClient({
      relayUrl: "ws://relay.test",
      projectId: "p",
      metadata: { ...metadata, name: "Wallet" },
      store,
      WebSocket: relay.WebSocket,
      oneClick: () => false
    }).pipe(Scope.provide(scope))
    return { client, close: Scope.close(scope, Exit.void) }
  })

/** A pairing URI of the test's dapp, and the proposal it sends there. */
const dappPairing = Effect.gen(function* () {
  const symKey = randomKey()
  const topic = yield* hashKey(symKey)
  const dapp = yield* generateKeyPair
  const uri = formatPairingUri({ topic, symKey, expiryTimestamp: 240, methods: [] })
  const proposal = request(900, "wc_sessionPropose", {
    relays: [{ protocol: "irn" }],
    proposer: { publicKey: dapp.publicKey, metadata },
    requiredNamespaces: {},
    optionalNamespaces: { eip155: { chains: ["eip155:1"], methods: ["personal_sign"], events: [] } },
    expiryTimestamp: 240,
    pairingTopic: topic
  })
  return { symKey, topic, dapp, uri, proposal }
})

describe("our wallet across a reload", () => {
  it.effect("a proposal waiting at the reload waits again, and approving it answers the dapp on its pairing and settles", () =>
    Effect.gen(function* () {
      const relay = makeFakeRelay()
      const store = yield* Effect.provide(Effect.service(KeyValueStore.KeyValueStore), KeyValueStore.layerMemory)
      const pairing = yield* dappPairing
      const first = yield* walletOn(relay, store)
      yield* first.client.pair(pairing.uri)
      yield* seen(() => relay.follows(pairing.topic))
      relay.deliver(pairing.topic, seal(pairing.symKey, pairing.proposal))
      yield* seen(() => first.client.pending().length === 1)
      yield* first.close

      const second = yield* walletOn(relay, store)
      expect(second.client.pending().map((entry) => [entry._tag, "id" in entry ? entry.id : undefined])).toEqual([["SessionProposal", 900]])
      yield* seen(() => relay.follows(pairing.topic))
      const session = yield* second.client.approveSession(900, { eip155: { accounts: ["eip155:1:0xabc"], methods: ["personal_sign"], events: [] } })
      const answer = yield* openedOn(relay, pairing.topic, pairing.symKey, 1101)
      expect(answer).toMatchObject({ id: 900, result: { relay: { protocol: "irn" } } })
      const agreed = yield* agree(pairing.dapp.privateKey, (answer.result as { responderPublicKey: string }).responderPublicKey)
      expect(agreed.topic).toBe(session.topic)
      expect(yield* openedOn(relay, session.topic, agreed.symKey, 1102)).toMatchObject({ method: "wc_sessionSettle" })
      expect(second.client.pending()).toEqual([])
      yield* second.close

      // Answered: a third page has nothing waiting.
      const third = yield* walletOn(relay, store)
      expect(third.client.pending()).toEqual([])
      expect(third.client.sessions().map((s) => s.topic)).toEqual([session.topic])
    }).pipe(Effect.scoped)
  )

  it.effect("a request waiting at the reload waits again and its answer reaches the dapp; one expired meanwhile is not brought back", () =>
    Effect.gen(function* () {
      const relay = makeFakeRelay()
      const store = yield* Effect.provide(Effect.service(KeyValueStore.KeyValueStore), KeyValueStore.layerMemory)
      const pairing = yield* dappPairing
      const first = yield* walletOn(relay, store)
      yield* first.client.pair(pairing.uri)
      yield* seen(() => relay.follows(pairing.topic))
      relay.deliver(pairing.topic, seal(pairing.symKey, pairing.proposal))
      yield* seen(() => first.client.pending().length === 1)
      const session = yield* first.client.approveSession(900, { eip155: { accounts: ["eip155:1:0xabc"], methods: ["personal_sign"], events: [] } })
      const symKey = first.client.sessions()[0]!.symKey
      yield* seen(() => relay.follows(session.topic))
      const sign = (id: number, expiryTimestamp: number) =>
        request(id, "wc_sessionRequest", { request: { method: "personal_sign", params: ["0x00", "0xabc"], expiryTimestamp }, chainId: "eip155:1" })
      relay.deliver(session.topic, seal(symKey, sign(901, 600)))
      relay.deliver(session.topic, seal(symKey, sign(902, 100)))
      yield* seen(() => first.client.pending().length === 2)
      yield* first.close

      yield* TestClock.adjust("200 seconds")
      const second = yield* walletOn(relay, store)
      expect(second.client.pending().map((entry) => ("id" in entry ? entry.id : undefined))).toEqual([901])
      yield* seen(() => relay.follows(session.topic))
      yield* second.client.respond(session.topic, 901, { result: "0xsigned" })
      expect(yield* openedOn(relay, session.topic, symKey, 1109)).toMatchObject({ id: 901, result: "0xsigned" })
    }).pipe(Effect.scoped)
  )
})
