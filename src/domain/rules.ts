/**
 * The pure rules of the product (spec points 2, 4, 6 and 9): which view opens, when going back closes the
 * modal, how a transaction is shown, in what order connectors, connect methods and wallet features appear,
 * the default account type per chain family, and which chain families have balances and names.
 */
import { Schema } from "effect"
import {
  CONNECT_METHOD_ORDER,
  type ConnectMethod,
  CONNECTOR_ORDER,
  type ConnectorGroup,
  DEFAULT_ACCOUNT_TYPES,
  WALLET_FEATURE_ORDER,
  type WalletFeature,
  ZERO_BALANCE_DISPLAY
} from "./constants"
import { familySupports } from "./familyFeatures"

/**
 * Every view of the modal (spec point 2), plus the network list, the "What is a wallet?" help, and the account's
 * Send (form, review, result), Receive, Swap and Buy (on-ramp) views. The spec's connecting view for sign-in with the
 * wallet is SIWXSignMessage, which shows the wait for the signature ('Authenticating...').
 */
export const ModalView = Schema.Literals([
  "Connect",
  "Account",
  "AllWallets",
  "WhatIsAWallet",
  "WalletConnectBasic",
  "ConnectingWalletConnect",
  "ConnectingExternal",
  "ConnectingFarcaster",
  "Networks",
  "UnsupportedChain",
  "SIWXSignMessage",
  "ApproveTransaction",
  "RegisterAccountName",
  "RegisterAccountNameSuccess",
  "Send",
  "SendReview",
  "SendResult",
  "Receive",
  "Swap",
  "Buy",
  "EmailVerifyOtp",
  "EmailVerifyDevice",
  "UpdateEmail",
  "UpdateEmailPrimaryOtp",
  "UpdateEmailSecondaryOtp",
  "SecureFrame"
])
/** A view of the modal. */
export type ModalView = typeof ModalView.Type

/** What decides the view the modal opens on. */
export interface OpeningContext {
  /** Chain adapters (families) configured by the host; zero means a bare remote-protocol set-up. */
  readonly adapterCount: number
  /** The connected address, if any. */
  readonly address: string | undefined
  /** A view the caller asked for. */
  readonly requestedView: ModalView | undefined
  /** The page runs on a phone. */
  readonly isMobile: boolean
}

/**
 * The view the modal opens on, by the four rules of spec point 2, in order: no adapters and no address →
 * AllWallets on mobile, else the basic remote-protocol view; a requested view; connected → Account; else Connect.
 */
export const openingView = (context: OpeningContext): ModalView => {
  if (context.adapterCount === 0 && context.address === undefined) {
    return context.isMobile ? "AllWallets" : "WalletConnectBasic"
  }
  if (context.requestedView !== undefined) return context.requestedView
  if (context.address !== undefined) return "Account"
  return "Connect"
}

/** Going back closes the modal when history holds a single entry or contains UnsupportedChain. */
export const backClosesModal = (history: ReadonlyArray<ModalView>): boolean =>
  history.length <= 1 || history.includes("UnsupportedChain")

/** What decides whether a switch to a chain outside the requested networks shows UnsupportedChain. */
export interface UnsupportedChainContext {
  readonly inRequestedNetworks: boolean
  readonly allowUnsupportedChain: boolean
  readonly enableNetworkSwitch: boolean
  readonly basicMode: boolean
}

/**
 * A chain outside the requested networks shows UnsupportedChain, unless unsupported chains are allowed,
 * network switching is disabled, or basic mode is on.
 */
export const showsUnsupportedChain = (context: UnsupportedChainContext): boolean =>
  !context.inRequestedNetworks && context.allowUnsupportedChain !== true && context.enableNetworkSwitch &&
  !context.basicMode

const PLUS_OPERATIONS: ReadonlyArray<string> = ["receive", "deposit", "borrow", "claim"]
const MINUS_OPERATIONS: ReadonlyArray<string> = ["withdraw", "repay", "burn"]

/** The sign shown before a transaction's amount: + for receive/deposit/borrow/claim, − for withdraw/repay/burn. */
export const transactionSign = (operationType: string): "+" | "-" | "" =>
  PLUS_OPERATIONS.includes(operationType) ? "+" : MINUS_OPERATIONS.includes(operationType) ? "-" : ""

/** The part of a transfer that decides how its image is shown. */
export interface TransferKind {
  readonly nft_info?: unknown
  readonly fungible_info?: unknown
}

