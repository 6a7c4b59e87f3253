/**
 * `<NetworkButton/>`: the active network (marked when unsupported); opens the Networks view. On a phone-sized screen
 * it shows the network's icon alone (its accessible name still says the network).
 */
import type { ReactNode } from "react"
import { useReady } from "../../react/context"
import type { NetworkButtonProps } from "../props"

/**
 * The active network; renders nothing until the runtime knows it (and on the server).
 * @example <NetworkButton />
 */
export function NetworkButton(props: NetworkButtonProps): ReactNode {
  const ready = useReady()
  return ready === undefined ? null : <ready.core.NetworkButton {...props} />
}
