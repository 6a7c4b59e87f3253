/**
 * Every service a wallet runtime offers to `run`: the services built at start (`Base.ts`) and the Swap and Buy forms
 * over them. The `wallet-runtime` entry's layers and runtime are these; the React runtime is built on `Base.ts` alone
 * and adds the forms when their views or hooks first need them (`src/ui/atoms/laterServices.ts`), through the same
 * MemoMap, so a runtime never holds two of either.
 */
import { Layer } from "effect"
import type { Alert } from "../domain/alerts"
import type { HostOptions } from "../domain/Options"
import { Onramp } from "../services/Onramp"
import { Swap } from "../services/Swap"
import { type BaseServices, baseLayer, type Environment } from "./Base"
import { type EnvironmentOverrides, liveBaseLayer } from "./Live"

export type { BaseServices, Environment }

/** Every service a wallet runtime provides. */
export type WalletServices = BaseServices | Swap | Onramp

// The Swap and Buy forms over the services built at start.
const withForms = <E>(services: Layer.Layer<BaseServices, E>): Layer.Layer<WalletServices, E> =>
  Layer.mergeAll(Swap.layer, Onramp.layer).pipe(Layer.provideMerge(services))

/** The core services over an environment. */
export const coreLayer = (environment: Layer.Layer<Environment>, alerts: ReadonlyArray<Alert> = []): Layer.Layer<WalletServices> =>
  withForms(baseLayer(environment, alerts))

/**
 * Every service, live in a browser (storage falls back to memory where localStorage is unavailable). `overrides`
 * replaces the page's connectors or the family adapters.
 */
export const liveLayer = (
  options: HostOptions,
  overrides: EnvironmentOverrides = {},
  alerts: ReadonlyArray<Alert> = []
): Layer.Layer<WalletServices> => withForms(liveBaseLayer(options, overrides, alerts))
