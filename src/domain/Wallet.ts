/**
 * Wallets (spec point 3): entries of the wallet catalogue, the host's custom wallets, connectors (the ways a
 * wallet is reached) and the recent-wallets list.
 */
import { Schema } from "effect"
import { CaipNetworkId, ChainNamespace } from "./Caip"
import { RECENT_WALLETS_MAX } from "./constants"

// The catalogue lists every chain a wallet supports, including namespaces this product does not: those must not
// make the whole entry undecodable, so chains are checked for CAIP-2 shape only (any namespace).
const CatalogueChainId = Schema.String.pipe(
  Schema.check(Schema.isPattern(/^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}$/, { expected: "a CAIP-2 network id" }))
)

/** An entry of the wallet catalogue (spec 7.3). */
export const WalletCatalogEntry = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  rdns: Schema.optionalKey(Schema.NullOr(Schema.String)),
  image_id: Schema.String,
  image_url: Schema.optionalKey(Schema.String),
  homepage: Schema.optionalKey(Schema.NullOr(Schema.String)),
  mobile_link: Schema.optionalKey(Schema.NullOr(Schema.String)),
  desktop_link: Schema.optionalKey(Schema.NullOr(Schema.String)),
  webapp_link: Schema.optionalKey(Schema.NullOr(Schema.String)),
  app_store: Schema.optionalKey(Schema.NullOr(Schema.String)),
  play_store: Schema.optionalKey(Schema.NullOr(Schema.String)),
  chains: Schema.Array(CatalogueChainId)
})
/** An entry of the wallet catalogue. */
export type WalletCatalogEntry = typeof WalletCatalogEntry.Type

/** A wallet the host adds to the list itself (`customWallets` option). */
export const CustomWallet = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  homepage: Schema.optionalKey(Schema.String),
  image_url: Schema.optionalKey(Schema.String),
  mobile_link: Schema.optionalKey(Schema.NullOr(Schema.String)),
  desktop_link: Schema.optionalKey(Schema.NullOr(Schema.String)),
  webapp_link: Schema.optionalKey(Schema.NullOr(Schema.String)),
  app_store: Schema.optionalKey(Schema.String),
  play_store: Schema.optionalKey(Schema.String)
})
/** A wallet the host adds to the list itself. */
export type CustomWallet = typeof CustomWallet.Type

/** How a connector reaches its wallet. */
export const ConnectorType = Schema.Literals([
  "INJECTED",
  "ANNOUNCED",
  "EXTERNAL",
  "MULTI_CHAIN",
  "AUTH",
  "WALLET_CONNECT"
])
/** How a connector reaches its wallet. */
export type ConnectorType = typeof ConnectorType.Type

/** The serialisable part of a connector (what is stored and shown); the live provider is kept beside it. */
export const ConnectorInfo = Schema.Struct({
  id: Schema.String,
  name: Schema.optionalKey(Schema.String),
  type: ConnectorType,
  chain: ChainNamespace,
  chains: Schema.Array(CaipNetworkId),
  imageUrl: Schema.optionalKey(Schema.String),
  imageId: Schema.optionalKey(Schema.String),
  explorerId: Schema.optionalKey(Schema.String),
  info: Schema.optionalKey(Schema.Struct({ rdns: Schema.optionalKey(Schema.String) }))
})
/** The serialisable part of a connector. */
export type ConnectorInfo = typeof ConnectorInfo.Type

/** A connector with its live provider (an EIP-1193 object, a WalletConnect client, …), which is never schema data. */
export interface Connector extends ConnectorInfo {
  readonly provider: unknown
}

/** Wallets the visitor used last, newest first, at most {@link RECENT_WALLETS_MAX}. */
export const RecentWallets = Schema.Array(WalletCatalogEntry).pipe(
  Schema.check(Schema.isMaxLength(RECENT_WALLETS_MAX))
)
/** Wallets the visitor used last. */
export type RecentWallets = typeof RecentWallets.Type

/** The recent-wallets list after `wallet` was used: it moves to the front, duplicates go, the list is cut to 2. */
export const addRecentWallet = (recent: ReadonlyArray<WalletCatalogEntry>, wallet: WalletCatalogEntry): RecentWallets =>
  [wallet, ...recent.filter((entry) => entry.id !== wallet.id)].slice(0, RECENT_WALLETS_MAX)
