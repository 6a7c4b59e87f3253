/** The browser environment: localStorage, the page's platform, fetch, the host's options and the chain adapters. */
import { Layer } from "effect"
import * as FetchHttpClient from "effect/http/FetchHttpClient"
import type { Alert } from "../domain/alerts"
import type { HostOptions } from "../domain/Options"
import { type ChainAdapter, ChainAdapters } from "../services/ChainAdapter"
import { Config, namespacesOf } from "../services/Config"
import { eip155BrowserAdapterWithWalletConnect } from "../services/walletconnect/eip155"
import { WalletConnect } from "../services/walletconnect/WalletConnect"
import { walletConnectAlertsLayer } from "../services/walletconnect/wiring"
import { Platform } from "../services/Platform"
import { RpcTransport } from "../services/RpcTransport/RpcTransport"
import { Storage } from "../services/Storage/Storage"
import { coreLayer, type WalletServices } from "./Core"

/** The adapters of the families the host configured (eip155 now; the other families join as they land). */
const defaultAdapters = (options: HostOptions) =>
  namespacesOf(options).flatMap((namespace) => (namespace === "eip155" ? [eip155BrowserAdapterWithWalletConnect] : []))

/**
 * Every service, live in a browser (storage falls back to memory where localStorage is unavailable). `adapters`
 * replaces the default adapters of the configured families.
 */
export const liveLayer = (
  options: HostOptions,
  adapters: ReadonlyArray<ChainAdapter> | undefined,
  alerts: ReadonlyArray<Alert> = []
): Layer.Layer<WalletServices> => {
  const config = Config.layer(options)
  const transport = RpcTransport.layer.pipe(Layer.provide(config), Layer.provide(FetchHttpClient.layer))
  const walletConnect = WalletConnect.layer.pipe(Layer.provide(config))
  const chainAdapters =
    adapters !== undefined
      ? ChainAdapters.layer(adapters)
      : ChainAdapters.layerFrom(defaultAdapters(options)).pipe(
          Layer.provide(transport),
          Layer.provide(config),
          Layer.provide(walletConnect)
        )
  return walletConnectAlertsLayer.pipe(
    Layer.provideMerge(
      coreLayer(
        Layer.mergeAll(Storage.layerBrowser, Platform.layerBrowser, config, chainAdapters, transport, FetchHttpClient.layer, walletConnect),
        alerts
      )
    )
  )
}
