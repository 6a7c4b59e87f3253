/**
 * Account names (spec points 3 and 7.4): the message a wallet signs to register a name and the payload sent to
 * register it.
 */
import { Schema } from "effect"

/**
 * The message signed to register a name: the full name (label and suffix, e.g. `erin.wallet.test`, as records and
 * lookups name it), its text attributes, and the time of signing in whole seconds (a service refuses a stale one).
 */
export const NameMessage = Schema.Struct({
  name: Schema.String,
  attributes: Schema.Record(Schema.String, Schema.String),
  timestamp: Schema.Finite.pipe(Schema.check(Schema.isInt(), Schema.isGreaterThanOrEqualTo(0)))
})
/** The message signed to register a name. */
export type NameMessage = typeof NameMessage.Type

/** A {@link NameMessage} as the JSON text that is signed and sent. */
export const NameMessageJson = Schema.fromJsonString(NameMessage)

/** The body of a name registration: coin type, address, the signed message text and its signature. */
export const NameRegistrationPayload = Schema.Struct({
  coin_type: Schema.Finite.pipe(Schema.check(Schema.isInt(), Schema.isGreaterThanOrEqualTo(0))),
  address: Schema.String,
  message: Schema.String,
  signature: Schema.String
})
/** The body of a name registration. */
export type NameRegistrationPayload = typeof NameRegistrationPayload.Type
