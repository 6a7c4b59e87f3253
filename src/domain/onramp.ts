/**
 * The Buy form's rules, pure: the fiat amount against the provider's limits for a card (spec 9's fallback: 10 to
 * 7500), what can be bought on a network, and how long the form watches for the coins to arrive.
 */
import { Result } from "effect"
import type { OnrampOptions, OnrampPurchaseCurrency } from "./Api"
import { ONRAMP_FALLBACK_LIMITS } from "./constants"

/** How long after the last keystroke a quote is asked. */
export const ONRAMP_QUOTE_DEBOUNCE_MS = 300
/** How often the balance is read while a purchase is awaited. */
export const ONRAMP_WATCH_INTERVAL_MS = 3_000
/** How long a purchase is awaited before the form says 'Not received yet' (and offers to check again). */
export const ONRAMP_WATCH_MS = 120_000

/** The card limits of a payment currency, else the spec's fallback. */
export const cardLimitsOf = (options: OnrampOptions, currency: string): { readonly min: number; readonly max: number } =>
  options.paymentCurrencies.find((c) => c.id === currency)?.limits.find((l) => l.id === "card") ?? ONRAMP_FALLBACK_LIMITS.card

/** The assets delivered on a network. */
export const purchasableOn = (options: OnrampOptions, caipNetworkId: string): ReadonlyArray<OnrampPurchaseCurrency> =>
  options.purchaseCurrencies.filter((c) => c.networks.includes(caipNetworkId as never))

/** The fiat amount, or what is wrong with it: a number within the card limits of the currency. */
export const checkOnrampAmount = (text: string, currency: string, options: OnrampOptions): Result.Result<number, string> => {
  const value = text.trim()
  if (value === "") return Result.fail("Enter an amount")
  if (!/^(\d+\.?\d{0,2}|\.\d{1,2})$/.test(value)) return Result.fail("Enter the amount as a number with at most 2 decimals, like 50")
  const amount = Number(value)
  const { min, max } = cardLimitsOf(options, currency)
  if (amount < min || amount > max) return Result.fail(`Enter an amount between ${min} and ${max.toLocaleString("en-US")} ${currency}`)
  return Result.succeed(amount)
}
