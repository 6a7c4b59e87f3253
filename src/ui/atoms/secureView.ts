/**
 * Atoms of the embedded wallet's secure views (only the Account view and the SecureFrame view import them): one
 * action per service method. Where the frame goes and what happens when its view ends is the EmbeddedWallet service's
 * decision.
 */
import { Effect } from "effect"
import type { SecureViewKind } from "../../domain/Frame"
import type { FramePlace } from "../../services/FrameBridge/FrameBridge"
import { EmbeddedWallet } from "../../services/Embedded/EmbeddedWallet"
import { walletRuntimeAtom } from "./runtime"

/** "Protect your wallet", "Export private key": the frame's view of `kind` in the modal. */
export const openSecureViewFn = walletRuntimeAtom.fn((kind: SecureViewKind) => Effect.flatMap(EmbeddedWallet, (embedded) => embedded.openSecureView(kind)))

/** The SecureFrame view is on screen: the frame shows its view over `place`. */
export const showSecureViewFn = walletRuntimeAtom.fn((place: FramePlace) => Effect.flatMap(EmbeddedWallet, (embedded) => embedded.showSecureView(place)))

/** The SecureFrame view is gone: the frame is hidden and drops its view. */
export const hideSecureViewFn = walletRuntimeAtom.fn((_: void) => Effect.flatMap(EmbeddedWallet, (embedded) => embedded.hideSecureView))

/** Asks the frame what protects the wallet (the Account view of an embedded wallet). */
export const refreshRecoveryFn = walletRuntimeAtom.fn((_: void) => Effect.flatMap(EmbeddedWallet, (embedded) => embedded.refreshRecovery))
