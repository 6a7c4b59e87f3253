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

/** Connector types that stand for a wallet installed in this browser (an extension, or one announced by the page). */
export const INSTALLED_CONNECTOR_TYPES: ReadonlyArray<ConnectorType> = ["INJECTED", "ANNOUNCED", "MULTI_CHAIN"]

const normalise = (text: string): string => text.trim().toLowerCase()

/**
 * What makes two ways to a wallet the same wallet (spec: one wallet, one row): the same rdns when both have one,
 * else the same name, compared trimmed and case-insensitive.
 */
export const isSameWallet = (
  a: { readonly name?: string | undefined; readonly rdns?: string | null | undefined },
  b: { readonly name?: string | undefined; readonly rdns?: string | null | undefined }
): boolean => {
  if (typeof a.rdns === "string" && a.rdns !== "" && typeof b.rdns === "string" && b.rdns !== "") {
    return normalise(a.rdns) === normalise(b.rdns)
  }
  return a.name !== undefined && b.name !== undefined && normalise(a.name) !== "" && normalise(a.name) === normalise(b.name)
}

/** The key of a wallet row: its rdns, else its name, normalised. */
export const walletKeyOf = (wallet: { readonly name?: string | undefined; readonly rdns?: string | null | undefined }): string =>
  normalise(typeof wallet.rdns === "string" && wallet.rdns !== "" ? wallet.rdns : (wallet.name ?? ""))

/**
 * The installed connector of a catalogue wallet, decided once for the whole product: an installed connector whose
 * explorer id or id is the entry's id, else whose rdns is the entry's, else (a wallet without rdns, such as a
 * Wallet Standard one) whose name is the entry's.
 */
export const installedConnectorFor = <C extends ConnectorInfo>(
  wallet: Pick<WalletCatalogEntry, "id" | "name"> & { readonly rdns?: string | null | undefined },
  connectors: ReadonlyArray<C>
): C | undefined => {
  const installed = connectors.filter((connector) => INSTALLED_CONNECTOR_TYPES.includes(connector.type))
  return (
    installed.find((connector) => connector.explorerId === wallet.id || connector.id === wallet.id) ??
    installed.find((connector) =>
      isSameWallet({ name: connector.name, rdns: connector.info?.rdns }, { name: wallet.name, rdns: wallet.rdns })
    )
  )
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
