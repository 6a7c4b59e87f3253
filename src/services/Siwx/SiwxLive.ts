/**
 * The sign-in flow (spec point 4), fetched only when the host configured sign-in: it follows the account in front,
 * checks it for a session, shows the sign view when it has none, signs, keeps the session, and signs out on
 * disconnect when asked to. One check runs per account at a time; a new account in front settles the previous one.
 */
import { Deferred, Effect, Fiber, Result, Schema, Stream, SubscriptionRef } from "effect"
import { caipAddressOn, caipNetworkIdOfAddress, type ChainNamespace, parseCaipNetworkId } from "../../domain/Caip"
import { SignatureDeclined, SignInFailed } from "../../domain/errors"
import { SmartAccountSignInRefused } from "../../domain/smartAccountSignIn"
import { SiwxMessageData, type SiwxSession } from "../../domain/Siwx"
import { formatSiwxMessage } from "../../domain/siwxMessage"
import { Config } from "../Config"
import { Connection, type ConnectionState } from "../Connection"
import { ConnectCancelled } from "../ConnectFlow"
import { currentEntry, Modal } from "../Modal"
import { WalletActions } from "../WalletActions"
import { backendOf, type SiwxBackend } from "./backends"
import type { SiwxAccount, SiwxError, SiwxOneClick, SiwxService, SiwxState, SiwxStep } from "./siwxState"

/** The account in front when it is connected. */
export const accountInFront = (state: ConnectionState): SiwxAccount | undefined => {
  const namespace = state.activeNamespace
  const account = namespace === undefined ? undefined : state.namespaces[namespace]?.account
  if (namespace === undefined || account?.status !== "connected" || account.caipAddress === undefined || account.address === undefined) {
    return undefined
  }
  return { namespace, chainId: caipNetworkIdOfAddress(account.caipAddress), address: account.address, caipAddress: account.caipAddress }
}

// The views where the connect flow runs: an account put in front there is the flow's to check (afterConnect).
const CONNECTING_VIEWS = new Set(["ConnectingExternal", "WalletConnectBasic", "ConnectingWalletConnect"])

/** How one check of an account ended. */
type Outcome =
  | { readonly _tag: "Session"; readonly session: SiwxSession | undefined }
  | { readonly _tag: "Skipped" }
  | { readonly _tag: "Cancelled" }

const SKIPPED: Outcome = { _tag: "Skipped" }

/** Why the wallet did not sign, in the spec's words for a refusal. */
const signFailure = (error: { readonly _tag: string; readonly message: string }): SiwxError =>
  error._tag === "UserRejected" ? new SignatureDeclined() : new SignInFailed({ reason: error.message })

/**
 * Why an account cannot sign in now, in the visitor's words; `final` when nothing on this device can change that
 * (the words say what to do elsewhere), so Sign is not offered again.
 */
export interface SignInBlocked {
  readonly reason: string
  readonly final: boolean
}

/**
 * The step before an account is asked to sign in: it may show its own view and wait on the visitor; it gives
 * `undefined` when the account can sign now, otherwise why it cannot.
 */
export type SignInPrerequisite = (account: SiwxAccount) => Effect.Effect<SignInBlocked | undefined>

// Each runtime's step, under its sign-in state (and gone with it). Set by a wallet's code that loads later than this
// (the embedded wallet's flows: Recover on a device without the share of its key); kept here, in the code fetched only
// when the host configured sign-in, so the runtime's start carries none of it.
const steps = new WeakMap<SubscriptionRef.SubscriptionRef<SiwxState>, SignInPrerequisite>()

/** Sets the step before signing in for the runtime whose sign-in state is `state` (one at a time). */
export const requireFirst = (state: SubscriptionRef.SubscriptionRef<SiwxState>, step: SignInPrerequisite): Effect.Effect<void> =>
  Effect.sync(() => void steps.set(state, step))

