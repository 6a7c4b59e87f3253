/**
 * The error of a feature the product does not offer a chain family's accounts. Apart from the catalogue in errors.ts,
 * which the runtime's core carries: only the adapters of families that miss a feature (and hosts that import it from
 * `wallet-runtime`) load it, so an EVM-only host's first click does not.
 */
import { Schema } from "effect"
import { TaggedError } from "./taggedError"

/**
 * A feature the product does not offer for the account's chain family (spec 9: balances on Polkadot, sending
 * without a chain to send to…); `details` is the sentence that says so, e.g. 'Sending is not available for Polkadot
 * accounts: …'. Nothing failed: a view says it plainly instead of showing an error or a '0.00'.
 */
export class FeatureUnavailable extends TaggedError<FeatureUnavailable>()("FeatureUnavailable", {
  details: Schema.String
}) {
  override get message() {
    return this.details
  }
}
