/**
 * The Activity tab: the account's transactions on its network from the history endpoint, grouped by the visitor's
 * day, newest first; each row says what happened, with the spec's sign, the transfer images (a pair unless both are
 * NFTs), its status, and a link to the explorer. More pages load as the end of the list comes into view (or on
 * "Load more"); a failed read says 'Failed to fetch transactions' with a retry (spec 4, 7.7, 8).
 */
import * as AsyncResult from "effect/reactivity/AsyncResult"
import { type ReactNode, useCallback } from "react"
import type { Transaction } from "../../../../domain/Portfolio"
import { activityByDay, activityRow, explorerTransactionUrl } from "../../../../domain/portfolioView"
import { useAtomSet, useAtomValue } from "../../../atom-react/hooks"
import { activityAtom, loadMoreActivityAtom } from "../../../atoms/account"
import { activeNetworkAtom } from "../../../atoms/networks"
import { WalletIcon } from "../../../components/WalletIcon/WalletIcon"
import { visuallyHidden } from "../../../theme/theme.css"
import { LoadMore } from "../LoadMore/LoadMore"
import { PanelFailure, PanelLoading, PanelNote } from "../PanelStates/PanelStates"
import * as styles from "./Activity.css"

const timeOf = new Intl.DateTimeFormat("en-US", { hour: "numeric", minute: "2-digit" })

const whenText = (transaction: Transaction): string => {
  if (transaction.metadata.status === "pending") return "Pending"
  const mined = new Date(transaction.metadata.minedAt)
  return Number.isNaN(mined.getTime()) ? "" : timeOf.format(mined)
}

function Row(props: { readonly transaction: Transaction; readonly explorerUrl: string | undefined }): ReactNode {
  const row = activityRow(props.transaction)
  const href = explorerTransactionUrl(props.explorerUrl, row.hash)
  const [first, second] = row.images
  const [firstName, secondName] = row.imageNames
  const content = (
    <>
      <span className={styles.images} aria-hidden="true">
        <WalletIcon name={firstName ?? row.title} src={first} size={row.pair ? 28 : 36} round />
        {row.pair && (
          <span className={styles.second}>
            <WalletIcon name={secondName ?? row.title} src={second} size={28} round />
          </span>
        )}
      </span>
      <span className={styles.text}>
        <span className={styles.title}>{row.title}</span>
        {row.status === "failed" ? <span className={styles.failed}>Failed</span> : <span className={styles.detail}>{whenText(props.transaction)}</span>}
      </span>
      {row.amount !== "" && (
        <span className={[styles.amount, row.sign === "+" && styles.plus].filter(Boolean).join(" ")} title={row.amount}>
          {row.sign === "" ? row.amount : `${row.sign === "-" ? "−" : "+"}${row.amount}`}
        </span>
      )}
      {href !== undefined && <span className={visuallyHidden}> (opens the explorer)</span>}
    </>
  )
  return (
    <li>
      {href === undefined ? (
        <div className={styles.row}>{content}</div>
      ) : (
        <a className={styles.row} href={href} target="_blank" rel="noopener noreferrer">
          {content}
        </a>
      )}
    </li>
  )
}

/** The Activity tab's panel. */
export function Activity(): ReactNode {
  const result = useAtomValue(activityAtom)
  const network = useAtomValue(activeNetworkAtom)
  const setLoadMore = useAtomSet(loadMoreActivityAtom)
  const loadMore = useCallback(() => setLoadMore(undefined), [setLoadMore])
  const state = AsyncResult.getOrElse(result, () => undefined)
  if (state === undefined || (state.loading && state.items.length === 0)) {
    return <PanelLoading label="Loading activity" />
  }
  if (state.error !== undefined) {
    return <PanelFailure message={state.error.message} onRetry={loadMore} />
  }
  if (state.items.length === 0) return <PanelNote>No activity yet.</PanelNote>
  const explorerUrl = network?.blockExplorers?.default.url
  return (
    <div>
      {activityByDay(state.items, new Date()).map((day) => (
        <section key={day.day} aria-label={day.label}>
          <h4 className={styles.day}>{day.label}</h4>
          <ul className={styles.list}>
            {day.transactions.map((transaction) => (
              <Row key={transaction.id} transaction={transaction} explorerUrl={explorerUrl} />
            ))}
          </ul>
        </section>
      ))}
      <LoadMore state={state} loadMore={loadMore} label="Loading more activity" />
    </div>
  )
}
