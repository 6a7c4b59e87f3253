/**
 * The swap form's state and the shape of the Swap service: what the Swap view renders and what both the service's
 * tag (in the runtime from the start) and its implementation (`SwapLive.ts`, fetched when the form is first used)
 * agree on.
 */
import type { Effect, SubscriptionRef } from "effect"
import type { CaipAddress } from "../domain/Caip"
import type { CaipNetwork } from "../domain/Network"
import type { QuoteSummary, SwapChoice } from "../domain/swap"
import type { SwapFormError } from "../domain/swapErrors"
import type { SendError, WaitError } from "./ChainAdapter"
import type { NoAccount } from "./WalletActions"

/** Why a step of the swap did not end well. */
export type SwapFailure = SwapFormError | SendError | WaitError | NoAccount

/** Where reading the swappable tokens and the balances stands. */
export type SwapTokensState =
  | { readonly _tag: "Idle" }
  | { readonly _tag: "Loading" }
  | { readonly _tag: "Ready" }
  | { readonly _tag: "Failed"; readonly error: SwapFailure }

/** The quote for the amount typed. */
export type SwapQuoteState =
  | { readonly _tag: "None" }
  | { readonly _tag: "Loading" }
  | {
      readonly _tag: "Ready"
      readonly fromAmount: bigint
      readonly toAmount: bigint
      readonly summary: QuoteSummary
      /** When it was received (the runtime's clock, ms): too old, it is asked again before a swap. */
      readonly at: number
      /** Whether the router may already spend the amount (always for the native coin). */
      readonly approved: boolean
    }
  | { readonly _tag: "Failed"; readonly error: SwapFailure }

/** Where approving or swapping stands. */
export type SwapStep =
  | { readonly _tag: "Idle" }
  /** The wallet shows its prompt for the approval, then the chain confirms it. */
  | { readonly _tag: "Approving"; readonly hash: string | undefined }
  /** The wallet shows its prompt for the swap, then the chain confirms it. */
  | { readonly _tag: "Swapping"; readonly hash: string | undefined }
  | {
      readonly _tag: "Done"
      readonly hash: string
      readonly explorerUrl: string | undefined
      /** "0.5 ETH for 1,480.2 WUSD". */
      readonly summary: string
    }
  | { readonly _tag: "Failed"; readonly error: SwapFailure; readonly hash: string | undefined; readonly explorerUrl: string | undefined }

/** The swap form as the view renders it. */
export interface SwapState {
  readonly caipAddress: CaipAddress | undefined
  readonly network: CaipNetwork | undefined
  readonly tokens: SwapTokensState
  /** The swappable tokens with the account's balances, held first. */
  readonly choices: ReadonlyArray<SwapChoice>
  /** CAIP-10 addresses of the token sold and bought. */
  readonly from: string | undefined
  readonly to: string | undefined
  readonly amount: string
  /** Moves when the service fills the amount itself (Max, a fresh form): the view takes its value again. */
  readonly filled: number
  /** What is wrong with the amount, checked before any request; `undefined` when it is fine or empty. */
  readonly amountIssue: string | undefined
  readonly quote: SwapQuoteState
  readonly step: SwapStep
}

/** The form before it starts. */
export const initialSwapState: SwapState = {
  caipAddress: undefined,
  network: undefined,
  tokens: { _tag: "Idle" },
  choices: [],
  from: undefined,
  to: undefined,
  amount: "",
  filled: 0,
  amountIssue: undefined,
  quote: { _tag: "None" },
  step: { _tag: "Idle" }
}

/** The Swap service: the form's state and what the view does with it. */
export interface SwapService {
  readonly state: SubscriptionRef.SubscriptionRef<SwapState>
  /** Fetches the form's code ahead of a Swap click (the Account view asks when it offers Swap); nothing else. */
  readonly warm: Effect.Effect<void>
  /** Starts a fresh form for the account in front and opens the Swap view. */
  readonly open: Effect.Effect<void>
  /** Starts the form when it is not the account in front's (the view was opened another way, the account changed). */
  readonly prepare: Effect.Effect<void>
  /** Chooses the token sold or bought, by CAIP-10 address (choosing the other side's token swaps the two). */
  readonly choose: (side: "from" | "to", address: string) => Effect.Effect<void>
  /** Swaps the sold and bought tokens. */
  readonly flip: Effect.Effect<void>
  /** The amount as typed: checked at once, quoted 300 ms after the last keystroke. */
  readonly setAmount: (text: string) => Effect.Effect<void>
  /** Fills in the whole balance of the token sold (less a swap's fee for the native coin). */
  readonly useMax: Effect.Effect<void>
  /** Asks the quote again now. */
  readonly refresh: Effect.Effect<void>
  /** Lets the router spend the token sold (the wallet's approval), then reads the allowance again. */
  readonly approve: Effect.Effect<void>
  /** Builds the swap for the quote shown, sends it through the wallet and follows it to its end. */
  readonly swap: Effect.Effect<void>
  /** After a swap: a fresh form. */
  readonly reset: Effect.Effect<void>
}
