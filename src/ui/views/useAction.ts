/**
 * A view's use of an action atom (`disconnectFn`, `switchNetworkFn`…): run it and follow *this view's* run. Action
 * atoms are shared by the whole modal, so a result left by an earlier view must not show up as this one's.
 */
import type * as Atom from "effect/reactivity/Atom"
import * as AsyncResult from "effect/reactivity/AsyncResult"
import { useCallback, useState } from "react"
import { useAtom } from "../atom-react/hooks"
import { type VisitorError, visitorError } from "./errorText"

/** Where a view's action stands. */
export type ActionStatus<A> =
  | { readonly _tag: "Idle" }
  | { readonly _tag: "Running" }
  | { readonly _tag: "Done"; readonly value: A }
  | { readonly _tag: "Failed"; readonly error: VisitorError }

const IDLE = { _tag: "Idle" } as const
const RUNNING = { _tag: "Running" } as const

/** An action of a view: its status (idle until the view runs it) and how to run it. */
export function useAction<Arg, A, E>(
  atom: Atom.AtomResultFn<Arg, A, E>
): { readonly status: ActionStatus<A>; readonly start: (arg: Arg) => void } {
  const [result, write] = useAtom(atom)
  const [started, setStarted] = useState(false)
  const start = useCallback(
    (arg: Arg) => {
      setStarted(true)
      write(arg)
    },
    [write]
  )
  return { status: started ? statusOf(result) : IDLE, start }
}

const statusOf = <A, E>(result: AsyncResult.AsyncResult<A, E>): ActionStatus<A> => {
  if (result.waiting) return RUNNING
  if (AsyncResult.isInitial(result)) return IDLE
  if (AsyncResult.isSuccess(result)) return { _tag: "Done", value: result.value }
  // Interrupted by a newer run or by the modal going away: nothing to show.
  if (AsyncResult.isInterrupted(result)) return IDLE
  return { _tag: "Failed", error: visitorError(result.cause) }
}
