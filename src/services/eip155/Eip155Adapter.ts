/**
 * The eip155 chain adapter: over the wallet's EIP-1193 provider it switches and adds chains (spec point 4), signs,
 * sends native, ERC-20 and ERC-721 transfers and calls, and passes raw requests; reads (balances, receipts, gas, fees) go through
 * `reads`, the product's RPC transport, never through the wallet. This module is loaded on first use; viem is
 * loaded only to decode revert data, when a transaction reverts.
 */
import { Duration, Effect, Option, Schedule, Schema } from "effect"
import { ADD_CHAIN_ON_SWITCH_ERROR_CODES, TRANSACTION_CONFIRMATION_MS } from "../../domain/constants"
import {
  ChainNotSupported,
  GasEstimationFailed,
  ProgrammaticSwitchUnsupported,
  SendFormInvalid,
  SignMessageFailed,
  SomethingWentWrong,
  TransactionReverted,
  UserRejected,
  WalletCapabilitiesInvalid
} from "../../domain/errors"
import { formatUnits } from "../../domain/format"
import type { CaipNetwork } from "../../domain/Network"
import type { TokenOption } from "../../domain/Options"
import { isEvmAddress, isValidSendCall } from "../../domain/validation"
import { fromWalletError, InvalidWalletParams, WalletError, walletErrorPartsOf } from "../../domain/walletErrors"
import type {
  AccountSession,
  ChainAdapter,
  ChainBalance,
  ReadRpc,
  SendRequest,
  SendRequests,
  TransactionConfirmation
} from "../ChainAdapter"
import { withinQuickAnswerTime } from "../walletAnswer"
import { type Eip1193Provider, parseChainId, providerCodeOf, toHexUtf8 } from "./eip1193"
import { decodeAbiText } from "../../domain/abiText"

/** What the eip155 adapter is made with. */
export interface Eip155AdapterOptions {
  readonly reads: ReadRpc
  /** The host's token for a network (`tokens` option), whose balance is read beside the native one. */
  readonly tokenOf?: ((network: CaipNetwork) => TokenOption | undefined) | undefined
}

const Capabilities = Schema.Record(Schema.String, Schema.Record(Schema.String, Schema.Unknown))

const hex = (value: bigint): string => `0x${value.toString(16)}`

const RECEIPT_POLL_MS = 250

const providerOf = (session: AccountSession): Effect.Effect<Eip1193Provider, SomethingWentWrong> =>
  session.provider.namespace === "eip155"
    ? Effect.succeed(session.provider.provider)
    : Effect.fail(new SomethingWentWrong({ reason: `A ${session.provider.namespace} wallet was given to the eip155 adapter` }))

const call = (provider: Eip1193Provider, method: string, params?: unknown) =>
  Effect.tryPromise({
    try: () => provider.request(params === undefined ? { method } : { method, params }),
    catch: fromWalletError
  })

export { decodeAbiText } from "../../domain/abiText"

// ERC-20 calls: transfer(address,uint256), balanceOf(address), decimals(), symbol().
const word = (value: bigint | string): string =>
  (typeof value === "bigint" ? value.toString(16) : value.replace(/^0x/, "").toLowerCase()).padStart(64, "0")
const transferData = (to: string, amount: bigint) => `0xa9059cbb${word(to)}${word(amount)}`
// ERC-721 safeTransferFrom(address,address,uint256): the receiver contract must accept the token, or it reverts.
const safeTransferFromData = (from: string, to: string, tokenId: bigint) => `0x42842e0e${word(from)}${word(to)}${word(tokenId)}`

const uint = (value: unknown): bigint | undefined =>
  typeof value === "string" && /^0x[0-9a-fA-F]*$/.test(value) ? BigInt(value === "0x" ? "0x0" : value) : undefined

type EvmSend = SendRequests["eip155"]

/** The transaction a send request makes: `to` and `value` as given, or a call of the token's or the NFT's contract. */
interface EvmTransaction {
  readonly to: string
  readonly value?: bigint | undefined
  readonly data?: string | undefined
}

const definedOf = (transaction: EvmTransaction) => ({
  ...(transaction.value !== undefined ? { value: transaction.value } : {}),
  ...(transaction.data !== undefined ? { data: transaction.data } : {})
})

/**
 * What `from` sends for a request: a native transfer or call as given; an ERC-20 `transfer(to, value)` to the token;
 * an ERC-721 `safeTransferFrom(from, to, tokenId)` to the NFT's contract. Spec 5: the receiver (and the token or
 * NFT contract) must be an address, so the visitor is never asked to approve a send to "0x1234".
 */
