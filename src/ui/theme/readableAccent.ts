/**
 * The accent made readable, as CSS colour expressions (relative colours in CIE XYZ, D65): plain strings, no styles of
 * their own, so the modal's themes and views (`theme.css.ts`, `linkText.ts`, at build time) and the embedded wallet's
 * frame (its secure views, at run time) derive the same colours without either pulling in the other's theme.
 *
 * A colour is moved in a straight line in linear light, towards black (luminance at most `light`) for a light
 * background or towards white (at least `dark`) for a dark one: it stays in the screen's gamut and keeps its hue, and
 * at these luminances it reads at 4.5:1 or more on either theme's background and surfaces (the modal's and the frame's).
 */

const D65_WHITE = { x: 0.9505, z: 1.0891 }

/** The `@supports` condition of relative colours in XYZ (Chrome 119, Safari 16.4, Firefox 128): what these expressions need. */
export const RELATIVE_COLOURS = "(color: color(from red xyz-d65 x y z))"

// The luminance (XYZ's y, WCAG's relative luminance) where white and black text read equally on a fill: white gives
// 1.05 / (y + 0.05), black (y + 0.05) / 0.05, equal at y = sqrt(0.0525) - 0.05 = 0.179, both 4.58:1 there. Below it
// white reads better, above it black, and the better one only gains away from it: whichever is chosen reads at 4.58:1
// or more on any fill, so wherever one of them can reach 4.5:1, the chosen one does. Anywhere else fails some fills:
// at OKLCH's lightness 0.5 (luminance 0.125), fills of luminance 0.125 to 0.179 would get black at 3.5 to 4.58:1, where
// white reads at 6 to 4.58:1.
export const EQUAL_CONTRAST_LUMINANCE = 0.179

/** The luminance the accent as text is held to: at most `light` on a light theme, at least `dark` on a dark one. */
export const READABLE_LUMINANCE = { light: 0.13, dark: 0.36 } as const

/** `colour` darkened, if need be, to a luminance of at most `luminance` (text on a light background). */
export const darkerTo = (colour: string, luminance: number): string => {
  const k = `min(1, ${luminance} / y)`
  return `color(from ${colour} xyz-d65 calc(x * ${k}) calc(y * ${k}) calc(z * ${k}))`
}

/** `colour` lightened, if need be, to a luminance of at least `luminance` (text on a dark background). */
export const lighterTo = (colour: string, luminance: number): string => {
  const t = `max(0, (${luminance} - y) / (1 - y))`
  return `color(from ${colour} xyz-d65 calc(x + ${t} * (${D65_WHITE.x} - x)) calc(y + ${t} * (1 - y)) calc(z + ${t} * (${D65_WHITE.z} - z)))`
}

/** White or black, whichever reads better on a fill of `colour` (a button filled with a host's accent, pale or dark). */
export const textOn = (colour: string): string => {
  // 1 (white) below the threshold, 0 (black) above it: steep enough that only a luminance within a millionth of it
  // would give a grey, and there both read at 4.58:1 anyway.
  const white = `clamp(0, (${EQUAL_CONTRAST_LUMINANCE} - y) * 1e6, 1)`
  return `color(from ${colour} xyz-d65 calc(${white} * ${D65_WHITE.x}) ${white} calc(${white} * ${D65_WHITE.z}))`
}
