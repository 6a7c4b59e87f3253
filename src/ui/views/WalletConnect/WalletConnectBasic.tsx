/**
 * WalletConnectBasic: the remote-protocol view — a QR code any WalletConnect wallet scans (WalletConnect's mark in its
 * centre), and Copy link. On a phone there is nothing to scan with: it offers the wallets instead, each opened by its
 * own link.
 */
import type { ReactNode } from "react"
import { WALLET_CONNECT_ICON } from "../../../services/walletconnect/WalletConnect"
import { useAtomSet, useAtomValue } from "../../atom-react/hooks"
import { pushRouteFn } from "../../atoms/modal"
import { isMobileAtom } from "../../atoms/platform"
import { Button } from "../../components/Button/Button"
import type { ViewProps } from "../types"
import { usePairing } from "./pairing"
import { PairingPanel } from "./PairingPanel"

/** The WalletConnectBasic view. */
export function WalletConnectBasic(props: ViewProps<"WalletConnectBasic">): ReactNode {
  const pairing = usePairing(props.entryKey)
  const isMobile = useAtomValue(isMobileAtom)
  const push = useAtomSet(pushRouteFn)
  const wallets = isMobile ? <Button onClick={() => push({ view: "AllWallets" })}>Choose your wallet</Button> : undefined
  return <PairingPanel pairing={pairing} name="WalletConnect" showQr={!isMobile} logo={WALLET_CONNECT_ICON} links={wallets} />
}
