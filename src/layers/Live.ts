/** The browser environment: localStorage, the page's platform, the host's options and the chain adapters. */
import { Layer } from "effect"
import type { Alert } from "../domain/alerts"
import type { HostOptions } from "../domain/Options"
import { type ChainAdapter, ChainAdapters } from "../services/ChainAdapter"
import { Config } from "../services/Config"
import { Platform } from "../services/Platform"
import { Storage } from "../services/Storage/Storage"
import { coreLayer, type WalletServices } from "./Core"

/** Every service, live in a browser (storage falls back to memory where localStorage is unavailable). */
export const liveLayer = (
  options: HostOptions,
  adapters: ReadonlyArray<ChainAdapter>,
  alerts: ReadonlyArray<Alert> = []
): Layer.Layer<WalletServices> =>
  coreLayer(
    Layer.mergeAll(Storage.layerBrowser, Platform.layerBrowser, Config.layer(options), ChainAdapters.layer(adapters)),
    alerts
  )
