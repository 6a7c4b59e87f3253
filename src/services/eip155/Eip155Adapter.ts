/**
 * The eip155 chain adapter: connects EVM wallets found by the provider directory (EIP-6963 announced wallets and the
 * legacy injected one), follows their events, switches and adds chains (spec point 4), signs and sends. Wallet
 * requests go to the wallet's EIP-1193 provider; reads (balances, receipts, gas) go through `reads`, the product's
 * RPC transport, never through the wallet. viem is loaded only to decode revert data, when a transaction reverts.
 */
import { Duration, Effect, Option, PubSub, Ref, Schedule, Schema, Stream, SubscriptionRef } from "effect"
import type { Account } from "../../domain/Account"
import { ADD_CHAIN_ON_SWITCH_ERROR_CODES, TRANSACTION_CONFIRMATION_MS } from "../../domain/constants"
import {
  ChainNotSupported,
  DisconnectFailed,
  GasEstimationFailed,
  ProgrammaticSwitchUnsupported,
  ProviderNotFound,
  SignMessageFailed,
  SomethingWentWrong,
  TransactionReverted,
  UserRejected,
  WalletCapabilitiesInvalid
} from "../../domain/errors"
import { formatUnits } from "../../domain/format"
import type { CaipNetwork } from "../../domain/Network"
import { isValidSendCall, toChecksumAddress } from "../../domain/validation"
import type { ConnectorInfo } from "../../domain/Wallet"
import type { AdapterEvent, AdapterSession, ChainAdapter, ConnectError } from "../ChainAdapter"
import {
  type Eip1193Provider,
  fromProviderError,
  isUserRejection,
  parseChainId,
  providerErrorOf,
  toHexUtf8
} from "./eip1193"
import type { ProviderDirectory } from "./ProviderDirectory"

/** A read-only JSON-RPC call on a network, through the product's transport. */
export type ReadRpc = (
  network: CaipNetwork,
  method: string,
  params: ReadonlyArray<unknown>
) => Effect.Effect<unknown, { readonly message: string }>

/** A transaction the visitor sends from the connected account. */
export interface EvmTransactionRequest {
  readonly to: string
  readonly value?: bigint | undefined
  readonly data?: string | undefined
  readonly gas?: bigint | undefined
}

/** A mined transaction. */
export interface EvmReceipt {
  readonly hash: string
  readonly blockNumber: bigint
  readonly status: "success"
  readonly gasUsed: bigint
}

/** A native balance in base units and for display. */
export interface NativeBalance {
  readonly value: bigint
  readonly formatted: string
  readonly symbol: string
}

/** The eip155 adapter: the common contract plus what only EVM wallets do. */
export interface Eip155Adapter extends ChainAdapter {
  readonly signMessage: (message: string) => Effect.Effect<string, SignMessageFailed | UserRejected | ProviderNotFound>
  readonly signTypedData: (typedData: unknown) => Effect.Effect<string, SignMessageFailed | UserRejected | ProviderNotFound>
  readonly sendTransaction: (
    request: EvmTransactionRequest
  ) => Effect.Effect<string, UserRejected | SomethingWentWrong | ProviderNotFound>
  /** Waits up to 25 s for the receipt; a revert fails with its decoded reason or 'unknown reason'. */
  readonly waitForReceipt: (
    hash: string,
    network: CaipNetwork
  ) => Effect.Effect<EvmReceipt, TransactionReverted | SomethingWentWrong>
  readonly estimateGas: (request: EvmTransactionRequest, network: CaipNetwork) => Effect.Effect<bigint, GasEstimationFailed>
  readonly getBalance: (address: string, network: CaipNetwork) => Effect.Effect<NativeBalance, SomethingWentWrong>
  readonly getCapabilities: () => Effect.Effect<
    Readonly<Record<string, unknown>>,
    WalletCapabilitiesInvalid | UserRejected | SomethingWentWrong | ProviderNotFound
  >
  readonly sendCalls: (request: {
    readonly chainId: number
    readonly calls: ReadonlyArray<{ readonly to: string; readonly data?: string; readonly value?: bigint }>
  }) => Effect.Effect<string, UserRejected | SomethingWentWrong | ProviderNotFound>
}

