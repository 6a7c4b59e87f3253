/**
 * The HTTP contract of the hosted services (spec 7.2, 7.3, 7.4): path params, queries, bodies and responses of
 * each endpoint. The client encodes its requests and decodes the answers with these Schemas, and the local
 * services server (`devstack/services`) decodes the same requests and encodes its answers with them, so both
 * sides share one contract. Query Schemas decode from the strings of a URL query and encode back to them.
 */
import { Schema, SchemaTransformation } from "effect"
import { CaipAddress, CaipNetworkId, isChainNamespace } from "./Caip"
import { NameRegistrationPayload } from "./Names"
import { JsonRpcId, JsonRpcResponse } from "./jsonRpc"
import { TokenBalance, Transaction } from "./Portfolio"
import { supportsBalance } from "./rules"
import { RemoteSiwxSession, SiwxSession } from "./Siwx"
import { AccountAddressParam, ApiError, EvmAddressParam, projectIdField } from "./ApiShared"
import { isSwapNetwork } from "./swapNetworks"

// Defined beside what the runtime's core reads with them (RPC answers, the caches of NFTs and sessions, the native
// coin's address), so the core does not load this contract, which the services' declaration and clients use later.
export { JsonRpcId, JsonRpcResponse } from "./jsonRpc"
export { NATIVE_TOKEN_ADDRESS, NftsResponse } from "./Portfolio"
export { RemoteSiwxSession } from "./Siwx"

// The shared pieces and the catalogue's part are modules of their own (see each); this module is the whole contract.
export * from "./ApiCatalogue"
export * from "./ApiShared"

// ---------------------------------------------------------------------------------------------------------------
// Blockchain service (spec 7.4)

/**
 * Answer of `GET /v1/supported-chains`: networks served over HTTP and over websocket, and (our services' additions,
 * from the host's config) the networks the swap endpoints serve and those the on-ramp provider delivers on.
 */
export const SupportedChains = Schema.Struct({
  http: Schema.Array(CaipNetworkId),
  ws: Schema.Array(CaipNetworkId),
  swaps: Schema.optionalKey(Schema.Array(CaipNetworkId)),
  onramp: Schema.optionalKey(Schema.Array(CaipNetworkId))
})
/** Answer of `GET /v1/supported-chains`. */
export type SupportedChains = typeof SupportedChains.Type

/**
 * True when the blockchain service has balances for a network: its family has balances at all (spec 9: eip155 and
 * solana) and the service lists it in `GET /v1/supported-chains`. Whether the network is a testnet does not
 * matter: the devstack's local chains are testnets its services serve. Where this is false the balance shows '0.00'.
 */
export const balancesSupported = (supported: SupportedChains, caipNetworkId: CaipNetworkId): boolean => {
  const namespace = caipNetworkId.slice(0, caipNetworkId.indexOf(":"))
  return isChainNamespace(namespace) && supportsBalance(namespace) && supported.http.includes(caipNetworkId)
}

/**
 * Whether the swap endpoints serve a network: the services' own list (`swaps`, from the host's config); a service that
 * gives none is taken to serve spec 9's swap networks ({@link SWAP_CAIP_NETWORK_IDS}).
 */
export const swapsSupported = (supported: SupportedChains, caipNetworkId: string): boolean =>
  supported.swaps === undefined ? isSwapNetwork(caipNetworkId) : supported.swaps.includes(caipNetworkId as CaipNetworkId)

/**
 * Whether the services' on-ramp provider delivers on a network: their list (`onramp` in `/v1/supported-chains`, empty
 * when the host configured no provider); a service that gives none is taken to offer Buy on every EVM network. Beside
 * `swapsSupported` (not in `onramp.ts`, the Buy form's rules) so the Account view deciding its buttons does not load
 * the Buy form's rules.
 */
export const onrampSupported = (supported: SupportedChains, caipNetworkId: string): boolean =>
  supported.onramp === undefined ? caipNetworkId.startsWith("eip155:") : supported.onramp.includes(caipNetworkId as CaipNetworkId)

/** Path of the account endpoints (`/v1/account/{address}/…`). */
export const AccountPath = Schema.Struct({ address: AccountAddressParam })
/** Path of the account endpoints. */
export type AccountPath = typeof AccountPath.Type

/** Path of `GET /v1/identity/{address}`: an EVM address (names exist on eip155 only). */
export const IdentityPath = Schema.Struct({ address: EvmAddressParam })

