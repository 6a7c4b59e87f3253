/**
 * The embedded (email) wallet's state and the shape of its service: what the views render, and what both the
 * service's tag (in the runtime from the start, holding nothing but this state) and its implementation (fetched when
 * the visitor chooses email, or an embedded session must be restored) agree on.
 */
import type { Effect, SubscriptionRef } from "effect"
import type { EmbeddedAccountType, SocialLogin, SocialProvider } from "../../domain/Account"
import type { SecureViewKind } from "../../domain/Frame"
import type { PasskeyMode } from "../../domain/passkey"
import type { FramePlace } from "../FrameBridge/FrameBridge"

/** Where an email login stands. */
export type EmailLoginStep =
  /** Nothing under way (the email field of the Connect view). */
  | { readonly _tag: "Idle" }
  /** The email was sent to the wallet server; waiting for its answer (the field's button shows it). */
  | { readonly _tag: "SendingEmail"; readonly email: string }
  /**
   * The device is new for this email: a link was mailed to verify it (EmailVerifyDevice view). `waiting` while the
   * frame waits for the link to be followed; false after a 30 s step ended without it (the view offers to wait again).
   */
  | { readonly _tag: "VerifyDevice"; readonly email: string; readonly waiting: boolean }
  /** A code was mailed (EmailVerifyOtp view); `submitting` while it is checked. */
  | { readonly _tag: "VerifyOtp"; readonly email: string; readonly submitting: boolean }
  /** The code was right; the embedded wallet connects (accounts of each family). */
  | { readonly _tag: "Connecting"; readonly email: string }

/** Where a social login stands. */
export type SocialLoginStep =
  | { readonly _tag: "Idle" }
  /** The provider's page is open in the popup; waiting for the visitor to log in there (at most 30000 ms). */
  | { readonly _tag: "Waiting"; readonly provider: SocialProvider }
  /** The provider answered; the frame finishes the login and the embedded wallet connects. */
  | { readonly _tag: "Connecting"; readonly provider: SocialProvider | undefined }

/** Where a passkey login stands. */
export type PasskeyLoginStep =
  | { readonly _tag: "Idle" }
  /** The passkey window (on the frame's origin) is open; the visitor uses or creates the passkey there. */
  | { readonly _tag: "Waiting"; readonly mode: PasskeyMode }
  /** The wallet server took the passkey's answer; the frame opens the session and the embedded wallet connects. */
  | { readonly _tag: "Connecting"; readonly mode: PasskeyMode }

/** Where a Farcaster login (Sign In With Farcaster, the ConnectingFarcaster view) stands. */
export type FarcasterLoginStep =
  | { readonly _tag: "Idle" }
  /** The frame opens a channel on the wallet server. */
  | { readonly _tag: "Starting" }
  /** The channel's link (QR code and deep link) waits for the Farcaster app's signature, until `expiresAt` (epoch ms). */
  | { readonly _tag: "Waiting"; readonly url: string; readonly expiresAt: number | undefined }
  /** Signed: the embedded wallet connects for the Farcaster user `username`. */
  | { readonly _tag: "Connecting"; readonly username: string }
  /** It ended without a login (`expired`: the link ran out unsigned); the view offers Try again. */
  | { readonly _tag: "Failed"; readonly message: string; readonly expired: boolean }

/** Where an email change stands (from the Account view's "Update email"). */
export type EmailUpdateStep =
  | { readonly _tag: "Idle" }
  /** The new address was sent; waiting for the server. */
  | { readonly _tag: "Sending"; readonly newEmail: string }
  /** A code was mailed to the current address (UpdateEmailPrimaryOtp view). */
  | { readonly _tag: "PrimaryOtp"; readonly newEmail: string; readonly submitting: boolean }
  /** A code was mailed to the new address (UpdateEmailSecondaryOtp view). */
  | { readonly _tag: "SecondaryOtp"; readonly newEmail: string; readonly submitting: boolean }

/**
 * What an unsafe request asks, in plain words, for the ApproveTransaction view. Amounts are already formatted with
 * their symbol (`0.01 ETH`), addresses in full.
 */