/** Two transfer images are shown as a pair unless both transfers are NFTs. */
export const showsTransferImagesAsPair = (transfers: ReadonlyArray<TransferKind>): boolean => {
  if (transfers.length !== 2) return false
  const nfts = transfers.filter((transfer) => transfer.nft_info !== undefined && transfer.nft_info !== null)
  return nfts.length < 2
}

// A host's order of a fixed set: the entries it names first, in its order, then those it left out in the default's.
const completeOrder = <A>(hostOrder: ReadonlyArray<A> | undefined, defaultOrder: ReadonlyArray<A>): ReadonlyArray<A> =>
  hostOrder === undefined
    ? defaultOrder
    : [...new Set(hostOrder)].concat(defaultOrder.filter((entry) => !hostOrder.includes(entry)))

/**
 * The order of the Connect view's groups: the host's `features.connectorTypeOrder` first, then the groups it left
 * out in spec 9's order (walletConnect, recent, injected, featured, custom, external, recommended).
 * @example connectorGroupOrder(["injected", "walletConnect"]) // ["injected", "walletConnect", "recent", "featured", …]
 */
export const connectorGroupOrder = (hostOrder?: ReadonlyArray<ConnectorGroup>): ReadonlyArray<ConnectorGroup> =>
  completeOrder(hostOrder, CONNECTOR_ORDER)

/**
 * Connector groups flattened in `order` (spec point 9's unless the host gave one, see {@link connectorGroupOrder}).
 * A wallet is listed once: where it first appears.
 */
export const orderConnectors = <A>(
  groups: Partial<Record<ConnectorGroup, ReadonlyArray<A>>>,
  keyOf: (item: A) => string,
  order: ReadonlyArray<ConnectorGroup> = CONNECTOR_ORDER
): ReadonlyArray<{ readonly group: ConnectorGroup; readonly item: A }> => {
  const seen = new Set<string>()
  const out: Array<{ readonly group: ConnectorGroup; readonly item: A }> = []
  for (const group of order) {
    for (const item of groups[group] ?? []) {
      const key = keyOf(item).toLowerCase()
      if (seen.has(key)) continue
      seen.add(key)
      out.push({ group, item })
    }
  }
  return out
}

/**
 * Connect methods in order: the host's `connectMethodsOrder` when given (those it left out after, in the default
 * order), else email, social, wallet — wallet first when injected wallets exist. Disabled ones drop.
 */
export const orderConnectMethods = (context: {
  readonly hasInjectedWallets: boolean
  readonly email: boolean
  readonly socials: boolean
  readonly hostOrder?: ReadonlyArray<ConnectMethod> | undefined
}): ReadonlyArray<ConnectMethod> => {
  const order = completeOrder<ConnectMethod>(
    context.hostOrder ?? (context.hasInjectedWallets ? ["wallet"] : undefined),
    CONNECT_METHOD_ORDER
  )
  return order.filter((method) => (method === "email" ? context.email : method === "social" ? context.socials : true))
}

/**
 * Wallet features the host has on, in the host's `walletFeaturesOrder` when given (those it left out after), else
 * onramp, swaps, receive, send.
 */
export const orderWalletFeatures = (
  enabled: Partial<Record<WalletFeature, boolean>>,
  hostOrder?: ReadonlyArray<WalletFeature>
): ReadonlyArray<WalletFeature> => completeOrder(hostOrder, WALLET_FEATURE_ORDER).filter((feature) => enabled[feature] === true)

/** A chain family. */
export type Namespace = "eip155" | "solana" | "bip122" | "polkadot"
/** An account type. */
export type AccountTypeName = "eoa" | "payment" | "ordinals" | "smartAccount"

/** The default account type of a chain family (EVM smartAccount, Bitcoin payment, Solana and Polkadot eoa), unless the host set one. */
export const defaultAccountType = (
  namespace: Namespace,
  hostDefaults?: Partial<Record<Namespace, AccountTypeName>>
): AccountTypeName => hostDefaults?.[namespace] ?? DEFAULT_ACCOUNT_TYPES[namespace]

/** Chain families with balances (eip155 and solana). */
export const supportsBalance = (namespace: Namespace): boolean => familySupports(namespace, "balance")

/** Chain families with names (eip155 only). */
export const supportsNames = (namespace: Namespace): boolean => familySupports(namespace, "names")

/** The balance text: '0.00' on testnets and on chains without balance support, else the formatted balance. */
export const balanceDisplay = (
  network: { readonly chainNamespace: Namespace; readonly testnet?: boolean | undefined },
  formatted: string
): string => (network.testnet === true || !supportsBalance(network.chainNamespace) ? ZERO_BALANCE_DISPLAY : formatted)
