/**
 * Atoms of the connection: every family's state, the account in front, the connectors, the connect flow's
 * progress, and the actions of the wallet views (choose a wallet, try again, follow a wallet's link, disconnect).
 */
import { Effect, Option, Stream, SubscriptionRef } from "effect"
import * as AsyncResult from "effect/reactivity/AsyncResult"
import * as Atom from "effect/reactivity/Atom"
import { type AccountState, initialAccountState } from "../../domain/Account"
import type { ChainNamespace } from "../../domain/Caip"
import type { ConnectorInfo } from "../../domain/Wallet"
import { ConnectFlow, type ConnectProgress, type WalletChoice } from "../../services/ConnectFlow"
import { Connection, type ConnectionState } from "../../services/Connection"
import { Connectors } from "../../services/connectors/Connectors"
import { WalletConnect } from "../../services/walletconnect/WalletConnect"
import { mapAtom, stateAtom, stateLikeAtom, type StateResult, walletRuntimeAtom } from "./runtime"

/** Every family's connection, the family in front and the recent wallets. */
export const connectionStateAtom = stateAtom(Effect.map(Connection, (c) => c.state))

const emptyState: ConnectionState = { namespaces: {}, activeNamespace: undefined, recentWallets: [] }

const stateOrEmpty = (result: StateResult<ConnectionState>): ConnectionState => AsyncResult.getOrElse(result, () => emptyState)

/** The connection state, or an empty one while the runtime starts. */
export const connectionAtom: Atom.Atom<ConnectionState> = mapAtom(connectionStateAtom, stateOrEmpty)

/** The account in front: the family used last, with its status (`disconnected` when none). */
export const activeAccountAtom: Atom.Atom<AccountState & { readonly namespace: ChainNamespace | undefined }> = mapAtom(
  connectionStateAtom,
  (result) => {
    const state = stateOrEmpty(result)
    const namespace = state.activeNamespace
    const account = namespace === undefined ? undefined : state.namespaces[namespace]?.account
    return { ...(account ?? initialAccountState), namespace }
  }
)

/** A connector as the views list it: what is shown, and the families it connects. */
export interface ConnectorView extends ConnectorInfo {
  readonly namespaces: ReadonlyArray<ChainNamespace>
}

/** Every wallet the page can reach (one entry per wallet, WalletConnect first), followed as wallets announce. */
export const connectorsStateAtom = stateLikeAtom(
  Stream.unwrap(
    Effect.map(Connectors, (registry) =>
      SubscriptionRef.changes(registry.connectors).pipe(
        Stream.map((list): ReadonlyArray<ConnectorView> => list.map((connector) => ({ ...connector.info, namespaces: connector.namespaces })))
      )
    )
  )
)

/** The connectors; empty while the runtime starts. */
export const connectorsAtom: Atom.Atom<ReadonlyArray<ConnectorView>> = mapAtom(connectorsStateAtom, (result) =>
  AsyncResult.getOrElse(result, (): ReadonlyArray<ConnectorView> => [])
)

/** Where the connect flow stands. */
const connectProgressStateAtom = stateAtom(Effect.map(ConnectFlow, (flow) => flow.progress))

/** The connect flow's progress; idle while the runtime starts. */
export const connectProgressAtom: Atom.Atom<ConnectProgress> = mapAtom(connectProgressStateAtom, (result) =>
  AsyncResult.getOrElse(result, (): ConnectProgress => ({ _tag: "Idle" }))
)

/** The visitor chose a wallet in a list: the flow opens its view and connects. */
export const chooseWalletFn = walletRuntimeAtom.fn((choice: WalletChoice) => Effect.flatMap(ConnectFlow, (flow) => flow.choose(choice)))

/**
 * Fetches WalletConnect's session code on the visitor's intent (pointer or finger on its row); nothing without it.
 * Here, with the choice it announces, so the Connect view brings no chunk of WalletConnect's atoms.
 */
export const preloadWalletConnectFn = walletRuntimeAtom.fn((_: void) =>
  Effect.flatMap(Effect.serviceOption(WalletConnect), (service) => (Option.isNone(service) ? Effect.void : service.value.preload))
)

/** Asks the wallet again on the connecting view the visitor is on. */
export const retryConnectFn = walletRuntimeAtom.fn((_: void) => Effect.flatMap(ConnectFlow, (flow) => flow.retry))

/** The visitor followed a wallet's link (a WalletConnect deep link). */
export const followedLinkFn = walletRuntimeAtom.fn((href: string) => Effect.flatMap(ConnectFlow, (flow) => flow.followedLink(href)))

/** Disconnects a family (with every family sharing its wallet), or every connected one. */
export const disconnectFn = walletRuntimeAtom.fn((namespace: ChainNamespace | undefined) =>
  Effect.flatMap(Connection, (connection) => connection.disconnect(namespace))
)
