/**
 * The wallet catalogue, its images and analytics (spec 7.3) in the services' HTTP contract (`domain/Api` gathers the
 * whole contract). A module of its own: the catalogue's client, built when the modal opens, builds these Schemas and
 * not those of the blockchain API, swaps or names.
 */
import { Schema } from "effect"
import { CaipNetworkId } from "./Caip"
import { WalletCatalogEntry } from "./Wallet"
import { CommaSeparated, IntFromString, projectIdField } from "./ApiShared"

/** Catalogue entries per page when `entries` is not given. */
export const WALLETS_DEFAULT_ENTRIES = 40
/** The largest page the catalogue serves. */
export const WALLETS_MAX_ENTRIES = 100

/** Path of the catalogue's pages (spec 7.3): the declared endpoint's and the modal's own call's, written once. */
export const GET_WALLETS_PATH = "/getWallets"

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
  count: Schema.Finite.pipe(Schema.check(Schema.isInt(), Schema.isGreaterThanOrEqualTo(0)))
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

/** Path of the analytics config (spec 7.3): the declared endpoint's and the modal's own call's, written once. */
export const GET_ANALYTICS_CONFIG_PATH = "/getAnalyticsConfig"
/** Path of one analytics event (spec 7.3): the declared endpoint's and the modal's own call's, written once. */
export const POST_ANALYTICS_EVENT_PATH = "/e"

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
  timestamp: Schema.Finite,
  props: AnalyticsEventProps
})
/** Body of `POST /e`. */
export type AnalyticsEvent = typeof AnalyticsEvent.Type

/** Answer of `POST /e`. */
export const AnalyticsEventAccepted = Schema.Struct({ accepted: Schema.Boolean })
/** Answer of `POST /e`. */
export type AnalyticsEventAccepted = typeof AnalyticsEventAccepted.Type
