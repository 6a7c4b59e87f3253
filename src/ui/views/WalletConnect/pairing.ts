/**
 * What both WalletConnect views read: WalletConnect's connector and pairing URI, and the connect flow's progress for
 * the view's own history entry. The flow starts pairing when the view opens and stops when the visitor leaves.
 */
import { useAtomSet, useAtomValue } from "../../atom-react/hooks"
import { connectProgressAtom, followedLinkFn, retryConnectFn } from "../../atoms/connection"
import { walletConnectAtom, type WalletConnectView } from "../../atoms/walletConnect"
import { type VisitorError, visitorErrorOf } from "../errorText"

/** The pairing of a WalletConnect view. */
export interface Pairing {
  /** WalletConnect's connector and pairing; `undefined` while the runtime starts. */
  readonly walletConnect: WalletConnectView | undefined
  /** The pairing URI to show, once there is one. */
  readonly uri: string | undefined
  readonly connected: boolean
  readonly failure: VisitorError | undefined
  /** Asks again (after a refusal or failure). */
  readonly retry: () => void
  /** Remembers the wallet link the visitor followed, stored with the session. */
  readonly followed: (href: string) => void
}

/** The pairing of the WalletConnect view showing history entry `entryKey`. */
export function usePairing(entryKey: number): Pairing {
  const walletConnect = useAtomValue(walletConnectAtom)
  const progress = useAtomValue(connectProgressAtom)
  const retry = useAtomSet(retryConnectFn)
  const followed = useAtomSet(followedLinkFn)
  const mine = progress._tag !== "Idle" && progress.key === entryKey ? progress : undefined
  const pairing = walletConnect?.pairing
  return {
    walletConnect,
    uri: pairing?._tag === "Ready" ? pairing.uri : undefined,
    connected: mine?._tag === "Connected",
    failure: mine?._tag === "Failed" ? visitorErrorOf(mine.error) : undefined,
    retry: () => retry(undefined),
    followed: (href) => followed(href)
  }
}
