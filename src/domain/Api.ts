/**
 * The HTTP contract of the hosted services (spec 7.2, 7.3, 7.4): path params, queries, bodies and responses of
 * each endpoint. The client encodes its requests and decodes the answers with these Schemas, and the local
 * services server (`devstack/services`) decodes the same requests and encodes its answers with them, so both
 * sides share one contract. Query Schemas decode from the strings of a URL query and encode back to them.
 */
import { Schema, SchemaTransformation } from "effect"
import { CaipAddress, CaipNetworkId } from "./Caip"
import { TokenBalance, Transaction } from "./Portfolio"
import { WalletCatalogEntry } from "./Wallet"

// ---------------------------------------------------------------------------------------------------------------
// Shared pieces

/** The body of every 4xx/5xx JSON answer: one sentence saying what was wrong. */
export const ApiError = Schema.Struct({ error: Schema.String })
/** The body of a JSON error answer. */
export type ApiError = typeof ApiError.Type

/** Body text of the 401 for an unknown projectId (the 'Invalid Project ID' alert). */
export const UNAUTHORIZED_INVALID_KEY = "Unauthorized: invalid key"
/** Body text of the 403 for a projectId used from an origin not on its allow-list (the 'Invalid App Configuration' alert). */
export const UNAUTHORIZED_ORIGIN_NOT_ALLOWED = "Unauthorized: origin not allowed"

/** A whole number written in a query string, e.g. `"2"` ↔ `2`. */
export const IntFromString = Schema.FiniteFromString.pipe(Schema.check(Schema.isInt()))

/** A comma-separated list in a query string, e.g. `"a,b"` ↔ `["a", "b"]`; empty items are dropped. */
export const CommaSeparated = <S extends Schema.Codec<unknown, string>>(item: S) =>
  Schema.String.pipe(
    Schema.decodeTo(
      Schema.Array(item),
      SchemaTransformation.transform({
        decode: (text: string): ReadonlyArray<string> =>
          text
            .split(",")
            .map((part) => part.trim())
            .filter((part) => part.length > 0),
        encode: (items: ReadonlyArray<string>): string => items.join(",")
      })
    )
  )

/** An EVM address as the services take it in a path: `0x` and 40 hex digits. */
export const EvmAddressParam = Schema.String.pipe(
  Schema.check(Schema.isPattern(/^0x[0-9a-fA-F]{40}$/, { expected: "an EVM address (0x and 40 hex digits)" }))
)

/** An account address of any supported family in a path: EVM (`0x` + 40 hex) or Solana (32 to 44 base58). */
export const AccountAddressParam = Schema.String.pipe(
  Schema.check(
    Schema.isPattern(/^(0x[0-9a-fA-F]{40}|[1-9A-HJ-NP-Za-km-z]{32,44})$/, {
      expected: "an EVM address (0x and 40 hex digits) or a Solana address (32 to 44 base58 characters)"
    })
  )
)

/** The projectId every service endpoint takes (in the query, or as the header `x-project-id`). */
const projectIdField = Schema.optionalKey(Schema.String)

/** Query of the endpoints that take nothing but the projectId. */
export const ProjectQuery = Schema.Struct({ projectId: projectIdField })
/** Query of the endpoints that take nothing but the projectId. */
export type ProjectQuery = typeof ProjectQuery.Type

// ---------------------------------------------------------------------------------------------------------------
// Wallet catalogue and assets (spec 7.3)

/** Catalogue entries per page when `entries` is not given. */
export const WALLETS_DEFAULT_ENTRIES = 40
/** The largest page the catalogue serves. */
export const WALLETS_MAX_ENTRIES = 100

/** Query of `GET /getWallets`: paging (1-based `page`, `entries`), filters and search. */
export const GetWalletsQuery = Schema.Struct({
  projectId: projectIdField,
  /** SDK type, e.g. `appkit`. */
  st: Schema.optionalKey(Schema.String),
  /** SDK version. */
  sv: Schema.optionalKey(Schema.String),
  page: Schema.optionalKey(IntFromString.pipe(Schema.check(Schema.isGreaterThanOrEqualTo(1)))),
  entries: Schema.optionalKey(
    IntFromString.pipe(Schema.check(Schema.isBetween({ minimum: 1, maximum: WALLETS_MAX_ENTRIES })))
  ),
  /** Only wallets supporting at least one of these networks. */
  chains: Schema.optionalKey(CommaSeparated(CaipNetworkId)),
  /** Only these wallet ids. */
  include: Schema.optionalKey(CommaSeparated(Schema.String)),
  /** Never these wallet ids. */
  exclude: Schema.optionalKey(CommaSeparated(Schema.String)),
  /** Case-insensitive part of the wallet name; surrounding spaces are ignored. */
  search: Schema.optionalKey(Schema.String),
  /** `certified`: only certified wallets; `none`: no badge filter. */
  badge_type: Schema.optionalKey(Schema.Literals(["none", "certified"]))
})
/** Query of `GET /getWallets`. */
export type GetWalletsQuery = typeof GetWalletsQuery.Type

