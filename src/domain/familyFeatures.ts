/**
 * What the product offers an account of each chain family, in one table: the one rule views and services ask
 * (`familySupports`) instead of naming families. Balances, tokens, NFTs and activity come from the blockchain
 * service, which serves eip155 and solana (spec 9); names are eip155 only; Bitcoin accounts sign and send; a family
 * missing a feature says so in words (`unavailableFeaturesText` in familyFeaturesText.ts, which only the views and
 * adapters that say it load), never with a '0.00' that looks like a balance.
 */
import type { ChainNamespace } from "./Caip"

/** Something the product does for a connected account. */
export type FamilyFeature = "balance" | "tokens" | "nfts" | "activity" | "names" | "send" | "signMessage"

/** Every feature, in the order the unavailable ones are named. */
export const FAMILY_FEATURES: ReadonlyArray<FamilyFeature> = ["balance", "tokens", "nfts", "activity", "names", "send", "signMessage"]

const SUPPORTED: { readonly [N in ChainNamespace]: ReadonlyArray<FamilyFeature> } = {
  eip155: FAMILY_FEATURES,
  solana: ["balance", "tokens", "nfts", "activity", "send", "signMessage"],
  bip122: ["send", "signMessage"],
  polkadot: ["signMessage"]
}

/**
 * Whether the product offers `feature` for accounts of `namespace`.
 * @example familySupports("bip122", "balance") // false
 */
export const familySupports = (namespace: ChainNamespace, feature: FamilyFeature): boolean => SUPPORTED[namespace].includes(feature)
