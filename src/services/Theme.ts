/**
 * Theme: the look the host asks for now — light, dark, or the visitor's system preference (no mode), and the
 * host's `--wr-*` overrides. It starts from the options and the host may change it at any time (a theme toggle on
 * its page): the modal, the host buttons and, later, the embedded wallet's frame follow it.
 */
import { Context, Effect, Layer, SubscriptionRef } from "effect"
import type { ThemeMode } from "../domain/Account"
import type { InvalidOptions } from "../domain/errors"
import { decodeThemeVariables, type ThemeVariables } from "../domain/Options"
import { Config } from "./Config"

/** The theme in force: a mode (none follows the visitor's system) and the host's variable overrides. */
export interface ThemeState {
  readonly themeMode: ThemeMode | undefined
  readonly themeVariables: ThemeVariables | undefined
}

/** The theme the host asks for. */
export class Theme extends Context.Service<
  Theme,
  {
    readonly state: SubscriptionRef.SubscriptionRef<ThemeState>
    /** Sets the mode; `undefined` follows the visitor's system preference again. */
    readonly setThemeMode: (themeMode: ThemeMode | undefined) => Effect.Effect<void>
    /**
     * Replaces the host's variable overrides; an unknown name or a value outside its variable's grammar is refused
     * (InvalidOptions naming it) and changes nothing.
     */
    readonly setThemeVariables: (themeVariables: unknown) => Effect.Effect<void, InvalidOptions>
  }
>()("wallet-runtime/Theme") {
  /** The theme, starting from the options. */
  static readonly layer = Layer.effect(Theme)(
    Effect.gen(function* () {
      const config = yield* Config
      const state = yield* SubscriptionRef.make<ThemeState>({ themeMode: config.themeMode, themeVariables: config.themeVariables })
      return {
        state,
        setThemeMode: Effect.fn("Theme.setThemeMode")(function* (themeMode: ThemeMode | undefined) {
          yield* SubscriptionRef.update(state, (current) => ({ ...current, themeMode }))
        }),
        setThemeVariables: Effect.fn("Theme.setThemeVariables")(function* (input: unknown) {
          const themeVariables = yield* Effect.fromResult(decodeThemeVariables(input))
          yield* SubscriptionRef.update(state, (current) => ({ ...current, themeVariables }))
        })
      }
    })
  )
}
