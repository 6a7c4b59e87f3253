/**
 * The Onramp service's implementation, in its own chunk: fetched the first time the Buy form is used. See `Onramp.ts`
 * for what it decides.
 */
import { Effect, FiberHandle, Option, Result, Schema, SubscriptionRef } from "effect"
import type { CaipAddress } from "../domain/Caip"
import { HttpStatusError } from "../domain/errors"
import { checkOnrampAmount, ONRAMP_QUOTE_DEBOUNCE_MS, ONRAMP_WATCH_INTERVAL_MS, ONRAMP_WATCH_MS, purchasableOn } from "../domain/onramp"
import { OnrampUnavailable } from "../domain/swapErrors"
import { Analytics } from "./Analytics"
import { BlockchainApi } from "./BlockchainApi"
import { Connection } from "./Connection"
import { Modal } from "./Modal"
import { Networks } from "./Networks"
import { initialOnrampState, type OnrampService, type OnrampState } from "./onrampState"
import { Portfolio } from "./Portfolio"

const ServiceWords = Schema.Struct({ error: Schema.String })

const unavailable = (error: { readonly _tag: string; readonly message: string }): OnrampUnavailable => {
  if (error instanceof HttpStatusError && error.body !== undefined) {
    const words = Schema.decodeUnknownOption(Schema.fromJsonString(ServiceWords))(error.body)
    if (Option.isSome(words)) return new OnrampUnavailable({ reason: words.value.error })
  }
  if (error._tag === "ServiceUnreachable") return new OnrampUnavailable({ reason: "The on-ramp service did not answer. Please try again." })
  if (error._tag === "ServiceAnswerInvalid") return new OnrampUnavailable({ reason: "The on-ramp service's answer could not be read. Please try again." })
  return new OnrampUnavailable({ reason: error.message })
}

