/**
 * Atoms of the passkey login (only its lazily fetched buttons import them): one action per service method. What
 * happens after the click (the popup, the ceremony, connecting) is the EmbeddedWallet service's decision.
 */
import { Effect } from "effect"
import type { PasskeyMode } from "../../domain/passkey"
import { EmbeddedWallet } from "../../services/Embedded/EmbeddedWallet"
import { walletRuntimeAtom } from "./runtime"

/** A passkey button: the embedded wallet opens the passkey window in this call. */
export const connectPasskeyFn = walletRuntimeAtom.fn((mode: PasskeyMode) => Effect.flatMap(EmbeddedWallet, (embedded) => embedded.connectPasskey(mode)))

/** Stops waiting for the passkey window. */
export const cancelPasskeyFn = walletRuntimeAtom.fn((_: void) => Effect.flatMap(EmbeddedWallet, (embedded) => embedded.cancelPasskey))
