import { style } from "@vanilla-extract/css"
import { vars } from "../../theme/contract.css"

/** A column of rows. */
export const list = style({
  display: "flex",
  flexDirection: "column",
  gap: vars.space.xs
})

/** A row: icon, text, tag and trailing mark in a line. */
export const item = style({
  display: "flex",
  alignItems: "center",
  gap: vars.space.m,
  width: "100%",
  minHeight: "52px",
  padding: `${vars.space.s} ${vars.space.m}`,
  borderRadius: vars.radius.medium,
  background: vars.color.surface,
  color: vars.color.text,
  textAlign: "start",
  transition: "background-color 120ms ease",
  selectors: {
    "&:hover:not(:disabled)": { background: vars.color.surfaceHover },
    "&:disabled": { cursor: "default", opacity: 0.6 },
    '&[aria-busy="true"]': { opacity: 1, cursor: "progress" }
  }
})

/** The label and sublabel, stacked, cut with an ellipsis. */
export const text = style({
  display: "flex",
  flexDirection: "column",
  flex: 1,
  minWidth: 0
})

/** The row's name. */
export const label = style({
  fontWeight: 600,
  overflow: "hidden",
  textOverflow: "ellipsis",
  whiteSpace: "nowrap"
})

/** A smaller, muted line under the name. */
export const sublabel = style({
  fontSize: vars.fontSize.small,
  color: vars.color.textMuted,
  overflow: "hidden",
  textOverflow: "ellipsis",
  whiteSpace: "nowrap"
})

/** A short outlined mark such as "Installed". */
export const tag = style({
  flexShrink: 0,
  padding: `2px ${vars.space.s}`,
  borderRadius: vars.radius.full,
  fontSize: vars.fontSize.small,
  fontWeight: 600,
  color: vars.color.success,
  border: `1px solid currentColor`
})

/** The mark at the end of the row (chevron, check). */
export const trailing = style({
  display: "inline-flex",
  flexShrink: 0,
  color: vars.color.textMuted
})
