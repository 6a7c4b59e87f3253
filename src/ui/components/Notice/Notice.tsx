/** A message in the flow of a view: an error (announced at once) or a piece of information. */
import type { ReactNode } from "react"
import { Icon } from "../Icon/Icon"
import * as styles from "./Notice.css"

/** Props of {@link Notice}. */
export interface NoticeProps {
  readonly variant: "error" | "info"
  readonly title?: string | undefined
  readonly children?: ReactNode
}

/** An error or information message; errors are announced by screen readers as they appear. */
export function Notice(props: NoticeProps): ReactNode {
  return (
    <div className={styles.notice[props.variant]} role={props.variant === "error" ? "alert" : undefined}>
      {props.variant === "error" && <Icon name="warning" size={16} />}
      <div className={styles.body}>
        {props.title !== undefined && <span className={styles.title}>{props.title}</span>}
        {props.children !== undefined && <span>{props.children}</span>}
      </div>
    </div>
  )
}
