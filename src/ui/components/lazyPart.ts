/**
 * A part of the UI whose code is fetched on first use (a view, a tab's panel, a section of a view) and shown the
 * moment it arrives: our own loader rather than `React.lazy`, whose Suspense fallback, once shown, holds the part back
 * for React's 300 ms reveal throttle, and one that can be fetched ahead of need.
 */
import { useEffect, useState } from "react"

/** Code fetched once: `load` fetches it (a failed fetch may be tried again), `loaded` gives it once it is there. */
export interface LazyPart<A> {
  readonly load: () => Promise<A>
  readonly loaded: () => A | undefined
}

/** The part `importer` fetches, the first time it is asked for. */
export const lazyPart = <A>(importer: () => Promise<A>): LazyPart<A> => {
  let value: A | undefined
  let pending: Promise<A> | undefined
  return {
    loaded: () => value,
    load: () =>
      (pending ??= importer().then(
        (loaded) => (value = loaded),
        (error: unknown) => {
          pending = undefined
          throw error
        }
      ))
  }
}

/**
 * The part once its code is there, fetched from the first render on unless `wait` (then `undefined` until asked); a
 * failed fetch is tried again when the calling component is next mounted.
 */
export const useLazyPart = <A>(part: LazyPart<A>, wait = false): A | undefined => {
  const [, arrived] = useState(0)
  const value = part.loaded()
  useEffect(() => {
    if (value !== undefined || wait) return
    let live = true
    part.load().then(
      () => live && arrived((n) => n + 1),
      () => {}
    )
    return () => {
      live = false
    }
  }, [value, part, wait])
  return value
}
