/**
 * The requested networks grouped by chain family, the one in front marked; choosing one switches to it (the wallet
 * is asked when one is connected; a network of another family puts that family's account in front) with its row
 * busy meanwhile and the failure's message below.
 */
import * as AsyncResult from "effect/reactivity/AsyncResult"
import { type ReactNode, useEffect, useId, useState } from "react"
import type { ChainNamespace } from "../../../domain/Caip"
import type { CaipNetwork } from "../../../domain/Network"
import { useAtomValue } from "../../atom-react/hooks"
import { networksStateAtom, switchNetworkFn } from "../../atoms/networks"
import { Icon } from "../../components/Icon/Icon"
import { ListItem, onListKeyDown } from "../../components/ListItem/ListItem"
import * as listStyles from "../../components/ListItem/ListItem.css"
import { NetworkIcon } from "../../components/NetworkIcon/NetworkIcon"
import { Notice } from "../../components/Notice/Notice"
import { Spinner } from "../../components/Spinner/Spinner"
import { useWalletRuntime } from "../../react/context"
import { visuallyHidden } from "../../theme/theme.css"
import { useAction } from "../useAction"
import * as styles from "./Networks.css"

/** How each chain family is named above its networks. */
export const FAMILY_NAMES: { readonly [N in ChainNamespace]: string } = {
  eip155: "EVM",
  solana: "Solana",
  bip122: "Bitcoin",
  polkadot: "Polkadot"
}

/** Props of {@link NetworkList}. */
export interface NetworkListProps {
  /** Called once a switch succeeded (or the active network was chosen again). */
  readonly onSwitched: () => void
  /** Mark no network as active (the wallet is on none of them). */
  readonly noneActive?: boolean
}

/** The requested networks, by family, for switching. */
export function NetworkList(props: NetworkListProps): ReactNode {
  const { onSwitched } = props
  const { options } = useWalletRuntime()
  const state = useAtomValue(networksStateAtom, (result) => AsyncResult.getOrElse(result, () => undefined))
  const switchNetwork = useAction(switchNetworkFn)
  const [pending, setPending] = useState<string | undefined>(undefined)
  const headingId = useId()

  const done = switchNetwork.status._tag === "Done"
  useEffect(() => {
    if (done) onSwitched()
  }, [done, onSwitched])

  if (state === undefined) return <Spinner size={24} label="Loading networks" />

  const families = [...new Set(state.requested.map((network) => network.chainNamespace))]
  const running = switchNetwork.status._tag === "Running"
  const choose = (network: CaipNetwork) => {
    // The network in front chosen again: nothing to do. Another family's network (even its active one) puts it in front.
    const inFront = state.activeNamespace === network.chainNamespace && state.active[network.chainNamespace]?.caipNetworkId === network.caipNetworkId
    if (props.noneActive !== true && inFront) {
      onSwitched()
      return
    }
    setPending(network.caipNetworkId)
    switchNetwork.start(network.caipNetworkId)
  }

  return (
    <>
      {!options.enableNetworkSwitch && <Notice variant="info">This site does not let you switch networks here.</Notice>}
      {families.map((family) => (
        <section key={family} className={styles.group} aria-labelledby={`${headingId}-${family}`}>
          <h3 id={`${headingId}-${family}`} className={families.length > 1 ? styles.groupTitle : visuallyHidden}>
            {FAMILY_NAMES[family]}
          </h3>
          <div className={listStyles.list} role="list" onKeyDown={onListKeyDown}>
            {state.requested
              .filter((network) => network.chainNamespace === family)
              .map((network) => {
                const current =
                  props.noneActive !== true && state.activeNamespace === family && state.active[family]?.caipNetworkId === network.caipNetworkId
                return (
                  <div role="listitem" key={network.caipNetworkId}>
                    <ListItem
                      icon={<NetworkIcon network={network} />}
                      label={network.name}
                      sublabel={network.testnet === true ? "Testnet" : undefined}
                      current={current}
                      busy={running && pending === network.caipNetworkId}
                      disabled={!options.enableNetworkSwitch || (running && pending !== network.caipNetworkId)}
                      trailing={current ? <Icon name="check" size={18} /> : undefined}
                      onClick={() => choose(network)}
                    />
                  </div>
                )
              })}
          </div>
        </section>
      ))}
      {switchNetwork.status._tag === "Failed" && (
        <Notice variant="error" title={switchNetwork.status.error.heading}>
          {switchNetwork.status.error.message}
        </Notice>
      )}
    </>
  )
}