/** Query of `GET /v1/identity/{address}`: `sender` is the address asking. */
export const IdentityQuery = Schema.Struct({
  projectId: projectIdField,
  sender: Schema.optionalKey(Schema.String)
})
/** Query of `GET /v1/identity/{address}`. */
export type IdentityQuery = typeof IdentityQuery.Type

/** Answer of `GET /v1/identity/{address}`: the account's name and avatar URL, `null` when it has none. */
export const Identity = Schema.Struct({
  name: Schema.NullOr(Schema.String),
  avatar: Schema.NullOr(Schema.String)
})
/** Answer of `GET /v1/identity/{address}`. */
export type Identity = typeof Identity.Type

/** Query of `GET /v1/account/{address}/balance`: prices in `currency`, on one network or on all when absent. */
export const BalanceQuery = Schema.Struct({
  projectId: projectIdField,
  currency: Schema.optionalKey(Schema.Literal("usd")),
  chainId: Schema.optionalKey(CaipNetworkId),
  /** A token address (CAIP-10) whose balance must not come from a cache. */
  forceUpdate: Schema.optionalKey(Schema.String)
})
/** Query of `GET /v1/account/{address}/balance`. */
export type BalanceQuery = typeof BalanceQuery.Type

/** Answer of `GET /v1/account/{address}/balance`: the account's non-zero token balances. */
export const BalanceResponse = Schema.Struct({ balances: Schema.Array(TokenBalance) })
/** Answer of `GET /v1/account/{address}/balance`. */
export type BalanceResponse = typeof BalanceResponse.Type

/** Query of `GET /v1/account/{address}/history`: the `next` of the previous page as `cursor`, an optional network. */
export const HistoryQuery = Schema.Struct({
  projectId: projectIdField,
  cursor: Schema.optionalKey(Schema.String),
  chainId: Schema.optionalKey(CaipNetworkId),
  onramp: Schema.optionalKey(Schema.String)
})
/** Query of `GET /v1/account/{address}/history`. */
export type HistoryQuery = typeof HistoryQuery.Type

/** Answer of `GET /v1/account/{address}/history`: newest first; `next` is the cursor of the following page, if any. */
export const HistoryResponse = Schema.Struct({
  data: Schema.Array(Transaction),
  next: Schema.optionalKey(Schema.NullOr(Schema.String))
})
/** Answer of `GET /v1/account/{address}/history`. */
export type HistoryResponse = typeof HistoryResponse.Type

/** NFTs per page of `GET /v1/account/{address}/nfts`: a grid of 2, 3 or 4 columns ends each page on a full row. */
export const NFTS_PAGE_SIZE = 24

/**
 * Path of `GET /v1/account/{address}/nfts`, our extension to spec 7.4 (the spec names no NFT endpoint): the NFTs an
 * address owns now. Any account address: a family the service has no NFTs for answers an empty page.
 */
export const NftsPath = AccountPath
/** Path of `GET /v1/account/{address}/nfts`. */
export type NftsPath = typeof NftsPath.Type

/**
 * Query of `GET /v1/account/{address}/nfts` (our extension to spec 7.4): the `next` of the previous page as
 * `cursor`, and one network, or every network the service knows when absent.
 */
export const NftsQuery = Schema.Struct({
  projectId: projectIdField,
  chainId: Schema.optionalKey(CaipNetworkId),
  cursor: Schema.optionalKey(Schema.String)
})
/** Query of `GET /v1/account/{address}/nfts`. */
export type NftsQuery = typeof NftsQuery.Type

/** Body of `POST /v1/fungible/price`: the tokens (CAIP-10 addresses) to price. */
export const FungiblePriceRequest = Schema.Struct({
  projectId: Schema.String,
  currency: Schema.Literal("usd"),
  addresses: Schema.Array(CaipAddress)
})
/** Body of `POST /v1/fungible/price`. */
export type FungiblePriceRequest = typeof FungiblePriceRequest.Type

/** The price of one token. */
export const FungiblePrice = Schema.Struct({
  name: Schema.String,
  symbol: Schema.String,
  iconUrl: Schema.String,
  price: Schema.Finite,
  address: Schema.optionalKey(Schema.String)
})
/** The price of one token. */
export type FungiblePrice = typeof FungiblePrice.Type