interface Session {
  readonly connector: ConnectorInfo
  readonly provider: Eip1193Provider
  readonly address: string
  readonly detach: () => void
}

const Capabilities = Schema.Record(Schema.String, Schema.Record(Schema.String, Schema.Unknown))

const hex = (value: bigint): string => `0x${value.toString(16)}`

const RECEIPT_POLL_MS = 250

/** Makes the eip155 adapter over a provider directory and the product's reads. */
export const makeEip155Adapter = (options: {
  readonly directory: ProviderDirectory
  readonly reads: ReadRpc
  /** How long a restore waits for its wallet to announce itself. */
  readonly announceWaitMs?: number
}): Effect.Effect<Eip155Adapter> =>
  Effect.gen(function* () {
    const { directory, reads } = options
    const events = yield* PubSub.unbounded<AdapterEvent>()
    const session = yield* Ref.make<Session | undefined>(undefined)

    const call = (provider: Eip1193Provider, method: string, params?: unknown) =>
      Effect.tryPromise({
        try: () => provider.request(params === undefined ? { method } : { method, params }),
        catch: (error) => error
      })

    const connectorInfo = (connectorId: string) =>
      Effect.map(SubscriptionRef.get(directory.connectors), (list) => list.find((c) => c.id === connectorId))

    const findProvider = (connectorId: string, waitMs: number) =>
      Effect.gen(function* () {
        const found = directory.provider(connectorId)
        if (Option.isSome(found)) return found.value
        // A wallet announces itself as the page loads: a restore waits a moment for it.
        const later = yield* SubscriptionRef.changes(directory.connectors).pipe(
          Stream.filter((list) => list.some((c) => c.id === connectorId)),
          Stream.runHead,
          Effect.timeoutOption(Duration.millis(waitMs))
        )
        const provider = Option.flatMap(Option.flatten(later), () => directory.provider(connectorId))
        if (Option.isNone(provider)) return yield* new ProviderNotFound()
        return provider.value
      })

    const accountsOf = (value: unknown): ReadonlyArray<Account> =>
      (Array.isArray(value) ? value : [])
        .filter((a): a is string => typeof a === "string" && /^0x[0-9a-fA-F]{40}$/.test(a))
        .map((address) => ({ address: toChecksumAddress(address), type: "eoa" as const }))

    const detachCurrent = Effect.flatMap(Ref.getAndSet(session, undefined), (current) =>
      Effect.sync(() => current?.detach())
    )

    const open = (connectorId: string, provider: Eip1193Provider, accounts: ReadonlyArray<Account>) =>
      Effect.gen(function* () {
        const first = accounts[0]
        if (first === undefined) return yield* new SomethingWentWrong({ reason: "The wallet gave no account" })
        const chainId = parseChainId(yield* call(provider, "eth_chainId").pipe(Effect.mapError(fromProviderError)))
        if (chainId === undefined) return yield* new SomethingWentWrong({ reason: "The wallet gave no chain id" })
        const info = (yield* connectorInfo(connectorId)) ?? {
          id: connectorId,
          name: connectorId,
          type: "INJECTED" as const,
          chain: "eip155" as const,
          chains: []
        }
        yield* detachCurrent
        const publish = (event: AdapterEvent) => Effect.runFork(PubSub.publish(events, event))
        const onAccounts = (list: unknown) => {
          const next = accountsOf(list)
          Effect.runSync(
            Ref.update(session, (s) => (s === undefined || next[0] === undefined ? s : { ...s, address: next[0].address }))
          )
          publish({ _tag: "AccountsChanged", accounts: next })
        }
        const onChain = (value: unknown) => {
          const next = parseChainId(value)
          if (next !== undefined) publish({ _tag: "ChainChanged", chainId: next })
        }
        const onDisconnect = (error: unknown) => {
          // 1013 means the wallet is reconnecting to its node, not that the visitor left (EIP-1193).
          if (providerErrorOf(error).code === 1013) return
          publish({ _tag: "Disconnected" })
        }
        provider.on?.("accountsChanged", onAccounts)
        provider.on?.("chainChanged", onChain)
        provider.on?.("disconnect", onDisconnect)
        const detach = () => {
          provider.removeListener?.("accountsChanged", onAccounts)
          provider.removeListener?.("chainChanged", onChain)
          provider.removeListener?.("disconnect", onDisconnect)
        }
        yield* Ref.set(session, { connector: info, provider, address: first.address, detach })
        const opened: AdapterSession = { address: first.address, accounts, chainId, connector: info }
        return opened
      })

    const connect = (connectorId: string, _network: CaipNetwork): Effect.Effect<AdapterSession, ConnectError> =>
      Effect.gen(function* () {
        const provider = yield* findProvider(connectorId, 0)
        const accounts = accountsOf(yield* call(provider, "eth_requestAccounts").pipe(Effect.mapError(fromProviderError)))
        return yield* open(connectorId, provider, accounts)
      }).pipe(Effect.withSpan("Eip155Adapter.connect"))

    const reconnect = (connectorId: string, _network: CaipNetwork) =>
      Effect.gen(function* () {
        const provider = yield* findProvider(connectorId, options.announceWaitMs ?? 1_000)
        const accounts = accountsOf(yield* call(provider, "eth_accounts").pipe(Effect.mapError(fromProviderError)))
        if (accounts.length === 0) return Option.none<AdapterSession>()
        return Option.some(yield* open(connectorId, provider, accounts))
      }).pipe(Effect.withSpan("Eip155Adapter.reconnect"))

    const disconnect = Effect.gen(function* () {
      const current = yield* Ref.get(session)
      yield* detachCurrent
      if (current === undefined) return
      // Wallets that support it forget the site's permission; the others simply stop being used.
      yield* call(current.provider, "wallet_revokePermissions", [{ eth_accounts: {} }]).pipe(Effect.ignore)
    }).pipe(
      Effect.catchDefect((defect) => Effect.fail(new DisconnectFailed({ reason: String(defect) }))),
      Effect.withSpan("Eip155Adapter.disconnect")
    )

    const current = Effect.flatMap(Ref.get(session), (s) =>
      s === undefined ? Effect.fail(new ProviderNotFound()) : Effect.succeed(s)
    )

    const switchNetwork = (network: CaipNetwork) =>
      Effect.gen(function* () {
        const { provider, connector } = yield* Effect.mapError(current, () => new SomethingWentWrong({ reason: "No wallet is connected" }))
        const chainId = hex(BigInt(network.id))
        const switched = yield* call(provider, "wallet_switchEthereumChain", [{ chainId }]).pipe(Effect.result)
        if (switched._tag === "Success") return
        const { code } = providerErrorOf(switched.failure)
        if (code === 4001) return yield* new UserRejected({ code })
        if (code === 4200) return yield* new ProgrammaticSwitchUnsupported({ connector: connector.name ?? connector.id })
        if (code === undefined || !ADD_CHAIN_ON_SWITCH_ERROR_CODES.includes(code)) return yield* new ChainNotSupported()
        const explorer = network.blockExplorers?.default.url
        yield* call(provider, "wallet_addEthereumChain", [
          {
            chainId,
            chainName: network.name,
            nativeCurrency: network.nativeCurrency,
            rpcUrls: network.rpcUrls.default.http,
            ...(explorer !== undefined ? { blockExplorerUrls: [explorer] } : {})
          }
        ]).pipe(Effect.mapError(() => new ChainNotSupported()))
        // Some wallets add without switching: ask once more, now that the wallet knows the chain.
        const now = parseChainId(yield* call(provider, "eth_chainId").pipe(Effect.orElseSucceed(() => undefined)))
        if (now !== network.id) {
          yield* call(provider, "wallet_switchEthereumChain", [{ chainId }]).pipe(Effect.mapError(() => new ChainNotSupported()))
        }
      }).pipe(Effect.withSpan("Eip155Adapter.switchNetwork"))

    const signWith = (method: string, params: (address: string) => ReadonlyArray<unknown>) =>
      Effect.gen(function* () {
        const { provider, address } = yield* current
        const signature = yield* call(provider, method, params(address)).pipe(
          Effect.mapError((error) => {
            const { code, message } = providerErrorOf(error)
            return isUserRejection(code) && code !== undefined ? new UserRejected({ code }) : new SignMessageFailed({ reason: message })
          })
        )
        if (typeof signature !== "string") return yield* new SignMessageFailed({ reason: "The wallet returned no signature" })
        return signature
      })

    const signMessage = (message: string) =>
      signWith("personal_sign", (address) => [toHexUtf8(message), address]).pipe(Effect.withSpan("Eip155Adapter.signMessage"))

    const signTypedData = (typedData: unknown) =>
      signWith("eth_signTypedData_v4", (address) => [address, typeof typedData === "string" ? typedData : JSON.stringify(typedData, (_, v) => (typeof v === "bigint" ? v.toString() : v))]).pipe(
        Effect.withSpan("Eip155Adapter.signTypedData")
      )

    const txParams = (from: string, request: EvmTransactionRequest) => ({
      from,
      to: request.to,
      ...(request.value !== undefined ? { value: hex(request.value) } : {}),
      ...(request.data !== undefined ? { data: request.data } : {}),
      ...(request.gas !== undefined ? { gas: hex(request.gas) } : {})
    })

    const sendTransaction = (request: EvmTransactionRequest) =>
      Effect.gen(function* () {
        const { provider, address } = yield* current
        const hash = yield* call(provider, "eth_sendTransaction", [txParams(address, request)]).pipe(Effect.mapError(fromProviderError))
        if (typeof hash !== "string") return yield* new SomethingWentWrong({ reason: "The wallet returned no transaction hash" })
        return hash
      }).pipe(Effect.withSpan("Eip155Adapter.sendTransaction"))

    const revertReason = (network: CaipNetwork, hash: string) =>
      Effect.gen(function* () {
        const tx = (yield* reads(network, "eth_getTransactionByHash", [hash])) as Record<string, string> | null
        if (tx === null) return undefined
        const replay = yield* reads(network, "eth_call", [
          { from: tx["from"], to: tx["to"], data: tx["input"], value: tx["value"], gas: tx["gas"] },
          tx["blockNumber"]
        ]).pipe(Effect.result)
        if (replay._tag === "Success") return undefined
        const data = (replay.failure as { data?: unknown }).data
        if (typeof data !== "string" || data.length < 10) return undefined
        const viem = yield* Effect.promise(() => import("viem"))
        const decoded = yield* Effect.try(() => viem.decodeErrorResult({ abi: [], data: data as `0x${string}` })).pipe(Effect.option)
        if (Option.isNone(decoded)) return undefined
        const args = decoded.value.args ?? []
        return decoded.value.errorName === "Error" ? String(args[0]) : `${decoded.value.errorName}(${args.map(String).join(", ")})`
      }).pipe(Effect.orElseSucceed(() => undefined))

    const waitForReceipt = (hash: string, network: CaipNetwork) =>
      Effect.gen(function* () {
        const receipt = yield* reads(network, "eth_getTransactionReceipt", [hash]).pipe(
          Effect.mapError((error) => new SomethingWentWrong({ reason: error.message })),
          Effect.flatMap((value) => (value === null || value === undefined ? Effect.fail("pending" as const) : Effect.succeed(value as Record<string, string>))),
          Effect.retry({ while: (error) => error === "pending", schedule: Schedule.spaced(Duration.millis(RECEIPT_POLL_MS)) }),
          Effect.timeoutOrElse({
            duration: Duration.millis(TRANSACTION_CONFIRMATION_MS),
            orElse: () => Effect.fail(new SomethingWentWrong({ reason: `No receipt for ${hash} after 25 s` }))
          }),
          Effect.mapError((error) => (error === "pending" ? new SomethingWentWrong({ reason: "pending" }) : error))
        )
        if (receipt["status"] === "0x0") {
          const reason = yield* revertReason(network, hash)
          return yield* new TransactionReverted({ hash, ...(reason !== undefined ? { reason } : {}) })
        }
        const result: EvmReceipt = {
          hash,
          blockNumber: BigInt(receipt["blockNumber"] ?? "0x0"),
          status: "success",
          gasUsed: BigInt(receipt["gasUsed"] ?? "0x0")
        }
        return result
      }).pipe(Effect.withSpan("Eip155Adapter.waitForReceipt"))

    const estimateGas = (request: EvmTransactionRequest, network: CaipNetwork) =>
      Effect.gen(function* () {
        const from = Option.getOrUndefined(Option.map(Option.fromNullishOr(yield* Ref.get(session)), (s) => s.address))
        const value = yield* reads(network, "eth_estimateGas", [txParams(from ?? "0x0000000000000000000000000000000000000000", request)])
        if (typeof value !== "string") return yield* new GasEstimationFailed({ reason: "no estimate" })
        return BigInt(value)
      }).pipe(
        Effect.mapError((error) => (error instanceof GasEstimationFailed ? error : new GasEstimationFailed({ reason: error.message }))),
        Effect.withSpan("Eip155Adapter.estimateGas")
      )

    const getBalance = (address: string, network: CaipNetwork) =>
      reads(network, "eth_getBalance", [address, "latest"]).pipe(
        Effect.mapError((error) => new SomethingWentWrong({ reason: error.message })),
        Effect.flatMap((value) =>
          typeof value === "string" && /^0x[0-9a-fA-F]+$/.test(value)
            ? Effect.succeed(BigInt(value))
            : Effect.fail(new SomethingWentWrong({ reason: "The node answered no balance" }))
        ),
        Effect.map((value): NativeBalance => ({
          value,
          formatted: formatUnits(value, network.nativeCurrency.decimals),
          symbol: network.nativeCurrency.symbol
        })),
        Effect.withSpan("Eip155Adapter.getBalance")
      )

    const getCapabilities = () =>
      Effect.gen(function* () {
        const { provider, address } = yield* current
        const raw = yield* call(provider, "wallet_getCapabilities", [address]).pipe(Effect.mapError(fromProviderError))
        return yield* Schema.decodeUnknownEffect(Capabilities)(raw).pipe(Effect.mapError(() => new WalletCapabilitiesInvalid()))
      }).pipe(Effect.withSpan("Eip155Adapter.getCapabilities"))

    const sendCalls = (request: {
      readonly chainId: number
      readonly calls: ReadonlyArray<{ readonly to: string; readonly data?: string; readonly value?: bigint }>
    }) =>
      Effect.gen(function* () {
        const { provider, address } = yield* current
        if (!request.calls.every(isValidSendCall)) {
          return yield* new SomethingWentWrong({ reason: "Every call needs a 'to' (and 'data') starting with 0x" })
        }
        const id = yield* call(provider, "wallet_sendCalls", [
          {
            version: "2.0.0",
            chainId: hex(BigInt(request.chainId)),
            from: address,
            atomicRequired: false,
            calls: request.calls.map((c) => ({ to: c.to, ...(c.data !== undefined ? { data: c.data } : {}), ...(c.value !== undefined ? { value: hex(c.value) } : {}) }))
          }
        ]).pipe(Effect.mapError(fromProviderError))
        const callsId = typeof id === "string" ? id : typeof id === "object" && id !== null ? (id as { id?: unknown }).id : undefined
        if (typeof callsId !== "string") return yield* new SomethingWentWrong({ reason: "The wallet returned no calls id" })
        return callsId
      }).pipe(Effect.withSpan("Eip155Adapter.sendCalls"))

    const adapter: Eip155Adapter = {
      namespace: "eip155",
      connectors: directory.connectors,
      connect,
      reconnect,
      disconnect,
      switchNetwork,
      events: Stream.fromPubSub(events),
      signMessage,
      signTypedData,
      sendTransaction,
      waitForReceipt,
      estimateGas,
      getBalance,
      getCapabilities,
      sendCalls
    }
    return adapter
  })
