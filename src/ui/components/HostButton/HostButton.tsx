/** The base of the buttons a host places on its page: themed and scoped like the modal, opening the modal. */
import type { ReactNode } from "react"
import { useThemeRoot } from "../../theme/useTheme"
import * as styles from "./HostButton.css"

/** Props of {@link HostButton}. */
export interface HostButtonProps {
  readonly children: ReactNode
  readonly onClick: () => void
  readonly variant?: "primary" | "neutral" | "warning"
  readonly busy?: boolean
  /** A class of the host's, added after ours. */
  readonly className?: string | undefined
  readonly "aria-label"?: string | undefined
  /** Called when the visitor shows intent (pointer over, focus, touch): the modal's code is fetched then. */
  readonly preload?: (() => void) | undefined
}

/** A themed button that opens the wallet modal. */
export function HostButton(props: HostButtonProps): ReactNode {
  const theme = useThemeRoot(
    styles.hostButton,
    props.variant === "primary" && styles.primary,
    props.variant === "warning" && styles.warning,
    props.className
  )
  return (
    <button
      type="button"
      {...theme}
      aria-haspopup="dialog"
      aria-busy={props.busy === true || undefined}
      aria-label={props["aria-label"]}
      onClick={props.onClick}
      onPointerEnter={props.preload}
      onFocus={props.preload}
      onTouchStart={props.preload}
    >
      {props.children}
    </button>
  )
}
