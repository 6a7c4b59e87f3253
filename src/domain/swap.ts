/**
 * The swap form's rules, pure: which tokens can be picked (the visitor's balances and the swappable list, searched),
 * what an amount must be before any quote is asked (a number, above 0, within the token's decimals and the balance),
 * and what a quote says to the visitor — the rate, the price impact against the tokens' USD prices, the network fee in
 * USD and the minimum received after the 1 % slippage (spec 9).
 */
import { Result } from "effect"
import type { SwapToken } from "./Api"
import { SWAP_SLIPPAGE_PERCENT } from "./constants"
import { formatUnits, parseUnits } from "./format"
import { NATIVE_TOKEN_ADDRESS, type TokenBalance } from "./Portfolio"

/** How long after the last keystroke a quote is asked. */
export const SWAP_QUOTE_DEBOUNCE_MS = 300
/** How often a shown quote is asked again while the form is open. */
export const SWAP_QUOTE_REFRESH_MS = 15_000
/** A quote older than this is not sent: the visitor is asked to take the new one. */
export const SWAP_QUOTE_MAX_AGE_MS = 30_000
/** Gas a Uniswap-v2-like swap takes, for the fee shown before the swap is built (the built one carries its estimate). */
export const SWAP_GAS_ESTIMATE = 150_000n

/** A token the form offers: the swappable list's entry, with the visitor's balance and USD price when known. */
export interface SwapChoice {
  /** CAIP-10 address (the native coin's is `NATIVE_TOKEN_ADDRESS`). */
  readonly address: string
  readonly symbol: string
  readonly name: string
  readonly decimals: number
  readonly balance: bigint
  readonly priceUsd: number
  readonly iconUrl: string | undefined
}

const sameAddress = (a: string, b: string | undefined) => b !== undefined && a.toLowerCase() === b.toLowerCase()

/**
 * The tokens of the swappable list with what the visitor holds of each (0 when nothing) and its price; held tokens
 * first, by USD value. Only swappable tokens are offered: a token held but not listed cannot be quoted.
 */
export const swapChoicesOf = (swappable: ReadonlyArray<SwapToken>, balances: ReadonlyArray<TokenBalance>): ReadonlyArray<SwapChoice> => {
  const choices = swappable.map((token): SwapChoice => {
    const held = balances.find((b) =>
      b.address === undefined ? isNativeSwapToken(token.address) : sameAddress(token.address, b.address)
    )
    const balance = held === undefined ? 0n : (parseUnits(held.quantity.numeric, token.decimals) ?? 0n)
    return {
      address: token.address,
      symbol: token.symbol,
      name: token.name,
      decimals: token.decimals,
      balance,
      priceUsd: held?.price ?? 0,
      iconUrl: held?.iconUrl ?? (token.logoUri === "" ? undefined : token.logoUri)
    }
  })
  const value = (c: SwapChoice) => (Number(c.balance) / 10 ** c.decimals) * c.priceUsd
  return [...choices].sort((a, b) => (b.balance > 0n ? 1 : 0) - (a.balance > 0n ? 1 : 0) || value(b) - value(a))
}

/** The choices whose symbol or name holds the search (trimmed, any case); all of them for an empty search. */
export const searchSwapChoices = (choices: ReadonlyArray<SwapChoice>, search: string): ReadonlyArray<SwapChoice> => {
  const needle = search.trim().toLowerCase()
  return needle === "" ? choices : choices.filter((c) => c.symbol.toLowerCase().includes(needle) || c.name.toLowerCase().includes(needle))
}

/**
 * The amount to sell in base units, or what is wrong with it in the visitor's words; checked before any request:
 * a number, above 0, within the token's decimals, not beyond the balance.
 */
export const checkSwapAmount = (text: string, token: SwapChoice | undefined): Result.Result<bigint, string> => {
  if (token === undefined) return Result.fail("Choose a token to swap")
  const value = text.trim()
  if (value.length === 0) return Result.fail("Enter an amount")
  if (!/^(\d+\.?\d*|\.\d+)$/.test(value)) return Result.fail("Enter the amount as a number, like 0.5")
  const units = parseUnits(value, token.decimals)
  if (units === undefined) return Result.fail(`${token.symbol} has at most ${token.decimals} decimal${token.decimals === 1 ? "" : "s"}`)
  if (units === 0n) return Result.fail("Enter an amount above 0")
  if (units > token.balance) return Result.fail(`Insufficient ${token.symbol} balance`)
  return Result.succeed(units)
}

/** The USD value of an amount of a token, 0 without a price. */
export const usdValueOf = (units: bigint, token: Pick<SwapChoice, "decimals" | "priceUsd">): number =>
  (Number(units) / 10 ** token.decimals) * token.priceUsd

/** The least the swap pays after the slippage tolerance (percent, spec 9's 1 by default), as the service builds it. */
export const minimumReceived = (toAmount: bigint, slippagePercent = SWAP_SLIPPAGE_PERCENT): bigint =>
  (toAmount * (10_000n - BigInt(Math.round(slippagePercent * 100)))) / 10_000n

/** What a quote says to the visitor. */
export interface QuoteSummary {
  /** "1 ETH = 2,961.3 WUSD". */
  readonly rate: string
  /** How much worse than the USD prices the quote is, in percent (0 when a price is unknown); never negative. */
  readonly priceImpactPercent: number
  /** The network fee in USD, from the gas price and a swap's usual gas. */
  readonly networkFeeUsd: number
  readonly minimumReceived: bigint
  /** The bought amount as decimal text, for the "to" field. */
  readonly toText: string
}

/** The words and numbers of a quote for `fromAmount` of `from` paying `toAmount` of `to`. */
export const summarizeQuote = (input: {
  readonly from: SwapChoice
  readonly to: SwapChoice
  readonly fromAmount: bigint
  readonly toAmount: bigint
  readonly gasPrice: bigint
  readonly nativePriceUsd: number
  readonly gas?: bigint
}): QuoteSummary => {
  const sold = Number(input.fromAmount) / 10 ** input.from.decimals
  const bought = Number(input.toAmount) / 10 ** input.to.decimals
  const perUnit = sold === 0 ? 0 : bought / sold
  const soldUsd = sold * input.from.priceUsd
  const boughtUsd = bought * input.to.priceUsd
  const impact = soldUsd > 0 && boughtUsd > 0 ? Math.max(0, ((soldUsd - boughtUsd) / soldUsd) * 100) : 0
  const feeEth = Number((input.gas ?? SWAP_GAS_ESTIMATE) * input.gasPrice) / 1e18
  return {
    rate: `1 ${input.from.symbol} = ${perUnit.toLocaleString("en-US", { maximumSignificantDigits: 6 })} ${input.to.symbol}`,
    priceImpactPercent: impact,
    networkFeeUsd: feeEth * input.nativePriceUsd,
    minimumReceived: minimumReceived(input.toAmount),
    toText: formatUnits(input.toAmount, input.to.decimals)
  }
}

/** True when a token is the chain's native coin (no approval needed). */
export const isNativeSwapToken = (address: string): boolean => address.toLowerCase().endsWith(`:${NATIVE_TOKEN_ADDRESS}`)
