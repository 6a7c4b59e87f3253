/**
 * Atoms of the RegisterAccountName and RegisterAccountNameSuccess views: the name-registration form's state (from the
 * Names service) and its actions — open it, prepare it for the account in front, type, choose a suggestion,
 * register, finish.
 */
import { Effect } from "effect"
import * as AsyncResult from "effect/reactivity/AsyncResult"
import type * as Atom from "effect/reactivity/Atom"
import { Names } from "../../services/Names"
import type { NamesState } from "../../services/namesState"
import { mapAtom, stateAtom, walletRuntimeAtom } from "./runtime"

/** The form's state, as the service holds it. */
const namesStateAtom = stateAtom(Effect.map(Names, (names) => names.state))

/** The name-registration form, or `undefined` while the runtime starts. */
export const namesAtom: Atom.Atom<NamesState | undefined> = mapAtom(namesStateAtom, (result) => AsyncResult.getOrElse(result, () => undefined))

/** Opens a fresh form for the account in front. */
export const openNamesFn = walletRuntimeAtom.fn((_: void) => Effect.flatMap(Names, (names) => names.open))

/** Starts the form when it is not the account in front's (the view was opened another way). */
export const prepareNamesFn = walletRuntimeAtom.fn((_: void) => Effect.flatMap(Names, (names) => names.prepare))

/** The name as the visitor types it. */
export const setNameInputFn = walletRuntimeAtom.fn((text: string) => Effect.flatMap(Names, (names) => names.setInput(text)))

/** A suggested name chosen. */
export const chooseNameFn = walletRuntimeAtom.fn((label: string) => Effect.flatMap(Names, (names) => names.choose(label)))

/** Registers a name (again, after a failure). */
export const registerNameFn = walletRuntimeAtom.fn((label: string) => Effect.flatMap(Names, (names) => names.register(label)))

/** Ends a registration: a fresh form, back on the account. */
export const finishNamesFn = walletRuntimeAtom.fn((_: void) => Effect.flatMap(Names, (names) => names.finish))
