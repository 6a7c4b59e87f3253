/**
 * The accent as text (links, link-looking buttons, marks) in the style of each view that shows such text, never in
 * the themes: the page's start carries none of it. Read only by `.css.ts` files, so it ends up as CSS, never as code.
 *
 * The host's accent fills buttons as given; as text it is moved in a straight line in linear light (CIE XYZ), towards
 * black in the light theme (luminance at most 0.13) or towards white in the dark one (at least 0.36). It stays in the
 * screen's gamut and keeps its hue, the default accent is itself in light, and any accent a host sets reads at 4.5:1
 * or more on the theme's background, surface and hovered surface. A browser without relative colours (before Chrome
 * 119, Safari 16.4, Firefox 128) finds the value invalid, so such text takes the colour around it: plain, readable.
 */
import type { StyleRule } from "@vanilla-extract/css"
import { vars } from "./contract.css"
import { darkTheme } from "./theme.css"

const D65_WHITE = { x: 0.9505, z: 1.0891 }

const darkerTo = (luminance: number) => {
  const k = `min(1, ${luminance} / y)`
  return `color(from ${vars.accent} xyz-d65 calc(x * ${k}) calc(y * ${k}) calc(z * ${k}))`
}

const lighterTo = (luminance: number) => {
  const t = `max(0, (${luminance} - y) / (1 - y))`
  return `color(from ${vars.accent} xyz-d65 calc(x + ${t} * (${D65_WHITE.x} - x)) calc(y + ${t} * (1 - y)) calc(z + ${t} * (${D65_WHITE.z} - z)))`
}

/** `rule` with its text in the accent, readable on the theme in force. */
export const linkText = (rule: StyleRule): StyleRule => ({
  ...rule,
  color: darkerTo(0.13),
  selectors: { ...rule.selectors, [`${darkTheme} &`]: { color: lighterTo(0.36) } }
})
