/**
 * Relay nodes over Redis, as a host runs them: two relay processes (the server command, component `relay`) on one real
 * Redis (test/support/redis.ts), the dapp reaching node A through a TCP balancer and the wallet talking to node B —
 * both sides our own WalletConnect clients. A request, events and the disconnect cross the nodes; node A killed in
 * the middle of a session loses nothing published while the dapp was away (it reconnects through the balancer to B
 * and gets it from the mailbox in Redis); a Redis restart is lived through by both nodes without a restart of
 * theirs, and shows the guarantee: a publish while Redis is down is refused with an error the publisher sees, never
 * silently dropped, and cross-node delivery works again once Redis is back. A node that cannot reach its Redis at
 * start exits, naming it without its password.
 */
import { Effect, Exit, PubSub, Schedule, Scope } from "effect"
import { type Hex, stringToHex, verifyMessage } from "viem"
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type DappClient, type DappEvent, makeDappClient } from "../../src/services/walletconnect/protocol/dapp"
import { makeWalletClient, type WalletClient, type WalletIncoming } from "../../src/services/walletconnect/protocol/wallet"
import { type RunningRedis, startRedis } from "../support/redis"
import { type Balancer, type RelayNode, startBalancer, startRelayNode } from "./support/serverProcesses"
import { memoryStore, NodeWebSocket } from "./support/wcSettings"
import { freePort } from "../../server/src/lib/ports"

const CHAIN = "eip155:31337"
const metadata = (name: string) => ({ name, description: `${name} under test`, url: "http://127.0.0.1", icons: [] })
// Every wait of this file is bounded by this.
const WAIT = "20 seconds"

let redis: RunningRedis
let nodeA: RelayNode
let nodeB: RelayNode
let balancer: Balancer
const scope = Effect.runSync(Scope.make())

beforeAll(async () => {
  redis = await startRedis()
  balancer = await startBalancer()
  ;[nodeA, nodeB] = await Promise.all([
    startRelayNode({ redisUrl: redis.url, publicUrl: balancer.url }),
    startRelayNode({ redisUrl: redis.url, publicUrl: balancer.url })
  ])
  balancer.backends.push(nodeA.port, nodeB.port)
}, 90_000)

afterAll(async () => {
  await Effect.runPromise(Scope.close(scope, Exit.void))
  await balancer?.stop()
  await Promise.all([nodeA?.stop(), nodeB?.stop()].map((p) => p?.catch(() => undefined)))
  await redis?.stop()
}, 60_000)

const run = <A, E>(effect: Effect.Effect<A, E, Scope.Scope>) => Effect.runPromise(Scope.provide(effect, scope))

interface Session {
  readonly dapp: DappClient
  readonly wallet: WalletClient
  readonly topic: string
  readonly address: Hex
  readonly dappEvents: PubSub.Subscription<DappEvent>
  readonly walletIncoming: PubSub.Subscription<WalletIncoming>
  /** The wallet answers the next request it gets (a personal_sign) with its account's signature. */
  readonly sign: () => Promise<void>
}

/** Our dapp through the balancer and our wallet straight to node B, paired into a session. */
const pairAcrossNodes = async (): Promise<Session> =>
  run(
    Effect.gen(function* () {
      const account = privateKeyToAccount(generatePrivateKey())
      const dapp = yield* makeDappClient({ relayUrl: balancer.url, projectId: "devstack", metadata: metadata("Dapp"), store: memoryStore(), WebSocket: NodeWebSocket })
      const wallet = yield* makeWalletClient({
        relayUrl: nodeB.url,
        projectId: "devstack",
        metadata: metadata("Wallet"),
        store: memoryStore(),
        WebSocket: NodeWebSocket,
        oneClick: () => false
      })
      const dappEvents = yield* PubSub.subscribe(dapp.events)
      const walletIncoming = yield* PubSub.subscribe(wallet.incoming)
      const pairing = yield* dapp.pair({
        optionalNamespaces: { eip155: { chains: [CHAIN], methods: ["personal_sign"], events: ["accountsChanged"] } },
        expiresAt: Date.now() + 300_000
      })
      yield* wallet.pair(pairing.uri)
      const proposal = yield* PubSub.take(walletIncoming)
      if (proposal._tag !== "SessionProposal") return yield* Effect.die(new Error(`a proposal was expected, got ${proposal._tag}`))
      yield* wallet.approveSession(proposal.id, {
        eip155: { chains: [CHAIN], accounts: [`${CHAIN}:${account.address}`], methods: ["personal_sign"], events: ["accountsChanged"] }
      })
      const { session } = yield* pairing.approval
      const sign = () =>
        Effect.runPromise(
          Effect.gen(function* () {
            const request = yield* PubSub.take(walletIncoming)
            if (request._tag !== "SessionRequest") return yield* Effect.die(new Error(`a request was expected, got ${request._tag}`))
            const [message] = request.params.request.params as [Hex]
            const signature = yield* Effect.promise(() => account.signMessage({ message: { raw: message } }))
            yield* wallet.respond(request.topic, request.id, { result: signature })
          }).pipe(Effect.timeout(WAIT))
        )
      return { dapp, wallet, topic: session.topic, address: account.address, dappEvents, walletIncoming, sign } satisfies Session
    }).pipe(Effect.timeout(WAIT))
  )

