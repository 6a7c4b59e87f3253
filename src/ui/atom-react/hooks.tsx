/**
 * React bindings for `effect/reactivity` atoms: a registry provider and hooks built on `useSyncExternalStore`.
 *
 * The published `@effect/atom-react` does not load with effect 4.1 (see FACTS.md); these cover what the modal
 * needs. On the server, hooks read each atom's server value and never subscribe, so `renderToString` touches no
 * browser API. Every hook must be used inside a `RegistryProvider`: a registry shared by default would leak one
 * visitor's state into another's page during SSR.
 */
import { Cause, Effect, Equal, type Exit } from "effect"
import type * as AsyncResult from "effect/reactivity/AsyncResult"
import * as Atom from "effect/reactivity/Atom"
import * as AtomRegistry from "effect/reactivity/AtomRegistry"
import { createContext, type ReactNode, use, useCallback, useContext, useEffect, useRef, useState } from "react"
import { ShellContext } from "../react/context"
import { type AtomStore, useStoreValue } from "./store"

const RegistryContext = createContext<AtomRegistry.AtomRegistry | undefined>(undefined)

/** Initial values for atoms, applied when the provider creates its registry (each pair's types match; `any` as in AtomRegistry.make). */
export type InitialAtomValues = Iterable<readonly [Atom.Atom<any>, any]>

/** Props of {@link RegistryProvider}. */
export interface RegistryProviderProps {
  /** A registry owned by the caller (it is not disposed here); without it the provider makes and disposes its own. */
  readonly registry?: AtomRegistry.AtomRegistry | undefined
  /** Values seeded into a registry the provider makes. */
  readonly initialValues?: InitialAtomValues | undefined
  readonly children?: ReactNode
}

const disposed = new WeakSet<AtomRegistry.AtomRegistry>()
const disposing = new WeakSet<AtomRegistry.AtomRegistry>()

/**
 * Gives the atom hooks below it one registry.
 *
 * @example
 * <RegistryProvider><App /></RegistryProvider>
 */
export function RegistryProvider(props: RegistryProviderProps): ReactNode {
  const owned = useRef<AtomRegistry.AtomRegistry | undefined>(undefined)
  const [, rerender] = useState(0)
  if (props.registry === undefined && (owned.current === undefined || disposed.has(owned.current))) {
    owned.current = AtomRegistry.make({ initialValues: props.initialValues })
  }
  const registry = props.registry ?? owned.current!
  useEffect(() => {
    const mine = owned.current
    if (props.registry !== undefined || mine === undefined) return
    // Effects of a component kept alive off-screen are torn down and run again: its registry was released then.
    if (disposed.has(mine)) {
      rerender((n) => n + 1)
      return
    }
    disposing.delete(mine)
    return () => {
      // StrictMode tears effects down and runs them again at once; only a teardown not undone by then is an unmount.
      disposing.add(mine)
      queueMicrotask(() => {
        if (!disposing.has(mine)) return
        disposing.delete(mine)
        disposed.add(mine)
        mine.dispose()
      })
    }
  }, [props.registry, registry])
  return <RegistryContext.Provider value={registry}>{props.children}</RegistryContext.Provider>
}

/** The registry of the nearest {@link RegistryProvider}. */
export function useRegistry(): AtomRegistry.AtomRegistry {
  const registry = useContext(RegistryContext)
  const shell = useContext(ShellContext)
  if (registry !== undefined) return registry
  // Under a WalletRuntimeProvider, its runtime's registry; while the runtime's code still loads, the caller suspends.
  if (shell !== undefined) return use(shell.load()).runtime.registry
  // A host calling the wallet hooks outside the provider is told which component its app is missing.
  throw new Error("Atom hooks must be used inside a <RegistryProvider> (wallet hooks: inside <WalletRuntimeProvider>)")
}

// One store per registry and atom, so useSyncExternalStore sees stable functions and does not resubscribe. Each
// store's type parameter is its atom's, which a WeakMap cannot express: hence `any`.
const stores = new WeakMap<AtomRegistry.AtomRegistry, WeakMap<Atom.Atom<any>, AtomStore<any>>>()

// How many snapshots are being read right now (React reads them while it renders).
let readingSnapshot = 0

/** The store of one atom in one registry, the same object for the same pair. */
export const storeOf = <A,>(registry: AtomRegistry.AtomRegistry, atom: Atom.Atom<A>): AtomStore<A> => {
  let byAtom = stores.get(registry)
  if (byAtom === undefined) {
    byAtom = new WeakMap()
    stores.set(registry, byAtom)
  }
  const existing = byAtom.get(atom)
  if (existing !== undefined) return existing
  const store: AtomStore<A> = {
    // A change made while a snapshot is read (an atom read in one component's render runs an effect that changes
    // another atom: a failed balance shows a snackbar) is told to React a microtask later, not mid-render.
    subscribe: (onChange) =>
      registry.subscribe(atom, () => {
        if (readingSnapshot > 0) queueMicrotask(onChange)
        else onChange()
      }),
    snapshot: () => {
      readingSnapshot++
      try {
        return registry.get(atom)
      } finally {
        readingSnapshot--
      }
    },
    serverSnapshot: () => Atom.getServerValue(atom, registry)
  }
  byAtom.set(atom, store)
  return store
}

