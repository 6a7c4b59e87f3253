/**
 * The sign-in error of a smart account (spec 8), apart from the errors catalogue: only the lazily loaded sign-in
 * flow and its view use it, so it adds nothing to what loads before the visitor clicks Connect.
 */
import { Schema } from "effect"
import { TaggedError } from "./taggedError"

/** 'This application might not support Smart Accounts' — the site's verifier refused a smart account's signature. */
export class SmartAccountSignInRefused extends TaggedError<SmartAccountSignInRefused>()("SmartAccountSignInRefused", {
  /** What the site said, as it said it. */
  reason: Schema.String
}) {
  override get message() {
    return "This application might not support Smart Accounts"
  }
}
