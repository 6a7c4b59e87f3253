/**
 * The two ways the light hooks reach the runtime: read an atom of the core (a constant fallback until the core has
 * loaded), and run an action atom of the core (loading it first when the visitor acts before it is there). React
 * only; each hook calls the same React hooks before and after the core arrives.
 */
import type * as AsyncResult from "effect/reactivity/AsyncResult"
import type * as Atom from "effect/reactivity/Atom"
import { useCallback, useEffect, useMemo, useState } from "react"
import type { ModalView } from "../../domain/rules"
import { useStoreValue } from "../atom-react/store"
import { preloadViews } from "../views/registry"
import { type Core, type Ready, useReady, useShell } from "./context"

const neverEqual = () => false

/**
 * The value of the core's atom `pick(core)` — through `select` when given — or `fallback` while the core loads (and on
 * the server). `pick`, `select` and `fallback` must be constants (module-level), not made during render.
 */
export function useCoreValue<A>(pick: (core: Core) => Atom.Atom<A>, fallback: A): A
export function useCoreValue<A, B>(pick: (core: Core) => Atom.Atom<A>, fallback: B, select: (value: A, core: Core) => B): B
export function useCoreValue<A, B>(
  pick: (core: Core) => Atom.Atom<A>,
  fallback: A | B,
  select?: (value: A, core: Core) => B
): A | B {
  const ready = useReady()
  const store = ready === undefined ? undefined : ready.core.storeOf(ready.runtime.registry, pick(ready.core))
  const selector = useMemo(
    () => (ready === undefined || select === undefined ? undefined : (value: A) => select(value, ready.core)),
    [ready, select]
  )
  return useStoreValue(store, fallback, selector, ready?.core.equals ?? neverEqual)
}

/**
 * Runs the core's action atom `pick(core)` with a value: a promise of its value, rejected with the typed error. The
 * atom stays mounted while the component is (its state outlives a re-render); called before the core has loaded,
 * it loads it first. `pick` must be stable (module-level, or memoised).
 */
export function useCoreAction<W, A, E>(
  pick: (core: Core) => Atom.Writable<AsyncResult.AsyncResult<A, E>, W>
): (value: W) => Promise<A> {
  const shell = useShell()
  const ready = useReady()
  useEffect(() => (ready === undefined ? undefined : ready.runtime.registry.mount(pick(ready.core))), [ready, pick])
  return useCallback(
    (value: W) => {
      const run = ({ core, runtime }: Ready) => core.call(runtime.registry, pick(core), value)
      const loaded = shell.ready()
      return loaded === undefined ? shell.load().then(run) : run(loaded)
    },
    [shell, pick]
  )
}

const ignore = () => {}

/**
 * The atoms of a feature whose code is fetched on first use (`load`, module-level, gives its module): fetched once the
 * core is there, `undefined` until then. A hook reading them calls the same React hooks before and after they arrive.
 */
export function useLazyAtoms<M>(load: () => Promise<M>): M | undefined {
  const ready = useReady()
  const [atoms, setAtoms] = useState<M | undefined>(undefined)
  useEffect(() => {
    if (ready === undefined) return undefined
    let mounted = true
    load().then((loaded) => mounted && setAtoms(() => loaded), ignore)
    return () => {
      mounted = false
    }
  }, [ready, load])
  return atoms
}

/** The value of a lazily fetched atom (see {@link useLazyAtoms}), or `fallback` until it and the core are there. */
export function useLazyValue<A>(atom: Atom.Atom<A> | undefined, fallback: A): A {
  const ready = useReady()
  const store = ready === undefined || atom === undefined ? undefined : ready.core.storeOf(ready.runtime.registry, atom)
  return useStoreValue(store, fallback, undefined, ready?.core.equals ?? neverEqual)
}

/**
 * Runs the action atom `pick(atoms)` of a feature whose atoms `load` fetches (module-level, like `pick`): as
 * {@link useCoreAction}, loading the core and the feature's atoms first when the visitor acts before they are there.
 * `atoms` is what {@link useLazyAtoms} gave, to keep the action mounted while the component is.
 */
export function useLazyAction<M, W, A, E>(
  load: () => Promise<M>,
  atoms: M | undefined,
  pick: (atoms: M) => Atom.Writable<AsyncResult.AsyncResult<A, E>, W>
): (value: W) => Promise<A> {
  const shell = useShell()
  const ready = useReady()
  useEffect(
    () => (ready === undefined || atoms === undefined ? undefined : ready.runtime.registry.mount(pick(atoms))),
    [ready, atoms, pick]
  )
  return useCallback(
    (value: W) =>
      Promise.all([shell.ready() ?? shell.load(), load()]).then(([{ core, runtime }, loaded]) =>
        core.call(runtime.registry, pick(loaded), value)
      ),
    [shell, load, pick]
  )
}

/**
 * What a button of ours does when the visitor shows intent (points at it, focuses it, touches it): the runtime's code
 * and the views it opens are fetched then. `views` must be a constant array (a new array each render would renew the
 * callback).
 */
export function useIntentPreload(views: ReadonlyArray<ModalView>): () => void {
  const shell = useShell()
  return useCallback(() => {
    void shell.load().catch(ignore)
    preloadViews(views)
  }, [shell, views])
}
