/**
 * The one place layers become a runtime: `makeWalletRuntime(options)` decodes the host's options, builds the
 * services layer, and makes one ManagedRuntime and one AtomRegistry sharing one MemoMap, so the Effect API and the
 * React view see the same services. Nothing runs until the runtime is first used. Without a `layer`, the runtime has
 * the services built at start, not the Swap and Buy forms: this is the React provider's runtime, in the chunk every
 * page fetches before its first click, and the forms' atoms add them through the MemoMap when first read. The
 * `wallet-runtime` entry's `makeWalletRuntime` (`walletRuntime.ts`) gives them to `run` as well.
 */
import { Effect, Layer, type LogLevel, ManagedRuntime, References, Result } from "effect"
import * as AtomRegistry from "effect/reactivity/AtomRegistry"
import type { Alert } from "./domain/alerts"
import { DEFAULT_LOG_LEVEL } from "./domain/constants"
import { decodeOptions, type HostOptions, type LogLevelOption } from "./domain/Options"
import type { BaseServices } from "./layers/Base"
import type { WalletServices } from "./layers/Core"
import { type EnvironmentOverrides, liveBaseLayer } from "./layers/Live"
import { memoMapAtom, servicesLayerAtom } from "./runtimeAtoms"

/**
 * A wallet runtime: the decoded options, the Effect runtime, the atom registry, and how to release them. `R` is what
 * `run` can use: every service, or, for the React provider's own runtime, those built at start.
 */
export interface WalletRuntime<R = WalletServices> {
  readonly options: HostOptions
  /** Alerts about the options (e.g. Project ID Not Configured); also shown by the modal. */
  readonly alerts: ReadonlyArray<Alert>
  readonly runtime: ManagedRuntime.ManagedRuntime<R, never>
  readonly registry: AtomRegistry.AtomRegistry
  /** Runs an effect against the runtime's services. */
  readonly run: <A, E>(effect: Effect.Effect<A, E, R>) => Promise<A>
  /** Releases the services, their fibers and the registry; safe to call twice. */
  readonly dispose: () => Promise<void>
}

/** What else a runtime can be made with. */
export interface WalletRuntimeSettings extends EnvironmentOverrides {
  /** Replaces the live services layer, e.g. with `testLayer` from `wallet-runtime/testing`. */
  readonly layer?: ((options: HostOptions, alerts: ReadonlyArray<Alert>) => Layer.Layer<WalletServices>) | undefined
}

// A host's bundler replaces `process.env.NODE_ENV` in a production build; anywhere else the name is not defined.
const isProductionBuild = (): boolean => {
  try {
    return process.env.NODE_ENV === "production"
  } catch {
    return false
  }
}

const LOG_LEVELS: { readonly [L in LogLevelOption]: LogLevel.LogLevel } = {
  trace: "Trace",
  debug: "Debug",
  info: "Info",
  warn: "Warn",
  error: "Error",
  fatal: "Fatal",
  none: "None"
}

/** The log level when the host sets none: spec 9's `error`, or nothing at all in a production build. */
export const defaultLogLevel = (production: boolean): LogLevel.LogLevel => (production ? "None" : LOG_LEVELS[DEFAULT_LOG_LEVEL])

/**
 * Makes a wallet runtime from the host's options: with `settings.layer`, over every service it gives; without, over
 * the services built at start (the React provider's runtime). Malformed options throw `InvalidOptions` (naming each
 * bad option) or `SiweSiwxConflict` here, at start, never later inside the modal.
 * @example const wallet = makeWalletRuntime({ projectId: "my-project", networks: [ethereum] }, { layer })
 */
export function makeWalletRuntime(
  input: unknown,
  settings: WalletRuntimeSettings & { readonly layer: NonNullable<WalletRuntimeSettings["layer"]> }
): WalletRuntime
export function makeWalletRuntime(input: unknown, settings?: WalletRuntimeSettings): WalletRuntime<BaseServices>
export function makeWalletRuntime(input: unknown, settings: WalletRuntimeSettings = {}): WalletRuntime<BaseServices> {
  const decoded = decodeOptions(input)
  if (Result.isFailure(decoded)) throw decoded.failure
  const { options, alerts } = decoded.success
  const services: Layer.Layer<BaseServices> = settings.layer?.(options, alerts) ?? liveBaseLayer(options, settings, alerts)
  // Composite layers are rebuilt by each builder; a suspended layer is memoised by the MemoMap, so the
  // ManagedRuntime and the atom runtime get the very same services, built once.
  // Every effect of the runtime (services, their fibers, the atoms') logs through Effect's Logger from this level up.
  const logLevel = options.logLevel === undefined ? defaultLogLevel(isProductionBuild()) : LOG_LEVELS[options.logLevel]
  const layer = Layer.suspend(() => services.pipe(Layer.provideMerge(Layer.succeed(References.MinimumLogLevel, logLevel))))
  const memoMap = Layer.makeMemoMapUnsafe()
  const runtime = ManagedRuntime.make(layer, { memoMap })
  const registry = AtomRegistry.make({
    initialValues: [
      [memoMapAtom, memoMap],
      [servicesLayerAtom, layer]
    ]
  })
  let disposed: Promise<void> | undefined
  return {
    options,
    alerts,
    runtime,
    registry,
    run: (effect) => runtime.runPromise(effect),
    dispose: () => {
      disposed ??= (async () => {
        registry.dispose()
        await runtime.dispose()
      })()
      return disposed
    }
  }
}
