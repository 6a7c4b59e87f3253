/**
 * Settings of our WalletConnect sign client in Node tests: its own key prefix, a store (a memory store the test keeps
 * stands for the browser's localStorage across a reload), and `ws`'s WebSocket (Node 20 has no global one).
 */
import { randomUUID } from "node:crypto"
import { Effect, Queue } from "effect"
import * as KeyValueStore from "effect/persistence/KeyValueStore"
import { WebSocket } from "ws"
import { makeRelayClient, type SocketConstructor } from "../../../src/services/walletconnect/protocol/relay"
import { generateClientSeed } from "../../../src/services/walletconnect/protocol/relayJwt"
import { parsePairingUri } from "../../../src/services/walletconnect/protocol/uri"
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

/**
 * Waits (10 s at most, on the real clock) until the relay at `relayUrl` holds a message on the pairing topic of `uri`:
 * the dapp's proposal, which it publishes while its URI is already shown. A client of its own reads it, so the
 * wallet under test still finds it waiting.
 */
export const proposalAtRelay = (relayUrl: string, uri: string): Promise<void> =>
  Effect.runPromise(
    Effect.gen(function* () {
      const pairing = yield* parsePairingUri(uri)
      if (pairing === undefined) return yield* Effect.die(new Error(`not a pairing URI: ${uri}`))
      const watcher = yield* makeRelayClient({ relayUrl, projectId: "watcher", seed: generateClientSeed(), WebSocket: NodeWebSocket })
      yield* watcher.subscribe([pairing.topic])
      yield* Queue.take(watcher.messages)
    }).pipe(Effect.scoped, Effect.timeout("10 seconds"))
  )
