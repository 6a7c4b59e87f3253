/** A test environment: memory storage, a fixed platform, and the wallets the test gives (fakes, usually). */
import { Effect, Layer } from "effect"
import type * as HttpClient from "effect/http/HttpClient"
import type { Alert } from "../domain/alerts"
import type { ChainNamespace } from "../domain/Caip"
import { SomethingWentWrong } from "../domain/errors"
import type { HostOptions } from "../domain/Options"
import { type ChainAdapter, ChainAdapters } from "../services/ChainAdapter"
import { Config } from "../services/Config"
import { Connectors } from "../services/connectors/Connectors"
import { type FakeWallet, makeFakeChainAdapter } from "../services/fakes/FakeWallet"
import { Platform, type PlatformInfo } from "../services/Platform"
import { RpcTransport } from "../services/RpcTransport/RpcTransport"
import { offlineHttpClientLayer } from "../services/serviceHttp"
import { Storage } from "../services/Storage/Storage"
import { coreLayer, type WalletServices } from "./Core"

/** What a test environment is made of besides the options. */
export interface TestEnvironment {
  /** The wallets the page has (their connectors are listed; the families they serve get fake adapters). */
  readonly wallets?: ReadonlyArray<FakeWallet> | undefined
  /** The family adapters, when a test brings its own; by default fakes for the families of `wallets`. */
  readonly adapters?: ReadonlyArray<ChainAdapter> | undefined
  readonly platform?: Partial<PlatformInfo> | undefined
  readonly alerts?: ReadonlyArray<Alert> | undefined
  /** The hosted services (catalogue, blockchain API, analytics) are unreachable unless a test brings its own client. */
  readonly httpClient?: Layer.Layer<HttpClient.HttpClient> | undefined
  /** Reads of the chains; by default a test reaches no node and says so. */
  readonly rpc?: Layer.Layer<RpcTransport> | undefined
}

/** Every service over memory storage and the given wallets, for hosts' and our own tests. */
export const testLayer = (options: HostOptions, environment: TestEnvironment = {}): Layer.Layer<WalletServices> => {
  const wallets = environment.wallets ?? []
  const families = [...new Set(wallets.flatMap((wallet) => wallet.connector.namespaces))] as ReadonlyArray<ChainNamespace>
  return coreLayer(
    Layer.mergeAll(
      Storage.layerMemory,
      Platform.layerFixed(environment.platform ?? {}),
      Config.layer(options),
      Connectors.layer(wallets.map((wallet) => wallet.connector)),
      ChainAdapters.layer(environment.adapters ?? families.map((family) => makeFakeChainAdapter(family))),
      environment.httpClient ?? offlineHttpClientLayer,
      environment.rpc ??
        RpcTransport.layerTest((network, call) =>
          Effect.fail(new SomethingWentWrong({ reason: `No RPC in the test layer (${call.method} on ${network.caipNetworkId})` }))
        )
    ),
    environment.alerts ?? []
  )
}
