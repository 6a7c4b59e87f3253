/**
 * The Swap service's implementation, in its own chunk: fetched the first time the swap form is used, so the first
 * click never carries it. See `Swap.ts` for what it decides.
 */
import { Clock, Effect, FiberHandle, Option, Result, Schema, SubscriptionRef } from "effect"
import type { SwapToken } from "../domain/Api"
import type { CaipAddress } from "../domain/Caip"
import { HttpStatusError, UserRejected } from "../domain/errors"
import { formatAmount, formatUnits } from "../domain/format"
import { explorerTransactionUrl } from "../domain/portfolioView"
import {
  checkSwapAmount,
  isNativeSwapToken,
  SWAP_GAS_ESTIMATE,
  SWAP_QUOTE_DEBOUNCE_MS,
  SWAP_QUOTE_MAX_AGE_MS,
  SWAP_QUOTE_REFRESH_MS,
  type SwapChoice,
  swapChoicesOf,
  summarizeQuote
} from "../domain/swap"
import { ApprovalDeclined, SwapNoLiquidity, SwapQuoteExpired, SwapUnavailable } from "../domain/swapErrors"
import { Analytics } from "./Analytics"
import { BlockchainApi } from "./BlockchainApi"
import { Connection } from "./Connection"
import { Networks } from "./Networks"
import { Portfolio } from "./Portfolio"
import { currentRoute, Modal } from "./Modal"
import { initialSwapState, type SwapFailure, type SwapService, type SwapState } from "./swapState"
import { WalletActions } from "./WalletActions"

const ServiceWords = Schema.Struct({ error: Schema.String })

/** A failure of the services in the visitor's words: the service's own sentence when it gave one. */
const unavailable = (error: { readonly _tag: string; readonly message: string }): SwapUnavailable => {
  if (error instanceof HttpStatusError && error.body !== undefined) {
    const words = Schema.decodeUnknownOption(Schema.fromJsonString(ServiceWords))(error.body)
    if (Option.isSome(words)) return new SwapUnavailable({ reason: words.value.error })
  }
  if (error._tag === "SwapsNetworkNotSupported" || error._tag === "GasPriceNetworkNotSupported") return new SwapUnavailable({ reason: error.message })
  if (error._tag === "ServiceUnreachable") return new SwapUnavailable({ reason: "The swap service did not answer. Please try again." })
  if (error._tag === "ServiceAnswerInvalid") return new SwapUnavailable({ reason: "The swap service's answer could not be read. Please try again." })
  return new SwapUnavailable({ reason: error.message })
}