const transactionOf = (from: string, request: EvmSend): Effect.Effect<EvmTransaction, SendFormInvalid> => {
  const { token, nft } = request
  if (!isEvmAddress(request.to) || (token !== undefined && !isEvmAddress(token))) return Effect.fail(new SendFormInvalid())
  if (nft !== undefined) {
    if (!isEvmAddress(nft.contract) || token !== undefined || (request.value ?? 0n) !== 0n || nft.tokenId < 0n) {
      return Effect.fail(new SendFormInvalid())
    }
    return Effect.succeed({ to: nft.contract, data: safeTransferFromData(from, request.to, nft.tokenId) })
  }
  if (token !== undefined) return Effect.succeed({ to: token, data: transferData(request.to, request.value ?? 0n) })
  return Effect.succeed({ to: request.to, value: request.value, data: request.data })
}

/** Makes the eip155 adapter over the product's reads. */
export const makeEip155Adapter = (options: Eip155AdapterOptions): ChainAdapter => {
  const { reads } = options

  const switchNetwork = (session: AccountSession, network: CaipNetwork) =>
    Effect.gen(function* () {
      const provider = yield* providerOf(session)
      const chainId = hex(BigInt(network.id))
      const switched = yield* Effect.result(
        Effect.tryPromise({ try: () => provider.request({ method: "wallet_switchEthereumChain", params: [{ chainId }] }), catch: (e) => e })
      )
      if (switched._tag === "Success") return
      const code = providerCodeOf(switched.failure)
      if (code === 4001) return yield* new UserRejected({ code })
      if (code === 4200) return yield* new ProgrammaticSwitchUnsupported({ connector: session.walletName })
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
      const now = parseChainId(yield* withinQuickAnswerTime(call(provider, "eth_chainId")).pipe(Effect.orElseSucceed(() => undefined)))
      if (now !== network.id) {
        yield* call(provider, "wallet_switchEthereumChain", [{ chainId }]).pipe(Effect.mapError(() => new ChainNotSupported()))
      }
    }).pipe(Effect.withSpan("Eip155Adapter.switchNetwork"))

  const signMessage = (session: AccountSession, message: string) =>
    Effect.gen(function* () {
      const provider = yield* providerOf(session).pipe(Effect.mapError((e) => new SignMessageFailed({ reason: e.reason ?? "" })))
      const signature = yield* call(provider, "personal_sign", [toHexUtf8(message), session.address]).pipe(
        // A failure the wallet did not name is the catalogue's 'Sign message failed', with the wallet's words kept.
        Effect.mapError((error) => (error instanceof WalletError ? new SignMessageFailed({ reason: error.details }) : error))
      )
      if (typeof signature !== "string") return yield* new SignMessageFailed({ reason: "The wallet returned no signature" })
      return signature
    }).pipe(Effect.withSpan("Eip155Adapter.signMessage"))

  const txParams = (from: string, request: { to: string; value?: bigint | undefined; data?: string | undefined; gas?: bigint | undefined }) => ({
    from,
    to: request.to,
    ...(request.value !== undefined ? { value: hex(request.value) } : {}),
    ...(request.data !== undefined ? { data: request.data } : {}),
    ...(request.gas !== undefined ? { gas: hex(request.gas) } : {})
  })

  const send = (session: AccountSession, request: SendRequest) =>
    Effect.gen(function* () {
      const provider = yield* providerOf(session)
      const evm = request as EvmSend
      const transaction = yield* transactionOf(session.address, evm)
      const hash = yield* call(provider, "eth_sendTransaction", [txParams(session.address, { ...transaction, gas: evm.gas })])
      if (typeof hash !== "string") return yield* new SomethingWentWrong({ reason: "The wallet returned no transaction hash" })
      return hash
    }).pipe(Effect.withSpan("Eip155Adapter.send"))

  const estimateFee = (from: string, network: CaipNetwork, request: SendRequest) =>
    Effect.gen(function* () {
      const transaction = yield* transactionOf(from, request as EvmSend)
      const [gas, price] = yield* Effect.all(
        [
          estimateGas(reads, network, { from, to: transaction.to, ...definedOf(transaction) }),
          reads(network, "eth_gasPrice", []).pipe(
            Effect.mapError((error) => new GasEstimationFailed({ reason: error.message })),
            Effect.flatMap((value) => {
              const wei = uint(value)
              return wei === undefined ? Effect.fail(new GasEstimationFailed({ reason: "no gas price" })) : Effect.succeed(wei)
            })
          )
        ],
        { concurrency: "unbounded" }
      )
      return gas * price
    }).pipe(Effect.withSpan("Eip155Adapter.estimateFee"))

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

  const waitForTransaction = (hash: string, network: CaipNetwork) =>
    Effect.gen(function* () {
      const receipt = yield* reads(network, "eth_getTransactionReceipt", [hash]).pipe(
        Effect.mapError((error) => new SomethingWentWrong({ reason: error.message })),
        Effect.flatMap((value) =>
          value === null || value === undefined ? Effect.fail("pending" as const) : Effect.succeed(value as Record<string, string>)
        ),
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
      const confirmation: TransactionConfirmation = {
        namespace: "eip155",
        hash,
        blockNumber: BigInt(receipt["blockNumber"] ?? "0x0"),
        status: "success"
      }
      return confirmation
    }).pipe(Effect.withSpan("Eip155Adapter.waitForTransaction"))

  const read = (network: CaipNetwork, method: string, params: ReadonlyArray<unknown>) =>
    reads(network, method, params).pipe(Effect.mapError((error) => new SomethingWentWrong({ reason: error.message })))

  const tokenBalance = (address: string, network: CaipNetwork, token: string) =>
    Effect.gen(function* () {
      const ask = (data: string) => read(network, "eth_call", [{ to: token, data }, "latest"])
      const [balance, decimals, symbol] = yield* Effect.all(
        [ask(`0x70a08231${word(address)}`), ask("0x313ce567"), ask("0x95d89b41")],
        { concurrency: "unbounded" }
      )
      const value = uint(balance)
      const places = uint(decimals)
      if (value === undefined || places === undefined || places > 36n) {
        return yield* new SomethingWentWrong({ reason: `${token} on ${network.caipNetworkId} answered no ERC-20 balance` })
      }
      const result: ChainBalance = {
        token,
        symbol: (typeof symbol === "string" ? decodeAbiText(symbol) : undefined) ?? "TOKEN",
        decimals: Number(places),
        value,
        formatted: formatUnits(value, Number(places))
      }
      return result
    })

  const balances = (address: string, network: CaipNetwork) =>
    Effect.gen(function* () {
      const native = uint(yield* read(network, "eth_getBalance", [address, "latest"]))
      if (native === undefined) return yield* new SomethingWentWrong({ reason: "The node answered no balance" })
      const list: Array<ChainBalance> = [
        {
          symbol: network.nativeCurrency.symbol,
          decimals: network.nativeCurrency.decimals,
          value: native,
          formatted: formatUnits(native, network.nativeCurrency.decimals)
        }
      ]
      const token = options.tokenOf?.(network)
      if (token !== undefined) list.push(yield* tokenBalance(address, network, token.address))
      return list
    }).pipe(Effect.withSpan("Eip155Adapter.balances"))

  const request = (session: AccountSession, method: string, params: unknown) =>
    Effect.gen(function* () {
      const provider = yield* providerOf(session)
      if (method === "wallet_sendCalls") {
        const calls = (Array.isArray(params) ? (params[0] as { calls?: unknown } | undefined)?.calls : undefined) ?? []
        const valid = Array.isArray(calls) && calls.every((c) => typeof c === "object" && c !== null && typeof (c as { to?: unknown }).to === "string" && isValidSendCall(c as { to: string; data?: string }))
        if (!valid) return yield* new InvalidWalletParams({ details: "Every call needs a 'to' (and 'data') starting with 0x" })
      }
      const result = yield* call(provider, method, params)
      if (method === "wallet_getCapabilities") {
        return yield* Schema.decodeUnknownEffect(Capabilities)(result).pipe(Effect.mapError(() => new WalletCapabilitiesInvalid()))
      }
      return result
    }).pipe(Effect.withSpan("Eip155Adapter.request"))

  return { namespace: "eip155", switchNetwork, signMessage, send, estimateFee, waitForTransaction, balances, request }
}

/** Estimates the gas of a transaction through the product's reads ('error estimating gas' when the node cannot). */
export const estimateGas = (
  reads: ReadRpc,
  network: CaipNetwork,
  request: { readonly from?: string; readonly to: string; readonly value?: bigint; readonly data?: string }
): Effect.Effect<bigint, GasEstimationFailed> =>
  reads(network, "eth_estimateGas", [
    {
      from: request.from ?? "0x0000000000000000000000000000000000000000",
      to: request.to,
      ...(request.value !== undefined ? { value: hex(request.value) } : {}),
      ...(request.data !== undefined ? { data: request.data } : {})
    }
  ]).pipe(
    Effect.mapError((error) => new GasEstimationFailed({ reason: walletErrorPartsOf(error).message || error.message })),
    Effect.flatMap((value) => {
      const gas = uint(value)
      return gas === undefined ? Effect.fail(new GasEstimationFailed({ reason: "no estimate" })) : Effect.succeed(gas)
    }),
    Effect.withSpan("Eip155Adapter.estimateGas")
  )
