/**
 * Passkey login (the embedded wallet): what the passkey page — a popup on the frame's origin, where WebAuthn runs —
 * posts to the page that opened it, and the words the visitor reads for each outcome. The page posts only to the
 * host's exact origin; the modal takes the message only from the popup it opened, from the frame's origin.
 */
import { Schema } from "effect"

/** The type of the passkey page's message. */
export const PASSKEY_PAGE_MESSAGE = "wallet-runtime/passkey"

/** What a passkey ceremony is for: a new passkey (a new wallet), or logging in with one made before. */
export type PasskeyMode = "create" | "login"

/**
 * How the ceremony ended in the popup: `verified` (the wallet server took the passkey's answer), `cancelled` (the
 * visitor dismissed the browser's prompt, or it timed out: WebAuthn tells the two apart to no page), `unsupported`
 * (no passkeys in this browser), `failed` with the wallet server's or the browser's words.
 */
export const PasskeyPageMessage = Schema.Union([
  Schema.Struct({ type: Schema.Literal(PASSKEY_PAGE_MESSAGE), outcome: Schema.Literals(["verified", "cancelled", "unsupported"]) }),
  Schema.Struct({ type: Schema.Literal(PASSKEY_PAGE_MESSAGE), outcome: Schema.Literal("failed"), message: Schema.String.pipe(Schema.check(Schema.isMaxLength(300))) })
])
/** The passkey page's message. */
export type PasskeyPageMessage = typeof PasskeyPageMessage.Type

/** How a ceremony ended, as the passkey page tells it (its message without the type). */
export type PasskeyOutcome =
  | { readonly outcome: "verified" | "cancelled" | "unsupported" }
  | { readonly outcome: "failed"; readonly message: string }

/** Decodes a message posted to the host page; `undefined` for anything but a well-formed passkey page message. */
export const decodePasskeyPageMessage = (input: unknown): PasskeyPageMessage | undefined => {
  const decoded = Schema.decodeUnknownOption(PasskeyPageMessage)(input, { onExcessProperty: "error" })
  return decoded._tag === "Some" ? decoded.value : undefined
}

/** The outcome of a browser's WebAuthn failure, by the `DOMException`'s name. */
export const passkeyOutcomeOf = (name: string): "cancelled" | "unsupported" | undefined =>
  name === "NotAllowedError" || name === "AbortError" ? "cancelled" : name === "NotSupportedError" ? "unsupported" : undefined

/** Why a passkey login did not log the visitor in, as the modal says it. */
export type PasskeyFailure =
  | { readonly _tag: "Cancelled" }
  | { readonly _tag: "WindowClosed" }
  | { readonly _tag: "Blocked" }
  | { readonly _tag: "TimedOut" }
  | { readonly _tag: "Unsupported" }
  | { readonly _tag: "Failed"; readonly message: string }

/** The words the visitor reads for each way a passkey login can end without a login. */
export const passkeyFailureWords = (failure: PasskeyFailure): string => {
  switch (failure._tag) {
    case "Cancelled":
      return "The passkey request was cancelled. Nothing was changed: try again when you are ready."
    case "WindowClosed":
      return "The passkey window was closed before you used your passkey. Nothing was changed: try again."
    case "Blocked":
      return "Your browser blocked the passkey window: allow pop-ups for this site, then try again."
    case "TimedOut":
      return "The passkey request took too long: try again."
    case "Unsupported":
      return "This browser cannot use passkeys: log in another way."
    case "Failed":
      return failure.message
  }
}
