/**
 * The one theme contract of the product, and the scoped root every piece of our UI sits in.
 *
 * Every design token is a CSS variable named `--wr-…`, so a host can read them, and the host-facing ones
 * (`THEME_VARIABLE_NAMES` of the options) are the very variables the styles use.
 *
 * The root stops inheritance from the host page (`all: initial`) and its descendants revert to the browser's
 * defaults, so host rules such as `button { … }` or `* { … }` cannot reach inside. The reset lives here, in the
 * file every component style imports first, so it is emitted before them and our own classes win the ties.
 */
import { createGlobalThemeContract, globalStyle, style } from "@vanilla-extract/css"

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

/** The scoped root: no inheritance from the host page; our font, colour and sizes. */
export const root = style({
  all: "initial",
  boxSizing: "border-box",
  fontFamily: vars.fontFamily,
  fontSize: vars.fontSize.body,
  lineHeight: 1.4,
  color: vars.color.text,
  WebkitFontSmoothing: "antialiased",
  textAlign: "start"
})

// Specificity (0,1,0) beats a host's element and universal rules; our component classes come later and win ties.
// SVG is left alone: reverting would drop its presentation attributes (fill, stroke).
globalStyle(`${root} :where(*:not(svg, svg *)), ${root} :where(*:not(svg, svg *))::before, ${root} :where(*:not(svg, svg *))::after`, {
  all: "revert",
  boxSizing: "border-box",
  margin: 0,
  padding: 0,
  border: "0 solid transparent",
  font: "inherit",
  color: "inherit",
  background: "none",
  listStyle: "none",
  textDecoration: "none",
  letterSpacing: "inherit",
  textTransform: "none"
})

// Reverting drops what browsers map from attributes (`hidden`, `width`/`height`): `hidden` must still hide.
globalStyle(`${root} :where([hidden])`, { display: "none" })

globalStyle(`${root}:focus-visible, ${root} :where(:focus-visible)`, {
  outline: `2px solid ${vars.color.focus}`,
  outlineOffset: "2px"
})

globalStyle(`${root} :where(button:not(:disabled), [role="button"], [role="tab"], a[href])`, {
  cursor: "pointer"
})

globalStyle(`${root}, ${root} *`, {
  "@media": {
    "(prefers-reduced-motion: reduce)": {
      animationDuration: "0.01ms !important",
      animationIterationCount: "1 !important",
      transitionDuration: "0.01ms !important"
    }
  }
})
