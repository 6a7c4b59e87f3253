import { style, styleVariants } from "@vanilla-extract/css"
import { accentHover } from "../../theme/accentHover"
import { vars } from "../../theme/contract.css"

const base = style({
  display: "inline-flex",
  alignItems: "center",
  justifyContent: "center",
  gap: vars.space.s,
  minHeight: "40px",
  padding: `0 ${vars.space.l}`,
  borderRadius: vars.radius.full,
  fontSize: vars.fontSize.body,
  fontWeight: 600,
  whiteSpace: "nowrap",
  transition: "background-color 120ms ease, opacity 120ms ease",
  selectors: {
    "&:disabled": { cursor: "default", opacity: 0.6 },
    '&[aria-busy="true"]': { cursor: "progress", opacity: 1 }
  }
})

/** The variants of a labelled action. */
export const button = styleVariants({
  primary: [base, { background: vars.accent, color: vars.color.accentText, ...accentHover("&:hover:not(:disabled)") }],
  secondary: [
    base,
    {
      background: vars.color.surface,
      color: vars.color.text,
      selectors: { "&:hover:not(:disabled)": { background: vars.color.surfaceHover } }
    }
  ],
  danger: [
    base,
    {
      background: vars.color.surface,
      color: vars.color.error,
      selectors: { "&:hover:not(:disabled)": { background: vars.color.surfaceHover } }
    }
  ]
})

/** Stretch to the width of the view. */
export const fullWidth = style({ width: "100%" })

/** A round icon-only button (Back, Close, Copy). */
export const iconButton = style({
  display: "inline-flex",
  alignItems: "center",
  justifyContent: "center",
  width: "36px",
  height: "36px",
  flexShrink: 0,
  borderRadius: vars.radius.full,
  color: vars.color.textMuted,
  selectors: {
    "&:hover": { background: vars.color.surface, color: vars.color.text }
  }
})
