/**
 * The registered names in the services' database (table `account_names`, migration `0002_names` in
 * `server/src/db/migrations.ts`): effects over `effect/sql`'s `SqlClient`, run by the routes with `state.db.run`.
 */
import { Effect, Schema } from "effect"
import { SqlClient } from "effect/sql"

/** A registered name as stored: full normalised name, checksummed address, the coin type it was signed for, its proof. */
export const StoredName = Schema.Struct({
  name: Schema.String,
  address: Schema.String,
  coin_type: Schema.BigInt,
  attributes: Schema.Record(Schema.String, Schema.String),
  message: Schema.String,
  signature: Schema.String,
  registered_at: Schema.Date
})
/** A registered name as stored. */
export type StoredName = typeof StoredName.Type

const decodeRows = Schema.decodeUnknownEffect(Schema.Array(StoredName))

/** What a registration stores: the name and its proof (the signed message and its signature). */
export interface NameRegistration {
  readonly name: string
  readonly address: string
  readonly coinType: number
  readonly attributes: Readonly<Record<string, string>>
  readonly message: string
  readonly signature: string
  readonly registeredAt: Date
}

/** Stores a registration unless the name is held already; `false` when it is (the table's key decides, so two racing registrations cannot both win). */
export const insertName = Effect.fn("namesStore.insertName")(function* (registration: NameRegistration) {
  const sql = yield* SqlClient.SqlClient
  const inserted = yield* sql`INSERT INTO account_names (name, address, coin_type, attributes, message, signature, registered_at)
    VALUES (${registration.name}, ${registration.address}, ${registration.coinType}, ${JSON.stringify(registration.attributes)}::jsonb,
      ${registration.message}, ${registration.signature}, ${registration.registeredAt})
    ON CONFLICT (name) DO NOTHING
    RETURNING name`
  return inserted.length === 1
})

/** The registered name `name` (full, normalised), if any. */
export const findName = Effect.fn("namesStore.findName")(function* (name: string) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* decodeRows(
    yield* sql`SELECT name, address, coin_type, attributes, message, signature, registered_at FROM account_names WHERE name = ${name}`
  )
  return rows[0]
})

/** Which of `names` are registered. */
export const registeredAmong = Effect.fn("namesStore.registeredAmong")(function* (names: ReadonlyArray<string>) {
  const sql = yield* SqlClient.SqlClient
  if (names.length === 0) return new Set<string>()
  const rows = yield* sql<{ readonly name: string }>`SELECT name FROM account_names WHERE ${sql.in("name", names)}`
  return new Set(rows.map((row) => row.name))
})

/** The names registered for `address` (any case), newest first. */
export const namesOfAddress = Effect.fn("namesStore.namesOfAddress")(function* (address: string) {
  const sql = yield* SqlClient.SqlClient
  return yield* decodeRows(
    yield* sql`SELECT name, address, coin_type, attributes, message, signature, registered_at FROM account_names
      WHERE lower(address) = ${address.toLowerCase()} ORDER BY registered_at DESC, name`
  )
})