/** Answer of `GET /getWallets`: one page of entries and how many entries match in all. */
export const GetWalletsResponse = Schema.Struct({
  data: Schema.Array(WalletCatalogEntry),
  count: Schema.Number.pipe(Schema.check(Schema.isInt(), Schema.isGreaterThanOrEqualTo(0)))
})
/** Answer of `GET /getWallets`. */
export type GetWalletsResponse = typeof GetWalletsResponse.Type

/** Path of the image endpoints (`/getWalletImage/{id}`, `/public/getAssetImage/{id}`, …): an image id. */
export const ImagePath = Schema.Struct({
  id: Schema.String.pipe(
    Schema.check(
      Schema.isPattern(/^[A-Za-z0-9._:-]{1,128}$/, { expected: "an image id (letters, digits, '.', '_', ':', '-')" })
    )
  )
})
/** Path of the image endpoints. */
export type ImagePath = typeof ImagePath.Type

/** Query of the image endpoints. */
export const ImageQuery = Schema.Struct({
  projectId: projectIdField,
  st: Schema.optionalKey(Schema.String),
  sv: Schema.optionalKey(Schema.String)
})

/** Answer of `GET /getAnalyticsConfig`: whether the project may send analytics events. */
export const AnalyticsConfig = Schema.Struct({ isAnalyticsEnabled: Schema.Boolean })
/** Answer of `GET /getAnalyticsConfig`. */
export type AnalyticsConfig = typeof AnalyticsConfig.Type

/** The event data of an analytics event: its name, the connected address if any, and free properties. */
export const AnalyticsEventProps = Schema.Struct({
  type: Schema.optionalKey(Schema.String),
  event: Schema.String,
  address: Schema.optionalKey(Schema.String),
  properties: Schema.optionalKey(Schema.Record(Schema.String, Schema.Unknown))
})
/** The event data of an analytics event. */
export type AnalyticsEventProps = typeof AnalyticsEventProps.Type

/** Body of `POST /e`: one analytics event. */
export const AnalyticsEvent = Schema.Struct({
  eventId: Schema.String,
  url: Schema.String,
  domain: Schema.String,
  /** Milliseconds since the epoch. */
  timestamp: Schema.Number,
  props: AnalyticsEventProps
})
/** Body of `POST /e`. */
export type AnalyticsEvent = typeof AnalyticsEvent.Type

/** Answer of `POST /e`. */
export const AnalyticsEventAccepted = Schema.Struct({ accepted: Schema.Boolean })
/** Answer of `POST /e`. */
export type AnalyticsEventAccepted = typeof AnalyticsEventAccepted.Type

// ---------------------------------------------------------------------------------------------------------------
// Blockchain service (spec 7.4)

/** Answer of `GET /v1/supported-chains`: networks served over HTTP and over websocket. */
export const SupportedChains = Schema.Struct({
  http: Schema.Array(CaipNetworkId),
  ws: Schema.Array(CaipNetworkId)
})
/** Answer of `GET /v1/supported-chains`. */
export type SupportedChains = typeof SupportedChains.Type

/** Path of the account endpoints (`/v1/account/{address}/…`). */
export const AccountPath = Schema.Struct({ address: AccountAddressParam })
/** Path of the account endpoints. */
export type AccountPath = typeof AccountPath.Type

/** Path of `GET /v1/identity/{address}`: an EVM address (names exist on eip155 only). */
export const IdentityPath = Schema.Struct({ address: EvmAddressParam })

/** Query of `GET /v1/identity/{address}`: `sender` is the address asking. */
export const IdentityQuery = Schema.Struct({
  projectId: projectIdField,
  sender: Schema.optionalKey(Schema.String)
})
/** Query of `GET /v1/identity/{address}`. */
export type IdentityQuery = typeof IdentityQuery.Type

/** Answer of `GET /v1/identity/{address}`: the account's name and avatar URL, `null` when it has none. */
export const Identity = Schema.Struct({
  name: Schema.NullOr(Schema.String),
  avatar: Schema.NullOr(Schema.String)
})
/** Answer of `GET /v1/identity/{address}`. */
export type Identity = typeof Identity.Type

/** Query of `GET /v1/account/{address}/balance`: prices in `currency`, on one network or on all when absent. */
export const BalanceQuery = Schema.Struct({
  projectId: projectIdField,
  currency: Schema.optionalKey(Schema.Literal("usd")),
  chainId: Schema.optionalKey(CaipNetworkId),
  /** A token address (CAIP-10) whose balance must not come from a cache. */
  forceUpdate: Schema.optionalKey(Schema.String)
})
/** Query of `GET /v1/account/{address}/balance`. */
export type BalanceQuery = typeof BalanceQuery.Type

/** Answer of `GET /v1/account/{address}/balance`: the account's non-zero token balances. */
export const BalanceResponse = Schema.Struct({ balances: Schema.Array(TokenBalance) })
/** Answer of `GET /v1/account/{address}/balance`. */
export type BalanceResponse = typeof BalanceResponse.Type

