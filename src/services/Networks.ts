/**
 * Networks: the networks the host requested per chain family and the active one of each (spec point 4). The active
 * network falls back to the stored one, an unsupported-network placeholder, or the default / first requested
 * network. Switching asks the family's wallet through its adapter when a wallet is connected; a wallet that moves
 * to a chain outside the list shows UnsupportedChain (unless allowed, switching is off, or basic mode is on).
 */
import { Context, Effect, Layer, Option, Result, Schema, Stream, SubscriptionRef } from "effect"
import { Alerts } from "../domain/alerts"
import type { ChainNamespace } from "../domain/Caip"
import {
  type AdapterForNamespaceMissing,
  CannotRemoveConnectedNetwork,
  CannotRemoveLastNetwork,
  InvalidOptions,
  NetworkNotFound
} from "../domain/errors"
import { CaipNetwork, isUnsupportedNetwork, type NetworkChainId, unsupportedNetwork } from "../domain/Network"
import { showsUnsupportedChain } from "../domain/rules"
import { ChainAdapters, type SwitchError } from "./ChainAdapter"
import { Config, namespacesOf } from "./Config"
import { Connection, type WalletChainChange } from "./Connection"
import { Modal } from "./Modal"
import { Analytics } from "./Analytics"
import { Notifications } from "./Notifications"
import { Storage } from "./Storage/Storage"
import * as Keys from "./Storage/keys"
import { withinWalletAnswerTime } from "./walletAnswer"

/** The requested networks, the active network of each family, and the family in front. */
export interface NetworksState {
  readonly requested: ReadonlyArray<CaipNetwork>
  readonly active: Partial<Record<ChainNamespace, CaipNetwork>>
  readonly activeNamespace: ChainNamespace
}

/**
 * What decides a family's active network at start. Not `allowUnsupportedChain`: a stored network the host no longer
 * lists is shown as unsupported whether or not unsupported chains are allowed (never a silent move); the option
 * decides only whether the UnsupportedChain view opens when a wallet is on such a chain.
 */
export interface InitialNetworkContext {
  readonly requested: ReadonlyArray<CaipNetwork>
  readonly stored: string | null
  readonly defaultNetwork: CaipNetwork | undefined
}

/** The network of `requested` with this CAIP-2 id, also under its deprecated id. */
export const findRequested = (requested: ReadonlyArray<CaipNetwork>, id: string): CaipNetwork | undefined =>
  requested.find((network) => network.caipNetworkId === id || network.deprecatedCaipNetworkId === id)

/**
 * A family's active network at start (spec 4): the stored one when it is requested; the unsupported-network
 * placeholder for a stored network that is no longer in the host's list (never a silent move to another network);
 * else the default network (when it belongs to this family and is requested), else the first requested.
 */
export const initialActiveNetwork = (context: InitialNetworkContext): CaipNetwork | undefined => {
  if (context.stored !== null) {
    const stored = findRequested(context.requested, context.stored)
    if (stored !== undefined) return stored
    const [namespace, reference] = context.stored.split(":")
    const family = context.requested[0]?.chainNamespace
    if (namespace === family && family !== undefined && reference !== undefined && reference !== "") {
      return unsupportedNetwork(family, /^\d+$/.test(reference) ? Number(reference) : reference)
    }
  }
  const preferred = context.defaultNetwork
  if (preferred !== undefined && findRequested(context.requested, preferred.caipNetworkId) !== undefined) return preferred
  return context.requested[0]
}

/** The requested and active networks. */
export class Networks extends Context.Service<
  Networks,
  {
    readonly state: SubscriptionRef.SubscriptionRef<NetworksState>
    /** The active network of a family (its first requested network if it has none yet). */
    readonly activeNetwork: (namespace: ChainNamespace) => Effect.Effect<CaipNetwork, NetworkNotFound>
    /**
     * Makes a network active; when its family has a connected wallet, the wallet is asked to switch (and to add
     * the chain if it does not know it). Unknown ids fail with 'Network with ID {id} not found'.
     */
    readonly switchNetwork: (
      caipNetworkId: string
    ) => Effect.Effect<CaipNetwork, NetworkNotFound | SwitchError | AdapterForNamespaceMissing>
    /** Adds a network to the requested list, decoded first ('Invalid wallet-runtime options: addNetwork: …' when it does not). */
    readonly addNetwork: (network: CaipNetwork) => Effect.Effect<void, InvalidOptions>
    /**
     * Removes a network; not the one a wallet is connected on, nor the last of its family
     * ('Cannot remove last network for a namespace').
     */
    readonly removeNetwork: (
      caipNetworkId: string
    ) => Effect.Effect<void, NetworkNotFound | CannotRemoveLastNetwork | CannotRemoveConnectedNetwork>
  }
