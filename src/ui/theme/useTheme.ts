/**
 * The props that put an element at the root of our themed, scoped UI: the root and theme classes, and the host's
 * `themeVariables` as inline custom properties (inline, so they win over the theme's defaults on that element).
 */
import { type CSSProperties, useSyncExternalStore } from "react"
import type { ThemeMode } from "../../domain/Account"
import type { ThemeVariables } from "../../domain/Options"
import { isThemeVariableName, themeValueIssue } from "../../domain/themeValues"
import { type Core, useReady, useShell } from "../react/context"
import { useCoreValue } from "../react/useCore"
import { root } from "./contract.css"
import { darkTheme, lightTheme } from "./theme.css"

/** The class of each theme mode. */
export const themeClasses: { readonly [M in ThemeMode]: string } = { light: lightTheme, dark: darkTheme }

/** Props of a themed root element. */
export interface ThemeRootProps {
  readonly className: string
  readonly style: CSSProperties
  readonly "data-wr-theme": ThemeMode
}

const DARK_QUERY = "(prefers-color-scheme: dark)"

const subscribeToScheme = (onChange: () => void): (() => void) => {
  if (typeof window === "undefined" || typeof window.matchMedia !== "function") return () => {}
  const query = window.matchMedia(DARK_QUERY)
  query.addEventListener("change", onChange)
  return () => query.removeEventListener("change", onChange)
}

const prefersDark = (): boolean =>
  typeof window !== "undefined" && typeof window.matchMedia === "function" && window.matchMedia(DARK_QUERY).matches

/** The host's theme mode, or the visitor's system preference when the host set none (light on the server). */
export function useThemeMode(themeMode: ThemeMode | undefined): ThemeMode {
  const dark = useSyncExternalStore(subscribeToScheme, prefersDark, () => false)
  return themeMode ?? (dark ? "dark" : "light")
}

/**
 * Host theme variables as inline style; numbers are passed as written (custom properties take no unit). Only known
 * variables with a value of their grammar are written: this is where a value becomes CSS (on the server, HTML), so
 * a value that could end its declaration never gets here, whichever way it came (options read before decoding too).
 */
export const themeVariablesStyle = (variables: ThemeVariables | undefined): CSSProperties =>
  Object.fromEntries(
    Object.entries(variables ?? {})
      .filter(([name, value]) => isThemeVariableName(name) && themeValueIssue(name, value) === undefined)
      .map(([name, value]) => [name, String(value)])
  ) as CSSProperties

const pickTheme = (core: Core) => core.themeAtom

/**
 * The theme in force: the Theme service's (the host may change it at any time), or the options' while the runtime
 * starts and on the server, so the first render already has the host's look.
 */
export function useThemeState(): { readonly themeMode: ThemeMode | undefined; readonly themeVariables: ThemeVariables | undefined } {
  const shell = useShell()
  const ready = useReady()
  const options = ready?.runtime.options ?? shell.theme
  return useCoreValue(pickTheme, undefined) ?? { themeMode: options.themeMode, themeVariables: options.themeVariables }
}

/** The props of a root element of our UI, themed as the host asks now. */
export function useThemeRoot(...classNames: ReadonlyArray<string | false | undefined>): ThemeRootProps {
  const theme = useThemeState()
  const mode = useThemeMode(theme.themeMode)
  return {
    className: [root, themeClasses[mode], ...classNames].filter((name) => typeof name === "string" && name !== "").join(" "),
    style: themeVariablesStyle(theme.themeVariables),
    "data-wr-theme": mode
  }
}
