/** What the account's panels show while they load and when a read failed, the same in every tab. */
import type { ReactNode } from "react"
import { Button } from "../../../components/Button/Button"
import { ListItemSkeleton } from "../../../components/ListItem/ListItem"
import { visuallyHidden } from "../../../theme/theme.css"
import * as styles from "./PanelStates.css"

/** Rows still coming, marked busy; `label` is what assistive technology hears. */
export function PanelLoading(props: { readonly label: string; readonly rows?: number }): ReactNode {
  return (
    <div aria-busy="true">
      <span className={visuallyHidden}>{props.label}</span>
      {Array.from({ length: props.rows ?? 3 }, (_, index) => (
        <ListItemSkeleton key={index} />
      ))}
    </div>
  )
}

/** A read that failed: the service's words ('Failed to fetch transactions') and Try again. */
export function PanelFailure(props: { readonly message: string; readonly onRetry: () => void }): ReactNode {
  return (
    <div className={styles.note} role="alert">
      <p>{props.message}</p>
      <Button variant="secondary" onClick={props.onRetry}>
        Try again
      </Button>
    </div>
  )
}

/** The words a panel shows instead of its list ('No activity yet.'); `status` announces them as they change. */
export function PanelNote(props: { readonly children: ReactNode; readonly status?: boolean }): ReactNode {
  return (
    <p className={styles.note} role={props.status === true ? "status" : undefined}>
      {props.children}
    </p>
  )
}
