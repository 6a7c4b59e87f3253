import { style } from "@vanilla-extract/css"
import { vars } from "../../theme/contract.css"

export const group = style({ display: "flex", flexDirection: "column", gap: vars.space.s })

export const groupTitle = style({
  margin: 0,
  fontSize: vars.fontSize.small,
  fontWeight: 600,
  color: vars.color.textMuted,
  textTransform: "uppercase",
  letterSpacing: "0.04em"
})
