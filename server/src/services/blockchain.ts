/**
 * The blockchain service of spec 7.4 (`src/domain/http/blockchain.ts`) served from the services' chains: the networks,
 * an address's name, its balances read from the chains and priced, its history and NFTs from the chains' index (EVM)
 * or the Solana JSON-RPC, and token prices.
 */
import { Effect, Option, Result } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { formatUnits } from "viem"
import {
  type BalanceResponse,
  type FungiblePrice,
  type FungiblePriceResponse,
  type HistoryResponse,
  type OnrampOptions,
  NATIVE_TOKEN_ADDRESS
} from "../../../src/domain/Api"
import { type CaipNetworkId, parseCaipAddress } from "../../../src/domain/Caip"
import { ServicesApi } from "../../../src/domain/http/ServicesApi"
import type { OperationType, TokenBalance, Transaction, Transfer } from "../../../src/domain/Portfolio"
import { rpcCall } from "../lib/jsonRpc"
import type { IndexedTransaction, IndexedTransfer } from "./indexer"
import { identityOf } from "./namesApi"
import { evmNfts, isSpamCollection, nftImageUrl } from "./nfts"
import { pageAfter, type SortKey } from "./paging"
import { readChains } from "./chainReads"
import { type EvmChainState, ServicesContext, type ServicesState, tokenImageId } from "./state"
import { solanaBalances, solanaHistory } from "./solana"
import { priceOf } from "./prices"
import { SwapProvider } from "./swaps/SwapProvider"
import { OnrampProvider } from "./onramp/OnrampProvider"

const zeroAddress = "0x0000000000000000000000000000000000000000"
const approveSelectors = new Set(["0x095ea7b3", "0xa22cb465"])
const isEvm = (address: string) => address.startsWith("0x")

const chainsFor = (state: ServicesState, chainId: string | undefined): ReadonlyArray<EvmChainState> =>
  chainId === undefined ? state.evm : state.evm.filter((chain) => chain.caipNetworkId === chainId)

const directionOf = (transfer: IndexedTransfer, address: string): "in" | "out" | "self" => {
  const from = transfer.from.toLowerCase() === address
  const to = transfer.to.toLowerCase() === address
  return from && to ? "self" : from ? "out" : "in"
}

/** The operation type of `tx` as seen by `address` (lower case), from the transfers it took part in. */
export const operationTypeOf = (tx: IndexedTransaction, address: string, depositors: ReadonlySet<string> = new Set()): OperationType => {
  const mine = tx.transfers.filter((t) => t.from.toLowerCase() === address || t.to.toLowerCase() === address)
  if (mine.some((t) => t.from === zeroAddress)) return "mint"
  if (isDeposit(tx, address, depositors)) return "deposit"
  if (mine.some((t) => t.to === zeroAddress)) return "burn"
  const directions = new Set(mine.map((t) => directionOf(t, address)))
  if (directions.has("in") && directions.has("out")) return "trade"
  if (directions.has("out") || directions.has("self")) return "send"
  if (directions.has("in")) return "receive"
  if (tx.to === null) return "deploy"
  if (approveSelectors.has(tx.selector)) return "approve"
  return "execute"
}

/** An on-ramp deposit: the account received from one of the on-ramp provider's delivering accounts. */
const isDeposit = (tx: IndexedTransaction, address: string, depositors: ReadonlySet<string>): boolean =>
  depositors.size > 0 && tx.transfers.some((t) => t.to.toLowerCase() === address && depositors.has(t.from.toLowerCase()))

const historyKey = ({ tx }: { readonly tx: IndexedTransaction }): SortKey => [tx.timestamp, tx.chainId, tx.blockNumber, tx.index]

const toTransfer = async (state: ServicesState, chain: EvmChainState, transfer: IndexedTransfer, address: string): Promise<Transfer> => {
  const direction = directionOf(transfer, address)
  if (transfer.kind === "erc721" && transfer.contract !== undefined) {
    const meta = await chain.tokens.get(transfer.contract)
    const preview = nftImageUrl(state, chain, transfer.contract, transfer.amount)
    return {
      nft_info: {
        name: `${meta.name} #${transfer.amount}`,
        ...(preview === null ? {} : { content: { preview: { url: preview, content_type: "image/svg+xml" } } }),
        flags: { is_spam: isSpamCollection(chain, transfer.contract) }
      },
      direction,
      quantity: { numeric: "1" }
    }
  }
  const meta =
    transfer.contract === undefined
      ? { name: "Ether", symbol: "ETH", decimals: 18 }
      : await chain.tokens.get(transfer.contract)
  const numeric = formatUnits(transfer.amount, meta.decimals ?? 0)
  const price = await priceOf(state.prices, meta.symbol)
  return {
    fungible_info: {
      name: meta.name,
      symbol: meta.symbol,
      icon: { url: `${state.baseUrl}/public/getTokenImage/${tokenImageId(meta.symbol, transfer.contract)}` }
    },
    direction,
    quantity: { numeric },
    value: Number(numeric) * price,
    price
  }
}