/** Answer of `POST /v1/fungible/price`: the tokens that have a price (unknown ones are left out). */
export const FungiblePriceResponse = Schema.Struct({ fungibles: Schema.Array(FungiblePrice) })
/** Answer of `POST /v1/fungible/price`. */
export type FungiblePriceResponse = typeof FungiblePriceResponse.Type

// ---------------------------------------------------------------------------------------------------------------
// RPC proxy (spec 7.2)

/** A network id for the RPC proxy: CAIP-2, or a bare EVM chain id (`"31337"` decodes as `eip155:31337`). */
export const RpcChainIdParam = Schema.String.pipe(
  Schema.decodeTo(
    CaipNetworkId,
    SchemaTransformation.transform({
      decode: (text: string) => (/^\d+$/.test(text) ? `eip155:${text}` : text),
      encode: (id: string) => id
    })
  )
)

/** Query of `GET|POST /v1/`: the network and projectId; a GET carries its call as `method` and JSON `params`. */
export const RpcProxyQuery = Schema.Struct({
  chainId: RpcChainIdParam,
  projectId: projectIdField,
  method: Schema.optionalKey(Schema.String),
  params: Schema.optionalKey(Schema.fromJsonString(Schema.Array(Schema.Unknown)))
})
/** Query of `GET|POST /v1/`. */
export type RpcProxyQuery = typeof RpcProxyQuery.Type

/** One JSON-RPC 2.0 request. */
export const JsonRpcRequest = Schema.Struct({
  jsonrpc: Schema.Literal("2.0"),
  id: Schema.optionalKey(JsonRpcId),
  method: Schema.String,
  params: Schema.optionalKey(Schema.Unknown)
})
/** One JSON-RPC 2.0 request. */
export type JsonRpcRequest = typeof JsonRpcRequest.Type

/** Body of `POST /v1/`: one JSON-RPC request or a non-empty batch. */
export const JsonRpcRequestBody = Schema.Union([
  JsonRpcRequest,
  Schema.Array(JsonRpcRequest).pipe(Schema.check(Schema.isMinLength(1)))
])
/** Body of `POST /v1/`. */
export type JsonRpcRequestBody = typeof JsonRpcRequestBody.Type

/** Answer of `GET|POST /v1/`: one answer, or one per request of a batch. */
export const JsonRpcResponseBody = Schema.Union([JsonRpcResponse, Schema.Array(JsonRpcResponse)])
/** Answer of `GET|POST /v1/`. */
export type JsonRpcResponseBody = typeof JsonRpcResponseBody.Type

// ---------------------------------------------------------------------------------------------------------------
// Blockchain service: swaps, names, on-ramp and sessions (spec 7.4)
//
// The spec names these endpoints and their inputs but shows no answers: each answer below is the smallest one its
// feature needs. Every endpoint also takes the projectId in its query (`ProjectQuery`).

/** A non-negative amount in a token's smallest unit (wei, lamports…) written as decimal text, e.g. `"1500"` ↔ `1500n`. */
export const UnitsFromString = Schema.BigIntFromString.pipe(Schema.check(Schema.isGreaterThanOrEqualToBigInt(0n)))

/** A non-negative decimal number written as text, e.g. `"100"` or `"12.50"` (fiat and display amounts). */
export const DecimalString = Schema.String.pipe(
  Schema.check(Schema.isPattern(/^\d+(\.\d+)?$/, { expected: "a non-negative decimal number as text, e.g. 12.50" }))
)

/** Call data of a transaction: `0x` and whole bytes in hex. */
export const HexData = Schema.String.pipe(
  Schema.check(Schema.isPattern(/^0x([0-9a-fA-F]{2})*$/, { expected: "hex data (0x and pairs of hex digits)" }))
)

export { isSwapNetwork, SWAP_CAIP_NETWORK_IDS } from "./swapNetworks"

/** Query of `GET /v1/convert/tokens`: the network whose tradable tokens are listed. */
export const SwapTokensQuery = Schema.Struct({ projectId: projectIdField, chainId: CaipNetworkId })
/** Query of `GET /v1/convert/tokens`. */
export type SwapTokensQuery = typeof SwapTokensQuery.Type

/** A token the swap service trades: `address` is its CAIP-10 address (the native coin's is `NATIVE_TOKEN_ADDRESS`). */
export const SwapToken = Schema.Struct({
  name: Schema.String,
  symbol: Schema.String,
  address: CaipAddress,
  decimals: Schema.Finite.pipe(Schema.check(Schema.isInt(), Schema.isBetween({ minimum: 0, maximum: 255 }))),
  logoUri: Schema.String
})
/** A token the swap service trades. */
export type SwapToken = typeof SwapToken.Type

