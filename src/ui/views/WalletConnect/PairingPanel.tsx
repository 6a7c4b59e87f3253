/**
 * The body both WalletConnect views share: the QR code of the pairing URI (or its placeholder), Copy link, and the
 * declined / failed states with Try again. Links to a particular wallet come in as `links`.
 */
import { type ReactNode, useState } from "react"
import { WalletConnectConnectorMissing } from "../../../domain/errors"
import { Button } from "../../components/Button/Button"
import { Notice } from "../../components/Notice/Notice"
import { QrCode, WALLET_CONNECT_QR_MASK } from "../../components/QrCode/QrCode"
import { Spinner } from "../../components/Spinner/Spinner"
import type { Pairing } from "./pairing"
import * as styles from "./WalletConnect.css"

/** Props of {@link PairingPanel}. */
export interface PairingPanelProps {
  readonly pairing: Pairing
  /** Who the code is for: "WalletConnect" or the wallet's name. */
  readonly name: string
  /** The wallet's icon (a URL or a data: URI), drawn in the centre of the code; none for WalletConnect itself. */
  readonly logo?: string | undefined
  /** Show the QR code (desktop); on a phone the wallet is opened by its link instead. */
  readonly showQr: boolean
  /** Links that open a wallet with the URI, under the code. */
  readonly links?: ReactNode
}

/** The pairing's QR code, links and states. */
export function PairingPanel(props: PairingPanelProps): ReactNode {
  const { pairing, name } = props
  const [copied, setCopied] = useState(false)
  if (pairing.walletConnect === undefined) {
    return (
      <div className={styles.stage}>
        <Spinner size={24} label="Starting WalletConnect" />
      </div>
    )
  }
  if (pairing.walletConnect.connector === undefined) {
    return (
      <div className={styles.stage}>
        <Notice variant="error" title="WalletConnect is not available">
          {new WalletConnectConnectorMissing().message}
        </Notice>
      </div>
    )
  }
  const failure = pairing.failure
  if (failure !== undefined) {
    const declined = failure.tag === "UserRejected"
    return (
      <div className={styles.stage}>
        <div role="status" aria-live="polite">
          <h3 className={styles.heading}>{declined ? "Connection declined" : failure.heading}</h3>
        </div>
        <Notice variant="error">{declined ? `The connection was declined in ${name}.` : failure.message}</Notice>
        <Button variant="secondary" onClick={pairing.retry}>
          Try again
        </Button>
      </div>
    )
  }
  const uri = pairing.uri
  const copy = () => {
    if (uri === undefined) return
    void navigator.clipboard?.writeText(uri).then(() => setCopied(true), () => setCopied(false))
  }
  return (
    <div className={styles.stage}>
      {props.showQr && (
        <div className={styles.qrBox}>
          {uri !== undefined ? (
            <QrCode value={uri} label={`QR code to connect with ${name}`} logo={props.logo} mask={WALLET_CONNECT_QR_MASK} />
          ) : (
            <Spinner size={24} label="Preparing the QR code" />
          )}
        </div>
      )}
      <div role="status" aria-live="polite">
        <h3 className={styles.heading}>{pairing.connected ? "Connected" : props.showQr ? `Scan with ${name}` : `Continue in ${name}`}</h3>
      </div>
      <p className={styles.text}>
        {pairing.connected
          ? "Your wallet is connected."
          : props.showQr
            ? "Scan this code with your phone's wallet, then approve the connection there."
            : "Open the wallet, then approve the connection there."}
      </p>
      <div className={styles.actions}>
        {props.links}
        <Button variant="secondary" icon={copied ? "check" : "copy"} disabled={uri === undefined} onClick={copy}>
          {copied ? "Link copied" : "Copy link"}
        </Button>
      </div>
    </div>
  )
}
