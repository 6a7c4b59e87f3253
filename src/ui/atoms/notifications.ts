/** Atoms of the notifications: the snackbar and the alerts, and the actions of the views on them. */
import { Effect } from "effect"
import * as AsyncResult from "effect/reactivity/AsyncResult"
import type * as Atom from "effect/reactivity/Atom"
import type { AlertId } from "../../domain/alerts"
import { Notifications, type NotificationsState, type SnackbarVariant } from "../../services/Notifications"
import { mapAtom, stateAtom, walletRuntimeAtom } from "./runtime"

/** The snackbar and alerts. */
export const notificationsStateAtom = stateAtom(Effect.map(Notifications, (n) => n.state))

/** The snackbar and alerts, or none while the runtime starts. */
export const notificationsAtom: Atom.Atom<NotificationsState> = mapAtom(notificationsStateAtom, (result) =>
  AsyncResult.getOrElse(result, () => ({ snackbar: undefined, alerts: [] }))
)

/** Dismisses an alert. */
export const dismissAlertFn = walletRuntimeAtom.fn((id: AlertId) => Effect.flatMap(Notifications, (n) => n.dismissAlert(id)))

/** Shows a snackbar (a view telling the visitor what it did: "Address copied"). */
export const showSnackbarFn = walletRuntimeAtom.fn((snackbar: { readonly variant: SnackbarVariant; readonly message: string }) =>
  Effect.flatMap(Notifications, (n) => n.showSnackbar(snackbar.variant, snackbar.message))
)
