/**
 * Requests the product sends to wallets (spec points 3, 5 and 6): EIP-5792 send-calls, Solana send options and
 * signing requests, Bitcoin and Polkadot wallet methods.
 */
import { Schema } from "effect"
import { isSolanaAddress } from "./validation"

const Hex = Schema.String.pipe(Schema.check(Schema.isPattern(/^0x[0-9a-fA-F]*$/, { expected: "a 0x-prefixed hex string" })))

const NonEmptyString = Schema.String.pipe(Schema.check(Schema.isNonEmpty()))

/** One call of a send-calls request: `to` and `data` start with 0x. */
export const SendCall = Schema.Struct({
  to: Hex,
  data: Schema.optionalKey(Hex),
  value: Schema.optionalKey(Hex)
})
/** One call of a send-calls request. */
export type SendCall = typeof SendCall.Type

/** An EIP-5792 `wallet_sendCalls` request. */
export const SendCallsRequest = Schema.Struct({
  version: Schema.String,
  chainId: Hex,
  from: Hex,
  calls: Schema.NonEmptyArray(SendCall),
  capabilities: Schema.optionalKey(Schema.Record(Schema.String, Schema.Unknown))
})
/** An EIP-5792 `wallet_sendCalls` request. */
export type SendCallsRequest = typeof SendCallsRequest.Type

/** Commitment levels a Solana node accepts for preflight checks. */
export const SolanaCommitment = Schema.Literals([
  "processed",
  "confirmed",
  "finalized",
  "recent",
  "single",
  "singleGossip",
  "root",
  "max"
])
/** A Solana commitment level. */
export type SolanaCommitment = typeof SolanaCommitment.Type

/** Options of a Solana send. */
export const SolanaSendOptions = Schema.Struct({
  skipPreflight: Schema.optionalKey(Schema.Boolean),
  preflightCommitment: Schema.optionalKey(SolanaCommitment),
  maxRetries: Schema.optionalKey(Schema.Number.pipe(Schema.check(Schema.isInt(), Schema.isGreaterThanOrEqualTo(0)))),
  minContextSlot: Schema.optionalKey(Schema.Number.pipe(Schema.check(Schema.isInt(), Schema.isGreaterThanOrEqualTo(0))))
})
/** Options of a Solana send. */
export type SolanaSendOptions = typeof SolanaSendOptions.Type

/** `solana_signMessage` params: the message (base58) and the signer's public key. */
export const SolanaSignMessageRequest = Schema.Struct({
  message: NonEmptyString,
  pubkey: Schema.String.pipe(
    Schema.check(Schema.makeFilter((pubkey: string) => isSolanaAddress(pubkey), { expected: "a Solana address" }))
  )
})
/** `solana_signMessage` params. */
export type SolanaSignMessageRequest = typeof SolanaSignMessageRequest.Type

/** `solana_signTransaction` params: one serialised transaction. */
export const SolanaSignTransactionRequest = Schema.Struct({ transaction: NonEmptyString })
/** `solana_signTransaction` params. */
export type SolanaSignTransactionRequest = typeof SolanaSignTransactionRequest.Type

/** `solana_signAllTransactions` params: an array of serialised transactions. */
export const SolanaSignAllTransactionsRequest = Schema.Struct({ transactions: Schema.Array(NonEmptyString) })
/** `solana_signAllTransactions` params. */
export type SolanaSignAllTransactionsRequest = typeof SolanaSignAllTransactionsRequest.Type

/** `solana_signAndSendTransaction` params: one serialised transaction and optional send options. */
export const SolanaSignAndSendTransactionRequest = Schema.Struct({
  transaction: NonEmptyString,
  sendOptions: Schema.optionalKey(SolanaSendOptions)
})
/** `solana_signAndSendTransaction` params. */
export type SolanaSignAndSendTransactionRequest = typeof SolanaSignAndSendTransactionRequest.Type

/** The Bitcoin wallet methods the product uses (spec point 6). */
export const BITCOIN_METHODS = ["sendTransfer", "signMessage", "signPsbt", "getAccountAddresses"] as const

/** A Bitcoin wallet method. */
export const BitcoinMethod = Schema.Literals(BITCOIN_METHODS)
/** A Bitcoin wallet method. */
export type BitcoinMethod = typeof BitcoinMethod.Type

/** `sendTransfer` params: from which account, to whom, how many satoshis (as text), optional memo. */
export const BitcoinSendTransferRequest = Schema.Struct({
  account: NonEmptyString,
  recipient: NonEmptyString,
  amount: Schema.String.pipe(Schema.check(Schema.isPattern(/^[0-9]+$/, { expected: "an amount in satoshis" }))),
  memo: Schema.optionalKey(Schema.String)
})
/** `sendTransfer` params. */
export type BitcoinSendTransferRequest = typeof BitcoinSendTransferRequest.Type

