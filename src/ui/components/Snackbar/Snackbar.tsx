/** The snackbar of the Notifications service, inside the modal; its region is always present so it is announced. */
import type { ReactNode } from "react"
import { useAtomValue } from "../../atom-react/hooks"
import { notificationsAtom } from "../../atoms/notifications"
import { Icon } from "../Icon/Icon"
import { Spinner } from "../Spinner/Spinner"
import * as styles from "./Snackbar.css"

/** The current snackbar message, announced politely. */
export function Snackbar(): ReactNode {
  const snackbar = useAtomValue(notificationsAtom, (state) => state.snackbar)
  return (
    <div className={styles.region} role="status" aria-live="polite">
      {snackbar !== undefined && (
        <div className={styles.snackbar[snackbar.variant]} key={snackbar.id} data-variant={snackbar.variant}>
          {snackbar.variant === "loading" ? <Spinner /> : snackbar.variant === "success" ? <Icon name="check" size={16} /> : null}
          <span>{snackbar.message}</span>
        </div>
      )}
    </div>
  )
}
