/**
 * Atoms of WalletConnect: the pairing (URI and expiry) for the QR code and links, the connector, and the actions
 * of its views (connect through a pairing, replace the URI, stop pairing). The service is optional here: a runtime
 * without it shows WalletConnect as unavailable instead of failing.
 */
import { Effect, Option, Stream, SubscriptionRef } from "effect"
import * as AsyncResult from "effect/reactivity/AsyncResult"
import type * as Atom from "effect/reactivity/Atom"
import { WalletConnectConnectorMissing } from "../../domain/errors"
import type { CaipNetwork } from "../../domain/Network"
import type { ConnectorInfo, WalletCatalogEntry } from "../../domain/Wallet"
import { Connection } from "../../services/Connection"
import { Storage } from "../../services/Storage/Storage"
import * as Keys from "../../services/Storage/keys"
import { type PairingState, WalletConnect } from "../../services/walletconnect/WalletConnect"
import { mapAtom, stateLikeAtom, walletRuntimeAtom } from "./runtime"

/** What the views know of WalletConnect: its connector (none when not configured) and the pairing. */
export interface WalletConnectView {
  readonly connector: ConnectorInfo | undefined
  readonly pairing: PairingState
}

const IDLE: PairingState = { _tag: "Idle" }

/** WalletConnect's connector and pairing, followed live. */
export const walletConnectStateAtom = stateLikeAtom(
  Stream.unwrap(
    Effect.map(Effect.serviceOption(WalletConnect), (service) =>
      Option.isNone(service)
        ? Stream.succeed<WalletConnectView>({ connector: undefined, pairing: IDLE })
        : SubscriptionRef.changes(service.value.pairing).pipe(
            Stream.map((pairing): WalletConnectView => ({ connector: service.value.connector, pairing }))
          )
    )
  )
)

/** WalletConnect's state, `undefined` while the runtime starts. */
export const walletConnectAtom: Atom.Atom<WalletConnectView | undefined> = mapAtom(walletConnectStateAtom, (result) =>
  AsyncResult.getOrElse(result, () => undefined)
)

/** What a WalletConnect connect needs: the network to start on, the catalogue wallet and the link it was opened by. */
export interface WalletConnectRequest {
  readonly network: CaipNetwork
  readonly wallet?: WalletCatalogEntry | undefined
  /** The wallet link the visitor followed (mobile or desktop) by the time the wallet approves, if any: remembered. */
  readonly deepLink?: (() => string | undefined) | undefined
}

/** Connects through a WalletConnect pairing; the clear missing-connector error when WalletConnect is not configured. */
export const walletConnectFn = walletRuntimeAtom.fn((request: WalletConnectRequest) =>
  Effect.gen(function* () {
    const service = yield* Effect.serviceOption(WalletConnect)
    const connector = Option.getOrUndefined(service)?.connector
    if (connector === undefined) return yield* new WalletConnectConnectorMissing()
    const connection = yield* Connection
    const session = yield* connection.connect({
      namespace: connector.chain,
      connectorId: connector.id,
      network: request.network,
      ...(request.wallet !== undefined ? { wallet: request.wallet } : {})
    })
    const href = request.deepLink?.()
    if (href !== undefined && request.wallet !== undefined) {
      const storage = yield* Storage
      yield* storage.set(Keys.walletConnectDeepLink, { href, name: request.wallet.name })
    }
    return session
  })
)

/** Replaces the pairing URI now (Retry). */
export const replacePairingUriFn = walletRuntimeAtom.fn((_: void) =>
  Effect.flatMap(Effect.serviceOption(WalletConnect), (service) => (Option.isSome(service) ? service.value.replaceUri : Effect.void))
)

/** Stops pairing: the visitor left the WalletConnect views without connecting. */
export const cancelPairingFn = walletRuntimeAtom.fn((_: void) =>
  Effect.flatMap(Effect.serviceOption(WalletConnect), (service) => (Option.isSome(service) ? service.value.cancel : Effect.void))
)
