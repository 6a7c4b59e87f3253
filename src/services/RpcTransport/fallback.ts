/**
 * The fallback loop: the calls made to one network in the same tick travel together to its best endpoint, and each
 * call that fails moves on in rank order, is retried, or fails, as the retry policy (`retryPolicy.ts`) decides.
 */
import { Cause, Deferred, Effect, Exit, Fiber, Result, type Scope } from "effect"
import { SomethingWentWrong } from "../../domain/errors"
import type { CallResult, EndpointClient, EndpointState, Failure, RpcCall } from "./endpoint"
import { displayUrl, type RpcError, RpcTimeout } from "./errors"
import { decide, type RetrySettings } from "./retryPolicy"

interface Waiter {
  readonly call: RpcCall
  readonly deferred: Deferred.Deferred<unknown, RpcError>
  /** The caller stopped waiting (aborted or interrupted). */
  gone: boolean
  settled: boolean
}

/** The calls of one tick: collected while open, then sent together by one fiber. */
interface Group {
  readonly waiters: Array<Waiter>
  sent: boolean
  fiber: Fiber.Fiber<void> | undefined
}

/** Where a network's calls gather: the group of this tick, while it is open. */
export interface CallQueue {
  open: Group | undefined
}

/** A fresh queue, with no group open. */
export const callQueue = (): CallQueue => ({ open: undefined })

/** What the loop needs: the endpoints' exchanges, where its fibers live, and the policy's settings. */
export interface FallbackSettings {
  readonly endpoints: Pick<EndpointClient, "exchange">
  readonly scope: Scope.Scope
  readonly retry: RetrySettings
  /** An attempt abandoned because its endpoint failed a ping reports a time-out of this long. */
  readonly pingTimeoutMs: number
}

/** The fallback loop over some endpoints; `enqueue` sends one call through it. */
export const makeFallback = ({ endpoints, scope, retry, pingTimeoutMs }: FallbackSettings) => {
  // An endpoint that fails its ping (1000 ms) while an attempt waits on it is in trouble: rather than waiting out the
  // request time-out, the attempt moves on to the next endpoint, as after a time-out. Only when another endpoint is
  // left: a lone slow endpoint may still answer.
  const abandonOnPingFailure = (endpoint: EndpointState, calls: ReadonlyArray<RpcCall>) =>
    Effect.callback<ReadonlyArray<CallResult>>((resume) => {
      const failure: Failure = {
        outcome: { _tag: "Timeout" },
        error: new RpcTimeout({ url: displayUrl(endpoint.endpoint.url), timeoutMs: pingTimeoutMs })
      }
      const notify = () => resume(Effect.succeed(calls.map((): CallResult => Result.fail(failure))))
      endpoint.onPingFailure.add(notify)
      return Effect.sync(() => endpoint.onPingFailure.delete(notify))
    })

  const settle = (waiter: Waiter, exit: Exit.Exit<unknown, RpcError>) =>
    Effect.suspend(() => {
      waiter.settled = true
      return Deferred.done(waiter.deferred, exit)
    })

  /** Tries `waiters` on the endpoint at `index` of `ranking`, then follows the retry policy call by call. */
  const attempt = (
    ranking: ReadonlyArray<EndpointState>,
    waiters: ReadonlyArray<Waiter>,
    index: number,
    retries: number
  ): Effect.Effect<void> =>
    Effect.gen(function* () {
      const live = waiters.filter((waiter) => !waiter.gone && !waiter.settled)
      const endpoint = ranking[index]
      if (live.length === 0 || endpoint === undefined) return
      const calls = live.map((waiter) => waiter.call)
      const results = yield* index < ranking.length - 1
        ? Effect.raceFirst(endpoints.exchange(endpoint, calls), abandonOnPingFailure(endpoint, calls))
        : endpoints.exchange(endpoint, calls)
      const moveOn: Array<Waiter> = []
      const retryAfter = new Map<number, Array<Waiter>>()
      for (const [i, waiter] of live.entries()) {
        const result = results[i]
        if (result === undefined) continue
        if (Result.isSuccess(result)) {
          yield* settle(waiter, Exit.succeed(result.success))
          continue
        }
        const { outcome, error } = result.failure
        const decision = decide(outcome, { retriesOnEndpoint: retries, endpointsLeft: ranking.length - index - 1 }, retry)
        yield* Effect.logDebug(`RPC ${waiter.call.method} on ${displayUrl(endpoint.endpoint.url)}: ${error.message} → ${decision._tag}`)
        if (decision._tag === "next-endpoint") moveOn.push(waiter)
        else if (decision._tag === "retry-same") retryAfter.set(decision.delayMs, [...(retryAfter.get(decision.delayMs) ?? []), waiter])
        else yield* settle(waiter, Exit.fail(error))
      }
      yield* Effect.all(
        [
          ...(moveOn.length > 0 ? [attempt(ranking, moveOn, index + 1, 0)] : []),
          ...[...retryAfter].map(([delayMs, group]) =>
            Effect.sleep(delayMs).pipe(Effect.andThen(attempt(ranking, group, index, retries + 1)))
          )
        ],
        { concurrency: "unbounded", discard: true }
      )
    })

  /** Sends a closed group once the tick is over; a caller still waiting when it fails gets 'Something went wrong'. */
  const flush = (queue: CallQueue, group: Group, ranking: () => ReadonlyArray<EndpointState>): Effect.Effect<void> =>
    Effect.gen(function* () {
      yield* Effect.yieldNow
      if (queue.open === group) queue.open = undefined
      group.sent = true
      const waiters = group.waiters.filter((waiter) => !waiter.gone)
      if (waiters.length === 0) return
      yield* attempt(ranking(), waiters, 0, 0)
    }).pipe(
      Effect.onExit((exit) =>
        Exit.isSuccess(exit)
          ? Effect.void
          : Effect.forEach(
              group.waiters.filter((waiter) => !waiter.settled),
              (waiter) => settle(waiter, Exit.fail(new SomethingWentWrong({ reason: Cause.pretty(exit.cause) }))),
              { discard: true }
            )
      )
    )

  // A caller that stops waiting leaves its group; the group's HTTP request is cancelled once no caller is left.
  const leave = (group: Group, waiter: Waiter) =>
    Effect.suspend(() => {
      waiter.gone = true
      const abandoned = group.waiters.every((other) => other.gone || other.settled)
      return group.sent && abandoned && group.fiber !== undefined ? Fiber.interrupt(group.fiber) : Effect.void
    })

  /**
   * Sends `call` with the others of this tick in `queue`, to the endpoints `ranking` gives best first when the group
   * leaves, and waits for its result.
   */
  const enqueue = (
    queue: CallQueue,
    ranking: () => ReadonlyArray<EndpointState>,
    call: RpcCall
  ): Effect.Effect<unknown, RpcError> =>
    Effect.suspend(() => {
      const waiter: Waiter = { call, deferred: Deferred.makeUnsafe(), gone: false, settled: false }
      const open = queue.open
      const group: Group = open ?? { waiters: [], sent: false, fiber: undefined }
      group.waiters.push(waiter)
      const start =
        open === undefined
          ? Effect.suspend(() => {
              queue.open = group
              return Effect.forkIn(flush(queue, group, ranking), scope).pipe(
                Effect.tap((fiber) => Effect.sync(() => (group.fiber = fiber)))
              )
            })
          : Effect.void
      return start.pipe(
        Effect.andThen(Deferred.await(waiter.deferred)),
        Effect.onInterrupt(() => leave(group, waiter))
      )
    })

  return { enqueue }
}
