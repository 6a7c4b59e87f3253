/**
 * The Names service's implementation, in its own chunk with the ENSIP-15 tables: fetched the first time the visitor
 * opens RegisterAccountName (or a host uses the form), so neither the first click nor the Account view carries them.
 */
import { Clock, Effect, FiberHandle, Option, Result, Stream, SubscriptionRef } from "effect"
import { fullName, labelInput, labelOf, NAME_CHECK_DEBOUNCE_MS, nameMessageText, validateAccountName, zoneOf } from "../domain/accountName"
import type { ChainNamespace } from "../domain/Caip"
import { CaipNetworkOrAddressUndefined } from "../domain/errors"
import type { CaipNetwork } from "../domain/Network"
import { supportsNames } from "../domain/rules"
import { coinTypeForChainId } from "../domain/validation"
import { BlockchainApi } from "./BlockchainApi"
import { Connection } from "./Connection"
import { Modal } from "./Modal"
import {
  type Availability,
  initialNamesState,
  NameChainIdTooLarge,
  type NamesIneligible,
  NamesNeedEvmAccount,
  type NamesService,
  type NamesState,
  type RegisterFailure,
  registering
} from "./namesState"
import { Networks } from "./Networks"
import { Notifications } from "./Notifications"
import { WalletActions } from "./WalletActions"

/** The coin type of a network's EVM addresses, or why a name cannot be registered on it. */
const coinTypeOf = (network: CaipNetwork): Result.Result<number, NameChainIdTooLarge> =>
  typeof network.id === "number"
    ? Result.mapError(coinTypeForChainId(network.id), () => new NameChainIdTooLarge({ chainId: String(network.id) }))
    : Result.fail(new NameChainIdTooLarge({ chainId: String(network.id) }))

