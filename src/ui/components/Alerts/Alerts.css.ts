import { style } from "@vanilla-extract/css"
import { vars } from "../../theme/contract.css"

/** The alerts, stacked above the view. */
export const list = style({ display: "flex", flexDirection: "column", gap: vars.space.s, padding: `0 ${vars.space.l}` })

/** One alert: icon, text and dismiss button. */
export const alert = style({
  display: "flex",
  alignItems: "flex-start",
  gap: vars.space.s,
  padding: `${vars.space.s} ${vars.space.m}`,
  borderRadius: vars.radius.medium,
  background: vars.color.errorSurface,
  color: vars.color.error,
  fontSize: vars.fontSize.small
})

/** The alert's title and explanation. */
export const body = style({ display: "flex", flexDirection: "column", gap: "2px", flex: 1, minWidth: 0 })

/** The alert's short message and code. */
export const title = style({ fontWeight: 700 })

/** The dismiss button. */
export const dismiss = style({
  flexShrink: 0,
  display: "inline-flex",
  padding: "2px",
  borderRadius: vars.radius.small,
  color: "inherit"
})
