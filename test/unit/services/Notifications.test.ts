import { describe, expect, it } from "@effect/vitest"
import { Effect, SubscriptionRef } from "effect"
import { TestClock } from "effect/testing"
import { Alerts } from "../../../src/domain/alerts"
import { Notifications, SNACKBAR_AUTO_HIDE_MS } from "../../../src/services/Notifications"

const snackbarText = Effect.gen(function* () {
  const notifications = yield* Notifications
  return (yield* SubscriptionRef.get(notifications.state)).snackbar?.message
})

describe("Notifications", () => {
  it.effect("shows a snackbar at once when none is shown", () =>
    Effect.gen(function* () {
      const notifications = yield* Notifications
      yield* notifications.showSnackbar("success", "Transaction started")
      yield* Effect.yieldNow
      expect(yield* snackbarText).toBe("Transaction started")
    }).pipe(Effect.provide(Notifications.layer))
  )

  it.effect("replaces a shown snackbar after 150 ms, hidden in between", () =>
    Effect.gen(function* () {
      const notifications = yield* Notifications
      yield* notifications.showSnackbar("loading", "Authenticating...")
      yield* Effect.yieldNow
      yield* notifications.showSnackbar("error", "Signature declined")
      expect(yield* snackbarText).toBeUndefined()
      yield* TestClock.adjust("149 millis")
      expect(yield* snackbarText).toBeUndefined()
      yield* TestClock.adjust("1 millis")
      expect(yield* snackbarText).toBe("Signature declined")
    }).pipe(Effect.provide(Notifications.layer))
  )

  it.effect("a newer snackbar cancels a pending replacement", () =>
    Effect.gen(function* () {
      const notifications = yield* Notifications
      yield* notifications.showSnackbar("info", "one")
      yield* Effect.yieldNow
      yield* notifications.showSnackbar("info", "two")
      yield* TestClock.adjust("100 millis")
      yield* notifications.showSnackbar("info", "three")
      yield* TestClock.adjust("150 millis")
      expect(yield* snackbarText).toBe("three")
    }).pipe(Effect.provide(Notifications.layer))
  )

  it.effect("hides a message snackbar after a while but keeps a loading one", () =>
    Effect.gen(function* () {
      const notifications = yield* Notifications
      yield* notifications.showSnackbar("success", "Copied")
      yield* TestClock.adjust(SNACKBAR_AUTO_HIDE_MS - 1)
      expect(yield* snackbarText).toBe("Copied")
      yield* TestClock.adjust(1)
      expect(yield* snackbarText).toBeUndefined()
      yield* notifications.showSnackbar("loading", "Authenticating...")
      yield* TestClock.adjust(SNACKBAR_AUTO_HIDE_MS * 10)
      expect(yield* snackbarText).toBe("Authenticating...")
      yield* notifications.hideSnackbar
      expect(yield* snackbarText).toBeUndefined()
    }).pipe(Effect.provide(Notifications.layer))
  )

  it.effect("raises each alert once, even after it is dismissed", () =>
    Effect.gen(function* () {
      const notifications = yield* Notifications
      expect(yield* notifications.raiseAlert(Alerts.INVALID_APP_CONFIGURATION)).toBe(true)
      expect(yield* notifications.raiseAlert(Alerts.INVALID_APP_CONFIGURATION)).toBe(false)
      expect(yield* notifications.raiseAlert(Alerts.INVALID_PROJECT_ID)).toBe(true)
      let state = yield* SubscriptionRef.get(notifications.state)
      expect(state.alerts.map((a) => a.shortMessage)).toEqual(["Invalid App Configuration", "Invalid Project ID"])
      yield* notifications.dismissAlert("INVALID_APP_CONFIGURATION")
      expect(yield* notifications.raiseAlert(Alerts.INVALID_APP_CONFIGURATION)).toBe(false)
      state = yield* SubscriptionRef.get(notifications.state)
      expect(state.alerts.map((a) => a.id)).toEqual(["INVALID_PROJECT_ID"])
    }).pipe(Effect.provide(Notifications.layer))
  )
})
