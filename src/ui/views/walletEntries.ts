/**
 * One model for every row that leads to a wallet (Connect and AllWallets): a connector the page has, a catalogue
 * entry, or both when a catalogue wallet is installed. A wallet is listed once, whichever way it came; which
 * catalogue wallet is installed is decided by the domain's one rule (`installedConnectorFor`).
 */
import * as AsyncResult from "effect/reactivity/AsyncResult"
import { INSTALLED_CONNECTOR_TYPES, installedConnectorFor, type WalletCatalogEntry, walletKeyOf } from "../../domain/Wallet"
import type { WalletChoice } from "../../services/ConnectFlow"
import type { WalletListing } from "../../services/WalletCatalog"
import type { ConnectorView } from "../atoms/connection"

/** A wallet a row stands for. */
export interface WalletEntry {
  /** What makes two rows the same wallet: its rdns, else its name. */
  readonly key: string
  readonly name: string
  readonly imageUrl: string | undefined
  /** The connector to connect through, when the wallet can be reached from this page. */
  readonly connector: ConnectorView | undefined
  /** The catalogue entry, when the wallet came from the catalogue, the recent list or the host's custom wallets. */
  readonly wallet: WalletCatalogEntry | undefined
  /** Installed in this browser (injected, announced through EIP-6963 or the Wallet Standard, or both). */
  readonly installed: boolean
}

const isInstalled = (connector: ConnectorView): boolean => INSTALLED_CONNECTOR_TYPES.includes(connector.type)

/** The row of a connector. */
export const connectorEntry = (connector: ConnectorView): WalletEntry => {
  const name = connector.name ?? connector.id
  return {
    key: walletKeyOf({ name, rdns: connector.info?.rdns }),
    name,
    imageUrl: connector.imageUrl,
    connector,
    wallet: undefined,
    installed: isInstalled(connector)
  }
}

/** The row of a catalogue wallet (a recent one), reached through its installed connector when there is one. */
export const walletEntry = (wallet: WalletCatalogEntry, connectors: ReadonlyArray<ConnectorView>): WalletEntry => {
  const connector = installedConnectorFor(wallet, connectors)
  return {
    key: walletKeyOf(wallet),
    name: wallet.name,
    imageUrl: wallet.image_url ?? connector?.imageUrl,
    connector,
    wallet,
    installed: connector !== undefined
  }
}

/** The row of a wallet of the catalogue service (featured, listed, found, or the host's own). */
export const listingEntry = (listing: WalletListing, connectors: ReadonlyArray<ConnectorView>): WalletEntry => {
  const connector = listing.installed === undefined ? undefined : connectors.find((c) => c.id === listing.installed?.id)
  return {
    key: walletKeyOf(listing.wallet),
    name: listing.wallet.name,
    imageUrl: listing.imageUrl ?? listing.installed?.imageUrl,
    connector,
    wallet: listing.wallet,
    installed: connector !== undefined
  }
}

/** The installed wallets (not WalletConnect or the embedded wallet, which have rows and views of their own). */
export const installedConnectors = (connectors: ReadonlyArray<ConnectorView>): ReadonlyArray<ConnectorView> =>
  connectors.filter(isInstalled)

/** What choosing a row means for the connect flow. */
export const choiceOf = (entry: WalletEntry): WalletChoice => ({ connector: entry.connector, wallet: entry.wallet })

/** Rows whose name contains the search text, trimmed and case-insensitive; every row for an empty search. */
export const searchEntries = (entries: ReadonlyArray<WalletEntry>, search: string): ReadonlyArray<WalletEntry> => {
  const text = search.trim().toLowerCase()
  return text === "" ? entries : entries.filter((entry) => entry.name.toLowerCase().includes(text))
}

/** Whether the runtime has listed its connectors yet (the modal shows a spinner until it has). */
export const connectorsReported = (result: AsyncResult.AsyncResult<ReadonlyArray<ConnectorView>, unknown>): boolean =>
  AsyncResult.isSuccess(result)
