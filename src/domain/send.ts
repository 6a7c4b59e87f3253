/**
 * The rules of Send and Receive (spec points 5 and 9), pure: what can be sent (the account's native coin and tokens
 * from its portfolio, or one of its NFTs), the words for each bad input (token, amount and receiver required; EVM
 * and Solana address rules; Solana's 'Please enter a valid amount and receiver address'; an amount's precision per
 * token decimals; more than the balance), Max (the whole balance; for the native coin minus the fee, never below
 * zero), the gas check (the native balance in USD is 0 or below the fee in USD; a smart account never), the address
 * a name points to on a network, what the review shows, and where an explorer shows an account or a transaction.
 */
import { Result } from "effect"
import type { AccountType } from "./Account"
import type { ChainNamespace } from "./Caip"
import { SendFormInvalid } from "./errors"
import { formatAmount, formatUnits, formatUsd, parseUnits } from "./format"
import type { CaipNetwork } from "./Network"
import { NATIVE_TOKEN_ADDRESS, type TokenBalance } from "./Portfolio"
import { coinTypeForChainId, hasInsufficientGas, validateEvmAddress, validateSolanaAddress } from "./validation"

/** How long the receiver field waits after the last keystroke before a name is looked up. */
export const NAME_RESOLVE_DEBOUNCE_MS = 300

/** A fungible asset the account holds: its native coin, or a token (an ERC-20 contract or an SPL mint). */
export interface FungibleAsset {
  readonly kind: "native" | "token"
  /** Unique in the list: `native`, or the token's address. */
  readonly id: string
  readonly name: string
  readonly symbol: string
  readonly decimals: number
  /** The balance in base units. */
  readonly balance: bigint
  /** USD per whole unit; 0 when the service has no price. */
  readonly priceUsd: number
  readonly iconUrl: string | undefined
  /** The token's contract or mint, without its CAIP-10 prefix; none for the native coin. */
  readonly address: string | undefined
}

/** An NFT the account holds, sent whole (ERC-721). */
export interface NftAsset {
  readonly kind: "nft"
  /** Unique in the list: `contract/tokenId`. */
  readonly id: string
  readonly name: string
  readonly collection: string
  /** The collection's contract, without its CAIP-10 prefix. */
  readonly contract: string
  /** The token id as decimal digits. */
  readonly tokenId: string
  readonly imageUrl: string | null
}

/** Something the visitor can send. */
export type SendAsset = FungibleAsset | NftAsset

const accountPart = (caipAddress: string): string => caipAddress.slice(caipAddress.lastIndexOf(":") + 1)

const isNative = (token: TokenBalance): boolean =>
  token.address === undefined || accountPart(token.address).toLowerCase() === NATIVE_TOKEN_ADDRESS

/**
 * The fungible assets of a portfolio, native coin first (with a zero balance when the portfolio lists none, so it
 * can always be chosen and its fee paid), then tokens as listed. A token whose quantity cannot be read is left out.
 */
export const fungibleAssetsOf = (
  tokens: ReadonlyArray<TokenBalance>,
  network: Pick<CaipNetwork, "nativeCurrency">
): ReadonlyArray<FungibleAsset> => {
  const assets = tokens.flatMap((token): ReadonlyArray<FungibleAsset> => {
    const decimals = Number(token.quantity.decimals)
    const balance = Number.isSafeInteger(decimals) && decimals >= 0 ? parseUnits(token.quantity.numeric, decimals) : undefined
    if (balance === undefined) return []
    const native = isNative(token)
    return [
      {
        kind: native ? "native" : "token",
        id: native ? "native" : accountPart(token.address ?? ""),
        name: token.name,
        symbol: token.symbol,
        decimals,
        balance,
        priceUsd: Number.isFinite(token.price) ? token.price : 0,
        iconUrl: token.iconUrl === "" ? undefined : token.iconUrl,
        address: native ? undefined : accountPart(token.address ?? "")
      }
    ]
  })
  const native = assets.find((asset) => asset.kind === "native")
  const head: FungibleAsset = native ?? {
    kind: "native",
    id: "native",
    name: network.nativeCurrency.name,
    symbol: network.nativeCurrency.symbol,
    decimals: network.nativeCurrency.decimals,
    balance: 0n,
    priceUsd: 0,
    iconUrl: undefined,
    address: undefined
  }
  return [head, ...assets.filter((asset) => asset.kind !== "native")]
}

/** What the form says is wrong, per field, and for the form as a whole (spec 5's Solana sentence). */
export interface SendIssues {
  readonly token?: string | undefined
  readonly amount?: string | undefined
  readonly receiver?: string | undefined
  readonly form?: string | undefined
}

/** Names are resolved on EVM networks only (spec 9); there, text that has a dot and is not an address is a name. */
export const looksLikeName = (text: string, namespace: ChainNamespace): boolean => {
  const value = text.trim()
  return namespace === "eip155" && /^[^\s.]+(\.[^\s.]+)+$/.test(value) && !/^(0x)?[0-9a-fA-F]{40}$/.test(value)
}

