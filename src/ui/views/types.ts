/** What every view of the modal receives: its route (with the data of that view) and its history entry's key. */
import type { ModalView } from "../../domain/rules"
import type { RouteOf } from "../../services/Modal"

/** The props of view `V`: its route, and the key of the history entry it shows (a connect flow runs for one entry). */
export interface ViewProps<V extends ModalView = ModalView> {
  readonly route: RouteOf<V>
  readonly entryKey: number
}
