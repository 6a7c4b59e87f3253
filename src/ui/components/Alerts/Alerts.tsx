/** Alerts of the catalogue (Invalid Project ID, Network Not Found…) shown at the top of the modal until dismissed. */
import { Effect } from "effect"
import type { ReactNode } from "react"
import { Notifications } from "../../../services/Notifications"
import { useAtomValue } from "../../atom-react/hooks"
import { notificationsAtom } from "../../atoms/notifications"
import { useWalletRuntime } from "../../react/WalletRuntimeProvider"
import { Icon } from "../Icon/Icon"
import * as styles from "./Alerts.css"

/** The alerts not dismissed yet, each with its code and a way to dismiss it. */
export function Alerts(): ReactNode {
  const runtime = useWalletRuntime()
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
            onClick={() => void runtime.run(Effect.flatMap(Notifications, (n) => n.dismissAlert(alert.id)))}
          >
            <Icon name="close" size={16} />
          </button>
        </li>
      ))}
    </ul>
  )
}
