/** A row of a list (a wallet, a network): a button with an icon, a label, an optional tag and a trailing mark. */
import type { KeyboardEvent, ReactNode } from "react"
import { Spinner } from "../Spinner/Spinner"
import * as styles from "./ListItem.css"

/** Props of {@link ListItem}. */
export interface ListItemProps {
  readonly icon?: ReactNode
  readonly label: string
  readonly sublabel?: string | undefined
  /** A short mark after the label, e.g. "Installed". */
  readonly tag?: string | undefined
  readonly trailing?: ReactNode
  /** The current choice (the active network): announced as current. */
  readonly current?: boolean
  readonly busy?: boolean
  readonly disabled?: boolean
  readonly onClick: () => void
  readonly onFocus?: () => void
  /**
   * The visitor shows intent (the pointer enters the row, a finger touches it): what the row opens can be fetched then.
   * Focus is not intent here: the dialog focuses its first row as it opens.
   */
  readonly onIntent?: (() => void) | undefined
  /** Tab stop of the row: lists with many rows keep one row tabbable and move with the arrow keys. */
  readonly tabIndex?: number
  readonly index?: number
}

/** Marks a row for the arrow-key navigation of {@link onListKeyDown}. */
export const LIST_ITEM_ATTRIBUTE = "data-wr-item"

/** A row of a list. */
export function ListItem(props: ListItemProps): ReactNode {
  const busy = props.busy === true
  return (
    <button
      type="button"
      className={styles.item}
      onClick={props.onClick}
      onFocus={props.onFocus}
      onPointerEnter={props.onIntent}
      onTouchStart={props.onIntent}
      disabled={busy || props.disabled === true}
      aria-busy={busy || undefined}
      aria-current={props.current === true ? "true" : undefined}
      tabIndex={props.tabIndex}
      data-index={props.index}
      {...{ [LIST_ITEM_ATTRIBUTE]: "" }}
    >
      {props.icon}
      <span className={styles.text}>
        <span className={styles.label}>{props.label}</span>
        {props.sublabel !== undefined && <span className={styles.sublabel}>{props.sublabel}</span>}
      </span>
      {props.tag !== undefined && <span className={styles.tag}>{props.tag}</span>}
      {busy ? <Spinner /> : props.trailing !== undefined && <span className={styles.trailing}>{props.trailing}</span>}
    </button>
  )
}

/** A row still coming (the catalogue's wallets): holds a row's place, hidden from assistive technology. */
export function ListItemSkeleton(): ReactNode {
  return (
    <div className={styles.skeleton} aria-hidden="true" data-wr-skeleton="">
      <span className={styles.skeletonIcon} />
      <span className={styles.skeletonLabel} />
    </div>
  )
}

/**
 * Arrow keys (and Home/End) move focus between the rows of the list the event comes from; Tab still leaves the
 * list as usual.
 */
export const onListKeyDown = (event: KeyboardEvent<HTMLElement>): void => {
  const moves: Record<string, (index: number, count: number) => number> = {
    ArrowDown: (index, count) => Math.min(index + 1, count - 1),
    ArrowUp: (index) => Math.max(index - 1, 0),
    Home: () => 0,
    End: (_index, count) => count - 1
  }
  const move = moves[event.key]
  if (move === undefined) return
  const rows = [...event.currentTarget.querySelectorAll<HTMLElement>(`[${LIST_ITEM_ATTRIBUTE}]:not(:disabled)`)]
  if (rows.length === 0) return
  const index = rows.findIndex((row) => row === document.activeElement)
  event.preventDefault()
  rows[move(index === -1 ? 0 : index, rows.length)]?.focus()
}
