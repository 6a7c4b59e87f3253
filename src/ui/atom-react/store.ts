/**
 * Reading a subscribable value in React with an optional selector: the part of the atom hooks that needs no Effect
 * code, shared by `useAtomValue` and by the light hooks that read an atom only once the runtime has loaded.
 */
import { useEffect, useMemo, useRef, useSyncExternalStore } from "react"

/** One atom of one registry as React subscribes to it. */
export interface AtomStore<A> {
  readonly subscribe: (onChange: () => void) => () => void
  readonly snapshot: () => A
  readonly serverSnapshot: () => A
}

const subscribeNothing = () => () => {}

/**
 * The store's value (or `fallback` while there is no store), re-rendering when it changes; with a selector, only
 * when the selected part changes by `equals`, so a selector may build a new object each time. `fallback` must be a
 * constant, not an object made during render.
 */
export function useStoreValue<A, B>(
  store: AtomStore<A> | undefined,
  fallback: A | B,
  selector: ((value: A) => B) | undefined,
  equals: (self: unknown, that: unknown) => boolean
): A | B {
  // The selection last rendered, kept across selector identities so an inline selector keeps results stable.
  const rendered = useRef<{ readonly selection: A | B } | undefined>(undefined)
  const [subscribe, snapshot, serverSnapshot] = useMemo((): readonly [AtomStore<A>["subscribe"], () => A | B, () => A | B] => {
    if (store === undefined) return [subscribeNothing, () => fallback, () => fallback]
    if (selector === undefined) return [store.subscribe, store.snapshot, store.serverSnapshot]
    let memo: { readonly value: A; readonly selection: A | B } | undefined
    const selectFrom = (value: A): A | B => {
      if (memo !== undefined && Object.is(memo.value, value)) return memo.selection
      const next = selector(value)
      const previous = memo ?? rendered.current
      const selection = previous !== undefined && equals(previous.selection, next) ? previous.selection : next
      memo = { value, selection }
      return selection
    }
    return [store.subscribe, () => selectFrom(store.snapshot()), () => selectFrom(store.serverSnapshot())]
  }, [store, selector, fallback, equals])
  const selection = useSyncExternalStore(subscribe, snapshot, serverSnapshot)
  useEffect(() => {
    rendered.current = { selection }
  }, [selection])
  return selection
}
