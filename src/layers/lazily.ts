/**
 * A service built the first time one of its members is used instead of when the runtime starts: a page pays for the
 * services its visitor reaches (their code run, their closures and state kept), not for every one at load.
 */
import { Context, Effect, Layer, type Scope } from "effect"
import { type Forwards, lazyFront } from "../services/lazyFront"

// The front takes the runtime's scope and the services `layer` needs when the runtime starts, and builds the service
// over them on the first use of a member; `forwards` names each member and its kind, as `lazyFront` takes them.
/**
 * `layer`'s service behind a front that builds it on the first use of one of its members.
 * @example lazily(Analytics, Analytics.layer, { enabled: 0, track: 1, record: 1 })
 */
export const lazily = <I, S, R>(
  tag: Context.Key<I, S>,
  layer: Layer.Layer<I, never, R>,
  forwards: Forwards<S>
): Layer.Layer<I, never, Exclude<R, Scope.Scope>> =>
  Layer.effect(tag)(
    Effect.map(
      lazyFront<S, R | Scope.Scope>(
        Effect.map(Layer.build(layer), (context) => Context.get(context, tag)),
        forwards
      ),
      // Every member is forwarded (`Forwards<S>` leaves none out), so the front is the whole service.
      ({ front }) => front as S
    )
  )
