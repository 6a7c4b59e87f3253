/**
 * EmbeddedWallet: the email wallet that lives in a hidden frame on the frame origin (`endpoints.frame`), with our
 * wallet server behind it (spec points 4, 6, 7.1). Its tag is in the runtime from the start and holds only its state;
 * the code that runs it (the frame bridge, the AUTH connector's providers, the login steps) is fetched when the
 * visitor chooses email, or when an embedded session must be restored.
 */
import { Context, Effect, Layer, SubscriptionRef } from "effect"
import type { EmbeddedService, EmbeddedState } from "./embeddedState"

export type {
  ApprovalSummary,
  EmailLoginStep,
  EmailUpdateStep,
  FarcasterLoginStep,
  PasskeyLoginStep,
  SocialLoginStep,
  EmbeddedService,
  EmbeddedState,
  PendingApproval
} from "./embeddedState"

/** The state of a runtime whose host offers no email login, or before anything happened. */
export const initialEmbeddedState = (enabled: boolean): EmbeddedState => ({
  enabled,
  login: { _tag: "Idle" },
  resendInSeconds: 0,
  error: undefined,
  email: undefined,
  update: { _tag: "Idle" },
  approval: undefined,
  social: { _tag: "Idle" },
  socialError: undefined,
  farcaster: { _tag: "Idle" },
  passkey: { _tag: "Idle" },
  passkeyError: undefined,
  socialUser: undefined,
  accountSwitch: { switching: undefined, error: undefined },
  recovery: undefined,
  needsRecovery: undefined,
  secureViewError: undefined
})

/** A service over `state` whose every method does nothing (no email login offered, or a test's). */
export const idleEmbeddedService = (state: SubscriptionRef.SubscriptionRef<EmbeddedState>): EmbeddedService => ({
  state,
  submitEmail: () => Effect.void,
  resend: Effect.void,
  waitForDevice: Effect.void,
  submitOtp: () => Effect.void,
  cancelLogin: Effect.void,
  startEmailUpdate: () => Effect.void,
  submitEmailUpdateOtp: () => Effect.void,
  cancelEmailUpdate: Effect.void,
  connectSocial: () => Effect.void,
  cancelSocial: Effect.void,
  connectFarcaster: Effect.void,
  cancelFarcaster: Effect.void,
  connectPasskey: () => Effect.void,
  cancelPasskey: Effect.void,
  approve: Effect.void,
  reject: Effect.void,
  setPreferredAccount: () => Effect.void,
  openSecureView: () => Effect.void,
  showSecureView: () => Effect.void,
  hideSecureView: Effect.void,
  refreshRecovery: Effect.void
})

/** The embedded wallet. */
export class EmbeddedWallet extends Context.Service<EmbeddedWallet, EmbeddedService>()("wallet-runtime/EmbeddedWallet") {
  /** A service that does nothing over a given state (tests of the views, hosts without email login). */
  static readonly layerState = (state: EmbeddedState): Layer.Layer<EmbeddedWallet> =>
    Layer.effect(EmbeddedWallet)(Effect.map(SubscriptionRef.make(state), idleEmbeddedService))
}
