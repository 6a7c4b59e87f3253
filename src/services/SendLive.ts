/**
 * The Send service's implementation, in its own chunk: fetched the first time the send form is used (the Account
 * view's Send, an NFT's Send, a host opening the Send view), so the first click never carries the send rules.
 */
import { Effect, FiberHandle, Option, Result, Stream, SubscriptionRef } from "effect"
import type { AccountType } from "../domain/Account"
import type { CaipAddress, ChainNamespace } from "../domain/Caip"
import { familySupports } from "../domain/familyFeatures"
import type { CaipNetwork } from "../domain/Network"
import { explorerTransactionUrl } from "../domain/portfolioView"
import {
  checkSend,
  type FungibleAsset,
  fungibleAssetsOf,
  looksLikeName,
  maxAmount,
  NAME_RESOLVE_DEBOUNCE_MS,
  nameRecordAddress,
  type ReceiverRules,
  reviewOf,
  type SendIssues,
  validateReceiver,
  type ValidSend
} from "../domain/send"
import { formatUnits } from "../domain/format"
import { BlockchainApi } from "./BlockchainApi"
import { type ChainBalance, ChainAdapters, type FeeError, type SendRequest } from "./ChainAdapter"
import { Connection } from "./Connection"
import { Modal } from "./Modal"
import { Networks } from "./Networks"
import { Portfolio } from "./Portfolio"
import { WalletActions } from "./WalletActions"
import { chosenAsset, initialSendState, type NameState, type ReviewedSend, type SendService, type SendStart, type SendState } from "./sendState"

/** The account's native coin among the choices (it pays the fee). */
const nativeAsset = (state: SendState): FungibleAsset | undefined =>
  state.choices.find((asset): asset is FungibleAsset => asset.kind === "native")

/** The words for a fee that could not be estimated: the node's reason, without its "execution reverted" prefix. */
const feeFailureText = (error: FeeError): string => {
  if (error._tag === "SendFormInvalid" || error._tag === "FeatureUnavailable") return error.message
  const reason = error.reason?.replace(/^.*execution reverted:?\s*/i, "").trim() ?? ""
  return reason.length > 0 ? `This transfer would fail: ${reason}` : "This transfer would fail on the network."
}

/** The request the wallet is asked to send for a valid send. */
const sendRequestOf = (send: ValidSend): SendRequest => {
  const { asset } = send
  switch (asset.kind) {
    case "native":
      return { to: send.to, value: send.value }
    case "token":
      return { to: send.to, value: send.value, token: asset.address }
    case "nft":
      return { to: send.to, nft: { contract: asset.contract, tokenId: BigInt(asset.tokenId) } }
  }
}

const fromChain = (balances: ReadonlyArray<ChainBalance>): ReadonlyArray<FungibleAsset> =>
  balances.map((balance) => ({
    kind: balance.token === undefined ? ("native" as const) : ("token" as const),
    id: balance.token ?? "native",
    name: balance.symbol,
    symbol: balance.symbol,
    decimals: balance.decimals,
    balance: balance.value,
    priceUsd: 0,
    iconUrl: undefined,
    address: balance.token
  }))

