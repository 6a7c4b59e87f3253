/**
 * UnsupportedChain: the wallet moved to a network this site does not offer. It says so, offers the requested
 * networks (a successful switch closes the modal) and a way to disconnect instead.
 */
import { type ReactNode, useCallback, useEffect } from "react"
import { useAtomSet, useAtomValue } from "../../atom-react/hooks"
import { activeAccountAtom, disconnectFn } from "../../atoms/connection"
import { closeModalFn } from "../../atoms/modal"
import { Button } from "../../components/Button/Button"
import { Notice } from "../../components/Notice/Notice"
import { NetworkList } from "../Networks/NetworkList"
import type { ViewProps } from "../types"
import { useAction } from "../useAction"
import * as styles from "./UnsupportedChain.css"

/** The UnsupportedChain view. */
export function UnsupportedChain(_props: ViewProps<"UnsupportedChain">): ReactNode {
  const close = useAtomSet(closeModalFn)
  const namespace = useAtomValue(activeAccountAtom, (account) => account.namespace)
  const disconnect = useAction(disconnectFn)
  const onSwitched = useCallback(() => close(undefined), [close])

  const disconnected = disconnect.status._tag === "Done"
  useEffect(() => {
    if (disconnected) close(undefined)
  }, [disconnected, close])

  return (
    <>
      <p className={styles.text}>
        Your wallet is on a network this site does not support. Switch to one of these networks to continue.
      </p>
      <NetworkList onSwitched={onSwitched} noneActive />
      {disconnect.status._tag === "Failed" && (
        <Notice variant="error" title={disconnect.status.error.heading}>
          {disconnect.status.error.message}
        </Notice>
      )}
      <Button variant="danger" icon="exit" fullWidth busy={disconnect.status._tag === "Running"} onClick={() => disconnect.start(namespace)}>
        Disconnect
      </Button>
    </>
  )
}
