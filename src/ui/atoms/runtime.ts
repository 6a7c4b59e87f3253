/**
 * The atom runtime: atoms are defined once, statically; which services they read is decided per registry, by the
 * two atoms `makeWalletRuntime` seeds (`src/runtimeAtoms.ts`) — the runtime's layer, and the MemoMap it shares with
 * the ManagedRuntime, so services are built once for both.
 */
import { type Cause, Effect, Stream, SubscriptionRef } from "effect"
import * as AsyncResult from "effect/reactivity/AsyncResult"
import * as Atom from "effect/reactivity/Atom"
import type { ClientsNotSet } from "../../domain/errors"
import { type BaseServices, memoMapAtom, servicesLayerAtom } from "../../runtimeAtoms"

/** The runtime every atom of the product runs in. */
export const walletRuntimeAtom = Atom.context({ memoMap: memoMapAtom })((get) => get(servicesLayerAtom))

/** What a state atom holds: the state, or why the runtime could not give it. */
export type StateResult<A> = AsyncResult.AsyncResult<A, ClientsNotSet | Cause.NoSuchElementError>

/**
 * An atom following a service's state: its current value, then every change. On the server (and while hydrating)
 * it is `Initial`, so the server's HTML never depends on services and always matches the client's first render.
 */
export const stateAtom = <A>(
  select: Effect.Effect<SubscriptionRef.SubscriptionRef<A>, never, BaseServices>
): Atom.Atom<StateResult<A>> => stateLikeAtom(Stream.unwrap(Effect.map(select, SubscriptionRef.changes)))

/** An atom following a stream of states built from the services; `Initial` on the server, like `stateAtom`. */
export const stateLikeAtom = <A>(states: Stream.Stream<A, never, BaseServices>): Atom.Atom<StateResult<A>> =>
  Atom.withServerValueInitial(walletRuntimeAtom.atom(states))

/**
 * A view of a state atom. On the server it is computed from `Initial` (the state atom's own server value): the
 * server hands derived atoms real values, so deriving from the source there would build services during SSR.
 */
export const mapAtom = <A, B>(source: Atom.Atom<StateResult<A>>, f: (value: StateResult<A>) => B): Atom.Atom<B> =>
  Atom.map(source, f).pipe(Atom.withServerValue(() => f(AsyncResult.initial(true))))