const toTransaction = async (state: ServicesState, chain: EvmChainState, tx: IndexedTransaction, address: string): Promise<Transaction> => {
  const mine = tx.transfers.filter((t) => t.from.toLowerCase() === address || t.to.toLowerCase() === address)
  return {
    id: tx.hash,
    metadata: {
      minedAt: new Date(tx.timestamp * 1000).toISOString(),
      chain: chain.caipNetworkId,
      operationType: operationTypeOf(tx, address, state.onrampDepositors),
      status: tx.status,
      sentFrom: tx.from,
      sentTo: tx.to ?? tx.contractAddress ?? "",
      hash: tx.hash,
      nonce: tx.nonce
    },
    transfers: await Promise.all(mine.map((t) => toTransfer(state, chain, t, address)))
  }
}

const evmBalances = async (state: ServicesState, chain: EvmChainState, address: string): Promise<ReadonlyArray<TokenBalance>> => {
  await chain.index.sync()
  const contracts = [...new Set([...chain.listedTokens, ...(await chain.index.fungibleContractsOf(address))])]
  const [native, ...raw] = await Promise.all([
    rpcCall(chain.rpc, "eth_getBalance", [address, "latest"]),
    ...contracts.map((contract) =>
      rpcCall(chain.rpc, "eth_call", [{ to: contract, data: `0x70a08231${address.slice(2).toLowerCase().padStart(64, "0")}` }, "latest"])
    )
  ])
  const entries: Array<TokenBalance> = []
  const push = async (name: string, symbol: string, decimals: number, amount: bigint, contract: string | undefined) => {
    if (amount === 0n) return
    const numeric = formatUnits(amount, decimals)
    const price = await priceOf(state.prices, symbol)
    entries.push({
      name,
      symbol,
      chainId: chain.caipNetworkId,
      address: `${chain.caipNetworkId}:${contract ?? NATIVE_TOKEN_ADDRESS}`,
      value: Number(numeric) * price,
      price,
      quantity: { decimals: String(decimals), numeric },
      iconUrl: `${state.baseUrl}/public/getTokenImage/${tokenImageId(symbol, contract)}`
    })
  }
  await push("Ether", "ETH", 18, BigInt(String(native)), undefined)
  for (let i = 0; i < contracts.length; i++) {
    const contract = contracts[i]
    const value = raw[i]
    if (contract === undefined || typeof value !== "string" || value === "0x") continue
    const meta = await chain.tokens.get(contract)
    if (meta.decimals !== undefined) await push(meta.name, meta.symbol, meta.decimals, BigInt(value), meta.address)
  }
  return entries
}

/** The networks the services serve: the EVM chains, then the Solana network. */
export const servedNetworks = (state: ServicesState): ReadonlyArray<CaipNetworkId> => [
  ...state.evm.map((chain) => chain.caipNetworkId),
  ...(state.solana ? [state.solana.caipNetworkId] : [])
]

/** The Solana network when `chainId` names it or no network is asked for, else `undefined`. */
const solanaFor = (state: ServicesState, chainId: string | undefined) =>
  chainId === undefined || chainId === state.solana?.caipNetworkId ? state.solana : undefined

/** An address's non-zero balances, on one network or on every network of its family. */
const balancesOf = async (state: ServicesState, address: string, chainId: string | undefined): Promise<BalanceResponse> => {
  if (!isEvm(address)) {
    const solana = solanaFor(state, chainId)
    return { balances: solana === undefined ? [] : await solanaBalances(solana, address) }
  }
  const perChain = await Promise.all(chainsFor(state, chainId).map((chain) => evmBalances(state, chain, address.toLowerCase())))
  return { balances: perChain.flat() }
}

