/**
 * Connection: the wallet sessions of each chain family and their accounts (spec point 4). A connector connects one
 * wallet in every family it serves; each family's session holds the provider its adapter works over. At start a
 * stored `connected` shows as `reconnecting` until the wallet confirms the session (then `connected`) or not, or
 * not within 10 s (then `disconnected`). What wallets do on their own (accounts or chain changed, disconnected) is
 * followed, a burst of events costing one update. Disconnecting a family ends the whole session of its connector,
 * so every family it shares (a WalletConnect session, a multi-chain wallet) disconnects with it.
 */
import { Clock, Context, Duration, Effect, Exit, FiberMap, Layer, Option, PubSub, Queue, Result, Stream, SubscriptionRef } from "effect"
import { type Account, type AccountState, initialAccountState } from "../domain/Account"
import { caipAddressOn, type ChainNamespace, formatCaipNetworkId } from "../domain/Caip"
import { SESSION_RESTORE_TIMEOUT_MS, WALLET_ANNOUNCE_WAIT_MS } from "../domain/constants"
import { DisconnectFailed, type ProviderNotFound } from "../domain/errors"
import type { CaipNetwork, NetworkChainId } from "../domain/Network"
import type { ConnectorInfo, RecentWallets, WalletCatalogEntry } from "../domain/Wallet"
import { Config, namespacesOf } from "./Config"
import { withinWalletAnswerTime } from "./walletAnswer"
import { type ConnectError, type Connector, type FamilySession, type FamilyProvider, namespaceOf, networksFor, type WalletEvent } from "./connectors/Connector"
import { Connectors } from "./connectors/Connectors"
import { Storage } from "./Storage/Storage"
import * as Keys from "./Storage/keys"

/** One family's connection: its account (with status), connector and the chain the wallet is on. */
export interface NamespaceConnection {
  readonly account: AccountState
  readonly connector: Keys.ConnectedConnector | undefined
  readonly chainId: NetworkChainId | undefined
}

/** Every configured family's connection, the family in front, and the recent wallets. */
export interface ConnectionState {
  readonly namespaces: Partial<Record<ChainNamespace, NamespaceConnection>>
  readonly activeNamespace: ChainNamespace | undefined
  readonly recentWallets: RecentWallets
}

/** What to connect: a connector, and the network to start on in each family (the family to put in front first). */
export interface ConnectRequest {
  readonly connectorId: string
  readonly networks: ReadonlyArray<CaipNetwork>
}

/** A connected wallet: the connector and each family's account and chain. */
export interface ConnectedWallet {
  readonly connector: ConnectorInfo
  readonly accounts: Partial<Record<ChainNamespace, { readonly address: string; readonly chainId: NetworkChainId }>>
}

/** A family's live session: what an action needs to reach the wallet. */
export interface LiveSession {
  readonly namespace: ChainNamespace
  readonly connector: Connector
  readonly provider: FamilyProvider
  readonly address: string
  readonly chainId: NetworkChainId
}

/** A change of the wallet's chain, for Networks to follow. */
export interface WalletChainChange {
  readonly namespace: ChainNamespace
  readonly chainId: NetworkChainId
}

const emptyConnection: NamespaceConnection = { account: initialAccountState, connector: undefined, chainId: undefined }

/** The account state of an open session on `chainId`; its preferred account type is the type of the account in front. */
export const accountStateOf = (
  namespace: ChainNamespace,
  session: { readonly address: string; readonly accounts: ReadonlyArray<Account> },
  chainId: NetworkChainId
): AccountState => {
  const network = formatCaipNetworkId({ namespace, reference: chainId })
  const caipAddress = Result.isSuccess(network) ? caipAddressOn(network.success, session.address) : undefined
  // The type of the account in front: the embedded wallet lists its preferred one first (spec 3's preferredAccountType).
  const front = session.accounts.find((account) => account.address.toLowerCase() === session.address.toLowerCase())
  return {
    status: "connected",
    address: session.address,
    allAccounts: session.accounts,
    ...(front === undefined ? {} : { preferredAccountType: front.type }),
    ...(caipAddress !== undefined && Result.isSuccess(caipAddress) ? { caipAddress: caipAddress.success } : {})
  }
}

/**
 * A burst of wallet events as the few that matter, in one pass: a family's events after its disconnect are dropped
 * (the session is gone: nothing of it applies any more), and of the rest only each family's last account change and
 * last chain change are kept, in their order (a wallet firing 1,000 `accountsChanged` ends on the last one).
 */
