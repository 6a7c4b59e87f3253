/**
 * The Onramp service over a fake wallet and a fake blockchain service (Layers, no mocks): the amount checked against
 * the card limits before any request, the quote and the provider's URL after 300 ms, and the watch for the purchase —
 * 'Not received yet' after its bound by the TestClock, then Check again seeing the coins arrive.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Fiber, Option, Stream, SubscriptionRef } from "effect"
import { TestClock } from "effect/testing"
import { ONRAMP_WATCH_MS } from "../../../src/domain/onramp"
import { localChainA } from "../../../src/domain/networks"
import { decodeOptionsSync } from "../../../src/domain/Options"
import { testLayer } from "../../../src/layers/Test"
import { Connection } from "../../../src/services/Connection"
import { makeFakeWallet } from "../../../src/services/fakes/FakeWallet"
import { currentRoute, Modal } from "../../../src/services/Modal"
import { Onramp } from "../../../src/services/Onramp"
import type { OnrampState } from "../../../src/services/onrampState"
import { type FakeHttp, makeFakeHttp } from "../support/fakeHttpClient"

const ALICE = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"
const WUSD = "0x5FbDB2315678afecb367f032d93F642f64180aa3"
const options = decodeOptionsSync({ projectId: "test-project", networks: [localChainA], endpoints: { blockchainApi: "http://api.test/" } })

/** The service; `held.wusd` is what the balance endpoint says Alice holds (a test moves it to make the coins arrive). */
const service = (held: { wusd: string }) =>
  makeFakeHttp((request) => {
    const path = request.url.pathname
    if (path === "/v1/supported-chains") return { status: 200, json: { http: ["eip155:31337"], ws: [] } }
    if (path.endsWith("/balance")) {
      return {
        status: 200,
        json: {
          balances: [
            { name: "Wallet Runtime USD", symbol: "WUSD", chainId: "eip155:31337", address: `eip155:31337:${WUSD}`, price: 1, value: 1, quantity: { decimals: "6", numeric: held.wusd }, iconUrl: "" }
          ]
        }
      }
    }
    if (path === "/v1/onramp/options") {
      return {
        status: 200,
        json: {
          paymentCurrencies: [{ id: "USD", limits: [{ id: "card", min: 10, max: 7500 }] }],
          purchaseCurrencies: [
            { symbol: "ETH", name: "Ether", networks: ["eip155:31337"] },
            { symbol: "WUSD", name: "Wallet Runtime USD", networks: ["eip155:31337"] }
          ],
          providerFeePercent: { min: 1, max: 2 }
        }
      }
    }
    if (path === "/v1/onramp/quote") {
      return {
        status: 200,
        json: {
          purchaseAmount: { amount: "49.15", currency: "WUSD" },
          paymentTotal: { amount: "50", currency: "USD" },
          providerFee: { amount: "0.75", currency: "USD" },
          networkFee: { amount: "0.1", currency: "USD" }
        }
      }
    }
    if (path === "/v1/generators/onrampurl") return { status: 200, json: { url: "http://127.0.0.1:9/?asset=WUSD" } }
    return { status: 404, json: { error: "not found" } }
  })

const run = <A, E>(http: FakeHttp, body: Effect.Effect<A, E, Onramp | Modal | Connection>) =>
  Effect.gen(function* () {
    const wallet = yield* makeFakeWallet({ id: "test-wallet", families: { eip155: { accounts: [{ address: ALICE, type: "eoa" }], chainId: 31337 } } })
    return yield* Effect.provide(
      Effect.gen(function* () {
        yield* Effect.flatMap(Connection, (c) => c.connect({ connectorId: "test-wallet", networks: [localChainA] }))
        yield* Effect.flatMap(Modal, (modal) => modal.open())
        return yield* body
      }),
      testLayer(options, { wallets: [wallet], httpClient: http.layer })
    )
  })

const until = (condition: (state: OnrampState) => boolean) =>
  Effect.flatMap(Onramp, (onramp) => SubscriptionRef.changes(onramp.state).pipe(Stream.filter(condition), Stream.runHead, Effect.map(Option.getOrThrow)))
const current = Effect.flatMap(Onramp, (onramp) => SubscriptionRef.get(onramp.state))

describe("Onramp", () => {
  it.effect("opens Buy on the network's stablecoin; an amount outside the card limits is refused before any request", () => {
    const http = service({ wusd: "0" })
    return run(
      http,
      Effect.gen(function* () {
        const onramp = yield* Onramp
        yield* onramp.open
        expect(currentRoute(yield* SubscriptionRef.get((yield* Modal).state)).view).toBe("Buy")
        const state = yield* until((s) => s.options !== undefined)
        expect(state.asset).toBe("WUSD")
        for (const [text, words] of [
          ["5", "Enter an amount between 10 and 7,500 USD"],
          ["7500.5", "Enter an amount between 10 and 7,500 USD"],
          ["12.345", "Enter the amount as a number with at most 2 decimals, like 50"]
        ] as const) {
          yield* onramp.setAmount(text)
          expect((yield* current).amountIssue).toBe(words)
        }
        yield* TestClock.adjust(1_000)
        expect(http.to("/v1/onramp/quote")).toHaveLength(0)
      })
    )
  })

  it.effect("quotes 300 ms after the last keystroke with the provider's page; the purchase is 'Not received yet' after the bound, then arrives on Check again", () => {
    const held = { wusd: "0" }
    const http = service(held)
    return run(
      http,
      Effect.gen(function* () {
        const onramp = yield* Onramp
        yield* onramp.open
        yield* until((s) => s.options !== undefined)
        yield* onramp.setAmount("50")
        const quoted = yield* Effect.forkChild(until((s) => s.quote._tag === "Ready"))
        yield* TestClock.adjust(300)
        const state = yield* Fiber.join(quoted)
        expect(state.quote._tag === "Ready" ? state.quote.url : "").toBe("http://127.0.0.1:9/?asset=WUSD")
        expect(http.to("/v1/generators/onrampurl")[0]?.body).toMatchObject({
          destinationWallets: [{ address: ALICE, blockchains: ["eip155:31337"], assets: ["WUSD"] }],
          presetFiatAmount: 50,
          presetCryptoAmount: 49.15
        })

        yield* onramp.started
        expect((yield* current).purchase).toEqual({ _tag: "Watching", symbol: "WUSD", baseline: 0 })
        const gaveUp = yield* Effect.forkChild(until((s) => s.purchase._tag === "NotReceived"))
        yield* TestClock.adjust(ONRAMP_WATCH_MS)
        expect((yield* Fiber.join(gaveUp)).purchase._tag).toBe("NotReceived")

        held.wusd = "49.15"
        yield* onramp.checkAgain
        const arrived = yield* Effect.forkChild(until((s) => s.purchase._tag === "Received"))
        yield* TestClock.adjust(3_000)
        expect((yield* Fiber.join(arrived)).purchase).toEqual({ _tag: "Received", symbol: "WUSD", amount: 49.15 })
      })
    )
  })
})
