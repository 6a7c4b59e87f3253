/**
 * ConnectingWalletConnect: one catalogue wallet over WalletConnect. On a desktop, its QR code, and its desktop app
 * and web app when the catalogue has them; on a phone, the link that opens the wallet app with the pairing.
 */
import type { ReactNode } from "react"
import { walletLink } from "../../../services/walletconnect/links"
import { useAtomValue } from "../../atom-react/hooks"
import { isMobileAtom } from "../../atoms/platform"
import { WalletIcon } from "../../components/WalletIcon/WalletIcon"
import type { ViewProps } from "../types"
import { usePairing } from "./pairing"
import { PairingPanel } from "./PairingPanel"
import * as styles from "./WalletConnect.css"

/** The ConnectingWalletConnect view. */
export function ConnectingWalletConnect(props: ViewProps<"ConnectingWalletConnect">): ReactNode {
  const wallet = props.route.wallet
  const pairing = usePairing(props.entryKey)
  const isMobile = useAtomValue(isMobileAtom)
  const name = wallet.name
  const uri = pairing.uri
  const link = (label: string, base: string | null | undefined, newTab: boolean) => {
    if (base === null || base === undefined || base === "" || uri === undefined) return null
    const href = walletLink(base, uri)
    if (href === undefined) return null
    return (
      <a
        className={styles.linkButton}
        href={href}
        onClick={() => pairing.followed(href)}
        {...(newTab ? { target: "_blank", rel: "noreferrer noopener" } : {})}
      >
        {label}
      </a>
    )
  }
  const mobileLink = wallet.mobile_link ?? undefined
  const links = isMobile ? (
    <>
      {link(`Open ${name}`, mobileLink, false)}
      {(mobileLink === undefined || mobileLink === "") && link(`Open ${name} web app`, wallet.webapp_link, true)}
    </>
  ) : (
    <>
      {link("Open desktop app", wallet.desktop_link, false)}
      {link("Open web app", wallet.webapp_link, true)}
    </>
  )
  return (
    <>
      <div className={styles.stage}>
        <WalletIcon name={name} src={wallet.image_url} size={48} />
      </div>
      <PairingPanel pairing={pairing} name={name} logo={wallet.image_url} showQr={!isMobile} links={links} />
    </>
  )
}