export const coalesceEvents = (events: ReadonlyArray<WalletEvent>): ReadonlyArray<WalletEvent> => {
  const gone = new Set<ChainNamespace | "all">()
  const live = events.filter((event) => {
    if (gone.has("all") || (event.namespace !== undefined && gone.has(event.namespace))) return false
    if (event._tag === "Disconnected") gone.add(event.namespace ?? "all")
    return true
  })
  const later = new Set<string>()
  return live
    .reduceRight<Array<WalletEvent>>((kept, event) => {
      const key = `${event._tag}:${event.namespace ?? ""}`
      if (event._tag !== "Disconnected" && later.has(key)) return kept
      later.add(key)
      kept.push(event)
      return kept
    }, [])
    .reverse()
}

/**
 * Wallet events are applied once the wallet has been quiet this long, as one update of the latest state: a wallet
 * firing 1,000 events, each in its own task, costs one update (and the requests one update sets off) instead of
 * 1,000.
 */
const WALLET_EVENTS_QUIET_MS = 50

/** A wallet that never goes quiet still has its latest state applied this often. */
const WALLET_EVENTS_MAX_WAIT_MS = 1_000

/** Status, accounts and sessions of every chain family. */
export class Connection extends Context.Service<
  Connection,
  {
    /** The current state, for atoms. */
    readonly state: SubscriptionRef.SubscriptionRef<ConnectionState>
    /**
     * Connects a wallet in every family of `networks` its connector serves (`connecting` meanwhile). A refused,
     * failed or abandoned connect leaves every family as it was; the family of the first network goes in front.
     */
    readonly connect: (request: ConnectRequest) => Effect.Effect<ConnectedWallet, ConnectError | ProviderNotFound>
    /**
     * Restores the stored sessions without prompting: `reconnecting` → `connected`, or `disconnected` when the
     * wallet is gone, no longer authorises the site, fails, or does not answer within 10 s.
     */
    readonly restore: (networkOf: (namespace: ChainNamespace) => Effect.Effect<CaipNetwork>) => Effect.Effect<void>
    /**
     * Disconnects a family (or every connected one) with every family sharing its connector's session; clears their
     * accounts, stored connectors and the stored deep link. Fails with 'Failed to disconnect'.
     */
    readonly disconnect: (namespace?: ChainNamespace) => Effect.Effect<ReadonlyArray<ChainNamespace>, DisconnectFailed>
    /** The live session of a family, if it is connected. */
    readonly session: (namespace: ChainNamespace) => Effect.Effect<Option.Option<LiveSession>>
    /** Puts a family in front (the visitor switched to one of its networks). */
    readonly setActiveNamespace: (namespace: ChainNamespace) => Effect.Effect<void>
    /** Remembers a wallet the visitor connected (at most 2, newest first). */
    readonly addRecentWallet: (wallet: WalletCatalogEntry) => Effect.Effect<void>
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
  /** The live connection over Storage, Config and the connectors. */
  static readonly layer = Layer.effect(Connection)(
    Effect.gen(function* () {
      const storage = yield* Storage
      const config = yield* Config
      const registry = yield* Connectors
      const namespaces = namespacesOf(config)
      const watchers = yield* FiberMap.make<string>()
      const chainChanges = yield* PubSub.unbounded<WalletChainChange>()
      const live = new Map<ChainNamespace, { readonly connector: Connector; readonly provider: FamilyProvider }>()

      // A family stored as connected shows as reconnecting from the first frame, so the page never flashes
      // "Connect" for a visitor who is still connected.
      const initial: Partial<Record<ChainNamespace, NamespaceConnection>> = {}
      for (const namespace of namespaces) {
        const stored = yield* storage.get(Keys.connectionStatus(namespace))
        const connector = yield* storage.get(Keys.connectedConnector(namespace))
        initial[namespace] =
          stored === "connected" && connector !== null
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

      const isConnected = (s: ConnectionState, namespace: ChainNamespace) => s.namespaces[namespace]?.account.status === "connected"

      // Clears a family's session; called from its connector's event watcher too, so it must not interrupt it. The front
      // passes to a family still connected that is not `leaving` with it: families disconnected together never come to
      // the front one after another (sign-in would check each as it passed).
      const forgetSession = Effect.fn("Connection.forgetSession")(function* (namespace: ChainNamespace, leaving: ReadonlySet<ChainNamespace>) {
        const connector = live.get(namespace)?.connector
        live.delete(namespace)
        yield* setNamespace(namespace, () => emptyConnection)
        yield* storage.remove(Keys.connectionStatus(namespace))
        yield* storage.remove(Keys.connectedConnector(namespace))
        yield* SubscriptionRef.update(state, (s) =>
          s.activeNamespace === namespace ? { ...s, activeNamespace: namespaces.find((n) => n !== namespace && !leaving.has(n) && isConnected(s, n)) } : s
        )
        return connector
      })

      const stillUsed = (connector: Connector) => [...live.values()].some((entry) => entry.connector.info.id === connector.info.id)

      const forget = Effect.fn("Connection.forget")(function* (namespace: ChainNamespace, leaving: ReadonlySet<ChainNamespace> = new Set()) {
        const connector = yield* forgetSession(namespace, leaving)
        if (connector !== undefined && !stillUsed(connector)) yield* FiberMap.remove(watchers, connector.info.id)
      })

      const setWalletChain = Effect.fn("Connection.setWalletChain")(function* (namespace: ChainNamespace, chainId: NetworkChainId) {
        yield* setNamespace(namespace, (current) => ({
          ...current,
          chainId,
          account:
            current.account.address === undefined
              ? current.account
              : {
                  ...current.account,
                  ...accountStateOf(namespace, { address: current.account.address, accounts: current.account.allAccounts }, chainId),
                  status: current.account.status
                }
        }))
        yield* PubSub.publish(chainChanges, { namespace, chainId })
      })

      const handleEvent = (connector: Connector, event: WalletEvent) =>
        Effect.gen(function* () {
          const current = yield* SubscriptionRef.get(state)
          // Events of families this connector does not hold a session for (ended, or never connected) are ignored.
          const mine = (namespace: ChainNamespace) =>
            live.get(namespace)?.connector.info.id === connector.info.id && isConnected(current, namespace)
          switch (event._tag) {
            case "AccountsChanged": {
              if (!mine(event.namespace)) return
              const first = event.accounts[0]
              if (first === undefined) return yield* forget(event.namespace)
              return yield* setNamespace(event.namespace, (family) => ({
                ...family,
                account: {
                  ...family.account,
                  ...accountStateOf(event.namespace, { address: first.address, accounts: event.accounts }, family.chainId ?? 0)
                }
              }))
            }
            case "ChainChanged":
              if (!mine(event.namespace)) return
              return yield* setWalletChain(event.namespace, event.chainId)
            case "Disconnected": {
              const families = new Set((event.namespace !== undefined ? [event.namespace] : [...live.keys()]).filter(mine))
              yield* Effect.forEach(families, (family) => forget(family, families), { discard: true })
            }
          }
        })

      // Events are gathered as they come (a burst kept as its few events that matter) and applied once the wallet is
      // quiet, or WALLET_EVENTS_MAX_WAIT_MS after the first of them: one update in flight, the latest state pending.
      const watch = (connector: Connector) =>
        Effect.gen(function* () {
          let pending: ReadonlyArray<WalletEvent> = []
          const arrived = yield* Queue.sliding<void>(1)
          const quiet = Effect.gen(function* () {
            const deadline = (yield* Clock.currentTimeMillis) + WALLET_EVENTS_MAX_WAIT_MS
            let more = true
            while (more) {
              const left = deadline - (yield* Clock.currentTimeMillis)
              more = left > 0 && Option.isSome(yield* Queue.take(arrived).pipe(Effect.timeoutOption(Math.min(WALLET_EVENTS_QUIET_MS, left))))
            }
          })
          const apply = Effect.gen(function* () {
            yield* Queue.take(arrived)
            yield* quiet
            const burst = pending
            pending = []
            yield* Effect.forEach(burst, (event) => handleEvent(connector, event), { discard: true })
          })
          const gather = (events: ReadonlyArray<WalletEvent>) =>
            Effect.sync(() => {
              pending = coalesceEvents([...pending, ...events])
              Queue.offerUnsafe(arrived, undefined)
            })
          // The updates run beside the watcher, which keeps taking the wallet's events meanwhile.
          yield* Effect.forkChild(Effect.forever(apply))
          yield* Stream.runForEachArray(connector.events, gather)
        })

      const startWatching = (connector: Connector) =>
        FiberMap.run(watchers, connector.info.id, watch(connector), { onlyIfMissing: true })

      const open = Effect.fn("Connection.open")(function* (connector: Connector, session: FamilySession) {
        const namespace = namespaceOf(session)
        const previous = live.get(namespace)?.connector
        live.set(namespace, { connector, provider: session.provider })
        if (previous !== undefined && previous.info.id !== connector.info.id && !stillUsed(previous)) yield* FiberMap.remove(watchers, previous.info.id)
        const stored: Keys.ConnectedConnector = { id: connector.info.id, type: connector.info.type }
        const address = session.accounts[0]!.address
        yield* setNamespace(namespace, () => ({
          account: accountStateOf(namespace, { address, accounts: session.accounts }, session.chainId),
          connector: stored,
          chainId: session.chainId
        }))
        yield* storage.set(Keys.connectionStatus(namespace), "connected")
        yield* storage.set(Keys.connectedConnector(namespace), stored)
      })

      const opened = Effect.fn("Connection.opened")(function* (connector: Connector, sessions: ReadonlyArray<FamilySession>) {
        for (const session of sessions) yield* open(connector, session)
        yield* startWatching(connector)
        // The family put in front publishes last, so Networks ends on it.
        for (const session of [...sessions].reverse()) {
          yield* PubSub.publish(chainChanges, { namespace: namespaceOf(session), chainId: session.chainId })
        }
      })

      const connect = Effect.fn("Connection.connect")(function* (request: ConnectRequest) {
        const connector = yield* registry.get(request.connectorId)
        const wanted = networksFor(connector, request.networks).filter((network) => namespaces.includes(network.chainNamespace))
        const families = wanted.map((network) => network.chainNamespace)
        const before = yield* SubscriptionRef.get(state)
        const restoreBefore = Effect.forEach(families, (namespace) => setNamespace(namespace, () => before.namespaces[namespace] ?? emptyConnection), {
          discard: true
        })
        const markConnecting = Effect.forEach(
          families,
          (namespace) => setNamespace(namespace, (current) => ({ ...current, account: { ...current.account, status: "connecting" } })),
          { discard: true }
        )
        // A refused, failed or abandoned connect (the visitor went back and chose another wallet) leaves each family
        // as it was: still connected to the previous wallet, if any, and never stuck on `connecting`.
        const exit = yield* Effect.exit(
          Effect.andThen(markConnecting, withinWalletAnswerTime(connector.connect(wanted))).pipe(Effect.onInterrupt(() => restoreBefore))
        )
        if (Exit.isFailure(exit)) {
          yield* restoreBefore
          return yield* Effect.failCause(exit.cause)
        }
        const sessions = exit.value.filter((session) => session.accounts.length > 0 && families.includes(namespaceOf(session)))
        const connected = sessions.map(namespaceOf)
        yield* Effect.forEach(families.filter((namespace) => !connected.includes(namespace)), (namespace) =>
          setNamespace(namespace, () => before.namespaces[namespace] ?? emptyConnection),
          { discard: true }
        )
        yield* opened(connector, sessions)
        const front = families.find((namespace) => connected.includes(namespace))
        if (front !== undefined) yield* SubscriptionRef.update(state, (s) => ({ ...s, activeNamespace: front }))
        const result: ConnectedWallet = {
          connector: connector.info,
          accounts: Object.fromEntries(
            sessions.map((session) => [namespaceOf(session), { address: session.accounts[0]!.address, chainId: session.chainId }])
          )
        }
        return result
      })

      const restoreConnector = Effect.fn("Connection.restoreConnector")(function* (
        connectorId: string,
        families: ReadonlyArray<ChainNamespace>,
        networkOf: (namespace: ChainNamespace) => Effect.Effect<CaipNetwork>,
        startedAt: number
      ) {
        const connector = yield* registry.await(connectorId, WALLET_ANNOUNCE_WAIT_MS)
        const networks = yield* Effect.forEach(families, networkOf)
        // The bound counts from the restore's start: the wait for the wallet to announce itself is part of it.
        const left = Math.max(0, startedAt + SESSION_RESTORE_TIMEOUT_MS - (yield* Clock.currentTimeMillis))
        const sessions = Option.isNone(connector)
          ? []
          : yield* connector.value.reconnect(networksFor(connector.value, networks)).pipe(
              Effect.timeoutOption(Duration.millis(left)),
              Effect.map((answer) => Option.getOrElse(answer, (): ReadonlyArray<FamilySession> => [])),
              Effect.catch((error) => Effect.logWarning(`Could not restore ${connectorId}: ${error.message}`).pipe(Effect.as([])))
            )
        // Only the families still waiting on this connector are its to settle: one the visitor connected meanwhile
        // (another wallet, or this one anew) keeps its session, whether the restore came back or gave up.
        const now = yield* SubscriptionRef.get(state)
        const waiting = families.filter((namespace) => {
          const family = now.namespaces[namespace]
          return family?.account.status === "reconnecting" && family.connector?.id === connectorId
        })
        const restored = sessions.filter((session) => session.accounts.length > 0 && waiting.includes(namespaceOf(session)))
        const back = restored.map(namespaceOf)
        yield* Effect.forEach(waiting.filter((namespace) => !back.includes(namespace)), (namespace) => forget(namespace), { discard: true })
        if (Option.isSome(connector) && restored.length > 0) yield* opened(connector.value, restored)
      })

      const restore = Effect.fn("Connection.restore")(function* (networkOf: (namespace: ChainNamespace) => Effect.Effect<CaipNetwork>) {
        const current = yield* SubscriptionRef.get(state)
        const byConnector = new Map<string, Array<ChainNamespace>>()
        for (const namespace of namespaces) {
          const family = current.namespaces[namespace]
          if (family?.account.status !== "reconnecting" || family.connector === undefined) continue
          byConnector.set(family.connector.id, [...(byConnector.get(family.connector.id) ?? []), namespace])
        }
        const startedAt = yield* Clock.currentTimeMillis
        yield* Effect.forEach(byConnector, ([connectorId, families]) => restoreConnector(connectorId, families, networkOf, startedAt), {
          concurrency: "unbounded",
          discard: true
        })
      })

      const disconnect = Effect.fn("Connection.disconnect")(function* (namespace?: ChainNamespace) {
        const current = yield* SubscriptionRef.get(state)
        const isOpen = (n: ChainNamespace) => (current.namespaces[n]?.account.status ?? "disconnected") !== "disconnected"
        const targets = new Set<ChainNamespace>(namespace !== undefined ? [namespace] : namespaces.filter(isOpen))
        // One connector, one session: every family it holds goes with the one asked for.
        for (const target of [...targets]) {
          const connector = live.get(target)?.connector
          for (const [other, entry] of live) if (connector !== undefined && entry.connector.info.id === connector.info.id) targets.add(other)
        }
        const connectors = new Map([...targets].flatMap((target) => {
          const entry = live.get(target)
          return entry === undefined ? [] : [[entry.connector.info.id, entry.connector] as const]
        }))
        const failures: Array<string> = []
        for (const connector of connectors.values()) {
          const result = yield* Effect.exit(connector.disconnect)
          if (Exit.isFailure(result)) failures.push(`${connector.info.id}: ${String(result.cause)}`)
        }
        // The visitor asked to leave: the sessions are forgotten here even when a wallet did not answer.
        yield* Effect.forEach(targets, (target) => forget(target, targets), { discard: true })
        yield* storage.remove(Keys.walletConnectDeepLink)
        if (failures.length > 0) return yield* new DisconnectFailed({ reason: failures.join("; ") })
        return [...targets]
      })

      const session = Effect.fn("Connection.session")(function* (namespace: ChainNamespace) {
        const entry = live.get(namespace)
        const family = (yield* SubscriptionRef.get(state)).namespaces[namespace]
        if (entry === undefined || family?.account.status !== "connected" || family.account.address === undefined || family.chainId === undefined) {
          return Option.none<LiveSession>()
        }
        return Option.some<LiveSession>({
          namespace,
          connector: entry.connector,
          provider: entry.provider,
          address: family.account.address,
          chainId: family.chainId
        })
      })

      const addRecentWallet = Effect.fn("Connection.addRecentWallet")(function* (wallet: WalletCatalogEntry) {
        const recent = yield* storage.modify(Keys.recentWallets, Keys.addRecentWallet(wallet))
        yield* SubscriptionRef.update(state, (s) => ({ ...s, recentWallets: recent }))
      })

      return {
        state,
        connect,
        restore,
        disconnect,
        session,
        setActiveNamespace: (namespace: ChainNamespace) =>
          SubscriptionRef.update(state, (s) => (s.activeNamespace === namespace ? s : { ...s, activeNamespace: namespace })),
        addRecentWallet,
        reset: (namespace: ChainNamespace) => setNamespace(namespace, (current) => ({ ...current, account: initialAccountState })),
        updateAccount: (namespace: ChainNamespace, update: (account: AccountState) => AccountState) =>
          setNamespace(namespace, (current) => ({ ...current, account: update(current.account) })),
        setWalletChain,
        walletChainChanges: Stream.fromPubSub(chainChanges)
      }
    })
  )
}
