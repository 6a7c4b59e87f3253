import { style } from "@vanilla-extract/css"
import { vars } from "../../../theme/contract.css"

/** A panel's words instead of its list (nothing yet, a failure with its retry), centred. */
export const note = style({ margin: 0, padding: vars.space.l, textAlign: "center", color: vars.color.textMuted, fontSize: vars.fontSize.small })
