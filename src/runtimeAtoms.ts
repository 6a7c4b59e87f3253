/**
 * The two atoms that tie a registry to its runtime: the services layer, and the MemoMap the ManagedRuntime shares
 * with the atom runtime, so both see the same services, built once. `makeWalletRuntime` seeds them per registry;
 * the atoms of `src/ui` read them. Nothing here imports React or the views.
 */
import { Effect, Layer } from "effect"
import * as Atom from "effect/reactivity/Atom"
import { ClientsNotSet } from "./domain/errors"
import type { BaseServices } from "./layers/Base"

/** The services every runtime builds at start (what the atoms of the UI may read; the forms' atoms add theirs). */
export type { BaseServices }

/** The MemoMap shared with the ManagedRuntime (seeded per registry). */
export const memoMapAtom: Atom.Atom<Layer.MemoMap> = Atom.keepAlive(Atom.make(() => Layer.makeMemoMapUnsafe()))

/** The services layer of this registry's runtime (seeded per registry; unset, every atom fails clearly). */
export const servicesLayerAtom: Atom.Atom<Layer.Layer<BaseServices, ClientsNotSet>> = Atom.keepAlive(
  Atom.make(() => Layer.unwrap(Effect.fail(new ClientsNotSet()) as Effect.Effect<Layer.Layer<BaseServices>, ClientsNotSet>))
)
