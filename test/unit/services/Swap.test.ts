/**
 * The Swap service over a fake wallet and a fake blockchain service (Layers, no mocks): what it asks the service and
 * when (nothing for an amount that breaks a rule; a quote 300 ms after the last keystroke, by the TestClock), the
 * quote's numbers, no liquidity, the approval step and its refusal, and a service answering garbage.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Fiber, Option, Stream, SubscriptionRef } from "effect"
import { TestClock } from "effect/testing"
import { UserRejected } from "../../../src/domain/errors"
import { localChainA } from "../../../src/domain/networks"
import { decodeOptionsSync } from "../../../src/domain/Options"
import { testLayer } from "../../../src/layers/Test"
import { Connection } from "../../../src/services/Connection"
import { type FakeWallet, makeFakeWallet } from "../../../src/services/fakes/FakeWallet"
import { currentRoute, Modal } from "../../../src/services/Modal"
import { SERVICE_REQUEST_TIMEOUT_MS } from "../../../src/services/serviceHttp"
import { Swap } from "../../../src/services/Swap"
import type { SwapState } from "../../../src/services/swapState"
import { type FakeHttp, makeFakeHttp, type RecordedRequest } from "../support/fakeHttpClient"

const ALICE = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"
const WUSD = "0x5FbDB2315678afecb367f032d93F642f64180aa3"
const WUSDT = "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512"
const ROUTER = "0xd59a1F875D8747f5a4492769ee27b10A91052b81"
const NATIVE = "eip155:31337:0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee"

const options = decodeOptionsSync({ projectId: "test-project", networks: [localChainA], endpoints: { blockchainApi: "http://api.test/" } })

interface Market {
  /** WUSD per ETH the fake pool pays. */
  readonly rate?: number
  readonly allowance?: bigint
  readonly noLiquidity?: boolean
  readonly garbage?: boolean
  /** The quotes endpoint never answers. */
  readonly stalls?: boolean
}

const service = (market: Market = {}) =>
  makeFakeHttp((request: RecordedRequest) => {
    const path = request.url.pathname
    const q = request.url.searchParams
    if (path === "/v1/supported-chains") return { status: 200, json: { http: ["eip155:31337"], ws: [] } }
    if (path.endsWith("/balance")) {
      return {
        status: 200,
        json: {
          balances: [
            { name: "Ether", symbol: "ETH", chainId: "eip155:31337", address: NATIVE, price: 3000, value: 6000, quantity: { decimals: "18", numeric: "2" }, iconUrl: "" },
            { name: "Wallet Runtime USD", symbol: "WUSD", chainId: "eip155:31337", address: `eip155:31337:${WUSD}`, price: 1, value: 100, quantity: { decimals: "6", numeric: "100" }, iconUrl: "" }
          ]
        }
      }
    }
    if (path === "/v1/convert/tokens") {
      if (market.garbage === true) return { status: 200, json: { tokens: "lots" } }
      return {
        status: 200,
        json: {
          tokens: [
            { name: "Ether", symbol: "ETH", address: NATIVE, decimals: 18, logoUri: "" },
            { name: "Wallet Runtime USD", symbol: "WUSD", address: `eip155:31337:${WUSD}`, decimals: 6, logoUri: "" },
            { name: "Wallet Runtime Tether", symbol: "WUSDT", address: `eip155:31337:${WUSDT}`, decimals: 6, logoUri: "" }
          ]
        }
      }
    }
    if (path === "/v1/convert/quotes") {
      if (market.stalls === true) return "hang"
      if (market.noLiquidity === true) return { status: 200, json: { quotes: [] } }
      const amount = BigInt(q.get("amount") ?? "0")
      const fromEth = (q.get("from") ?? "") === NATIVE
      // ETH→token at `rate`; token→token 1:1 less 0.3 %.
      const out = fromEth ? (amount * BigInt(market.rate ?? 2900)) / 10n ** 12n : (amount * 997n) / 1000n
      return { status: 200, json: { quotes: [{ fromAmount: amount.toString(), toAmount: out.toString() }] } }
    }
    if (path === "/v1/convert/gas-price") return { status: 200, json: { standard: "1000000000", fast: "1250000000", instant: "1500000000" } }
    if (path === "/v1/convert/allowance") return { status: 200, json: { allowance: String(market.allowance ?? 0n) } }
    if (path === "/v1/convert/build-approve") {
      return { status: 200, json: { tx: { from: `eip155:31337:${ALICE}`, to: `eip155:31337:${WUSD}`, data: "0x095ea7b3", value: "0" } } }
    }
    if (path === "/v1/convert/build-transaction") {
      return { status: 200, json: { tx: { from: `eip155:31337:${ALICE}`, to: `eip155:31337:${ROUTER}`, data: "0x7ff36ab5", value: "500000000000000000", gas: "150000" } } }
    }
    return { status: 404, json: { error: "not found" } }
  })

