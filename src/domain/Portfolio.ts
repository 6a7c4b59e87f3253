/**
 * What an account holds and did (spec point 3): token balances, NFTs and transactions of the activity list, as the
 * blockchain service returns them.
 */
import { Schema } from "effect"
import { CaipAddress, CaipNetworkId } from "./Caip"

/** An amount as the blockchain service gives it: decimals of the token and the decimal number as text. */
export const Quantity = Schema.Struct({
  decimals: Schema.String,
  numeric: Schema.String
})
/** An amount. */
export type Quantity = typeof Quantity.Type

/** A token held by an account, with its USD value and price. */
export const TokenBalance = Schema.Struct({
  name: Schema.String,
  symbol: Schema.String,
  chainId: CaipNetworkId,
  address: Schema.optionalKey(Schema.String),
  value: Schema.optionalKey(Schema.Finite),
  price: Schema.Finite,
  quantity: Quantity,
  iconUrl: Schema.String
})
/** A token held by an account. */
export type TokenBalance = typeof TokenBalance.Type

/** Kinds of transaction in the activity list. */
export const OPERATION_TYPES = [
  "send",
  "receive",
  "deposit",
  "withdraw",
  "borrow",
  "repay",
  "claim",
  "burn",
  "mint",
  "approve",
  "trade",
  "execute",
  "cancel",
  "deploy"
] as const

/** The kind of a transaction. */
export const OperationType = Schema.Literals(OPERATION_TYPES)
/** The kind of a transaction. */
export type OperationType = typeof OperationType.Type

/** Whether a transaction was mined, failed or waits. */
export const TransactionStatus = Schema.Literals(["confirmed", "failed", "pending"])
/** Whether a transaction was mined, failed or waits. */
export type TransactionStatus = typeof TransactionStatus.Type

/** Which way a transfer moved value, seen from the account. */
export const TransferDirection = Schema.Literals(["in", "out", "self"])
/** Which way a transfer moved value. */
export type TransferDirection = typeof TransferDirection.Type

/** An image reference of the blockchain service. */
export const ImageRef = Schema.Struct({ url: Schema.String })
/** An image reference. */
export type ImageRef = typeof ImageRef.Type

/** The NFT moved by a transfer. */
export const NftInfo = Schema.Struct({
  name: Schema.optionalKey(Schema.String),
  content: Schema.optionalKey(
    Schema.Struct({
      preview: Schema.optionalKey(Schema.Struct({ url: Schema.String, content_type: Schema.optionalKey(Schema.String) })),
      detail: Schema.optionalKey(Schema.Struct({ url: Schema.String, content_type: Schema.optionalKey(Schema.String) }))
    })
  ),
  flags: Schema.Struct({ is_spam: Schema.Boolean })
})
/** The NFT moved by a transfer. */
export type NftInfo = typeof NftInfo.Type

/** The fungible token moved by a transfer. */
export const FungibleInfo = Schema.Struct({
  name: Schema.optionalKey(Schema.String),
  symbol: Schema.optionalKey(Schema.String),
  icon: Schema.optionalKey(ImageRef)
})
/** The fungible token moved by a transfer. */
export type FungibleInfo = typeof FungibleInfo.Type

/** One value movement inside a transaction: an NFT or a fungible token, and how much. */
export const Transfer = Schema.Struct({
  nft_info: Schema.optionalKey(NftInfo),
  fungible_info: Schema.optionalKey(FungibleInfo),
  direction: Schema.optionalKey(TransferDirection),
  quantity: Schema.Struct({ numeric: Schema.String }),
  value: Schema.optionalKey(Schema.Finite),
  price: Schema.optionalKey(Schema.Finite)
})
/** One value movement inside a transaction. */
export type Transfer = typeof Transfer.Type

/** Facts about a transaction: when it was mined, on which chain, what kind, its status and the two parties. */
export const TransactionMetadata = Schema.Struct({
  minedAt: Schema.String,
  chain: Schema.String,
  operationType: OperationType,
  status: TransactionStatus,
  sentFrom: Schema.String,
  sentTo: Schema.String,
  hash: Schema.optionalKey(Schema.String),
  nonce: Schema.optionalKey(Schema.Finite)
})
/** Facts about a transaction. */
export type TransactionMetadata = typeof TransactionMetadata.Type

/** A transaction of the activity list. */
export const Transaction = Schema.Struct({
  id: Schema.String,
  metadata: TransactionMetadata,
  transfers: Schema.Array(Transfer)
})
/** A transaction of the activity list. */
export type Transaction = typeof Transaction.Type

/** How an NFT moves: the token standard whose transfer Send calls. */
export const NftStandard = Schema.Literals(["erc721"])
/** How an NFT moves. */
export type NftStandard = typeof NftStandard.Type

/**
 * An NFT an account owns now, as `GET /v1/account/{address}/nfts` (our extension to spec 7.4) lists it: where it
 * lives (network, collection contract as CAIP-10, token id as decimal text, since ids are uint256), what to show
 * (its name, its collection, an image; `null` when it has none) and whether the service judged it spam.
 */
export const Nft = Schema.Struct({
  chainId: CaipNetworkId,
  contract: CaipAddress,
  standard: NftStandard,
  tokenId: Schema.String.pipe(Schema.check(Schema.isPattern(/^\d+$/, { expected: "a token id as decimal digits" }))),
  name: Schema.String,
  collection: Schema.Struct({ name: Schema.String, symbol: Schema.String }),
  imageUrl: Schema.NullOr(Schema.String),
  flags: Schema.Struct({ is_spam: Schema.Boolean })
})
/** An NFT an account owns. */
export type Nft = typeof Nft.Type

/**
 * The NFTs the visitor sees: those the service flagged as spam are left out (owned ones, or those moved by a
 * transfer), the service's order kept.
 */
export const withoutSpamNfts = <A extends { readonly flags: { readonly is_spam: boolean } }>(
  nfts: ReadonlyArray<A>
): ReadonlyArray<A> => nfts.filter((nft) => !nft.flags.is_spam)

/** The address the price endpoint and balances use for a chain's native coin (its CAIP-10 is `eip155:{id}:{this}`). */
export const NATIVE_TOKEN_ADDRESS = "0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee"

/**
 * Answer of `GET /v1/account/{address}/nfts` (our extension to spec 7.4): at most `NFTS_PAGE_SIZE` NFTs the address
 * owns, the most recently received first, spam included and flagged (`flags.is_spam`); `next` is the cursor of the
 * following page, `null` on the last. A cursor the service did not give is a 400.
 *
 * @example
 * { "data": [{ "chainId": "eip155:31337", "contract": "eip155:31337:0x9fE4…6e0", "standard": "erc721",
 *   "tokenId": "4", "name": "Wallet Runtime Collectibles #4",
 *   "collection": { "name": "Wallet Runtime Collectibles", "symbol": "WRC" },
 *   "imageUrl": "http://127.0.0.1:41234/public/getAssetImage/nft-31337-0x9fE4…6e0-4",
 *   "flags": { "is_spam": false } }],
 *   "next": null }
 */
export const NftsResponse = Schema.Struct({
  data: Schema.Array(Nft),
  next: Schema.NullOr(Schema.String)
})
/** Answer of `GET /v1/account/{address}/nfts`. */
export type NftsResponse = typeof NftsResponse.Type
