/**
 * The Connectors registry: every family's discovery (EIP-6963 and injected wallets, Wallet Standard wallets,
 * WalletConnect, later the embedded wallet) merged into one list, one entry per wallet. A wallet reachable in
 * several families (the same rdns or name announced through EIP-6963 and registered through the Wallet Standard) is
 * one MULTI_CHAIN entry that connects each family it serves. Connectors whose one session already serves several
 * families (WalletConnect, the embedded wallet) are never merged with others.
 */
import { Context, Duration, Effect, Exit, Layer, Option, type Scope, Stream, SubscriptionRef } from "effect"
import type { ChainNamespace } from "../../domain/Caip"
import { DisconnectFailed, ProviderNotFound } from "../../domain/errors"
import type { CaipNetwork } from "../../domain/Network"
import { type ConnectorType, isSameWallet, walletKeyOf } from "../../domain/Wallet"
import { type ConnectError, type Connector, type FamilySession, networksFor } from "./Connector"

/** A source of connectors: what one kind of discovery finds, live. */
export type ConnectorSource = SubscriptionRef.SubscriptionRef<ReadonlyArray<Connector>>

/** Connector types whose one session serves several families on its own: never merged into a multi-chain entry. */
const SESSION_CONNECTOR_TYPES: ReadonlyArray<ConnectorType> = ["WALLET_CONNECT", "AUTH"]

const identityOf = (connector: Connector) => ({ name: connector.info.name, rdns: connector.info.info?.rdns })

/**
 * One wallet reached through its per-family connectors: connecting asks each family in turn and stops at the first
 * refusal (the visitor said no: no second prompt); it succeeds with the families that connected.
 */
export const multiChainConnector = (members: ReadonlyArray<Connector>): Connector => {
  const first = members[0]!
  const rdns = members.map((member) => member.info.info?.rdns).find((value) => value !== undefined && value !== "")
  const connectEach = (
    networks: ReadonlyArray<CaipNetwork>,
    each: (member: Connector, networks: ReadonlyArray<CaipNetwork>) => Effect.Effect<ReadonlyArray<FamilySession>, ConnectError>,
    stopAtFirstFailure: boolean
  ) =>
    Effect.gen(function* () {
      const sessions: Array<FamilySession> = []
      let failure: ConnectError | undefined
      for (const member of members) {
        const wanted = networksFor(member, networks)
        if (wanted.length === 0) continue
        const exit = yield* Effect.exit(each(member, wanted))
        if (Exit.isSuccess(exit)) {
          sessions.push(...exit.value)
          continue
        }
        const error = Option.getOrUndefined(Exit.findErrorOption(exit))
        if (error === undefined) return yield* exit
        failure ??= error
        if (stopAtFirstFailure) break
      }
      if (sessions.length === 0 && failure !== undefined) return yield* Effect.fail(failure)
      return sessions
    })
  return {
    info: {
      id: rdns ?? `wallet:${walletKeyOf(first.info)}`,
      name: first.info.name ?? first.info.id,
      type: "MULTI_CHAIN",
      chain: first.info.chain,
      chains: members.flatMap((member) => member.info.chains),
      ...(members.find((member) => member.info.imageUrl !== undefined)?.info.imageUrl !== undefined
        ? { imageUrl: members.find((member) => member.info.imageUrl !== undefined)!.info.imageUrl! }
        : {}),
      ...(rdns !== undefined ? { info: { rdns } } : {})
    },
    namespaces: members.flatMap((member) => member.namespaces),
    memberIds: members.flatMap((member) => [member.info.id, ...member.memberIds]),
    connect: (networks) => connectEach(networks, (member, wanted) => member.connect(wanted), true),
    reconnect: (networks) => connectEach(networks, (member, wanted) => member.reconnect(wanted), false),
    disconnect: Effect.forEach(members, (member) => Effect.exit(member.disconnect)).pipe(
      Effect.flatMap((exits) => {
        const failed = exits.filter(Exit.isFailure)
        return failed.length === 0
          ? Effect.void
          : Effect.fail(new DisconnectFailed({ reason: failed.map((exit) => String(exit.cause)).join("; ") }))
      })
    ),
    events: Stream.mergeAll(
      members.map((member) => member.events),
      { concurrency: "unbounded" }
    )
  }
}

/**
 * The one rule that makes one row per wallet: connectors of different families that are the same wallet (same rdns,
 * else same name) become one multi-chain connector; a merged entry is kept as long as its members are the same.
 */
