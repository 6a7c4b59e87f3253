import { style } from "@vanilla-extract/css"
import { vars } from "../../theme/contract.css"

/** A round picture. */
export const avatar = style({
  display: "inline-block",
  flexShrink: 0,
  borderRadius: vars.radius.full,
  objectFit: "cover",
  background: vars.color.surfaceHover
})
