/**
 * The pieces every group of the services' HTTP contract uses (`domain/Api` gathers the whole contract): the error
 * body, the authorisation texts, query helpers, address params and the projectId field. A module of its own so that a
 * client of one group (the catalogue, at modal open) builds only what that group declares.
 */
import { Schema, SchemaTransformation } from "effect"

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
export const projectIdField = Schema.optionalKey(Schema.String)

/** The SDK's type (`st`, e.g. `appkit`) and version (`sv`), which a client may add to any query. */
export const SdkQueryFields = { st: Schema.optionalKey(Schema.String), sv: Schema.optionalKey(Schema.String) } as const

/** Query of the endpoints that take nothing but the projectId (and the SDK's type and version). */
export const ProjectQuery = Schema.Struct({ projectId: projectIdField, ...SdkQueryFields })
/** Query of the endpoints that take nothing but the projectId. */
export type ProjectQuery = typeof ProjectQuery.Type
