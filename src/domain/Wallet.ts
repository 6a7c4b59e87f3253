/**
 * Wallets (spec point 3): entries of the wallet catalogue, the host's custom wallets, connectors (the ways a
 * wallet is reached) and the recent-wallets list.
 */
import { Option, Schema, SchemaGetter } from "effect"
import { CaipNetworkId, ChainNamespace } from "./Caip"
import { RECENT_WALLETS_MAX } from "./constants"
import { HttpUrl, ImageUrl, isHttpUrl, isImageUrl, isWalletLink, WalletLink } from "./Url"

// The catalogue lists every chain a wallet supports, including namespaces this product does not: those must not
// make the whole entry undecodable, so chains are checked for CAIP-2 shape only (any namespace).
const CatalogueChainId = Schema.String.pipe(
  Schema.check(Schema.isPattern(/^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}$/, { expected: "a CAIP-2 network id" }))
)

// A link of a catalogue entry that is not safe to follow is treated as absent: the wallet stays listed (one bad
// field of a third party's entry must not hide it, nor the rest of the page), but the link never becomes an href.
const SafeLink = (isSafe: (link: string) => boolean) =>
  Schema.optionalKey(
    Schema.NullOr(Schema.String).pipe(
      Schema.decode({
        decode: SchemaGetter.transform((link: string | null) => (link !== null && isSafe(link) ? link : null)),
        encode: SchemaGetter.passthrough()
      })
    )
  )

// A catalogue picture that is not an http(s) or data:image URL is left out, as if the entry had none.
const SafeImageUrl = Schema.optionalKey(Schema.String).pipe(
  Schema.decodeTo(Schema.optionalKey(Schema.String), {
    decode: SchemaGetter.transformOptional((url: Option.Option<string>) => Option.filter(url, isImageUrl)),
    encode: SchemaGetter.passthrough()
  })
)

/**
 * An entry of the wallet catalogue (spec 7.3). Its links are kept only when safe to follow (pages and web apps
 * http(s); phone and desktop apps http(s) or the wallet's own scheme), its picture only when http(s) or data:image.
 */
export const WalletCatalogEntry = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  rdns: Schema.optionalKey(Schema.NullOr(Schema.String)),
  image_id: Schema.String,
  image_url: SafeImageUrl,
  homepage: SafeLink(isHttpUrl),
  mobile_link: SafeLink(isWalletLink),
  desktop_link: SafeLink(isWalletLink),
  webapp_link: SafeLink(isHttpUrl),
  app_store: SafeLink(isHttpUrl),
  play_store: SafeLink(isHttpUrl),
  chains: Schema.Array(CatalogueChainId)
})
/** An entry of the wallet catalogue. */
export type WalletCatalogEntry = typeof WalletCatalogEntry.Type

/**
 * A wallet id as hosts name catalogue wallets (`featuredWalletIds`, …) and their own: letters, digits, `.`, `_`, `:`
 * and `-`, at most 128 (the ids are joined by commas into the catalogue's query).
 */
export const WalletId = Schema.String.pipe(
  Schema.check(Schema.isPattern(/^[A-Za-z0-9._:-]{1,128}$/, { expected: "a wallet id (letters, digits, '.', '_', ':', '-')" }))
)

/**
 * A wallet the host adds to the list itself (`customWallets` option): pages and web apps are http(s) URLs, phone
 * and desktop apps http(s) or the wallet's own scheme, the picture http(s) or data:image; an unsafe one is refused.
 */
export const CustomWallet = Schema.Struct({
  id: WalletId,
  name: Schema.String.pipe(Schema.check(Schema.isNonEmpty(), Schema.isMaxLength(64))),
  homepage: Schema.optionalKey(HttpUrl),
  image_url: Schema.optionalKey(ImageUrl),
  mobile_link: Schema.optionalKey(Schema.NullOr(WalletLink)),
  desktop_link: Schema.optionalKey(Schema.NullOr(WalletLink)),
  webapp_link: Schema.optionalKey(Schema.NullOr(HttpUrl)),
  app_store: Schema.optionalKey(HttpUrl),
  play_store: Schema.optionalKey(HttpUrl)
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
