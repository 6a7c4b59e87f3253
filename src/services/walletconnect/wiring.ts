/**
 * How the runtime takes WalletConnect in, for the layers to use: the alerts its relay errors raise reach the
 * Notifications service (each shown once).
 */
import { Effect, Layer, Stream } from "effect"
import { Notifications } from "../Notifications"
import { WalletConnect } from "./WalletConnect"

/** Forwards WalletConnect's relay alerts (origin not allowed, invalid key, token not yet valid) to Notifications. */
export const walletConnectAlertsLayer: Layer.Layer<never, never, WalletConnect | Notifications> = Layer.effectDiscard(
  Effect.gen(function* () {
    const walletConnect = yield* WalletConnect
    const notifications = yield* Notifications
    yield* Stream.runForEach(walletConnect.alerts, (alert) => notifications.raiseAlert(alert)).pipe(Effect.forkScoped)
  })
)
