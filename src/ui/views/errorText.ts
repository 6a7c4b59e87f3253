/**
 * The one place that turns a failure into the words a visitor sees. Errors of the catalogue already carry the
 * spec's exact text as their message; this adds a heading per kind of failure and hides the internals of anything
 * that is not ours (a defect shows 'Something went wrong', never a stack or a tag).
 */
import { Cause, Option } from "effect"

/** Headings shown above an error's message, by error tag. */
const HEADINGS: Readonly<Record<string, string>> = {
  UserRejected: "Request declined",
  ProviderNotFound: "Wallet not found",
  ChainNotSupported: "Network not supported",
  ProgrammaticSwitchUnsupported: "Switch in your wallet",
  NetworkNotFound: "Network not found",
  DisconnectFailed: "Disconnect failed",
  AdapterForNamespaceMissing: "Wallet family not available"
}

const GENERIC = "Something went wrong"

const tagOf = (error: unknown): string | undefined =>
  typeof error === "object" && error !== null && "_tag" in error && typeof error._tag === "string" ? error._tag : undefined

/** What a failure says to the visitor: a heading and the error's own (catalogue) message. */
export interface VisitorError {
  readonly tag: string | undefined
  readonly heading: string
  readonly message: string
}

/** The visitor's words for a failure: a typed error shows its message; a defect shows 'Something went wrong'. */
export const visitorError = (cause: Cause.Cause<unknown>): VisitorError => {
  const typed = Cause.findErrorOption(cause)
  if (Option.isSome(typed)) {
    const error = typed.value
    const tag = tagOf(error)
    const message = error instanceof Error && error.message !== "" ? error.message : GENERIC
    return { tag, heading: (tag !== undefined ? HEADINGS[tag] : undefined) ?? GENERIC, message }
  }
  return { tag: undefined, heading: GENERIC, message: "Please try again." }
}
