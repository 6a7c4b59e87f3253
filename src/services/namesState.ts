/**
 * The name-registration form's state, its errors and the shape of the Names service: what the views render and what
 * both the service's tag (in the runtime from the start) and its implementation (fetched when the visitor opens
 * RegisterAccountName, with the ENSIP-15 tables) agree on. Nothing here loads the name rules.
 */
import { type Effect, Schema, type SubscriptionRef } from "effect"
import type { CaipAddress, ChainNamespace } from "../domain/Caip"
import { NAME_COIN_TYPE_CHAIN_ID_LIMIT } from "../domain/constants"
import type { NameError } from "../domain/errors"
import type { SignError } from "./ChainAdapter"
import type { NoAccount } from "./WalletActions"
import { TaggedError } from "../domain/taggedError"

/** Names are registered for EVM accounts only (spec 9): the account in front is of another family. */
export class NamesNeedEvmAccount extends TaggedError<NamesNeedEvmAccount>()("NamesNeedEvmAccount", {
  namespace: Schema.String
}) {
  override get message() {
    return "Names can be registered for EVM accounts only. Switch to an EVM account to choose a name."
  }
}

/** A name's coin type is `0x80000000 | chainId`: the chain id must be below 2147483648 (spec 5). */
export class NameChainIdTooLarge extends TaggedError<NameChainIdTooLarge>()("NameChainIdTooLarge", {
  chainId: Schema.String
}) {
  override get message() {
    return `Names need a network whose chain id is below ${NAME_COIN_TYPE_CHAIN_ID_LIMIT}; this network's is ${this.chainId}.`
  }
}

/** Why the account in front cannot register a name at all. */
export type NamesIneligible = NamesNeedEvmAccount | NameChainIdTooLarge

/** Why a registration did not end registered: the account cannot, the wallet refused or failed, the service refused. */
export type RegisterFailure = NamesIneligible | SignError | NoAccount | NameError

/** Whether the typed name can be registered. */
export type Availability =
  /** Nothing typed. */
  | { readonly _tag: "Empty" }
  /** A rule of spec 5 fails; `message` says which, in words. */
  | { readonly _tag: "Invalid"; readonly message: string }
  /** `name` (the full name) is being looked up; set at once, asked 300 ms after the last keystroke. */
  | { readonly _tag: "Checking"; readonly name: string }
  | { readonly _tag: "Available"; readonly name: string }
  | { readonly _tag: "Taken"; readonly name: string }
  /** The look-up failed: the service's description, or 'Error resolving name'. */
  | { readonly _tag: "Failed"; readonly name: string; readonly message: string }

/** Names like the typed one that are free, from the service's suggestions. */
export type Suggestions =
  | { readonly _tag: "None" }
  | { readonly _tag: "Loading" }
  /** `labels`: free names under the suffix, without it, the typed one left out. */
  | { readonly _tag: "Ready"; readonly labels: ReadonlyArray<string> }
  | { readonly _tag: "Failed"; readonly message: string }

/** Where registering a name stands. */
export type RegisterState =
  | { readonly _tag: "Idle" }
  /** The wallet shows its prompt for the name message. */
  | { readonly _tag: "Signing"; readonly name: string }
  /** Signed; the names service is registering it. */
  | { readonly _tag: "Registering"; readonly name: string }
  | { readonly _tag: "Registered"; readonly name: string }
  | { readonly _tag: "Failed"; readonly name: string; readonly label: string; readonly error: RegisterFailure }

/** The name-registration form as the views render it. */
export interface NamesState {
  /** The suffix shown after the name and registered with it (the host's `nameSuffix`). */
  readonly suffix: string
  /** The account the form is for; `undefined` before the form starts or with no account in front. */
  readonly caipAddress: CaipAddress | undefined
  readonly namespace: ChainNamespace | undefined
  /** Why this account cannot register a name, when it cannot. */
  readonly ineligible: NamesIneligible | undefined
  /** What the visitor typed. */
  readonly input: string
  /** Moves when the service itself fills the input (a fresh form, a suggestion chosen): the view takes it again. */
  readonly filled: number
  /** The normalised label of `input` when it passes the rules. */
  readonly label: string | undefined
  readonly availability: Availability
  readonly suggestions: Suggestions
  readonly register: RegisterState
}

/** The form before it starts. */
export const initialNamesState = (suffix: string): NamesState => ({
  suffix,
  caipAddress: undefined,
  namespace: undefined,
  ineligible: undefined,
  input: "",
  filled: 0,
  label: undefined,
  availability: { _tag: "Empty" },
  suggestions: { _tag: "None" },
  register: { _tag: "Idle" }
})

/** A registration under way: the wallet's prompt or the service's answer is awaited. */
export const registering = (register: RegisterState): boolean => register._tag === "Signing" || register._tag === "Registering"

/** The Names service: the form's state and what the views do with it. */
export interface NamesService {
  readonly state: SubscriptionRef.SubscriptionRef<NamesState>
  /** Moves after each registration: the account's name is read again (its cache was dropped). */
  readonly revision: SubscriptionRef.SubscriptionRef<number>
  /** Starts a fresh form for the account in front and opens RegisterAccountName. */
  readonly open: Effect.Effect<void>
  /** Starts the form if it is not the account in front's (a host opened the view itself, the account changed). */
  readonly prepare: Effect.Effect<void>
  /** The name as the visitor types it: checked against the rules at once, its availability asked 300 ms later. */
  readonly setInput: (text: string) => Effect.Effect<void>
  /** A suggestion chosen: fills the input with it and asks its availability at once. */
  readonly choose: (label: string) => Effect.Effect<void>
  /**
   * Registers `label` under the suffix: RegisterAccountNameSuccess first, then the wallet signs the name message,
   * then the service registers it; on failure the visitor is back on RegisterAccountName with the reason.
   */
  readonly register: (label: string) => Effect.Effect<void>
  /** After a registration: a fresh form, back on the account. */
  readonly finish: Effect.Effect<void>
}
