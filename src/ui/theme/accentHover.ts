/**
 * The hover of a control filled with the accent (the modal's primary buttons, the page's Connect button): the fill
 * moves away from its text's colour, darker under white text and lighter under black, so the text's contrast only
 * grows; deep and pale fills, where that step would barely show (black, white, a pale yellow), step towards their text
 * instead, which still reads at 5:1 or more. Dimming the whole control (opacity) washed the text out. CSS alone, read only by those
 * controls' `.css.ts` files at build time: no script of the library carries it.
 */
import type { StyleRule } from "@vanilla-extract/css"
import { vars } from "./contract.css"
import { EQUAL_CONTRAST_LUMINANCE, RELATIVE_COLOURS } from "./readableAccent"

// How far the fill moves towards black or white, in sRGB: a common hover's step, plainly seen on any accent.
const STEP = "15%"

const COLOR_MIX = "(color: color-mix(in srgb, red 50%, blue))"

// Luminances past which a step away from the text would barely show (black, white, and pale or deep fills near them:
// a pale yellow lightened by the step changes by 4 %): there the fill steps towards its text instead, and the text still
// reads at 5:1 or more (white on a fill below 0.06 lifted by the step stays under 0.16; black on one above 0.3 dimmed
// by it stays over 0.2). Between them a step away changes the fill by a fifth or more.
const DEEP = 0.06
const PALE = 0.3

// A step in the accent's luminance y: 1 below `at`, 0 above (steep, as the text's own choice: textOn).
const below = (at: number) => `clamp(0, (${at} - y) * 1e6, 1)`

// White (1) or black (0) for the fill to move towards: away from its text (black under white text, the accent under
// EQUAL_CONTRAST_LUMINANCE; white under black text), except where that would barely show. Only where relative
// colours are, as the text's choice is; elsewhere the text is white and the fill moves towards black.
const towardsWhite = `(${below(DEEP)} + 1 - ${below(EQUAL_CONTRAST_LUMINANCE)} - (1 - ${below(PALE)}))`
const hoverTarget = `color(from ${vars.accent} xyz-d65 calc(${towardsWhite} * 0.9505) calc(${towardsWhite}) calc(${towardsWhite} * 1.0891))`

/**
 * The hover, at `selector` (`"&:hover"`), of a control filled with the accent: its fill `STEP` towards the side away
 * from its text (towards it where that would barely show). Without color-mix (before 2023), a shadow inside the
 * control darkens the fill under the white text.
 */
export const accentHover = (selector: string): StyleRule => ({
  selectors: { [selector]: { background: vars.accent } },
  // In this order: every browser with relative colours has color-mix, and the later rule wins there.
  "@supports": {
    [`not ${COLOR_MIX}`]: { selectors: { [selector]: { boxShadow: `inset 0 0 0 100vmax rgb(0 0 0 / ${STEP})` } } },
    [COLOR_MIX]: { selectors: { [selector]: { background: `color-mix(in srgb, ${vars.accent}, black ${STEP})` } } },
    [RELATIVE_COLOURS]: { selectors: { [selector]: { background: `color-mix(in srgb, ${vars.accent}, ${hoverTarget} ${STEP})` } } }
  }
})
