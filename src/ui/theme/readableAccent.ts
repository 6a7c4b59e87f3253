/**
 * The accent made readable, as CSS colour expressions (relative colours in CIE XYZ, D65): plain strings, no styles of
 * their own, so the modal's views (`linkText.ts`, at build time) and the embedded wallet's frame (its secure views, at
 * run time) derive the same colours without either pulling in the other's theme.
 *
 * A colour is moved in a straight line in linear light, towards black (luminance at most `light`) for a light
 * background or towards white (at least `dark`) for a dark one: it stays in the screen's gamut and keeps its hue, and
 * at these luminances it reads at 4.5:1 or more on either theme's background and surfaces (the modal's and the frame's).
 */

const D65_WHITE = { x: 0.9505, z: 1.0891 }

// The luminance above which black text reads better on a fill than white (both give 4.58:1 there).
const EQUAL_CONTRAST_LUMINANCE = 0.179

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
  const white = `clamp(0, (${EQUAL_CONTRAST_LUMINANCE} - y) * 1e6, 1)`
  return `color(from ${colour} xyz-d65 calc(${white} * ${D65_WHITE.x}) ${white} calc(${white} * ${D65_WHITE.z}))`
}
