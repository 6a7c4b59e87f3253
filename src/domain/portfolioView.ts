/**
 * How the account's tabs present what it holds and did (spec points 1, 4, 9): tokens by USD value with their total,
 * activity grouped by the visitor's calendar day, each transaction as a title, a signed amount, its images and a
 * link to the explorer. Pure: the time and the time zone are given.
 */
import { formatAmount } from "./format"
import type { OperationType, TokenBalance, Transaction, Transfer } from "./Portfolio"
import { showsTransferImagesAsPair, transactionSign } from "./rules"

/** The tokens as the Tokens tab lists them: highest USD value first; equal values by name. */
export const tokensByValue = (tokens: ReadonlyArray<TokenBalance>): ReadonlyArray<TokenBalance> =>
  [...tokens].sort((a, b) => (b.value ?? 0) - (a.value ?? 0) || a.name.localeCompare(b.name))

/** The USD value of all the tokens (a token without a price counts 0). */
export const totalUsdValue = (tokens: ReadonlyArray<TokenBalance>): number =>
  tokens.reduce((sum, token) => sum + (Number.isFinite(token.value) ? (token.value ?? 0) : 0), 0)

/** Transactions of one calendar day, with the words that head them. */
export interface ActivityDay {
  /** The day as YYYY-MM-DD in the visitor's time zone. */
  readonly day: string
  /** 'Today', 'Yesterday', or the date ('March 3' this year, 'March 3, 2025' before). */
  readonly label: string
  readonly transactions: ReadonlyArray<Transaction>
}

const dayOf = (date: Date, timeZone: string | undefined): string =>
  new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(date)

const minedDate = (transaction: Transaction): Date | undefined => {
  const date = new Date(transaction.metadata.minedAt)
  return Number.isNaN(date.getTime()) ? undefined : date
}

/**
 * Transactions grouped by the day they were mined, in the order given (newest first from the service). A pending
 * transaction, or one whose time cannot be read, belongs to today.
 */
export const activityByDay = (
  transactions: ReadonlyArray<Transaction>,
  now: Date,
  timeZone?: string | undefined
): ReadonlyArray<ActivityDay> => {
  const today = dayOf(now, timeZone)
  const yesterday = dayOf(new Date(now.getTime() - 86_400_000), timeZone)
  const thisYear = today.slice(0, 4)
  const days: Array<{ day: string; label: string; transactions: Array<Transaction> }> = []
  for (const transaction of transactions) {
    const mined = transaction.metadata.status === "pending" ? undefined : minedDate(transaction)
    const day = mined === undefined ? today : dayOf(mined, timeZone)
    const last = days[days.length - 1]
    if (last !== undefined && last.day === day) {
      last.transactions.push(transaction)
      continue
    }
    const label =
      day === today ? "Today"
      : day === yesterday ? "Yesterday"
      : new Intl.DateTimeFormat("en-US", {
          timeZone,
          month: "long",
          day: "numeric",
          ...(day.slice(0, 4) === thisYear ? {} : { year: "numeric" })
        }).format(mined ?? now)
    days.push({ day, label, transactions: [transaction] })
  }
  return days
}

const TITLES: Record<OperationType, string> = {
  send: "Sent",
  receive: "Received",
  deposit: "Deposited",
  withdraw: "Withdrew",
  borrow: "Borrowed",
  repay: "Repaid",
  claim: "Claimed",
  burn: "Burned",
  mint: "Minted",
  approve: "Approved",
  trade: "Swapped",
  execute: "Executed",
  cancel: "Cancelled",
  deploy: "Deployed"
}

/** What one transfer moved, in words: '1.5 WUSD', or the NFT's name. */
export const transferText = (transfer: Transfer): string => {
  if (transfer.nft_info !== undefined) return transfer.nft_info.name ?? "NFT"
  const symbol = transfer.fungible_info?.symbol
  const amount = formatAmount(transfer.quantity.numeric)
  return symbol === undefined ? amount : `${amount} ${symbol}`
}

