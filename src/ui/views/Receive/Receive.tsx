/**
 * Receive: the address of the account in front as a QR code (our own renderer), in full, with a copy button, and
 * the networks it is valid on (the host's networks of its family: an EVM address receives on every EVM network, a
 * Solana address on Solana).
 */
import { type ReactNode, useId } from "react"
import { receiveNetworks } from "../../../domain/send"
import { useAtomSet, useAtomValue } from "../../atom-react/hooks"
import { activeAccountAtom } from "../../atoms/connection"
import { requestedNetworksAtom } from "../../atoms/networks"
import { showSnackbarFn } from "../../atoms/notifications"
import { Button } from "../../components/Button/Button"
import { NetworkIcon } from "../../components/NetworkIcon/NetworkIcon"
import { Notice } from "../../components/Notice/Notice"
import { QrCode } from "../../components/QrCode/QrCode"
import type { ViewProps } from "../types"
import * as styles from "./Receive.css"

/** The Receive view. */
export function Receive(_props: ViewProps<"Receive">): ReactNode {
  const account = useAtomValue(activeAccountAtom)
  const requested = useAtomValue(requestedNetworksAtom)
  const snackbar = useAtomSet(showSnackbarFn)
  const networksId = useId()
  const address = account.address
  if (account.status !== "connected" || address === undefined || account.namespace === undefined) {
    return <Notice variant="info">Connect a wallet to see its address.</Notice>
  }
  const networks = receiveNetworks(requested, account.namespace)
  const copy = () =>
    Promise.resolve()
      .then(() => navigator.clipboard.writeText(address))
      .then(
        () => snackbar({ variant: "success", message: "Address copied" }),
        () => snackbar({ variant: "error", message: "Could not copy the address" })
      )
  return (
    <div className={styles.column}>
      <QrCode value={address} label="QR code of your address" size={220} />
      <p className={styles.address} data-testid="receive-address">
        {address}
      </p>
      <Button variant="secondary" icon="copy" onClick={() => void copy()}>
        Copy address
      </Button>
      <p className={styles.note} id={networksId}>
        Send to this address only on {networks.length === 1 ? "this network" : "these networks"}:
      </p>
      <ul className={styles.networks} aria-labelledby={networksId}>
        {networks.map((network) => (
          <li key={network.caipNetworkId} className={styles.network}>
            <NetworkIcon network={network} size={20} />
            {network.name}
          </li>
        ))}
      </ul>
    </div>
  )
}
