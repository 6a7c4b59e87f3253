/**
 * Connection: the status and account of each chain family (spec point 4). At start a stored `connected` shows as
 * `reconnecting` until the wallet confirms the session (then `connected`) or not (then `disconnected`). Wallet
 * events (accounts or chain changed, disconnected) are followed while a session is open. Disconnecting a family
 * also ends every family sharing its WalletConnect or embedded-auth session.
 */
import { Context, Effect, Exit, FiberMap, Layer, Option, PubSub, Result, Stream, SubscriptionRef } from "effect"
import { type AccountState, initialAccountState } from "../domain/Account"
import { caipAddressOn, type ChainNamespace, formatCaipNetworkId } from "../domain/Caip"
import { type AdapterForNamespaceMissing, DisconnectFailed } from "../domain/errors"
import type { CaipNetwork, NetworkChainId } from "../domain/Network"
import type { ConnectorType, RecentWallets, WalletCatalogEntry } from "../domain/Wallet"
import { type AdapterEvent, type AdapterSession, ChainAdapters, type ConnectError } from "./ChainAdapter"
import { namespacesOf, Config } from "./Config"
import { Storage } from "./Storage/Storage"
import * as Keys from "./Storage/keys"

/** One family's connection: its account (with status), connector and the chain the wallet is on. */
export interface NamespaceConnection {
  readonly account: AccountState
  readonly connector: Keys.ConnectedConnector | undefined
  readonly chainId: NetworkChainId | undefined
}

/** Every configured family's connection, the family used last, and the recent wallets. */
export interface ConnectionState {
  readonly namespaces: Partial<Record<ChainNamespace, NamespaceConnection>>
  readonly activeNamespace: ChainNamespace | undefined
  readonly recentWallets: RecentWallets
}

/** What to connect: a family, one of its connectors, the network wanted, and the catalogue entry if any. */
export interface ConnectRequest {
  readonly namespace: ChainNamespace
  readonly connectorId: string
  readonly network: CaipNetwork
  /** Remembered as a recent wallet on success. */
  readonly wallet?: WalletCatalogEntry | undefined
}

/** A change of the wallet's chain, for Networks to follow. */
export interface WalletChainChange {
  readonly namespace: ChainNamespace
  readonly chainId: NetworkChainId
}

/** Connectors whose one session serves several families: disconnecting one ends them all. */
const SHARED_SESSION_CONNECTORS: ReadonlyArray<ConnectorType> = ["WALLET_CONNECT", "AUTH"]

const emptyConnection: NamespaceConnection = { account: initialAccountState, connector: undefined, chainId: undefined }

/** The account state of an open session on `chainId`. */
export const accountStateOf = (namespace: ChainNamespace, session: Pick<AdapterSession, "address" | "accounts">, chainId: NetworkChainId): AccountState => {
  const network = formatCaipNetworkId({ namespace, reference: chainId })
  const caipAddress = Result.isSuccess(network) ? caipAddressOn(network.success, session.address) : undefined
  return {
    status: "connected",
    address: session.address,
    allAccounts: session.accounts,
    ...(caipAddress !== undefined && Result.isSuccess(caipAddress) ? { caipAddress: caipAddress.success } : {})
  }
}

/** Status, accounts and sessions of every chain family. */
export class Connection extends Context.Service<
  Connection,
  {
    /** The current state, for atoms. */
    readonly state: SubscriptionRef.SubscriptionRef<ConnectionState>
    /** Connects through an adapter's connector; the status is `connecting` meanwhile. */
    readonly connect: (request: ConnectRequest) => Effect.Effect<AdapterSession, ConnectError | AdapterForNamespaceMissing>
    /**
     * Restores the stored sessions without prompting: `reconnecting` → `connected`, or `disconnected` when the
     * wallet no longer authorises the site or fails. `networkOf` gives the network to restore each family on.
     */
    readonly restore: (networkOf: (namespace: ChainNamespace) => Effect.Effect<CaipNetwork>) => Effect.Effect<void>
    /**
     * Disconnects a family (or every connected one) and each family sharing its WalletConnect or embedded-auth
     * session; clears their accounts, stored connectors and the stored deep link. Fails with 'Failed to disconnect'.
     */
    readonly disconnect: (namespace?: ChainNamespace) => Effect.Effect<ReadonlyArray<ChainNamespace>, DisconnectFailed>
    /** Sets a family back to disconnected with an empty account. */
    readonly reset: (namespace: ChainNamespace) => Effect.Effect<void>
    /** Updates account fields other than the session (balance, profile, preferred account type…). */
    readonly updateAccount: (
      namespace: ChainNamespace,
      update: (account: AccountState) => AccountState
    ) => Effect.Effect<void>
    /** The wallet moved to another chain (on its own, or after a switch). */
    readonly walletChainChanges: Stream.Stream<WalletChainChange>
    /** Records that the wallet is now on `chainId` (after a switch the core asked for). */
    readonly setWalletChain: (namespace: ChainNamespace, chainId: NetworkChainId) => Effect.Effect<void>
  }
