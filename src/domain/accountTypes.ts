/**
 * Spec 4's rule for the embedded wallet's account type on connect: the one switch to the chain's default type. Apart
 * from `rules.ts` so that only the embedded wallet's code (fetched when it is used) carries it.
 */
import { type AccountTypeName, defaultAccountType, type Namespace } from "./rules"

/** What the switch rule on connect knows of the embedded wallet's account on one network. */
export interface AccountTypeSwitchInput {
  readonly namespace: Namespace
  /** The user's preferred type as the wallet says it (the type of the account in front when it does not). */
  readonly preferred: AccountTypeName | undefined
  /** The host's `defaultAccountTypes`, read for every family. */
  readonly hostDefaults?: Partial<Record<Namespace, AccountTypeName>> | undefined
  /** Whether the wallet runs smart accounts on this network (the frame's smart-account-enabled networks). */
  readonly smartAccountEnabled: boolean
}

/**
 * Spec 4's one switch on connect: the type to ask the embedded wallet for when the user's preferred type differs from
 * the chain's default (the host's `defaultAccountTypes`, else EVM smartAccount, Solana and Polkadot eoa); `undefined`
 * when no switch is due, when the default is a type the embedded wallet has not (payment), or when it is smartAccount
 * on a network where the wallet runs none.
 */
export const accountTypeToSwitchTo = (input: AccountTypeSwitchInput): "eoa" | "smartAccount" | undefined => {
  const target = defaultAccountType(input.namespace, input.hostDefaults)
  if (target === input.preferred) return undefined
  if (target === "eoa") return target
  return target === "smartAccount" && input.namespace === "eip155" && input.smartAccountEnabled ? target : undefined
}