export const makeMerger = () => {
  const merged = new Map<string, { readonly members: ReadonlyArray<Connector>; readonly connector: Connector }>()
  return (lists: ReadonlyArray<ReadonlyArray<Connector>>): ReadonlyArray<Connector> => {
    const groups: Array<Array<Connector>> = []
    for (const connector of lists.flat()) {
      const shared = SESSION_CONNECTOR_TYPES.includes(connector.info.type)
      const group = shared
        ? undefined
        : groups.find(
            (members) =>
              !SESSION_CONNECTOR_TYPES.includes(members[0]!.info.type) &&
              members.every((member) => !member.namespaces.some((namespace) => connector.namespaces.includes(namespace))) &&
              isSameWallet(identityOf(members[0]!), identityOf(connector))
          )
      if (group !== undefined) group.push(connector)
      else groups.push([connector])
    }
    const live = new Set<string>()
    const result = groups.map((members) => {
      if (members.length === 1) return members[0]!
      const key = members.map((member) => member.info.id).join("\u0000")
      live.add(key)
      const existing = merged.get(key)
      if (existing !== undefined && members.every((member, index) => existing.members[index] === member)) return existing.connector
      const connector = multiChainConnector(members)
      merged.set(key, { members, connector })
      return connector
    })
    for (const key of merged.keys()) if (!live.has(key)) merged.delete(key)
    return result
  }
}

/** Whether `connector` is, or stands for, the connector with this id (a multi-chain entry answers for its members). */
export const answersTo = (connector: Connector, id: string): boolean => connector.info.id === id || connector.memberIds.includes(id)

/** The families' connectors, merged: one entry per wallet. */
export class Connectors extends Context.Service<
  Connectors,
  {
    /** Every wallet the page can reach now, WalletConnect first; updated as wallets announce themselves. */
    readonly connectors: SubscriptionRef.SubscriptionRef<ReadonlyArray<Connector>>
    /** The connector with this id (or standing for it), if the wallet is there now. */
    readonly find: (id: string) => Effect.Effect<Option.Option<Connector>>
    /** The connector with this id, or 'Provider not found.' */
    readonly get: (id: string) => Effect.Effect<Connector, ProviderNotFound>
    /** Waits up to `waitMs` for the connector to appear (a wallet announces itself as the page loads). */
    readonly await: (id: string, waitMs: number) => Effect.Effect<Option.Option<Connector>>
    /** The connectors serving a family. */
    readonly ofFamily: (namespace: ChainNamespace) => Effect.Effect<ReadonlyArray<Connector>>
  }
>()("wallet-runtime/Connectors") {
  /** A registry over fixed connectors (tests, a host handing its own). */
  static readonly layer = (connectors: ReadonlyArray<Connector>): Layer.Layer<Connectors> =>
    Connectors.layerFrom([SubscriptionRef.make(connectors)])

  /** A registry over discovery sources that are built with services and live in the layer's scope. */
  static readonly layerFrom = <R>(
    sources: ReadonlyArray<Effect.Effect<ConnectorSource, never, R>>
  ): Layer.Layer<Connectors, never, Exclude<R, Scope.Scope>> =>
    Layer.effect(Connectors)(
      Effect.gen(function* () {
        const refs = yield* Effect.all(sources)
        const merge = makeMerger()
        const current = yield* Effect.forEach(refs, SubscriptionRef.get)
        const connectors = yield* SubscriptionRef.make(merge(current))
        // Each source's changes re-merge the whole list (there are a handful of wallets, never thousands of sources).
        yield* Stream.mergeAll(
          refs.map((ref, index) => SubscriptionRef.changes(ref).pipe(Stream.map((list) => [index, list] as const))),
          { concurrency: "unbounded" }
        ).pipe(
          Stream.runForEach(([index, list]) =>
            Effect.suspend(() => {
              current[index] = list
              return SubscriptionRef.set(connectors, merge(current))
            })
          ),
          Effect.forkScoped
        )
        const find = (id: string) =>
          Effect.map(SubscriptionRef.get(connectors), (list) => Option.fromNullishOr(list.find((c) => answersTo(c, id))))
        return {
          connectors,
          find,
          get: (id: string) =>
            Effect.flatMap(find(id), (found) => (Option.isSome(found) ? Effect.succeed(found.value) : Effect.fail(new ProviderNotFound()))),
          await: (id: string, waitMs: number) =>
            SubscriptionRef.changes(connectors).pipe(
              Stream.map((list) => list.find((c) => answersTo(c, id))),
              Stream.filter((found): found is Connector => found !== undefined),
              Stream.runHead,
              Effect.timeoutOption(Duration.millis(waitMs)),
              Effect.map(Option.flatten)
            ),
          ofFamily: (namespace: ChainNamespace) =>
            Effect.map(SubscriptionRef.get(connectors), (list) => list.filter((c) => c.namespaces.includes(namespace)))
        }
      })
    )
}
