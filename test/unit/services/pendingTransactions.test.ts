import { describe, expect, it } from "@effect/vitest"
import { Deferred, Effect, Fiber, Option, Stream, SubscriptionRef } from "effect"
import { TestClock } from "effect/testing"
import { localChainA } from "../../../src/domain/networks"
import { decodeOptionsSync } from "../../../src/domain/Options"
import { TransactionReverted } from "../../../src/domain/errors"
import { withPending } from "../../../src/domain/portfolioView"
import { testLayer } from "../../../src/layers/Test"
import type { ChainAdapter, TransactionConfirmation, WaitError } from "../../../src/services/ChainAdapter"
import { Connection } from "../../../src/services/Connection"
import { makeFakeChainAdapter, makeFakeWallet } from "../../../src/services/fakes/FakeWallet"
import { Notifications } from "../../../src/services/Notifications"
import { Portfolio } from "../../../src/services/Portfolio"
import { WalletActions } from "../../../src/services/WalletActions"

const ALICE = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"
const BOB = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8"
const options = decodeOptionsSync({ projectId: "p", networks: [localChainA] })

/** An EVM adapter whose transactions become final when the test says, with the outcome it gives. */
const gatedAdapter = Effect.gen(function* () {
  const outcome = yield* Deferred.make<TransactionConfirmation, WaitError>()
  const waits: Array<string> = []
  const adapter: ChainAdapter = {
    ...makeFakeChainAdapter("eip155"),
    waitForTransaction: (hash) => Effect.suspend(() => (waits.push(hash), Deferred.await(outcome)))
  }
  return { adapter, outcome, waits }
})

const connected = (adapter: ChainAdapter) =>
  Effect.gen(function* () {
    const wallet = yield* makeFakeWallet({ families: { eip155: { accounts: [{ address: ALICE, type: "eoa" }], chainId: 31337 } } })
    return testLayer(options, { wallets: [wallet], adapters: [adapter] })
  })

const pendingUntil = (length: number) =>
  Effect.flatMap(WalletActions, (actions) =>
    SubscriptionRef.changes(actions.pending).pipe(Stream.filter((list) => list.length === length), Stream.runHead)
  )
const snackbar = Effect.flatMap(Notifications, (n) => Effect.map(SubscriptionRef.get(n.state), (s) => s.snackbar?.message))

describe("the visitor's own transactions", () => {
  it.effect("a send is listed as pending at once (amount, from, to) and followed to its end without anyone waiting", () =>
    Effect.gen(function* () {
      const gate = yield* gatedAdapter
      yield* Effect.gen(function* () {
        yield* (yield* Connection).connect({ connectorId: "injected", networks: [localChainA] })
        const actions = yield* WalletActions
        const hash = yield* actions.send({ to: BOB, value: 1_500_000_000_000_000_000n })
        expect(yield* snackbar).toBe("Transaction started")
        const [entry] = yield* SubscriptionRef.get(actions.pending)
        expect(entry?.caipAddress).toBe(`eip155:31337:${ALICE}`)
        expect(entry?.transaction).toMatchObject({
          id: hash,
          metadata: { status: "pending", operationType: "send", sentFrom: ALICE, sentTo: BOB, hash },
          transfers: [{ fungible_info: { symbol: "ETH" }, direction: "out", quantity: { numeric: "1.5" } }]
        })
        const revision = yield* SubscriptionRef.get((yield* Portfolio).revision)
        // Nobody waits for it: the follower does, once.
        yield* Effect.yieldNow
        expect(gate.waits).toEqual([hash])
        const final: TransactionConfirmation = { namespace: "eip155", hash, blockNumber: 7n, status: "success" }
        yield* Deferred.succeed(gate.outcome, final)
        yield* pendingUntil(0)
        // Then the balances are read again (the blockchain service's code may be fetched first) and `revision` moves.
        const moved = yield* SubscriptionRef.changes((yield* Portfolio).revision).pipe(
          Stream.filter((value) => value !== revision),
          Stream.runHead
        )
        expect(moved).toEqual(Option.some(revision + 1))
        // A host asking afterwards gets the chain's answer again.
        expect((yield* actions.waitForTransaction(hash)).blockNumber).toBe(7n)
      }).pipe(Effect.provide(yield* connected(gate.adapter)))
    })
  )

  it.effect("waiting for a sent transaction joins its follower; a revert is said and it leaves the pending list", () =>
    Effect.gen(function* () {
      const gate = yield* gatedAdapter
      yield* Effect.gen(function* () {
        yield* (yield* Connection).connect({ connectorId: "injected", networks: [localChainA] })
        const actions = yield* WalletActions
        const hash = yield* actions.send({ to: BOB, value: 1n })
        const waiting = yield* Effect.forkChild(Effect.flip(actions.waitForTransaction(hash)))
        yield* Effect.yieldNow
        yield* Deferred.fail(gate.outcome, new TransactionReverted({ hash, reason: "Ownable: caller is not the owner" }))
        expect((yield* Fiber.join(waiting))._tag).toBe("TransactionReverted")
        expect(gate.waits).toEqual([hash])
        yield* pendingUntil(0)
        // The snackbar that said 'Transaction started' is replaced after its 150 ms.
        yield* TestClock.adjust("200 millis")
        expect(yield* snackbar).toBe("Transaction failed: Ownable: caller is not the owner")
      }).pipe(Effect.provide(yield* connected(gate.adapter)))
    })
  )
})

describe("the activity list with pending transactions", () => {
  const row = (hash: string, status: "pending" | "confirmed") => ({
    id: hash,
    metadata: { minedAt: "", chain: "eip155:31337", operationType: "send" as const, status, sentFrom: ALICE, sentTo: BOB, hash },
    transfers: []
  })

  it("puts the visitor's waiting transactions on top, and a listed one only once (the service's row)", () => {
    const listed = [row("0x2", "confirmed"), row("0x1", "confirmed")]
    expect(withPending(listed, [row("0x3", "pending"), row("0x2", "pending")]).map((t) => `${t.id}:${t.metadata.status}`)).toEqual([
      "0x3:pending",
      "0x2:confirmed",
      "0x1:confirmed"
    ])
  })
})
