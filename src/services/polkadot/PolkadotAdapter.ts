/**
 * The polkadot chain adapter: signs messages with the wallet's `signer.signRaw` (the UTF-8 text wrapped in
 * `<Bytes>…</Bytes>`, as every polkadot-js signer signs bytes), signs transaction payloads with `signer.signPayload`,
 * and moves the account's address format with the network (SS58 prefix). The runtime reads no Polkadot chain (there
 * is no RPC transport for Substrate here, and spec 9 gives balances to eip155 and solana only): sending, fees,
 * transaction status and balances fail with FeatureUnavailable, whose words say so. Loaded the first time a
 * Polkadot wallet is used or restored; it brings no chain library.
 */
import { Effect, Schema } from "effect"
import { SignMessageFailed, SomethingWentWrong } from "../../domain/errors"
import { FeatureUnavailable } from "../../domain/featureUnavailable"
import { FAMILY_NAMES } from "../../domain/familyFeaturesText"
import {
  PolkadotSignerPayload,
  PolkadotSignMessageRequest,
  PolkadotSignRawRequest,
  PolkadotSignTransactionRequest
} from "../../domain/Requests"
import { InvalidWalletParams, WalletError, WalletMethodUnsupported } from "../../domain/walletErrors"
import type { AccountSession, ChainAdapter } from "../ChainAdapter"
import { fromPolkadotWalletError, type PolkadotProvider } from "./provider"
import { isSs58Address } from "./ss58"

const WRAP_START = "<Bytes>"
const WRAP_END = "</Bytes>"

const toHex = (bytes: Uint8Array): string => `0x${Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("")}`

/**
 * The bytes a Polkadot wallet signs for a text message, as 0x-hex: its UTF-8 wrapped in `<Bytes>…</Bytes>`. Signers
 * wrap unwrapped data themselves and never wrap twice, so sending it wrapped gives the same signature from every one.
 * @example wrappedMessageHex("hi") // "0x3c42797465733e68693c2f42797465733e"
 */
export const wrappedMessageHex = (message: string): string => toHex(new TextEncoder().encode(`${WRAP_START}${message}${WRAP_END}`))

/** What a signer answers (`SignerResult`): a request id, the 0x-hex signature and, when asked, the signed transaction. */
const SignerResult = Schema.Struct({
  id: Schema.optionalKey(Schema.Unknown),
  signature: Schema.String.pipe(Schema.check(Schema.isPattern(/^0x[0-9a-fA-F]+$/))),
  signedTransaction: Schema.optionalKey(Schema.Unknown)
})

/** The byte length of a 0x-hex signature. */
const signatureLength = (signature: string): number => (signature.length - 2) / 2

// A raw signature is the key type's: 64 bytes for sr25519 and ed25519, 65 for ecdsa. A payload signature is led by
// the key type's byte (a MultiSignature): 65 or 66.
const RAW_LENGTHS = [64, 65]
const PAYLOAD_LENGTHS = [65, 66]

const unavailable = (what: string) =>
  new FeatureUnavailable({
    details: `${what} not available for ${FAMILY_NAMES.polkadot} accounts: this site does not read the Polkadot chain.`
  })

const providerOf = (session: AccountSession): Effect.Effect<PolkadotProvider, SomethingWentWrong> =>
  session.provider.namespace === "polkadot"
    ? Effect.succeed(session.provider.provider)
    : Effect.fail(new SomethingWentWrong({ reason: `A ${session.provider.namespace} wallet was given to the polkadot adapter` }))

const ask = (run: () => Promise<unknown>) => Effect.tryPromise({ try: run, catch: fromPolkadotWalletError })

/** A signer's answer, checked: a hex signature of one of `lengths` bytes. */
const signerResult = (answer: unknown, lengths: ReadonlyArray<number>) =>
  Effect.gen(function* () {
    const decoded = Schema.decodeUnknownExit(SignerResult)(answer)
    if (decoded._tag === "Failure" || !lengths.includes(signatureLength(decoded.value.signature))) {
      return yield* new WalletError({ details: "The wallet answered without a signature." })
    }
    return decoded.value
  })

