/**
 * ChainAdapter: how one chain family works (eip155, solana, later bip122 and polkadot) — switching networks,
 * signing, sending native and token transfers, following a transaction until it is final, reading balances and
 * passing raw wallet requests — over the family provider a connector hands it. Which wallet is connected is the
 * Connection's business; an adapter holds no session. Each family's code (and its chain library) is loaded with
 * `import()` the first time a wallet of that family is used, so a page pays nothing for families it does not use.
 */
import { Context, Effect, Layer } from "effect"
import type { ChainNamespace } from "../domain/Caip"
import {
  AdapterForNamespaceMissing,
  type ChainNotSupported,
  GasEstimationFailed,
  type ProgrammaticSwitchUnsupported,
  type ProviderNotFound,
  type SendFormInvalid,
  type SignMessageFailed,
  SomethingWentWrong,
  type TransactionReverted,
  type WalletCapabilitiesInvalid
} from "../domain/errors"
import type { FeatureUnavailable } from "../domain/featureUnavailable"
import type { CaipNetwork } from "../domain/Network"
import type { WalletRequestError } from "../domain/walletErrors"
import type { FamilyProvider } from "./connectors/Connector"

/** A read-only JSON-RPC call on a network, through the product's transport (every family reads this way). */
export type ReadRpc = (
  network: CaipNetwork,
  method: string,
  params: ReadonlyArray<unknown>
) => Effect.Effect<unknown, { readonly message: string }>

/** The connected account an action runs for: the wallet's provider, the address and the network it is on. */
export interface AccountSession {
  readonly provider: FamilyProvider
  readonly address: string
  readonly network: CaipNetwork
  /** The wallet's name, for messages ('"X" does not support programmatic chain switching.'). */
  readonly walletName: string
}

/**
 * What a host sends, per family: a native transfer, a token transfer (`token`: contract or mint), (EVM) an NFT
 * (`nft`), or (EVM) a call.
 */
export interface SendRequests {
  readonly eip155: {
    readonly to: string
    /** Native amount in wei (with `token`: the token amount in its base units). */
    readonly value?: bigint | undefined
    /** An ERC-20 contract: sends `value` of it to `to` (the USDT kind, whose `transfer` returns nothing, too). */
    readonly token?: string | undefined
    /** An ERC-721 token: moved from the account to `to` with `safeTransferFrom` (no `value`, no `token`). */
    readonly nft?: { readonly contract: string; readonly tokenId: bigint } | undefined
    readonly data?: string | undefined
    readonly gas?: bigint | undefined
  }
  readonly solana: {
    readonly to: string
    /** Lamports (with `token`: the token amount in its base units). */
    readonly value: bigint
    /** An SPL mint: sends `value` of it, creating the receiver's token account when it has none. */
    readonly token?: string | undefined
  }
  readonly bip122: {
    /** A Bitcoin address of the network. */
    readonly to: string
    /** Satoshis. */
    readonly value: bigint
    /** Bitcoin has no tokens: always absent. */
    readonly token?: undefined
  }
}

/** A family that can send. */
export type SendingNamespace = keyof SendRequests
/** What can be sent in any family. */
export type SendRequest = SendRequests[SendingNamespace]

/** A transaction that is final. */
export interface TransactionConfirmation {
  readonly namespace: ChainNamespace
  /** The transaction hash (EVM) or signature (Solana). */
  readonly hash: string
  /** The block (EVM) or slot (Solana) it landed in. */
  readonly blockNumber: bigint
  readonly status: "success"
}

/** A balance read from the chain: the native currency (no `token`) or a token. */
export interface ChainBalance {
  /** The token's contract or mint; absent for the native currency. */
  readonly token?: string | undefined
  readonly symbol: string
  readonly decimals: number
  /** In base units. */
  readonly value: bigint
  /** In whole units, full precision. */
  readonly formatted: string
}

/** Why a network switch failed. */
export type SwitchError = ChainNotSupported | ProgrammaticSwitchUnsupported | WalletRequestError | SomethingWentWrong

/** Why a signature failed. */
export type SignError = SignMessageFailed | WalletRequestError | ProviderNotFound | SomethingWentWrong

/** Why a send failed (or a family that does not send: FeatureUnavailable). */
export type SendError = WalletRequestError | SendFormInvalid | GasEstimationFailed | SomethingWentWrong | FeatureUnavailable

/** Why a fee could not be estimated: the transfer is not well formed, the node says it would fail, or the family does not send. */
export type FeeError = SendFormInvalid | GasEstimationFailed | FeatureUnavailable

/** Why waiting for a transaction failed. */
export type WaitError = TransactionReverted | SomethingWentWrong | FeatureUnavailable

/** Why balances could not be read: the chain could not be read, or the family has no balances (spec 9). */
export type BalancesError = SomethingWentWrong | FeatureUnavailable

/** Why a raw request failed. */
export type RequestError = WalletRequestError | WalletCapabilitiesInvalid | SomethingWentWrong

