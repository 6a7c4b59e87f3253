import { Context } from "effect"
import type { CaipNetworkId } from "../../../src/domain/Caip"
import type { Database } from "../db/index"
import type { RpcUpstream } from "../lib/rpcUpstream"
import type { TokenInfo } from "./chains"
import type { ChainIndex } from "./indexer"
import type { NamesConfig } from "./names"
import type { PriceSource } from "./prices"
import type { TokenRegistry } from "./tokens"

/** A local EVM chain as the services see it: where to read it, its history index and its token metadata. */
export interface EvmChainState {
  readonly chainId: number
  readonly caipNetworkId: CaipNetworkId
  /** Its upstream RPC URLs, with failover. */
  readonly rpc: RpcUpstream
  /** The chain's name, when its configuration gives one. */
  readonly name?: string
  readonly index: ChainIndex
  readonly tokens: TokenRegistry
  /** ERC-20 contracts whose balance is always read, whether or not the account used them yet. */
  readonly listedTokens: ReadonlyArray<string>
  /** The spam list: ERC-721 contracts (lower case) whose NFTs are flagged `is_spam`, owned or moved. */
  readonly spamContracts: ReadonlySet<string>
}

/** The Solana network as the services see it: where to read it, and the tokens whose names it knows. */
export interface SolanaState {
  readonly caipNetworkId: CaipNetworkId
  /** Its upstream RPC URLs, with failover. */
  readonly rpc: RpcUpstream
  /** The network's name, when its configuration gives one. */
  readonly name?: string
  /** Mints named and priced by symbol; other mints read from the chain get their short address as name. */
  readonly tokens: ReadonlyArray<TokenInfo>
  /** `http://127.0.0.1:{port}` of the services server, for icon URLs. */
  readonly baseUrl: string
  /** Where USD prices come from. */
  readonly prices: PriceSource
}

/** Everything the route handlers share. */
export interface ServicesState {
  /** `http://127.0.0.1:{port}` of the services server itself. */
  readonly baseUrl: string
  readonly evm: ReadonlyArray<EvmChainState>
  readonly solana: SolanaState | undefined
  /** The names' suffix and seed names. */
  readonly names: NamesConfig
  readonly historyPageSize: number
  readonly nftPageSize: number
  /** The database of names and sign-in sessions (`devstack/db`). */
  readonly db: Database
  /** The services' clock in ms (`Date.now` unless a test moves it). */
  readonly now: () => number
  /** Where USD prices come from. */
  readonly prices: PriceSource
  /** The on-ramp provider's delivering accounts (EVM ones in lower case): their transfers are deposits in the history. */
  readonly onrampDepositors: ReadonlySet<string>
}

/** The services' state as a service, for the API's handlers and pages (taken when their layers are built). */
export class ServicesContext extends Context.Service<ServicesContext, ServicesState>()("wallet-runtime-server/ServicesState") {}

/** A URL-safe image id for a token: its symbol when that is plain, else its contract address. */
export const tokenImageId = (symbol: string, contract: string | undefined): string =>
  /^[A-Za-z0-9._-]{1,32}$/.test(symbol) || contract === undefined ? symbol.replace(/[^A-Za-z0-9._-]/g, "") || "token" : contract
