import { Schema } from "effect"

/** A message the SMTP sink received. */
export const InboxMessage = Schema.Struct({
  id: Schema.String,
  from: Schema.String,
  to: Schema.Array(Schema.String),
  subject: Schema.String,
  text: Schema.String,
  html: Schema.NullOr(Schema.String),
  /** Milliseconds since the epoch. */
  receivedAt: Schema.Number,
  /** Every run of 6 digits in the subject and text: the one-time codes the embedded wallet sends. */
  codes: Schema.Array(Schema.String)
})
/** A message the SMTP sink received. */
export type InboxMessage = typeof InboxMessage.Type

/** Answer of `GET /inbox`: newest first. */
export const InboxResponse = Schema.Struct({ messages: Schema.Array(InboxMessage) })
/** Answer of `GET /inbox`. */
export type InboxResponse = typeof InboxResponse.Type

/** Query of `GET /inbox`: `to` filters by recipient (case-insensitive); `wait` (ms, ≤ 30000) holds the answer until one arrives. */
export const InboxQuery = Schema.Struct({
  to: Schema.optionalKey(Schema.String),
  wait: Schema.optionalKey(
    Schema.FiniteFromString.pipe(Schema.check(Schema.isInt(), Schema.isBetween({ minimum: 0, maximum: 30_000 })))
  )
})
