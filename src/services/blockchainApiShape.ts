/**
 * The BlockchainApi service's shape, shared by its tag (`BlockchainApi.ts`, in the runtime's core) and its
 * implementation (`BlockchainApiLive.ts`, fetched on first use): the interface, its errors with the spec's texts, the
 * options and requests it takes, and the fallbacks it answers with.
 */
import { type Effect, type Option, Schema } from "effect"
import type { Balance, Profile } from "../domain/Account"
import type {
  AddSessionBody,
  BuildApproveQuery,
  BuildSwapTransactionBody,
  FungiblePrice,
  GasPriceResponse,
  HistoryResponse,
  NameRecord,
  NameSuggestion,
  NftsResponse,
  OnrampOptions,
  OnrampQuote,
  OnrampQuoteBody,
  OnrampUrlBody,
  RemoteSiwxSession,
  RevokeSessionBody,
  SessionNonceResponse,
  SupportedChains,
  SwapAllowanceQuery,
  SwapQuote,
  SwapQuotesQuery,
  SwapToken,
  SwapTransaction
} from "../domain/Api"
import type { CaipAddress, CaipNetworkId, ChainNamespace } from "../domain/Caip"
import { ONRAMP_FALLBACK_CURRENCIES, ONRAMP_FALLBACK_FEE_PERCENT, ONRAMP_FALLBACK_LIMITS } from "../domain/constants"
import type { GasPriceNetworkNotSupported, NameError, SwapsNetworkNotSupported } from "../domain/errors"
import type { NameRegistrationPayload } from "../domain/Names"
import { NATIVE_TOKEN_ADDRESS, type TokenBalance } from "../domain/Portfolio"
import type { ServiceError } from "./serviceHttp"
import { TaggedError } from "../domain/taggedError"

/** Chain families the blockchain service has balances for (spec 9); others have none to ask for. */
export const BALANCE_NAMESPACES: ReadonlyArray<ChainNamespace> = ["eip155", "solana"]

/** Snackbar text after a balance failure (spec 8). */
export const TOKEN_BALANCE_UNAVAILABLE = "Token Balance Unavailable"
/** Snackbar text after a history failure (spec 8). */
export const FAILED_TO_FETCH_TRANSACTIONS = "Failed to fetch transactions"
/** Snackbar text after an NFT failure: ours, worded like the history's, as spec 8 has no NFT list. */
export const FAILED_TO_FETCH_NFTS = "Failed to fetch NFTs"

/** 'Token Balance Unavailable': the balance request failed, the network is not served, or a retry is blocked. */
export class TokenBalanceUnavailable extends TaggedError<TokenBalanceUnavailable>()("TokenBalanceUnavailable", {
  caipNetworkId: Schema.String,
  reason: Schema.Literals(["failed", "unsupportedNetwork", "retryBlocked"]),
  detail: Schema.optionalKey(Schema.String)
}) {
  override get message() {
    return TOKEN_BALANCE_UNAVAILABLE
  }
}

/** 'Failed to fetch transactions': the history request failed. */
export class TransactionsUnavailable extends TaggedError<TransactionsUnavailable>()("TransactionsUnavailable", {
  detail: Schema.optionalKey(Schema.String)
}) {
  override get message() {
    return FAILED_TO_FETCH_TRANSACTIONS
  }
}

/** 'Failed to fetch NFTs': the NFT request failed (or the list of served networks could not be had). */
export class NftsUnavailable extends TaggedError<NftsUnavailable>()("NftsUnavailable", {
  detail: Schema.optionalKey(Schema.String)
}) {
  override get message() {
    return FAILED_TO_FETCH_NFTS
  }
}

/** Options of a balance read. */
export interface BalanceOptions {
  /** Skip the cache and ask the service to skip its own for this token (a CAIP-10 token address, or `true` for the native coin). */
  readonly forceUpdate?: string | true | undefined
}

/** Options of a history page. */
export interface HistoryOptions {
  /** The `next` of the previous page. */
  readonly cursor?: string | undefined
  /** Only this network (all the service knows when absent). */
  readonly chainId?: CaipNetworkId | undefined
}

