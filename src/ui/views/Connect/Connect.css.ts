import { style } from "@vanilla-extract/css"
import { vars } from "../../theme/contract.css"

export const legal = style({
  margin: 0,
  textAlign: "center",
  fontSize: vars.fontSize.small,
  color: vars.color.textMuted
})

export const link = style({
  color: vars.color.text,
  textDecoration: "underline"
})