/**
 * A family's receiver rule that loads with the family, not with the send form: the address (as sent) of the network
 * `caipNetworkId`, or the words that say what is wrong with it. Bitcoin's (`validateBitcoinReceiver`) brings bech32,
 * base58check and SHA-256, which an EVM or Solana form never needs.
 */
export type ReceiverRule = (value: string, caipNetworkId: string | undefined) => Result.Result<string, string>

/** The receiver rules loaded so far, by family. */
export type ReceiverRules = { readonly [N in ChainNamespace]?: ReceiverRule }

/**
 * The receiver as an address of the family, or the words that say what is wrong with it (spec 5). EVM and Solana
 * rules are built in; another family's comes in `rules` (for Bitcoin, of the network `caipNetworkId`: mainnet, a
 * test network or regtest); a family without one cannot be sent on.
 */
export const validateReceiver = (
  text: string,
  namespace: ChainNamespace,
  caipNetworkId?: string,
  rules: ReceiverRules = {}
): Result.Result<string, string> => {
  const value = text.trim()
  if (value.length === 0) return Result.fail(namespace === "eip155" ? "Enter the receiver's address or name" : "Enter the receiver's address")
  switch (namespace) {
    case "eip155":
      return validateEvmAddress(value)
    case "solana":
      return validateSolanaAddress(value)
    default: {
      const rule = rules[namespace]
      return rule === undefined ? Result.fail("Sending is not available on this network") : rule(value, caipNetworkId)
    }
  }
}

/** The amount in base units, or the words that say what is wrong with it (required, positive, the token's precision). */
export const parseAmount = (text: string, asset: FungibleAsset): Result.Result<bigint, string> => {
  const value = text.trim()
  if (value.length === 0) return Result.fail("Enter an amount")
  if (!/^(\d+\.?\d*|\.\d+)$/.test(value)) return Result.fail("Enter the amount as a number, like 0.5")
  const units = parseUnits(value, asset.decimals)
  if (units === undefined) {
    return Result.fail(`${asset.symbol} has at most ${asset.decimals} decimal${asset.decimals === 1 ? "" : "s"}`)
  }
  if (units === 0n) return Result.fail("Enter an amount above 0")
  return Result.succeed(units)
}

/**
 * The most that can be sent of an asset: its balance, less the fee for the native coin (which pays it), never below
 * zero; an NFT is sent whole.
 */
export const maxAmount = (asset: FungibleAsset, fee: bigint): bigint => {
  if (asset.kind !== "native") return asset.balance
  return asset.balance > fee ? asset.balance - fee : 0n
}

// An amount in USD (0 without a price).
const usdValueOf = (units: bigint, decimals: number, priceUsd: number): number =>
  priceUsd > 0 ? Number(formatUnits(units, decimals)) * priceUsd : 0

/** What the gas check needs: the native coin, the fee (in its base units) and the account's type. */
export interface GasInput {
  readonly native: FungibleAsset
  readonly fee: bigint
  readonly accountType: AccountType | undefined
}

/**
 * Spec 5's gas check: insufficient when the native balance in USD is 0 or below the fee (the gas price paid) in USD;
 * a smart account is never insufficient (a paymaster may pay). Where the service has no price for the native coin
 * (a test network), the same comparison is made in the coin itself: every balance would otherwise be worth $0.
 */
export const gasInsufficient = (input: GasInput): boolean => {
  const { native, fee } = input
  const price = native.priceUsd > 0 ? native.priceUsd : 1
  return hasInsufficientGas({
    nativeBalanceUsd: Number(formatUnits(native.balance, native.decimals)) * price,
    gasPriceUsd: Number(formatUnits(fee, native.decimals)) * price,
    accountType: input.accountType
  })
}

// The words of the gas check when it fails.
const notEnoughForFee = (native: Pick<FungibleAsset, "symbol">): string => `Not enough ${native.symbol} to pay the network fee`

/** What the form holds and knows when it is checked. */
export interface SendCheck {
  readonly namespace: ChainNamespace
  readonly asset: SendAsset | undefined
  readonly amount: string
  readonly receiver: string
  /** The address a name in the receiver field points to, once resolved. */
  readonly resolvedAddress: string | undefined
  /** Why the name in the receiver field could not be looked up ('Error resolving name'). */
  readonly nameError: string | undefined
  /** The account's native coin (it pays the fee). */
  readonly native: FungibleAsset
  /** The estimated fee, once known. */
  readonly fee: bigint | undefined
  readonly accountType: AccountType | undefined
  /** The network sent on (Bitcoin addresses differ by network). */
  readonly caipNetworkId?: string | undefined
  /** The receiver rules of families that load their own (Bitcoin's). */
  readonly receiverRules?: ReceiverRules | undefined
}

/** A send that passed every rule: what moves, how much (base units; 1 for an NFT), and to which address. */
export interface ValidSend {
  readonly asset: SendAsset
  readonly value: bigint
  readonly to: string
}

