/** Buttons inside the modal: a labelled action with a busy state, and an icon-only button with an accessible name. */
import type { ReactNode, Ref } from "react"
import { Icon, type IconName } from "../Icon/Icon"
import { Spinner } from "../Spinner/Spinner"
import * as styles from "./Button.css"

/** Props of {@link Button}. */
export interface ButtonProps {
  readonly children: ReactNode
  readonly onClick?: () => void
  readonly variant?: keyof typeof styles.button
  /** The action runs: the button shows a spinner, is marked busy and cannot be pressed again. */
  readonly busy?: boolean
  readonly disabled?: boolean
  readonly fullWidth?: boolean
  readonly icon?: IconName
  readonly ref?: Ref<HTMLButtonElement> | undefined
}

/** A labelled action. */
export function Button(props: ButtonProps): ReactNode {
  const busy = props.busy === true
  return (
    <button
      ref={props.ref}
      type="button"
      className={[styles.button[props.variant ?? "primary"], props.fullWidth === true && styles.fullWidth].filter(Boolean).join(" ")}
      onClick={props.onClick}
      disabled={busy || props.disabled === true}
      aria-busy={busy || undefined}
    >
      {busy ? <Spinner /> : props.icon !== undefined && <Icon name={props.icon} size={18} />}
      {props.children}
    </button>
  )
}

/** An icon-only button; `label` is its accessible name. */
export function IconButton(props: { readonly icon: IconName; readonly label: string; readonly onClick: () => void }): ReactNode {
  return (
    <button type="button" className={styles.iconButton} onClick={props.onClick} aria-label={props.label} title={props.label}>
      <Icon name={props.icon} />
    </button>
  )
}
