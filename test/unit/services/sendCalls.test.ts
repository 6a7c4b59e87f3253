/**
 * Batched calls for a host over the real core and a fake wallet (Layers, no mocks): the request `sendCalls` makes of
 * the wallet in front, and `waitForCalls` following `wallet_getCallsStatus` under TestClock — every second, to
 * success with the receipts, to `CallsFailed` with the wallet's status, to `CallsTimedOut` after 120 s.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Fiber } from "effect"
import { TestClock } from "effect/testing"
import { CALLS_STATUS, CallsFailed, CallsTimedOut } from "../../../src/domain/callsWire"
import { localChainA } from "../../../src/domain/networks"
import { decodeOptionsSync } from "../../../src/domain/Options"
import { testLayer } from "../../../src/layers/Test"
import { Connection } from "../../../src/services/Connection"
import { type FakeWallet, makeFakeWallet } from "../../../src/services/fakes/FakeWallet"
import { CALLS_POLL_MS, CALLS_TIMEOUT_MS, sendCalls, waitForCalls } from "../../../src/services/sendCalls"
import type { WalletActions } from "../../../src/services/WalletActions"

const ALICE = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"
const TOKEN = "0x5FbDB2315678afecb367f032d93F642f64180aa3"
const options = decodeOptionsSync({ projectId: "p", networks: [localChainA] })
const RECEIPT = { status: "0x1", transactionHash: `0x${"ab".repeat(32)}`, blockHash: `0x${"cd".repeat(32)}`, blockNumber: "0x5", gasUsed: "0x5208", logs: [] }

const status = (code: number, receipts?: ReadonlyArray<typeof RECEIPT>) => ({
  version: "2.0.0",
  id: "0xb47c4",
  chainId: "0x7a69",
  status: code,
  atomic: true,
  ...(receipts === undefined ? {} : { receipts })
})

const withAlice = <A, E>(body: (wallet: FakeWallet) => Effect.Effect<A, E, Connection | WalletActions>) =>
  Effect.gen(function* () {
    const wallet = yield* makeFakeWallet({ id: "test-wallet", families: { eip155: { accounts: [{ address: ALICE, type: "eoa" }], chainId: 31337 } } })
    return yield* Effect.provide(
      Effect.gen(function* () {
        yield* Effect.flatMap(Connection, (c) => c.connect({ connectorId: "test-wallet", networks: [localChainA] }))
        return yield* body(wallet)
      }),
      testLayer(options, { wallets: [wallet] })
    )
  })

/** The statuses the wallet gives in turn (the last one again and again); the number of times it was asked. */
const scriptStatuses = (wallet: FakeWallet, answers: ReadonlyArray<unknown>) => {
  let asked = 0
  wallet.script.requestAnswer = (method) => {
    if (method !== "wallet_getCallsStatus") return null
    asked++
    return answers[Math.min(asked, answers.length) - 1]
  }
  return () => asked
}

describe("sendCalls", () => {
  it.effect("asks the wallet in front for wallet_sendCalls 2.0.0 from its account on its chain; the batch id", () =>
    withAlice((wallet) =>
      Effect.gen(function* () {
        const asked: Array<unknown> = []
        wallet.script.requestAnswer = (method, params) => {
          asked.push([method, params])
          return { id: "0xb47c4" }
        }
        const id = yield* sendCalls({ calls: [{ to: TOKEN, data: "0x095ea7b3" }, { to: ALICE, value: 10n ** 16n }] })
        expect(id).toBe("0xb47c4")
        expect(asked).toEqual([
          [
            "wallet_sendCalls",
            [{ version: "2.0.0", chainId: "0x7a69", from: ALICE, atomicRequired: true, calls: [{ to: TOKEN, data: "0x095ea7b3" }, { to: ALICE, value: "0x2386f26fc10000" }] }]
          ]
        ])
      })
    )
  )
})

describe("waitForCalls", () => {
  it.effect("asks the status every second until it is final, and gives the receipts", () =>
    withAlice((wallet) =>
      Effect.gen(function* () {
        const asked = scriptStatuses(wallet, [status(100), status(100), status(200, [RECEIPT])])
        const following = yield* Effect.forkChild(waitForCalls("0xb47c4"))
        yield* Effect.yieldNow
        expect(asked()).toBe(1)
        yield* TestClock.adjust(CALLS_POLL_MS - 1)
        expect(asked()).toBe(1)
        yield* TestClock.adjust(1)
        expect(asked()).toBe(2)
        yield* TestClock.adjust(CALLS_POLL_MS)
        const final = yield* Fiber.join(following)
        expect(asked()).toBe(3)
        expect(final).toEqual(status(200, [RECEIPT]))
      })
    )
  )

  it.effect.each([
    [CALLS_STATUS.reverted, "The calls failed on chain: none of them took effect"],
    [CALLS_STATUS.partiallyReverted, "Some of the calls failed on chain and others went through"],
    [CALLS_STATUS.offchainFailure, "The wallet could not send the calls"]
  ] as const)("status %i fails with CallsFailed and its words", ([code, words]) =>
    withAlice((wallet) =>
      Effect.gen(function* () {
        scriptStatuses(wallet, [status(code, code === CALLS_STATUS.offchainFailure ? undefined : [{ ...RECEIPT, status: "0x0" }])])
        const error = yield* Effect.flip(waitForCalls("0xb47c4"))
        expect(error).toBeInstanceOf(CallsFailed)
        expect(error.message).toBe(words)
        expect(error).toMatchObject({ status: code, transactionHashes: code === CALLS_STATUS.offchainFailure ? [] : [RECEIPT.transactionHash] })
      })
    )
  )

  it.effect("a batch still pending after 120 s fails with CallsTimedOut, and is asked no more", () =>
    withAlice((wallet) =>
      Effect.gen(function* () {
        const asked = scriptStatuses(wallet, [status(100)])
        const following = yield* Effect.forkChild(waitForCalls("0xb47c4"))
        yield* TestClock.adjust(CALLS_TIMEOUT_MS - 1)
        expect(following.pollUnsafe()).toBeUndefined()
        yield* TestClock.adjust(1)
        const error = yield* Effect.flip(Fiber.join(following))
        expect(error).toBeInstanceOf(CallsTimedOut)
        expect(error.message).toBe("The calls were not final after 120 s; the wallet may still send them")
        const total = asked()
        yield* TestClock.adjust(10 * CALLS_POLL_MS)
        expect(asked()).toBe(total)
      })
    )
  )
})
