/** A small spinner; its label is read by screen readers unless the control around it already says it. */
import type { ReactNode } from "react"
import { visuallyHidden } from "../../theme/theme.css"
import * as styles from "./Spinner.css"

/** A spinner; `label` is announced (omit it when the surrounding control is already marked busy). */
export function Spinner(props: { readonly size?: number; readonly label?: string }): ReactNode {
  const size = props.size ?? 16
  return (
    <>
      <span className={styles.spinner} style={{ width: size, height: size }} aria-hidden="true" />
      {props.label !== undefined && <span className={visuallyHidden}>{props.label}</span>}
    </>
  )
}