const decode = <A>(schema: Schema.Codec<A>, method: string, params: unknown) =>
  Schema.decodeUnknownEffect(schema)(params).pipe(Effect.mapError((issue) => new InvalidWalletParams({ details: `${method}: ${issue.message}` })))

const account = (method: string, address: string) =>
  isSs58Address(address)
    ? Effect.succeed(address)
    : Effect.fail(new InvalidWalletParams({ details: `${method}: ${address.slice(0, 64)} is not a Polkadot (SS58) address` }))

/** Makes the polkadot adapter. */
export const makePolkadotAdapter = (): ChainAdapter => {
  const signRaw = (provider: PolkadotProvider, input: { readonly address: string; readonly data: string; readonly type: "bytes" | "payload" }) =>
    Effect.gen(function* () {
      const sign = provider.signRaw
      if (sign === undefined) return yield* new WalletMethodUnsupported({ details: "This wallet cannot sign messages." })
      return yield* signerResult(yield* ask(() => sign(input)), RAW_LENGTHS)
    })

  const signPayload = (provider: PolkadotProvider, payload: PolkadotSignerPayload) =>
    Effect.gen(function* () {
      const sign = provider.signPayload
      if (sign === undefined) return yield* new WalletMethodUnsupported({ details: "This wallet cannot sign transactions." })
      return yield* signerResult(yield* ask(() => sign(payload)), PAYLOAD_LENGTHS)
    })

  const signMessage = (session: AccountSession, message: string) =>
    Effect.gen(function* () {
      const provider = yield* providerOf(session).pipe(Effect.mapError((error) => new SignMessageFailed({ reason: error.reason ?? "" })))
      const result = yield* signRaw(provider, { address: session.address, data: wrappedMessageHex(message), type: "bytes" }).pipe(
        Effect.mapError((error) => (error._tag === "WalletError" ? new SignMessageFailed({ reason: error.details }) : error))
      )
      return result.signature
    }).pipe(Effect.withSpan("PolkadotAdapter.signMessage"))

  const request = (session: AccountSession, method: string, params: unknown) =>
    Effect.gen(function* () {
      const provider = yield* providerOf(session)
      switch (method) {
        case "polkadot_signMessage": {
          const input = yield* decode(PolkadotSignMessageRequest, method, params)
          const address = yield* account(method, input.address)
          const result = yield* signRaw(provider, { address, data: wrappedMessageHex(input.message), type: "bytes" })
          return { signature: result.signature }
        }
        case "polkadot_signTransaction": {
          const input = yield* decode(PolkadotSignTransactionRequest, method, params)
          yield* account(method, input.address)
          const payload = { ...input.transactionPayload, address: yield* account(method, input.transactionPayload.address) }
          const result = yield* signPayload(provider, payload)
          return { signature: result.signature, ...(result.signedTransaction !== undefined ? { signedTransaction: result.signedTransaction } : {}) }
        }
        // polkadot-js's own signer calls, for hosts that build on it.
        case "signPayload": {
          const payload = yield* decode(PolkadotSignerPayload, method, params)
          yield* account(method, payload.address)
          return yield* signPayload(provider, payload)
        }
        case "signRaw": {
          const input = yield* decode(PolkadotSignRawRequest, method, params)
          yield* account(method, input.address)
          return yield* signRaw(provider, input)
        }
        default:
          return yield* new WalletMethodUnsupported({ details: `Polkadot wallets do not answer ${method}.` })
      }
    }).pipe(Effect.withSpan("PolkadotAdapter.request"))

  return {
    namespace: "polkadot",
    // A Polkadot wallet has no chain to move: the same keys are written in the new network's address format.
    switchNetwork: (session, network) =>
      Effect.flatMap(providerOf(session), (provider) => Effect.sync(() => provider.onNetwork(network))).pipe(
        Effect.withSpan("PolkadotAdapter.switchNetwork")
      ),
    signMessage,
    send: () => Effect.fail(unavailable("Sending is")),
    estimateFee: () => Effect.fail(unavailable("Network fees are")),
    waitForTransaction: () => Effect.fail(unavailable("Transaction status is")),
    balances: () => Effect.fail(unavailable("Balances are")),
    request
  }
}
