/**
 * What the Account view and the NFTs tab need of sending without the Send flow's code: which wallet feature buttons
 * show, an NFT as something to send, and explorer links. Pure, and small, so the Account view (fetched before the
 * first click) does not carry the send rules.
 */
import type { ChainNamespace } from "./Caip"
import type { WalletFeature } from "./constants"
import { familySupports } from "./familyFeatures"
import type { Nft } from "./Portfolio"
import { orderWalletFeatures } from "./rules"
import type { NftAsset } from "./send"

const accountPart = (caipAddress: string): string => caipAddress.slice(caipAddress.lastIndexOf(":") + 1)

/** An NFT of the NFTs tab as something to send. */
export const nftAssetOf = (nft: Nft): NftAsset => ({
  kind: "nft",
  id: `${accountPart(nft.contract)}/${nft.tokenId}`,
  name: nft.name,
  collection: nft.collection.name,
  contract: accountPart(nft.contract),
  tokenId: nft.tokenId,
  imageUrl: nft.imageUrl
})

const explorerBase = (explorerUrl: string): string => explorerUrl.replace(/\/+$/, "")

/** The explorer page of an account: `/account/` on Solana and Polkadot explorers, `/address/` elsewhere. */
export const explorerAddressUrl = (
  explorerUrl: string | undefined,
  namespace: ChainNamespace,
  address: string
): string | undefined =>
  explorerUrl === undefined
    ? undefined
    : `${explorerBase(explorerUrl)}/${namespace === "solana" || namespace === "polkadot" ? "account" : "address"}/${address}`

/** The name of an explorer for a link's words ('View on etherscan.io'). */
export const explorerHost = (explorerUrl: string): string => explorerUrl.replace(/^https?:\/\//, "").replace(/\/.*$/, "")

/** Whether the services swap on the network in front, and whether their on-ramp provider delivers on it. */
export interface ServedFeatures {
  readonly swaps: boolean
  readonly onramp: boolean
}

/** The wallet features whose views exist. */
const LANDED_FEATURES: ReadonlyArray<WalletFeature> = ["onramp", "swaps", "receive", "send"]

/**
 * The Account view's feature buttons: the features the host has on, in its `walletFeaturesOrder` or the spec's
 * (onramp, swaps, receive, send), keeping those that exist, Send only in a family that can send, Swap only where the
 * services' swap endpoints serve the network and Buy only where their on-ramp provider delivers on it (`served`: their
 * lists in `/v1/supported-chains`, from the host's config), both on an EVM network (`caipNetworkId`; without one,
 * neither).
 * @example accountFeatures({ send: true, receive: true }, "eip155") // ["receive", "send"]
 */
export const accountFeatures = (
  features: Partial<Record<WalletFeature, boolean>> & { readonly walletFeaturesOrder?: ReadonlyArray<WalletFeature> | undefined },
  namespace: ChainNamespace,
  caipNetworkId?: string,
  served: ServedFeatures = { swaps: false, onramp: false }
): ReadonlyArray<WalletFeature> =>
  orderWalletFeatures(features, features.walletFeaturesOrder).filter(
    (feature) =>
      LANDED_FEATURES.includes(feature) &&
      (feature !== "send" || familySupports(namespace, "send")) &&
      (feature !== "swaps" || (namespace === "eip155" && caipNetworkId !== undefined && served.swaps)) &&
      (feature !== "onramp" || (namespace === "eip155" && caipNetworkId !== undefined && served.onramp))
  )
