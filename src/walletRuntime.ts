/**
 * `makeWalletRuntime` as the `wallet-runtime` entry gives it: every service, the Swap and Buy forms included, to
 * `run`. It costs the React provider nothing: the provider makes its runtime with `runtime.ts` alone, and the forms'
 * code comes with this module, which only the Effect entry imports.
 */
import { liveLayer, type WalletServices } from "./layers/Core"
import { makeWalletRuntime as makeRuntime, type WalletRuntime, type WalletRuntimeSettings } from "./runtime"

/**
 * Makes a wallet runtime from the host's options, with every service (`settings.layer`'s, or the browser's own).
 * Malformed options throw `InvalidOptions` (naming each bad option) or `SiweSiwxConflict` here,
 * at start, never later inside the modal.
 * @example const wallet = makeWalletRuntime({ projectId: "my-project", networks: [ethereum] })
 */
export const makeWalletRuntime = (input: unknown, settings: WalletRuntimeSettings = {}): WalletRuntime<WalletServices> =>
  makeRuntime(input, { ...settings, layer: settings.layer ?? ((options, alerts) => liveLayer(options, settings, alerts)) })