/** Answer of `GET /v1/convert/tokens`: the tokens tradable on the network. */
export const SwapTokensResponse = Schema.Struct({ tokens: Schema.Array(SwapToken) })
/** Answer of `GET /v1/convert/tokens`. */
export type SwapTokensResponse = typeof SwapTokensResponse.Type

/**
 * Query of `GET /v1/convert/quotes`: sell `amount` (smallest units) of the token `from` for the token `to`
 * (CAIP-10 token addresses) for the account `userAddress` (CAIP-10), at `gasPrice` (wei per gas).
 */
export const SwapQuotesQuery = Schema.Struct({
  projectId: projectIdField,
  amount: UnitsFromString,
  userAddress: CaipAddress,
  from: CaipAddress,
  to: CaipAddress,
  gasPrice: UnitsFromString
})
/** Query of `GET /v1/convert/quotes`. */
export type SwapQuotesQuery = typeof SwapQuotesQuery.Type

/** One swap quote: how much of `from` is sold and how much of `to` is bought, in smallest units. */
export const SwapQuote = Schema.Struct({ fromAmount: UnitsFromString, toAmount: UnitsFromString })
/** One swap quote. */
export type SwapQuote = typeof SwapQuote.Type

/** Answer of `GET /v1/convert/quotes`: the quotes found, best first (none when the pair cannot be swapped). */
export const SwapQuotesResponse = Schema.Struct({ quotes: Schema.Array(SwapQuote) })
/** Answer of `GET /v1/convert/quotes`. */
export type SwapQuotesResponse = typeof SwapQuotesResponse.Type

/** Query of `GET /v1/convert/allowance`: how much of the token (CAIP-10) the swap router may spend for the account. */
export const SwapAllowanceQuery = Schema.Struct({
  projectId: projectIdField,
  tokenAddress: CaipAddress,
  userAddress: CaipAddress
})
/** Query of `GET /v1/convert/allowance`. */
export type SwapAllowanceQuery = typeof SwapAllowanceQuery.Type

/** Answer of `GET /v1/convert/allowance`: the allowance in the token's smallest units. */
export const SwapAllowanceResponse = Schema.Struct({ allowance: UnitsFromString })
/** Answer of `GET /v1/convert/allowance`. */
export type SwapAllowanceResponse = typeof SwapAllowanceResponse.Type

/** Query of `GET /v1/convert/gas-price`: the network. */
export const GasPriceQuery = Schema.Struct({ projectId: projectIdField, chainId: CaipNetworkId })
/** Query of `GET /v1/convert/gas-price`. */
export type GasPriceQuery = typeof GasPriceQuery.Type

/** Answer of `GET /v1/convert/gas-price`: wei per gas for a standard, fast and instant inclusion. */
export const GasPriceResponse = Schema.Struct({
  standard: UnitsFromString,
  fast: UnitsFromString,
  instant: UnitsFromString
})
/** Answer of `GET /v1/convert/gas-price`. */
export type GasPriceResponse = typeof GasPriceResponse.Type

/** Body of `POST /v1/convert/build-transaction`: the swap to build; `eip155.slippage` is a percentage (spec 9: 1). */
export const BuildSwapTransactionBody = Schema.Struct({
  projectId: Schema.String,
  amount: UnitsFromString,
  eip155: Schema.Struct({
    slippage: Schema.Finite.pipe(Schema.check(Schema.isBetween({ minimum: 0, maximum: 100 })))
  }),
  from: CaipAddress,
  to: CaipAddress,
  userAddress: CaipAddress,
  /** True: build without estimating gas (the answer then has no `gas`). */
  disableEstimate: Schema.Boolean
})
/** Body of `POST /v1/convert/build-transaction`. */
export type BuildSwapTransactionBody = typeof BuildSwapTransactionBody.Type

/** Query of `GET /v1/convert/build-approve`: approve the router to spend the token `from` to swap it for `to`. */
export const BuildApproveQuery = Schema.Struct({
  projectId: projectIdField,
  userAddress: CaipAddress,
  from: CaipAddress,
  to: CaipAddress
})
/** Query of `GET /v1/convert/build-approve`. */
export type BuildApproveQuery = typeof BuildApproveQuery.Type

