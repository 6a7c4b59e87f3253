/**
 * Light and dark themes (values of the contract's variables), and small shared styles. The host's accent fills
 * buttons as given; as text (`color.link`) it is made lighter in dark or darker in light where it would be too faint
 * to read on the theme's surfaces, keeping its hue.
 */
import { assignVars, keyframes, style } from "@vanilla-extract/css"
import { MODAL_WIDTH_PX, MODAL_Z_INDEX } from "../../domain/constants"
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

type Colors = { readonly [K in Exclude<keyof typeof vars.color, "focus" | "link">]: string }

// Surfaces mix in the host's `--wr-color-mix` by `--wr-color-mix-strength` percent, where the browser can.
const MIXED: ReadonlyArray<keyof Colors> = ["background", "surface", "surfaceHover", "border"]
const mixed = (base: string) =>
  `color-mix(in srgb, ${vars.colorMix} calc(${vars.colorMixStrength} * 1%), ${base})`

// The accent as text (links, link-looking buttons, marks): its colour moved in a straight line in linear light
// (CIE XYZ), towards black in light (luminance at most 0.13) or towards white in dark (at least 0.36). It stays in the
// screen's gamut and keeps its hue, the default accent is itself in light, and any accent a host sets reads at 4.5:1 or
// more on the theme's background, surface and hovered surface. A browser without relative colours (before Chrome 119,
// Safari 16.4, Firefox 128) finds the value invalid, so such text takes the colour around it: plain, still readable.
const D65_WHITE = { x: 0.9505, z: 1.0891 }
const darkerTo = (luminance: number) => {
  const k = `min(1, ${luminance} / y)`
  return `color(from ${vars.accent} xyz-d65 calc(x * ${k}) calc(y * ${k}) calc(z * ${k}))`
}
const lighterTo = (luminance: number) => {
  const t = `max(0, (${luminance} - y) / (1 - y))`
  return `color(from ${vars.accent} xyz-d65 calc(x + ${t} * (${D65_WHITE.x} - x)) calc(y + ${t} * (1 - y)) calc(z + ${t} * (${D65_WHITE.z} - z)))`
}

const theme = (colors: Colors, link: string, debugId: string) =>
  style({
    vars: assignVars(vars, { ...sizes, color: { ...colors, link, focus: vars.accent } }),
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
}, darkerTo(0.13), "light")

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
}, lighterTo(0.36), "dark")

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