/** Query of `GET /v1/account/{address}/history`: the `next` of the previous page as `cursor`, an optional network. */
export const HistoryQuery = Schema.Struct({
  projectId: projectIdField,
  cursor: Schema.optionalKey(Schema.String),
  chainId: Schema.optionalKey(CaipNetworkId),
  onramp: Schema.optionalKey(Schema.String)
})
/** Query of `GET /v1/account/{address}/history`. */
export type HistoryQuery = typeof HistoryQuery.Type

/** Answer of `GET /v1/account/{address}/history`: newest first; `next` is the cursor of the following page, if any. */
export const HistoryResponse = Schema.Struct({
  data: Schema.Array(Transaction),
  next: Schema.optionalKey(Schema.NullOr(Schema.String))
})
/** Answer of `GET /v1/account/{address}/history`. */
export type HistoryResponse = typeof HistoryResponse.Type

/** Body of `POST /v1/fungible/price`: the tokens (CAIP-10 addresses) to price. */
export const FungiblePriceRequest = Schema.Struct({
  projectId: Schema.String,
  currency: Schema.Literal("usd"),
  addresses: Schema.Array(CaipAddress)
})
/** Body of `POST /v1/fungible/price`. */
export type FungiblePriceRequest = typeof FungiblePriceRequest.Type

/** The price of one token. */
export const FungiblePrice = Schema.Struct({
  name: Schema.String,
  symbol: Schema.String,
  iconUrl: Schema.String,
  price: Schema.Number,
  address: Schema.optionalKey(Schema.String)
})
/** The price of one token. */
export type FungiblePrice = typeof FungiblePrice.Type

/** Answer of `POST /v1/fungible/price`: the tokens that have a price (unknown ones are left out). */
export const FungiblePriceResponse = Schema.Struct({ fungibles: Schema.Array(FungiblePrice) })
/** Answer of `POST /v1/fungible/price`. */
export type FungiblePriceResponse = typeof FungiblePriceResponse.Type

/** The address the price endpoint and balances use for a chain's native coin (its CAIP-10 is `eip155:{id}:{this}`). */
export const NATIVE_TOKEN_ADDRESS = "0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee"

// ---------------------------------------------------------------------------------------------------------------
// RPC proxy (spec 7.2)

/** A network id for the RPC proxy: CAIP-2, or a bare EVM chain id (`"31337"` decodes as `eip155:31337`). */
export const RpcChainIdParam = Schema.String.pipe(
  Schema.decodeTo(
    CaipNetworkId,
    SchemaTransformation.transform({
      decode: (text: string) => (/^\d+$/.test(text) ? `eip155:${text}` : text),
      encode: (id: string) => id
    })
  )
)

/** Query of `GET|POST /v1/`: the network and projectId; a GET carries its call as `method` and JSON `params`. */
export const RpcProxyQuery = Schema.Struct({
  chainId: RpcChainIdParam,
  projectId: projectIdField,
  method: Schema.optionalKey(Schema.String),
  params: Schema.optionalKey(Schema.fromJsonString(Schema.Array(Schema.Unknown)))
})
/** Query of `GET|POST /v1/`. */
export type RpcProxyQuery = typeof RpcProxyQuery.Type

/** A JSON-RPC 2.0 request id. */
export const JsonRpcId = Schema.Union([Schema.Number, Schema.String, Schema.Null])

/** One JSON-RPC 2.0 request. */
export const JsonRpcRequest = Schema.Struct({
  jsonrpc: Schema.Literal("2.0"),
  id: Schema.optionalKey(JsonRpcId),
  method: Schema.String,
  params: Schema.optionalKey(Schema.Unknown)
})
/** One JSON-RPC 2.0 request. */
export type JsonRpcRequest = typeof JsonRpcRequest.Type

/** Body of `POST /v1/`: one JSON-RPC request or a non-empty batch. */
export const JsonRpcRequestBody = Schema.Union([
  JsonRpcRequest,
  Schema.Array(JsonRpcRequest).pipe(Schema.check(Schema.isMinLength(1)))
])
/** Body of `POST /v1/`. */
export type JsonRpcRequestBody = typeof JsonRpcRequestBody.Type

/** One JSON-RPC 2.0 answer: a result or an error. */
export const JsonRpcResponse = Schema.Struct({
  jsonrpc: Schema.Literal("2.0"),
  id: JsonRpcId,
  result: Schema.optionalKey(Schema.Unknown),
  error: Schema.optionalKey(
    Schema.Struct({ code: Schema.Number, message: Schema.String, data: Schema.optionalKey(Schema.Unknown) })
  )
})
/** One JSON-RPC 2.0 answer. */
export type JsonRpcResponse = typeof JsonRpcResponse.Type

/** Answer of `GET|POST /v1/`: one answer, or one per request of a batch. */
export const JsonRpcResponseBody = Schema.Union([JsonRpcResponse, Schema.Array(JsonRpcResponse)])
/** Answer of `GET|POST /v1/`. */
export type JsonRpcResponseBody = typeof JsonRpcResponseBody.Type