/** Options of an NFT page. */
export interface NftsOptions {
  /** The `next` of the previous page; without it, the first page (the one cached 30 s). */
  readonly cursor?: string | undefined
}


/** True when a token of the portfolio is the chain's native coin (EVM: the `0xeee…` address; others: no address). */
export const isNativeToken = (token: TokenBalance): boolean =>
  token.address === undefined || token.address.toLowerCase().endsWith(`:${NATIVE_TOKEN_ADDRESS}`)

/** A swap quote request: sell `amount` (smallest units) of `from` for `to` (CAIP-10 tokens) for `userAddress`. */
export type SwapQuoteRequest = Omit<SwapQuotesQuery, "projectId">

/** An allowance request: how much of `tokenAddress` the swap router may spend for `userAddress` (both CAIP-10). */
export type SwapAllowanceRequest = Omit<SwapAllowanceQuery, "projectId">

/** A swap transaction to build; `slippage` in percent defaults to spec 9's 1, `disableEstimate` to false. */
export type BuildSwapTransactionRequest = Omit<BuildSwapTransactionBody, "projectId" | "eip155" | "disableEstimate"> & {
  readonly slippage?: number | undefined
  readonly disableEstimate?: boolean | undefined
}

/** An approve transaction to build: let the router spend the token `from` to swap it for `to`, for `userAddress`. */
export type BuildApproveRequest = Omit<BuildApproveQuery, "projectId">

/** An on-ramp page to generate; the experience is always "buy". */
export type OnrampUrlRequest = Omit<OnrampUrlBody, "defaultExperience">

/** On-ramp options when the service gives none (spec 9): card 10–7500 and bank account 10–25000 in USD and EUR, fee 1–2 %. */
export const ONRAMP_FALLBACK_OPTIONS: OnrampOptions = {
  paymentCurrencies: ONRAMP_FALLBACK_CURRENCIES.map((id) => ({
    id,
    limits: [
      { id: "card", ...ONRAMP_FALLBACK_LIMITS.card },
      { id: "bankAccount", ...ONRAMP_FALLBACK_LIMITS.bankAccount }
    ]
  })),
  purchaseCurrencies: [],
  providerFeePercent: { ...ONRAMP_FALLBACK_FEE_PERCENT }
}

