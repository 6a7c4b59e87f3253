/**
 * Atoms of the embedded (email) wallet: its state (from the EmbeddedWallet service) and one action per service
 * method — the email of the Connect view, the codes, the device link, the email change and the answers to an unsafe
 * request. What happens next (which view, when to connect) is the service's decision.
 */
import { Effect } from "effect"
import * as AsyncResult from "effect/reactivity/AsyncResult"
import type * as Atom from "effect/reactivity/Atom"
import type { EmbeddedAccountType, SocialProvider } from "../../domain/Account"
import { EmbeddedWallet } from "../../services/Embedded/EmbeddedWallet"
import type { EmbeddedState } from "../../services/Embedded/embeddedState"
import { mapAtom, stateAtom, walletRuntimeAtom } from "./runtime"

const embeddedStateAtom = stateAtom(Effect.map(EmbeddedWallet, (embedded) => embedded.state))

/** The embedded wallet's state, or `undefined` while the runtime starts. */
export const embeddedAtom: Atom.Atom<EmbeddedState | undefined> = mapAtom(embeddedStateAtom, (result) =>
  AsyncResult.getOrElse(result, () => undefined)
)

/** The Connect view's email (already validated by the view; the service checks it again). */
export const submitEmailFn = walletRuntimeAtom.fn((email: string) => Effect.flatMap(EmbeddedWallet, (embedded) => embedded.submitEmail(email)))

/** Mails another code or device link, once the cooldown is over. */
export const resendEmailFn = walletRuntimeAtom.fn((_: void) => Effect.flatMap(EmbeddedWallet, (embedded) => embedded.resend))

/** The EmailVerifyDevice view's "Wait again". */
export const waitForDeviceFn = walletRuntimeAtom.fn((_: void) => Effect.flatMap(EmbeddedWallet, (embedded) => embedded.waitForDevice))

/** The code of the EmailVerifyOtp view. */
export const submitOtpFn = walletRuntimeAtom.fn((otp: string) => Effect.flatMap(EmbeddedWallet, (embedded) => embedded.submitOtp(otp)))

/** Back to the email field. */
export const cancelLoginFn = walletRuntimeAtom.fn((_: void) => Effect.flatMap(EmbeddedWallet, (embedded) => embedded.cancelLogin))

/** The UpdateEmail form's new address. */
export const startEmailUpdateFn = walletRuntimeAtom.fn((newEmail: string) =>
  Effect.flatMap(EmbeddedWallet, (embedded) => embedded.startEmailUpdate(newEmail))
)

/** The code mailed to the current or the new address during an email change. */
export const submitEmailUpdateOtpFn = walletRuntimeAtom.fn((otp: string) =>
  Effect.flatMap(EmbeddedWallet, (embedded) => embedded.submitEmailUpdateOtp(otp))
)

/** Gives up an email change. */
export const cancelEmailUpdateFn = walletRuntimeAtom.fn((_: void) => Effect.flatMap(EmbeddedWallet, (embedded) => embedded.cancelEmailUpdate))

/** The ApproveTransaction view's Approve. */
export const approveRequestFn = walletRuntimeAtom.fn((_: void) => Effect.flatMap(EmbeddedWallet, (embedded) => embedded.approve))

/** The ApproveTransaction view's Reject. */
export const rejectRequestFn = walletRuntimeAtom.fn((_: void) => Effect.flatMap(EmbeddedWallet, (embedded) => embedded.reject))

/** The Account view's switch between the embedded wallet's smart account and EOA. */
export const setPreferredAccountFn = walletRuntimeAtom.fn((type: EmbeddedAccountType) =>
  Effect.flatMap(EmbeddedWallet, (embedded) => embedded.setPreferredAccount(type))
)

/** A social button: the embedded wallet opens the popup in this call, then the provider's page in it. */
export const connectSocialFn = walletRuntimeAtom.fn((provider: SocialProvider) =>
  Effect.flatMap(EmbeddedWallet, (embedded) => embedded.connectSocial(provider))
)

/** Stops waiting for the social login's popup. */
export const cancelSocialFn = walletRuntimeAtom.fn((_: void) => Effect.flatMap(EmbeddedWallet, (embedded) => embedded.cancelSocial))

/** The Farcaster button and the ConnectingFarcaster view's Try again: a new sign-in link, then the wait for it. */
export const connectFarcasterFn = walletRuntimeAtom.fn((_: void) => Effect.flatMap(EmbeddedWallet, (embedded) => embedded.connectFarcaster))

/** Stops waiting for the Farcaster app. */
export const cancelFarcasterFn = walletRuntimeAtom.fn((_: void) => Effect.flatMap(EmbeddedWallet, (embedded) => embedded.cancelFarcaster))
