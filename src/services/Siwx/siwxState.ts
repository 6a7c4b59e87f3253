/**
 * Sign-in's state and the shape of the Siwx service: what the views render, and what both the service's tag (in the
 * runtime from the start) and its implementation (fetched when the host configured sign-in) agree on.
 */
import type { Effect, SubscriptionRef } from "effect"
import type { CaipAddress, CaipNetworkId, ChainNamespace } from "../../domain/Caip"
import type { SignatureDeclined, SignInFailed } from "../../domain/errors"
import type { SmartAccountSignInRefused } from "../../domain/smartAccountSignIn"
import type { SiwxAuthenticateFields, SiwxSession } from "../../domain/Siwx"
import type { ConnectedWallet } from "../Connection"
import type { ConnectCancelled } from "../ConnectFlow"

/** The account sign-in is about: the family, its network (CAIP-2) and address. */
export interface SiwxAccount {
  readonly namespace: ChainNamespace
  readonly chainId: CaipNetworkId
  readonly address: string
  readonly caipAddress: CaipAddress
}

/** Why the last attempt to sign in did not end with a session. */
export type SiwxError = SignatureDeclined | SignInFailed | SmartAccountSignInRefused

/** Where sign-in stands for the account in front. */
export type SiwxStep =
  /** The host configured no sign-in. */
  | { readonly _tag: "Disabled" }
  /** No account in front. */
  | { readonly _tag: "SignedOut" }
  /** Asking the backend whether the account has a session. */
  | { readonly _tag: "Checking"; readonly account: SiwxAccount }
  /**
   * The account has no session: the sign view asks for one (`signing` while the wallet shows its prompt). `final`:
   * nothing the visitor can do on this device lets the account sign (`error` says what to do elsewhere), so the view
   * offers no Sign again, only Check again (`signIn` reads the account anew, signing once it can) or leaving.
   */
  | { readonly _tag: "Needed"; readonly account: SiwxAccount; readonly signing: boolean; readonly error: SiwxError | undefined; readonly final: boolean }
  /** Signed in; `session` is the signed message when the backend gives it (the legacy `siweConfig` keeps only who). */
  | { readonly _tag: "SignedIn"; readonly account: SiwxAccount; readonly session: SiwxSession | undefined }

/** Sign-in as the views and hooks see it. */
export interface SiwxState {
  /** Sign-in is required by the host: no closing the modal without a session. */
  readonly required: boolean
  /** Whom the visitor signs in to: the host's name from its metadata. */
  readonly siteName: string
  readonly step: SiwxStep
}

/**
 * Sign-in made while connecting (one-click, WalletConnect's `wc_sessionAuthenticate`): what the connector asks the
 * wallet to sign, and keeping what the wallet signed there, before the connect flow's sign-in step looks for it.
 */
export interface SiwxOneClick {
  /** The message fields for these chains; `undefined` when the backend signs in only in two steps or cannot now. */
  readonly fields: (chains: ReadonlyArray<CaipNetworkId>) => Effect.Effect<SiwxAuthenticateFields | undefined>
  /**
   * Keeps each signed message as a session (`data`, unchecked, is what the wallet's answer says; it is kept only when
   * `message`, the exact text signed, is the sign-in text of that data); gives how many the backend kept.
   */
  readonly keep: (signed: ReadonlyArray<{ readonly data: unknown; readonly message: string; readonly signature: string }>) => Effect.Effect<number>
}

/** What the service does; the same shape for its tag (in the runtime from the start) and its implementation. */
export interface SiwxService {
  readonly state: SubscriptionRef.SubscriptionRef<SiwxState>
  /** The visitor asked to sign (the view's Sign button, Try again after a refusal, or Check again on a final step). */
  readonly signIn: Effect.Effect<void>
  /** The view's Cancel: disconnects when sign-in is required, otherwise closes the modal. */
  readonly cancel: Effect.Effect<void>
  /** Revokes the session of the account in front; when sign-in is required, disconnects too. */
  readonly signOut: Effect.Effect<void>
  /**
   * After a wallet connected: nothing when a session covers the account in front; otherwise the sign view, and the
   * outcome — the session, `undefined` when the visitor went on without one, ConnectCancelled when sign-in was
   * required and the visitor cancelled (the wallet is disconnected then).
   */
  readonly afterConnect: (wallet: ConnectedWallet) => Effect.Effect<SiwxSession | undefined, ConnectCancelled>
  /** One-click sign-in for the connectors that can (WalletConnect); `undefined` when the host configured no sign-in. */
  readonly oneClick: SiwxOneClick | undefined
}
