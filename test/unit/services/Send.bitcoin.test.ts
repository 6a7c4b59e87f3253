/**
 * The Send form for a Bitcoin account: what it holds comes from the chain through the bip122 adapter (the
 * blockchain service has no Bitcoin balances, spec 9, and is not asked), the receiver must be an address of the
 * network in front, and the transfer the wallet is asked for is in satoshis.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Option, Stream, SubscriptionRef } from "effect"
import { validateBitcoinReceiver } from "../../../src/domain/bitcoinAddress"
import { bitcoin, bitcoinRegtest } from "../../../src/domain/networks"
import { decodeOptionsSync } from "../../../src/domain/Options"
import { testLayer } from "../../../src/layers/Test"
import { Connection } from "../../../src/services/Connection"
import { makeFakeChainAdapter, makeFakeWallet } from "../../../src/services/fakes/FakeWallet"
import { currentRoute, Modal } from "../../../src/services/Modal"
import { Send } from "../../../src/services/Send"
import { chosenAsset, type SendState } from "../../../src/services/sendState"
import { makeFakeHttp } from "../support/fakeHttpClient"

const PAYMENT = "bcrt1qmxynpxsd6t5vv5m2c0uq76jre50y7pmlzplv9n"
const RECEIVER = "bcrt1psuarzj6gsufxv9lz2qk3s49ralqdj4qat536nspuetz60c8jx23s39dfqf"
const MAINNET = "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4"

const options = decodeOptionsSync({ projectId: "test-project", networks: [bitcoinRegtest], endpoints: { blockchainApi: "http://api.test/" } })

describe("Send from a Bitcoin account", () => {
  it("the receiver is an address of the network in front", () => {
    expect(validateBitcoinReceiver(RECEIVER, bitcoinRegtest.caipNetworkId)._tag).toBe("Success")
    expect(validateBitcoinReceiver(MAINNET, bitcoinRegtest.caipNetworkId)).toMatchObject({ _tag: "Failure", failure: "Enter a Bitcoin regtest address" })
    expect(validateBitcoinReceiver(MAINNET, bitcoin.caipNetworkId)._tag).toBe("Success")
    expect(validateBitcoinReceiver(RECEIVER, bitcoin.caipNetworkId)).toMatchObject({ _tag: "Failure", failure: "Enter a Bitcoin address" })
  })

  it.effect("lists BTC with the balance the chain holds, checks the receiver, and asks the wallet for satoshis", () =>
    Effect.gen(function* () {
      const http = makeFakeHttp(() => ({ status: 404, json: { error: "not found" } }))
      const wallet = yield* makeFakeWallet({
        id: "btc-wallet",
        families: { bip122: { accounts: [{ address: PAYMENT, type: "payment" }], chainId: bitcoinRegtest.id } }
      })
      const fake = makeFakeChainAdapter("bip122", { fee: 300n })
      const adapter = {
        ...fake,
        balances: () => Effect.succeed([{ symbol: "BTC", decimals: 8, value: 150_000_000n, formatted: "1.5" }])
      }
      yield* Effect.provide(
        Effect.gen(function* () {
          yield* Effect.flatMap(Connection, (c) => c.connect({ connectorId: "btc-wallet", networks: [bitcoinRegtest] }))
          yield* Effect.flatMap(Modal, (modal) => modal.open())
          const send = yield* Send
          yield* send.open()
          const ready = yield* SubscriptionRef.changes(send.state).pipe(
            Stream.filter((state: SendState) => state.assets._tag === "Ready"),
            Stream.runHead,
            Effect.map(Option.getOrThrow)
          )
          expect(chosenAsset(ready)).toMatchObject({ kind: "native", symbol: "BTC", decimals: 8, balance: 150_000_000n })
          expect(http.requests.filter((request) => request.url.pathname.includes("balance"))).toEqual([])
          yield* send.setAmount("0.25")
          yield* send.setReceiver(MAINNET)
          yield* send.review
          expect((yield* SubscriptionRef.get(send.state)).issues.receiver).toBe("Enter a Bitcoin regtest address")
          yield* send.setReceiver(RECEIVER)
          yield* send.review
          const modal = yield* Modal
          expect(currentRoute(yield* SubscriptionRef.get(modal.state)).view).toBe("SendReview")
          yield* send.confirm
          expect(wallet.calls).toContain(`send:${RECEIVER}:25000000`)
        }),
        testLayer(options, { wallets: [wallet], httpClient: http.layer, adapters: [adapter] })
      )
    })
  )
})
