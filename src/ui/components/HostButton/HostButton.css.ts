import { style } from "@vanilla-extract/css"
import { vars } from "../../theme/contract.css"

/** The pill every host button is. */
export const hostButton = style({
  display: "inline-flex",
  alignItems: "center",
  gap: vars.space.s,
  minHeight: "40px",
  padding: `0 ${vars.space.l}`,
  borderRadius: vars.radius.full,
  border: `1px solid ${vars.color.border}`,
  background: vars.color.background,
  color: vars.color.text,
  fontWeight: 600,
  whiteSpace: "nowrap",
  cursor: "pointer",
  transition: "background-color 120ms ease",
  selectors: {
    "&:hover": { background: vars.color.surface },
    '&[aria-busy="true"]': { cursor: "progress" }
  }
})

/** The accent-filled variant (Connect). */
export const primary = style({
  background: vars.accent,
  color: vars.color.accentText,
  borderColor: "transparent",
  selectors: { "&:hover": { background: vars.accent, opacity: 0.9 } }
})

/** The error-coloured variant (unsupported network). */
export const warning = style({ color: vars.color.error })

/** A muted part of the label (the balance). */
export const muted = style({ color: vars.color.textMuted, fontWeight: 500 })
