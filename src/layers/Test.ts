/** A test environment: memory storage, a fixed platform, and the adapters the test gives (fakes, usually). */
import { Effect, Layer } from "effect"
import type * as HttpClient from "effect/http/HttpClient"
import type { Alert } from "../domain/alerts"
import type { HostOptions } from "../domain/Options"
import { type ChainAdapter, ChainAdapters } from "../services/ChainAdapter"
import { Config } from "../services/Config"
import { SomethingWentWrong } from "../domain/errors"
import { Platform, type PlatformInfo } from "../services/Platform"
import { RpcTransport } from "../services/RpcTransport/RpcTransport"
import { offlineHttpClientLayer } from "../services/serviceHttp"
import { Storage } from "../services/Storage/Storage"
import { coreLayer, type WalletServices } from "./Core"

/** Every service over memory storage and the given adapters, for hosts' and our own tests. */
export const testLayer = (
  options: HostOptions,
  adapters: ReadonlyArray<ChainAdapter> = [],
  platform: Partial<PlatformInfo> = {},
  alerts: ReadonlyArray<Alert> = [],
  // The hosted services (catalogue, blockchain API, analytics) are unreachable unless a test brings its own client.
  httpClient: Layer.Layer<HttpClient.HttpClient> = offlineHttpClientLayer
): Layer.Layer<WalletServices> =>
  coreLayer(
    Layer.mergeAll(
      Storage.layerMemory,
      Platform.layerFixed(platform),
      Config.layer(options),
      ChainAdapters.layer(adapters),
      httpClient,
      // Test runtimes reach no node: a service that reads a chain here says so instead of hanging.
      RpcTransport.layerTest((network, call) =>
        Effect.fail(new SomethingWentWrong({ reason: `No RPC in the test layer (${call.method} on ${network.caipNetworkId})` }))
      )
    ),
    alerts
  )
