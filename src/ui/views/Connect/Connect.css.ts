import { style } from "@vanilla-extract/css"
import { vars } from "../../theme/contract.css"

/** The terms line under the list. */
export const legal = style({
  margin: 0,
  textAlign: "center",
  fontSize: vars.fontSize.small,
  color: vars.color.textMuted
})

/** A link of the terms line. */
export const link = style({
  color: vars.color.text,
  textDecoration: "underline"
})
