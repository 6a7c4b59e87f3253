/**
 * The accent as text (links, link-looking buttons, marks) and as the focus ring, derived once in the modal's dialog
 * (`accentReadable`, the view chunk's CSS), never in the themes: the page's start carries none of it. Read only by
 * `.css.ts` files, so it ends up as CSS, never as code.
 *
 * The host's accent fills buttons as given; as text it is moved in a straight line in linear light (CIE XYZ), towards
 * black in the light theme (luminance at most 0.13) or towards white in the dark one (at least 0.36): the expressions of
 * `readableAccent.ts`, which the embedded wallet's frame derives its secure views' colours with too. It stays in the
 * screen's gamut and keeps its hue, the default accent is itself in light, and any accent a host sets reads at 4.5:1
 * or more on the theme's background, surface and hovered surface; the dialog's focus ring is that colour too, so it
 * is 3:1 or more there (WCAG 1.4.11), where the plain default accent was 2.9:1 on the dark background. A browser
 * without relative colours (before Chrome 119, Safari 16.4, Firefox 128) gets neither: such text takes the colour
 * around it (plain, readable) and the ring stays the plain accent.
 */
import type { StyleRule } from "@vanilla-extract/css"
import { vars } from "./contract.css"
import { darkerTo, lighterTo, READABLE_LUMINANCE, RELATIVE_COLOURS } from "./readableAccent"
import { darkTheme } from "./theme.css"

// The readable accent, set only where the browser has relative colours: elsewhere it is unset, so text in it takes
// the colour around it, and the focus ring is not pointed at it (a ring in an unset colour would not show at all).
// Named here, not in the theme contract: the contract's names are code the page loads at start, and no host sets it.
const READABLE = "--wr-accent-readable"
const readable = `var(${READABLE})`

/** `rule` (the modal's dialog) deriving the readable accent for the theme in force, and its focus ring in it. */
export const accentReadable = (rule: StyleRule): StyleRule => ({
  ...rule,
  "@supports": {
    ...rule["@supports"],
    [RELATIVE_COLOURS]: {
      vars: { [READABLE]: darkerTo(vars.accent, READABLE_LUMINANCE.light), [vars.color.focus]: readable },
      selectors: { [`${darkTheme} &`]: { vars: { [READABLE]: lighterTo(vars.accent, READABLE_LUMINANCE.dark) } } }
    }
  }
})

/** `rule` with its text in the accent, readable on the theme in force (inside the modal's dialog). */
export const linkText = (rule: StyleRule): StyleRule => ({ ...rule, color: readable })

/**
 * `rule` for a link to a block explorer ('View on …'): the accent as text, and a control of its own, 24 px high to aim
 * at (WCAG 2.5.8), as every such link in the modal is.
 */
export const explorerLink = (rule: StyleRule = {}): StyleRule =>
  linkText({ display: "inline-flex", alignItems: "center", minHeight: "24px", fontWeight: 600, fontSize: vars.fontSize.small, ...rule })
