/** WalletConnectBasic: the remote-protocol view — a QR code any WalletConnect wallet scans (WalletConnect's mark in its centre), and Copy link. */
import type { ReactNode } from "react"
import { WALLET_CONNECT_ICON } from "../../../services/walletconnect/WalletConnect"
import type { ViewProps } from "../types"
import { usePairing } from "./pairing"
import { PairingPanel } from "./PairingPanel"

/** The WalletConnectBasic view. */
export function WalletConnectBasic(props: ViewProps<"WalletConnectBasic">): ReactNode {
  const pairing = usePairing(props.entryKey)
  return <PairingPanel pairing={pairing} name="WalletConnect" showQr logo={WALLET_CONNECT_ICON} />
}