/** The name-registration form over the account in front, holding its state in `state`; `revision` moves after each registration. */
export const makeNames = (state: SubscriptionRef.SubscriptionRef<NamesState>, revision: SubscriptionRef.SubscriptionRef<number>) =>
  Effect.gen(function* () {
    const connection = yield* Connection
    const networks = yield* Networks
    const api = yield* BlockchainApi
    const actions = yield* WalletActions
    const modal = yield* Modal
    const notifications = yield* Notifications
    const suffix = (yield* SubscriptionRef.get(state)).suffix
    const checking = yield* FiberHandle.make<void, never>()
    const submitting = yield* FiberHandle.make<void, never>()

    const update = (f: (s: NamesState) => NamesState) => SubscriptionRef.update(state, f)

    /** The account in front: its family, CAIP-10 address, plain address and network. */
    const accountInFront = Effect.gen(function* () {
      const current = yield* SubscriptionRef.get(connection.state)
      const namespace = current.activeNamespace
      const account = namespace === undefined ? undefined : current.namespaces[namespace]?.account
      if (namespace === undefined || account?.status !== "connected" || account.caipAddress === undefined || account.address === undefined) {
        return undefined
      }
      const network = yield* networks.activeNetwork(namespace).pipe(Effect.option)
      if (Option.isNone(network)) return undefined
      return { namespace, caipAddress: account.caipAddress, address: account.address, network: network.value }
    })

    /** Why an account cannot register a name (another family, a chain id too large), or its coin type. */
    const eligibility = (account: { readonly namespace: ChainNamespace; readonly network: CaipNetwork }): Result.Result<number, NamesIneligible> =>
      !supportsNames(account.namespace)
        ? Result.fail(new NamesNeedEvmAccount({ namespace: account.namespace }))
        : coinTypeOf(account.network)

    const start = Effect.gen(function* () {
      yield* FiberHandle.clear(checking)
      const account = yield* accountInFront
      const filled = (yield* SubscriptionRef.get(state)).filled + 1
      const allowed = account === undefined ? undefined : eligibility(account)
      yield* SubscriptionRef.set(state, {
        ...initialNamesState(suffix),
        filled,
        caipAddress: account?.caipAddress,
        namespace: account?.namespace,
        ineligible: allowed !== undefined && Result.isFailure(allowed) ? allowed.failure : undefined
      })
    })

    const open = Effect.gen(function* () {
      yield* start
      yield* modal.push({ view: "RegisterAccountName" })
    }).pipe(Effect.withSpan("Names.open"))

    const prepare = Effect.gen(function* () {
      const current = yield* SubscriptionRef.get(state)
      const account = yield* accountInFront
      if (registering(current.register)) return
      if (account === undefined || current.caipAddress !== account.caipAddress) yield* start
    }).pipe(Effect.withSpan("Names.prepare"))

    /** Asks whether `name` is free and names like `label`; what comes back applies only while `label` is still the one typed. */
    const lookUp = (label: string, name: string) => {
      const availability = api.resolveName(name).pipe(
        Effect.result,
        Effect.flatMap((found) => {
          const next: Availability = Result.isFailure(found)
            ? { _tag: "Failed", name, message: found.failure.message }
            : Option.isSome(found.success)
              ? { _tag: "Taken", name }
              : { _tag: "Available", name }
          return update((s) => (s.label === label ? { ...s, availability: next } : s))
        })
      )
      const suggestions = api.nameSuggestions(label, { zone: zoneOf(suffix) }).pipe(
        Effect.result,
        Effect.flatMap((answer) =>
          update((s) => {
            if (s.label !== label) return s
            if (Result.isFailure(answer)) return { ...s, suggestions: { _tag: "Failed", message: answer.failure.message } }
            const labels = answer.success.flatMap((suggestion) => {
              const free = suggestion.registered ? undefined : labelOf(suggestion.name, suffix)
              return free === undefined || free === label ? [] : [free]
            })
            return { ...s, suggestions: { _tag: "Ready", labels: [...new Set(labels)] } }
          })
        )
      )
      return Effect.all([availability, suggestions], { concurrency: 2, discard: true })
    }

    /** The visitor's input: checked at once; looked up after `wait` ms unless another input comes first. */
    const typed = (text: string, wait: number) =>
      Effect.gen(function* () {
        yield* FiberHandle.clear(checking)
        const candidate = labelInput(text, suffix)
        const valid = candidate === "" ? undefined : validateAccountName(candidate)
        const label = valid !== undefined && Result.isSuccess(valid) ? valid.success : undefined
        const availability: Availability =
          valid === undefined
            ? { _tag: "Empty" }
            : Result.isFailure(valid)
              ? { _tag: "Invalid", message: valid.failure }
              : { _tag: "Checking", name: fullName(valid.success, suffix) }
        yield* update((s) => ({
          ...s,
          input: text,
          label,
          availability,
          // A new name is a new attempt: the last failure was about another one.
          register: registering(s.register) ? s.register : { _tag: "Idle" },
          suggestions: label === undefined ? { _tag: "None" } : s.suggestions._tag === "Ready" ? s.suggestions : { _tag: "Loading" }
        }))
        if (label === undefined) return
        const name = fullName(label, suffix)
        yield* FiberHandle.run(checking, wait > 0 ? Effect.andThen(Effect.sleep(wait), lookUp(label, name)) : lookUp(label, name))
      })

    const setInput = Effect.fn("Names.setInput")(function* (text: string) {
      yield* typed(text, NAME_CHECK_DEBOUNCE_MS)
    })

    // A suggestion is a deliberate choice, not a keystroke: asked at once.
    const choose = Effect.fn("Names.choose")(function* (label: string) {
      yield* typed(label, 0)
    })

    /** Back on the form after a failure, when the visitor is still following this registration. */
    const backToForm = (error: RegisterFailure) =>
      Effect.gen(function* () {
        const current = yield* SubscriptionRef.get(modal.state)
        const views = current.history.map((entry) => entry.route.view)
        if (current.open && views.at(-1) === "RegisterAccountNameSuccess") {
          return yield* views.at(-2) === "RegisterAccountName" ? modal.goBack : modal.replace({ view: "RegisterAccountName" })
        }
        // The visitor left (closed the modal, went elsewhere): the form keeps the failure, and they hear of it now.
        yield* notifications.showSnackbar("error", error.message)
      })

    const submit = (label: string, name: string, address: string, coinType: number) =>
      Effect.gen(function* () {
        const message = nameMessageText(name, yield* Clock.currentTimeMillis)
        const signature = yield* actions.signMessage(message, "eip155")
        yield* update((s) => ({ ...s, register: { _tag: "Registering", name } }))
        yield* api.registerName({ coin_type: coinType, address, message, signature })
        // The service dropped the address's cached names: the account's name is read again, and is there by Done.
        yield* SubscriptionRef.update(revision, (n) => n + 1)
        yield* update((s) => ({ ...s, register: { _tag: "Registered", name } }))
      }).pipe(
        // Back on the form first, so the failure is said where the visitor can act on it.
        Effect.catch((error: RegisterFailure) =>
          Effect.andThen(backToForm(error), update((s) => ({ ...s, register: { _tag: "Failed", name, label, error } })))
        ),
        Effect.withSpan("Names.submit")
      )

    const register = Effect.fn("Names.register")(function* (label: string) {
      const current = yield* SubscriptionRef.get(state)
      if (registering(current.register)) return
      const valid = validateAccountName(labelInput(label, suffix))
      if (Result.isFailure(valid)) {
        return yield* update((s) => ({ ...s, input: label, filled: s.filled + 1, label: undefined, availability: { _tag: "Invalid", message: valid.failure } }))
      }
      const name = fullName(valid.success, suffix)
      const fail = (error: RegisterFailure) => update((s) => ({ ...s, register: { _tag: "Failed", name, label: valid.success, error } }))
      const account = yield* accountInFront
      if (account === undefined) return yield* fail(new CaipNetworkOrAddressUndefined())
      const coinType = eligibility(account)
      if (Result.isFailure(coinType)) return yield* fail(coinType.failure)
      yield* update((s) => ({ ...s, register: { _tag: "Signing", name } }))
      // Spec 4: the success view first; it shows the wallet's prompt, then the registration, then the name.
      yield* modal.push({ view: "RegisterAccountNameSuccess", name })
      // Followed in the service's scope: the visitor may close the modal while the wallet asks.
      yield* FiberHandle.run(submitting, submit(valid.success, name, account.address, coinType.success))
    })

    const finish = Effect.gen(function* () {
      yield* start
      yield* modal.reset({ view: "Account" })
    }).pipe(Effect.withSpan("Names.finish"))

    // The wallet moved to another account or network: a form for the old one would register a name for an account
    // the visitor no longer sees. A registration already asked of the wallet is left to end.
    yield* SubscriptionRef.changes(connection.state).pipe(
      Stream.mapEffect(() => accountInFront),
      Stream.map((account) => `${account?.caipAddress ?? ""}`),
      Stream.changes,
      Stream.runForEach((caipAddress) =>
        Effect.gen(function* () {
          const current = yield* SubscriptionRef.get(state)
          if (registering(current.register) || current.caipAddress === undefined || caipAddress === current.caipAddress) return
          yield* start
        })
      ),
      Effect.forkScoped
    )

    return { state, revision, open, prepare, setInput, choose, register, finish }
  }) satisfies Effect.Effect<NamesService, never, unknown>
