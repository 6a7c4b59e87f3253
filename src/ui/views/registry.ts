/**
 * Every view of the modal: its title, the sentence that describes it to assistive technology, and its component,
 * loaded on first use (`React.lazy`) so that a page pays nothing for the modal's views until it opens.
 */
import { type ComponentType, lazy, type LazyExoticComponent } from "react"
import type { ModalView } from "../../domain/rules"
import type { RouteData } from "../../services/Modal"

/** What every view receives: the data of its route (the wallet being connected…). */
export interface ViewProps {
  readonly data: RouteData
}

/** A view of the modal. */
export interface ViewEntry {
  readonly title: string
  readonly description: string
  readonly Component: LazyExoticComponent<ComponentType<ViewProps>>
}

const Connect = lazy(() => import("./Connect/Connect").then((m) => ({ default: m.Connect })))
const AllWallets = lazy(() => import("./AllWallets/AllWallets").then((m) => ({ default: m.AllWallets })))
const ConnectingExternal = lazy(() =>
  import("./ConnectingExternal/ConnectingExternal").then((m) => ({ default: m.ConnectingExternal }))
)
const Account = lazy(() => import("./Account/Account").then((m) => ({ default: m.Account })))
const Networks = lazy(() => import("./Networks/Networks").then((m) => ({ default: m.Networks })))
const UnsupportedChain = lazy(() =>
  import("./UnsupportedChain/UnsupportedChain").then((m) => ({ default: m.UnsupportedChain }))
)
const NotAvailable = lazy(() => import("./NotAvailable/NotAvailable").then((m) => ({ default: m.NotAvailable })))

/** Views of later issues: they say so instead of showing an empty or fake screen. */
const notYet = (title: string): ViewEntry => ({
  title,
  description: `${title} is not available in this version.`,
  Component: NotAvailable
})

/** Every view, by name. */
export const VIEWS: { readonly [V in ModalView]: ViewEntry } = {
  Connect: { title: "Connect a wallet", description: "Choose the wallet to connect to this site.", Component: Connect },
  AllWallets: { title: "All wallets", description: "Search the wallets you can connect and choose one.", Component: AllWallets },
  ConnectingExternal: {
    title: "Connect wallet",
    description: "Approve the connection in your wallet.",
    Component: ConnectingExternal
  },
  Account: { title: "Account", description: "Your connected wallet: address, balance and network.", Component: Account },
  Networks: { title: "Choose network", description: "Choose the network your wallet uses on this site.", Component: Networks },
  UnsupportedChain: {
    title: "Switch network",
    description: "Your wallet is on a network this site does not support. Choose a supported network or disconnect.",
    Component: UnsupportedChain
  },
  WalletConnectBasic: notYet("WalletConnect"),
  ConnectingWalletConnect: notYet("WalletConnect"),
  ConnectingSiwe: notYet("Sign in with your wallet"),
  ConnectingFarcaster: notYet("Farcaster"),
  SIWXSignMessage: notYet("Sign in"),
  ApproveTransaction: notYet("Approve transaction"),
  RegisterAccountName: notYet("Register a name"),
  RegisterAccountNameSuccess: notYet("Name registered")
}