/**
 * A transaction the wallet sends to swap or to approve: from the account to a contract (CAIP-10 both), its call
 * data and value (wei); `gas` and `gasPrice` when the service estimated them.
 */
export const SwapTransaction = Schema.Struct({
  from: CaipAddress,
  to: CaipAddress,
  data: HexData,
  value: UnitsFromString,
  gas: Schema.optionalKey(UnitsFromString),
  gasPrice: Schema.optionalKey(UnitsFromString)
})
/** A transaction the wallet sends to swap or to approve. */
export type SwapTransaction = typeof SwapTransaction.Type

/** Answer of `POST /v1/convert/build-transaction` and `GET /v1/convert/build-approve`: the transaction to send. */
export const SwapTransactionResponse = Schema.Struct({ tx: SwapTransaction })
/** Answer of the swap and approve builders. */
export type SwapTransactionResponse = typeof SwapTransactionResponse.Type

/** Path of `GET /v1/profile/account/{name}` and `GET /v1/profile/suggestions/{name}`: a full name or a label. */
export const NamePath = Schema.Struct({ name: Schema.String.pipe(Schema.check(Schema.isNonEmpty())) })
/** Path of the name endpoints. */
export type NamePath = typeof NamePath.Type

/** Path of `GET /v1/profile/reverse/{address}`: an EVM address (names exist on eip155 only). */
export const ReverseNamesPath = Schema.Struct({ address: EvmAddressParam })

/**
 * A registered name: the full name, the address it points to per coin type (ENSIP-11: `0x80000000 | chainId`
 * for an EVM chain, as decimal text), and its text attributes (e.g. `avatar`, `bio`).
 */
export const NameRecord = Schema.Struct({
  name: Schema.String,
  addresses: Schema.Record(Schema.String, Schema.Struct({ address: Schema.String })),
  attributes: Schema.optionalKey(Schema.Record(Schema.String, Schema.String))
})
/** A registered name. */
export type NameRecord = typeof NameRecord.Type

/**
 * Answer of `GET /v1/profile/account/{name}` (the name's record; a 404 when no one holds the name) and of
 * `POST /v1/profile/account` (the record just registered).
 */
export const NameRecordResponse = NameRecord

/** Answer of `GET /v1/profile/reverse/{address}`: the names registered for the address (an empty list for none). */
export const ReverseNamesResponse = Schema.Struct({ names: Schema.Array(NameRecord) })
/** Answer of `GET /v1/profile/reverse/{address}`. */
export type ReverseNamesResponse = typeof ReverseNamesResponse.Type

/** Query of `GET /v1/profile/suggestions/{name}`: `zone` is the name suffix to suggest under (e.g. `wallet.test`). */
export const NameSuggestionsQuery = Schema.Struct({
  projectId: projectIdField,
  zone: Schema.optionalKey(Schema.String)
})
/** Query of `GET /v1/profile/suggestions/{name}`. */
export type NameSuggestionsQuery = typeof NameSuggestionsQuery.Type

/** A suggested full name and whether someone holds it already. */
export const NameSuggestion = Schema.Struct({ name: Schema.String, registered: Schema.Boolean })
/** A suggested full name. */
export type NameSuggestion = typeof NameSuggestion.Type

/** Answer of `GET /v1/profile/suggestions/{name}`: names like the one asked, the asked one first when it is free. */
export const NameSuggestionsResponse = Schema.Struct({ suggestions: Schema.Array(NameSuggestion) })
/** Answer of `GET /v1/profile/suggestions/{name}`. */
export type NameSuggestionsResponse = typeof NameSuggestionsResponse.Type

/** Body of `POST /v1/profile/account`: the signed name message (`NameRegistrationPayload`). */
export const RegisterNameBody = NameRegistrationPayload
/** Body of `POST /v1/profile/account`. */
export type RegisterNameBody = typeof RegisterNameBody.Type

/**
 * The JSON error answer of the name endpoints: the hosted name service's `reasons`, or our `ApiError`. Its first
 * description (or `error`) is the text the visitor sees instead of the spec's fallback.
 */
export const NameErrorBody = Schema.Union([
  Schema.Struct({ reasons: Schema.NonEmptyArray(Schema.Struct({ description: Schema.String })) }),
  ApiError
])
/** The JSON error answer of the name endpoints. */
export type NameErrorBody = typeof NameErrorBody.Type

