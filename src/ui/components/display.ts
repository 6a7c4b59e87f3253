/** How the account is written on buttons and views: balance with at most 3 decimals, address as 4…6 characters. */
import { ZERO_BALANCE_DISPLAY } from "../../domain/constants"
import { formatAmount, truncateAddress } from "../../domain/format"

/** A balance and its symbol, e.g. '1.234 ETH'; the services' '0.00' (testnets, no balance support) is kept as is. */
export const balanceText = (balance: string | undefined, symbol: string | undefined): string | undefined => {
  if (balance === undefined) return undefined
  const amount = balance === ZERO_BALANCE_DISPLAY ? balance : formatAmount(balance)
  return symbol !== undefined && symbol !== "" ? `${amount} ${symbol}` : amount
}

/** An address short enough for a phone's header: 4 characters, an ellipsis, 4 characters. */
export const shortAddress = (address: string): string => truncateAddress(address, 4, 4)

/** What names an account: its profile name, else its truncated address (4 + 6 characters). */
export const accountLabel = (account: { readonly address?: string | undefined; readonly profileName?: string | null | undefined }): string =>
  account.profileName ?? (account.address !== undefined ? truncateAddress(account.address) : "")
