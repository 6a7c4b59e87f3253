/**
 * Moving between views while keeping history (Connect → ConnectingExternal, Account → Networks…). The Modal service
 * does it; these run on the runtime directly because the atoms of the modal only open, close and go back.
 */
import { Effect } from "effect"
import { useMemo } from "react"
import type { ModalView } from "../../../domain/rules"
import { Modal, type RouteData } from "../../../services/Modal"
import { useWalletRuntime } from "../../react/WalletRuntimeProvider"

/** Moves between views of the open modal. */
export interface ModalNavigation {
  /** Goes to a view, keeping the current one in history (Back returns to it). */
  readonly push: (view: ModalView, data?: RouteData) => Promise<void>
  /** Starts history again from a view (after connecting, Back must not return to the connecting view). */
  readonly reset: (view: ModalView, data?: RouteData) => Promise<void>
}

/** Moves between views of the open modal. */
export function useModalNavigation(): ModalNavigation {
  const runtime = useWalletRuntime()
  return useMemo(
    () => ({
      push: (view, data) => runtime.run(Effect.flatMap(Modal, (modal) => modal.push(view, data))),
      reset: (view, data) => runtime.run(Effect.flatMap(Modal, (modal) => modal.reset(view, data)))
    }),
    [runtime]
  )
}
