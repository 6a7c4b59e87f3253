/**
 * The hover of a control filled with the accent (the modal's primary buttons, the page's Connect button): the fill
 * moves away from its text's colour, darker under white text and lighter under black, so the text's contrast only
 * grows; dimming the whole control (opacity) washed the text out. CSS alone, read only by those controls' `.css.ts`
 * files at build time: no script of the library carries it.
 */
import type { StyleRule } from "@vanilla-extract/css"
import { vars } from "./contract.css"
import { RELATIVE_COLOURS } from "./readableAccent"

// How far the fill moves towards black or white, in sRGB: a common hover's step, plainly seen on any accent but black
// or white themselves.
const STEP = "15%"

const COLOR_MIX = "(color: color-mix(in srgb, red 50%, blue))"

// The text's opposite: black under white text, white under black (the text is one or the other: textOn). Only where
// relative colours are, as that text's choice is; elsewhere the text is white and the opposite black.
const awayFromText = `color(from ${vars.color.accentText} srgb calc(1 - r) calc(1 - g) calc(1 - b))`

/**
 * The hover, at `selector` (`"&:hover"`), of a control filled with the accent: its fill `STEP` towards the side away
 * from its text. Without color-mix (before 2023), a shadow inside the control darkens the fill under the white text.
 */
export const accentHover = (selector: string): StyleRule => ({
  selectors: { [selector]: { background: vars.accent } },
  // In this order: every browser with relative colours has color-mix, and the later rule wins there.
  "@supports": {
    [`not ${COLOR_MIX}`]: { selectors: { [selector]: { boxShadow: `inset 0 0 0 100vmax rgb(0 0 0 / ${STEP})` } } },
    [COLOR_MIX]: { selectors: { [selector]: { background: `color-mix(in srgb, ${vars.accent}, black ${STEP})` } } },
    [RELATIVE_COLOURS]: { selectors: { [selector]: { background: `color-mix(in srgb, ${vars.accent}, ${awayFromText} ${STEP})` } } }
  }
})