>()("wallet-runtime/Connection") {
  /** The live connection over Storage, Config and the adapters. */
  static readonly layer = Layer.effect(Connection)(
    Effect.gen(function* () {
      const storage = yield* Storage
      const config = yield* Config
      const adapters = yield* ChainAdapters
      const namespaces = namespacesOf(config)
      const watchers = yield* FiberMap.make<ChainNamespace>()
      const chainChanges = yield* PubSub.unbounded<WalletChainChange>()

      // A family stored as connected shows as reconnecting from the first frame, so the page never flashes
      // "Connect" for a visitor who is still connected.
      const initial: Partial<Record<ChainNamespace, NamespaceConnection>> = {}
      for (const namespace of namespaces) {
        const stored = yield* storage.get(Keys.connectionStatus(namespace))
        const connector = yield* storage.get(Keys.connectedConnector(namespace))
        const restoring = stored === "connected" && connector !== null && adapters.namespaces.includes(namespace)
        initial[namespace] = restoring
          ? { account: { ...initialAccountState, status: "reconnecting" }, connector, chainId: undefined }
          : emptyConnection
      }
      const state = yield* SubscriptionRef.make<ConnectionState>({
        namespaces: initial,
        activeNamespace: namespaces.find((namespace) => initial[namespace]?.account.status === "reconnecting"),
        recentWallets: yield* storage.get(Keys.recentWallets)
      })

      const setNamespace = (namespace: ChainNamespace, update: (current: NamespaceConnection) => NamespaceConnection) =>
        SubscriptionRef.update(state, (s) => ({
          ...s,
          namespaces: { ...s.namespaces, [namespace]: update(s.namespaces[namespace] ?? emptyConnection) }
        }))

      // Clears a family's session; called from its own event watcher too, so it must not interrupt that watcher.
      const forgetSession = Effect.fn("Connection.forgetSession")(function* (namespace: ChainNamespace) {
        yield* setNamespace(namespace, () => emptyConnection)
        yield* storage.remove(Keys.connectionStatus(namespace))
        yield* storage.remove(Keys.connectedConnector(namespace))
        yield* SubscriptionRef.update(state, (s) =>
          s.activeNamespace === namespace
            ? { ...s, activeNamespace: namespaces.find((n) => n !== namespace && s.namespaces[n]?.account.status === "connected") }
            : s
        )
      })

      const forget = Effect.fn("Connection.forget")(function* (namespace: ChainNamespace) {
        yield* FiberMap.remove(watchers, namespace)
        yield* forgetSession(namespace)
      })

      const onEvent = (namespace: ChainNamespace) => (event: AdapterEvent) =>
        Effect.gen(function* () {
          const current = (yield* SubscriptionRef.get(state)).namespaces[namespace]
          // Late events of a session already ended are ignored.
          if ((current?.account.status ?? "disconnected") === "disconnected") return
          yield* handleEvent(namespace, event)
        })

      const handleEvent = (namespace: ChainNamespace, event: AdapterEvent) => {
        switch (event._tag) {
          case "AccountsChanged": {
            const first = event.accounts[0]
            if (first === undefined) return forgetSession(namespace)
            return setNamespace(namespace, (current) => ({
              ...current,
              account: {
                ...current.account,
                ...accountStateOf(namespace, { address: first.address, accounts: event.accounts }, current.chainId ?? 0)
              }
            }))
          }
          case "ChainChanged":
            return setWalletChain(namespace, event.chainId)
          case "Disconnected":
            return forgetSession(namespace)
        }
      }

      const setWalletChain = Effect.fn("Connection.setWalletChain")(function* (
        namespace: ChainNamespace,
        chainId: NetworkChainId
      ) {
        yield* setNamespace(namespace, (current) => ({
          ...current,
          chainId,
          account:
            current.account.address === undefined
              ? current.account
              : { ...current.account, ...accountStateOf(namespace, { address: current.account.address, accounts: current.account.allAccounts }, chainId), status: current.account.status }
        }))
        yield* PubSub.publish(chainChanges, { namespace, chainId })
      })

      const opened = Effect.fn("Connection.opened")(function* (namespace: ChainNamespace, session: AdapterSession) {
        const adapter = yield* adapters.get(namespace)
        const connector: Keys.ConnectedConnector = { id: session.connector.id, type: session.connector.type }
        yield* setNamespace(namespace, () => ({
          account: accountStateOf(namespace, session, session.chainId),
          connector,
          chainId: session.chainId
        }))
        yield* SubscriptionRef.update(state, (s) => ({ ...s, activeNamespace: namespace }))
        yield* storage.set(Keys.connectionStatus(namespace), "connected")
        yield* storage.set(Keys.connectedConnector(namespace), connector)
        yield* FiberMap.run(watchers, namespace, Stream.runForEach(adapter.events, onEvent(namespace)))
        yield* PubSub.publish(chainChanges, { namespace, chainId: session.chainId })
      })

      const connect = Effect.fn("Connection.connect")(function* (request: ConnectRequest) {
        const adapter = yield* adapters.get(request.namespace)
        const before = (yield* SubscriptionRef.get(state)).namespaces[request.namespace] ?? emptyConnection
        yield* setNamespace(request.namespace, (current) => ({
          ...current,
          account: { ...current.account, status: "connecting" }
        }))
        // A refused, failed or abandoned connect (the visitor went back and chose another wallet) leaves the
        // family as it was: still connected to the previous wallet, if any, and never stuck on `connecting`.
        const exit = yield* Effect.exit(
          adapter.connect(request.connectorId, request.network).pipe(
            Effect.onInterrupt(() => setNamespace(request.namespace, () => before))
          )
        )
        if (Exit.isFailure(exit)) {
          yield* setNamespace(request.namespace, () => before)
          return yield* exit
        }
        const session = exit.value
        yield* opened(request.namespace, session)
        if (request.wallet !== undefined) {
          const recent = yield* storage.modify(Keys.recentWallets, Keys.addRecentWallet(request.wallet))
          yield* SubscriptionRef.update(state, (s) => ({ ...s, recentWallets: recent }))
        }
        return session
      })

      const restoreOne = Effect.fn("Connection.restoreOne")(function* (
        namespace: ChainNamespace,
        network: CaipNetwork
      ) {
        const current = (yield* SubscriptionRef.get(state)).namespaces[namespace]
        if (current?.account.status !== "reconnecting" || current.connector === undefined) return
        const adapter = yield* adapters.get(namespace)
        const restored = yield* adapter.reconnect(current.connector.id, network).pipe(
          Effect.catch((error) => Effect.logWarning(`Could not restore ${namespace}: ${error.message}`).pipe(Effect.as(Option.none())))
        )
        if (Option.isSome(restored)) yield* opened(namespace, restored.value)
        else yield* forget(namespace)
      })

      const restore = Effect.fn("Connection.restore")(function* (
        networkOf: (namespace: ChainNamespace) => Effect.Effect<CaipNetwork>
      ) {
        yield* Effect.forEach(
          namespaces,
          (namespace) =>
            networkOf(namespace).pipe(
              Effect.flatMap((network) => restoreOne(namespace, network)),
              // An adapter missing for a stored family cannot restore it: the family starts disconnected.
              Effect.catch(() => forget(namespace))
            ),
          { concurrency: "unbounded", discard: true }
        )
      })

      const disconnect = Effect.fn("Connection.disconnect")(function* (namespace?: ChainNamespace) {
        const current = yield* SubscriptionRef.get(state)
        const isOpen = (n: ChainNamespace) => (current.namespaces[n]?.account.status ?? "disconnected") !== "disconnected"
        const targets = new Set<ChainNamespace>(namespace !== undefined ? [namespace] : namespaces.filter(isOpen))
        for (const target of [...targets]) {
          const connector = current.namespaces[target]?.connector
          if (connector === undefined || !SHARED_SESSION_CONNECTORS.includes(connector.type)) continue
          for (const other of namespaces) {
            const otherConnector = current.namespaces[other]?.connector
            if (otherConnector?.type === connector.type && otherConnector.id === connector.id) targets.add(other)
          }
        }
        const failures: Array<string> = []
        for (const target of targets) {
          const result = yield* adapters.get(target).pipe(
            Effect.flatMap((adapter) => (isOpen(target) ? adapter.disconnect : Effect.void)),
            Effect.exit
          )
          if (Exit.isFailure(result)) failures.push(`${target}: ${String(result.cause)}`)
          // The visitor asked to leave: the session is forgotten here even when the wallet did not answer.
          yield* forget(target)
        }
        yield* storage.remove(Keys.walletConnectDeepLink)
        if (failures.length > 0) return yield* new DisconnectFailed({ reason: failures.join("; ") })
        return [...targets]
      })

      const reset = Effect.fn("Connection.reset")(function* (namespace: ChainNamespace) {
        yield* setNamespace(namespace, (current) => ({ ...current, account: initialAccountState }))
      })

      const updateAccount = Effect.fn("Connection.updateAccount")(function* (
        namespace: ChainNamespace,
        update: (account: AccountState) => AccountState
      ) {
        yield* setNamespace(namespace, (current) => ({ ...current, account: update(current.account) }))
      })

      return {
        state,
        connect,
        restore,
        disconnect,
        reset,
        updateAccount,
        setWalletChain,
        walletChainChanges: Stream.fromPubSub(chainChanges)
      }
    })
  )
}
