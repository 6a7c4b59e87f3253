/**
 * ConnectingExternal: the connect flow asking an installed (injected, announced, multi-chain) or external wallet
 * for its accounts, as the flow reports it: waiting for the visitor in the wallet, not answering after a while (with
 * Try again), declined (with Try again),
 * failed (the wallet's own words, with Try again). A catalogue wallet this page cannot reach says it is not
 * installed. Leaving the view stops waiting; the flow closes the modal once the wallet is connected.
 */
import type { ReactNode } from "react"
import { useAtomSet, useAtomValue } from "../../atom-react/hooks"
import { connectorsAtom, connectProgressAtom, retryConnectFn } from "../../atoms/connection"
import { Button } from "../../components/Button/Button"
import { Notice } from "../../components/Notice/Notice"
import { WalletIcon } from "../../components/WalletIcon/WalletIcon"
import { type VisitorError, visitorErrorOf } from "../errorText"
import type { ViewProps } from "../types"
import * as styles from "./ConnectingExternal.css"

/** The ConnectingExternal view. */
export function ConnectingExternal(props: ViewProps<"ConnectingExternal">): ReactNode {
  const { route, entryKey } = props
  const connector = useAtomValue(connectorsAtom, (list) => list.find((c) => c.id === route.connectorId))
  const progress = useAtomValue(connectProgressAtom)
  const retry = useAtomSet(retryConnectFn)
  const name = connector?.name ?? route.wallet?.name ?? "your wallet"
  const imageUrl = route.wallet?.image_url ?? connector?.imageUrl

  if (route.connectorId === undefined) {
    const homepage = route.wallet?.homepage ?? undefined
    return (
      <div className={styles.stage}>
        <WalletIcon name={name} src={imageUrl} size={64} />
        <h3 className={styles.heading}>{name} is not installed</h3>
        <p className={styles.text}>This browser has no {name} extension. Install it, then come back to connect.</p>
        {homepage !== undefined && (
          <a className={styles.link} href={homepage} target="_blank" rel="noreferrer noopener">
            Get {name}
          </a>
        )}
      </div>
    )
  }

  const mine = progress._tag !== "Idle" && progress.key === entryKey ? progress : undefined
  const failure: VisitorError | undefined = mine?._tag === "Failed" ? visitorErrorOf(mine.error) : undefined
  const done = mine?._tag === "Connected"
  // The wallet has not answered for a while (the flow's WALLET_LATE_MS): its request may still be open there.
  const late = mine?._tag === "Connecting" && mine.late === true
  const heading = done
    ? "Connected"
    : late
      ? `${name} has not answered`
      : failure === undefined
        ? `Continue in ${name}`
        : failure.tag === "UserRejected"
          ? "Connection declined"
          : failure.heading
  return (
    <div className={styles.stage}>
      <span className={styles.picture}>
        <WalletIcon name={name} src={imageUrl} size={64} />
        <span className={failure !== undefined ? styles.failedRing : mine?._tag === "Connecting" ? styles.ring : undefined} aria-hidden="true" />
      </span>
      <div role="status" aria-live="polite">
        <h3 className={styles.heading}>{heading}</h3>
      </div>
      {failure === undefined && !late && <p className={styles.text}>{done ? "Your wallet is connected." : "Accept the connection request in your wallet."}</p>}
      {late && (
        <>
          <p className={styles.text}>Check that {name} is open and unlocked: its request may be waiting there. Or ask it again.</p>
          <Button variant="secondary" onClick={() => retry(undefined)}>
            Try again
          </Button>
        </>
      )}
      {failure !== undefined && (
        <>
          {failure.tag !== "UserRejected" && <Notice variant="error">{failure.message}</Notice>}
          {failure.tag === "UserRejected" && <p className={styles.text}>The connection was declined in {name}.</p>}
          <Button variant="secondary" onClick={() => retry(undefined)}>
            Try again
          </Button>
        </>
      )}
    </div>
  )
}