/** The picture of a transfer: the NFT's preview or the token's icon. */
export const transferImage = (transfer: Transfer): string | undefined =>
  transfer.nft_info?.content?.preview?.url ?? transfer.nft_info?.content?.detail?.url ?? transfer.fungible_info?.icon?.url

/** A transaction as a row of the Activity tab. */
export interface ActivityRow {
  readonly title: string
  /** '+', '-' or '' before the amount (spec 4). */
  readonly sign: "+" | "-" | ""
  /** What moved: '1.5 WUSD', 'WRC #3', '1 ETH → 2,000 WUSD' for a trade; '' when nothing moved. */
  readonly amount: string
  /** One picture, or two shown as a pair (unless both transfers are NFTs). */
  readonly images: ReadonlyArray<string | undefined>
  /** What each picture shows, for the letter drawn when it has none: the token's symbol or the NFT's name. */
  readonly imageNames: ReadonlyArray<string>
  readonly pair: boolean
  readonly status: Transaction["metadata"]["status"]
  readonly hash: string | undefined
}

/** How the Activity tab shows a transaction. */
export const activityRow = (transaction: Transaction): ActivityRow => {
  const { metadata, transfers } = transaction
  const pair = showsTransferImagesAsPair(transfers)
  return {
    title: TITLES[metadata.operationType],
    sign: transactionSign(metadata.operationType),
    amount: transfers.map(transferText).join(" → "),
    images: (pair ? transfers : transfers.slice(0, 1)).map(transferImage),
    imageNames: (pair ? transfers : transfers.slice(0, 1)).map(
      (transfer) => transfer.fungible_info?.symbol ?? transfer.nft_info?.name ?? TITLES[metadata.operationType]
    ),
    pair,
    status: metadata.status,
    hash: metadata.hash ?? (/^0x[0-9a-fA-F]{64}$/.test(transaction.id) ? transaction.id : undefined)
  }
}

/** The explorer page of a transaction, when the network names an explorer (`{url}/tx/{hash}`). */
export const explorerTransactionUrl = (explorerUrl: string | undefined, hash: string | undefined): string | undefined =>
  explorerUrl === undefined || hash === undefined ? undefined : `${explorerUrl.replace(/\/+$/, "")}/tx/${hash}`

/** The explorer page of an NFT (`{url}/nft/{contract}/{tokenId}`, as Etherscan and its kind have it). */
export const explorerNftUrl = (explorerUrl: string | undefined, contract: string, tokenId: string): string | undefined =>
  explorerUrl === undefined ? undefined : `${explorerUrl.replace(/\/+$/, "")}/nft/${contract.slice(contract.lastIndexOf(":") + 1)}/${tokenId}`

/** What the visitor sent, as the Activity tab shows it until the service lists it. */
export interface SentTransaction {
  readonly hash: string
  readonly caipNetworkId: string
  readonly from: string
  readonly to: string
  /** Seconds-precise time it was sent (ISO 8601). */
  readonly sentAt: string
  /** The amount in whole units and its symbol, when known. */
  readonly amount?: { readonly numeric: string; readonly symbol: string } | undefined
}

/** The visitor's own transaction as a pending row of the activity list. */
export const pendingTransaction = (sent: SentTransaction): Transaction => ({
  id: sent.hash,
  metadata: {
    minedAt: sent.sentAt,
    chain: sent.caipNetworkId,
    operationType: "send",
    status: "pending",
    sentFrom: sent.from,
    sentTo: sent.to,
    hash: sent.hash
  },
  transfers:
    sent.amount === undefined
      ? []
      : [{ fungible_info: { symbol: sent.amount.symbol }, direction: "out", quantity: { numeric: sent.amount.numeric } }]
})

/**
 * The activity list with the visitor's own transactions still waiting on top (newest first), each shown once: a
 * pending one the service already lists is the service's row.
 */
export const withPending = (listed: ReadonlyArray<Transaction>, pending: ReadonlyArray<Transaction>): ReadonlyArray<Transaction> => {
  const known = new Set(listed.map((transaction) => transaction.metadata.hash ?? transaction.id))
  return [...pending.filter((transaction) => !known.has(transaction.metadata.hash ?? transaction.id)), ...listed]
}
