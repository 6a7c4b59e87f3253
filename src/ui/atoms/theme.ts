/** Atoms of the theme: the mode and variables in force, and the host's actions on them. */
import { Effect } from "effect"
import * as AsyncResult from "effect/reactivity/AsyncResult"
import type * as Atom from "effect/reactivity/Atom"
import type { ThemeMode } from "../../domain/Account"
import { Theme, type ThemeState } from "../../services/Theme"
import { mapAtom, stateAtom, walletRuntimeAtom } from "./runtime"

/** The theme in force, as a state result. */
export const themeStateAtom = stateAtom(Effect.map(Theme, (theme) => theme.state))

/** The theme in force, or `undefined` while the runtime starts (and on the server): the options' theme then. */
export const themeAtom: Atom.Atom<ThemeState | undefined> = mapAtom(themeStateAtom, (result) =>
  AsyncResult.getOrElse(result, () => undefined)
)

/** Sets the theme mode; `undefined` follows the visitor's system preference. */
export const setThemeModeFn = walletRuntimeAtom.fn((themeMode: ThemeMode | undefined) =>
  Effect.flatMap(Theme, (theme) => theme.setThemeMode(themeMode))
)

/** Replaces the host's theme variables (decoded: an unknown name is refused). */
export const setThemeVariablesFn = walletRuntimeAtom.fn((themeVariables: unknown) =>
  Effect.flatMap(Theme, (theme) => theme.setThemeVariables(themeVariables))
)
