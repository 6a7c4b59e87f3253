/**
 * ChainAdapter: what the runtime core asks of a chain family (eip155, solana, bip122, polkadot). The core decides
 * *when* to connect, switch or disconnect; an adapter knows *how* for its family and its connectors. Adapters are
 * registered in `ChainAdapters`; the chain-family code behind each is loaded lazily by its implementation.
 */
import { Context, Effect, Layer, Option, PubSub, type Scope, Stream, SubscriptionRef } from "effect"
import type { Account } from "../domain/Account"
import type { ChainNamespace } from "../domain/Caip"
import {
  AdapterForNamespaceMissing,
  type ChainNotSupported,
  type DisconnectFailed,
  type ProgrammaticSwitchUnsupported,
  type ProviderNotFound,
  type SignMessageFailed,
  type SomethingWentWrong,
  type UserRejected
} from "../domain/errors"
import type { CaipNetwork, NetworkChainId } from "../domain/Network"
import type { ConnectorInfo } from "../domain/Wallet"

/** A wallet session an adapter established or restored. */
export interface AdapterSession {
  /** The address in use. */
  readonly address: string
  /** Every account the wallet exposes, the one in use first. */
  readonly accounts: ReadonlyArray<Account>
  /** The chain the wallet is on now (may be outside the host's networks). */
  readonly chainId: NetworkChainId
  /** The connector the session goes through. */
  readonly connector: ConnectorInfo
}

/** Something the wallet did on its own. */
export type AdapterEvent =
  | { readonly _tag: "AccountsChanged"; readonly accounts: ReadonlyArray<Account> }
  | { readonly _tag: "ChainChanged"; readonly chainId: NetworkChainId }
  | { readonly _tag: "Disconnected" }

/** Why a connect failed. */
export type ConnectError = UserRejected | ProviderNotFound | SomethingWentWrong

/** Why a network switch failed. */
export type SwitchError = ChainNotSupported | ProgrammaticSwitchUnsupported | UserRejected | SomethingWentWrong

/** One chain family's adapter. */
export interface ChainAdapter {
  readonly namespace: ChainNamespace
  /**
   * The wallets this family can connect through right now (installed and announced wallets appear as they
   * announce themselves). Finding them must stay light: no chain library is loaded for it.
   */
  readonly connectors: SubscriptionRef.SubscriptionRef<ReadonlyArray<ConnectorInfo>>
  /** Asks the wallet behind `connectorId` for its accounts, on `network` when it can. */
  readonly connect: (connectorId: string, network: CaipNetwork) => Effect.Effect<AdapterSession, ConnectError>
  /** Restores a session without prompting; `None` when the wallet no longer authorises this site. */
  readonly reconnect: (
    connectorId: string,
    network: CaipNetwork
  ) => Effect.Effect<Option.Option<AdapterSession>, ConnectError>
  /** Ends the session with the wallet and clears the connector's own data (e.g. pairing). */
  readonly disconnect: Effect.Effect<void, DisconnectFailed>
  /** Asks the wallet to switch to `network`, adding it first when the wallet does not know it. */
  readonly switchNetwork: (network: CaipNetwork) => Effect.Effect<void, SwitchError>
  /** What the wallet does on its own, while a session is open. */
  readonly events: Stream.Stream<AdapterEvent>
  /** Asks the connected wallet to sign a text message; the signature in the family's usual encoding. */
  readonly signMessage: (message: string) => Effect.Effect<string, SignMessageFailed | UserRejected | ProviderNotFound>
}

/** The adapters of the configured chain families. */
export class ChainAdapters extends Context.Service<
  ChainAdapters,
  {
    /** The adapter of a family, or "Adapter for namespace {x} doesn't exist". */
    readonly get: (namespace: ChainNamespace) => Effect.Effect<ChainAdapter, AdapterForNamespaceMissing>
    /** Families with an adapter. */
    readonly namespaces: ReadonlyArray<ChainNamespace>
  }
>()("wallet-runtime/ChainAdapters") {
  /** A registry over the given adapters. */
  static readonly layer = (adapters: ReadonlyArray<ChainAdapter>): Layer.Layer<ChainAdapters> =>
    Layer.succeed(ChainAdapters)(makeRegistry(adapters))

  /** A registry over adapters that are built with services (a transport, the page's wallets) and live in the layer's scope. */
  static readonly layerFrom = <R>(
    adapters: ReadonlyArray<Effect.Effect<ChainAdapter, never, R>>
  ): Layer.Layer<ChainAdapters, never, Exclude<R, Scope.Scope>> =>
    Layer.effect(ChainAdapters)(Effect.map(Effect.all(adapters), makeRegistry))
}

