import { style } from "@vanilla-extract/css"
import { vars } from "../../theme/contract.css"

/** A square tile holding the picture or the initial. */
export const icon = style({
  display: "inline-flex",
  alignItems: "center",
  justifyContent: "center",
  flexShrink: 0,
  overflow: "hidden",
  borderRadius: vars.radius.small,
  background: vars.color.surfaceHover,
  color: vars.color.textMuted,
  fontWeight: 700,
  objectFit: "cover"
})

/** Round instead of square (networks). */
export const round = style({ borderRadius: vars.radius.full })
