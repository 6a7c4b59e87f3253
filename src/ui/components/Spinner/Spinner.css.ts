import { style } from "@vanilla-extract/css"
import { vars } from "../../theme/contract.css"
import { spin } from "../../theme/theme.css"

/** A turning ring in the current text colour. */
export const spinner = style({
  display: "inline-block",
  flexShrink: 0,
  borderRadius: vars.radius.full,
  border: "2px solid currentColor",
  borderRightColor: "transparent",
  animation: `${spin} 0.8s linear infinite`,
  verticalAlign: "middle"
})
