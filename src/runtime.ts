/**
 * The one place layers become a runtime: `makeWalletRuntime(options)` decodes the host's options, builds the
 * services layer, and makes one ManagedRuntime and one AtomRegistry sharing one MemoMap, so the Effect API and the
 * React view see the same services. Nothing runs until the runtime is first used.
 */
import { Effect, Layer, ManagedRuntime, Result } from "effect"
import * as AtomRegistry from "effect/reactivity/AtomRegistry"
import type { Alert } from "./domain/alerts"
import { decodeOptions, type HostOptions } from "./domain/Options"
import type { WalletServices } from "./layers/Core"
import { type EnvironmentOverrides, liveLayer } from "./layers/Live"
import { memoMapAtom, servicesLayerAtom } from "./runtimeAtoms"

/** A wallet runtime: the decoded options, the Effect runtime, the atom registry, and how to release them. */
export interface WalletRuntime {
  readonly options: HostOptions
  /** Alerts about the options (e.g. Project ID Not Configured); also shown by the modal. */
  readonly alerts: ReadonlyArray<Alert>
  readonly runtime: ManagedRuntime.ManagedRuntime<WalletServices, never>
  readonly registry: AtomRegistry.AtomRegistry
  /** Runs an effect against the runtime's services. */
  readonly run: <A, E>(effect: Effect.Effect<A, E, WalletServices>) => Promise<A>
  /** Releases the services, their fibers and the registry; safe to call twice. */
  readonly dispose: () => Promise<void>
}

/** What else a runtime can be made with. */
export interface WalletRuntimeSettings extends EnvironmentOverrides {
  /** Replaces the live services layer, e.g. with `testLayer` from `wallet-runtime/testing`. */
  readonly layer?: ((options: HostOptions, alerts: ReadonlyArray<Alert>) => Layer.Layer<WalletServices>) | undefined
}

/**
 * Makes a wallet runtime from the host's options. Malformed options throw `InvalidOptions` (naming each bad
 * option) or `SiweSiwxConflict` here, at start, never later inside the modal.
 * @example const wallet = makeWalletRuntime({ projectId: "my-project", networks: [ethereum] })
 */
export const makeWalletRuntime = (input: unknown, settings: WalletRuntimeSettings = {}): WalletRuntime => {
  const decoded = decodeOptions(input)
  if (Result.isFailure(decoded)) throw decoded.failure
  const { options, alerts } = decoded.success
  const services = settings.layer?.(options, alerts) ?? liveLayer(options, settings, alerts)
  // Composite layers are rebuilt by each builder; a suspended layer is memoised by the MemoMap, so the
  // ManagedRuntime and the atom runtime get the very same services, built once.
  const layer = Layer.suspend(() => services)
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