/** The Buy form over the services' on-ramp endpoints and the account's balances, its state in `state`. */
export const makeOnramp = (state: SubscriptionRef.SubscriptionRef<OnrampState>) =>
  Effect.gen(function* () {
    const connection = yield* Connection
    const networks = yield* Networks
    const portfolio = yield* Portfolio
    const api = yield* BlockchainApi
    const modal = yield* Modal
    const analytics = yield* Analytics
    const quoting = yield* FiberHandle.make<void, never>()
    const watching = yield* FiberHandle.make<void, never>()

    const update = (f: (s: OnrampState) => OnrampState) => SubscriptionRef.update(state, f)

    const accountInFront = Effect.gen(function* () {
      const current = yield* SubscriptionRef.get(connection.state)
      const namespace = current.activeNamespace
      const account = namespace === undefined ? undefined : current.namespaces[namespace]?.account
      if (namespace === undefined || account?.status !== "connected" || account.caipAddress === undefined || account.address === undefined) return undefined
      const network = yield* networks.activeNetwork(namespace).pipe(Effect.option)
      return Option.isNone(network) ? undefined : { caipAddress: account.caipAddress, address: account.address, network: network.value }
    })

    const start = Effect.gen(function* () {
      yield* FiberHandle.clear(quoting)
      yield* FiberHandle.clear(watching)
      const account = yield* accountInFront
      if (account === undefined) return yield* SubscriptionRef.set(state, initialOnrampState)
      yield* SubscriptionRef.set(state, { ...initialOnrampState, caipAddress: account.caipAddress, network: account.network })
      const options = yield* api.onrampOptions
      const offered = purchasableOn(options, account.network.caipNetworkId)
      // The network's stablecoin first when there is one: a visitor buying with dollars most often wants dollars.
      const asset = offered.find((c) => /USD/.test(c.symbol))?.symbol ?? offered[0]?.symbol
      yield* update((s) => (s.caipAddress === account.caipAddress ? { ...s, options, asset } : s))
    })

    const quoteNow = Effect.gen(function* () {
      const s = yield* SubscriptionRef.get(state)
      const account = yield* accountInFront
      if (s.options === undefined || s.asset === undefined || s.network === undefined || account === undefined) return
      const amount = checkOnrampAmount(s.amount, s.currency, s.options)
      if (Result.isFailure(amount)) return
      const asked = { amount: s.amount, asset: s.asset, currency: s.currency }
      const same = (n: OnrampState) => n.amount === asked.amount && n.asset === asked.asset && n.currency === asked.currency
      const network = s.network.caipNetworkId
      const result = yield* Effect.gen(function* () {
        const quote = yield* api.onrampQuote({ purchaseCurrency: asked.asset, paymentCurrency: asked.currency, amount: asked.amount as never, network })
        const url = yield* api.onrampUrl({
          destinationWallets: [{ address: account.address, blockchains: [network], assets: [asked.asset] }],
          defaultNetwork: network,
          partnerUserId: account.address,
          presetFiatAmount: amount.success,
          presetCryptoAmount: Number(quote.purchaseAmount.amount)
        })
        return { quote, url }
      }).pipe(Effect.mapError(unavailable), Effect.result)
      yield* update((n) =>
        !same(n) ? n : Result.isFailure(result) ? { ...n, quote: { _tag: "Failed", error: result.failure } } : { ...n, quote: { _tag: "Ready", ...result.success } }
      )
    }).pipe(Effect.withSpan("Onramp.quote"))

    const edited = (f: (s: OnrampState) => OnrampState) =>
      Effect.gen(function* () {
        yield* update((s) => {
          const next = f(s)
          const checked = next.amount.trim() === "" || next.options === undefined ? Result.succeed(0) : checkOnrampAmount(next.amount, next.currency, next.options)
          return { ...next, amountIssue: Result.isFailure(checked) ? checked.failure : undefined, quote: { _tag: "None" } }
        })
        const now = yield* SubscriptionRef.get(state)
        if (now.amountIssue !== undefined || now.amount.trim() === "") return yield* FiberHandle.clear(quoting)
        yield* update((s) => ({ ...s, quote: { _tag: "Loading" } }))
        yield* FiberHandle.run(quoting, Effect.andThen(Effect.sleep(ONRAMP_QUOTE_DEBOUNCE_MS), quoteNow))
      })

    /** What the account holds of `symbol` now (the cache dropped first), in whole units; 0 when unknown. */
    const holding = (caipAddress: CaipAddress, symbol: string) =>
      Effect.gen(function* () {
        yield* portfolio.refresh(caipAddress)
        const tokens = yield* portfolio.tokenBalances(caipAddress).pipe(Effect.orElseSucceed(() => []))
        return Number(tokens.find((t) => t.symbol === symbol)?.quantity.numeric ?? "0")
      })

    const watch = (caipAddress: CaipAddress, symbol: string, baseline: number) =>
      Effect.gen(function* () {
        yield* update((s) => ({ ...s, purchase: { _tag: "Watching", symbol, baseline } }))
        const arrived = yield* Effect.gen(function* () {
          while (true) {
            yield* Effect.sleep(ONRAMP_WATCH_INTERVAL_MS)
            const now = yield* holding(caipAddress, symbol)
            if (now > baseline) return now - baseline
          }
        }).pipe(Effect.timeoutOption(ONRAMP_WATCH_MS))
        yield* update((s) => ({
          ...s,
          purchase: Option.isSome(arrived) ? { _tag: "Received", symbol, amount: arrived.value } : { _tag: "NotReceived", symbol, baseline }
        }))
      })

    const open = Effect.gen(function* () {
      yield* start
      const s = yield* SubscriptionRef.get(state)
      yield* analytics.record("SELECT_BUY_CRYPTO", { network: s.network?.caipNetworkId ?? "" })
      // A closed modal (a host's own button, `useOnramp().open()`) opens on the Buy view, as an open with a view does.
      yield* (yield* SubscriptionRef.get(modal.state)).open ? modal.push({ view: "Buy" }) : modal.open({ view: "Buy" })
    }).pipe(Effect.withSpan("Onramp.open"))

    const prepare = Effect.gen(function* () {
      const current = yield* SubscriptionRef.get(state)
      const account = yield* accountInFront
      const same = account !== undefined && current.caipAddress === account.caipAddress && current.network?.caipNetworkId === account.network.caipNetworkId
      if (!same || current.options === undefined) yield* start
    }).pipe(Effect.withSpan("Onramp.prepare"))

    const chooseAsset = Effect.fn("Onramp.chooseAsset")(function* (symbol: string) {
      yield* edited((s) => ({ ...s, asset: symbol }))
    })
    const chooseCurrency = Effect.fn("Onramp.chooseCurrency")(function* (currency: string) {
      yield* edited((s) => (s.options?.paymentCurrencies.some((c) => c.id === currency) === true ? { ...s, currency } : s))
    })
    const setAmount = Effect.fn("Onramp.setAmount")(function* (text: string) {
      yield* edited((s) => ({ ...s, amount: text }))
    })

    const started = Effect.gen(function* () {
      const s = yield* SubscriptionRef.get(state)
      if (s.caipAddress === undefined || s.asset === undefined || s.purchase._tag === "Watching") return
      yield* analytics.record("SELECT_BUY_PROVIDER", { network: s.network?.caipNetworkId ?? "", asset: s.asset })
      const baseline = yield* holding(s.caipAddress, s.asset)
      yield* FiberHandle.run(watching, watch(s.caipAddress, s.asset, baseline))
    }).pipe(Effect.withSpan("Onramp.started"))

    const checkAgain = Effect.gen(function* () {
      const s = yield* SubscriptionRef.get(state)
      if (s.caipAddress === undefined || s.purchase._tag !== "NotReceived") return
      yield* FiberHandle.run(watching, watch(s.caipAddress, s.purchase.symbol, s.purchase.baseline))
    }).pipe(Effect.withSpan("Onramp.checkAgain"))

    return { state, open, prepare, chooseAsset, chooseCurrency, setAmount, started, checkAgain } satisfies OnrampService
  })
