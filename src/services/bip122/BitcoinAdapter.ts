/**
 * The bip122 chain adapter: Bitcoin over the wallet's BitcoinProvider and the network's Esplora-style API. Messages
 * are signed by the wallet (BIP-322 simple for segwit and taproot addresses, base64); a transfer is the wallet's
 * `sendTransfer` (recipient and satoshis → txid), or, for a wallet that only signs PSBTs, a PSBT built here from the
 * account's UTXOs, signed by the wallet, checked, finalised and broadcast; `signPsbt` requests are checked the same
 * way (the same unsigned transaction back, only the wallet's inputs signed). Fees, balances and confirmations are
 * read from the network. This module is loaded the first time a Bitcoin wallet is used; btc-signer (`psbt.ts`, about
 * 45 KiB gzip) only when a PSBT is: signing messages, the wallet's own transfers, fees and balances need none of it.
 */
import { Duration, Effect, Result, Schedule, Schema } from "effect"
import type * as HttpClient from "effect/http/HttpClient"
import { type BitcoinAddressType, bitcoinNetworkKindOf, parseBitcoinAddress } from "../../domain/bitcoinAddress"
import { TRANSACTION_CONFIRMATION_MS } from "../../domain/constants"
import { fromBase64, toBase64 } from "../../domain/encoding"
import {
  GasEstimationFailed,
  ProgrammaticSwitchUnsupported,
  SendFormInvalid,
  SignMessageFailed,
  SomethingWentWrong
} from "../../domain/errors"
import { formatUnits } from "../../domain/format"
import type { CaipNetwork } from "../../domain/Network"
import {
  BitcoinGetAccountAddressesRequest,
  BitcoinSendTransferRequest,
  BitcoinSignMessageRequest,
  BitcoinSignPsbtRequest
} from "../../domain/Requests"
import {
  fromWalletError,
  InsufficientFunds,
  InvalidWalletParams,
  TransactionRejected,
  WalletError,
  WalletMethodUnsupported
} from "../../domain/walletErrors"
import type { AccountSession, ChainAdapter, ChainBalance, SendRequest, TransactionConfirmation } from "../ChainAdapter"
import { DUST_SATS, selectOutputs, sendAllFee } from "./coinSelection"
import { type Esplora, type EsploraAnswer, type EsploraError, makeEsplora, type TxStatus } from "./esplora"
import type * as Psbt from "./psbt"
import { type BitcoinInputsToSign, type BitcoinProvider, walletStandardBitcoinChainOf } from "./provider"

/** What the bip122 adapter is made with. */
export interface BitcoinAdapterOptions {
  readonly http: HttpClient.HttpClient
  /** The Esplora-style API URLs of a network, in the order to try them (the host's custom ones first). */
  readonly apiUrlsOf: (network: CaipNetwork) => ReadonlyArray<string>
}

const STATUS_POLL_MS = 1_000

const providerOf = (session: AccountSession): Effect.Effect<BitcoinProvider, SomethingWentWrong> =>
  session.provider.namespace === "bip122"
    ? Effect.succeed(session.provider.provider)
    : Effect.fail(new SomethingWentWrong({ reason: `A ${session.provider.namespace} wallet was given to the bip122 adapter` }))

const ask = <A>(run: () => Promise<A>) => Effect.tryPromise({ try: run, catch: fromWalletError })

const isTxid = (value: unknown): value is string => typeof value === "string" && /^[0-9a-f]{64}$/.test(value)

/** The kind of an address of `network`, or the words saying why it is not one. */
const addressTypeOf = (address: string, network: CaipNetwork): Result.Result<BitcoinAddressType, string> =>
  Result.map(parseBitcoinAddress(address, bitcoinNetworkKindOf(network.caipNetworkId)), (decoded) => decoded.type)

/** A node's refusal in its own words ('sendrawtransaction RPC error: {"code":-26,"message":"…"}' → the message). */
const refusalWords = (body: string): string => {
  const json = body.indexOf("{")
  if (json >= 0) {
    try {
      const parsed = JSON.parse(body.slice(json)) as { readonly message?: unknown }
      if (typeof parsed.message === "string") return parsed.message
    } catch {
      // Not JSON: the text is the reason.
    }
  }
  return body
}

