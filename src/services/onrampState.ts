/**
 * The Buy form's state and the shape of the Onramp service: what the Buy view renders and what both the service's tag
 * (in the runtime from the start) and its implementation (`OnrampLive.ts`, fetched on first use) agree on.
 */
import type { Effect, SubscriptionRef } from "effect"
import type { OnrampOptions, OnrampQuote } from "../domain/Api"
import type { CaipAddress } from "../domain/Caip"
import type { CaipNetwork } from "../domain/Network"
import type { OnrampUnavailable } from "../domain/swapErrors"

/** The Buy form as the view renders it. */
export interface OnrampState {
  readonly caipAddress: CaipAddress | undefined
  readonly network: CaipNetwork | undefined
  /** What can be paid with and bought (the service's, or the spec's fallback), once read. */
  readonly options: OnrampOptions | undefined
  /** The symbol of the asset bought, and the fiat currency paid. */
  readonly asset: string | undefined
  readonly currency: string
  readonly amount: string
  /** What is wrong with the amount (limits), checked before any request. */
  readonly amountIssue: string | undefined
  readonly quote:
    | { readonly _tag: "None" }
    | { readonly _tag: "Loading" }
    /** The quote and the provider's page for it (opened in a new window). */
    | { readonly _tag: "Ready"; readonly quote: OnrampQuote; readonly url: string }
    | { readonly _tag: "Failed"; readonly error: OnrampUnavailable }
  readonly purchase:
    | { readonly _tag: "Idle" }
    /** The provider's page is open: the balance of `symbol` is read until it grows past `baseline`. */
    | { readonly _tag: "Watching"; readonly symbol: string; readonly baseline: number }
    | { readonly _tag: "Received"; readonly symbol: string; readonly amount: number }
    /** Nothing arrived within the bound: the visitor can check again. */
    | { readonly _tag: "NotReceived"; readonly symbol: string; readonly baseline: number }
}

/** The form before it starts. */
export const initialOnrampState: OnrampState = {
  caipAddress: undefined,
  network: undefined,
  options: undefined,
  asset: undefined,
  currency: "USD",
  amount: "",
  amountIssue: undefined,
  quote: { _tag: "None" },
  purchase: { _tag: "Idle" }
}

/** The Onramp service: the Buy form's state and what the view does with it. */
export interface OnrampService {
  readonly state: SubscriptionRef.SubscriptionRef<OnrampState>
  /** Starts a fresh form for the account in front and opens the Buy view. */
  readonly open: Effect.Effect<void>
  /** Starts the form when it is not the account in front's. */
  readonly prepare: Effect.Effect<void>
  readonly chooseAsset: (symbol: string) => Effect.Effect<void>
  readonly chooseCurrency: (currency: string) => Effect.Effect<void>
  /** The fiat amount as typed: checked at once against the limits, quoted 300 ms after the last keystroke. */
  readonly setAmount: (text: string) => Effect.Effect<void>
  /** The visitor opened the provider's page: the balance is watched until the coins arrive, or the bound passes. */
  readonly started: Effect.Effect<void>
  /** After 'Not received yet': watches again for the same bound. */
  readonly checkAgain: Effect.Effect<void>
}
