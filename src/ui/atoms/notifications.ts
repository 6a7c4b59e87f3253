/** Atoms of the notifications: the snackbar and the alerts. */
import { Effect } from "effect"
import * as AsyncResult from "effect/reactivity/AsyncResult"
import * as Atom from "effect/reactivity/Atom"
import { Notifications, type NotificationsState } from "../../services/Notifications"
import { mapAtom, stateAtom } from "./runtime"

/** The snackbar and alerts. */
export const notificationsStateAtom = stateAtom(Effect.map(Notifications, (n) => n.state))

/** The snackbar and alerts, or none while the runtime starts. */
export const notificationsAtom: Atom.Atom<NotificationsState> = mapAtom(notificationsStateAtom, (result) =>
  AsyncResult.getOrElse(result, () => ({ snackbar: undefined, alerts: [] }))
)
