/**
 * Connect: the wallets the visitor can use, in the order of spec point 9 (WalletConnect, recent, installed and
 * announced — a wallet reachable in several families is one row —, featured — the catalogue's 4, the host's
 * featured ones first, then recommended —, the host's custom wallets, external), each listed once; installed
 * wallets are marked; "All wallets" leads to the full list. Choosing a row hands it to the connect flow.
 */
import { type ReactNode, useContext } from "react"
import { CONNECTOR_ORDER, type ConnectorGroup, FEATURED_WALLETS_COUNT } from "../../../domain/constants"
import { orderConnectors } from "../../../domain/rules"
import { useAtomSet, useAtomValue } from "../../atom-react/hooks"
import { chooseWalletFn, connectionAtom, connectorsAtom, connectorsStateAtom } from "../../atoms/connection"
import { pushRouteFn } from "../../atoms/modal"
import { isMobileAtom } from "../../atoms/platform"
import {
  customWalletsAtom,
  featuredNotAskedAtom,
  featuredPendingAheadAtom,
  featuredWalletsAtom,
  featuredWalletsPendingAtom
} from "../../atoms/wallets"
import { Icon } from "../../components/Icon/Icon"
import { LaidOutAhead } from "../../components/laidOutAhead"
import { ListItem, ListItemSkeleton, onListKeyDown } from "../../components/ListItem/ListItem"
import * as listStyles from "../../components/ListItem/ListItem.css"
import { Notice } from "../../components/Notice/Notice"
import { Spinner } from "../../components/Spinner/Spinner"
import { WalletIcon } from "../../components/WalletIcon/WalletIcon"
import { useWalletRuntime } from "../../react/context"
import type { ViewProps } from "../types"
import { choiceOf, connectorEntry, connectorsReported, installedConnectors, listingEntry, type WalletEntry, walletEntry } from "../walletEntries"
import * as styles from "./Connect.css"

// The groups listed above the catalogue's rows, in spec 9's order.
const BEFORE_FEATURED: ReadonlyArray<ConnectorGroup> = CONNECTOR_ORDER.slice(0, CONNECTOR_ORDER.indexOf("featured"))

/** The Connect view. */
export function Connect(_props: ViewProps<"Connect">): ReactNode {
  const { options } = useWalletRuntime()
  const connectors = useAtomValue(connectorsAtom)
  const loaded = useAtomValue(connectorsStateAtom, connectorsReported)
  const recent = useAtomValue(connectionAtom, (state) => state.recentWallets)
  // Reading these starts the catalogue's first fetch: the modal is open, the visitor asked for wallets. Laid out
  // ahead of the click, the view holds the catalogue's places instead and asks nothing.
  const ahead = useContext(LaidOutAhead)
  const featured = useAtomValue(ahead ? featuredNotAskedAtom : featuredWalletsAtom)
  const featuredPending = useAtomValue(ahead ? featuredPendingAheadAtom : featuredWalletsPendingAtom)
  const custom = useAtomValue(ahead ? featuredNotAskedAtom : customWalletsAtom)
  const isMobile = useAtomValue(isMobileAtom)
  const choose = useAtomSet(chooseWalletFn)
  const push = useAtomSet(pushRouteFn)

  const groups: Partial<Record<ConnectorGroup, ReadonlyArray<WalletEntry>>> = {
    walletConnect: connectors.filter((c) => c.type === "WALLET_CONNECT").map(connectorEntry),
    recent: recent.map((wallet) => walletEntry(wallet, connectors)),
    injected: installedConnectors(connectors).map(connectorEntry),
    // The service's featured list already puts the host's featured wallets before the recommended ones.
    featured: featured.map((listing) => listingEntry(listing, connectors)),
    custom: custom.map((listing) => listingEntry(listing, connectors)),
    external: connectors.filter((c) => c.type === "EXTERNAL" || c.type === "AUTH").map(connectorEntry)
  }
  const rows = orderConnectors(groups, (entry) => entry.key)
  // While the catalogue answers, its rows hold their place where they will appear (after the installed wallets,
  // before the host's own), so nothing below them moves and the dialog keeps its height.
  const before = rows.filter(({ group }) => BEFORE_FEATURED.includes(group))
  const after = rows.filter(({ group }) => !BEFORE_FEATURED.includes(group))
  const showAllWallets =
    options.features.allWallets && (options.allWallets === "SHOW" || (options.allWallets === "ONLY_MOBILE" && isMobile))

  const row = ({ group, item }: { readonly group: ConnectorGroup; readonly item: WalletEntry }) => (
    <div role="listitem" key={`${group}:${item.key}`}>
      <ListItem
        icon={<WalletIcon name={item.name} src={item.imageUrl} />}
        label={item.name}
        tag={group === "recent" ? "Recent" : item.installed ? "Installed" : undefined}
        trailing={<Icon name="forward" size={18} />}
        onClick={() => choose(choiceOf(item))}
      />
    </div>
  )

  if (!loaded) return <Spinner size={24} label="Looking for wallets" />
  return (
    <>
      {rows.length === 0 && !featuredPending && <Notice variant="info">No wallet was found in this browser.</Notice>}
      <div className={listStyles.list} role="list" aria-label="Wallets" aria-busy={featuredPending || undefined} onKeyDown={onListKeyDown}>
        {before.map(row)}
        {featuredPending && Array.from({ length: FEATURED_WALLETS_COUNT }, (_, index) => <ListItemSkeleton key={`skeleton:${index}`} />)}
        {after.map(row)}
        {showAllWallets && (
          <div role="listitem">
            <ListItem
              icon={<Icon name="grid" size={32} />}
              label="All wallets"
              trailing={<Icon name="forward" size={18} />}
              onClick={() => push({ view: "AllWallets" })}
            />
          </div>
        )}
      </div>
      <p className={styles.footnote}>
        New to wallets?{" "}
        <button type="button" className={styles.helpLink} onClick={() => push({ view: "WhatIsAWallet" })}>
          What is a wallet?
        </button>
      </p>
      {(options.termsConditionsUrl !== undefined || options.privacyPolicyUrl !== undefined) && (
        <p className={styles.footnote}>
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