/** What the blockchain service offers. */
export interface BlockchainApiService {
  /** Networks the service serves (asked once per runtime, on first need). */
  readonly supportedChains: Effect.Effect<SupportedChains, ServiceError>
  /** Whether the service has balances for a network (from `v1/supported-chains`); where not, the balance shows '0.00'. */
  readonly balanceSupport: (caipNetworkId: CaipNetworkId) => Effect.Effect<boolean, ServiceError>
  /** Whether the swap endpoints serve a network (the services' list in `v1/supported-chains`, from the host's config). */
  readonly swapSupport: (caipNetworkId: CaipNetworkId) => Effect.Effect<boolean, ServiceError>
  /** The token balances of an account on the network of its CAIP-10 address (cached 30 s). */
  readonly tokenBalances: (
    caipAddress: CaipAddress,
    options?: BalanceOptions
  ) => Effect.Effect<ReadonlyArray<TokenBalance>, TokenBalanceUnavailable>
  /** The native balance of an account (cached 30 s); `0` with the network's symbol when it holds none. */
  readonly nativeBalance: (caipAddress: CaipAddress, options?: BalanceOptions) => Effect.Effect<Balance, TokenBalanceUnavailable>
  /** Name and avatar of an address (cached 5 minutes); names exist on EVM only, others have none. */
  readonly identity: (address: string, options?: { readonly sender?: string | undefined }) => Effect.Effect<Profile, ServiceError>
  /** One page of an address's transactions, newest first. */
  readonly transactions: (address: string, options?: HistoryOptions) => Effect.Effect<HistoryResponse, TransactionsUnavailable>
  /**
   * One page of the NFTs an account owns on the network of its CAIP-10 address, spam included and flagged; the first
   * page is cached 30 s. A network without balances (spec 9, `v1/supported-chains`) has none and is not asked.
   */
  readonly nfts: (caipAddress: CaipAddress, options?: NftsOptions) => Effect.Effect<NftsResponse, NftsUnavailable>
  /** Drops the cached first page of an account's NFTs, so the next read asks the service. */
  readonly forgetNfts: (caipAddress: CaipAddress) => Effect.Effect<void>
  /** USD prices of tokens (CAIP-10 addresses); tokens without a price are left out. */
  readonly fungiblePrices: (addresses: ReadonlyArray<CaipAddress>) => Effect.Effect<ReadonlyArray<FungiblePrice>, ServiceError>
  /** The tokens tradable on a swap network. */
  readonly swapTokens: (
    caipNetworkId: CaipNetworkId
  ) => Effect.Effect<ReadonlyArray<SwapToken>, SwapsNetworkNotSupported | ServiceError>
  /** Quotes for a swap, best first. */
  readonly swapQuotes: (request: SwapQuoteRequest) => Effect.Effect<ReadonlyArray<SwapQuote>, SwapsNetworkNotSupported | ServiceError>
  /** How much of a token the swap router may spend for an account, in the token's smallest units. */
  readonly swapAllowance: (request: SwapAllowanceRequest) => Effect.Effect<bigint, SwapsNetworkNotSupported | ServiceError>
  /** Gas prices (wei) of a swap network. */
  readonly gasPrice: (caipNetworkId: CaipNetworkId) => Effect.Effect<GasPriceResponse, GasPriceNetworkNotSupported | ServiceError>
  /** The transaction that performs a swap. */
  readonly buildSwapTransaction: (
    request: BuildSwapTransactionRequest
  ) => Effect.Effect<SwapTransaction, SwapsNetworkNotSupported | ServiceError>
  /** The transaction that lets the swap router spend the token sold. */
  readonly buildApproveTransaction: (
    request: BuildApproveRequest
  ) => Effect.Effect<SwapTransaction, SwapsNetworkNotSupported | ServiceError>
  /** The record of a full name; none when no one holds it. */
  readonly resolveName: (name: string) => Effect.Effect<Option.Option<NameRecord>, NameError>
  /** The names registered for an address (cached 5 minutes); names exist on EVM only, others have none. */
  readonly namesForAddress: (address: string) => Effect.Effect<ReadonlyArray<string>, NameError>
  /** Names like `name` under `zone`, each saying whether it is taken. */
  readonly nameSuggestions: (
    name: string,
    options?: { readonly zone?: string | undefined }
  ) => Effect.Effect<ReadonlyArray<NameSuggestion>, NameError>
  /** Registers the name of a signed name message; the address's cached names and identity are dropped. */
  readonly registerName: (payload: NameRegistrationPayload) => Effect.Effect<NameRecord, NameError>
  /** The address of the on-ramp provider's page for a purchase. */
  readonly onrampUrl: (request: OnrampUrlRequest) => Effect.Effect<string, ServiceError>
  /** What the on-ramp accepts and sells; spec 9's fallback limits when the service cannot say. */
  readonly onrampOptions: Effect.Effect<OnrampOptions>
  /** A price quote for a purchase. */
  readonly onrampQuote: (request: OnrampQuoteBody) => Effect.Effect<OnrampQuote, ServiceError>
  /** The sign-in sessions the service keeps for an account. */
  readonly sessions: (caipAddress: CaipAddress) => Effect.Effect<ReadonlyArray<RemoteSiwxSession>, ServiceError>
  /**
   * A fresh nonce for the account's next sign-in message (our extension: `POST /v1/sessions/{address}/nonce`);
   * without an account, one any account may use once (`POST /v1/sessions/nonce`: one-click sign-in, where the
   * account is known only once the wallet answers).
   */
  readonly sessionNonce: (caipAddress?: CaipAddress) => Effect.Effect<SessionNonceResponse, ServiceError>
  /** Has the service check a signed sign-in message and keep it as a session (our extension); gives it with its `pci`. */
  readonly addSession: (caipAddress: CaipAddress, session: AddSessionBody) => Effect.Effect<RemoteSiwxSession, ServiceError>
  /** Revokes one sign-in session of an account; gives the `pci` revoked. */
  readonly revokeSession: (caipAddress: CaipAddress, request: RevokeSessionBody) => Effect.Effect<string, ServiceError>
}
