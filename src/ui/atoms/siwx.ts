/**
 * Atoms of sign-in with the wallet: where it stands for the account in front (from the Siwx service), and the sign
 * view's actions — sign, cancel — and the host's sign-out.
 */
import { Effect } from "effect"
import * as AsyncResult from "effect/reactivity/AsyncResult"
import type * as Atom from "effect/reactivity/Atom"
import { Siwx, type SiwxState } from "../../services/Siwx/Siwx"
import { mapAtom, stateAtom, walletRuntimeAtom } from "./runtime"

const siwxStateAtom = stateAtom(Effect.map(Siwx, (siwx) => siwx.state))

/** Sign-in's state, or `undefined` while the runtime starts. */
export const siwxAtom: Atom.Atom<SiwxState | undefined> = mapAtom(siwxStateAtom, (result) => AsyncResult.getOrElse(result, () => undefined))

/** Asks the wallet to sign the sign-in message (again, after a refusal). */
export const signInFn = walletRuntimeAtom.fn((_: void) => Effect.flatMap(Siwx, (siwx) => siwx.signIn))

/** The sign view's Cancel: disconnects when sign-in is required, otherwise closes the modal. */
export const cancelSignInFn = walletRuntimeAtom.fn((_: void) => Effect.flatMap(Siwx, (siwx) => siwx.cancel))

/** Revokes the session of the account in front. */
export const signOutFn = walletRuntimeAtom.fn((_: void) => Effect.flatMap(Siwx, (siwx) => siwx.signOut))
