/** WalletConnectBasic: the remote-protocol view — a QR code any WalletConnect wallet scans, and Copy link. */
import type { ReactNode } from "react"
import type { ViewProps } from "../registry"
import { PairingPanel } from "./PairingPanel"
import { usePairing } from "./usePairing"

/** The WalletConnectBasic view. */
export function WalletConnectBasic(_props: ViewProps): ReactNode {
  const pairing = usePairing("WalletConnectBasic", undefined)
  return <PairingPanel pairing={pairing} name="WalletConnect" showQr />
}
