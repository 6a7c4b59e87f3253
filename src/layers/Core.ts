/**
 * The runtime core every environment shares: Connection, Networks, Modal and Notifications, and the start-up
 * work (alerts about the options, restoring a stored session). It needs Storage, Config, Platform and the chain
 * adapters from the environment's layer.
 */
import { Effect, Layer } from "effect"
import type * as HttpClient from "effect/http/HttpClient"
import type { Alert } from "../domain/alerts"
import { Analytics } from "../services/Analytics"
import { BlockchainApi } from "../services/BlockchainApi"
import { ChainAdapters } from "../services/ChainAdapter"
import { Config } from "../services/Config"
import { Connection } from "../services/Connection"
import { Modal } from "../services/Modal"
import { Networks } from "../services/Networks"
import { Notifications } from "../services/Notifications"
import { Platform } from "../services/Platform"
import { RpcTransport } from "../services/RpcTransport/RpcTransport"
import { Storage } from "../services/Storage/Storage"
import { WalletCatalog } from "../services/WalletCatalog"

/** Every service a wallet runtime provides. */
export type WalletServices =
  | Connection
  | Networks
  | Modal
  | Notifications
  | Storage
  | Config
  | Platform
  | ChainAdapters
  | RpcTransport
  | BlockchainApi
  | WalletCatalog
  | Analytics

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

/** The core services over an environment (Storage, Config, Platform, ChainAdapters, RpcTransport). */
export const coreLayer = (
  environment: Layer.Layer<Storage | Config | Platform | ChainAdapters | RpcTransport | HttpClient.HttpClient>,
  alerts: ReadonlyArray<Alert> = []
): Layer.Layer<WalletServices> =>
  startUp(alerts).pipe(
    Layer.provideMerge(Layer.mergeAll(BlockchainApi.layer, WalletCatalog.layer, Analytics.layer)),
    Layer.provideMerge(Networks.layer),
    Layer.provideMerge(Modal.layer),
    Layer.provideMerge(Connection.layer),
    Layer.provideMerge(Notifications.layer),
    Layer.provideMerge(environment)
  )
