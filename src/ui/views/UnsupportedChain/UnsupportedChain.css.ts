import { style } from "@vanilla-extract/css"
import { vars } from "../../theme/contract.css"

/** The explanation. */
export const text = style({ margin: 0, color: vars.color.textMuted })
