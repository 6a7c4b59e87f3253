/**
 * The one theme contract of the product: every design token is a CSS variable named `--wr-…`, so a host can read
 * them, and the host-facing ones (`THEME_VARIABLE_NAMES` of the options) are the very variables the styles use.
 */
import { createGlobalThemeContract } from "@vanilla-extract/css"

const kebab = (key: string): string => key.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)

/** The theme contract: `vars.accent` is `var(--wr-accent)`, `vars.color.text` is `var(--wr-color-text)`… */
export const vars = createGlobalThemeContract(
  {
    // Set by the host through `themeVariables`; everything below derives from them.
    fontFamily: null,
    fontSizeMaster: null,
    borderRadiusMaster: null,
    accent: null,
    colorMix: null,
    colorMixStrength: null,
    zIndex: null,
    qrColor: null,
    modalWidth: null,
    color: {
      background: null,
      surface: null,
      surfaceHover: null,
      border: null,
      text: null,
      textMuted: null,
      accentText: null,
      error: null,
      errorSurface: null,
      success: null,
      overlay: null,
      focus: null,
      shadow: null
    },
    fontSize: { small: null, body: null, title: null, large: null },
    radius: { small: null, medium: null, large: null, full: null },
    space: { xs: null, s: null, m: null, l: null, xl: null }
  },
  (_value, path) => `wr-${path.map(kebab).join("-")}`
)
