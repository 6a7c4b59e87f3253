/**
 * Notifications: the snackbar (one at a time; a new one replaces the shown one after 150 ms so the change is
 * seen) and alerts from the catalogue, each shown once per runtime.
 */
import { Context, Effect, FiberHandle, Layer, SubscriptionRef } from "effect"
import type { Alert, AlertId } from "../domain/alerts"
import { SNACKBAR_REPLACE_DELAY_MS } from "../domain/constants"

/** How a snackbar looks. */
export type SnackbarVariant = "success" | "error" | "info" | "loading"

/** A snackbar message. */
export interface Snackbar {
  readonly id: number
  readonly variant: SnackbarVariant
  readonly message: string
}

/** What the view shows: the snackbar, if any, and the alerts not dismissed yet. */
export interface NotificationsState {
  readonly snackbar: Snackbar | undefined
  readonly alerts: ReadonlyArray<Alert>
}

/** A snackbar other than a loading one hides itself after this long. */
export const SNACKBAR_AUTO_HIDE_MS = 3_000

/** The snackbar and the alerts. */
export class Notifications extends Context.Service<
  Notifications,
  {
    /** The current state, for atoms. */
    readonly state: SubscriptionRef.SubscriptionRef<NotificationsState>
    /** Shows a snackbar, replacing the shown one after 150 ms. */
    readonly showSnackbar: (variant: SnackbarVariant, message: string) => Effect.Effect<void>
    /** Hides the snackbar now. */
    readonly hideSnackbar: Effect.Effect<void>
    /** Raises an alert once per runtime; `true` when it was raised now, `false` when it had been already. */
    readonly raiseAlert: (alert: Alert) => Effect.Effect<boolean>
    /** Dismisses an alert the visitor closed; it is not raised again. */
    readonly dismissAlert: (id: AlertId) => Effect.Effect<void>
  }
>()("wallet-runtime/Notifications") {
  /** The live notifications, with timers from the Clock. */
  static readonly layer = Layer.effect(Notifications)(
    Effect.gen(function* () {
      const state = yield* SubscriptionRef.make<NotificationsState>({ snackbar: undefined, alerts: [] })
      const timer = yield* FiberHandle.make<void, never>()
      const raised = new Set<AlertId>()
      let nextId = 1

      const hideAfter = (id: number) =>
        Effect.sleep(SNACKBAR_AUTO_HIDE_MS).pipe(
          Effect.andThen(
            SubscriptionRef.update(state, (s) => (s.snackbar?.id === id ? { ...s, snackbar: undefined } : s))
          )
        )

      const showSnackbar = Effect.fn("Notifications.showSnackbar")(function* (
        variant: SnackbarVariant,
        message: string
      ) {
        const snackbar: Snackbar = { id: nextId++, variant, message }
        const current = yield* SubscriptionRef.get(state)
        const reveal = SubscriptionRef.update(state, (s) => ({ ...s, snackbar })).pipe(
          Effect.andThen(variant === "loading" ? Effect.void : hideAfter(snackbar.id))
        )
        if (current.snackbar === undefined) {
          yield* FiberHandle.run(timer, reveal)
          return
        }
        yield* SubscriptionRef.update(state, (s) => ({ ...s, snackbar: undefined }))
        yield* FiberHandle.run(timer, Effect.sleep(SNACKBAR_REPLACE_DELAY_MS).pipe(Effect.andThen(reveal)))
      })

      const hideSnackbar = Effect.gen(function* () {
        yield* FiberHandle.clear(timer)
        yield* SubscriptionRef.update(state, (s) => ({ ...s, snackbar: undefined }))
      }).pipe(Effect.withSpan("Notifications.hideSnackbar"))

      const raiseAlert = Effect.fn("Notifications.raiseAlert")(function* (alert: Alert) {
        if (raised.has(alert.id)) return false
        raised.add(alert.id)
        yield* Effect.logWarning(`${alert.code} ${alert.shortMessage}: ${alert.longMessage}`)
        yield* SubscriptionRef.update(state, (s) => ({ ...s, alerts: [...s.alerts, alert] }))
        return true
      })

      const dismissAlert = Effect.fn("Notifications.dismissAlert")(function* (id: AlertId) {
        yield* SubscriptionRef.update(state, (s) => ({ ...s, alerts: s.alerts.filter((a) => a.id !== id) }))
      })

      return { state, showSnackbar, hideSnackbar, raiseAlert, dismissAlert }
    })
  )
}
