/** The demo visitor's theme choice, kept across reloads (the page's own setting, not the product's). */
import type { ThemeMode } from "wallet-runtime"

const STORAGE_KEY = "demo:theme"

/** The mode the visitor chose last, or `undefined` (the system's preference). */
export const storedThemeMode = (): ThemeMode | undefined => {
  const stored = localStorage.getItem(STORAGE_KEY)
  return stored === "light" || stored === "dark" ? stored : undefined
}

/** Keeps the visitor's choice. */
export const storeThemeMode = (mode: ThemeMode): void => localStorage.setItem(STORAGE_KEY, mode)
