/**
 * ConnectingExternal: asks an installed (injected or announced) or external wallet for its accounts, on the active
 * network of the wallet's family, and follows the request: waiting for the visitor in the wallet, declined (with
 * Retry), failed (the catalogue's message, with Retry). Once connected, the modal shows the account.
 */
import { type ReactNode, useEffect, useRef } from "react"
import * as AsyncResult from "effect/reactivity/AsyncResult"
import type { ChainNamespace } from "../../../domain/Caip"
import type { CaipNetwork } from "../../../domain/Network"
import type { ConnectRequest } from "../../../services/Connection"
import type { NetworksState } from "../../../services/Networks"
import { useAtomValue } from "../../atom-react/hooks"
import { connectFn, connectorsAtom, connectorsStateAtom } from "../../atoms/connection"
import { networksStateAtom } from "../../atoms/networks"
import { Button } from "../../components/Button/Button"
import { useModalNavigation } from "../../components/Modal/navigation"
import { Notice } from "../../components/Notice/Notice"
import { Spinner } from "../../components/Spinner/Spinner"
import { WalletIcon } from "../../components/WalletIcon/WalletIcon"
import type { ViewProps } from "../registry"
import { useAction } from "../useAction"
import { connectorFor, connectorsReported } from "../walletEntries"
import * as styles from "./ConnectingExternal.css"

/** The network a family connects on: its active one, else its first requested one. */
const networkOf = (state: NetworksState | undefined, namespace: ChainNamespace): CaipNetwork | undefined =>
  state?.active[namespace] ?? state?.requested.find((network) => network.chainNamespace === namespace)

/** The ConnectingExternal view. */
export function ConnectingExternal(props: ViewProps): ReactNode {
  const { data } = props
  const connectorsLoaded = useAtomValue(connectorsStateAtom, connectorsReported)
  const connectors = useAtomValue(connectorsAtom)
  const networks = useAtomValue(networksStateAtom, (result) => AsyncResult.getOrElse(result, () => undefined))
  const connect = useAction(connectFn)
  const navigation = useModalNavigation()

  const connector =
    data.connectorId !== undefined
      ? connectors.find((c) => c.id === data.connectorId && (data.namespace === undefined || c.chain === data.namespace))
      : data.wallet !== undefined
        ? connectorFor(data.wallet, connectors)
        : undefined
  const network = connector !== undefined ? networkOf(networks, connector.chain) : undefined
  const request: ConnectRequest | undefined =
    connector !== undefined && network !== undefined
      ? { namespace: connector.chain, connectorId: connector.id, network, ...(data.wallet !== undefined ? { wallet: data.wallet } : {}) }
      : undefined
  const name = connector?.name ?? data.wallet?.name ?? "your wallet"
  const imageUrl = data.wallet?.image_url ?? connector?.imageUrl

  // The wallet is asked once when the view opens (StrictMode runs effects twice; the visitor must see one prompt).
  const asked = useRef(false)
  useEffect(() => {
    if (asked.current || request === undefined) return
    asked.current = true
    connect.run(request)
  })

  const done = connect.status._tag === "Done"
  useEffect(() => {
    if (done) void navigation.resetFrom("ConnectingExternal", "Account")
  }, [done, navigation])

  if (connector === undefined) {
    if (!connectorsLoaded) {
      return (
        <div className={styles.stage}>
          <Spinner size={24} label={`Looking for ${name}`} />
        </div>
      )
    }
    const homepage = data.wallet?.homepage ?? undefined
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

  if (network === undefined) {
    return (
      <div className={styles.stage}>
        <Notice variant="error" title="No network for this wallet">
          None of this site's networks belongs to the {connector.chain} family.
        </Notice>
      </div>
    )
  }

  const status = connect.status
  const failed = status._tag === "Failed"
  const heading = done
    ? "Connected"
    : !failed
      ? `Continue in ${name}`
      : status.error.tag === "UserRejected"
        ? "Connection declined"
        : status.error.heading
  return (
    <div className={styles.stage}>
      <span className={styles.picture}>
        <WalletIcon name={name} src={imageUrl} size={64} />
        <span className={failed ? styles.failedRing : status._tag === "Running" ? styles.ring : undefined} aria-hidden="true" />
      </span>
      <div role="status" aria-live="polite">
        <h3 className={styles.heading}>{heading}</h3>
      </div>
      {!failed && <p className={styles.text}>{done ? "Opening your account…" : "Accept the connection request in your wallet."}</p>}
      {failed && (
        <>
          <Notice variant="error">{status.error.message}</Notice>
          <Button variant="secondary" onClick={() => request !== undefined && connect.run(request)}>
            Try again
          </Button>
        </>
      )}
    </div>
  )
}