/** A page of an address's history after `cursor`, newest first, on one network or on every network of its family. */
const historyOf = async (
  state: ServicesState,
  address: string,
  chainId: string | undefined,
  cursor: string | undefined,
  onramp: string | undefined = undefined
): Promise<HistoryResponse> => {
  if (!isEvm(address)) {
    const solana = solanaFor(state, chainId)
    return solana === undefined
      ? { data: [], next: null }
      : solanaHistory(solana, address, cursor, state.historyPageSize, state.onrampDepositors, onramp !== undefined)
  }
  const owner = address.toLowerCase()
  const chains = chainsFor(state, chainId)
  await Promise.all(chains.map((chain) => chain.index.sync()))
  // `?onramp=` (any provider name) keeps the on-ramp deposits alone.
  const perChain = await Promise.all(chains.map(async (chain) => (await chain.index.transactionsOf(owner)).map((tx) => ({ chain, tx }))))
  const all = perChain
    .flat()
    .filter(({ tx }) => onramp === undefined || isDeposit(tx, owner, state.onrampDepositors))
  const { page, next } = pageAfter(all, historyKey, cursor, state.historyPageSize)
  return { data: await Promise.all(page.map(({ chain, tx }) => toTransaction(state, chain, tx, owner))), next }
}

/** The prices of the tokens the services know among `addresses` (CAIP-10), in their order. */
const pricesOf = async (state: ServicesState, addresses: ReadonlyArray<string>): Promise<FungiblePriceResponse> => {
  const fungibles: Array<FungiblePrice> = []
  for (const caipAddress of addresses) {
    const parts = parseCaipAddress(caipAddress)
    if (Result.isFailure(parts)) continue
    const { namespace, reference, address } = parts.success
    if (namespace === "solana" && state.solana?.caipNetworkId === `solana:${reference}`) {
      // A mint the stack names is that token; any other address stands for the native coin.
      const token = state.solana.tokens.find((t) => t.address === address) ?? { name: "Solana", symbol: "SOL", address: undefined }
      fungibles.push({
        name: token.name,
        symbol: token.symbol,
        iconUrl: `${state.baseUrl}/public/getTokenImage/${tokenImageId(token.symbol, token.address)}`,
        price: await priceOf(state.prices, token.symbol),
        address: caipAddress
      })
      continue
    }
    const chain = state.evm.find((c) => c.caipNetworkId === `${namespace}:${reference}`)
    if (chain === undefined || !/^0x[0-9a-fA-F]{40}$/.test(address)) continue
    const meta =
      address.toLowerCase() === NATIVE_TOKEN_ADDRESS
        ? { name: "Ether", symbol: "ETH", decimals: 18, address: undefined }
        : await chain.tokens.get(address)
    if (meta.decimals === undefined) continue
    fungibles.push({
      name: meta.name,
      symbol: meta.symbol,
      iconUrl: `${state.baseUrl}/public/getTokenImage/${tokenImageId(meta.symbol, meta.address)}`,
      price: await priceOf(state.prices, meta.symbol),
      address: caipAddress
    })
  }
  return { fungibles }
}

/** The networks an on-ramp provider delivers any asset on, each once. */
const onrampNetworks = (options: OnrampOptions): ReadonlyArray<CaipNetworkId> => [...new Set(options.purchaseCurrencies.flatMap((asset) => asset.networks))]

/** The blockchain service's group (`src/domain/http/blockchain.ts`), served from the services' chains and database. */
export const BlockchainGroupLive = HttpApiBuilder.group(ServicesApi, "blockchain", (handlers) =>
  Effect.map(Effect.all([Effect.service(ServicesContext), Effect.serviceOption(SwapProvider), Effect.serviceOption(OnrampProvider)]), ([state, swaps, onramp]) =>
    handlers
      // With the swap networks and those the on-ramp provider delivers on (the host's config): the modal offers Swap
      // and Buy on those only.
      .handle("supportedChains", () =>
        Effect.map(
          Option.match(onramp, { onNone: () => Effect.succeed([]), onSome: (provider) => Effect.map(provider.options, onrampNetworks) }),
          (delivered) => ({
            http: servedNetworks(state),
            ws: [],
            swaps: Option.match(swaps, { onNone: () => [], onSome: (provider) => provider.networks }),
            onramp: delivered
          })
        )
      )
      // The account's own name: the newest it registered, else its seed name (see namesApi.ts).
      .handle("identity", ({ params }) => Effect.promise(() => identityOf(state, params.address)))
      .handle("balance", ({ params, query }) => readChains(() => balancesOf(state, params.address, query.chainId)))
      .handle("history", ({ params, query }) => readChains(() => historyOf(state, params.address, query.chainId, query.cursor, query.onramp)))
      .handle("nfts", ({ params, query }) =>
        // The stack's Solana part mints no NFTs: a Solana address holds none here.
        isEvm(params.address)
          ? readChains(() => evmNfts(state, chainsFor(state, query.chainId), params.address, query.cursor))
          : Effect.succeed({ data: [], next: null })
      )
      .handle("fungiblePrice", ({ payload }) => readChains(() => pricesOf(state, payload.addresses)))
  )
)
