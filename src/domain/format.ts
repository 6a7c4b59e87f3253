/**
 * How amounts and addresses are shown (spec point 9): token amounts with at most 3 decimals, general numbers
 * en-US with 2, addresses truncated to 4 + 6 characters. Amounts are handled as decimal strings and bigints, never
 * floats, so large balances and 18-decimal tokens show exactly.
 */
import {
  ADDRESS_TRUNCATE_END,
  ADDRESS_TRUNCATE_START,
  AMOUNT_DISPLAY_DECIMALS,
  NUMBER_DISPLAY_DECIMALS,
  NUMBER_LOCALE
} from "./constants"

/** A bigint of base units (wei, lamports) as a decimal string with `decimals` places, without trailing zeros. */
export const formatUnits = (value: bigint, decimals: number): string => {
  const negative = value < 0n
  const digits = (negative ? -value : value).toString().padStart(decimals + 1, "0")
  const whole = digits.slice(0, digits.length - decimals)
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, "")
  return `${negative ? "-" : ""}${whole}${fraction.length > 0 ? `.${fraction}` : ""}`
}

/** A decimal string as a bigint of base units; `undefined` when it is not a decimal or has too many places. */
export const parseUnits = (value: string, decimals: number): bigint | undefined => {
  const match = /^(\d*)(?:\.(\d*))?$/.exec(value.trim())
  if (match === null) return undefined
  const whole = match[1] ?? ""
  const fraction = match[2] ?? ""
  if (whole.length === 0 && fraction.length === 0) return undefined
  if (fraction.length > decimals) return undefined
  return BigInt(`${whole.length > 0 ? whole : "0"}${fraction.padEnd(decimals, "0")}`)
}

const groupThousands = (whole: string): string => whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",")

/**
 * A token amount for display: at most 3 decimals, cut (never rounded up, so a balance is never overstated),
 * trailing zeros dropped, thousands grouped en-US; a positive amount below 0.001 shows as '<0.001'.
 */
export const formatAmount = (value: string | number | bigint, decimals = AMOUNT_DISPLAY_DECIMALS): string => {
  const text = typeof value === "string" ? value.trim() : typeof value === "bigint" ? value.toString() : toPlain(value)
  const match = /^(-?)(\d*)(?:\.(\d*))?$/.exec(text)
  if (match === null) return "0"
  const sign = match[1] ?? ""
  const whole = (match[2] ?? "").replace(/^0+(?=\d)/, "") || "0"
  const fullFraction = match[3] ?? ""
  const fraction = fullFraction.slice(0, decimals).replace(/0+$/, "")
  if (whole === "0" && fraction.length === 0) {
    return /[1-9]/.test(fullFraction) ? `${sign === "-" ? ">-" : "<"}0.${"0".repeat(decimals - 1)}1` : "0"
  }
  return `${sign}${groupThousands(whole)}${fraction.length > 0 ? `.${fraction}` : ""}`
}

const toPlain = (value: number): string => {
  if (!Number.isFinite(value)) return "0"
  // Avoid exponent notation for very small or very large numbers.
  return Math.abs(value) < 1e21 ? value.toFixed(20).replace(/\.?0+$/, "") : BigInt(Math.trunc(value)).toString()
}

// A value that rounds to zero shows no sign: -0.001 is '0.00', not '-0.00'.
const numberFormatter = new Intl.NumberFormat(NUMBER_LOCALE, {
  minimumFractionDigits: NUMBER_DISPLAY_DECIMALS,
  maximumFractionDigits: NUMBER_DISPLAY_DECIMALS,
  signDisplay: "negative"
})

/** A general number (prices, fiat values) en-US with exactly 2 decimals, e.g. '1,234.50'. */
export const formatNumber = (value: number | string): string => {
  const number = typeof value === "string" ? Number(value) : value
  return numberFormatter.format(Number.isFinite(number) ? number : 0)
}

/** A fiat value in US dollars, the sign before the symbol, e.g. '$1,234.50' and '-$10,000.00'. */
export const formatUsd = (value: number | string): string => {
  const formatted = formatNumber(value)
  return formatted.startsWith("-") ? `-$${formatted.slice(1)}` : `$${formatted}`
}

// Characters to keep: a negative or NaN count keeps none, a fraction is cut to whole characters.
const keepCount = (count: number): number => (Number.isFinite(count) && count > 0 ? Math.floor(count) : 0)

/**
 * An address shortened to its first `start` (4) and last `end` (6) characters around an ellipsis ('0x12…abcdef');
 * a string no longer than start + end is returned whole, any longer one is cut (with 0 and 0, just '…').
 */
export const truncateAddress = (address: string, start = ADDRESS_TRUNCATE_START, end = ADDRESS_TRUNCATE_END): string => {
  const head = keepCount(start)
  const tail = keepCount(end)
  return address.length <= head + tail ? address : `${address.slice(0, head)}…${address.slice(address.length - tail)}`
}