export type ApprovalSummary =
  /** personal_sign, solana_signMessage: the message as text (or hex when it is not text). */
  | { readonly _tag: "Message"; readonly text: string }
  /** eth_signTypedData_v4: who asks (the domain's name, if any), the primary type and its fields, flattened. */
  | {
      readonly _tag: "TypedData"
      readonly domainName: string | undefined
      readonly primaryType: string
      readonly fields: ReadonlyArray<readonly [label: string, value: string]>
    }
  /** eth_sendTransaction / one call of wallet_sendCalls: receiver, value and data. */
  | {
      readonly _tag: "Transaction"
      readonly to: string | undefined
      readonly value: string
      readonly data: string | undefined
    }
  /** wallet_sendCalls: each call. */
  | {
      readonly _tag: "Calls"
      readonly calls: ReadonlyArray<{ readonly to: string | undefined; readonly value: string; readonly data: string | undefined }>
    }
  /** A Solana transaction whose instructions are a SOL transfer: receiver and amount. */
  | { readonly _tag: "SolanaTransfer"; readonly to: string; readonly amount: string }
  /** Any other Solana transaction (or several): how many, and the programs they call. */
  | { readonly _tag: "SolanaTransactions"; readonly count: number; readonly programs: ReadonlyArray<string> }
  /** ERC-7715: the permissions a site asks for (`grant`), or the one it gives up, in plain words. */
  | { readonly _tag: "Permissions"; readonly grant: boolean; readonly permissions: ReadonlyArray<PermissionWords> }

/** One ERC-7715 permission in plain words: the token, how much and how often, until when, and the site's reason. */
export interface PermissionWords {
  /** The whole permission as one sentence (what a screen reader hears first). */
  readonly sentence: string
  readonly token: string
  /** `Up to 0.01 ETH per day`, or a stream's rate. */
  readonly amount: string
  /** The expiry in the visitor's locale. */
  readonly until: string
  /** The site's own justification, if it gave one. */
  readonly reason: string | undefined
}

/** An unsafe request waiting on the visitor in the ApproveTransaction view. */
export interface PendingApproval {
  /** Increases with each request (a view keyed by it never shows the previous request's answer). */
  readonly id: number
  readonly method: string
  /** The network it is for (CAIP-2) and its name. */
  readonly chainId: string
  readonly networkName: string
  readonly summary: ApprovalSummary
  /** True once approved, while the frame signs or sends. */
  readonly working: boolean
}

/** The embedded wallet as the views and hooks see it. */
export interface EmbeddedState {
  /** Whether the host offers the embedded wallet: email login (`features.email`) or social logins, and a frame endpoint. */
  readonly enabled: boolean
  readonly login: EmailLoginStep
  /** Seconds until another code may be mailed (0: now); counts down once a second while above 0. */
  readonly resendInSeconds: number
  /** The last failure of a login or email-change step, in the visitor's words; cleared by the next step. */
  readonly error: string | undefined
  /** The email of the logged-in embedded wallet (shown on the Account view), once connected. */
  readonly email: string | undefined
  readonly update: EmailUpdateStep
  readonly approval: PendingApproval | undefined
  readonly social: SocialLoginStep
  /** The last failure of a social login, in the visitor's words (shown by the social buttons). */
  readonly socialError: string | undefined
  readonly farcaster: FarcasterLoginStep
  readonly passkey: PasskeyLoginStep
  /** The last failure of a passkey login, in the visitor's words (shown under the passkey buttons). */
  readonly passkeyError: string | undefined
  /** The provider and name of the connected embedded wallet when it was a social login (the Account view's). */
  readonly socialUser: { readonly provider: SocialLogin | undefined; readonly username: string } | undefined
  /** The Account view's switch between the EVM accounts: the type being put in front, and the last failure in words. */
  readonly accountSwitch: { readonly switching: EmbeddedAccountType | undefined; readonly error: string | undefined }
  /** What protects the recovery share (`device`: nothing the visitor chose yet), once the frame said; undefined before. */
  readonly recovery: "device" | "password" | "passkey" | undefined
  /**
   * Whether this device lacks a share of the wallet's split key (a new device): it recovers with the password or
   * passkey before it can sign (or, while `recovery` is `device`, cannot here). Undefined until the frame said.
   */
  readonly needsRecovery: boolean | undefined
  /** Why the frame could not show its secure view, in the visitor's words (the SecureFrame view says it). */
  readonly secureViewError: string | undefined
}

