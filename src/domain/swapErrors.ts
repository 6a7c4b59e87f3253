/**
 * What a swap can end with besides the wallet's and the chain's own failures (`SendError`, `WaitError`): each a typed
 * error whose message is the visitor's words; the heading comes from the views' one map (`ui/views/errorText.ts`).
 */
import { Schema } from "effect"
import { TaggedError } from "./taggedError"

/** The swap service refused or failed: its own words when it gave some, else that it did not answer. */
export class SwapUnavailable extends TaggedError<SwapUnavailable>()("SwapUnavailable", { reason: Schema.String }) {
  override get message() {
    return this.reason
  }
}

/** No pool can make this swap. */
export class SwapNoLiquidity extends TaggedError<SwapNoLiquidity>()("SwapNoLiquidity", {}) {
  override get message() {
    return "There is no liquidity to swap these tokens. Try another pair or a smaller amount."
  }
}

/** The quote shown was too old to send: a new one is shown, to check before swapping. */
export class SwapQuoteExpired extends TaggedError<SwapQuoteExpired>()("SwapQuoteExpired", {}) {
  override get message() {
    return "The quote expired. Check the new quote, then swap again."
  }
}

/** The visitor refused, in the wallet, to let the swap spend the token. */
export class ApprovalDeclined extends TaggedError<ApprovalDeclined>()("ApprovalDeclined", { symbol: Schema.String }) {
  override get message() {
    return `You declined in your wallet to let the swap use your ${this.symbol}. Approve it to swap.`
  }
}

/** The amount cannot be swapped (checked before any request): the rule's words. */
export class SwapAmountInvalid extends TaggedError<SwapAmountInvalid>()("SwapAmountInvalid", { reason: Schema.String }) {
  override get message() {
    return this.reason
  }
}

/** A swap failure of the form's own. */
export type SwapFormError = SwapUnavailable | SwapNoLiquidity | SwapQuoteExpired | ApprovalDeclined | SwapAmountInvalid

/** The on-ramp service refused or failed: its own words when it gave some, else that it did not answer. */
export class OnrampUnavailable extends TaggedError<OnrampUnavailable>()("OnrampUnavailable", { reason: Schema.String }) {
  override get message() {
    return this.reason
  }
}
