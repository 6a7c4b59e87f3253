import { style } from "@vanilla-extract/css"
import { vars } from "../../theme/contract.css"

/** One family's networks. */
export const group = style({ display: "flex", flexDirection: "column", gap: vars.space.s })

/** The family's name above its networks. */
export const groupTitle = style({
  margin: 0,
  fontSize: vars.fontSize.small,
  fontWeight: 600,
  color: vars.color.textMuted,
  textTransform: "uppercase",
  letterSpacing: "0.04em"
})