>()("wallet-runtime/Networks") {
  /** The live networks; follows the wallet's chain for as long as the layer lives. */
  static readonly layer = Layer.effect(Networks)(
    Effect.gen(function* () {
      const config = yield* Config
      const storage = yield* Storage
      const connection = yield* Connection
      const adapters = yield* ChainAdapters
      const modal = yield* Modal
      const notifications = yield* Notifications
      const analytics = yield* Analytics

      if (config.defaultNetwork !== undefined && findRequested(config.networks, config.defaultNetwork.caipNetworkId) === undefined) {
        yield* notifications.raiseAlert(Alerts.NETWORK_NOT_FOUND)
      }

      const active: Partial<Record<ChainNamespace, CaipNetwork>> = {}
      for (const namespace of namespacesOf(config)) {
        const network = initialActiveNetwork({
          requested: config.networks.filter((n) => n.chainNamespace === namespace),
          stored: yield* storage.get(Keys.activeNetwork(namespace)),
          defaultNetwork: config.defaultNetwork
        })
        if (network !== undefined) active[namespace] = network
      }
      const firstNamespace = (config.defaultNetwork ?? config.networks[0]).chainNamespace
      const connected = yield* SubscriptionRef.get(connection.state)
      const state = yield* SubscriptionRef.make<NetworksState>({
        requested: config.networks,
        active,
        activeNamespace: connected.activeNamespace ?? firstNamespace
      })

      // A family's active network; the family in front changes only when the visitor switches (or connects) to it.
      const setActive = Effect.fn("Networks.setActive")(function* (network: CaipNetwork, front: boolean) {
        yield* SubscriptionRef.update(state, (s) => ({
          ...s,
          active: { ...s.active, [network.chainNamespace]: network },
          activeNamespace: front ? network.chainNamespace : s.activeNamespace
        }))
        if (front) yield* connection.setActiveNamespace(network.chainNamespace)
        if (!isUnsupportedNetwork(network)) {
          yield* storage.set(Keys.activeNetwork(network.chainNamespace), network.caipNetworkId)
        }
      })

      const find = Effect.fn("Networks.find")(function* (id: string) {
        const network = findRequested((yield* SubscriptionRef.get(state)).requested, id)
        if (network === undefined) return yield* new NetworkNotFound({ id })
        return network
      })

      const activeNetwork = Effect.fn("Networks.activeNetwork")(function* (namespace: ChainNamespace) {
        const current = yield* SubscriptionRef.get(state)
        const network = current.active[namespace] ?? current.requested.find((n) => n.chainNamespace === namespace)
        if (network === undefined) return yield* new NetworkNotFound({ id: namespace })
        return network
      })

      const switchNetwork = Effect.fn("Networks.switchNetwork")(function* (caipNetworkId: string) {
        const network = yield* find(caipNetworkId).pipe(
          Effect.tapError(() => notifications.raiseAlert(Alerts.SWITCH_NETWORK_NOT_FOUND))
        )
        const session = yield* connection.session(network.chainNamespace)
        if (Option.isSome(session)) {
          const adapter = yield* adapters.get(network.chainNamespace)
          const current = yield* activeNetwork(network.chainNamespace)
          yield* withinWalletAnswerTime(
            adapter.switchNetwork(
              {
                provider: session.value.provider,
                address: session.value.address,
                network: current,
                walletName: session.value.connector.info.name ?? session.value.connector.info.id
              },
              network
            )
          )
          yield* setActive(network, true)
          yield* connection.setWalletChain(network.chainNamespace, network.id)
          yield* analytics.record("SWITCH_NETWORK", { network: network.caipNetworkId })
        } else {
          yield* setActive(network, true)
        }
        return network
      })

      const followWallet = Effect.fn("Networks.followWallet")(function* (change: WalletChainChange) {
        const current = yield* SubscriptionRef.get(state)
        const network = findRequested(current.requested, `${change.namespace}:${change.chainId}`)
        if (network !== undefined) {
          if (current.active[change.namespace]?.caipNetworkId !== network.caipNetworkId) yield* setActive(network, false)
          return
        }
        yield* setActive(unsupportedNetwork(change.namespace, change.chainId as NetworkChainId), false)
        const shows = showsUnsupportedChain({
          inRequestedNetworks: false,
          allowUnsupportedChain: config.allowUnsupportedChain,
          enableNetworkSwitch: config.enableNetworkSwitch,
          basicMode: config.basic
        })
        if (shows) yield* modal.open({ view: "UnsupportedChain" })
      })

      // A family left on the unsupported placeholder returns to a requested network once its wallet disconnects.
      // Only a wallet leaving counts: a family that starts disconnected keeps a stored network the host dropped
      // (spec 4: it shows as the unsupported network until the visitor picks one).
      const wasOpen = new Set<ChainNamespace>()
      const leaveUnsupportedOnDisconnect = Effect.fn("Networks.leaveUnsupported")(function* (
        statuses: ReadonlyArray<readonly [ChainNamespace, string]>
      ) {
        const current = yield* SubscriptionRef.get(state)
        for (const [namespace, status] of statuses) {
          const left = status === "disconnected" && wasOpen.has(namespace)
          if (status === "disconnected") wasOpen.delete(namespace)
          else wasOpen.add(namespace)
          const network = current.active[namespace]
          if (!left || network === undefined || !isUnsupportedNetwork(network)) continue
          const fallback = current.requested.find((n) => n.chainNamespace === namespace)
          if (fallback !== undefined) {
            yield* SubscriptionRef.update(state, (s) => ({ ...s, active: { ...s.active, [namespace]: fallback } }))
          }
        }
      })

      yield* connection.walletChainChanges.pipe(Stream.runForEach(followWallet), Effect.forkScoped)
      // The family in front is the Connection's (the family connected last, or switched to): its network shows.
      yield* SubscriptionRef.changes(connection.state).pipe(
        Stream.map((s) => s.activeNamespace),
        Stream.changes,
        Stream.runForEach((namespace) =>
          namespace === undefined
            ? Effect.void
            : SubscriptionRef.update(state, (s) => (s.activeNamespace === namespace ? s : { ...s, activeNamespace: namespace }))
        ),
        Effect.forkScoped
      )
      yield* SubscriptionRef.changes(connection.state).pipe(
        Stream.map((s) =>
          Object.entries(s.namespaces).map(([n, c]) => [n as ChainNamespace, c?.account.status ?? "disconnected"] as const)
        ),
        Stream.runForEach(leaveUnsupportedOnDisconnect),
        Effect.forkScoped
      )

      const addNetwork = Effect.fn("Networks.addNetwork")(function* (given: CaipNetwork) {
        // A host's value (any script's, through the Effect API): decoded here as the options' networks are, so a bad
        // id or absurd decimals fail now, typed, rather than later inside an adapter; a getter that throws too.
        const decoded = Result.try({
          try: () => Schema.decodeUnknownResult(CaipNetwork)(given, { errors: "all" }),
          catch: () => new InvalidOptions({ issues: "addNetwork: the network could not be read" })
        }).pipe(Result.flatMap((result) => Result.mapError(result, (error) => new InvalidOptions({ issues: `addNetwork: ${error.message}` }))))
        if (Result.isFailure(decoded)) return yield* decoded.failure
        const network = decoded.success
        yield* SubscriptionRef.update(state, (s) =>
          findRequested(s.requested, network.caipNetworkId) !== undefined ? s : { ...s, requested: [...s.requested, network] }
        )
      })

      const removeNetwork = Effect.fn("Networks.removeNetwork")(function* (caipNetworkId: string) {
        const network = yield* find(caipNetworkId)
        const namespace = network.chainNamespace
        const connectedFamily = (yield* SubscriptionRef.get(connection.state)).namespaces[namespace]
        if (connectedFamily?.account.status === "connected" && connectedFamily.chainId === network.id) {
          return yield* new CannotRemoveConnectedNetwork({ id: network.caipNetworkId })
        }
        const current = yield* SubscriptionRef.get(state)
        if (current.requested.filter((n) => n.chainNamespace === namespace).length <= 1) {
          return yield* new CannotRemoveLastNetwork()
        }
        const requested = current.requested.filter((n) => n.caipNetworkId !== network.caipNetworkId)
        const wasActive = current.active[namespace]?.caipNetworkId === network.caipNetworkId
        const fallback = requested.find((n) => n.chainNamespace === namespace)
        yield* SubscriptionRef.update(state, (s) => ({
          ...s,
          requested,
          active: wasActive && fallback !== undefined ? { ...s.active, [namespace]: fallback } : s.active
        }))
      })

      return { state, activeNetwork, switchNetwork, addNetwork, removeNetwork }
    })
  )
}
