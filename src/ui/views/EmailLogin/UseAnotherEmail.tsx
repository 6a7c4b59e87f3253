/** "Use another email" under the login's code and device views: back to the Connect view's field (the service's Back). */
import type { ReactNode } from "react"
import { useAtomSet } from "../../atom-react/hooks"
import { cancelLoginFn } from "../../atoms/embedded"
import * as styles from "./EmailLogin.css"

/** "Use another email": back to the Connect view's field. */
export function UseAnotherEmail(): ReactNode {
  const cancel = useAtomSet(cancelLoginFn)
  return (
    <button type="button" className={styles.linkButton} onClick={() => cancel(undefined)}>
      Use another email
    </button>
  )
}
