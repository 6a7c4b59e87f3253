/**
 * Connect: the wallets the visitor can use, in the order of spec point 9 (WalletConnect, recent, installed and
 * announced, featured — the catalogue's 4, the host's featured ones first, then recommended —, the host's custom
 * wallets, external), each listed once; installed wallets are marked; "All wallets" leads to the full list.
 */
import type { ReactNode } from "react"
import type { ConnectorGroup } from "../../../domain/constants"
import { orderConnectors } from "../../../domain/rules"
import { useAtomValue } from "../../atom-react/hooks"
import { connectionAtom, connectorsAtom, connectorsStateAtom } from "../../atoms/connection"
import { customWalletsAtom, featuredWalletsAtom } from "../../atoms/wallets"
import { Icon } from "../../components/Icon/Icon"
import { ListItem, onListKeyDown } from "../../components/ListItem/ListItem"
import * as listStyles from "../../components/ListItem/ListItem.css"
import { useModalNavigation } from "../../components/Modal/navigation"
import { Notice } from "../../components/Notice/Notice"
import { Spinner } from "../../components/Spinner/Spinner"
import { WalletIcon } from "../../components/WalletIcon/WalletIcon"
import { useWalletRuntime } from "../../react/WalletRuntimeProvider"
import type { ViewProps } from "../registry"
import { useIsMobile } from "../usePlatform"
import { connectorEntry, connectorsReported, listingEntry, routeOf, type WalletEntry, viewOf, walletEntry } from "../walletEntries"
import * as styles from "./Connect.css"

/** The Connect view. */
export function Connect(_props: ViewProps): ReactNode {
  const { options } = useWalletRuntime()
  const connectors = useAtomValue(connectorsAtom)
  const loaded = useAtomValue(connectorsStateAtom, connectorsReported)
  const recent = useAtomValue(connectionAtom, (state) => state.recentWallets)
  // Reading these starts the catalogue's first fetch: the modal is open, the visitor asked for wallets.
  const featured = useAtomValue(featuredWalletsAtom)
  const custom = useAtomValue(customWalletsAtom)
  const isMobile = useIsMobile()
  const navigation = useModalNavigation()

  const groups: Partial<Record<ConnectorGroup, ReadonlyArray<WalletEntry>>> = {
    walletConnect: connectors.filter((c) => c.type === "WALLET_CONNECT").map(connectorEntry),
    recent: recent.map((wallet) => walletEntry(wallet, connectors)),
    injected: connectors.filter((c) => c.type === "INJECTED" || c.type === "ANNOUNCED").map(connectorEntry),
    // The service's featured list already puts the host's featured wallets before the recommended ones.
    featured: featured.map(listingEntry),
    custom: custom.map(listingEntry),
    external: connectors.filter((c) => c.type === "EXTERNAL" || c.type === "MULTI_CHAIN" || c.type === "AUTH").map(connectorEntry)
  }
  const rows = orderConnectors(groups, (entry) => entry.key)
  const showAllWallets =
    options.features.allWallets && (options.allWallets === "SHOW" || (options.allWallets === "ONLY_MOBILE" && isMobile))

  if (!loaded) return <Spinner size={24} label="Looking for wallets" />
  return (
    <>
      {rows.length === 0 && <Notice variant="info">No wallet was found in this browser.</Notice>}
      <div className={listStyles.list} role="list" aria-label="Wallets" onKeyDown={onListKeyDown}>
        {rows.map(({ group, item }) => (
          <div role="listitem" key={`${group}:${item.key}`}>
            <ListItem
              icon={<WalletIcon name={item.name} src={item.imageUrl} />}
              label={item.name}
              tag={group === "recent" ? "Recent" : item.installed ? "Installed" : undefined}
              trailing={<Icon name="forward" size={18} />}
              onClick={() => void navigation.push(viewOf(item), routeOf(item))}
            />
          </div>
        ))}
        {showAllWallets && (
          <div role="listitem">
            <ListItem
              icon={<Icon name="grid" size={32} />}
              label="All wallets"
              trailing={<Icon name="forward" size={18} />}
              onClick={() => void navigation.push("AllWallets")}
            />
          </div>
        )}
      </div>
      {(options.termsConditionsUrl !== undefined || options.privacyPolicyUrl !== undefined) && (
        <p className={styles.legal}>
          By connecting a wallet, you agree to this site's{" "}
          {options.termsConditionsUrl !== undefined && (
            <a className={styles.link} href={options.termsConditionsUrl} target="_blank" rel="noreferrer noopener">
              Terms
            </a>
          )}
          {options.termsConditionsUrl !== undefined && options.privacyPolicyUrl !== undefined && " and "}
          {options.privacyPolicyUrl !== undefined && (
            <a className={styles.link} href={options.privacyPolicyUrl} target="_blank" rel="noreferrer noopener">
              Privacy Policy
            </a>
          )}
          .
        </p>
      )}
    </>
  )
}