/**
 * The current value of an atom, re-rendering when it changes; with a selector, only when the selected part changes
 * (compared with `Equal.equals`, so a selector may build a new object each time).
 *
 * @example
 * const status = useAtomValue(connectionStatusAtom)
 * const address = useAtomValue(accountAtom, (account) => account.address)
 */
export function useAtomValue<A>(atom: Atom.Atom<A>): A
export function useAtomValue<A, B>(atom: Atom.Atom<A>, selector: (value: A) => B): B
export function useAtomValue<A, B>(atom: Atom.Atom<A>, selector?: (value: A) => B): A | B {
  const registry = useRegistry()
  return useStoreValue(storeOf(registry, atom), undefined as A | B, selector, Equal.equals)
}

/** A value, or an update computed from the current value. */
export type AtomUpdate<R, W> = W | ((current: R) => W)

/**
 * Keeps an atom alive (and its effects running) while the component is mounted, without reading it.
 *
 * @example
 * useAtomMount(walletEventsAtom)
 */
export function useAtomMount<A>(atom: Atom.Atom<A>): void {
  const registry = useRegistry()
  useEffect(() => registry.mount(atom), [registry, atom])
}

/**
 * A stable setter for a writable atom. A function argument is an update of the current value; an atom whose
 * written value is itself a function must be written through the registry instead.
 *
 * @example
 * const setOpen = useAtomSet(modalOpenAtom)
 * setOpen((open) => !open)
 */
export function useAtomSet<R, W>(atom: Atom.Writable<R, W>): (value: AtomUpdate<R, W>) => void {
  const registry = useRegistry()
  // A write to an unmounted atom would be dropped with its node; keep it mounted while the setter can be called.
  useAtomMount(atom)
  return useCallback(
    (value: AtomUpdate<R, W>) => {
      if (typeof value === "function") registry.update(atom, value as (current: R) => W)
      else registry.set(atom, value)
    },
    [registry, atom]
  )
}

/**
 * Runs an action atom (`runtime.fn`) and gives a promise of its outcome, as Effect's own `atom/react` hooks do with
 * `mode: "promiseExit"`: the Exit, never a rejection. The atom stays mounted while the component is.
 *
 * @example
 * const sign = useAtomPromiseExit(signMessageFn)
 * const exit = await sign("hello")
 */
export function useAtomPromiseExit<W, A, E>(
  atom: Atom.Writable<AsyncResult.AsyncResult<A, E>, W>
): (value: W) => Promise<Exit.Exit<A, E>> {
  const registry = useRegistry()
  useAtomMount(atom)
  return useCallback((value: W) => runAtomExit(registry, atom, value), [registry, atom])
}

/** Runs an action atom of `registry` with `value`: its Exit once settled (the atom stays mounted meanwhile). */
export const runAtomExit = <W, A, E>(
  registry: AtomRegistry.AtomRegistry,
  atom: Atom.Writable<AsyncResult.AsyncResult<A, E>, W>,
  value: W
): Promise<Exit.Exit<A, E>> => {
  const release = registry.mount(atom)
  registry.set(atom, value)
  return Effect.runPromiseExit(AtomRegistry.getResult(registry, atom, { suspendOnWaiting: true })).finally(release)
}

/** The value of an Exit, or a rejection with its typed error (or, for a defect, what was thrown). */
export const exitValue = <A, E>(exit: Exit.Exit<A, E>): A => {
  if (exit._tag === "Success") return exit.value
  throw Cause.squash(exit.cause)
}

/**
 * Runs an action atom and gives a promise of its value; a failure rejects with the typed error (or, for a defect,
 * what was thrown), as Effect's `mode: "promise"` does.
 *
 * @example
 * const sign = useAtomPromise(signMessageFn)
 * const signature = await sign("hello")
 */
export function useAtomPromise<W, A, E>(atom: Atom.Writable<AsyncResult.AsyncResult<A, E>, W>): (value: W) => Promise<A> {
  const run = useAtomPromiseExit(atom)
  return useCallback((value: W) => run(value).then(exitValue), [run])
}

/**
 * The value of a writable atom and its setter, like `useState`.
 *
 * @example
 * const [count, setCount] = useAtom(countAtom)
 */
export function useAtom<R, W>(atom: Atom.Writable<R, W>): readonly [value: R, set: (value: AtomUpdate<R, W>) => void] {
  return [useAtomValue(atom), useAtomSet(atom)] as const
}

/**
 * A stable function that recomputes an atom (re-runs its effect), keeping the atom mounted meanwhile.
 *
 * @example
 * const refreshBalance = useAtomRefresh(balanceAtom)
 */
export function useAtomRefresh<A>(atom: Atom.Atom<A>): () => void {
  const registry = useRegistry()
  useAtomMount(atom)
  return useCallback(() => registry.refresh(atom), [registry, atom])
}