/** The description a name-endpoint error answer gives. */
export const nameErrorDescription = (body: NameErrorBody): string =>
  "reasons" in body ? body.reasons[0].description : body.error

/** An address of the wallet the on-ramp delivers to, with the networks (CAIP-2) and optionally the assets (symbols) it takes. */
export const OnrampDestinationWallet = Schema.Struct({
  address: Schema.String,
  blockchains: Schema.Array(CaipNetworkId),
  assets: Schema.optionalKey(Schema.Array(Schema.String))
})
/** A wallet the on-ramp delivers to. */
export type OnrampDestinationWallet = typeof OnrampDestinationWallet.Type

/** Body of `POST /v1/generators/onrampurl`: where to deliver, on which network first, and preset amounts. */
export const OnrampUrlBody = Schema.Struct({
  destinationWallets: Schema.Array(OnrampDestinationWallet).pipe(Schema.check(Schema.isMinLength(1))),
  defaultNetwork: Schema.optionalKey(CaipNetworkId),
  partnerUserId: Schema.String,
  defaultExperience: Schema.Literal("buy"),
  presetCryptoAmount: Schema.optionalKey(Schema.Finite.pipe(Schema.check(Schema.isGreaterThan(0)))),
  presetFiatAmount: Schema.optionalKey(Schema.Finite.pipe(Schema.check(Schema.isGreaterThan(0))))
})
/** Body of `POST /v1/generators/onrampurl`. */
export type OnrampUrlBody = typeof OnrampUrlBody.Type