const alice = () => makeFakeWallet({ id: "test-wallet", families: { eip155: { accounts: [{ address: ALICE, type: "eoa" }], chainId: 31337 } } })

const withAlice = <A, E>(wallet: FakeWallet, http: FakeHttp, body: Effect.Effect<A, E, Swap | Modal | Connection>) =>
  Effect.provide(
    Effect.gen(function* () {
      yield* Effect.flatMap(Connection, (c) => c.connect({ connectorId: "test-wallet", networks: [localChainA] }))
      yield* Effect.flatMap(Modal, (modal) => modal.open())
      return yield* body
    }),
    testLayer(options, { wallets: [wallet], httpClient: http.layer })
  )

const swapState = Effect.flatMap(Swap, (swap) => SubscriptionRef.get(swap.state))
const until = (condition: (state: SwapState) => boolean) =>
  Effect.flatMap(Swap, (swap) => SubscriptionRef.changes(swap.state).pipe(Stream.filter(condition), Stream.runHead, Effect.map(Option.getOrThrow)))
const tokensReady = until((s) => s.tokens._tag === "Ready")
const quoted = until((s) => s.quote._tag === "Ready" || s.quote._tag === "Failed")
const view = Effect.flatMap(Modal, (modal) => Effect.map(SubscriptionRef.get(modal.state), (state) => currentRoute(state).view))

