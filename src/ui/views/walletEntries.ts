/**
 * One model for every row that leads to a wallet (Connect and AllWallets): a connector the adapters found, a
 * catalogue entry, or both when a catalogue wallet is installed. A wallet is listed once, whichever way it came.
 */
import * as AsyncResult from "effect/reactivity/AsyncResult"
import type { ConnectorInfo, WalletCatalogEntry } from "../../domain/Wallet"
import type { WalletListing } from "../../services/WalletCatalog"
import type { ConnectorsByFamily } from "../atoms/connection"
import type { RouteData } from "../../services/Modal"

/** A wallet a row stands for. */
export interface WalletEntry {
  /** What makes two rows the same wallet: its rdns, else its name. */
  readonly key: string
  readonly name: string
  readonly imageUrl: string | undefined
  /** The connector to connect through, when the wallet can be reached from this page. */
  readonly connector: ConnectorInfo | undefined
  /** The catalogue entry, when the wallet came from the catalogue, the recent list or the host's custom wallets. */
  readonly wallet: WalletCatalogEntry | undefined
  /** Installed in this browser (injected, or announced through EIP-6963). */
  readonly installed: boolean
}

const normalise = (text: string): string => text.trim().toLowerCase()

const isInstalled = (connector: ConnectorInfo): boolean => connector.type === "INJECTED" || connector.type === "ANNOUNCED"

/** The row of a connector. */
export const connectorEntry = (connector: ConnectorInfo): WalletEntry => {
  const name = connector.name ?? connector.id
  return {
    key: normalise(connector.info?.rdns ?? name),
    name,
    imageUrl: connector.imageUrl,
    connector,
    wallet: undefined,
    installed: isInstalled(connector)
  }
}

/** The connector that reaches a catalogue wallet from this page: same rdns, else same name. */
export const connectorFor = (
  wallet: Pick<WalletCatalogEntry, "name" | "rdns">,
  connectors: ReadonlyArray<ConnectorInfo>
): ConnectorInfo | undefined => {
  const rdns = wallet.rdns ?? undefined
  return (
    (rdns !== undefined ? connectors.find((c) => c.info?.rdns !== undefined && normalise(c.info.rdns) === normalise(rdns)) : undefined) ??
    connectors.find((c) => c.name !== undefined && normalise(c.name) === normalise(wallet.name))
  )
}

/** The row of a catalogue wallet, reached through its installed connector when there is one. */
export const walletEntry = (wallet: WalletCatalogEntry, connectors: ReadonlyArray<ConnectorInfo>): WalletEntry => {
  const connector = connectorFor(wallet, connectors)
  return {
    key: normalise(wallet.rdns ?? wallet.name),
    name: wallet.name,
    imageUrl: wallet.image_url ?? connector?.imageUrl,
    connector,
    wallet,
    installed: connector !== undefined && isInstalled(connector)
  }
}

/** The row of a wallet of the catalogue service (featured, listed, found, or the host's own). */
export const listingEntry = (listing: WalletListing): WalletEntry => ({
  key: normalise(listing.wallet.rdns ?? listing.wallet.name),
  name: listing.wallet.name,
  imageUrl: listing.imageUrl ?? listing.installed?.imageUrl,
  connector: listing.installed,
  wallet: listing.wallet,
  installed: listing.installed !== undefined
})

/** Connectors that stand for a wallet of their own (not WalletConnect or the embedded wallet, which have views of their own). */
export const walletConnectors = (connectors: ReadonlyArray<ConnectorInfo>): ReadonlyArray<ConnectorInfo> =>
  connectors.filter((connector) => connector.type !== "WALLET_CONNECT" && connector.type !== "AUTH")

/** Where a row leads: the connecting view, with the connector and/or the catalogue entry. */
export const routeOf = (entry: WalletEntry): RouteData => ({
  ...(entry.connector !== undefined ? { connectorId: entry.connector.id, namespace: entry.connector.chain } : {}),
  ...(entry.wallet !== undefined ? { wallet: entry.wallet } : {})
})

/**
 * The view a row opens: WalletConnect's own row the basic WalletConnect view; a catalogue wallet not installed here
 * that has a mobile, desktop or web app the WalletConnect view for that wallet; any other the connecting view.
 */
export const viewOf = (entry: WalletEntry): "WalletConnectBasic" | "ConnectingWalletConnect" | "ConnectingExternal" => {
  if (entry.connector?.type === "WALLET_CONNECT") return "WalletConnectBasic"
  const links = [entry.wallet?.mobile_link, entry.wallet?.desktop_link, entry.wallet?.webapp_link]
  if (entry.connector === undefined && links.some((link) => typeof link === "string" && link !== "")) return "ConnectingWalletConnect"
  return "ConnectingExternal"
}

/** Rows whose name contains the search text, trimmed and case-insensitive; every row for an empty search. */
export const searchEntries = (entries: ReadonlyArray<WalletEntry>, search: string): ReadonlyArray<WalletEntry> => {
  const text = normalise(search)
  return text === "" ? entries : entries.filter((entry) => normalise(entry.name).includes(text))
}

/**
 * Whether the adapters have listed their connectors yet. The connectors atom starts from an empty record before
 * the first adapter reports, so "loaded" means at least one family has reported (the modal only lists wallets when
 * at least one adapter exists).
 */
export const connectorsReported = (result: AsyncResult.AsyncResult<ConnectorsByFamily, unknown>): boolean =>
  AsyncResult.isSuccess(result) && Object.keys(result.value).length > 0