/** The send form over the account's portfolio, its chain and its wallet, holding its state in `state`. */
export const makeSend = (state: SubscriptionRef.SubscriptionRef<SendState>) =>
  Effect.gen(function* () {
      const connection = yield* Connection
      const networks = yield* Networks
      const portfolio = yield* Portfolio
      const api = yield* BlockchainApi
      const adapters = yield* ChainAdapters
      const actions = yield* WalletActions
      const modal = yield* Modal
      const loading = yield* FiberHandle.make<void, never>()
      const resolving = yield* FiberHandle.make<void, never>()
      const submitting = yield* FiberHandle.make<void, never>()

      const update = (f: (s: SendState) => SendState) => SubscriptionRef.update(state, f)

      // Bitcoin's address rules (bech32, base58check, SHA-256) are fetched the first time a bip122 account's form is
      // used: an EVM or Solana host's send form neither carries nor preloads them.
      const bitcoinRules = yield* Effect.cached(
        Effect.promise(() => import("../domain/bitcoinAddress")).pipe(
          Effect.map((module): ReceiverRules => ({ bip122: module.validateBitcoinReceiver }))
        )
      )
      const receiverRulesOf = (namespace: ChainNamespace | undefined): Effect.Effect<ReceiverRules> =>
        namespace === "bip122" ? bitcoinRules : Effect.succeed({})

      /** The account in front: its family, CAIP-10 address, plain address, network and type. */
      const accountInFront = Effect.gen(function* () {
        const current = yield* SubscriptionRef.get(connection.state)
        const namespace = current.activeNamespace
        const account = namespace === undefined ? undefined : current.namespaces[namespace]?.account
        if (namespace === undefined || account?.status !== "connected" || account.caipAddress === undefined || account.address === undefined) {
          return undefined
        }
        const network = yield* networks.activeNetwork(namespace).pipe(Effect.option)
        if (Option.isNone(network)) return undefined
        const address = account.address
        const type: AccountType | undefined =
          account.allAccounts.find((entry) => entry.address.toLowerCase() === address.toLowerCase())?.type ?? account.preferredAccountType
        return { namespace, caipAddress: account.caipAddress, address, network: network.value, type }
      })

      const loadAssets = (caipAddress: CaipAddress, network: CaipNetwork, namespace: ChainNamespace) =>
        Effect.gen(function* () {
          yield* update((s) => ({ ...s, assets: { _tag: "Loading" } }))
          // The service prices what the account holds; without it (a failure, a network it does not serve, a family
          // it has no balances for) the chain still says what the account holds, unpriced.
          const fromService: Effect.Effect<ReadonlyArray<FungibleAsset>, unknown> = familySupports(namespace, "balance")
            ? portfolio.tokenBalances(caipAddress).pipe(Effect.map((tokens) => fungibleAssetsOf(tokens, network)))
            : Effect.fail("no balances in this family")
          const listed = yield* fromService.pipe(
            Effect.catch(() => actions.balances(namespace).pipe(Effect.map(fromChain))),
            Effect.result
          )
          yield* update((s) => {
            if (s.caipAddress !== caipAddress) return s
            if (Result.isFailure(listed)) return { ...s, assets: { _tag: "Failed", message: "Token Balance Unavailable" } }
            const nfts = s.choices.filter((asset) => asset.kind === "nft")
            const choices = [...listed.success, ...nfts]
            return { ...s, assets: { _tag: "Ready" }, choices, chosen: s.chosen ?? choices[0]?.id }
          })
        })

      const start = Effect.fn("Send.start")(function* (begin: SendStart) {
        const account = yield* accountInFront
        yield* FiberHandle.clear(resolving)
        if (account === undefined) return yield* update((s) => ({ ...initialSendState, filled: s.filled + 1 }))
        const nft = begin.nft
        const filled = (yield* SubscriptionRef.get(state)).filled + 1
        yield* SubscriptionRef.set(state, {
          ...initialSendState,
          filled,
          caipAddress: account.caipAddress,
          namespace: account.namespace,
          network: account.network,
          choices: nft === undefined ? [] : [nft],
          chosen: nft?.id
        })
        yield* FiberHandle.run(loading, loadAssets(account.caipAddress, account.network, account.namespace))
      })

      const open = Effect.fn("Send.open")(function* (begin: SendStart = {}) {
        yield* start(begin)
        yield* modal.push({ view: "Send" })
      })

      const prepare = Effect.gen(function* () {
        const current = yield* SubscriptionRef.get(state)
        const account = yield* accountInFront
        const same =
          account !== undefined &&
          current.caipAddress === account.caipAddress &&
          current.network?.caipNetworkId === account.network.caipNetworkId &&
          current.assets._tag !== "Idle"
        if (!same) yield* start({})
      }).pipe(Effect.withSpan("Send.prepare"))

      const reload = Effect.gen(function* () {
        const current = yield* SubscriptionRef.get(state)
        if (current.caipAddress === undefined || current.network === undefined || current.namespace === undefined) return yield* start({})
        yield* FiberHandle.run(loading, loadAssets(current.caipAddress, current.network, current.namespace))
      }).pipe(Effect.withSpan("Send.reload"))

      /** The rules over the current form; a fee when it is known. */
      const issuesOf = (s: SendState, fee: bigint | undefined, accountType: AccountType | undefined, receiverRules: ReceiverRules) => {
        const native = nativeAsset(s)
        if (s.namespace === undefined || native === undefined) return Result.fail<SendIssues>({ form: "Connect a wallet to send" })
        return checkSend({
          namespace: s.namespace,
          asset: chosenAsset(s),
          amount: s.amount,
          receiver: s.receiver,
          resolvedAddress: s.name._tag === "Resolved" ? s.name.address : undefined,
          nameError: s.name._tag === "Failed" ? s.name.message : undefined,
          native,
          fee,
          accountType,
          caipNetworkId: s.network?.caipNetworkId,
          receiverRules
        })
      }

      // Once the visitor asked to continue, what they change is checked again at once (the fee is estimated again
      // on the next continue: it depends on what changed).
      const edited = (f: (s: SendState) => SendState) =>
        Effect.gen(function* () {
          const rules = yield* receiverRulesOf((yield* SubscriptionRef.get(state)).namespace)
          yield* update((s) => {
            const next = { ...f(s), reviewed: undefined }
            if (!next.checked) return next
            const checked = issuesOf(next, undefined, undefined, rules)
            return { ...next, issues: Result.isFailure(checked) ? checked.failure : {} }
          })
        })

      const choose = Effect.fn("Send.choose")(function* (assetId: string) {
        yield* edited((s) => (s.choices.some((asset) => asset.id === assetId) ? { ...s, chosen: assetId } : s))
      })

      const setAmount = Effect.fn("Send.setAmount")(function* (text: string) {
        yield* edited((s) => ({ ...s, amount: text }))
      })

      const lookUp = (name: string, chainId: number | string) =>
        Effect.gen(function* () {
          const found = yield* api.resolveName(name).pipe(Effect.result)
          const next: NameState = Result.isFailure(found)
            ? { _tag: "Failed", name, message: found.failure.message }
            : Option.match(Option.flatMapNullishOr(found.success, (record) => nameRecordAddress(record, chainId)), {
                onNone: (): NameState => ({ _tag: "NotFound", name }),
                onSome: (address): NameState => ({ _tag: "Resolved", name, address })
              })
          yield* edited((s) => (s.name._tag === "Resolving" && s.name.name === name ? { ...s, name: next } : s))
        })

      const setReceiver = Effect.fn("Send.setReceiver")(function* (text: string) {
        const current = yield* SubscriptionRef.get(state)
        const name = text.trim()
        const isName = current.namespace !== undefined && looksLikeName(name, current.namespace)
        yield* FiberHandle.clear(resolving)
        yield* edited((s) => ({ ...s, receiver: text, name: isName ? { _tag: "Resolving", name } : { _tag: "None" } }))
        const chainId = current.network?.id
        if (isName && chainId !== undefined) {
          yield* FiberHandle.run(resolving, Effect.andThen(Effect.sleep(NAME_RESOLVE_DEBOUNCE_MS), lookUp(name, chainId)))
        }
      })

      /** The fee of a send from the account in front, read from its chain (`max`: a send of its whole balance). */
      const feeOf = (request: SendRequest, max = false) =>
        Effect.gen(function* () {
          const account = yield* accountInFront
          if (account === undefined) return Result.fail<string>("Connect a wallet to send")
          const adapter = yield* adapters.get(account.namespace).pipe(Effect.option)
          if (Option.isNone(adapter)) return Result.fail<string>("Sending is not available on this network")
          const estimate = (max ? adapter.value.estimateMaxFee : undefined) ?? adapter.value.estimateFee
          return yield* estimate(account.address, account.network, request).pipe(
            Effect.map(Result.succeed),
            Effect.catch((error) => Effect.succeed(Result.fail(feeFailureText(error))))
          )
        })

      // The form says a fee is being estimated for as long as it is, even when the view that asked goes away.
      const estimating = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
        Effect.andThen(
          update((s) => ({ ...s, estimating: true })),
          Effect.ensuring(effect, update((s) => ({ ...s, estimating: false })))
        )

      const useMax = Effect.gen(function* () {
        const current = yield* SubscriptionRef.get(state)
        const asset = chosenAsset(current)
        if (asset === undefined || asset.kind === "nft") return
        if (asset.kind === "token") {
          return yield* edited((s) => ({ ...s, amount: formatUnits(asset.balance, asset.decimals), filled: s.filled + 1 }))
        }
        // The native coin pays the fee: Max leaves it. The fee of a transfer to the receiver (to the account itself
        // while no receiver is typed) is that of sending the whole balance (on Bitcoin: every coin, no change).
        const rules = yield* receiverRulesOf(current.namespace)
        const receiver =
          current.namespace === undefined
            ? Result.fail("")
            : validateReceiver(current.receiver, current.namespace, current.network?.caipNetworkId, rules)
        const self = (yield* accountInFront)?.address ?? ""
        const to = Result.isSuccess(receiver) ? receiver.success : current.name._tag === "Resolved" ? current.name.address : self
        const fee = yield* estimating(feeOf({ to, value: asset.balance > 0n ? asset.balance : 1n }, true))
        if (Result.isFailure(fee)) return yield* update((s) => ({ ...s, checked: true, issues: { ...s.issues, amount: fee.failure } }))
        yield* edited((s) => ({ ...s, amount: formatUnits(maxAmount(asset, fee.success), asset.decimals), filled: s.filled + 1 }))
      }).pipe(Effect.withSpan("Send.useMax"))

      const review = Effect.gen(function* () {
        // A name still being looked up is waited for: the review shows where the transfer goes.
        yield* FiberHandle.awaitEmpty(resolving)
        const account = yield* accountInFront
        const before = yield* SubscriptionRef.get(state)
        if (account === undefined || before.caipAddress !== account.caipAddress) {
          yield* start({})
          return yield* update((s) => ({ ...s, checked: true, issues: { form: "Your wallet changed account or network: check the form again" } }))
        }
        const rules = yield* receiverRulesOf(account.namespace)
        const first = issuesOf(before, undefined, account.type, rules)
        if (Result.isFailure(first)) return yield* update((s) => ({ ...s, checked: true, issues: first.failure }))
        yield* update((s) => ({ ...s, checked: true, issues: {} }))
        const fee = yield* estimating(feeOf(sendRequestOf(first.success)))
        const now = yield* SubscriptionRef.get(state)
        // The visitor changed the form while the fee was estimated: that form is checked on their next continue.
        if (now.amount !== before.amount || now.receiver !== before.receiver || now.chosen !== before.chosen) return
        if (Result.isFailure(fee)) return yield* update((s) => ({ ...s, issues: { form: fee.failure } }))
        const checked = issuesOf(now, fee.success, account.type, rules)
        if (Result.isFailure(checked)) return yield* update((s) => ({ ...s, issues: checked.failure }))
        const native = nativeAsset(now)
        if (native === undefined) return
        const reviewed: ReviewedSend = {
          send: checked.success,
          fee: fee.success,
          lines: reviewOf(checked.success, native, fee.success),
          receiverName: now.name._tag === "Resolved" ? now.name.name : undefined
        }
        yield* update((s) => ({ ...s, reviewed, submit: { _tag: "Idle" } }))
        yield* modal.push({ view: "SendReview" })
      }).pipe(Effect.withSpan("Send.review"))

      const explorerUrlOf = (network: CaipNetwork | undefined, hash: string) =>
        explorerTransactionUrl(network?.blockExplorers?.default.url, hash)

      const submit = (reviewed: ReviewedSend, namespace: ChainNamespace, network: CaipNetwork | undefined) =>
        Effect.gen(function* () {
          yield* update((s) => ({ ...s, submit: { _tag: "Signing" } }))
          // This flow's views say what happens (sent, failed, confirmed): snackbars would say it twice. Only a result
          // that comes once the visitor has left the result view is said by a snackbar.
          const resultShown = Effect.map(SubscriptionRef.get(modal.state), (m) => m.open && m.history.at(-1)?.route.view === "SendResult")
          const hash = yield* actions.send(sendRequestOf(reviewed.send), namespace, { quiet: true, resultShown }).pipe(
            Effect.tapError((error) => update((s) => ({ ...s, submit: { _tag: "Failed", error, hash: undefined, explorerUrl: undefined } })))
          )
          const explorerUrl = explorerUrlOf(network, hash)
          yield* update((s) => ({ ...s, submit: { _tag: "Confirming", hash, explorerUrl } }))
          yield* actions.waitForTransaction(hash, namespace).pipe(
            Effect.tapError((error) => update((s) => ({ ...s, submit: { _tag: "Failed", error, hash, explorerUrl } })))
          )
          yield* update((s) => ({ ...s, submit: { _tag: "Confirmed", hash, explorerUrl } }))
        }).pipe(Effect.ignore, Effect.withSpan("Send.submit"))

      const confirm = Effect.gen(function* () {
        const current = yield* SubscriptionRef.get(state)
        const reviewed = current.reviewed
        const busy = current.submit._tag === "Signing" || current.submit._tag === "Confirming"
        if (reviewed === undefined || current.namespace === undefined || busy) return
        // Followed in the service's scope: the result view may go (Back, Close) while the chain confirms.
        yield* FiberHandle.run(submitting, submit(reviewed, current.namespace, current.network))
        const route = (yield* SubscriptionRef.get(modal.state)).history.at(-1)?.route.view
        if (route !== "SendResult") yield* modal.replace({ view: "SendResult" })
      }).pipe(Effect.withSpan("Send.confirm"))

      const finish = Effect.gen(function* () {
        yield* start({})
        yield* modal.reset({ view: "Account" })
      }).pipe(Effect.withSpan("Send.finish"))

      // The wallet moved to another account or network while the form was open: a form for the old one would send
      // from an account the visitor no longer sees. A send already on its way is left to end.
      yield* SubscriptionRef.changes(connection.state).pipe(
        Stream.mapEffect(() => accountInFront),
        Stream.map((account) => `${account?.caipAddress ?? ""}`),
        Stream.changes,
        Stream.runForEach(() =>
          Effect.gen(function* () {
            const current = yield* SubscriptionRef.get(state)
            const account = yield* accountInFront
            const busy = current.submit._tag === "Signing" || current.submit._tag === "Confirming"
            if (current.assets._tag === "Idle" || busy || account?.caipAddress === current.caipAddress) return
            yield* start({})
          })
        ),
        Effect.forkScoped
      )

      return {
        state,
        open,
        prepare,
        reload,
        choose,
        setAmount,
        setReceiver,
        useMax,
        review,
        confirm,
        finish
      }
    }) satisfies Effect.Effect<SendService, never, unknown>
