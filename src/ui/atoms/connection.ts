/** Atoms of the connection: every family's state, the account in front, and connect/disconnect actions. */
import { Effect, Stream, SubscriptionRef } from "effect"
import * as AsyncResult from "effect/reactivity/AsyncResult"
import * as Atom from "effect/reactivity/Atom"
import { type AccountState, initialAccountState } from "../../domain/Account"
import type { ChainNamespace } from "../../domain/Caip"
import type { ConnectorInfo } from "../../domain/Wallet"
import { ChainAdapters } from "../../services/ChainAdapter"
import { Connection, type ConnectionState, type ConnectRequest } from "../../services/Connection"
import { mapAtom, stateAtom, stateLikeAtom, type StateResult, walletRuntimeAtom } from "./runtime"

/** Every family's connection, the family in front and the recent wallets. */
export const connectionStateAtom = stateAtom(Effect.map(Connection, (c) => c.state))

const emptyState: ConnectionState = { namespaces: {}, activeNamespace: undefined, recentWallets: [] }

const stateOrEmpty = (result: StateResult<ConnectionState>): ConnectionState =>
  AsyncResult.getOrElse(result, () => emptyState)

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

/** Connects a wallet. */
export const connectFn = walletRuntimeAtom.fn((request: ConnectRequest) =>
  Effect.flatMap(Connection, (connection) => connection.connect(request))
)

/** Disconnects a family, or every connected one. */
export const disconnectFn = walletRuntimeAtom.fn((namespace: ChainNamespace | undefined) =>
  Effect.flatMap(Connection, (connection) => connection.disconnect(namespace))
)

/** Connectors by chain family. */
export type ConnectorsByFamily = Partial<Record<ChainNamespace, ReadonlyArray<ConnectorInfo>>>

/** Every family's connectors (installed, announced, WalletConnect…), as the adapters find them, by family. */
export const connectorsStateAtom = stateLikeAtom(
  Stream.unwrap(
    Effect.map(ChainAdapters, (adapters) =>
      Stream.mergeAll(
        adapters.namespaces.map((namespace) =>
          Stream.unwrap(
            Effect.map(Effect.orDie(adapters.get(namespace)), (adapter) =>
              SubscriptionRef.changes(adapter.connectors).pipe(Stream.map((list) => [namespace, list] as const))
            )
          )
        ),
        { concurrency: "unbounded" }
      ).pipe(
        Stream.scan((): ConnectorsByFamily => ({}), (all, [namespace, list]) => ({
          ...all,
          [namespace]: list
        }))
      )
    )
  )
)

/** Every connector of every family, in the families' order; empty while the runtime starts. */
export const connectorsAtom: Atom.Atom<ReadonlyArray<ConnectorInfo>> = mapAtom(connectorsStateAtom, (result) =>
  Object.values(AsyncResult.getOrElse(result, (): ConnectorsByFamily => ({}))).flatMap((list) => list ?? [])
)
