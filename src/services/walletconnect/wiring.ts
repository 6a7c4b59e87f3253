/**
 * How the runtime takes WalletConnect in. The service stays outside `WalletServices`: the views and this layer
 * find it with `Effect.serviceOption`, so a runtime without it (tests, a host without a projectId) simply has no
 * WalletConnect. Live wiring (src/layers/Live.ts): provide `WalletConnect.layer` to the eip155 adapter
 * `eip155BrowserAdapterWithWalletConnect` and merge it into the environment, then add this layer over the core.
 */
import { Effect, Layer, Option, Stream } from "effect"
import { Notifications } from "../Notifications"
import { WalletConnect } from "./WalletConnect"

/** Forwards WalletConnect's relay alerts (origin not allowed, invalid key, token not yet valid) to Notifications. */
export const walletConnectAlertsLayer: Layer.Layer<never, never, Notifications> = Layer.effectDiscard(
  Effect.gen(function* () {
    const walletConnect = yield* Effect.serviceOption(WalletConnect)
    if (Option.isNone(walletConnect)) return
    const notifications = yield* Notifications
    yield* Stream.runForEach(walletConnect.value.alerts, (alert) => notifications.raiseAlert(alert)).pipe(Effect.forkScoped)
  })
)
