/**
 * The words of the family table (familyFeatures.ts): how a family is named to a visitor and the sentence that names
 * what the product does not offer its accounts. Apart from the table, which the runtime's core asks, so that only the
 * Account view and the adapters of families that miss a feature load them.
 */
import type { ChainNamespace } from "./Caip"
import { FAMILY_FEATURES, type FamilyFeature, familySupports } from "./familyFeatures"

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
