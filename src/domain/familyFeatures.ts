/**
 * What the product offers an account of each chain family, in one table: the one rule views and services ask
 * (`familySupports`) instead of naming families. Balances, tokens, NFTs and activity come from the blockchain
 * service, which serves eip155 and solana (spec 9); names are eip155 only; Bitcoin accounts sign and send; a family
 * missing a feature says so in words (`unavailableFeaturesText`), never with a '0.00' that looks like a balance.
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

/** How a family is named to a visitor. */
export const FAMILY_NAMES: { readonly [N in ChainNamespace]: string } = {
  eip155: "EVM",
  solana: "Solana",
  bip122: "Bitcoin",
  polkadot: "Polkadot"
}

const FEATURE_WORDS: Readonly<Record<FamilyFeature, string>> = {
  balance: "balances",
  tokens: "tokens",
  nfts: "NFTs",
  activity: "activity",
  names: "names",
  send: "sending",
  signMessage: "message signing"
}

const sentenceList = (words: ReadonlyArray<string>): string =>
  words.length <= 1 ? (words[0] ?? "") : `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}`

/**
 * The sentence that tells a visitor what the product does not offer for accounts of `namespace`, or `undefined`
 * when it offers everything.
 * @example unavailableFeaturesText("bip122") // "Balances, tokens, NFTs, activity and names are not available for Bitcoin accounts."
 */
export const unavailableFeaturesText = (namespace: ChainNamespace): string | undefined => {
  const missing = FAMILY_FEATURES.filter((feature) => !familySupports(namespace, feature)).map((feature) => FEATURE_WORDS[feature])
  if (missing.length === 0) return undefined
  const list = sentenceList(missing)
  return `${list.charAt(0).toUpperCase()}${list.slice(1)} ${missing.length === 1 && !list.endsWith("s") ? "is" : "are"} not available for ${FAMILY_NAMES[namespace]} accounts.`
}
