/**
 * `<ConnectButton/>`: opens the wallet modal. It says "Connecting…" while a wallet is asked and "Reconnecting…"
 * while a stored session is restored; once connected it shows the account (and opens it). It stays one button
 * throughout, so focus is never lost while its label changes.
 */
import type { ReactNode } from "react"
import type { ConnectionStatus } from "../../../domain/Account"
import type { ConnectionState } from "../../../services/Connection"
import { type Core, useReady, useRestoring } from "../../react/context"
import { NO_ACCOUNT } from "../../react/fallbacks"
import { useCoreAction, useCoreValue, useIntentPreload } from "../../react/useCore"
import { openingViews } from "../../views/registry"
import { HostButton } from "../../components/HostButton/HostButton"
import { Spinner } from "../../components/Spinner/Spinner"
import type { ConnectButtonProps } from "../props"

/** The status the button shows: the account in front when connected, else any family connecting or reconnecting. */
const buttonStatus = (state: ConnectionState): ConnectionStatus => {
  const families = Object.values(state.namespaces)
  const front = state.activeNamespace !== undefined ? state.namespaces[state.activeNamespace]?.account.status : undefined
  if (front === "connected") return "connected"
  if (families.some((family) => family?.account.status === "connecting")) return "connecting"
  if (families.some((family) => family?.account.status === "reconnecting")) return "reconnecting"
  return "disconnected"
}

const pickConnection = (core: Core) => core.connectionAtom
const pickAccount = (core: Core) => core.activeAccountAtom
const pickOpen = (core: Core) => core.openModalFn
const disconnected: ConnectionStatus = "disconnected"

/**
 * The button that opens the wallet modal.
 * @example <ConnectButton label="Sign in with a wallet" />
 */
export function ConnectButton(props: ConnectButtonProps): ReactNode {
  const ready = useReady()
  const restoring = useRestoring()
  const known = useCoreValue(pickConnection, disconnected, buttonStatus)
  const status = restoring ? "reconnecting" : known
  const account = useCoreValue(pickAccount, NO_ACCOUNT)
  const open = useCoreAction(pickOpen)
  const busy = status === "connecting" || status === "reconnecting"
  const connected = status === "connected" && account.address !== undefined
  const preload = useIntentPreload(openingViews(connected || restoring))
  return (
    <HostButton
      place="account"
      preload={preload}
      variant={connected ? "neutral" : "primary"}
      busy={busy}
      className={props.className}
      onClick={() => void open(undefined).catch(() => {})}
    >
      {busy && <Spinner />}
      {connected && account.address !== undefined && ready !== undefined ? (
        <ready.core.AccountName address={account.address} />
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
