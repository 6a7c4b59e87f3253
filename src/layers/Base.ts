/**
 * The services a runtime builds at start, in every environment: connection, networks, the modal and the connect flow,
 * the account's data and actions, the send form, the catalogue, notifications and analytics, and the start-up work
 * (alerts about the options, restoring a stored session). It needs Storage, Config, Platform, the connectors, the chain
 * adapters, the RPC transport and an HttpClient from the environment's layer. The Swap and Buy forms are not here
 * (`Core.ts` adds them): the React runtime builds them when their views or hooks first need them, so the first click
 * carries none of their code.
 */
import { Effect, Layer } from "effect"
import type * as HttpClient from "effect/http/HttpClient"
import type { Alert } from "../domain/alerts"
import { Analytics, analyticsAllowed } from "../services/Analytics"
import { BlockchainApi } from "../services/BlockchainApi"
import { ChainAdapters } from "../services/ChainAdapter"
import { Config } from "../services/Config"
import { ConnectFlow, type SignInStep } from "../services/ConnectFlow"
import { Connection } from "../services/Connection"
import { Connectors } from "../services/connectors/Connectors"
import { embeddedWalletLayer } from "../services/Embedded/embeddedLayer"
import { EmbeddedWallet } from "../services/Embedded/EmbeddedWallet"
import { Modal } from "../services/Modal"
import { Names } from "../services/Names"
import { Networks } from "../services/Networks"
import { Notifications } from "../services/Notifications"
import { Platform } from "../services/Platform"
import { Portfolio } from "../services/Portfolio"
import { RpcTransport } from "../services/RpcTransport/RpcTransport"
import { Send } from "../services/Send"
import { Siwx } from "../services/Siwx/Siwx"
import { Storage } from "../services/Storage/Storage"
import { Theme } from "../services/Theme"
import { WalletActions } from "../services/WalletActions"
import { WalletCatalog } from "../services/WalletCatalog"
import { lazily } from "./lazily"

/** Every service a runtime builds at start (all of `WalletServices` but the Swap and Buy forms). */
export type BaseServices =
  | Connection
  | Connectors
  | ConnectFlow
  | Networks
  | Modal
  | Notifications
  | Storage
  | Config
  | Platform
  | ChainAdapters
  | RpcTransport
  | BlockchainApi
  | Portfolio
  | WalletActions
  | Send
  | Names
  | Siwx
  | SignInStep
  | WalletCatalog
  | Analytics
  | Theme
  | EmbeddedWallet

/** What an environment gives the core. */
export type Environment = Storage | Config | Platform | Connectors | ChainAdapters | RpcTransport | HttpClient.HttpClient

// Restoring starts in the background once the services exist: the page is never held up by a slow wallet, and a
// family shows `reconnecting` meanwhile. Nothing is asked of any wallet unless a session was stored.
const startUp = (alerts: ReadonlyArray<Alert>) =>
  Layer.effectDiscard(
    Effect.gen(function* () {
      const notifications = yield* Notifications
      const connection = yield* Connection
      const networks = yield* Networks
      yield* Effect.forEach(alerts, (alert) => notifications.raiseAlert(alert), { discard: true })
      yield* connection
        .restore((namespace) => networks.activeNetwork(namespace).pipe(Effect.orDie))
        .pipe(Effect.forkScoped)
    })
  )

// Where the host's options allow no analytics it does nothing, and nothing of it is built; else it is built at the
// first event recorded (the modal's opening), not at load.
const analyticsLayer = Layer.unwrap(
  Config.useSync((config) =>
    analyticsAllowed(config) ? lazily(Analytics, Analytics.layer, { enabled: 0, track: 1, record: 1 }) : Analytics.layerNone
  )
)

/** The services built at start over an environment. */
export const baseLayer = (environment: Layer.Layer<Environment>, alerts: ReadonlyArray<Alert> = []): Layer.Layer<BaseServices> =>
  startUp(alerts).pipe(
    // The email wallet's flows connect through the connect flow and ask approvals of the modal.
    Layer.provideMerge(Layer.mergeAll(Send.layer, Names.layer, embeddedWalletLayer)),
    Layer.provideMerge(Layer.mergeAll(ConnectFlow.layer, WalletCatalog.layer, Theme.layer)),
    // Sign-in sits between: the connect flow waits on it, and it signs through the wallet actions.
    Layer.provideMerge(Siwx.layer),
    Layer.provideMerge(WalletActions.layer),
    Layer.provideMerge(Portfolio.layer),
    Layer.provideMerge(Networks.layer),
    Layer.provideMerge(Layer.mergeAll(Modal.layer, BlockchainApi.layer)),
    // Analytics sits under the flows that record what the visitor does (modal, connect, networks, actions).
    Layer.provideMerge(analyticsLayer),
    Layer.provideMerge(Connection.layer),
    Layer.provideMerge(Notifications.layer),
    Layer.provideMerge(environment)
  )
