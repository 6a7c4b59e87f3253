/**
 * Sign-in with the wallet (spec points 3 and 4): the message a wallet signs to prove it owns an address, and the
 * session kept once it did.
 */
import { Schema } from "effect"
import { CaipNetworkId } from "./Caip"

/** What the sign-in message says: who asks (domain, uri), for which account and chain, and when it is valid. */
export const SiwxMessageData = Schema.Struct({
  domain: Schema.String,
  uri: Schema.String,
  version: Schema.String,
  chainId: CaipNetworkId,
  accountAddress: Schema.String,
  nonce: Schema.String,
  issuedAt: Schema.String,
  expirationTime: Schema.optionalKey(Schema.String),
  notBefore: Schema.optionalKey(Schema.String),
  statement: Schema.optionalKey(Schema.String),
  requestId: Schema.optionalKey(Schema.String),
  resources: Schema.optionalKey(Schema.Array(Schema.String))
})
/** What the sign-in message says. */
export type SiwxMessageData = typeof SiwxMessageData.Type

/** A sign-in session: the message data, the exact text signed and the wallet's signature. */
export const SiwxSession = Schema.Struct({
  data: SiwxMessageData,
  message: Schema.String,
  signature: Schema.String.pipe(Schema.check(Schema.isNonEmpty()))
})
/** A sign-in session. */
export type SiwxSession = typeof SiwxSession.Type
