import { style, styleVariants } from "@vanilla-extract/css"
import { vars } from "../../theme/contract.css"

export const region = style({
  position: "absolute",
  left: vars.space.l,
  right: vars.space.l,
  bottom: vars.space.l,
  display: "flex",
  justifyContent: "center",
  pointerEvents: "none"
})

const base = style({
  display: "inline-flex",
  alignItems: "center",
  gap: vars.space.s,
  maxWidth: "100%",
  padding: `${vars.space.s} ${vars.space.l}`,
  borderRadius: vars.radius.full,
  background: vars.color.text,
  color: vars.color.background,
  fontSize: vars.fontSize.small,
  fontWeight: 600,
  boxShadow: vars.color.shadow,
  pointerEvents: "auto"
})

export const snackbar = styleVariants({
  success: [base],
  info: [base],
  loading: [base],
  error: [base, { background: vars.color.error, color: vars.color.background }]
})
