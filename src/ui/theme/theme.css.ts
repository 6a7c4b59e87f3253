/**
 * Light and dark themes, and the scoped root every piece of our UI sits in: the root stops inheritance from the
 * host page (`all: initial`) and its descendants revert to the browser's defaults, so host rules such as
 * `button { … }` or `* { … }` cannot reach inside, while our own classes (declared after this file) still apply.
 */
import { assignVars, globalStyle, keyframes, style } from "@vanilla-extract/css"
import { vars } from "./contract.css"

const SYSTEM_FONTS =
  'ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif'

const sizes = {
  fontFamily: SYSTEM_FONTS,
  fontSizeMaster: "10px",
  borderRadiusMaster: "4px",
  accent: "#3358d4",
  colorMix: "#000000",
  colorMixStrength: "0",
  zIndex: "999",
  qrColor: "#000000",
  modalWidth: "360px",
  fontSize: {
    small: `calc(${vars.fontSizeMaster} * 1.2)`,
    body: `calc(${vars.fontSizeMaster} * 1.4)`,
    title: `calc(${vars.fontSizeMaster} * 1.6)`,
    large: `calc(${vars.fontSizeMaster} * 2.2)`
  },
  radius: {
    small: `calc(${vars.borderRadiusMaster} * 2)`,
    medium: `calc(${vars.borderRadiusMaster} * 3)`,
    large: `calc(${vars.borderRadiusMaster} * 6)`,
    full: "9999px"
  },
  space: { xs: "4px", s: "8px", m: "12px", l: "16px", xl: "24px" }
} as const

type Colors = { readonly [K in Exclude<keyof typeof vars.color, "focus">]: string }

// Surfaces mix in the host's `--wr-color-mix` by `--wr-color-mix-strength` percent, where the browser can.
const MIXED: ReadonlyArray<keyof Colors> = ["background", "surface", "surfaceHover", "border"]
const mixed = (base: string) =>
  `color-mix(in srgb, ${vars.colorMix} calc(${vars.colorMixStrength} * 1%), ${base})`

const theme = (colors: Colors, debugId: string) =>
  style({
    vars: assignVars(vars, { ...sizes, color: { ...colors, focus: vars.accent } }),
    "@supports": {
      "(color: color-mix(in srgb, red 50%, blue))": {
        vars: Object.fromEntries(MIXED.map((key) => [vars.color[key], mixed(colors[key])]))
      }
    }
  }, debugId)

/** The light theme (a class for the root element). */
export const lightTheme = theme({
  background: "#ffffff",
  surface: "#f3f4f6",
  surfaceHover: "#e6e8ec",
  border: "#dfe1e6",
  text: "#15171a",
  textMuted: "#595e6b",
  accentText: "#ffffff",
  error: "#b4232b",
  errorSurface: "#fdeced",
  success: "#1a7a44",
  overlay: "rgba(10, 12, 16, 0.45)",
  shadow: "0 12px 40px rgba(10, 12, 16, 0.18)"
}, "light")

/** The dark theme (a class for the root element). */
export const darkTheme = theme({
  background: "#17181c",
  surface: "#222329",
  surfaceHover: "#2d2f37",
  border: "#34363f",
  text: "#f1f2f4",
  textMuted: "#a6aab5",
  accentText: "#ffffff",
  error: "#ff8a8f",
  errorSurface: "#3a1d20",
  success: "#5fd38e",
  overlay: "rgba(0, 0, 0, 0.6)",
  shadow: "0 12px 40px rgba(0, 0, 0, 0.5)"
}, "dark")

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

/** Visible to screen readers only. */
export const visuallyHidden = style({
  position: "absolute",
  width: "1px",
  height: "1px",
  margin: "-1px",
  padding: 0,
  overflow: "hidden",
  clip: "rect(0 0 0 0)",
  whiteSpace: "nowrap",
  border: 0
})

/** A full turn, for spinners. */
export const spin = keyframes({ to: { transform: "rotate(360deg)" } })
