/**
 * The send form's state and the shape of the Send service: what the views render and what both the service's tag
 * (in the runtime from the start) and its implementation (fetched on first use) agree on.
 */
import type { Effect, SubscriptionRef } from "effect"
import type { CaipAddress, ChainNamespace } from "../domain/Caip"
import type { CaipNetwork } from "../domain/Network"
import type { NftAsset, SendAsset, SendIssues, SendReview, ValidSend } from "../domain/send"
import type { SendError, WaitError } from "./ChainAdapter"
import type { NoAccount } from "./WalletActions"

/** Where reading what the account can send stands. */
export type SendAssetsState =
  | { readonly _tag: "Idle" }
  | { readonly _tag: "Loading" }
  | { readonly _tag: "Ready" }
  /** Neither the service nor the chain gave the balances; `retry` reads them again. */
  | { readonly _tag: "Failed"; readonly message: string }

/** A receiver name being looked up, found or not. */
export type NameState =
  | { readonly _tag: "None" }
  | { readonly _tag: "Resolving"; readonly name: string }
  | { readonly _tag: "Resolved"; readonly name: string; readonly address: string }
  | { readonly _tag: "NotFound"; readonly name: string }
  | { readonly _tag: "Failed"; readonly name: string; readonly message: string }

/** Why a send did not end confirmed: the wallet's refusal or failure, the chain's revert, no account. */
export type SendFailure = SendError | WaitError | NoAccount

/** Where the reviewed send stands once the visitor confirmed it. */
export type SubmitState =
  | { readonly _tag: "Idle" }
  /** The wallet shows its prompt. */
  | { readonly _tag: "Signing" }
  /** Sent; waiting for the chain (25 s at most). */
  | { readonly _tag: "Confirming"; readonly hash: string; readonly explorerUrl: string | undefined }
  | { readonly _tag: "Confirmed"; readonly hash: string; readonly explorerUrl: string | undefined }
  /** `hash` when it was sent and then failed (reverted, or not confirmed in time). */
  | {
      readonly _tag: "Failed"
      readonly error: SendFailure
      readonly hash: string | undefined
      readonly explorerUrl: string | undefined
    }

/** The reviewed send: what the wallet will be asked to sign, and how the review shows it. */
export interface ReviewedSend {
  readonly send: ValidSend
  readonly fee: bigint
  readonly lines: SendReview
  /** The receiver's name when the visitor typed one. */
  readonly receiverName: string | undefined
}

/** The send form as the views render it. */
export interface SendState {
  /** The account the form is for; `undefined` before the form starts or with no account in front. */
  readonly caipAddress: CaipAddress | undefined
  readonly namespace: ChainNamespace | undefined
  readonly network: CaipNetwork | undefined
  readonly assets: SendAssetsState
  /** What can be sent: native coin first, then tokens, and the NFT chosen from the NFTs tab. */
  readonly choices: ReadonlyArray<SendAsset>
  /** The chosen asset's id. */
  readonly chosen: string | undefined
  readonly amount: string
  readonly receiver: string
  /** Moves when the service itself fills the fields (a fresh form, Max): the views take its values again. */
  readonly filled: number
  readonly name: NameState
  /** The fee is being estimated (on continue, or for Max). */
  readonly estimating: boolean
  /** The rules' words; shown once the visitor asked to continue, then kept up to date as they type. */
  readonly issues: SendIssues
  readonly checked: boolean
  readonly reviewed: ReviewedSend | undefined
  readonly submit: SubmitState
}

/** How the form opens: on an NFT the visitor chose, or on the native coin. */
export interface SendStart {
  readonly nft?: NftAsset | undefined
}

/** The form before it starts. */
export const initialSendState: SendState = {
  caipAddress: undefined,
  namespace: undefined,
  network: undefined,
  assets: { _tag: "Idle" },
  choices: [],
  chosen: undefined,
  amount: "",
  receiver: "",
  filled: 0,
  name: { _tag: "None" },
  estimating: false,
  issues: {},
  checked: false,
  reviewed: undefined,
  submit: { _tag: "Idle" }
}

/** The asset the form has chosen, if any. */
export const chosenAsset = (state: SendState): SendAsset | undefined => state.choices.find((asset) => asset.id === state.chosen)

/** The Send service: the form's state and what the views do with it. */
export interface SendService {
    readonly state: SubscriptionRef.SubscriptionRef<SendState>
    /** Starts a fresh form for the account in front (on an NFT when given) and opens the Send view. */
    readonly open: (start?: SendStart) => Effect.Effect<void>
    /** Starts the form if it is not the account in front's (a host opened the Send view itself, the account changed). */
    readonly prepare: Effect.Effect<void>
    /** Reads what the account can send again, after a failure. */
    readonly reload: Effect.Effect<void>
    readonly choose: (assetId: string) => Effect.Effect<void>
    readonly setAmount: (text: string) => Effect.Effect<void>
    readonly setReceiver: (text: string) => Effect.Effect<void>
    /** Fills in the most that can be sent (the native coin less its fee). */
    readonly useMax: Effect.Effect<void>
    /** Checks every rule and the gas check against the estimated fee; when all pass, opens the review. */
    readonly review: Effect.Effect<void>
    /** Sends the reviewed transfer and follows it to its end; opens the result at once. */
    readonly confirm: Effect.Effect<void>
    /** After a confirmed send: a fresh form, back on the account. */
    readonly finish: Effect.Effect<void>
}
