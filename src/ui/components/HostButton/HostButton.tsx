/** The base of the buttons a host places on its page: themed and scoped like the modal, opening the modal. */
import type { ReactNode } from "react"
import { useThemeRoot } from "../../theme/useTheme"
import * as styles from "./HostButton.css"

/**
 * The attribute every host button carries, its value the button's place: when the button that opened the modal is
 * gone by the time it closes (a host showing its account button in place of the connect button once connected),
 * focus returns to the button now in the same place ("account"), else to any of ours.
 */
export const HOST_BUTTON_ATTRIBUTE = "data-wallet-runtime-button"

/** Where a host button stands for the visitor: the wallet (Connect or the account), or the network. */
export type HostButtonPlace = "account" | "network"

/** Props of {@link HostButton}. */
export interface HostButtonProps {
  readonly children: ReactNode
  readonly onClick: () => void
  readonly variant?: "primary" | "neutral" | "warning"
  /** The button's place: a Connect button and the account button that replaces it share "account". */
  readonly place: HostButtonPlace
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
      {...{ [HOST_BUTTON_ATTRIBUTE]: props.place }}
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