/** What the service does; the same shape for its tag and its implementation. */
export interface EmbeddedService {
  readonly state: SubscriptionRef.SubscriptionRef<EmbeddedState>
  /** The Connect view's email: validated here (a malformed address is refused before any request). */
  readonly submitEmail: (email: string) => Effect.Effect<void>
  /** Mails a new code (or device link) once the cooldown is over. */
  readonly resend: Effect.Effect<void>
  /** The EmailVerifyDevice view's "Wait again" after a step timed out. */
  readonly waitForDevice: Effect.Effect<void>
  /** The EmailVerifyOtp view's code; connects on success. */
  readonly submitOtp: (otp: string) => Effect.Effect<void>
  /** Back to the email field (the views' Back). */
  readonly cancelLogin: Effect.Effect<void>
  /** The Account view's "Update email": starts the change to `newEmail`. */
  readonly startEmailUpdate: (newEmail: string) => Effect.Effect<void>
  /** The code mailed to the current (PrimaryOtp) or the new (SecondaryOtp) address. */
  readonly submitEmailUpdateOtp: (otp: string) => Effect.Effect<void>
  readonly cancelEmailUpdate: Effect.Effect<void>
  /**
   * A social button: opens the popup at once (in the click), then sends it to the provider; without a popup the page
   * itself goes there and comes back with `result_uri`. Closed popup: cancelled; 30000 ms: the SOCIALS_TIMEOUT alert.
   */
  readonly connectSocial: (provider: SocialProvider) => Effect.Effect<void>
  /** Stops waiting for the popup (and closes it). */
  readonly cancelSocial: Effect.Effect<void>
  /**
   * The Farcaster button (and the view's Try again): shows ConnectingFarcaster with a new channel's link, then waits
   * for its signature until the channel expires; signed, connects like a social login.
   */
  readonly connectFarcaster: Effect.Effect<void>
  /** Stops waiting for the Farcaster app (leaving the view does too). */
  readonly cancelFarcaster: Effect.Effect<void>
  /**
   * The passkey buttons: opens the passkey window at once (in the click), where the visitor creates a passkey
   * (`create`, a new wallet) or uses theirs (`login`); connects once the wallet server took its answer. Closed
   * window or dismissed prompt: cancelled, nothing changed; every wait bounded.
   */
  readonly connectPasskey: (mode: PasskeyMode) => Effect.Effect<void>
  /** Stops waiting for the passkey window (and closes it). */
  readonly cancelPasskey: Effect.Effect<void>
  /** The ApproveTransaction view's answers. */
  readonly approve: Effect.Effect<void>
  readonly reject: Effect.Effect<void>
  /** The Account view's switch: puts the EVM account of `type` (smart account or EOA) in front. */
  readonly setPreferredAccount: (type: EmbeddedAccountType) => Effect.Effect<void>
  /** Opens the frame's view of `kind` in the modal (the Account view's "Protect your wallet", "Export private key"). */
  readonly openSecureView: (kind: SecureViewKind) => Effect.Effect<void>
  /** The SecureFrame view holds `place`: the frame is shown over it with its view until the view ends or is left. */
  readonly showSecureView: (place: FramePlace) => Effect.Effect<void>
  /** The SecureFrame view is gone: the frame is hidden again and drops its view. */
  readonly hideSecureView: Effect.Effect<void>
  /** Asks the frame what protects the wallet's recovery share (the Account view of an embedded wallet). */
  readonly refreshRecovery: Effect.Effect<void>
}
