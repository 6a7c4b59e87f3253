/**
 * `<NetworkButton/>`: the active network (marked when unsupported); opens the Networks view. On a phone-sized screen
 * it shows the network's icon alone (its accessible name still says the network).
 */
import { type ReactNode, useLayoutEffect, useRef } from "react"
import { FamilyMark } from "../../components/FamilyMark/FamilyMark"
import { HOST_BUTTON_ATTRIBUTE, HostButton } from "../../components/HostButton/HostButton"
import * as styles from "../../components/HostButton/HostButton.css"
import { WalletIcon } from "../../components/WalletIcon/WalletIcon"
import { type Core, useReady, useShell } from "../../react/context"
import { useCoreAction, useCoreValue, useIntentPreload } from "../../react/useCore"
import type { NetworkButtonProps } from "../props"

const pickOpen = (core: Core) => core.openModalFn
const pickActiveNetwork = (core: Core) => core.activeNetworkAtom
const ignore = () => {}
const NETWORKS_VIEW = ["Networks"] as const

/**
 * The active network. Until the runtime knows it (its code loads once the page is idle; on the server) it shows the
 * network the runtime starts on, so the header does not move when the runtime arrives.
 * @example <NetworkButton />
 */
export function NetworkButton(props: NetworkButtonProps): ReactNode {
  const shell = useShell()
  const ready = useReady()
  const open = useCoreAction(pickOpen)
  // The runtime's button once the runtime knows the network (its services start a moment after its code arrives).
  const known = useCoreValue(pickActiveNetwork, undefined) !== undefined
  const real = ready !== undefined && known
  const preload = useIntentPreload(NETWORKS_VIEW)
  // The button in waiting had focus when the code arrived: the button that replaces it takes it over.
  const focused = useRef(false)
  const place = useRef<HTMLSpanElement>(null)
  useLayoutEffect(() => {
    if (!real || !focused.current) return
    focused.current = false
    place.current?.querySelector<HTMLElement>(`[${HOST_BUTTON_ATTRIBUTE}]`)?.focus()
  }, [real])
  const network = shell.firstNetwork
  return (
    <span
      ref={place}
      className={styles.contents}
      onFocus={() => (focused.current = !real)}
      onBlur={() => (focused.current = false)}
    >
      {real ? (
        <ready.core.NetworkButton {...props} />
      ) : network === undefined ? null : (
        <HostButton
          place="network"
          preload={preload}
          variant="neutral"
          className={props.className}
          aria-label={`Network: ${network.name}. Change network`}
          onClick={() => void open({ view: "Networks" }).catch(ignore)}
        >
          <WalletIcon name={network.name} size={22} round fallback={<FamilyMark family={network.chainNamespace} size={13} />} />
          <span className={styles.wideOnly}>{network.name}</span>
        </HostButton>
      )}
    </span>
  )
}
