/**
 * The part of a service whose implementation is fetched on first use that the runtime's core keeps: the
 * implementation built once (with the layer's services and scope, taken when the layer is built) and a front that
 * forwards each member to it by name. One helper for every such service, so a new one costs the core its names only.
 */
import { Effect } from "effect"

/** How the front reaches each member it forwards: `0`, the implementation's effect of that name; `1`, its function. */
export type Forwards<S, Own extends keyof S = never> = {
  readonly [K in Exclude<keyof S, Own>]: S[K] extends (...args: never) => unknown ? 1 : 0
}

/**
 * Builds `make` once, on the first use of a member, in the context and scope of the layer being built, and gives the
 * members listed in `forwards` forwarded to it; the caller adds its own members (`Own`, e.g. the state the views read
 * from the start).
 * @example const { front } = yield* lazyFront(makeLater, { open: 0, choose: 1 }) // front.open, front.choose(address)
 */
export const lazyFront = <S, R, Own extends keyof S = never>(make: Effect.Effect<S, never, R>, forwards: Forwards<S, Own>) =>
  Effect.gen(function* () {
    const services = yield* Effect.context<R>()
    const live = yield* Effect.cached(Effect.provideContext(make, services))
    const front: Record<string, unknown> = {}
    for (const [name, kind] of Object.entries(forwards)) {
      const member = (implementation: S) => (implementation as Record<string, unknown>)[name]
      front[name] =
        kind === 0
          ? Effect.flatMap(live, (implementation) => member(implementation) as Effect.Effect<unknown>)
          : (...args: ReadonlyArray<unknown>) =>
              Effect.flatMap(live, (implementation) => (member(implementation) as (...args: ReadonlyArray<unknown>) => Effect.Effect<unknown>)(...args))
    }
    // The loop above made every member `forwards` names, of the kind its type says.
    return { live, front: front as Omit<S, Own> }
  })