const makeRegistry = (adapters: ReadonlyArray<ChainAdapter>) => {
  const byNamespace = new Map(adapters.map((adapter) => [adapter.namespace, adapter] as const))
  return {
    namespaces: [...byNamespace.keys()],
    get: (namespace: ChainNamespace) => {
      const adapter = byNamespace.get(namespace)
      return adapter === undefined
        ? Effect.fail(new AdapterForNamespaceMissing({ namespace }))
        : Effect.succeed(adapter)
    }
  }
}

/** How a fake adapter behaves; every field can be changed while a test runs. */
export interface FakeWalletScript {
  /** Accounts the wallet gives on connect; an empty list means it has none. */
  accounts: ReadonlyArray<Account>
  /** The chain the wallet is on. */
  chainId: NetworkChainId
  /** Whether the wallet still authorises the site on reconnect. */
  authorised: boolean
  /** A failure the next connect returns. */
  connectError: ConnectError | undefined
  /** A failure the next switch returns. */
  switchError: SwitchError | undefined
  /** A failure the next disconnect returns. */
  disconnectError: DisconnectFailed | undefined
  /** A failure the next signature returns. */
  signError: SignMessageFailed | UserRejected | undefined
}

/** A fake adapter for tests: a scripted wallet, plus a way to emit wallet events. */
export interface FakeChainAdapter extends ChainAdapter {
  readonly script: FakeWalletScript
  /** Emits an event as if the wallet had done something. */
  readonly emit: (event: AdapterEvent) => Effect.Effect<void>
  /** Calls made, in order, e.g. `connect:injected`, `switch:eip155:31338`, `disconnect`. */
  readonly calls: ReadonlyArray<string>
}

/** Makes a fake adapter of `namespace` whose wallet answers as `script` says. */
export const makeFakeChainAdapter = (
  namespace: ChainNamespace,
  script: Partial<FakeWalletScript> &
    Pick<FakeWalletScript, "accounts" | "chainId"> & { readonly connectors?: ReadonlyArray<ConnectorInfo> },
  connectorType: ConnectorInfo["type"] = "INJECTED"
): Effect.Effect<FakeChainAdapter> =>
  Effect.gen(function* () {
    const events = yield* PubSub.unbounded<AdapterEvent>()
    const state: FakeWalletScript = {
      authorised: true,
      connectError: undefined,
      switchError: undefined,
      disconnectError: undefined,
      signError: undefined,
      ...script
    }
    const calls: Array<string> = []
    const connectors = yield* SubscriptionRef.make<ReadonlyArray<ConnectorInfo>>(script.connectors ?? [])
    const session = (connectorId: string): AdapterSession => ({
      address: state.accounts[0]?.address ?? "",
      accounts: state.accounts,
      chainId: state.chainId,
      connector: { id: connectorId, name: connectorId, type: connectorType, chain: namespace, chains: [] }
    })
    const adapter: FakeChainAdapter = {
      namespace,
      connectors,
      script: state,
      calls,
      emit: (event) => PubSub.publish(events, event).pipe(Effect.asVoid),
      connect: (connectorId) =>
        Effect.suspend(() => {
          calls.push(`connect:${connectorId}`)
          const error = state.connectError
          return error !== undefined ? Effect.fail(error) : Effect.succeed(session(connectorId))
        }),
      reconnect: (connectorId) =>
        Effect.sync(() => {
          calls.push(`reconnect:${connectorId}`)
          return state.authorised && state.accounts.length > 0 ? Option.some(session(connectorId)) : Option.none()
        }),
      disconnect: Effect.suspend(() => {
        calls.push("disconnect")
        const error = state.disconnectError
        return error !== undefined ? Effect.fail(error) : Effect.void
      }),
      switchNetwork: (network) =>
        Effect.suspend(() => {
          calls.push(`switch:${network.caipNetworkId}`)
          const error = state.switchError
          if (error !== undefined) return Effect.fail(error)
          state.chainId = network.id
          return Effect.void
        }),
      events: Stream.fromPubSub(events),
      signMessage: (message) =>
        Effect.suspend(() => {
          calls.push(`sign:${message}`)
          const error = state.signError
          // A recognisable fake signature: the tests check what was signed, not cryptography.
          return error !== undefined ? Effect.fail(error) : Effect.succeed(`signed(${state.accounts[0]?.address ?? ""}):${message}`)
        })
    }
    return adapter
  })
