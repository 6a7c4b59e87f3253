import { describe, expect, it } from "@effect/vitest"
import { Effect, Fiber, Option, Result, Stream, SubscriptionRef } from "effect"
import { TestClock } from "effect/testing"
import { WALLET_ANSWER_TIMEOUT_MS } from "../../../src/domain/constants"
import { localChainA, localChainB } from "../../../src/domain/networks"
import { decodeOptionsSync } from "../../../src/domain/Options"
import { testLayer } from "../../../src/layers/Test"
import { ConnectFlow } from "../../../src/services/ConnectFlow"
import { Connection } from "../../../src/services/Connection"
import { makeFakeWallet } from "../../../src/services/fakes/FakeWallet"
import { makeEip1193Connector } from "../../../src/services/connectors/eip6963"
import { Modal } from "../../../src/services/Modal"
import { Networks } from "../../../src/services/Networks"
import { WalletActions } from "../../../src/services/WalletActions"
import { visitorErrorOf } from "../../../src/ui/views/errorText"

const ALICE = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"
const options = decodeOptionsSync({ projectId: "p", networks: [localChainA, localChainB] })
const never = new Promise<void>(() => {})

/** A wallet that connects at once and then never answers a prompt; or never answers its connect prompt either. */
const hangingWallet = (connect: "answers" | "hangs") =>
  makeFakeWallet({
    id: "io.metamask",
    name: "MetaMask",
    rdns: "io.metamask",
    families: { eip155: { accounts: [{ address: ALICE, type: "eoa" }], chainId: 31337 } },
    answerGate: never,
    ...(connect === "hangs" ? { connectGate: never } : {})
  })

const statusOfEvm = Effect.flatMap(Connection, (c) => Effect.map(SubscriptionRef.get(c.state), (s) => s.namespaces.eip155?.account.status))

/** Lets the forked fibers reach their waits before test time moves. */
const settle = Effect.forEach(Array.from({ length: 20 }), () => Effect.yieldNow, { discard: true })

/** The error a wait ended with, once `WALLET_ANSWER_TIMEOUT_MS` of test time passed (and not one millisecond before). */
const endsAtTheBound = <A, E, R>(wait: Effect.Effect<A, E, R>) =>
  Effect.gen(function* () {
    const fiber = yield* Effect.forkChild(Effect.result(wait))
    yield* settle
    yield* TestClock.adjust(WALLET_ANSWER_TIMEOUT_MS - 1)
    yield* settle
    expect(fiber.pollUnsafe()).toBeUndefined()
    yield* TestClock.adjust(1)
    const result = yield* Fiber.join(fiber)
    if (Result.isSuccess(result)) throw new Error("the wait should have failed")
    return result.failure
  })

describe("every prompt the visitor answers in the wallet has a bound", () => {
  it.effect("a connect prompt never answered ends the flow with 'No answer from your wallet' and the family disconnected", () =>
    Effect.gen(function* () {
      const wallet = yield* hangingWallet("hangs")
      yield* Effect.gen(function* () {
        const flow = yield* ConnectFlow
        yield* (yield* Modal).open()
        const connecting = flow.choose({ connector: wallet.connector.info }).pipe(
          Effect.andThen(
            SubscriptionRef.changes(flow.progress).pipe(Stream.filter((p) => p._tag === "Failed"), Stream.runHead, Effect.map(Option.getOrThrow))
          ),
          Effect.flatMap((progress) => (progress._tag === "Failed" ? Effect.fail(progress.error) : Effect.die("not failed")))
        )
        const error = yield* endsAtTheBound(connecting)
        expect(error._tag).toBe("WalletNoAnswer")
        expect(visitorErrorOf(error)).toEqual({
          tag: "WalletNoAnswer",
          heading: "No answer from your wallet",
          message: "Your wallet did not answer in 5 minutes. Check that it is open and unlocked, then try again."
        })
        expect(yield* statusOfEvm).toBe("disconnected")
      }).pipe(Effect.provide(testLayer(options, { wallets: [wallet] })))
    })
  )

  it.effect("a host's connect() that is never answered fails at the bound instead of waiting for ever", () =>
    Effect.gen(function* () {
      const wallet = yield* hangingWallet("hangs")
      yield* Effect.gen(function* () {
        const flow = yield* ConnectFlow
        expect((yield* endsAtTheBound(flow.connect("io.metamask")))._tag).toBe("WalletNoAnswer")
        expect(yield* statusOfEvm).toBe("disconnected")
      }).pipe(Effect.provide(testLayer(options, { wallets: [wallet] })))
    })
  )

  it.effect("signing, sending, raw requests and switching network that are never answered each end at the bound", () =>
    Effect.gen(function* () {
      const wallet = yield* hangingWallet("answers")
      yield* Effect.gen(function* () {
        yield* (yield* ConnectFlow).connect("io.metamask")
        expect(yield* statusOfEvm).toBe("connected")
        const actions = yield* WalletActions
        const networks = yield* Networks
        expect((yield* endsAtTheBound(actions.signMessage("hello")))._tag).toBe("WalletNoAnswer")
        expect((yield* endsAtTheBound(actions.send({ to: ALICE, value: 1n })))._tag).toBe("WalletNoAnswer")
        expect((yield* endsAtTheBound(actions.request("eth_signTypedData_v4", [])))._tag).toBe("WalletNoAnswer")
        expect((yield* endsAtTheBound(networks.switchNetwork(localChainB.caipNetworkId)))._tag).toBe("WalletNoAnswer")
        // Nothing was lost: still connected, still on the first network.
        expect(yield* statusOfEvm).toBe("connected")
        expect((yield* networks.activeNetwork("eip155")).caipNetworkId).toBe(localChainA.caipNetworkId)
        expect(wallet.calls.filter((call) => !call.startsWith("connect"))).toEqual([
          "sign:hello",
          `send:${ALICE}:1`,
          "request:eth_signTypedData_v4",
          `switch:${localChainB.caipNetworkId}`
        ])
      }).pipe(Effect.provide(testLayer(options, { wallets: [wallet] })))
    })
  )
})

describe("bounds that fit the wait", () => {
  it.effect("eth_chainId asked right after the accounts needs no visitor: a wallet that never answers it fails the connect after 5 s, not 5 minutes", () =>
    Effect.gen(function* () {
      const asked: Array<string> = []
      const provider = {
        request: ({ method }: { readonly method: string }) => {
          asked.push(method)
          return method === "eth_requestAccounts" ? Promise.resolve([ALICE]) : new Promise<never>(() => {})
        }
      }
      const connector = makeEip1193Connector({ id: "io.hanging", name: "Hanging", type: "ANNOUNCED", chain: "eip155", chains: [] }, provider)
      const fiber = yield* Effect.forkChild(Effect.result(connector.connect([localChainA])))
      yield* settle
      yield* TestClock.adjust(4_999)
      expect(fiber.pollUnsafe()).toBeUndefined()
      yield* TestClock.adjust(1)
      const result = yield* Fiber.join(fiber)
      expect(asked).toEqual(["eth_requestAccounts", "eth_chainId"])
      expect(Result.isFailure(result) && result.failure._tag).toBe("WalletNoAnswer")
      expect(Result.isFailure(result) && result.failure.message).toBe("Your wallet did not answer in 5 seconds. Check that it is open and unlocked, then try again.")
    })
  )
})