describe("Swap", () => {
  it.effect("opens the Swap view selling ETH for the next token, each with the account's balance", () =>
    Effect.gen(function* () {
      yield* withAlice(
        yield* alice(),
        service(),
        Effect.gen(function* () {
          const swap = yield* Swap
          yield* swap.open
          expect(yield* view).toBe("Swap")
          const state = yield* tokensReady
          expect(state.choices.map((c) => [c.symbol, c.balance])).toEqual([
            ["ETH", 2n * 10n ** 18n],
            ["WUSD", 100_000_000n],
            ["WUSDT", 0n]
          ])
          expect([state.from, state.to]).toEqual([NATIVE, `eip155:31337:${WUSD}`])
        })
      )
    })
  )

  it.effect("an amount of 0, beyond the balance or with more decimals than the token is refused before any quote is asked", () =>
    Effect.gen(function* () {
      const http = service()
      yield* withAlice(
        yield* alice(),
        http,
        Effect.gen(function* () {
          const swap = yield* Swap
          yield* swap.open
          yield* tokensReady
          for (const [text, words] of [
            ["0", "Enter an amount above 0"],
            ["3", "Insufficient ETH balance"],
            ["0.1234567890123456789", "ETH has at most 18 decimals"],
            ["abc", "Enter the amount as a number, like 0.5"]
          ] as const) {
            yield* swap.setAmount(text)
            expect((yield* swapState).amountIssue).toBe(words)
          }
          yield* TestClock.adjust(1_000)
          expect(http.to("/v1/convert/quotes")).toHaveLength(0)
        })
      )
    })
  )

  it.effect("quotes 300 ms after the last keystroke, once, with the rate, the fee in USD and the minimum after 1 %", () =>
    Effect.gen(function* () {
      const http = service({ rate: 2900 })
      yield* withAlice(
        yield* alice(),
        http,
        Effect.gen(function* () {
          const swap = yield* Swap
          yield* swap.open
          yield* tokensReady
          yield* swap.setAmount("0.")
          yield* swap.setAmount("0.5")
          yield* TestClock.adjust(299)
          expect(http.to("/v1/convert/quotes")).toHaveLength(0)
          const waiting = yield* Effect.forkChild(quoted)
          yield* TestClock.adjust(1)
          const state = yield* Fiber.join(waiting)
          expect(http.to("/v1/convert/quotes").map((r) => r.url.searchParams.get("amount"))).toEqual(["500000000000000000"])
          if (state.quote._tag !== "Ready") throw new Error("no quote")
          expect(state.quote.toAmount).toBe(1_450_000_000n)
          expect(state.quote.summary.rate).toBe("1 ETH = 2,900 WUSD")
          expect(state.quote.summary.minimumReceived).toBe(1_435_500_000n)
          // 150 000 gas at 1 gwei, ETH at 3000: $0.45.
          expect(state.quote.summary.networkFeeUsd).toBeCloseTo(0.45, 6)
          // 1500 USD sold for 1450 USD bought.
          expect(state.quote.summary.priceImpactPercent).toBeCloseTo(3.333, 2)
          expect(state.quote.approved).toBe(true)
        })
      )
    })
  )

  it.effect("no quote is no liquidity, in the visitor's words", () =>
    Effect.gen(function* () {
      yield* withAlice(
        yield* alice(),
        service({ noLiquidity: true }),
        Effect.gen(function* () {
          const swap = yield* Swap
          yield* swap.open
          yield* tokensReady
          yield* swap.setAmount("1")
          const waiting = yield* Effect.forkChild(quoted)
          yield* TestClock.adjust(300)
          const state = yield* Fiber.join(waiting)
          expect(state.quote._tag === "Failed" ? state.quote.error._tag : state.quote._tag).toBe("SwapNoLiquidity")
        })
      )
    })
  )

  it.effect("a token with a short allowance asks an approval first; refused in the wallet, it says so and sends nothing more", () =>
    Effect.gen(function* () {
      const wallet = yield* alice()
      const http = service({ allowance: 0n })
      yield* withAlice(
        wallet,
        http,
        Effect.gen(function* () {
          const swap = yield* Swap
          yield* swap.open
          yield* tokensReady
          yield* swap.choose("from", `eip155:31337:${WUSD}`)
          yield* swap.choose("to", `eip155:31337:${WUSDT}`)
          yield* swap.setAmount("10")
          const waiting = yield* Effect.forkChild(quoted)
          yield* TestClock.adjust(300)
          const state = yield* Fiber.join(waiting)
          expect(state.quote._tag === "Ready" && state.quote.approved).toBe(false)
          wallet.script.sendError = new UserRejected({ code: 4001 })
          yield* swap.approve
          const refused = yield* until((s) => s.step._tag === "Failed")
          expect(refused.step._tag === "Failed" ? refused.step.error.message : "").toBe(
            "You declined in your wallet to let the swap use your WUSD. Approve it to swap."
          )
          expect(wallet.calls.filter((call) => call.startsWith("send:"))).toEqual([`send:${WUSD}:0`])
          expect(http.to("/v1/convert/build-transaction")).toHaveLength(0)
        })
      )
    })
  )

  it.effect("a service answering garbage: the form says it could not read the answer", () =>
    Effect.gen(function* () {
      yield* withAlice(
        yield* alice(),
        service({ garbage: true }),
        Effect.gen(function* () {
          const swap = yield* Swap
          yield* swap.open
          const state = yield* until((s) => s.tokens._tag === "Failed")
          expect(state.tokens._tag === "Failed" ? state.tokens.error.message : "").toBe("The swap service's answer could not be read. Please try again.")
        })
      )
    })
  )

  it.effect("a quote that never comes: the wait is bounded, then the form says the service did not answer", () =>
    Effect.gen(function* () {
      yield* withAlice(
        yield* alice(),
        service({ stalls: true }),
        Effect.gen(function* () {
          const swap = yield* Swap
          yield* swap.open
          yield* tokensReady
          yield* swap.setAmount("1")
          const waiting = yield* Effect.forkChild(until((s) => s.quote._tag === "Failed"))
          yield* TestClock.adjust(300 + SERVICE_REQUEST_TIMEOUT_MS)
          const state = yield* Fiber.join(waiting)
          expect(state.quote._tag === "Failed" ? state.quote.error.message : "").toBe("The swap service did not answer. Please try again.")
        })
      )
    })
  )

  it.effect("the quote shown is asked again every 15 s while the Swap view is shown, and not once the modal is closed", () =>
    Effect.gen(function* () {
      const http = service()
      yield* withAlice(
        yield* alice(),
        http,
        Effect.gen(function* () {
          const swap = yield* Swap
          yield* swap.open
          yield* tokensReady
          yield* swap.setAmount("0.5")
          const waiting = yield* Effect.forkChild(quoted)
          yield* TestClock.adjust(300)
          yield* Fiber.join(waiting)
          expect(http.to("/v1/convert/quotes")).toHaveLength(1)
          yield* TestClock.adjust(15_000)
          yield* until((s) => s.quote._tag === "Ready")
          expect(http.to("/v1/convert/quotes")).toHaveLength(2)
          yield* Effect.flatMap(Modal, (modal) => modal.close)
          yield* TestClock.adjust(60_000)
          expect(http.to("/v1/convert/quotes")).toHaveLength(2)
        })
      )
    })
  )

  it.effect("a quote older than 30 s is not swapped: the visitor is told it expired, and a new one is asked", () =>
    Effect.gen(function* () {
      const http = service()
      yield* withAlice(
        yield* alice(),
        http,
        Effect.gen(function* () {
          const swap = yield* Swap
          yield* swap.open
          yield* tokensReady
          yield* swap.setAmount("0.5")
          const waiting = yield* Effect.forkChild(quoted)
          yield* TestClock.adjust(300)
          yield* Fiber.join(waiting)
          // A host's own swap UI (useSwap) with the modal closed: nothing refreshes the quote.
          yield* Effect.flatMap(Modal, (modal) => modal.close)
          yield* TestClock.adjust(31_000)
          yield* swap.swap
          const state = yield* until((s) => s.step._tag === "Failed")
          expect(state.step._tag === "Failed" ? state.step.error.message : "").toBe("The quote expired. Check the new quote, then swap again.")
          expect(http.to("/v1/convert/build-transaction")).toHaveLength(0)
          // The new quote, taken after the old one expired.
          yield* until((s) => s.quote._tag === "Ready" && s.quote.at >= 31_000)
          expect(http.to("/v1/convert/quotes")).toHaveLength(2)
        })
      )
    })
  )
})
