/**
 * How the runtime takes WalletConnect in. The service stays outside `WalletServices`: the views and these layers
 * find it with `Effect.serviceOption`, so a runtime without it (tests, a host without a projectId) simply has no
 * WalletConnect. Live wiring (src/layers/Live.ts): provide `WalletConnect.layer` to the eip155 adapter
 * `eip155BrowserAdapterWithWalletConnect` and merge it into the environment, then add these layers over the core.
 */
import { Effect, Layer, Option, Stream } from "effect"
import { Notifications } from "../Notifications"
import { Siwx } from "../Siwx/Siwx"
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

/**
 * Gives WalletConnect the site's sign-in when the host configured one: its pairings then sign in in the same step
 * where the wallet can (one-click, `wc_sessionAuthenticate`). The connector sees only the small interface it asks
 * for; without sign-in it is given nothing and pairs as before.
 */
export const walletConnectSignInLayer: Layer.Layer<never, never, Siwx> = Layer.effectDiscard(
  Effect.gen(function* () {
    const walletConnect = yield* Effect.serviceOption(WalletConnect)
    const oneClick = (yield* Siwx).oneClick
    if (Option.isNone(walletConnect) || oneClick === undefined) return
    yield* walletConnect.value.useSignIn(oneClick)
  })
)