/** `signMessage` params: the signing address and the message text. */
export const BitcoinSignMessageRequest = Schema.Struct({
  address: NonEmptyString,
  message: Schema.String,
  protocol: Schema.optionalKey(Schema.Literals(["ecdsa", "bip322"]))
})
/** `signMessage` params. */
export type BitcoinSignMessageRequest = typeof BitcoinSignMessageRequest.Type

/** `signPsbt` params: the base64 PSBT, which inputs to sign with which address, and whether to broadcast. */
export const BitcoinSignPsbtRequest = Schema.Struct({
  account: NonEmptyString,
  psbt: NonEmptyString,
  signInputs: Schema.Array(
    Schema.Struct({
      address: NonEmptyString,
      index: Schema.Number.pipe(Schema.check(Schema.isInt(), Schema.isGreaterThanOrEqualTo(0))),
      sighashTypes: Schema.Array(Schema.Number)
    })
  ),
  broadcast: Schema.optionalKey(Schema.Boolean)
})
/** `signPsbt` params. */
export type BitcoinSignPsbtRequest = typeof BitcoinSignPsbtRequest.Type

/** `getAccountAddresses` params: the account and, optionally, which address purposes are wanted. */
export const BitcoinGetAccountAddressesRequest = Schema.Struct({
  account: NonEmptyString,
  intentions: Schema.optionalKey(Schema.Array(Schema.Literals(["payment", "ordinal"])))
})
/** `getAccountAddresses` params. */
export type BitcoinGetAccountAddressesRequest = typeof BitcoinGetAccountAddressesRequest.Type

/** The Polkadot wallet methods the product defines (no peer defines any). */
export const POLKADOT_METHODS = ["polkadot_signMessage", "polkadot_signTransaction"] as const

/** A Polkadot wallet method. */
export const PolkadotMethod = Schema.Literals(POLKADOT_METHODS)
/** A Polkadot wallet method. */
export type PolkadotMethod = typeof PolkadotMethod.Type

/**
 * A transaction payload to sign, as polkadot-js's `signer.signPayload` takes it (`SignerPayloadJSON`, built by the
 * host with its chain library): every field 0x-hex but `address`, `signedExtensions` (their names) and `version`.
 */
export const PolkadotSignerPayload = Schema.Struct({
  address: NonEmptyString,
  blockHash: Hex,
  blockNumber: Hex,
  era: Hex,
  genesisHash: Hex,
  method: Hex,
  nonce: Hex,
  specVersion: Hex,
  tip: Hex,
  transactionVersion: Hex,
  signedExtensions: Schema.Array(Schema.String),
  version: Schema.Number,
  metadataHash: Schema.optionalKey(Hex),
  mode: Schema.optionalKey(Schema.Number),
  assetId: Schema.optionalKey(Hex),
  withSignedTransaction: Schema.optionalKey(Schema.Boolean)
})
/** A transaction payload to sign. */
export type PolkadotSignerPayload = typeof PolkadotSignerPayload.Type

/**
 * `polkadot_signMessage` params: the SS58 account and the text to sign. The wallet signs its UTF-8 bytes wrapped in
 * `<Bytes>…</Bytes>`; the answer is `{ signature }` (0x-hex, 64 bytes for sr25519 and ed25519, 65 for ecdsa).
 */
export const PolkadotSignMessageRequest = Schema.Struct({ address: NonEmptyString, message: Schema.String })
/** `polkadot_signMessage` params. */
export type PolkadotSignMessageRequest = typeof PolkadotSignMessageRequest.Type

/**
 * `polkadot_signTransaction` params: the SS58 account and the payload; the answer is `{ signature }` (0x-hex, led by
 * the key type's byte: 00 ed25519, 01 sr25519, 02 ecdsa) and, when asked, `signedTransaction`.
 */
export const PolkadotSignTransactionRequest = Schema.Struct({ address: NonEmptyString, transactionPayload: PolkadotSignerPayload })
/** `polkadot_signTransaction` params. */
export type PolkadotSignTransactionRequest = typeof PolkadotSignTransactionRequest.Type

/** polkadot-js `signRaw` params: the account, 0x-hex data, and whether it is a message (`bytes`) or a payload. */
export const PolkadotSignRawRequest = Schema.Struct({ address: NonEmptyString, data: Hex, type: Schema.Literals(["bytes", "payload"]) })
/** polkadot-js `signRaw` params. */
export type PolkadotSignRawRequest = typeof PolkadotSignRawRequest.Type