/** The swap form over the account's balances, the services' swap endpoints and the wallet, its state in `state`. */
export const makeSwap = (state: SubscriptionRef.SubscriptionRef<SwapState>) =>
  Effect.gen(function* () {
    const connection = yield* Connection
    const networks = yield* Networks
    const portfolio = yield* Portfolio
    const api = yield* BlockchainApi
    const actions = yield* WalletActions
    const analytics = yield* Analytics
    const modal = yield* Modal
    const loading = yield* FiberHandle.make<void, never>()
    const quoting = yield* FiberHandle.make<void, never>()
    const refreshing = yield* FiberHandle.make<void, never>()
    const stepping = yield* FiberHandle.make<void, never>()

    const update = (f: (s: SwapState) => SwapState) => SubscriptionRef.update(state, f)

    const accountInFront = Effect.gen(function* () {
      const current = yield* SubscriptionRef.get(connection.state)
      const namespace = current.activeNamespace
      const account = namespace === undefined ? undefined : current.namespaces[namespace]?.account
      if (namespace !== "eip155" || account?.status !== "connected" || account.caipAddress === undefined) return undefined
      const network = yield* networks.activeNetwork(namespace).pipe(Effect.option)
      return Option.isNone(network) ? undefined : { caipAddress: account.caipAddress, network: network.value }
    })

    const choice = (s: SwapState, address: string | undefined): SwapChoice | undefined =>
      address === undefined ? undefined : s.choices.find((c) => c.address === address)

    const loadTokens = (caipAddress: CaipAddress, network: NonNullable<SwapState["network"]>) =>
      Effect.gen(function* () {
        yield* update((s) => ({ ...s, tokens: { _tag: "Loading" } }))
        const listed = yield* api.swapTokens(network.caipNetworkId).pipe(Effect.mapError(unavailable), Effect.result)
        // Balances are for the amounts and Max; without them every token shows 0 and the amount check says so.
        const held = yield* portfolio.tokenBalances(caipAddress).pipe(Effect.orElseSucceed(() => []))
        yield* update((s) => {
          if (s.caipAddress !== caipAddress) return s
          if (Result.isFailure(listed)) return { ...s, tokens: { _tag: "Failed", error: listed.failure } }
          const choices = swapChoicesOf(listed.success as ReadonlyArray<SwapToken>, held)
          const native = choices.find((c) => isNativeSwapToken(c.address))
          const from = s.from ?? native?.address ?? choices[0]?.address
          const to = s.to ?? choices.find((c) => c.address !== from)?.address
          return { ...s, tokens: { _tag: "Ready" }, choices, from, to }
        })
      })

    const start = Effect.gen(function* () {
      yield* FiberHandle.clear(quoting)
      const account = yield* accountInFront
      const filled = (yield* SubscriptionRef.get(state)).filled + 1
      if (account === undefined) return yield* SubscriptionRef.set(state, { ...initialSwapState, filled })
      yield* SubscriptionRef.set(state, { ...initialSwapState, filled, caipAddress: account.caipAddress, network: account.network })
      yield* FiberHandle.run(loading, loadTokens(account.caipAddress, account.network))
    })

    /** The quote for the form as it is now; a form changed meanwhile keeps its own. */
    const quoteNow = Effect.gen(function* () {
      const s = yield* SubscriptionRef.get(state)
      const from = choice(s, s.from)
      const to = choice(s, s.to)
      const amount = checkSwapAmount(s.amount, from)
      if (s.caipAddress === undefined || s.network === undefined || from === undefined || to === undefined || Result.isFailure(amount)) return
      const asked = { amount: s.amount, from: s.from, to: s.to }
      const same = (n: SwapState) => n.amount === asked.amount && n.from === asked.from && n.to === asked.to
      yield* update((n) => (same(n) ? { ...n, quote: n.quote._tag === "Ready" ? n.quote : { _tag: "Loading" } } : n))
      const caipAddress = s.caipAddress
      const result = yield* Effect.all(
        [
          api.swapQuotes({ amount: amount.success, userAddress: caipAddress, from: from.address as CaipAddress, to: to.address as CaipAddress, gasPrice: 0n }),
          api.gasPrice(s.network.caipNetworkId),
          isNativeSwapToken(from.address)
            ? Effect.succeed(amount.success)
            : api.swapAllowance({ tokenAddress: from.address as CaipAddress, userAddress: caipAddress })
        ],
        { concurrency: "unbounded" }
      ).pipe(Effect.mapError(unavailable), Effect.result)
      const at = yield* Clock.currentTimeMillis
      const native = s.choices.find((c) => isNativeSwapToken(c.address))
      yield* update((n) => {
        if (!same(n)) return n
        if (Result.isFailure(result)) return { ...n, quote: { _tag: "Failed", error: result.failure } }
        const [quotes, gas, allowance] = result.success
        const best = quotes[0]
        if (best === undefined) return { ...n, quote: { _tag: "Failed", error: new SwapNoLiquidity() } }
        const summary = summarizeQuote({
          from,
          to,
          fromAmount: best.fromAmount,
          toAmount: best.toAmount,
          gasPrice: gas.standard,
          nativePriceUsd: native?.priceUsd ?? 0,
          gas: SWAP_GAS_ESTIMATE
        })
        return { ...n, quote: { _tag: "Ready", fromAmount: best.fromAmount, toAmount: best.toAmount, summary, at, approved: allowance >= amount.success } }
      })
    }).pipe(Effect.withSpan("Swap.quote"))

    // The quote shown is asked again every 15 s while the Swap view is shown and nothing is being sent; a closed modal
    // or another view asks nothing.
    const refreshLoop = Effect.forever(
      Effect.andThen(
        Effect.sleep(SWAP_QUOTE_REFRESH_MS),
        Effect.gen(function* () {
          const s = yield* SubscriptionRef.get(state)
          const shown = yield* Effect.map(SubscriptionRef.get(modal.state), (m) => m.open && currentRoute(m).view === "Swap")
          if (shown && s.quote._tag === "Ready" && (s.step._tag === "Idle" || s.step._tag === "Failed")) yield* FiberHandle.run(quoting, quoteNow)
        })
      )
    )

    /** The form changed: the amount is checked now, the quote asked after the debounce. */
    const edited = (f: (s: SwapState) => SwapState) =>
      Effect.gen(function* () {
        yield* update((s) => {
          const next = f(s)
          const from = choice(next, next.from)
          const checked = next.amount.trim() === "" ? Result.succeed(0n) : checkSwapAmount(next.amount, from)
          return {
            ...next,
            amountIssue: Result.isFailure(checked) ? checked.failure : undefined,
            quote: { _tag: "None" },
            step: next.step._tag === "Done" || next.step._tag === "Failed" ? { _tag: "Idle" } : next.step
          }
        })
        const now = yield* SubscriptionRef.get(state)
        if (now.amountIssue !== undefined || now.amount.trim() === "") return yield* FiberHandle.clear(quoting)
        yield* update((s) => ({ ...s, quote: { _tag: "Loading" } }))
        yield* FiberHandle.run(quoting, Effect.andThen(Effect.sleep(SWAP_QUOTE_DEBOUNCE_MS), quoteNow))
      })

    const open = Effect.gen(function* () {
      yield* start
      yield* FiberHandle.run(refreshing, refreshLoop)
      const s = yield* SubscriptionRef.get(state)
      yield* analytics.record("OPEN_SWAP", { network: s.network?.caipNetworkId ?? "" })
      // Last: the Account view that asked goes away with the route, and what it started with it. A closed modal (a
      // host's own button, `useSwap().open()`) opens on the Swap view, as an open with a view does.
      yield* (yield* SubscriptionRef.get(modal.state)).open ? modal.push({ view: "Swap" }) : modal.open({ view: "Swap" })
    }).pipe(Effect.withSpan("Swap.open"))

    const prepare = Effect.gen(function* () {
      const current = yield* SubscriptionRef.get(state)
      const account = yield* accountInFront
      const same =
        account !== undefined &&
        current.caipAddress === account.caipAddress &&
        current.network?.caipNetworkId === account.network.caipNetworkId &&
        current.tokens._tag !== "Idle"
      if (!same) yield* start
      yield* FiberHandle.run(refreshing, refreshLoop, { onlyIfMissing: true })
    }).pipe(Effect.withSpan("Swap.prepare"))

    const choose = Effect.fn("Swap.choose")(function* (side: "from" | "to", address: string) {
      yield* edited((s) => {
        if (!s.choices.some((c) => c.address === address)) return s
        const other = side === "from" ? s.to : s.from
        // Choosing the other side's token swaps the two, as a visitor expects.
        if (address === other) return { ...s, from: s.to, to: s.from }
        return side === "from" ? { ...s, from: address } : { ...s, to: address }
      })
    })

    const flip = edited((s) => ({ ...s, from: s.to, to: s.from })).pipe(Effect.withSpan("Swap.flip"))

    const setAmount = Effect.fn("Swap.setAmount")(function* (text: string) {
      yield* edited((s) => ({ ...s, amount: text }))
    })

    const useMax = Effect.gen(function* () {
      const s = yield* SubscriptionRef.get(state)
      const from = choice(s, s.from)
      if (from === undefined) return
      // The native coin pays the swap's fee: Max leaves twice a swap's gas at the node's price.
      const reserve = isNativeSwapToken(from.address) && s.network !== undefined
        ? yield* api.gasPrice(s.network.caipNetworkId).pipe(
            Effect.map((gas) => gas.fast * SWAP_GAS_ESTIMATE * 2n),
            Effect.orElseSucceed(() => 0n)
          )
        : 0n
      const max = from.balance > reserve ? from.balance - reserve : 0n
      yield* edited((n) => ({ ...n, amount: formatUnits(max, from.decimals), filled: n.filled + 1 }))
    }).pipe(Effect.withSpan("Swap.useMax"))

    const refresh = FiberHandle.run(quoting, quoteNow).pipe(Effect.asVoid, Effect.withSpan("Swap.refresh"))

    const explorerUrlOf = (s: SwapState, hash: string) => explorerTransactionUrl(s.network?.blockExplorers?.default.url, hash)

    const failed = (error: SwapFailure, hash: string | undefined) =>
      update((n) => ({ ...n, step: { _tag: "Failed", error, hash, explorerUrl: hash === undefined ? undefined : explorerUrlOf(n, hash) } }))

    const plain = (caip: string) => caip.slice(caip.lastIndexOf(":") + 1)

    const approving = Effect.gen(function* () {
      const s = yield* SubscriptionRef.get(state)
      const from = choice(s, s.from)
      const to = choice(s, s.to)
      if (s.caipAddress === undefined || from === undefined || to === undefined || isNativeSwapToken(from.address)) return
      yield* update((n) => ({ ...n, step: { _tag: "Approving", hash: undefined } }))
      const tx = yield* api
        .buildApproveTransaction({ userAddress: s.caipAddress, from: from.address as CaipAddress, to: to.address as CaipAddress })
        .pipe(Effect.mapError(unavailable), Effect.tapError((error) => failed(error, undefined)))
      const hash = yield* actions
        .send({ to: plain(tx.to), data: tx.data, value: tx.value }, "eip155", { quiet: true })
        .pipe(
          Effect.mapError((error) => (error instanceof UserRejected ? new ApprovalDeclined({ symbol: from.symbol }) : error)),
          Effect.tapError((error) =>
            Effect.andThen(analytics.record("SWAP_APPROVAL_ERROR", { network: s.network?.caipNetworkId ?? "", message: error.message }), failed(error, undefined))
          )
        )
      yield* update((n) => ({ ...n, step: { _tag: "Approving", hash } }))
      yield* actions.waitForTransaction(hash, "eip155").pipe(Effect.tapError((error) => failed(error, hash)))
      yield* update((n) => ({ ...n, step: { _tag: "Idle" } }))
      yield* quoteNow
    }).pipe(Effect.ignore, Effect.withSpan("Swap.approve"))

    const swapping = Effect.gen(function* () {
      const s = yield* SubscriptionRef.get(state)
      const from = choice(s, s.from)
      const to = choice(s, s.to)
      const amount = checkSwapAmount(s.amount, from)
      if (s.caipAddress === undefined || from === undefined || to === undefined || Result.isFailure(amount) || s.quote._tag !== "Ready") return
      const network = s.network?.caipNetworkId ?? ""
      const now = yield* Clock.currentTimeMillis
      if (now - s.quote.at > SWAP_QUOTE_MAX_AGE_MS) {
        yield* failed(new SwapQuoteExpired(), undefined)
        return yield* quoteNow
      }
      const quoted = s.quote
      yield* update((n) => ({ ...n, step: { _tag: "Swapping", hash: undefined } }))
      // Sent at once: on a fast chain the swap is mined, and the visitor gone, before a delayed event would leave.
      yield* analytics.record("INITIATE_SWAP", { network, from: from.symbol, to: to.symbol }, "now")
      const tx = yield* api
        .buildSwapTransaction({ amount: amount.success, from: from.address as CaipAddress, to: to.address as CaipAddress, userAddress: s.caipAddress })
        .pipe(Effect.mapError(unavailable), Effect.tapError((error) => failed(error, undefined)))
      const hash = yield* actions
        .send({ to: plain(tx.to), data: tx.data, value: tx.value, ...(tx.gas === undefined ? {} : { gas: tx.gas }) }, "eip155", { quiet: true })
        .pipe(
          Effect.tapError((error) =>
            Effect.andThen(analytics.record("SWAP_ERROR", { network, message: error.message }), failed(error, undefined))
          )
        )
      yield* update((n) => ({ ...n, step: { _tag: "Swapping", hash } }))
      yield* actions.waitForTransaction(hash, "eip155").pipe(
        Effect.tapError((error) => Effect.andThen(failed(error, hash), analytics.track("SWAP_ERROR", { network, message: error.message })))
      )
      const summary = `${formatAmount(formatUnits(amount.success, from.decimals))} ${from.symbol} for ${formatAmount(formatUnits(quoted.toAmount, to.decimals))} ${to.symbol}`
      yield* update((n) => ({ ...n, step: { _tag: "Done", hash, explorerUrl: explorerUrlOf(n, hash), summary } }))
      // Sent now rather than a moment later: the visitor often leaves the page once the swap is done.
      yield* analytics.track("SWAP_SUCCESS", { network, from: from.symbol, to: to.symbol })
      // The balances moved: the form offers what the account now holds.
      yield* portfolio.refresh(s.caipAddress)
      const account = yield* accountInFront
      if (account !== undefined) yield* FiberHandle.run(loading, loadTokens(account.caipAddress, account.network))
    }).pipe(Effect.ignore, Effect.withSpan("Swap.swap"))

    const busy = (s: SwapState) => s.step._tag === "Approving" || s.step._tag === "Swapping"

    // Both run in the service's scope: the view may close while the wallet asks or the chain confirms.
    const approve = Effect.gen(function* () {
      if (busy(yield* SubscriptionRef.get(state))) return
      yield* FiberHandle.run(stepping, approving)
    }).pipe(Effect.asVoid)

    const swap = Effect.gen(function* () {
      if (busy(yield* SubscriptionRef.get(state))) return
      yield* FiberHandle.run(stepping, swapping)
    }).pipe(Effect.asVoid)

    const reset = Effect.gen(function* () {
      const s = yield* SubscriptionRef.get(state)
      yield* edited((n) => ({ ...n, amount: "", filled: n.filled + 1, step: { _tag: "Idle" } }))
      if (s.caipAddress === undefined) yield* start
    }).pipe(Effect.withSpan("Swap.reset"))

    return { state, warm: Effect.void, open, prepare, choose, flip, setAmount, useMax, refresh, approve, swap, reset } satisfies SwapService
  })