/** The PSBT code (btc-signer), fetched once, the first time a PSBT is built or checked. */
const psbtCode: Effect.Effect<typeof Psbt, SomethingWentWrong> = Effect.tryPromise({
  try: () => import("./psbt"),
  catch: (error) => new SomethingWentWrong({ reason: `The Bitcoin PSBT code could not be loaded: ${error instanceof Error ? error.message : String(error)}` })
})

/** Makes the bip122 adapter over the network's API. */
export const makeBitcoinAdapter = (options: BitcoinAdapterOptions): ChainAdapter => {
  const esplora: Esplora = makeEsplora(options.http, options.apiUrlsOf)
  const unreachable = (error: EsploraError) => new SomethingWentWrong({ reason: error._tag === "EsploraAnswer" ? error.body : error.reason })

  const decode = <A>(schema: Schema.Codec<A>, method: string, params: unknown) =>
    Schema.decodeUnknownEffect(schema)(params).pipe(
      Effect.mapError((issue) => new InvalidWalletParams({ details: `${method}: ${issue.message}` }))
    )

  const signMessage = (session: AccountSession, message: string) =>
    Effect.gen(function* () {
      const provider = yield* providerOf(session).pipe(Effect.mapError((e) => new SignMessageFailed({ reason: e.reason ?? "" })))
      const signature = yield* ask(() => provider.signMessage(session.address, message)).pipe(
        Effect.mapError((error) => (error instanceof WalletError ? new SignMessageFailed({ reason: error.details }) : error))
      )
      const bytes = typeof signature === "string" ? fromBase64(signature) : undefined
      if (bytes === undefined || bytes.length === 0) return yield* new SignMessageFailed({ reason: "The wallet returned no signature" })
      return signature
    }).pipe(Effect.withSpan("BitcoinAdapter.signMessage"))

  /** The transfer checked as the send form's rules say: an address of this network, and an amount a node relays. */
  const checkTransfer = (network: CaipNetwork, request: SendRequest) =>
    Effect.gen(function* () {
      const extra = request as { readonly data?: unknown; readonly gas?: unknown; readonly nft?: unknown }
      if (request.token !== undefined || extra.data !== undefined || extra.gas !== undefined || extra.nft !== undefined) {
        return yield* new InvalidWalletParams({ details: "A Bitcoin transfer has no token, call data, gas or NFT: send `to` and `value` (satoshis)." })
      }
      const to = addressTypeOf(request.to, network)
      const value = request.value ?? 0n
      if (Result.isFailure(to)) return yield* new SendFormInvalid()
      if (value < DUST_SATS[to.success]) return yield* new SendFormInvalid()
      return { to: request.to, toType: to.success, value }
    })

  /** The outputs `from` can spend, in satoshis, its address kind and the network's fee rate. */
  const spendableOf = (from: string, network: CaipNetwork) =>
    Effect.gen(function* () {
      const fromType = addressTypeOf(from, network)
      if (Result.isFailure(fromType)) return yield* new SendFormInvalid()
      const [utxos, rate] = yield* Effect.all([esplora.utxos(network, from), esplora.feeRate(network)], { concurrency: 2 }).pipe(
        Effect.mapError((error) => new GasEstimationFailed({ reason: error._tag === "EsploraAnswer" ? error.body : error.reason }))
      )
      const spendable = utxos.map((utxo) => ({ ...utxo, value: BigInt(utxo.value) }))
      return { spendable, fromType: fromType.success, rate }
    })

  const insufficient = (network: CaipNetwork, held: bigint, value: bigint) =>
    new GasEstimationFailed({
      reason: `insufficient funds: ${formatUnits(held, network.nativeCurrency.decimals)} ${network.nativeCurrency.symbol} cannot pay ${formatUnits(value, network.nativeCurrency.decimals)} ${network.nativeCurrency.symbol} and the fee`
    })

  /** The outputs of `from` that pay `value` to a `toType` address and the fee, at the network's rate. */
  const selection = (from: string, network: CaipNetwork, toType: BitcoinAddressType, value: bigint) =>
    Effect.gen(function* () {
      const { spendable, fromType, rate } = yield* spendableOf(from, network)
      const chosen = selectOutputs(spendable, value, rate, fromType, toType)
      if (chosen === undefined) return yield* insufficient(network, spendable.reduce((sum, utxo) => sum + utxo.value, 0n), value)
      return { ...chosen, fromType, rate }
    })

  const estimateFee = (from: string, network: CaipNetwork, request: SendRequest) =>
    Effect.gen(function* () {
      const transfer = yield* checkTransfer(network, request).pipe(Effect.mapError(() => new SendFormInvalid()))
      const chosen = yield* selection(from, network, transfer.toType, transfer.value)
      return chosen.fee
    }).pipe(Effect.withSpan("BitcoinAdapter.estimateFee"))

  // Max: every coin spent to the receiver and no change, so the fee grows with the number of coins; the balance less
  // this fee is then an amount that selection pays exactly (all coins, no change).
  const estimateMaxFee = (from: string, network: CaipNetwork, request: SendRequest) =>
    Effect.gen(function* () {
      const to = addressTypeOf(request.to, network)
      if (Result.isFailure(to)) return yield* new SendFormInvalid()
      const { spendable, fromType, rate } = yield* spendableOf(from, network)
      const fee = sendAllFee(spendable.length, rate, fromType, to.success)
      const held = spendable.reduce((sum, utxo) => sum + utxo.value, 0n)
      if (spendable.length === 0 || held < fee + DUST_SATS[to.success]) {
        const { symbol, decimals } = network.nativeCurrency
        return yield* new GasEstimationFailed({ reason: `insufficient funds: ${formatUnits(held, decimals)} ${symbol} does not pay the fee of sending it` })
      }
      return fee
    }).pipe(Effect.withSpan("BitcoinAdapter.estimateMaxFee"))

  const broadcast = (network: CaipNetwork, hex: string) =>
    esplora.broadcast(network, hex).pipe(
      Effect.mapError((error) =>
        error._tag === "EsploraAnswer" ? new TransactionRejected({ details: refusalWords(error.body) }) : new SomethingWentWrong({ reason: error.reason })
      ),
      Effect.flatMap((txid) => (isTxid(txid) ? Effect.succeed(txid) : Effect.fail(new SomethingWentWrong({ reason: "The node answered no txid" }))))
    )

  /**
   * Asks the wallet to sign `inputs` of a PSBT, checks what it returns (the same transaction, those inputs signed,
   * no other touched), and gives the signed PSBT.
   */
  const signChecked = (session: AccountSession, provider: BitcoinProvider, psbt: Uint8Array, inputs: ReadonlyArray<BitcoinInputsToSign>) =>
    Effect.gen(function* () {
      const signPsbt = provider.signPsbt
      if (signPsbt === undefined) return yield* new WalletMethodUnsupported({ details: "This wallet cannot sign PSBTs." })
      const code = yield* psbtCode
      const signed = yield* ask(() => signPsbt(psbt, inputs, walletStandardBitcoinChainOf(session.network)))
      if (!(signed instanceof Uint8Array)) return yield* new WalletError({ details: "The wallet returned no PSBT" })
      const problem = code.signedPsbtProblem(psbt, signed, new Set(inputs.flatMap((entry) => entry.indexes)))
      if (problem !== undefined) return yield* new WalletError({ details: `The signed PSBT was refused: ${problem}.` })
      return signed
    })

  /** Finalises every input of a signed PSBT and broadcasts it; the txid. */
  const finaliseAndBroadcast = (network: CaipNetwork, signed: Uint8Array) =>
    Effect.gen(function* () {
      const code = yield* psbtCode
      const hex = yield* Effect.try({
        try: () => code.finalisedHex(signed),
        catch: (error) => new InvalidWalletParams({ details: `The PSBT cannot be finalised: ${error instanceof Error ? error.message : String(error)}` })
      })
      return yield* broadcast(network, hex)
    })

  /** A transfer built here and signed as a PSBT, for wallets without `sendTransfer` (P2WPKH senders). */
  const sendWithPsbt = (session: AccountSession, provider: BitcoinProvider, transfer: { readonly to: string; readonly toType: BitcoinAddressType; readonly value: bigint }) =>
    Effect.gen(function* () {
      const chosen = yield* selection(session.address, session.network, transfer.toType, transfer.value).pipe(
        Effect.mapError((error) =>
          error._tag === "GasEstimationFailed" && error.reason?.startsWith("insufficient funds") === true
            ? new InsufficientFunds({ details: error.reason })
            : new SomethingWentWrong({ reason: (error._tag === "GasEstimationFailed" ? error.reason : undefined) ?? error.message })
        )
      )
      // A taproot input needs the wallet's internal key, which an address does not tell: only P2WPKH is built here.
      if (chosen.fromType !== "p2wpkh") {
        return yield* new WalletMethodUnsupported({ details: "This wallet cannot send by itself, and PSBTs are built here for P2WPKH accounts only." })
      }
      const code = yield* psbtCode
      const psbt = code.transferPsbt(chosen.inputs, session.address, transfer.to, transfer.value, chosen.change, session.network.caipNetworkId)
      const signed = yield* signChecked(session, provider, psbt, [{ address: session.address, indexes: chosen.inputs.map((_, i) => i) }])
      return yield* finaliseAndBroadcast(session.network, signed)
    })

  const send = (session: AccountSession, request: SendRequest) =>
    Effect.gen(function* () {
      const provider = yield* providerOf(session)
      const transfer = yield* checkTransfer(session.network, request)
      const sendTransfer = provider.sendTransfer
      if (sendTransfer === undefined) return yield* sendWithPsbt(session, provider, transfer)
      const txid = yield* ask(() => sendTransfer(session.address, transfer.to, transfer.value, walletStandardBitcoinChainOf(session.network)))
      if (!isTxid(txid)) return yield* new WalletError({ details: "The wallet answered no transaction id" })
      return txid
    }).pipe(Effect.withSpan("BitcoinAdapter.send"))

  const waitForTransaction = (txid: string, network: CaipNetwork) =>
    Effect.gen(function* () {
      // Not known yet (a node that has not heard of it) or not mined yet: asked again every second.
      const once: Effect.Effect<TxStatus, "pending" | EsploraError> = esplora.txStatus(network, txid).pipe(
        // catchIf, not catchTag, here and below: nothing else in the product uses catchTag, and a host's bundler keeps
        // Effect's code with the runtime's core, so this adapter's use alone would put it in every host's first click.
        Effect.catchIf(
          (error): error is EsploraAnswer => error._tag === "EsploraAnswer",
          (error): Effect.Effect<never, "pending" | EsploraError> => (error.status === 404 ? Effect.fail("pending") : Effect.fail(error))
        ),
        Effect.flatMap((answer): Effect.Effect<TxStatus, "pending"> => (answer.confirmed ? Effect.succeed(answer) : Effect.fail("pending")))
      )
      const status = yield* once.pipe(
        Effect.retry({ while: (error) => error === "pending", schedule: Schedule.spaced(Duration.millis(STATUS_POLL_MS)) }),
        Effect.mapError((error) => (error === "pending" ? new SomethingWentWrong({ reason: "pending" }) : unreachable(error))),
        Effect.timeoutOrElse({
          duration: Duration.millis(TRANSACTION_CONFIRMATION_MS),
          orElse: () => Effect.fail(new SomethingWentWrong({ reason: `${txid} was not confirmed after 25 s` }))
        })
      )
      const confirmation: TransactionConfirmation = {
        namespace: "bip122",
        hash: txid,
        blockNumber: BigInt(status.block_height ?? 0),
        status: "success"
      }
      return confirmation
    }).pipe(Effect.withSpan("BitcoinAdapter.waitForTransaction"))

  const balances = (address: string, network: CaipNetwork) =>
    Effect.gen(function* () {
      const value = yield* esplora.balance(network, address).pipe(Effect.mapError(unreachable))
      const { symbol, decimals } = network.nativeCurrency
      const native: ChainBalance = { symbol, decimals, value, formatted: formatUnits(value, decimals) }
      return [native]
    }).pipe(Effect.withSpan("BitcoinAdapter.balances"))

  const request = (session: AccountSession, method: string, params: unknown) =>
    Effect.gen(function* () {
      const provider = yield* providerOf(session)
      switch (method) {
        case "getAccountAddresses": {
          yield* decode(BitcoinGetAccountAddressesRequest, method, params ?? { account: session.address })
          const addresses = yield* ask(() => provider.getAccountAddresses())
          // WalletConnect's bip122 shape: `intention` is "payment" or "ordinal".
          return addresses.map((entry) => ({
            address: entry.address,
            ...(entry.publicKey !== undefined ? { publicKey: entry.publicKey } : {}),
            intention: entry.purpose === "ordinals" ? "ordinal" : "payment"
          }))
        }
        case "signMessage": {
          const input = yield* decode(BitcoinSignMessageRequest, method, params)
          const signature = yield* ask(() => provider.signMessage(input.address, input.message))
          return { address: input.address, signature }
        }
        case "sendTransfer": {
          const input = yield* decode(BitcoinSendTransferRequest, method, params)
          if (input.account !== session.address) {
            return yield* new InvalidWalletParams({ details: `sendTransfer: ${input.account} is not the connected account` })
          }
          const txid = yield* send(session, { to: input.recipient, value: BigInt(input.amount) }).pipe(
            Effect.catchIf(
              (error): error is SendFormInvalid => error._tag === "SendFormInvalid",
              () =>
                Effect.fail(new InvalidWalletParams({ details: `sendTransfer: ${input.recipient} is not an address of ${session.network.name}, or ${input.amount} satoshis is dust` }))
            )
          )
          return { txid }
        }
        case "signPsbt": {
          const input = yield* decode(BitcoinSignPsbtRequest, method, params)
          const psbt = fromBase64(input.psbt)
          if (psbt === undefined) return yield* new InvalidWalletParams({ details: "signPsbt: the PSBT is not base64" })
          // Each input to sign must pay the address that signs it (the wallet is not asked to sign for someone else).
          const code = yield* psbtCode
          const problem = code.inputsToSignProblem(psbt, input.signInputs, session.network.caipNetworkId)
          if (problem !== undefined) return yield* new InvalidWalletParams({ details: `signPsbt: ${problem}` })
          const byAddress = new Map<string, Array<number>>()
          for (const entry of input.signInputs) byAddress.set(entry.address, [...(byAddress.get(entry.address) ?? []), entry.index])
          const sigHashOf = (address: string) => input.signInputs.find((entry) => entry.address === address)?.sighashTypes[0]
          const inputs: ReadonlyArray<BitcoinInputsToSign> = [...byAddress].map(([address, indexes]) => ({
            address,
            indexes,
            ...(sigHashOf(address) !== undefined ? { sigHash: sigHashOf(address) } : {})
          }))
          const signed = yield* signChecked(session, provider, psbt, inputs)
          if (input.broadcast !== true) return { psbt: toBase64(signed) }
          return { psbt: toBase64(signed), txid: yield* finaliseAndBroadcast(session.network, signed) }
        }
        default:
          return yield* new WalletMethodUnsupported({ details: `Bitcoin wallets do not answer ${method}.` })
      }
    }).pipe(Effect.withSpan("BitcoinAdapter.request"))

  return {
    namespace: "bip122",
    // A Bitcoin wallet gives addresses of one network: it is used there, and cannot be moved to another by the site.
    switchNetwork: (session, network) =>
      Result.isSuccess(addressTypeOf(session.address, network))
        ? Effect.void
        : Effect.fail(new ProgrammaticSwitchUnsupported({ connector: session.walletName })),
    signMessage,
    send,
    estimateFee,
    estimateMaxFee,
    waitForTransaction,
    balances,
    request
  }
}
