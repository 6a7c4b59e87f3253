/**
 * Settings of our WalletConnect sign client in Node tests: its own key prefix, a store (a memory store the test keeps
 * stands for the browser's localStorage across a reload), and `ws`'s WebSocket (Node 20 has no global one).
 */
import { randomUUID } from "node:crypto"
import { Effect } from "effect"
import * as KeyValueStore from "effect/persistence/KeyValueStore"
import { WebSocket } from "ws"
import type { SocketConstructor } from "../../../src/services/walletconnect/protocol/relay"
import type { WalletConnectSettings } from "../../../src/services/walletconnect/types"

/** A fresh memory store: what one browser profile's localStorage is to the client. */
export const memoryStore = (): KeyValueStore.KeyValueStore =>
  Effect.runSync(Effect.provide(Effect.service(KeyValueStore.KeyValueStore), KeyValueStore.layerMemory))

/** `ws`'s WebSocket, as the client's socket class. */
export const NodeWebSocket = WebSocket as unknown as SocketConstructor

/** Settings for a dapp client; pass the same store (and prefix) again to reload the page. */
export const dappSettings = (store: KeyValueStore.KeyValueStore = memoryStore(), prefix = `dapp-${randomUUID()}`): WalletConnectSettings => ({
  customStoragePrefix: prefix,
  storage: store,
  WebSocket: NodeWebSocket
})
