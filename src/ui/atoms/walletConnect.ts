/**
 * Atoms of WalletConnect: its connector and the pairing (URI and expiry) for the QR code and links. The service is optional here: a runtime without it shows WalletConnect as unavailable instead of failing.
 */
import { Effect, Option, Stream, SubscriptionRef } from "effect"
import * as AsyncResult from "effect/reactivity/AsyncResult"
import type * as Atom from "effect/reactivity/Atom"
import type { ConnectorInfo } from "../../domain/Wallet"
import { type PairingState, WalletConnect } from "../../services/walletconnect/WalletConnect"
import { mapAtom, stateLikeAtom } from "./runtime"

/** What the views know of WalletConnect: its connector (none when not configured) and the pairing. */
export interface WalletConnectView {
  readonly connector: ConnectorInfo | undefined
  readonly pairing: PairingState
}

const IDLE: PairingState = { _tag: "Idle" }

/** WalletConnect's connector and pairing, followed live. */
const walletConnectStateAtom = stateLikeAtom(
  Stream.unwrap(
    Effect.map(Effect.serviceOption(WalletConnect), (service) =>
      Option.isNone(service)
        ? Stream.succeed<WalletConnectView>({ connector: undefined, pairing: IDLE })
        : SubscriptionRef.changes(service.value.pairing).pipe(
            Stream.map((pairing): WalletConnectView => ({ connector: service.value.connector?.info, pairing }))
          )
    )
  )
)

/** WalletConnect's state, `undefined` while the runtime starts. */
export const walletConnectAtom: Atom.Atom<WalletConnectView | undefined> = mapAtom(walletConnectStateAtom, (result) =>
  AsyncResult.getOrElse(result, () => undefined)
)
