/**
 * The host's sponsoring policy, one pure function: whether the paymaster pays for an operation, and if not, why in
 * words a visitor can read. `none` pays for nothing, `all` for every operation, `allowlist` for the listed senders
 * only; in every mode but `none`, an operation whose gas limits add up past `maxGasPerOp` is refused.
 *
 * @example
 * sponsorDecision({ sponsor: "all", senders: [], maxGasPerOp: 2_000_000n }, { sender, gas: 300_000n }) // { sponsored: true }
 */
import type { Address } from "viem"
import type { UserOperation } from "viem/account-abstraction"

/** What the host's configuration says the paymaster pays for. */
export interface SponsorPolicy {
  readonly sponsor: "none" | "all" | "allowlist"
  /** With `allowlist`: the senders (smart accounts) paid for. */
  readonly senders: ReadonlyArray<Address>
  /** The most gas one operation may ask for (all its gas limits together). */
  readonly maxGasPerOp: bigint
}

/** The paymaster pays, or not and why. */
export type SponsorDecision = { readonly sponsored: true } | { readonly sponsored: false; readonly reason: string }

/** All the gas an operation may use: what the paymaster may have to pay for, at most. */
export const gasOf = (op: UserOperation<"0.8">): bigint =>
  op.callGasLimit +
  op.verificationGasLimit +
  op.preVerificationGas +
  (op.paymasterVerificationGasLimit ?? 0n) +
  (op.paymasterPostOpGasLimit ?? 0n)

/** The policy's answer for an operation of `sender` asking for `gas`. */
export const sponsorDecision = (policy: SponsorPolicy, op: { readonly sender: Address; readonly gas: bigint }): SponsorDecision => {
  if (policy.sponsor === "none") return { sponsored: false, reason: "This app does not pay for transactions" }
  if (policy.sponsor === "allowlist" && !policy.senders.some((sender) => sender.toLowerCase() === op.sender.toLowerCase())) {
    return { sponsored: false, reason: "This app does not pay for this account's transactions" }
  }
  if (op.gas > policy.maxGasPerOp) {
    return { sponsored: false, reason: `This transaction needs more gas (${op.gas}) than this app pays for (${policy.maxGasPerOp})` }
  }
  return { sponsored: true }
}