const amountIssue = (check: SendCheck, asset: SendAsset | undefined): Result.Result<bigint, string> => {
  if (asset === undefined || asset.kind === "nft") return Result.succeed(1n)
  const parsed = parseAmount(check.amount, asset)
  if (Result.isFailure(parsed)) return parsed
  const amount = parsed.success
  if (amount > asset.balance) return Result.fail(`Not enough ${asset.symbol}: you have ${formatAmount(formatUnits(asset.balance, asset.decimals))}`)
  if (asset.kind === "native" && check.fee !== undefined && amount + check.fee > asset.balance) {
    return Result.fail(`Not enough ${asset.symbol} for this amount and the network fee: use Max`)
  }
  return Result.succeed(amount)
}

/**
 * Every rule of the form (spec 5): a token, an amount and a receiver are required; the amount fits the token's
 * decimals and the balance (with the fee, for the native coin); the receiver is an address of the family (or a name
 * resolved to one); the gas check passes. On Solana a missing or invalid amount or receiver is also said as
 * 'Please enter a valid amount and receiver address'.
 */
export const checkSend = (check: SendCheck): Result.Result<ValidSend, SendIssues> => {
  const asset = check.asset
  const amount = amountIssue(check, asset)
  const name = check.resolvedAddress !== undefined && looksLikeName(check.receiver, check.namespace)
  const receiver = name ? Result.succeed(check.resolvedAddress ?? "") : validateReceiver(check.receiver, check.namespace, check.caipNetworkId, check.receiverRules)
  const gas =
    check.fee !== undefined && gasInsufficient({ native: check.native, fee: check.fee, accountType: check.accountType })
      ? notEnoughForFee(check.native)
      : undefined
  const issues: SendIssues = {
    token: asset === undefined ? "Choose what to send" : undefined,
    amount: Result.isFailure(amount) ? amount.failure : undefined,
    receiver: Result.isFailure(receiver)
      ? looksLikeName(check.receiver, check.namespace)
        ? (check.nameError ?? `No address found for ${check.receiver.trim()}`)
        : receiver.failure
      : undefined,
    form:
      check.namespace === "solana" && (Result.isFailure(amount) || Result.isFailure(receiver))
        ? new SendFormInvalid().message
        : gas
  }
  if (asset === undefined || Result.isFailure(amount) || Result.isFailure(receiver) || gas !== undefined) return Result.fail(issues)
  return Result.succeed({ asset, value: amount.success, to: receiver.success })
}

/** The address a name's record gives for an EVM network (its ENSIP-11 coin type, else Ethereum's, 60), if any. */
export const nameRecordAddress = (
  record: { readonly addresses: Readonly<Record<string, { readonly address: string }>> },
  chainId: number | string
): string | undefined => {
  const coinType = typeof chainId === "number" ? coinTypeForChainId(chainId) : Result.fail(undefined)
  const candidates = [Result.isSuccess(coinType) ? record.addresses[String(coinType.success)] : undefined, record.addresses["60"]]
  for (const candidate of candidates) {
    const checked = candidate === undefined ? undefined : validateEvmAddress(candidate.address)
    if (checked !== undefined && Result.isSuccess(checked)) return checked.success
  }
  return undefined
}

/** One line of the review: the amount in the asset's unit and its USD value (when priced). */
export interface ReviewLine {
  readonly text: string
  readonly usd: string | undefined
}

/** What the review shows: what is sent, the fee, and for the native coin the total leaving the account. */
export interface SendReview {
  readonly amount: ReviewLine
  readonly fee: ReviewLine
  readonly total: ReviewLine | undefined
}

const line = (units: bigint, decimals: number, symbol: string, priceUsd: number): ReviewLine => ({
  text: `${formatUnits(units, decimals)} ${symbol}`,
  usd: priceUsd > 0 ? formatUsd(usdValueOf(units, decimals, priceUsd)) : undefined
})

/** The review of a valid send with its fee, in full precision (what the wallet will be asked to sign). */
export const reviewOf = (send: ValidSend, native: FungibleAsset, fee: bigint): SendReview => {
  const fees = line(fee, native.decimals, native.symbol, native.priceUsd)
  if (send.asset.kind === "nft") return { amount: { text: `${send.asset.name} (${send.asset.collection})`, usd: undefined }, fee: fees, total: undefined }
  const amount = line(send.value, send.asset.decimals, send.asset.symbol, send.asset.priceUsd)
  return {
    amount,
    fee: fees,
    total: send.asset.kind === "native" ? line(send.value + fee, native.decimals, native.symbol, native.priceUsd) : undefined
  }
}

/** The networks an address of a family is valid on: the host's networks of that family, in its order. */
export const receiveNetworks = (
  networks: ReadonlyArray<CaipNetwork>,
  namespace: ChainNamespace
): ReadonlyArray<CaipNetwork> => networks.filter((network) => network.chainNamespace === namespace)
