/** Light and dark themes (values of the contract's variables), and small shared styles. */
import { assignVars, keyframes, style } from "@vanilla-extract/css"
import { MODAL_WIDTH_PX, MODAL_Z_INDEX } from "../../domain/constants"
import { vars } from "./contract.css"
import { RELATIVE_COLOURS, textOn } from "./readableAccent"

const SYSTEM_FONTS =
  'ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif'

const sizes = {
  fontFamily: SYSTEM_FONTS,
  fontSizeMaster: "10px",
  borderRadiusMaster: "4px",
  accent: "#3358d4",
  colorMix: "#000000",
  colorMixStrength: "0",
  zIndex: String(MODAL_Z_INDEX),
  qrColor: "#000000",
  modalWidth: `${MODAL_WIDTH_PX}px`,
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
      },
      // Text on the accent in force (the host's `--wr-accent`, inline on this same element, or the theme's): black or
      // white, whichever reads on it, so a pale accent gets black. Set here, not in the dialog's derivation
      // (linkText.ts), because the page's own Connect button is filled with the accent too. Without relative colours,
      // the plain white above (the default accent reads 6:1 under it).
      [RELATIVE_COLOURS]: { vars: { [vars.color.accentText]: textOn(vars.accent) } }
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