const personalSign = async (session: Session, text: string) => {
  const account = session.address
  const [signature] = await Promise.all([
    run(session.dapp.request({ method: "personal_sign", params: [stringToHex(text), account], chainId: CHAIN }).pipe(Effect.timeout(WAIT))),
    session.sign()
  ])
  return signature as Hex
}

/** The next session event the dapp hears, within the bound. */
const nextEvent = (session: Session) => Effect.runPromise(PubSub.take(session.dappEvents).pipe(Effect.timeout(WAIT)))

const emit = (session: Session, data: unknown) =>
  run(session.wallet.emitEvent(session.topic, CHAIN, { name: "accountsChanged", data }).pipe(Effect.timeout(WAIT)))

describe("relay nodes on one Redis", () => {
  it("carries a session between a dapp on node A and a wallet on node B: requests, events and the disconnect", async () => {
    const session = await pairAcrossNodes()
    expect(balancer.connections()).toContain(nodeA.port)

    const signature = await personalSign(session, "across two nodes")
    expect(await verifyMessage({ address: session.address, message: "across two nodes", signature })).toBe(true)

    await emit(session, [`${CHAIN}:${session.address}`])
    expect(await nextEvent(session)).toMatchObject({ _tag: "SessionEvent", name: "accountsChanged", data: [`${CHAIN}:${session.address}`] })

    await run(session.wallet.disconnect(session.topic, { code: 6000, message: "User disconnected." }).pipe(Effect.timeout(WAIT)))
    expect(await nextEvent(session)).toMatchObject({ _tag: "SessionDeleted", topic: session.topic })
  }, 60_000)

  it("lives through a Redis restart: a publish while it is down is refused with an error, and delivery across nodes resumes by itself", async () => {
    const session = await pairAcrossNodes()
    await redis.down()

    const refused = await run(Effect.flip(session.wallet.emitEvent(session.topic, CHAIN, { name: "accountsChanged", data: ["while down"] })).pipe(Effect.timeout(WAIT)))
    expect(refused.message).toMatch(/Redis .* is unavailable/)

    await redis.up()
    // The nodes reconnect on their own (at most 2 s apart): the publish is accepted again once they have.
    await run(
      session.wallet
        .emitEvent(session.topic, CHAIN, { name: "accountsChanged", data: ["after the restart"] })
        .pipe(
          Effect.retry({ schedule: Schedule.spaced("100 millis"), while: (error) => /Redis/.test(error.message) }),
          Effect.timeout(WAIT)
        )
    )
    // Delivered across the nodes; the refused one was never stored, so it never comes.
    expect(await nextEvent(session)).toMatchObject({ _tag: "SessionEvent", data: ["after the restart"] })
    const signature = await personalSign(session, "after Redis came back")
    expect(await verifyMessage({ address: session.address, message: "after Redis came back", signature })).toBe(true)
    expect(nodeA.output()).not.toMatch(/"level":"FATAL"/)
  }, 60_000)

  it("a node that cannot reach its Redis at start exits, naming it without its password", async () => {
    const closed = await freePort()
    const failed = await startRelayNode({ redisUrl: `redis://:redis-Pass-4417@127.0.0.1:${closed}` }).then(
      () => "started",
      (error: unknown) => String(error)
    )
    expect(failed).toContain(`Redis (redis://127.0.0.1:${closed}) is unavailable: connecting failed: connect ECONNREFUSED`)
    expect(failed).not.toContain("redis-Pass-4417")
  }, 60_000)

  it("loses nothing when node A dies mid-session: the dapp comes back through node B and gets what was published meanwhile", async () => {
    const session = await pairAcrossNodes()
    expect(balancer.connections()).toContain(nodeA.port)

    // Node A dies; until the balancer is told of B, the dapp cannot come back, and the wallet publishes meanwhile.
    balancer.backends.splice(0)
    await nodeA.kill()
    await emit(session, ["first while away"])
    await emit(session, ["second while away"])
    balancer.backends.push(nodeB.port)

    expect(await nextEvent(session)).toMatchObject({ _tag: "SessionEvent", data: ["first while away"] })
    expect(await nextEvent(session)).toMatchObject({ _tag: "SessionEvent", data: ["second while away"] })
    expect(balancer.connections()).toContain(nodeB.port)
    expect(balancer.connections()).not.toContain(nodeA.port)

    const signature = await personalSign(session, "through node B")
    expect(await verifyMessage({ address: session.address, message: "through node B", signature })).toBe(true)
  }, 60_000)
})
