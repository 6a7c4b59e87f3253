/**
 * Moving between views while keeping history (Connect → ConnectingExternal, Account → Networks…). The Modal service
 * does it; these run on the runtime directly because the atoms of the modal only open, close and go back.
 */
import { Effect, SubscriptionRef } from "effect"
import { useMemo } from "react"
import type { ModalView } from "../../../domain/rules"
import { currentRoute, Modal, type RouteData } from "../../../services/Modal"
import { useWalletRuntime } from "../../react/WalletRuntimeProvider"

/** Moves between views of the open modal. */
export interface ModalNavigation {
  /** Goes to a view, keeping the current one in history (Back returns to it). */
  readonly push: (view: ModalView, data?: RouteData) => Promise<void>
  /** Starts history again from a view (after connecting, Back must not return to the connecting view). */
  readonly reset: (view: ModalView, data?: RouteData) => Promise<void>
  /**
   * Starts history again from `view` only if the modal still shows `from`, open: something else that happened
   * meanwhile (the wallet landed on an unsupported chain, the visitor closed the modal) is not overridden.
   */
  readonly resetFrom: (from: ModalView, view: ModalView, data?: RouteData) => Promise<void>
}

/** Moves between views of the open modal. */
export function useModalNavigation(): ModalNavigation {
  const runtime = useWalletRuntime()
  return useMemo(
    () => ({
      push: (view, data) => runtime.run(Effect.flatMap(Modal, (modal) => modal.push(view, data))),
      reset: (view, data) => runtime.run(Effect.flatMap(Modal, (modal) => modal.reset(view, data))),
      resetFrom: (from, view, data) =>
        runtime.run(
          Effect.gen(function* () {
            const modal = yield* Modal
            const state = yield* SubscriptionRef.get(modal.state)
            if (state.open && currentRoute(state).view === from) yield* modal.reset(view, data)
          })
        )
    }),
    [runtime]
  )
}