/** Answer of `POST /v1/generators/onrampurl`: the provider's page to open; only http(s), as it is opened in a window. */
export const OnrampUrlResponse = Schema.Struct({
  url: Schema.String.pipe(Schema.check(Schema.isPattern(/^https?:\/\//i, { expected: "an http(s) URL" })))
})
/** Answer of `POST /v1/generators/onrampurl`. */
export type OnrampUrlResponse = typeof OnrampUrlResponse.Type

/** The smallest and largest fiat amount a payment method (`card`, `bankAccount`, …) accepts. */
export const OnrampPaymentMethodLimit = Schema.Struct({ id: Schema.String, min: Schema.Finite, max: Schema.Finite })
/** The limits of a payment method. */
export type OnrampPaymentMethodLimit = typeof OnrampPaymentMethodLimit.Type

/** A fiat currency the visitor can pay with (ISO 4217 code) and its limits per payment method. */
export const OnrampPaymentCurrency = Schema.Struct({ id: Schema.String, limits: Schema.Array(OnrampPaymentMethodLimit) })
/** A fiat currency the visitor can pay with. */
export type OnrampPaymentCurrency = typeof OnrampPaymentCurrency.Type

/** A crypto asset the visitor can buy and the networks (CAIP-2) it is delivered on. */
export const OnrampPurchaseCurrency = Schema.Struct({
  symbol: Schema.String,
  name: Schema.String,
  networks: Schema.Array(CaipNetworkId)
})
/** A crypto asset the visitor can buy. */
export type OnrampPurchaseCurrency = typeof OnrampPurchaseCurrency.Type

/** Answer of `GET /v1/onramp/options`: what can be paid with and bought, and the provider's fee range in percent. */
export const OnrampOptions = Schema.Struct({
  /** The provider's name, as the Buy view says it ('Buy with …'); a service that gives none is 'the provider'. */
  providerName: Schema.optionalKey(Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(60))),
  paymentCurrencies: Schema.Array(OnrampPaymentCurrency),
  purchaseCurrencies: Schema.Array(OnrampPurchaseCurrency),
  providerFeePercent: Schema.Struct({ min: Schema.Finite, max: Schema.Finite })
})
/** Answer of `GET /v1/onramp/options`. */
export type OnrampOptions = typeof OnrampOptions.Type

/** Body of `POST /v1/onramp/quote`: buy `purchaseCurrency` (symbol) on `network` for `amount` of `paymentCurrency` (fiat). */
export const OnrampQuoteBody = Schema.Struct({
  purchaseCurrency: Schema.String,
  paymentCurrency: Schema.String,
  amount: DecimalString,
  network: CaipNetworkId
})
/** Body of `POST /v1/onramp/quote`. */
export type OnrampQuoteBody = typeof OnrampQuoteBody.Type

/** An amount of a currency (fiat code or crypto symbol), as decimal text. */
export const OnrampAmount = Schema.Struct({ amount: DecimalString, currency: Schema.String })
/** An amount of a currency. */
export type OnrampAmount = typeof OnrampAmount.Type

/** Answer of `POST /v1/onramp/quote`: what the visitor receives, pays in all, and the fees inside that total. */
export const OnrampQuote = Schema.Struct({
  purchaseAmount: OnrampAmount,
  paymentTotal: OnrampAmount,
  providerFee: OnrampAmount,
  networkFee: OnrampAmount
})
/** Answer of `POST /v1/onramp/quote`. */
export type OnrampQuote = typeof OnrampQuote.Type

/** Path of `GET /v1/sessions/{address}` and `POST /v1/sessions/{address}/revoke`: a CAIP-10 account. */
export const SessionsPath = Schema.Struct({ address: CaipAddress })
/** Path of the session endpoints. */
export type SessionsPath = typeof SessionsPath.Type

/** Answer of `GET /v1/sessions/{address}`: the account's sessions (an empty list for none). */
export const SessionsResponse = Schema.Struct({ sessions: Schema.Array(RemoteSiwxSession) })
/** Answer of `GET /v1/sessions/{address}`. */
export type SessionsResponse = typeof SessionsResponse.Type

/**
 * Answer of `POST /v1/sessions/{address}/nonce` (our extension): a fresh nonce for the account's next sign-in
 * message, accepted once, until `expiresAt` (ISO 8601). Also the answer of `POST /v1/sessions/nonce` (our extension,
 * for one-click sign-in, where the account is known only once the wallet answers): a nonce bound to no account, which
 * each account (chain and address) may use once until `expiresAt`.
 */
export const SessionNonceResponse = Schema.Struct({
  nonce: Schema.String.pipe(Schema.check(Schema.isPattern(/^[A-Za-z0-9]{8,64}$/, { expected: "8 to 64 letters or digits" }))),
  expiresAt: Schema.String
})
/** Answer of `POST /v1/sessions/{address}/nonce` and `POST /v1/sessions/nonce`. */
export type SessionNonceResponse = typeof SessionNonceResponse.Type

/**
 * Body of `POST /v1/sessions/{address}` (our extension): a signed sign-in message to keep as a session. The service
 * checks the text is the message of `data`, the nonce is one it gave the account and unused, the times hold, and the
 * signature is the account's (EOA, ERC-1271 contract account or ERC-6492 undeployed account; ed25519 on Solana).
 * It answers the session kept, with its `pci`. `signature` is 0x-prefixed hex on eip155 (ERC-6492-wrapped for an
 * undeployed account) and the 64 signature bytes in base58 on solana (as Solana writes signatures), over the
 * message's UTF-8 bytes.
 */
export const AddSessionBody = Schema.Struct({
  ...SiwxSession.fields,
  /**
   * The SHA-256 (64 hex) of a secret only the browser keeping the session knows: revoking then needs that secret.
   * Without it, revoking needs the session's signature, which `GET /v1/sessions/{address}` shows to anyone.
   */
  revocationKeyHash: Schema.optionalKey(Schema.String.pipe(Schema.check(Schema.isPattern(/^[0-9a-f]{64}$/, { expected: "64 lower-case hex" }))))
})
/** Body of `POST /v1/sessions/{address}`. */
export type AddSessionBody = typeof AddSessionBody.Type

/**
 * Body of `POST /v1/sessions/{address}/revoke`: the session's `pci` and the proof that the caller holds the session —
 * the secret whose hash was given as `revocationKeyHash` when it was kept, or, for a session kept without one, its
 * signature. Revoking asks the wallet nothing, so a wallet already gone can still sign out.
 */
export const RevokeSessionBody = Schema.Struct({
  pci: Schema.String.pipe(Schema.check(Schema.isNonEmpty())),
  signature: Schema.String.pipe(Schema.check(Schema.isNonEmpty()))
})
/** Body of `POST /v1/sessions/{address}/revoke`. */
export type RevokeSessionBody = typeof RevokeSessionBody.Type

/** Answer of `POST /v1/sessions/{address}/revoke`: the `pci` of the session revoked. */
export const RevokeSessionResponse = Schema.Struct({ pci: Schema.String })
/** Answer of `POST /v1/sessions/{address}/revoke`. */
export type RevokeSessionResponse = typeof RevokeSessionResponse.Type
