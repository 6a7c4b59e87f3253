/**
 * `<ConnectButton/>`: opens the wallet modal. It says "Connecting…" while a wallet is asked and "Reconnecting…"
 * while a stored session is restored; once connected it shows the account (and opens it). It stays one button
 * throughout, so focus is never lost while its label changes.
 */
import type { ReactNode } from "react"
import type { ConnectionStatus } from "../../../domain/Account"
import type { ConnectionState } from "../../../services/Connection"
import { useAtomSet, useAtomValue } from "../../atom-react/hooks"
import { activeAccountAtom, connectionAtom } from "../../atoms/connection"
import { openModalFn } from "../../atoms/modal"
import { AccountName } from "../AccountButton/AccountButton"
import { OPENING_VIEWS, preloadViews } from "../../views/registry"
import { HostButton } from "../../components/HostButton/HostButton"
import { Spinner } from "../../components/Spinner/Spinner"

/** Props of {@link ConnectButton}. */
export interface ConnectButtonProps {
  /** The label while no wallet is connected; "Connect wallet" unless given. */
  readonly label?: string | undefined
  /** A class of the host's, added to the button. */
  readonly className?: string | undefined
}

/** The status the button shows: the account in front when connected, else any family connecting or reconnecting. */
const buttonStatus = (state: ConnectionState): ConnectionStatus => {
  const families = Object.values(state.namespaces)
  const front = state.activeNamespace !== undefined ? state.namespaces[state.activeNamespace]?.account.status : undefined
  if (front === "connected") return "connected"
  if (families.some((family) => family?.account.status === "connecting")) return "connecting"
  if (families.some((family) => family?.account.status === "reconnecting")) return "reconnecting"
  return "disconnected"
}

// The views this button opens are fetched as soon as the visitor points at it or focuses it.
const preload = () => preloadViews(OPENING_VIEWS)

/**
 * The button that opens the wallet modal.
 * @example <ConnectButton label="Sign in with a wallet" />
 */
export function ConnectButton(props: ConnectButtonProps): ReactNode {
  const status = useAtomValue(connectionAtom, buttonStatus)
  const account = useAtomValue(activeAccountAtom)
  const open = useAtomSet(openModalFn)
  const busy = status === "connecting" || status === "reconnecting"
  const connected = status === "connected" && account.address !== undefined
  return (
    <HostButton
      place="account"
      preload={preload}
      variant={connected ? "neutral" : "primary"}
      busy={busy}
      className={props.className}
      onClick={() => open(undefined)}
    >
      {busy && <Spinner />}
      {connected && account.address !== undefined ? (
        <AccountName address={account.address} />
      ) : status === "connecting" ? (
        "Connecting…"
      ) : status === "reconnecting" ? (
        "Reconnecting…"
      ) : (
        (props.label ?? "Connect wallet")
      )}
    </HostButton>
  )
}
