/**
 * The network button once the runtime runs (`<NetworkButton/>` renders it): the active network (marked when
 * unsupported); opens the Networks view. On a phone-sized screen it shows the network's icon alone (its accessible
 * name still says the network).
 */
import type { ReactNode } from "react"
import { isUnsupportedNetwork } from "../../../domain/Network"
import { useAtomSet, useAtomValue } from "../../atom-react/hooks"
import { openModalFn } from "../../atoms/modal"
import { activeNetworkAtom } from "../../atoms/networks"
import { preloadViews } from "../../views/registry"
import { HostButton } from "../../components/HostButton/HostButton"
import * as styles from "../../components/HostButton/HostButton.css"
import { Icon } from "../../components/Icon/Icon"
import { NetworkIcon } from "../../components/NetworkIcon/NetworkIcon"
import type { NetworkButtonProps } from "../props"

// The views this button opens are fetched as soon as the visitor points at it or focuses it.
const preload = () => preloadViews(["Networks"])

/** The active network; nothing until the runtime knows it. */
export function NetworkButtonView(props: NetworkButtonProps): ReactNode {
  const network = useAtomValue(activeNetworkAtom)
  const open = useAtomSet(openModalFn)
  if (network === undefined) return null
  const unsupported = isUnsupportedNetwork(network)
  return (
    <HostButton
      place="network"
      preload={preload}
      variant={unsupported ? "warning" : "neutral"}
      className={props.className}
      aria-label={`Network: ${network.name}. Change network`}
      onClick={() => open({ view: unsupported ? "UnsupportedChain" : "Networks" })}
    >
      {unsupported ? <Icon name="warning" size={18} /> : <NetworkIcon network={network} size={22} />}
      <span className={styles.wideOnly}>{network.name}</span>
    </HostButton>
  )
}
