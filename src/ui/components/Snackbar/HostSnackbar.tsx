/**
 * The snackbar while the modal is closed: what a host-initiated action says ('Transaction started', its result, a
 * failure in the wallet's words) reaches the visitor without the modal, at the bottom of the page, announced
 * politely. While the modal is open its own snackbar shows the message instead, so it is never said twice.
 */
import type { ReactNode } from "react"
import { createPortal } from "react-dom"
import { useAtomValue } from "../../atom-react/hooks"
import { modalAtom } from "../../atoms/modal"
import { notificationsAtom } from "../../atoms/notifications"
import { useThemeRoot } from "../../theme/useTheme"
import { Icon } from "../Icon/Icon"
import { Spinner } from "../Spinner/Spinner"
import * as styles from "./Snackbar.css"

/** The page's snackbar region; the provider renders it once the runtime is there. */
export function HostSnackbar(): ReactNode {
  const snackbar = useAtomValue(notificationsAtom, (state) => state.snackbar)
  const modalOpen = useAtomValue(modalAtom, (state) => state?.open === true)
  const theme = useThemeRoot(styles.hostRegion)
  const shown = modalOpen ? undefined : snackbar
  if (typeof document === "undefined") return null
  return createPortal(
    <div {...theme} data-wallet-runtime="notifications" role="status" aria-live="polite">
      {shown !== undefined && (
        <div className={styles.snackbar[shown.variant]} key={shown.id} data-variant={shown.variant}>
          {shown.variant === "loading" ? <Spinner /> : shown.variant === "success" ? <Icon name="check" size={16} /> : null}
          <span>{shown.message}</span>
        </div>
      )}
    </div>,
    document.body
  )
}
