/** Props of the host buttons, apart from the components so the light part and the core both can name them. */

/** Props of `ConnectButton`. */
export interface ConnectButtonProps {
  /** The label while no wallet is connected; "Connect wallet" unless given. */
  readonly label?: string | undefined
  /** A class of the host's, added to the button. */
  readonly className?: string | undefined
}

/** Props of `AccountButton`. */
export interface AccountButtonProps {
  /** Show the balance beside the address (when known); on unless false. */
  readonly showBalance?: boolean | undefined
  readonly className?: string | undefined
}

/** Props of `NetworkButton`. */
export interface NetworkButtonProps {
  readonly className?: string | undefined
}