/** The live flow over the host's configuration (`kind` says which option it came from). */
export const makeSiwx = (state: SubscriptionRef.SubscriptionRef<SiwxState>, configured: unknown, kind: "siwx" | "siweConfig") =>
  Effect.gen(function* () {
    const connection = yield* Connection
    const modal = yield* Modal
    const wallet = yield* WalletActions
    const config = yield* Config
    // Checks run in the runtime's scope: disposing the runtime stops one still waiting on a backend.
    const scope = yield* Effect.scope
    const backend: SiwxBackend = yield* backendOf(configured, kind)
    const required = backend.required
    yield* SubscriptionRef.update(state, (s) => ({ ...s, required }))

    // What comes before an account is asked to sign, as a wallet's code set it by now; nothing when none did.
    const first = (account: SiwxAccount) => steps.get(state)?.(account) ?? Effect.succeed(undefined)

    // The account being checked or asked to sign, and how that ends.
    let pending: { readonly account: SiwxAccount; readonly outcome: Deferred.Deferred<Outcome> } | undefined

    const setStep = (step: SiwxStep) => SubscriptionRef.update(state, (s) => ({ ...s, step }))

    // The sign view asking `account`, saying why it cannot sign now when it cannot.
    const needed = (account: SiwxAccount, blocked: SignInBlocked | undefined): Extract<SiwxStep, { _tag: "Needed" }> => ({
      _tag: "Needed",
      account,
      signing: false,
      error: blocked === undefined ? undefined : new SignInFailed({ reason: blocked.reason }),
      final: blocked?.final === true
    })

    const settle = (outcome: Outcome) =>
      Effect.suspend(() => {
        const settling = pending
        pending = undefined
        return settling === undefined ? Effect.void : Deferred.succeed(settling.outcome, outcome).pipe(Effect.asVoid)
      })

    // The site's verifier refused the signature: for a smart account, the spec's words (its verifier may not know
    // ERC-1271 or ERC-6492); for any other account, the site's own.
    const refusedBySite = (refused: SignInFailed) =>
      Effect.flatMap(SubscriptionRef.get(connection.state), (now): Effect.Effect<never, SiwxError> => {
        const smart = now.activeNamespace === "eip155" && now.namespaces.eip155?.account.preferredAccountType === "smartAccount"
        return Effect.fail(smart ? new SmartAccountSignInRefused({ reason: refused.reason }) : refused)
      })

    const isPending = (account: SiwxAccount) => pending?.account.caipAddress === account.caipAddress

    const showSignView = Effect.gen(function* () {
      if (required) yield* modal.setSignInRequired(true)
      const now = yield* SubscriptionRef.get(modal.state)
      if (!now.open) return yield* modal.open({ view: "SIWXSignMessage" })
      if (currentEntry(now).route.view !== "SIWXSignMessage") yield* modal.reset({ view: "SIWXSignMessage" })
    })

    const check = (account: SiwxAccount) =>
      Effect.gen(function* () {
        yield* setStep({ _tag: "Checking", account })
        const found = yield* backend.getSessions(account).pipe(
          Effect.catch((error) => Effect.logWarning(`Sign-in: could not read the sessions: ${error.message}`).pipe(Effect.as(undefined)))
        )
        if (!isPending(account)) return
        if (found !== undefined && found.signedIn) {
          yield* setStep({ _tag: "SignedIn", account, session: found.session })
          if (required) yield* modal.setSignInRequired(false)
          return yield* settle({ _tag: "Session", session: found.session })
        }
        // A wallet that cannot sign yet comes first (the embedded wallet's Recover, in its own view); what it could not
        // do is said in the sign view, as a refusal is. Required sign-in holds the modal open through it.
        if (required) yield* modal.setSignInRequired(true)
        const blocked = yield* first(account)
        if (!isPending(account)) return
        // The view first, then the step: whoever sees the step asked for sees the view asking.
        yield* showSignView
        yield* setStep(needed(account, blocked))
      })

    // Checks the account unless it is being checked already; gives how that ends.
    const ensure = (account: SiwxAccount) =>
      Effect.gen(function* () {
        if (pending !== undefined && isPending(account)) return yield* Deferred.await(pending.outcome)
        // A check forked for an account that left the front before it began (the follower saw it for a moment only,
        // and has followed on already): nothing to ask of it, nor to settle in its name.
        if (accountInFront(yield* SubscriptionRef.get(connection.state))?.caipAddress !== account.caipAddress) return SKIPPED
        yield* settle(SKIPPED)
        const outcome = yield* Deferred.make<Outcome>()
        pending = { account, outcome }
        yield* Effect.forkIn(check(account), scope)
        return yield* Deferred.await(outcome)
      })

    const signIn = Effect.gen(function* () {
      const current = (yield* SubscriptionRef.get(state)).step
      if (current._tag !== "Needed" || current.signing) return
      const account = current.account
      // On a final step this is the visitor's Check again: what stopped the account is read anew, as a check (nothing
      // tells this device when it changes elsewhere: the key protected on its first device), then signed if it can.
      yield* setStep(current.final ? { _tag: "Checking", account } : { ...needed(account, undefined), signing: true })
      // What stands before signing (Recover on a new device) comes first: when it still stands, nothing is signed.
      const blocked = yield* first(account)
      if (current.final && blocked === undefined) yield* setStep({ ...needed(account, undefined), signing: true })
      const signed = blocked !== undefined ? undefined : yield* Effect.gen(function* () {
        const message = yield* backend.createMessage({ accountAddress: account.address, chainId: account.chainId })
        const signature = yield* wallet.signMessage(message.text, account.namespace).pipe(Effect.mapError(signFailure))
        const session: SiwxSession = { data: message.data, message: message.text, signature }
        yield* backend.addSession(account, session).pipe(Effect.catch(refusedBySite))
        return session
      }).pipe(Effect.result)
      // The visitor moved to another account meanwhile: this signature belongs to none in front.
      if (accountInFront(yield* SubscriptionRef.get(connection.state))?.caipAddress !== account.caipAddress) return
      if (signed === undefined) return yield* setStep(needed(account, blocked))
      if (signed._tag === "Failure") {
        return yield* setStep({ ...needed(account, undefined), error: signed.failure })
      }
      yield* setStep({ _tag: "SignedIn", account, session: signed.success })
      yield* modal.setSignInRequired(false)
      if (isPending(account)) yield* settle({ _tag: "Session", session: signed.success })
      const now = yield* SubscriptionRef.get(modal.state)
      if (now.open && currentEntry(now).route.view === "SIWXSignMessage") yield* modal.close
    }).pipe(Effect.withSpan("Siwx.signIn"))

    const disconnectAccount = (namespace: ChainNamespace) =>
      connection.disconnect(namespace).pipe(Effect.catch((error) => Effect.logWarning(`Sign-in: disconnect failed: ${error.message}`)))

    const cancel = Effect.gen(function* () {
      const current = (yield* SubscriptionRef.get(state)).step
      if (current._tag !== "Needed") return yield* modal.close
      if (required) {
        yield* modal.setSignInRequired(false)
        yield* settle({ _tag: "Cancelled" })
        yield* disconnectAccount(current.account.namespace)
      } else {
        yield* settle(SKIPPED)
      }
      yield* modal.close
    }).pipe(Effect.withSpan("Siwx.cancel"))

    const revoke = (account: SiwxAccount) =>
      backend.revokeSession(account).pipe(Effect.catch((error) => Effect.logWarning(`Sign-in: revoking failed: ${error.message}`)))

    const signOut = Effect.gen(function* () {
      const current = (yield* SubscriptionRef.get(state)).step
      if (current._tag !== "SignedIn") return
      yield* revoke(current.account)
      if (required) return yield* disconnectAccount(current.account.namespace)
      yield* setStep(needed(current.account, undefined))
    }).pipe(Effect.withSpan("Siwx.signOut"))

    const afterConnect = Effect.fn("Siwx.afterConnect")(function* () {
      const account = accountInFront(yield* SubscriptionRef.get(connection.state))
      if (account === undefined) return undefined
      const outcome = yield* ensure(account)
      if (outcome._tag === "Cancelled") return yield* new ConnectCancelled()
      return outcome._tag === "Session" ? outcome.session : undefined
    })

    // The account in front changed: a new one is checked (unless the connect flow does it), none signs out.
    const follow = (account: SiwxAccount | undefined, previous: SiwxStep) =>
      Effect.gen(function* () {
        if (account === undefined) {
          yield* settle(SKIPPED)
          yield* setStep({ _tag: "SignedOut" })
          if (required) yield* modal.setSignInRequired(false)
          if (previous._tag === "SignedIn" && backend.signOutOnDisconnect) yield* revoke(previous.account)
          return
        }
        const view = yield* SubscriptionRef.get(modal.state)
        if (view.open && CONNECTING_VIEWS.has(currentEntry(view).route.view)) return
        yield* Effect.forkIn(ensure(account), scope)
      })

    yield* SubscriptionRef.changes(connection.state).pipe(
      Stream.map(accountInFront),
      Stream.changesWith((a, b) => a?.caipAddress === b?.caipAddress),
      Stream.runForEach((account) => Effect.flatMap(SubscriptionRef.get(state), (s) => follow(account, s.step))),
      Effect.forkScoped
    )

    // Closing the modal on the sign view (when sign-in is not required) is going on without a session.
    yield* SubscriptionRef.changes(modal.state).pipe(
      Stream.map((s) => s.open),
      Stream.changes,
      Stream.filter((open) => !open),
      Stream.runForEach(() =>
        Effect.gen(function* () {
          const current = (yield* SubscriptionRef.get(state)).step
          if (current._tag === "Needed" && !required && !current.signing) yield* settle(SKIPPED)
        })
      ),
      Effect.forkScoped
    )

    // One message the wallet signed while connecting, kept as the session of the account and chain it names, only when
    // the text it signed is exactly the sign-in text of its data (so what the wallet signed and what is kept agree).
    const keepSigned = (signed: { readonly data: unknown; readonly message: string; readonly signature: string }) =>
      Effect.gen(function* () {
        const data = Schema.decodeUnknownResult(SiwxMessageData)(signed.data)
        const text = Result.flatMap(Result.mapError(data, String), formatSiwxMessage)
        if (Result.isFailure(data) || Result.isFailure(text) || text.success !== signed.message) {
          yield* Effect.logWarning(`Sign-in: the wallet signed a text that is not the sign-in text of its data: ${signed.message}`)
          return 0
        }
        const { chainId, accountAddress } = data.success
        const network = parseCaipNetworkId(chainId)
        const caipAddress = caipAddressOn(chainId, accountAddress)
        if (Result.isFailure(network) || Result.isFailure(caipAddress)) return 0
        const account: SiwxAccount = { namespace: network.success.namespace, chainId, address: accountAddress, caipAddress: caipAddress.success }
        return yield* backend.addSession(account, { data: data.success, message: signed.message, signature: signed.signature }).pipe(
          Effect.as(1),
          Effect.catch((error) => Effect.logWarning(`Sign-in: a session signed while connecting was not kept: ${error.message}`).pipe(Effect.as(0)))
        )
      })

    const oneClick: SiwxOneClick = {
      fields: (chains) =>
        backend.authenticateParams(chains).pipe(
          Effect.catch((error) => Effect.logWarning(`Sign-in: connecting without one-click sign-in: ${error.message}`).pipe(Effect.as(undefined))),
          Effect.withSpan("Siwx.oneClickFields")
        ),
      keep: (signed) =>
        Effect.forEach(signed, keepSigned).pipe(
          Effect.map((kept) => kept.reduce((sum, one) => sum + one, 0)),
          Effect.withSpan("Siwx.keepOneClick")
        )
    }

    yield* Effect.logDebug(`Sign-in through ${kind} for ${config.metadata?.name ?? "this site"}`)
    // The signing runs in the runtime's scope, not the caller's: the embedded wallet asks for approval in a view
    // pushed over the sign view, which unmounts it and ends the click's action — the signature must still be used.
    const signInKept = Effect.flatMap(Effect.forkIn(signIn, scope), Fiber.join)
    return { state, signIn: signInKept, cancel, signOut, afterConnect: () => afterConnect(), oneClick } satisfies SiwxService
  })
