/** Alerts of the catalogue (Invalid Project ID, Network Not Found…) shown at the top of the modal until dismissed. */
import type { ReactNode } from "react"
import { useAtomSet, useAtomValue } from "../../atom-react/hooks"
import { dismissAlertFn, notificationsAtom } from "../../atoms/notifications"
import { Icon } from "../Icon/Icon"
import * as styles from "./Alerts.css"

/** The alerts not dismissed yet, each with its code and a way to dismiss it. */
export function Alerts(): ReactNode {
  const dismiss = useAtomSet(dismissAlertFn)
  const alerts = useAtomValue(notificationsAtom, (state) => state.alerts)
  if (alerts.length === 0) return null
  return (
    <ul className={styles.list} aria-label="Alerts">
      {alerts.map((alert) => (
        <li key={alert.id} className={styles.alert} role="alert">
          <Icon name="warning" size={16} />
          <span className={styles.body}>
            <span className={styles.title}>
              {alert.shortMessage} ({alert.code})
            </span>
            <span>{alert.longMessage}</span>
          </span>
          <button
            type="button"
            className={styles.dismiss}
            aria-label={`Dismiss: ${alert.shortMessage}`}
            onClick={() => dismiss(alert.id)}
          >
            <Icon name="close" size={16} />
          </button>
        </li>
      ))}
    </ul>
  )
}
