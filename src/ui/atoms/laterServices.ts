/**
 * Atom runtimes for the services the React runtime does not build at start (the Swap and Buy forms): their atoms'
 * chunks bring them, so the first click carries none of their code. Each adds its layer to the runtime's services
 * through the runtime's MemoMap: the service is built the first time one of its atoms is read, once per runtime (a
 * runtime made by the `wallet-runtime` entry, which has it already, hands over that very instance), and lives until
 * the registry is disposed, so a swap in flight goes on when its view closes.
 */
import { Effect, Layer, Stream, SubscriptionRef } from "effect"
import * as Atom from "effect/reactivity/Atom"
import type { ClientsNotSet } from "../../domain/errors"
import { type BaseServices, memoMapAtom, servicesLayerAtom } from "../../runtimeAtoms"
import type { StateResult } from "./runtime"

/** The runtime's services with `layer`'s service added on first use (one atom runtime per call: call it once, at module level). */
export const laterServiceRuntime = <I>(layer: Layer.Layer<I, never, BaseServices>): Atom.AtomRuntime<I, ClientsNotSet> =>
  Atom.keepAlive(Atom.context({ memoMap: memoMapAtom })((get) => layer.pipe(Layer.provide(get(servicesLayerAtom)))))

/** An atom following the state of a service added later, as `stateAtom` follows one built at start. */
export const laterStateAtom = <I, A>(
  runtime: Atom.AtomRuntime<I, ClientsNotSet>,
  select: Effect.Effect<SubscriptionRef.SubscriptionRef<A>, never, I>
): Atom.Atom<StateResult<A>> => Atom.withServerValueInitial(runtime.atom(Stream.unwrap(Effect.map(select, SubscriptionRef.changes))))