/** One chain family's adapter. */
export interface ChainAdapter {
  readonly namespace: ChainNamespace
  /** Asks the wallet to move to `network`, adding the chain first when the wallet does not know it. */
  readonly switchNetwork: (session: AccountSession, network: CaipNetwork) => Effect.Effect<void, SwitchError>
  /** Signs a text message; the signature in the family's usual encoding (0x-hex, base58). */
  readonly signMessage: (session: AccountSession, message: string) => Effect.Effect<string, SignError>
  /** Sends a native or token transfer (or an EVM call); the transaction hash or signature once the wallet sent it. */
  readonly send: (session: AccountSession, request: SendRequest) => Effect.Effect<string, SendError>
  /**
   * The network fee `from` would pay to send `request` now, in the native currency's base units (wei, lamports),
   * read from the chain without asking the wallet; fails with the node's reason when the transfer would fail.
   */
  readonly estimateFee: (from: string, network: CaipNetwork, request: SendRequest) => Effect.Effect<bigint, FeeError>
  /**
   * The fee of `request`, a transfer of `from`'s whole native balance (the send form's Max), for families where it
   * is not what `estimateFee` says: a Bitcoin transfer of everything spends every coin and has no change, where
   * `estimateFee` would want change and find the balance short. Without it, `estimateFee` is asked.
   */
  readonly estimateMaxFee?: (from: string, network: CaipNetwork, request: SendRequest) => Effect.Effect<bigint, FeeError>
  /** Waits up to 25 s until the transaction is final; a failed one fails with its reason. */
  readonly waitForTransaction: (hash: string, network: CaipNetwork) => Effect.Effect<TransactionConfirmation, WaitError>
  /** The native balance and the token balances of `address`, read from the chain. */
  readonly balances: (address: string, network: CaipNetwork) => Effect.Effect<ReadonlyArray<ChainBalance>, BalancesError>
  /** A raw wallet request in the family's method names (`eth_signTypedData_v4`, `solana_signMessage`…). */
  readonly request: (session: AccountSession, method: string, params: unknown) => Effect.Effect<unknown, RequestError>
}

/** The adapters of the configured chain families. */
export class ChainAdapters extends Context.Service<
  ChainAdapters,
  {
    /** The adapter of a family, or "Adapter for namespace {x} doesn't exist". */
    readonly get: (namespace: ChainNamespace) => Effect.Effect<ChainAdapter, AdapterForNamespaceMissing>
    /** Families with an adapter. */
    readonly namespaces: ReadonlyArray<ChainNamespace>
  }
>()("wallet-runtime/ChainAdapters") {
  /** A registry over the given adapters. */
  static readonly layer = (adapters: ReadonlyArray<ChainAdapter>): Layer.Layer<ChainAdapters> =>
    Layer.succeed(ChainAdapters)(makeRegistry(adapters))

  /** A registry over adapters that are built with services. */
  static readonly layerFrom = <R>(adapters: Effect.Effect<ReadonlyArray<ChainAdapter>, never, R>): Layer.Layer<ChainAdapters, never, R> =>
    Layer.effect(ChainAdapters)(Effect.map(adapters, makeRegistry))
}

const makeRegistry = (adapters: ReadonlyArray<ChainAdapter>) => {
  const byNamespace = new Map(adapters.map((adapter) => [adapter.namespace, adapter] as const))
  return {
    namespaces: [...byNamespace.keys()],
    get: (namespace: ChainNamespace) => {
      const adapter = byNamespace.get(namespace)
      return adapter === undefined
        ? Effect.fail(new AdapterForNamespaceMissing({ namespace }))
        : Effect.succeed(adapter)
    }
  }
}

/**
 * An adapter whose code is fetched on first use: `load` imports the family's module (and its chain library) once;
 * a failed fetch (offline, a new deploy) is tried again on the next use and fails this one with a clear reason.
 */
export const lazyAdapter = (namespace: ChainNamespace, load: () => Promise<ChainAdapter>): ChainAdapter => {
  let loaded: ChainAdapter | undefined
  let loading: Promise<ChainAdapter> | undefined
  const adapter = Effect.suspend(() =>
    loaded !== undefined
      ? Effect.succeed(loaded)
      : Effect.tryPromise({
          try: () => {
            loading ??= load().then(
              (value) => (loaded = value),
              (error: unknown) => {
                loading = undefined
                throw error
              }
            )
            return loading
          },
          catch: (error) =>
            new SomethingWentWrong({ reason: `The ${namespace} wallet code could not be loaded: ${error instanceof Error ? error.message : String(error)}` })
        })
  )
  return {
    namespace,
    switchNetwork: (session, network) => Effect.flatMap(adapter, (a) => a.switchNetwork(session, network)),
    signMessage: (session, message) => Effect.flatMap(adapter, (a) => a.signMessage(session, message)),
    send: (session, request) => Effect.flatMap(adapter, (a) => a.send(session, request)),
    estimateFee: (from, network, request) =>
      Effect.flatMap(
        Effect.mapError(adapter, (error) => new GasEstimationFailed({ reason: error.reason ?? error.message })),
        (a) => a.estimateFee(from, network, request)
      ),
    estimateMaxFee: (from, network, request) =>
      Effect.flatMap(
        Effect.mapError(adapter, (error) => new GasEstimationFailed({ reason: error.reason ?? error.message })),
        (a) => (a.estimateMaxFee ?? a.estimateFee)(from, network, request)
      ),
    waitForTransaction: (hash, network) => Effect.flatMap(adapter, (a) => a.waitForTransaction(hash, network)),
    balances: (address, network) => Effect.flatMap(adapter, (a) => a.balances(address, network)),
    request: (session, method, params) => Effect.flatMap(adapter, (a) => a.request(session, method, params))
  }
}
